// Times the TypeScript reference implementation (@toon-format/toon, pinned in
// package.json) on the files the Rust throughput report writes, so all implementations
// are measured on the same bytes.
//
//   npm install
//   node --expose-gc bench.mjs [--budget-ms N] [--min-runs N] [--max-runs N] FILE.json...
//   node bench.mjs --peak-encode FILE.json
//
// For each FILE.json (JSON.stringify of a dataset) the TOON text must sit beside it as
// FILE.toon (our encoder's output). One JSON line per file goes to stdout:
//   {"file", "encode": {"median_ms", "runs"}, "decode": {...},
//    "encode_matches": <encode(JSON.parse(json)) === toon text>,
//    "decode_matches": <JSON.stringify(decode(toon text)) === json text>}
// Timing: one untimed warm-up, then runs until both --min-runs and --budget-ms are
// reached (or --max-runs); the median is reported. With --expose-gc, a full collection
// runs before each timed run, outside the timing.
//
// --peak-encode reads FILE.json, parses it, encodes it to TOON, and prints
//   {"peak_kb": VmHWM of this process, "output_bytes": UTF-8 length of the TOON text}.

import { readFileSync } from "node:fs";
import { encode, decode } from "@toon-format/toon";

const USAGE =
  "usage: node bench.mjs [--budget-ms N] [--min-runs N] [--max-runs N] FILE.json...\n" +
  "       node bench.mjs --peak-encode FILE.json";

function parseArgs(argv) {
  const options = { budgetMs: 2000, minRuns: 5, maxRuns: 200, peak: null, files: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const number = () => {
      const text = argv[++i];
      const n = Number(text);
      if (!Number.isFinite(n) || n < 0) throw new Error(`${arg} needs a number, got ${text}`);
      return n;
    };
    switch (arg) {
      case "--budget-ms": options.budgetMs = number(); break;
      case "--min-runs": options.minRuns = Math.max(1, number()); break;
      case "--max-runs": options.maxRuns = Math.max(1, number()); break;
      case "--peak-encode": options.peak = argv[++i]; break;
      case "-h": case "--help": throw new Error(USAGE);
      default:
        if (arg.startsWith("--")) throw new Error(`unknown option ${arg}\n${USAGE}`);
        options.files.push(arg);
    }
  }
  if (options.peak === undefined) throw new Error(`--peak-encode needs a file\n${USAGE}`);
  if (options.peak === null && options.files.length === 0) throw new Error(USAGE);
  return options;
}

/** Runs `work` once untimed, then times it; returns the median in milliseconds. */
function measure(work, { budgetMs, minRuns, maxRuns }) {
  const collect = typeof globalThis.gc === "function" ? globalThis.gc : () => {};
  let sink = work();
  const times = [];
  let spent = 0;
  while (times.length < maxRuns && (times.length < minRuns || spent < budgetMs)) {
    sink = null;
    collect();
    const start = performance.now();
    sink = work();
    const elapsed = performance.now() - start;
    times.push(elapsed);
    spent += elapsed;
  }
  if (sink === undefined) throw new Error("benchmark produced nothing");
  times.sort((a, b) => a - b);
  const mid = times.length >> 1;
  const median = times.length % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
  return { median_ms: median, runs: times.length };
}

function toonPathFor(jsonPath) {
  if (!jsonPath.endsWith(".json")) throw new Error(`${jsonPath}: expected a .json file`);
  return jsonPath.slice(0, -".json".length) + ".toon";
}

function benchFile(file, options) {
  const jsonText = readFileSync(file, "utf8");
  const toonText = readFileSync(toonPathFor(file), "utf8");
  const value = JSON.parse(jsonText);
  const encodeMatches = encode(value) === toonText;
  const decodeMatches = JSON.stringify(decode(toonText)) === jsonText;
  const encodeTime = measure(() => encode(value), options);
  const decodeTime = measure(() => decode(toonText), options);
  return {
    file,
    encode: encodeTime,
    decode: decodeTime,
    encode_matches: encodeMatches,
    decode_matches: decodeMatches,
  };
}

/** The peak resident set size of this process so far, in kB (VmHWM), or null. */
function peakKb() {
  try {
    const status = readFileSync("/proc/self/status", "utf8");
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

function peakEncode(file) {
  const value = JSON.parse(readFileSync(file, "utf8"));
  const text = encode(value);
  return { peak_kb: peakKb(), output_bytes: Buffer.byteLength(text, "utf8") };
}

function main() {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error(error.message);
    process.exitCode = 2;
    return;
  }
  try {
    if (options.peak !== null) {
      console.log(JSON.stringify(peakEncode(options.peak)));
      return;
    }
    for (const file of options.files) {
      console.log(JSON.stringify(benchFile(file, options)));
    }
  } catch (error) {
    console.error(`bench.mjs: ${error.message}`);
    process.exitCode = 1;
  }
}

main();
