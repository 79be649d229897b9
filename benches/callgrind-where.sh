#!/usr/bin/env bash
# Where one profile_codec operation spends its instructions: the functions with the
# largest self cost (callgrind `Ir`, counted only inside the profiled operation), as a
# markdown table with each one's share of the operation. Usage:
#   benches/callgrind-where.sh [--bytes N] [--top N] OPERATION DATASET
#   benches/callgrind-where.sh decode-typed config
# Operations are those of benches/benches/profile_codec.rs; datasets those of
# benches/callgrind-table.sh. Load-independent, like callgrind-table.sh.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bytes=300000
top=12
while [ "$#" -gt 2 ]; do
  case "$1" in
    --bytes) bytes="$2"; shift 2 ;;
    --top) top="$2"; shift 2 ;;
    *) break ;;
  esac
done
[ "$#" -eq 2 ] || { echo "usage: $0 [--bytes N] [--top N] OPERATION DATASET" >&2; exit 2; }
op="$1"
dataset="$2"
cd "$root"
# shellcheck source=benches/profile-codec-bin.sh
source "$root/benches/profile-codec-bin.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
total=$(count_instructions "$op" "$dataset" "$bytes" "$tmp/cg") || exit 1
printf '%s on %s: %.2f M instructions\n\n' "$op" "$dataset" "$(awk -v t="$total" 'BEGIN { print t / 1e6 }')"
[ "$top" -gt 0 ] || exit 0
printf '| self (M) | share | function |\n| ---: | ---: | --- |\n'
# callgrind_annotate prints "  1,234,567 (12.34%)  file:function [object]" per function;
# copies of one generic function (one per type) are summed under its path.
callgrind_annotate --inclusive=no --threshold=100 --auto=no "$tmp/cg" 2>/dev/null |
  sed -n 's/^ *\([0-9,]*\) *([ 0-9.]*%) *\(.*\)$/\1\t\2/p' |
  grep -v 'PROGRAM TOTALS' |
  sed -e 's/\t[^\t:]*:/\t/' -e 's/ \[[^]]*\]$//' -e 's/::h[0-9a-f]\{16\}$//' -e "s/'[0-9]*$//" -e 's/|/\\|/g' |
  awk -F'\t' -v t="$total" '
    { gsub(",", "", $1); ir[$2] += $1 }
    END { for (f in ir) printf "%d\t%s\n", ir[f], f }' |
  sort -t$'\t' -k1,1nr | head -n "$top" |
  awk -F'\t' -v t="$total" '{ printf "| %.2f | %.1f%% | `%s` |\n", $1 / 1e6, 100 * $1 / t, $2 }'
