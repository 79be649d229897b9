//! The behaviours of the reference 4.4 beyond the v4.0 text (DELTA-4.4.md), as
//! fixtures in `testdata/delta-4.4/` generated from the reference itself
//! (`scripts/fixtures/generate-delta.mjs`). For errors, the line and the message must
//! match the reference's too.

use std::path::PathBuf;

use toon::{DecodeOptions, Delimiter, EncodeOptions, Value};

fn fixtures(name: &str) -> Vec<serde_json::Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/delta-4.4")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc: serde_json::Value = serde_json::from_str(&text).expect("fixture JSON");
    doc["tests"].as_array().expect("tests array").clone()
}

fn decode_options(o: &serde_json::Value) -> DecodeOptions {
    let mut d = DecodeOptions::default();
    if let Some(s) = o.get("strict").and_then(|v| v.as_bool()) {
        d.strict = s;
    }
    if let Some(n) = o.get("indentSize").and_then(|v| v.as_u64()) {
        d.indent_size = n as usize;
    }
    d
}

#[test]
fn decode_matches_reference_values_errors_and_messages() {
    let tests = fixtures("decode.json");
    assert!(tests.len() >= 80, "expected the full DELTA fixture set");
    let mut failures = Vec::new();
    for t in &tests {
        let name = t["name"].as_str().unwrap_or("?");
        let input = t["input"].as_str().expect("input");
        let got = toon::decode_value_with(input, &decode_options(&t["options"]));
        match (t.get("shouldError").is_some(), got) {
            (false, Ok(v)) => {
                if v != Value::from(t["expected"].clone()) {
                    failures.push(format!("{name}: got {v:?}, expected {}", t["expected"]));
                }
            }
            (true, Err(e)) => {
                let reference = t["referenceError"].as_str().unwrap_or("");
                let ours = match e.line() {
                    Some(l) => format!("Line {l}: {}", e.message()),
                    None => e.message().to_owned(),
                };
                if ours != reference {
                    failures.push(format!("{name}: message {ours:?}, reference {reference:?}"));
                }
            }
            (false, Err(e)) => failures.push(format!("{name}: unexpected error {e}")),
            (true, Ok(v)) => failures.push(format!("{name}: expected an error, got {v:?}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn encode_matches_reference_bytes() {
    let mut failures = Vec::new();
    for t in fixtures("encode.json") {
        let name = t["name"].as_str().unwrap_or("?");
        let mut o = EncodeOptions::default();
        if let Some(n) = t["options"].get("indentSize").and_then(|v| v.as_u64()) {
            o.indent_size = n as usize;
        }
        if let Some(d) = t["options"].get("delimiter").and_then(|v| v.as_str()) {
            o.delimiter = d.parse::<Delimiter>().expect("delimiter");
        }
        let value = Value::from(t["input"].clone());
        match toon::encode_value_with(&value, &o) {
            Ok(s) if s == t["expected"].as_str().unwrap_or_default() => {}
            other => failures.push(format!(
                "{name}: got {other:?}, expected {:?}",
                t["expected"]
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn streaming_json_output_equals_the_value_path() {
    let mut compared = 0;
    for t in fixtures("decode.json") {
        let input = t["input"].as_str().expect("input");
        let options = decode_options(&t["options"]);
        let Ok(value) = toon::decode_value_with(input, &options) else {
            let mut sink = Vec::new();
            assert!(toon::decode::to_json_writer(input, &options, &mut sink, 2).is_err());
            continue;
        };
        for indent in [0, 2, 4] {
            let mut out = Vec::new();
            toon::decode::to_json_writer(input, &options, &mut out, indent).expect("decodes");
            let expected = toon::value::to_json_string(&value, indent);
            assert_eq!(
                String::from_utf8(out).expect("utf-8"),
                expected,
                "{}",
                t["name"]
            );
        }
        compared += 1;
    }
    assert!(compared > 30);
}
