// Shared by the differential scripts: command-line options, and running one of the
// toon crate's JSON-lines examples (crates/toon/examples/*_jsonl.rs) on a batch of
// requests.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";

/** `--name value` pairs of the command line, as an object of strings. */
export function options() {
  return Object.fromEntries(
    process.argv.slice(2).reduce((acc, a, i, all) => {
      if (a.startsWith("--")) acc.push([a.slice(2), all[i + 1]]);
      return acc;
    }, []),
  );
}

/**
 * Runs `cargo run --release -p toon --example <example>` with one request per line on
 * stdin and returns its replies, one parsed JSON value per request. Exits with code 2
 * when the example fails or answers a different number of lines.
 */
export function runExample(example, requests) {
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
  const run = spawnSync(
    "cargo",
    ["run", "-q", "--release", "-p", "toon", "--example", example],
    { cwd: repo, input: requests.join("\n") + "\n", maxBuffer: 1 << 30, encoding: "utf8" },
  );
  if (run.status !== 0) {
    console.error(run.stderr);
    process.exit(2);
  }
  const replies = run.stdout.split("\n").filter((l) => l.length > 0).map((l) => JSON.parse(l));
  if (replies.length !== requests.length) {
    console.error(`expected ${requests.length} replies, got ${replies.length}`);
    process.exit(2);
  }
  return replies;
}
