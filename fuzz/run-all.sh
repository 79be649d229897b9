#!/usr/bin/env bash
# Runs every fuzz target (or the ones named after SECONDS) for SECONDS seconds each
# (default 60), one after another, single job; exits non-zero if any target crashes.
#
#   fuzz/run-all.sh 600                 # ten minutes per target
#   fuzz/run-all.sh 60 decode roundtrip # just these two
#
# Needs cargo-fuzz (`cargo install cargo-fuzz --locked`); works on stable Rust through
# RUSTC_BOOTSTRAP=1. The committed seeds in fuzz/corpus/<target>/ are read, never
# written: what a run discovers goes to fuzz/scratch/<target>/ (gitignored), crashes to
# fuzz/artifacts/<target>/, and a log per target to fuzz/scratch/logs/.
set -euo pipefail
cd "$(dirname "$0")"
secs="${1:-60}"
shift || true
export RUSTC_BOOTSTRAP=1
# Build once, then run the binaries directly: edits made to the crates while the
# fuzzers run do not trigger rebuilds in the middle.
cargo fuzz build
bin="target/$(rustc -vV | sed -n 's/^host: //p')/release"
if [ $# -gt 0 ]; then targets="$*"; else targets=$(cargo fuzz list); fi
mkdir -p scratch/logs
status=0
for t in $targets; do
  mkdir -p "scratch/$t"
  echo "=== $t for ${secs}s"
  log="scratch/logs/$t.log"
  mkdir -p "artifacts/$t"
  dict=toon.dict
  case "$t" in *_plan) dict=plan.dict ;; esac
  seeds="corpus/$t"
  # The streaming decoder reads the same inputs as the tree decoder: share its seeds.
  case "$t" in stream | reader) seeds="corpus/decode" ;; esac
  if "$bin/$t" "scratch/$t" "$seeds" -artifact_prefix="artifacts/$t/" \
      -dict="$dict" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
      -max_len=65536 -print_final_stats=1 >"$log" 2>&1; then
    grep -E "^stat::number_of_executed_units|Done [0-9]+ runs" "$log" | tail -n 2 || true
  else
    tail -n 30 "$log"
    echo "!!! $t crashed: see fuzz/artifacts/$t/ and $log"
    status=1
  fi
done
exit $status
