#!/usr/bin/env bash
# Regenerates benches/results/throughput.md: throughput of our codec, the toon-format
# 0.7 crate, the TypeScript reference (@toon-format/toon 4.4.0 in Node.js, when node and
# npm are present) and serde_json on the same generated datasets, plus peak memory and
# agreement checks. Extra arguments go to the report, e.g.
#   benches/run-throughput.sh --bytes 100000 --budget-ms 500 --out /tmp/throughput.md
# Takes about 10 minutes at the default ~10 MB per dataset, and a few more to profile
# each missed target with callgrind (--no-profiles skips that). Run it on a quiet machine.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
node_dir="$root/scripts/bench-node"

# glibc reads tunables at start-up; the report also re-executes itself to set this.
case "${GLIBC_TUNABLES:-}" in
  *glibc.malloc.mxfast*) ;;
  "") export GLIBC_TUNABLES="glibc.malloc.mxfast=0" ;;
  *) export GLIBC_TUNABLES="$GLIBC_TUNABLES:glibc.malloc.mxfast=0" ;;
esac

if command -v node >/dev/null && command -v npm >/dev/null; then
  if [ ! -f "$node_dir/node_modules/@toon-format/toon/package.json" ]; then
    (cd "$node_dir" && npm ci --no-audit --no-fund --loglevel=error)
  fi
else
  echo "node/npm not found: the TypeScript reference will not be measured" >&2
fi

cd "$root"
# The report profiles each missed target with callgrind through profile_codec, which must
# be built before: cargo cannot build while it runs the report.
if command -v valgrind >/dev/null; then
  unset TOON_PROFILE_CODEC
  # shellcheck source=benches/profile-codec-bin.sh
  source "$root/benches/profile-codec-bin.sh"
  export TOON_PROFILE_CODEC="$bin"
else
  echo "valgrind not found: the missed targets will not be profiled" >&2
fi
exec cargo bench -p toon-benches --bench throughput_report -- "$@"
