//! Arbitrary text → decode into a few serde types: errors, never panics.
#![no_main]

use std::collections::BTreeMap;

use libfuzzer_sys::fuzz_target;
use serde::Deserialize;

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
enum Kind {
    A,
    B(u8),
    C { x: i64 },
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Row {
    id: u32,
    name: String,
    score: Option<f64>,
    kind: Option<Kind>,
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Doc {
    rows: Vec<Row>,
    tags: Option<Vec<String>>,
    meta: Option<BTreeMap<String, Vec<i32>>>,
    pair: Option<(bool, char)>,
}

fuzz_target!(|text: &str| {
    let _ = toon::from_str::<Doc>(text);
    let _ = toon::from_str::<Vec<Row>>(text);
    let _ = toon::from_str::<BTreeMap<String, Row>>(text);
    let _ = toon::from_str::<Kind>(text);
    let _ = toon::from_str::<serde_json::Value>(text);
});
