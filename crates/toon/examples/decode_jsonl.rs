//! Decoder driver for the differential test (`scripts/differential/diff-decode.mjs`).
//!
//! Reads JSON lines `{"text": "<TOON>", "strict": true, "indent": 2}` from stdin and
//! prints one line per request: `{"ok": <the value as compact JSON>}`, `{"error":
//! "<message>"}`, or `{"split": "…"}` when the two decoding paths disagree — the tree
//! path (`decode_value_with`, then JSON) and the streaming path (`to_json_writer`, the
//! one the CLI uses) must give the same bytes or both fail.
//!
//! ```text
//! echo '{"text":"a[2]: 1,x","strict":true,"indent":2}' | cargo run -q -p toon --example decode_jsonl
//! ```

use std::io::{BufRead, BufWriter, Write};

use toon::DecodeOptions;

enum Reply {
    Ok(String),
    Error(String),
    Split(String),
}

fn decode_request(line: &str) -> Reply {
    let request: serde_json::Value = match serde_json::from_str(line) {
        Ok(r) => r,
        Err(e) => return Reply::Error(format!("bad request: {e}")),
    };
    let Some(text) = request.get("text").and_then(|t| t.as_str()) else {
        return Reply::Error("request has no \"text\"".to_owned());
    };
    let mut options = DecodeOptions::default();
    if let Some(s) = request.get("strict").and_then(|s| s.as_bool()) {
        options.strict = s;
    }
    if let Some(n) = request.get("indent").and_then(|n| n.as_u64()) {
        options.indent_size = usize::try_from(n).unwrap_or(usize::MAX);
    }
    let tree = toon::decode_value_with(text, &options).map(|v| toon::value::to_json_string(&v, 0));
    let mut streamed = Vec::new();
    let stream = toon::decode::to_json_writer(text, &options, &mut streamed, 0)
        .map(|()| String::from_utf8_lossy(&streamed).into_owned());
    match (tree, stream) {
        (Ok(a), Ok(b)) if a == b => Reply::Ok(a),
        (Err(a), Err(_)) => Reply::Error(a.to_string()),
        (a, b) => Reply::Split(format!("tree: {a:?}; stream: {b:?}")),
    }
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
        match decode_request(&line) {
            Reply::Ok(json) => writeln!(out, "{{\"ok\":{json}}}")?,
            Reply::Error(e) => writeln!(out, "{}", serde_json::json!({ "error": e }))?,
            Reply::Split(s) => writeln!(out, "{}", serde_json::json!({ "split": s }))?,
        }
    }
    out.flush()
}
