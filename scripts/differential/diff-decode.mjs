// Differential test of the decoder: TOON texts made by the reference encoder from random
// JSON values (gen.mjs), most of them then damaged by random edits (deleted or inserted
// characters and TOON tokens, wrong declared counts, moved, doubled or re-indented lines,
// blank lines, CRLF, BOMs, comments), decoded in strict and non-strict mode by the
// reference @toon-format/toon 4.4.0 and by the toon crate (examples/decode_jsonl.rs,
// which also checks that its tree and streaming decoders agree). A case passes when both
// give the same value, or both give an error.
//
//   cd scripts/differential && npm install && node diff-decode.mjs [--count N] [--seed S] [--show K]
//
// Exit code 0 when there is no mismatch, 1 otherwise.
import { decode, encode } from "@toon-format/toon";
import { chance, int, pick, reseed, root } from "./gen.mjs";
import { options, runExample } from "./harness.mjs";

const args = options();
const COUNT = Number(args.count ?? 5000);
const SEED = Number(args.seed ?? 20240611);
const SHOW = Number(args.show ?? 20);
reseed(SEED);

// ---------------------------------------------------------------- damage
const TOKENS = [
  "[", "]", "]:", "{", "}:", "}", "- ", "-", ": ", ":", "\"", "\\", "\t", "|", ",", "#",
  "# note\n", " ", "  ", "\n", "\n\n", "\r\n", "[2]", "[0]", "[1]:", "[3|]", "[2\t]", "{a,b}:",
  "[2:]", "x", "\ufeff", "\"\\u0041\"", "\\n", "1e5", "-0", "05", "null", "true",
];

function lines(text) {
  return text.split("\n");
}

function damage(text) {
  const r = rand01();
  const ls = lines(text);
  const at = (n) => int(n + 1);
  if (r < 0.2) {
    const i = at(text.length);
    return text.slice(0, i) + pick(TOKENS) + text.slice(i);
  }
  if (r < 0.3 && text.length > 0) {
    const i = int(text.length);
    return text.slice(0, i) + text.slice(i + 1 + int(3));
  }
  if (r < 0.45) {
    // A wrong declared count, as language models write them.
    return text.replace(/\[(\d+)/, (_, n) => "[" + Math.max(0, Number(n) + pick([-1, 1, 2, -2, 10])));
  }
  if (r < 0.55 && ls.length > 1) {
    const i = int(ls.length);
    ls.splice(i, 0, ls[i]);
    return ls.join("\n");
  }
  if (r < 0.62 && ls.length > 1) {
    ls.splice(int(ls.length), 1);
    return ls.join("\n");
  }
  if (r < 0.68 && ls.length > 1) {
    const i = int(ls.length);
    const j = int(ls.length);
    [ls[i], ls[j]] = [ls[j], ls[i]];
    return ls.join("\n");
  }
  if (r < 0.8) {
    const i = int(ls.length);
    ls[i] = chance(0.5) ? pick([" ", "  ", "\t", "   "]) + ls[i] : ls[i].replace(/^ {1,2}/, "");
    return ls.join("\n");
  }
  if (r < 0.87) {
    ls.splice(int(ls.length + 1), 0, pick(["", "  ", "# comment", "  # indented comment", "\t"]));
    return ls.join("\n");
  }
  if (r < 0.92) return text.replace(/\n/g, "\r\n");
  if (r < 0.96) return pick(["\ufeff", "", "\n", "  "]) + text + pick(["\n", "\n\n", " ", "\r\n", ""]);
  return text;
}

// A second, independent stream of choices for the damage, so --count does not shift
// which values are generated.
let damageState = SEED ^ 0x5bd1e995;
function rand01() {
  damageState = (damageState * 1103515245 + 12345) >>> 0;
  return damageState / 4294967296;
}

// ---------------------------------------------------------------- cases
const cases = [];
let loneSurrogates = 0;
for (let i = 0; i < COUNT; i++) {
  const value = JSON.parse(JSON.stringify(root()));
  const delimiter = pick([",", "\t", "|"]);
  const indent = pick([2, 2, 4]);
  let text = encode(value, { delimiter, indentSize: indent });
  const edits = chance(0.2) ? 0 : 1 + int(3);
  for (let e = 0; e < edits; e++) text = damage(text);
  const decodeIndent = chance(0.9) ? indent : pick([1, 2, 3, 4]);
  // An edit can split a surrogate pair; no UTF-8 file holds a lone surrogate.
  if (/[\ud800-\udfff]/.test(text.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ""))) {
    loneSurrogates++;
    continue;
  }
  for (const strict of [true, false]) cases.push({ text, strict, indent: decodeIndent, edits });
}

function reference({ text, strict, indent }) {
  try {
    return { ok: JSON.stringify(decode(text, { strict, indentSize: indent })) };
  } catch (e) {
    return { error: String(e.message ?? e) };
  }
}

const requests = cases.map(({ text, strict, indent }) => JSON.stringify({ text, strict, indent }));
const replies = runExample("decode_jsonl", requests);

let mismatches = 0;
let splits = 0;
const tally = { bothOk: 0, bothError: 0, sameMessage: 0, damaged: 0 };
for (let i = 0; i < cases.length; i++) {
  const c = cases[i];
  const ref = reference(c);
  const ours = replies[i];
  if (c.edits > 0) tally.damaged++;
  let problem = null;
  if ("split" in ours) {
    splits++;
    problem = `our two decoders disagree: ${ours.split}`;
  } else if ("error" in ref && "error" in ours) {
    tally.bothError++;
    if (ours.error.includes(ref.error.replace(/^Line \d+: /, ""))) tally.sameMessage++;
  } else if ("ok" in ref && "ok" in ours && JSON.stringify(ours.ok) === ref.ok) {
    tally.bothOk++;
  } else {
    problem = `reference: ${ref.ok ?? "error: " + ref.error}\nours:      ${"ok" in ours ? JSON.stringify(ours.ok) : "error: " + ours.error}`;
  }
  if (problem !== null) {
    mismatches++;
    if (mismatches <= SHOW) {
      console.log(`--- mismatch #${mismatches} (strict ${c.strict}, indent ${c.indent})`);
      console.log(`text:      ${JSON.stringify(c.text)}`);
      console.log(problem);
    }
  }
}
console.log(
  `seed ${SEED}: ${cases.length} decodes compared (${tally.damaged} of damaged text), ` +
    `${mismatches} mismatches (${splits} between our own tree and streaming decoders); ` +
    `${tally.bothOk} same value, ${tally.bothError} errors on both sides ` +
    `(${tally.sameMessage} with the reference's message); ` +
    `${loneSurrogates} texts with a lone surrogate skipped`,
);
process.exit(mismatches === 0 ? 0 : 1);
