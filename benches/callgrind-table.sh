#!/usr/bin/env bash
# Instruction counts (millions, callgrind `Ir` inside the profiled operation only) of
# profile_codec operations on every dataset: stable on a noisy machine, so two builds
# or two operations compare exactly. Usage:
#   benches/callgrind-table.sh [--bytes N] OPERATION...
#   benches/callgrind-table.sh decode json-decode decode-typed json-typed
# Prints one markdown row per dataset, one column per operation.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bytes=300000
if [ "${1:-}" = "--bytes" ]; then bytes="$2"; shift 2; fi
[ "$#" -gt 0 ] || { echo "usage: $0 [--bytes N] OPERATION..." >&2; exit 2; }
cd "$root"
# shellcheck source=benches/profile-codec-bin.sh
source "$root/benches/profile-codec-bin.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf '| dataset |'; for op in "$@"; do printf ' %s |' "$op"; done; printf '\n| --- |'
for _ in "$@"; do printf ' ---: |'; done; printf '\n'
for d in employees orders analytics events config flags contacts tickets; do
  printf '| %s |' "$d"
  for op in "$@"; do
    ir=$(count_instructions "$op" "$d" "$bytes" "$tmp/cg" 2>/dev/null) ||
      { printf ' error |'; continue; }
    awk -v ir="$ir" 'BEGIN { printf " %.2f |", ir / 1e6 }'
  done
  printf '\n'
done
