// Seeded random JSON values that favour what is hard for a TOON codec: strings that
// need quotes, numeric look-alikes, uniform arrays (tables), keyed objects, nested field
// groups, broken rows, arrays of arrays, empty containers, hard keys and numbers.
// Shared by diff-encode.mjs and diff-decode.mjs; call reseed(seed) first.

const MAX_DEPTH = 5;

// ---------------------------------------------------------------- seeded RNG
function mulberry32(a) {
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
let rand = mulberry32(1);

/** Restarts the generator from a seed. */
export function reseed(seed) {
  rand = mulberry32(seed);
}
export const int = (n) => Math.floor(rand() * n);
export const pick = (arr) => arr[int(arr.length)];
export const chance = (p) => rand() < p;

// ---------------------------------------------------------------- strings
const HARD_STRINGS = [
  "", " ", "  ", "\t", "a b", " lead", "trail ", "\tlead", "trail\t", " both ",
  "-", "--", "-x", "- item", "-1", "-0", "#", "#x", "x#", "# comment", "a # b",
  "a,b", ",", "a|b", "|", "a\tb", "a:b", ":", "key: value", "http://x.y",
  "\"q\"", "say \"hi\"", "back\\slash", "\\", "[x]", "[", "]", "{y}", "{", "}", "[]", "{}",
  "true", "false", "null", "True", "FALSE", "Null", "nul", "truex",
  "42", "-3.14", "05", "007", "+1", "1e5", "1E-5", "1e+5", "2.5e-3", "0", "0.0", "-0.0",
  ".5", "1.", "0x10", "1_000", "Infinity", "-Infinity", "NaN", "1e", "1e+", "+", "1.2.3",
  " 42", "42 ", "4 2",
  "é", "日本語", "🎉", "emoji 🎉 ok", "\u00a0", "\u00a0x", "x\u00a0", "x\u2003", "\u3000",
  "\ufeff", "\ufeffbom", "x\ufeff", "\u200b", "zero\u200bwidth",
  "\n", "line\nbreak", "\r", "cr\rlf", "\r\n", "\u0001", "ctl\u0001x", "\u001f", "\u007f", "del\u007f",
  "Ada", "hello world", "London", "user@example.com", "a.b", "snake_case", "CamelCase",
  "it's", "a/b", "a=b", "a;b", "a b c d e f", "x".repeat(40),
];
const ALPHABET = [
  "a", "b", "z", "A", "Z", "0", "1", "9", " ", "\t", ",", "|", ":", "\"", "\\", "[", "]",
  "{", "}", "-", "#", ".", "_", "+", "e", "E", "\n", "\r", "\u0001", "\u001f", "\u007f",
  "é", "日", "🎉", "\u00a0", "\u2003", "\u3000", "\ufeff", "\u200b", "'", "/", "=", "true",
  "null", "x", "y",
];
const WORDS = ["alpha", "Ada", "Bob", "x", "hello world", "New York", "a.b", "ok", "v1", "data_2"];

function numericLike() {
  let s = pick(["", "", "-", "+"]);
  const digits = () => {
    let d = "";
    const n = 1 + int(4);
    for (let i = 0; i < n; i++) d += String(int(10));
    return d;
  };
  s += chance(0.2) ? "0" + digits() : digits();
  if (chance(0.4)) s += "." + digits();
  if (chance(0.3)) s += pick(["e", "E"]) + pick(["", "+", "-"]) + digits();
  if (chance(0.15)) s = pick([" ", "", "."]) + s + pick([" ", ".", "x", ""]);
  return s;
}

export function hardString() {
  const r = rand();
  if (r < 0.35) return pick(HARD_STRINGS);
  if (r < 0.55) return numericLike();
  if (r < 0.85) {
    let s = "";
    const n = int(7);
    for (let i = 0; i < n; i++) s += pick(ALPHABET);
    return s;
  }
  return pick(WORDS);
}

// ---------------------------------------------------------------- keys
const KEYS = [
  "id", "name", "a", "b", "c", "x", "user.name", "_private", "x_y", "A1", "a.b.c",
  "my-key", "with space", "", " ", " lead", "a:b", "\"q\"", "[x]", "{y}", "#tag", "-dash",
  "é", "日本", "a,b", "a|b", "tab\tkey", "new\nline", "true", "null", "1a", "1.5", "-1",
  "__proto__", "constructor", "prototype", "\ufeffbom", "$dollar", "back\\slash", "🎉",
];
export function randomKey() {
  for (;;) {
    const k = chance(0.7) ? pick(KEYS) : hardString();
    // Integer-like keys are reordered by JavaScript objects; skip them.
    if (!/^\d+$/.test(k)) return k;
  }
}
function keys(n) {
  const set = new Set();
  let guard = 0;
  while (set.size < n && guard++ < 100) set.add(randomKey());
  return [...set];
}

// ---------------------------------------------------------------- numbers
const SPECIAL_NUMBERS = [
  0, -0, 1, -1, 42, 1000000, 1e21, 1e-7, 1e-6, 0.000001, 1.5e300, 5e-324, 1e20, 1e22,
  123456789012345680000, 0.1 + 0.2, 1 / 3, 2 / 3, Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER, Number.MAX_VALUE, Number.MIN_VALUE, 2 ** 53, 2 ** 60, 2 ** 64,
  1.0000000000000002, 9.999999999999999e20, 1e-300, 123.456, -0.5, 100, 1.5,
];
const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer);
function number() {
  const r = rand();
  if (r < 0.25) return int(1000);
  if (r < 0.35) return -int(100000);
  if (r < 0.45) return Math.round((rand() - 0.5) * 2 ** 53);
  if (r < 0.6) return Math.round(rand() * 100000) / 100;
  if (r < 0.75) return pick(SPECIAL_NUMBERS);
  if (r < 0.85) return (rand() - 0.5) * 10 ** (int(60) - 30);
  for (;;) {
    words[0] = int(2 ** 32);
    words[1] = int(2 ** 32);
    if (Number.isFinite(bits[0])) return bits[0];
  }
}

