//! Encoder driver for the differential test (`scripts/differential`).
//!
//! Reads JSON lines `{"value": …, "delimiter": ",", "indent": 2}` from stdin and prints
//! one JSON line per request: `{"ok": "<TOON text>"}` or `{"error": "<message>"}`.
//!
//! ```text
//! echo '{"value":{"a":[1,2]},"delimiter":"|","indent":4}' | cargo run -q -p toon --example encode_jsonl
//! ```

use std::io::{BufRead, BufWriter, Write};

use toon::{Delimiter, EncodeOptions, Value};

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
    toon::encode_value_with(&value, &options).map_err(|e| e.to_string())
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
