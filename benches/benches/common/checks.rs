//! Checks that the implementations being timed agree on the data, so the benchmarks
//! compare like with like: each decoder turns the same TOON text into the same JSON,
//! and the typed paths produce the same documents as the value paths.

use super::peer;
use super::prepared::Prepared;
use super::typed::{Typed, TypedFn, with_typed};

/// The name of the check comparing toon-format's TOON with ours.
pub const PEER_IDENTICAL: &str = "toon-format's TOON is byte-identical to ours";

/// Whether a check must pass for the comparison to be fair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// The implementations must agree here.
    Agree,
    /// Shown for information: the peer follows a later spec draft than the reference
    /// 4.4 (keyed tables, nested field groups), so its output may legitimately differ.
    MayDiffer,
}

/// One check's outcome.
#[derive(Debug)]
pub struct Check {
    /// What was compared.
    pub name: &'static str,
    /// Whether it must pass.
    pub expect: Expect,
    /// `Err` with a description of the first difference.
    pub outcome: Result<(), String>,
}

impl Check {
    /// True if the check failed although it must pass.
    pub fn is_failure(&self) -> bool {
        self.expect == Expect::Agree && self.outcome.is_err()
    }
}

/// Runs every check on one dataset.
pub fn run(p: &Prepared) -> Vec<Check> {
    let mut checks = vec![Check {
        name: "our decoder reads our TOON back to the same value",
        expect: Expect::Agree,
        outcome: match toon::decode_value(&p.toon_text) {
            Ok(value) if value == p.value => Ok(()),
            Ok(value) => Err(first_difference(
                &p.json_text,
                &toon::value::to_json_string(&value, 0),
            )),
            Err(e) => Err(format!("decode error: {e}")),
        },
    }];
    checks.extend(with_typed(p.dataset, TypedChecks { p }));
    let peer_value = peer::value(&p.json);
    let peer_text = peer::encode(&peer_value);
    checks.push(Check {
        name: "toon-format decodes our TOON to the same JSON",
        expect: Expect::Agree,
        outcome: peer::decode(&p.toon_text).and_then(|json| same_json(&p.json_text, json)),
    });
    checks.push(Check {
        name: "our decoder reads toon-format's TOON to the same JSON",
        expect: Expect::MayDiffer,
        outcome: peer_text.as_deref().map_err(Clone::clone).and_then(
            |text| match toon::decode_value(text) {
                Ok(value) => same_text(&p.json_text, &toon::value::to_json_string(&value, 0)),
                Err(e) => Err(format!("decode error: {e}")),
            },
        ),
    });
    checks.push(Check {
        name: PEER_IDENTICAL,
        expect: Expect::MayDiffer,
        outcome: peer_text.and_then(|text| same_text(&p.toon_text, &text)),
    });
    checks
}

/// The typed checks, generic over the dataset's root type.
struct TypedChecks<'a> {
    p: &'a Prepared,
}

impl TypedFn for TypedChecks<'_> {
    type Output = Vec<Check>;

    fn call<T: Typed>(self) -> Vec<Check> {
        let p = self.p;
        let from_json = serde_json::from_str::<T>(&p.json_text).map_err(|e| e.to_string());
        let decoded = toon::from_str::<T>(&p.toon_text).map_err(|e| e.to_string());
        let decode_outcome = match (&from_json, decoded) {
            (Ok(expected), Ok(got)) if *expected == got => Ok(()),
            (Ok(_), Ok(_)) => Err("typed values differ".to_owned()),
            (Err(e), _) => Err(format!(
                "serde_json could not read the JSON as {}: {e}",
                short::<T>()
            )),
            (_, Err(e)) => Err(format!("decode error: {e}")),
        };
        let encode_outcome = match &from_json {
            Ok(typed) => match toon::to_string(typed) {
                Ok(text) => same_text(&p.toon_text, &text),
                Err(e) => Err(format!("encode error: {e}")),
            },
            Err(e) => Err(format!("serde_json could not read the JSON: {e}")),
        };
        vec![
            Check {
                name: "toon::from_str gives the struct serde_json::from_str gives",
                expect: Expect::Agree,
                outcome: decode_outcome,
            },
            Check {
                name: "toon::to_string of the struct equals encode_value of the value",
                expect: Expect::Agree,
                outcome: encode_outcome,
            },
        ]
    }
}

fn short<T>() -> &'static str {
    let name = std::any::type_name::<T>();
    name.rsplit("::").next().unwrap_or(name)
}

/// Compares `got` (a decoder's output) with the compact JSON text `expected`, through
/// our JSON printer so number spellings follow JavaScript.
fn same_json(expected: &str, got: serde_json::Value) -> Result<(), String> {
    same_text(
        expected,
        &toon::value::to_json_string(&toon::Value::from(got), 0),
    )
}

fn same_text(expected: &str, got: &str) -> Result<(), String> {
    if expected == got {
        Ok(())
    } else {
        Err(first_difference(expected, got))
    }
}

/// Where two texts first differ, with a little context from each.
pub fn first_difference(expected: &str, got: &str) -> String {
    let at = expected
        .bytes()
        .zip(got.bytes())
        .position(|(a, b)| a != b)
        .unwrap_or(expected.len().min(got.len()));
    let snippet = |text: &str| -> String {
        let start = floor_char_boundary(text, at.saturating_sub(30));
        let end = floor_char_boundary(text, (at + 30).min(text.len()));
        format!("{:?}", &text[start..end])
    };
    format!(
        "first difference at byte {at} (lengths {} and {}): expected …{}…, got …{}…",
        expected.len(),
        got.len(),
        snippet(expected),
        snippet(got)
    )
}

fn floor_char_boundary(text: &str, mut index: usize) -> usize {
    while index > 0 && !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}
