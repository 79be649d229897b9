//! The benchmarks compare like with like: on every dataset, our codec, its typed paths
//! and the `toon-format` peer agree on the data (the checks the throughput report runs,
//! here on small datasets so `cargo test` stays fast).

#[path = "../benches/common/mod.rs"]
mod common;

use common::checks::{self, Expect};
use common::prepared::Prepared;
use common::tunables;
use toon_benches::datasets::Dataset;

#[test]
fn implementations_agree_on_every_dataset() {
    for dataset in Dataset::ALL {
        let p = match Prepared::new(dataset, 20_000) {
            Ok(p) => p,
            Err(e) => panic!("{}: {e}", dataset.slug()),
        };
        let results = checks::run(&p);
        assert!(results.iter().any(|c| c.expect == Expect::Agree));
        for check in &results {
            assert!(
                !check.is_failure(),
                "{}: {}: {:?}",
                dataset.slug(),
                check.name,
                check.outcome
            );
        }
    }
}

#[test]
fn checks_catch_a_difference() {
    let mut p = Prepared::new(Dataset::Employees, 5_000).expect("employees");
    // Corrupt one value in the TOON text: the decoders no longer match the JSON.
    p.toon_text = p.toon_text.replacen(",true", ",false", 1);
    let failed: Vec<&str> = checks::run(&p)
        .iter()
        .filter(|c| c.is_failure())
        .map(|c| c.name)
        .collect();
    assert!(
        failed.contains(&"our decoder reads our TOON back to the same value"),
        "{failed:?}"
    );
    assert!(
        failed.contains(&"toon-format decodes our TOON to the same JSON"),
        "{failed:?}"
    );
}

#[test]
fn first_difference_points_at_the_byte() {
    let text = checks::first_difference("abcdef", "abcXef");
    assert!(text.starts_with("first difference at byte 3"), "{text}");
}

#[test]
fn tunables_are_added_once() {
    assert_eq!(tunables::wanted(None).as_deref(), Some(tunables::TUNABLE));
    assert_eq!(
        tunables::wanted(Some("glibc.malloc.arena_max=2")).as_deref(),
        Some("glibc.malloc.arena_max=2:glibc.malloc.mxfast=0")
    );
    assert_eq!(tunables::wanted(Some("glibc.malloc.mxfast=0")), None);
}

#[test]
fn prepared_forms_hold_the_same_data() {
    let p = Prepared::new(Dataset::Orders, 10_000).expect("orders");
    assert_eq!(toon::value::to_json_string(&p.value, 0), p.json_text);
    assert_eq!(
        serde_json::to_value(&p.value).expect("to serde_json"),
        p.json
    );
    assert_eq!(toon::decode_value(&p.toon_text).expect("decode"), p.value);
}
