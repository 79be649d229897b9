//! Encoder driver for the differential test (`scripts/differential`).
//!
//! Reads JSON lines `{"value": …, "delimiter": ",", "indent": 2}` from stdin and prints
//! one JSON line per request: `{"ok": "<TOON text>"}` or `{"error": "<message>"}`. A
//! request may name a replacer (`"replacer": "drop-odd-indices"`): one of the
//! [`replacer`] functions below, which `diff-replacer.mjs` writes again in JavaScript
//! for the reference.
//!
//! ```text
//! echo '{"value":{"a":[1,2]},"delimiter":"|","indent":4}' | cargo run -q -p toon --example encode_jsonl
//! ```

use std::io::{BufRead, BufWriter, Write};

use toon::encode::{PathSegment, Replace};
use toon::{Delimiter, EncodeOptions, Value};

/// A replacer of the differential test.
type Replacer = fn(&str, &Value, &[PathSegment<'_>]) -> Replace;

/// The named replacers of the differential test.
fn replacer(name: &str) -> Option<Replacer> {
    Some(match name {
        // Every element at an odd index of its (original) array is left out.
        "drop-odd-indices" => |_, _, path| match path.last() {
            Some(PathSegment::Index(i)) if i % 2 == 1 => Replace::Drop,
            _ => Replace::Keep,
        },
        // Strings are left out, except a root string (dropping the root changes nothing).
        "drop-strings" => |_, v, _| match v {
            Value::String(_) => Replace::Drop,
            _ => Replace::Keep,
        },
        // Primitives under a key holding an "a" are masked.
        "redact-a-keys" => |k, v, _| {
            if k.contains('a') && v.is_primitive() {
                Replace::With("***".into())
            } else {
                Replace::Keep
            }
        },
        // Arrays become their length (nothing below them is visited).
        "arrays-to-length" => |_, v, _| match v {
            Value::Array(a) => Replace::With(a.len().into()),
            _ => Replace::Keep,
        },
        // Numbers become `{"n": number}`; the replacer then sees the key "n".
        "wrap-numbers" => |k, v, _| match v {
            Value::Number(_) if k != "n" => Replace::With(Value::Object(
                [("n".to_owned(), v.clone())].into_iter().collect(),
            )),
            _ => Replace::Keep,
        },
        // The root is wrapped in `{"root": …}`, whose children are then visited.
        "wrap-root" => |_, v, path| {
            if path.is_empty() {
                Replace::With(Value::Object(
                    [("root".to_owned(), v.clone())].into_iter().collect(),
                ))
            } else {
                Replace::Keep
            }
        },
        // Primitives two or more levels down become their path, joined with "/".
        "path-strings" => |_, v, path| {
            if path.len() >= 2 && v.is_primitive() {
                let parts: Vec<String> = path
                    .iter()
                    .map(|p| match p {
                        PathSegment::Key(k) => (*k).to_owned(),
                        PathSegment::Index(i) => i.to_string(),
                    })
                    .collect();
                Replace::With(parts.join("/").into())
            } else {
                Replace::Keep
            }
        },
        _ => return None,
    })
}

fn encode_request(line: &str) -> Result<String, String> {
    let request: serde_json::Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
    let mut options = EncodeOptions::default();
    if let Some(d) = request.get("delimiter").and_then(|d| d.as_str()) {
        options.delimiter = d.parse::<Delimiter>()?;
    }
    if let Some(n) = request.get("indent").and_then(|n| n.as_u64()) {
        options.indent_size = usize::try_from(n).map_err(|e| e.to_string())?;
    }
    let value = match request.get("value") {
        Some(v) => Value::from(v.clone()),
        None => return Err("request has no \"value\"".to_owned()),
    };
    match request.get("replacer").and_then(|r| r.as_str()) {
        Some(name) => {
            let f = replacer(name).ok_or_else(|| format!("unknown replacer {name:?}"))?;
            toon::encode_value_with_replacer(&value, &options, f)
        }
        None => toon::encode_value_with(&value, &options),
    }
    .map_err(|e| e.to_string())
}

fn main() -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    for line in stdin.lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let reply = match encode_request(&line) {
            Ok(text) => serde_json::json!({ "ok": text }),
            Err(e) => serde_json::json!({ "error": e }),
        };
        writeln!(out, "{reply}")?;
    }
    out.flush()
}
