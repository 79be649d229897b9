#!/usr/bin/env bash
# Runs every fuzz target for SECONDS seconds each (default 60); exits non-zero on any
# crash. Needs cargo-fuzz (`cargo install cargo-fuzz`); works on stable Rust through
# RUSTC_BOOTSTRAP=1. Corpora grow in fuzz/corpus/<target>/ (seeds are committed).
set -euo pipefail
cd "$(dirname "$0")"
secs="${1:-60}"
export RUSTC_BOOTSTRAP=1
targets=$(cargo fuzz list)
status=0
for t in $targets; do
  mkdir -p "corpus/$t"
  echo "=== $t for ${secs}s"
  if ! cargo fuzz run "$t" "corpus/$t" -- -dict=toon.dict -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 2>&1 | tail -n 4; then
    echo "!!! $t found a crash (see fuzz/artifacts/$t/)"
    status=1
  fi
done
exit $status
