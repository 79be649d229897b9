#!/usr/bin/env bash
# Instructions per task (callgrind `Ir` inside plan_convert's `profiled` function) of
# reading a generated Cursor plan and of converting it to every dialect, at two sizes:
# equal figures mean the work grows linearly with the tasks, whatever the caches and
# the machine's load do to the time. Usage:
#   benches/plan-convert-instructions.sh [SMALL LARGE]     (default 1000 10000)
# Prints the markdown of benches/results/plan-convert-instructions.md:
#   benches/plan-convert-instructions.sh > benches/results/plan-convert-instructions.md
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
small="${1:-1000}"
large="${2:-10000}"
cd "$root"
bin=$(cargo bench -p toon-benches --bench plan_convert --no-run --message-format=json 2>/dev/null |
  sed -n 's/.*"executable":"\([^"]*plan_convert[^"]*\)".*/\1/p' | tail -1)
[ -x "$bin" ] || { echo "plan_convert did not build" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
per_task() {
  valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*profiled*' \
    --callgrind-out-file="$tmp/cg" "$bin" --once "$2" "$1" >/dev/null 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; return 1; }
  ir=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/err")
  awk -v ir="$ir" -v n="$2" 'BEGIN { printf "%.0f", ir / n }'
}
cat <<DOC
# Plan conversion: instructions per task

Instructions (callgrind \`Ir\`, counted inside \`plan_convert\`'s \`profiled\` function only) per task of
reading the generated Cursor plan of \`benches/benches/plan_convert.rs\` (each todo depends on the one
before and on one five back) and, for the \`convert to\` rows, reading it and converting it to each
dialect (\`toon_plan::convert\`: fill, write, read back, compare, validate as the target), at
$small and $large tasks. Unlike time, instruction counts do not depend on the machine's load or on
how much of the plan fits in the caches: a ratio of 1.00 means the work grows linearly with the
number of tasks. Regenerate with

\`\`\`sh
benches/plan-convert-instructions.sh > benches/results/plan-convert-instructions.md
\`\`\`

DOC
printf '| operation | instructions/task at %s | at %s | ratio |\n| --- | ---: | ---: | ---: |\n' \
  "$small" "$large"
targets=$("$bin" --list-targets)
for to in read $targets; do
  a=$(per_task "$to" "$small")
  b=$(per_task "$to" "$large")
  name="convert to $to"; [ "$to" = read ] && name="read cursor md"
  awk -v name="$name" -v a="$a" -v b="$b" 'BEGIN { printf "| %s | %d | %d | %.3f |\n", name, a, b, b / a }'
done
