// Differential test of the encoder's replacer: random JSON values (seeded) encoded by
// the reference @toon-format/toon 4.4.0 with its `replacer` option and by the toon
// crate's `encode_value_with_replacer` (examples/encode_jsonl.rs, which holds the same
// named replacers written in Rust); every byte difference is reported.
//
//   cd scripts/differential && npm install && node diff-replacer.mjs [--count N] [--seed S] [--show K]
//
// Exit code 0 when there is no mismatch, 1 otherwise.
import { encode } from "@toon-format/toon";
import { reseed, root } from "./gen.mjs";
import { options, runExample } from "./harness.mjs";

const args = options();
const COUNT = Number(args.count ?? 2000);
const SEED = Number(args.seed ?? 20261124);
const SHOW = Number(args.show ?? 20);
reseed(SEED);

const isPrimitive = (v) => v === null || typeof v !== "object";
// The same replacers as `replacer()` in crates/toon/examples/encode_jsonl.rs.
const REPLACERS = {
  "drop-odd-indices": (k, v, p) => (typeof p.at(-1) === "number" && p.at(-1) % 2 === 1 ? undefined : v),
  "drop-strings": (k, v) => (typeof v === "string" ? undefined : v),
  "redact-a-keys": (k, v) => (k.includes("a") && isPrimitive(v) ? "***" : v),
  "arrays-to-length": (k, v) => (Array.isArray(v) ? v.length : v),
  "wrap-numbers": (k, v) => (typeof v === "number" && k !== "n" ? { n: v } : v),
  "wrap-root": (k, v, p) => (p.length === 0 ? { root: v } : v),
  "path-strings": (k, v, p) => (p.length >= 2 && isPrimitive(v) ? p.join("/") : v),
};

const requests = [];
const expected = [];
for (let i = 0; i < COUNT; i++) {
  const text = JSON.stringify(root());
  const parsed = JSON.parse(text);
  for (const [name, replacer] of Object.entries(REPLACERS)) {
    requests.push(`{"value":${text},"replacer":${JSON.stringify(name)}}`);
    let ref;
    try {
      ref = { ok: encode(parsed, { replacer }) };
    } catch (e) {
      ref = { error: String(e) };
    }
    expected.push({ text, name, ref });
  }
}

const replies = runExample("encode_jsonl", requests);

let mismatches = 0;
let changed = 0;
const plain = new Map();
for (let i = 0; i < requests.length; i++) {
  const { text, name, ref } = expected[i];
  const ours = replies[i];
  if (!plain.has(text)) plain.set(text, encode(JSON.parse(text)));
  if (ref.ok !== undefined && ref.ok !== plain.get(text)) changed++;
  if (ref.ok !== undefined && ours.ok === ref.ok) continue;
  if ("error" in ref && "error" in ours) continue;
  mismatches++;
  if (mismatches <= SHOW) {
    console.log(`--- mismatch #${mismatches} (replacer ${name})`);
    console.log(`input:     ${text}`);
    console.log(`reference: ${JSON.stringify(ref.ok ?? ref.error)}`);
    console.log(`ours:      ${JSON.stringify(ours.ok ?? ours.error)}`);
  }
}
console.log(
  `seed ${SEED}: ${COUNT} values × ${Object.keys(REPLACERS).length} replacers, ` +
    `${requests.length} encodings compared (${changed} changed by their replacer), ${mismatches} mismatches`,
);
process.exit(mismatches === 0 ? 0 : 1);