export function primitive() {
  const r = rand();
  if (r < 0.55) return hardString();
  if (r < 0.8) return number();
  if (r < 0.9) return chance(0.5);
  return null;
}

// ---------------------------------------------------------------- structures
function schema(depth) {
  const ks = keys(1 + int(4));
  const children = {};
  for (const k of ks) children[k] = depth < 3 && chance(0.2) ? schema(depth + 1) : null;
  return { ks, children };
}

function rowFromSchema(s) {
  const order = chance(0.2) ? [...s.ks].sort(() => rand() - 0.5) : s.ks;
  const row = {};
  for (const k of order) {
    Object.defineProperty(row, k, {
      value: s.children[k] ? rowFromSchema(s.children[k]) : primitive(),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return row;
}

function set(obj, k, v) {
  Object.defineProperty(obj, k, { value: v, enumerable: true, writable: true, configurable: true });
}

function breakRow(row) {
  const ks = Object.keys(row);
  const r = rand();
  if (r < 0.2 && ks.length > 0) delete row[pick(ks)];
  else if (r < 0.35) set(row, randomKey(), primitive());
  else if (ks.length > 0) {
    const k = pick(ks);
    set(row, k, pick([[], {}, [1, 2], { x: 1 }, null, [{ a: 1 }], "str"]));
  }
  return row;
}

function table(depth) {
  const s = schema(depth);
  const n = chance(0.05) ? 0 : 1 + int(4);
  const rows = [];
  for (let i = 0; i < n; i++) rows.push(rowFromSchema(s));
  if (n > 0 && chance(0.15)) breakRow(rows[int(n)]);
  return rows;
}

function keyedObject(depth) {
  const s = schema(depth + 1);
  const obj = {};
  for (const k of keys(1 + int(4))) set(obj, k, rowFromSchema(s));
  const ks = Object.keys(obj);
  if (chance(0.15)) breakRow(obj[pick(ks)]);
  if (chance(0.05)) set(obj, pick(ks), {});
  return obj;
}

function value(depth) {
  if (depth >= MAX_DEPTH) return primitive();
  const r = rand();
  if (r < 0.25) return primitive();
  if (r < 0.37) return Array.from({ length: int(6) }, primitive);
  if (r < 0.45) return Array.from({ length: int(4) }, () => Array.from({ length: int(4) }, primitive));
  if (r < 0.6) return table(depth);
  if (r < 0.7) return keyedObject(depth);
  if (r < 0.82) return Array.from({ length: int(5) }, () => value(depth + 1));
  const obj = {};
  for (const k of keys(int(5))) set(obj, k, value(depth + 1));
  return obj;
}

export function root() {
  const r = rand();
  if (r < 0.05) return primitive();
  if (r < 0.07) return pick(["\ufeffbom", "\ufeff", "x\ufeff", "\ufeff42"]);
  if (r < 0.09) return pick([{}, [], [[]], [{}], { a: {} }, { a: [] }]);
  if (r < 0.4) {
    const obj = {};
    for (const k of keys(1 + int(5))) set(obj, k, value(1));
    return obj;
  }
  return value(0);
}
