// Plan TOON against the reference decoder: every plan in testdata/plans (and, with
// --seeds, nothing more: seed examples are covered by the Rust tests) converted with
// the `toon` binary to every dialect as TOON and as JSON; the reference
// @toon-format/toon 4.4.0 must decode the TOON to the same value as the JSON.
//
//   cd scripts/differential && npm install && node diff-plans.mjs
//
// Exit code 0 when every pair agrees, 1 otherwise.
import { decode } from "@toon-format/toon";
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { fileURLToPath } from "node:url";
import path from "node:path";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const build = spawnSync("cargo", ["build", "-q", "-p", "toon-cli"], { cwd: repo, encoding: "utf8" });
if (build.status !== 0) {
  console.error(build.stderr);
  process.exit(2);
}
const toonBin = path.join(repo, "target/debug/toon");
const DIALECTS = ["cursor", "plandag", "composite", "workflow", "staged", "tooldag", "taskmaster", "kiro", "speckit", "plan"];

function plans(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return name === "invalid" ? [] : plans(p);
    return [p];
  });
}

function convert(file, to, format) {
  const run = spawnSync(toonBin, ["plan", "convert", file, "--to", to, "--format", format, "--force"], {
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  return run.stdout;
}

let compared = 0;
let mismatches = 0;
for (const file of plans(path.join(repo, "testdata/plans"))) {
  for (const to of DIALECTS) {
    const json = convert(file, to, "json");
    const toon = convert(file, to, "toon");
    if (!json || !toon) continue; // not convertible (e.g. not a plan of any dialect)
    compared++;
    let same;
    try {
      same = isDeepStrictEqual(decode(toon), JSON.parse(json));
    } catch (e) {
      same = false;
    }
    if (!same) {
      mismatches++;
      console.log(`--- ${path.relative(repo, file)} → ${to}: the reference decodes the TOON differently`);
    }
  }
}
console.log(`${compared} plan conversions compared with the reference decoder, ${mismatches} mismatches`);
process.exit(mismatches === 0 && compared > 0 ? 0 : 1);
