# Sourced by the callgrind scripts: sets `bin` to the profile_codec bench binary (the one
# named by TOON_PROFILE_CODEC if set: benches/run-throughput.sh builds it before the
# report, which cannot run cargo while cargo runs it; else built here, release profile)
# and defines count_instructions, the one callgrind run of an operation.
if [ -n "${TOON_PROFILE_CODEC:-}" ]; then
  bin="$TOON_PROFILE_CODEC"
else
  bin=$(cargo bench -p toon-benches --bench profile_codec --no-run --message-format=json 2>/dev/null |
    sed -n 's/.*"executable":"\([^"]*profile_codec[^"]*\)".*/\1/p' | tail -1)
fi
[ -x "$bin" ] || { echo "profile_codec did not build" >&2; exit 1; }

# count_instructions OPERATION DATASET BYTES OUT: runs the operation under callgrind,
# counting only inside the profiled operation, the profile written to OUT; prints the
# instruction count, or the program's own error (without valgrind's lines) and fails.
count_instructions() {
  valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*profiled*' \
    --callgrind-out-file="$4" "$bin" "$1" "$2" "$3" >/dev/null 2>"$4.err" ||
    { grep -v '^==' "$4.err" >&2; return 1; }
  sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$4.err"
}
