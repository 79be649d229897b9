# Sourced by the callgrind scripts: sets `bin` to the profile_codec bench binary, the one
# named by TOON_PROFILE_CODEC if set (benches/run-throughput.sh builds it before the
# report, which cannot run cargo while cargo runs it), else built here (release profile).
if [ -n "${TOON_PROFILE_CODEC:-}" ]; then
  bin="$TOON_PROFILE_CODEC"
else
  bin=$(cargo bench -p toon-benches --bench profile_codec --no-run --message-format=json 2>/dev/null |
    sed -n 's/.*"executable":"\([^"]*profile_codec[^"]*\)".*/\1/p' | tail -1)
fi
[ -x "$bin" ] || { echo "profile_codec did not build" >&2; exit 1; }
