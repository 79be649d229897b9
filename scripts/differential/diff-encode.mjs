// Differential test of the encoder: random JSON values (seeded), encoded by the
// reference @toon-format/toon 4.4.0 and by the toon crate (examples/encode_jsonl.rs)
// with every delimiter and several indent sizes; every byte difference is reported.
//
//   cd scripts/differential && npm install && node diff-encode.mjs [--count N] [--seed S] [--show K]
//
// Exit code 0 when there is no mismatch, 1 otherwise.
import { encode } from "@toon-format/toon";
import { chance, pick, reseed, root } from "./gen.mjs";
import { options, runExample } from "./harness.mjs";

const args = options();
const COUNT = Number(args.count ?? 5000);
const SEED = Number(args.seed ?? 20240611);
const SHOW = Number(args.show ?? 20);
reseed(SEED);

// ---------------------------------------------------------------- run
const OPTIONS = [];
for (const delimiter of [",", "\t", "|"]) for (const indent of [2, 4]) OPTIONS.push({ delimiter, indent });

const requests = [];
const expected = [];
for (let i = 0; i < COUNT; i++) {
  const text = JSON.stringify(root());
  const parsed = JSON.parse(text);
  const opts = chance(0.1) ? [...OPTIONS, { delimiter: pick([",", "|"]), indent: pick([0, 1, 3]) }] : OPTIONS;
  for (const { delimiter, indent } of opts) {
    requests.push(`{"value":${text},"delimiter":${JSON.stringify(delimiter)},"indent":${indent}}`);
    let ref;
    try {
      ref = { ok: encode(parsed, { delimiter, indentSize: indent }) };
    } catch (e) {
      ref = { error: String(e) };
    }
    expected.push({ text, delimiter, indent, ref });
  }
}

const replies = runExample("encode_jsonl", requests);

// How often each form occurs in the reference output, to show what was exercised.
const FORMS = {
  "tables": /^\s*(?:- )?(?:"[^"]*"|[^\s"]*)\[\d+[\t|]?\]\{/m,
  "keyed tables": /\[\d+:[\t|]?\]\{/,
  "nested field groups": /\]\{[^\n]*\{/,
  "arrays of arrays": /^\s*- \[\d+[\t|]?\]:/m,
  "list items with objects": /^\s*- (?:"[^"]*"|[A-Za-z_][\w.]*)(?:\[|:)/m,
  "empty objects as items": /^\s*-$/m,
  "empty arrays": /: \[\]$|^\[\]$/m,
  "quoted strings": /"/,
  "exponent numbers": /\de[+-]\d/,
};
const formCounts = Object.fromEntries(Object.keys(FORMS).map((k) => [k, 0]));

let mismatches = 0;
let errorsBoth = 0;
for (let i = 0; i < requests.length; i++) {
  const { text, delimiter, indent, ref } = expected[i];
  const ours = replies[i];
  if ("error" in ref && "error" in ours) {
    errorsBoth++;
    continue;
  }
  if (ref.ok !== undefined) {
    for (const [form, re] of Object.entries(FORMS)) if (re.test(ref.ok)) formCounts[form]++;
  }
  if (ref.ok !== undefined && ours.ok === ref.ok) continue;
  mismatches++;
  if (mismatches <= SHOW) {
    console.log(`--- mismatch #${mismatches} (delimiter ${JSON.stringify(delimiter)}, indent ${indent})`);
    console.log(`input:     ${text}`);
    console.log(`reference: ${JSON.stringify(ref.ok ?? ref.error)}`);
    console.log(`ours:      ${JSON.stringify(ours.ok ?? ours.error)}`);
  }
}
console.log(
  `seed ${SEED}: ${COUNT} values, ${requests.length} encodings compared, ` +
    `${mismatches} mismatches, ${errorsBoth} errors on both sides`,
);
console.log(
  "encodings whose output contains: " +
    Object.entries(formCounts)
      .map(([k, v]) => `${k} ${v}`)
      .join(", "),
);
process.exit(mismatches === 0 ? 0 : 1);
