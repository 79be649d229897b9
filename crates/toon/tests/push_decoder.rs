//! The push decoder against the event reader: for any split of any input into chunks,
//! `PushDecoder` yields the events `EventReader` yields over the whole input, and fails
//! with the same error (kind, message, line, column, source line) after the same
//! events. Inputs: encoded random values (property test, with random cut points and
//! damaged variants), our conformance cases and the spec fixtures (ignored test) with
//! damaged variants, and the fuzz corpora; each in strict and non-strict mode.

use std::path::Path;

use proptest::prelude::*;
use toon::decode::{Event, EventReader, PushDecoder};
use toon::{DecodeOptions, Error, Value};
use toon_conformance::{Case, run_own_suite, run_suite};

mod damage;
mod strategies;

use damage::variants;

/// Events up to the end or the first error, and that error.
type Outcome = (Vec<Event>, Option<Error>);

fn whole(bytes: &[u8], options: &DecodeOptions) -> Outcome {
    let mut events = Vec::new();
    for e in EventReader::new(bytes, options) {
        match e {
            Ok(e) => events.push(e),
            Err(e) => return (events, Some(e)),
        }
    }
    (events, None)
}

/// The input fed in the chunks that `cuts` (byte offsets, any order) make.
fn pushed(bytes: &[u8], cuts: &[usize], options: &DecodeOptions) -> Outcome {
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
    cuts.push(bytes.len());
    cuts.sort_unstable();
    let mut dec = PushDecoder::new(options);
    let mut events = Vec::new();
    let mut start = 0;
    for cut in cuts {
        if let Err(e) = dec.push(&bytes[start..cut]) {
            return (events, Some(e));
        }
        start = cut;
        loop {
            match dec.next_event() {
                Ok(Some(e)) => events.push(e),
                Ok(None) => break,
                Err(e) => return (events, Some(e)),
            }
        }
    }
    dec.finish();
    loop {
        match dec.next_event() {
            Ok(Some(e)) => events.push(e),
            Ok(None) => break,
            Err(e) => return (events, Some(e)),
        }
    }
    assert!(dec.is_done(), "closed, read to the end, but not done");
    (events, None)
}

fn same_error(a: &Error, b: &Error) -> bool {
    a.kind() == b.kind()
        && a.message() == b.message()
        && a.line() == b.line()
        && a.column() == b.column()
        && a.source_line() == b.source_line()
}

fn compare(bytes: &[u8], cuts: &[usize], options: &DecodeOptions) -> Result<(), String> {
    let (want, want_err) = whole(bytes, options);
    let (got, got_err) = pushed(bytes, cuts, options);
    let errors_agree = match (&want_err, &got_err) {
        (None, None) => true,
        (Some(a), Some(b)) => same_error(a, b),
        _ => false,
    };
    if want != got || !errors_agree {
        return Err(format!(
            "input {:?} cuts {cuts:?}:\n  whole {want:?} {want_err:?}\n  pushed {got:?} {got_err:?}",
            String::from_utf8_lossy(bytes)
        ));
    }
    Ok(())
}

/// Every chunking family: one byte at a time, whole, and cuts derived from the length.
fn check_input(bytes: &[u8], options: &DecodeOptions) -> Result<(), String> {
    let n = bytes.len();
    let one_byte: Vec<usize> = (1..n).collect();
    compare(bytes, &[], options)?;
    compare(bytes, &one_byte, options)?;
    compare(bytes, &[n / 3, n / 2, n * 4 / 5], options)?;
    let newlines: Vec<usize> = (0..n).filter(|&i| bytes[i] == b'\n').collect();
    compare(bytes, &newlines, options)?;
    let after: Vec<usize> = newlines.iter().map(|i| i + 1).collect();
    compare(bytes, &after, options)
}

fn case_check(case: &Case) -> Result<(), String> {
    damage::case_and_variants(check_input, case, 11, 4)
}

#[test]
fn own_cases_push_like_the_event_reader() {
    run_own_suite("push decoder vs event reader", case_check);
}

#[test]
#[ignore = "needs the TOON spec fixtures: set TOON_SPEC_DIR and run with --include-ignored (.ci/run does)"]
fn fixtures_push_like_the_event_reader() {
    run_suite("push decoder vs event reader", case_check);
}

#[test]
fn fuzz_corpora_push_like_the_event_reader() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus");
    let mut failures = Vec::new();
    let mut seen = 0;
    for target in ["decode", "stream", "push"] {
        let Ok(entries) = std::fs::read_dir(root.join(target)) else {
            continue;
        };
        for (i, entry) in entries.filter_map(|e| e.ok()).enumerate() {
            let bytes = std::fs::read(entry.path()).unwrap_or_default();
            seen += 1;
            let mut inputs = vec![bytes.clone()];
            inputs.extend(variants(&bytes, i as u64 + 3, 1));
            for input in inputs {
                if let Err(e) = damage::in_both_modes(check_input, &input, 2) {
                    failures.push(format!("{}: {e}", entry.path().display()));
                }
            }
        }
    }
    assert!(seen > 100, "fuzz corpora look empty: {seen}");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn a_table_row_is_yielded_with_its_own_newline() {
    let mut dec = PushDecoder::new(&DecodeOptions::default());
    assert_eq!(dec.feed("tasks[3]{id,after}:\n").unwrap(), vec![]);
    let first = dec.feed("  a,\"\"\n").unwrap();
    assert_eq!(
        first[..3],
        [
            Event::StartObject,
            Event::Key("tasks".into()),
            Event::StartArray { len: 3 }
        ]
    );
    assert_eq!(first[3..], row("a", "")[..]);
    // Split inside a row and inside a UTF-8 sequence: nothing until the newline.
    let bytes = "  b,ä\n".as_bytes();
    assert_eq!(dec.feed(&bytes[..5]).unwrap(), vec![]);
    assert_eq!(dec.feed(&bytes[5..]).unwrap(), row("b", "ä"));
    assert_eq!(dec.feed("  c,b\n").unwrap(), row("c", "b"));
    let rest = dec.close().unwrap();
    assert_eq!(rest, vec![Event::EndArray, Event::EndObject]);
    assert!(dec.is_done());
}

fn row(id: &str, after: &str) -> Vec<Event> {
    vec![
        Event::StartObject,
        Event::Key("id".into()),
        Event::Primitive(Value::from(id)),
        Event::Key("after".into()),
        Event::Primitive(Value::from(after)),
        Event::EndObject,
    ]
}

#[test]
fn close_reports_an_incomplete_document_and_the_error_stays() {
    let mut dec = PushDecoder::new(&DecodeOptions::default());
    dec.feed("items[3]: a,b\n").unwrap();
    let err = dec.close().unwrap_err();
    assert_eq!(err.line(), Some(1), "{err}");
    assert!(err.message().contains("3"), "{err}");
    assert!(dec.feed("more\n").is_err());
    assert!(dec.close().is_err());
    assert!(!dec.is_done());
}

#[test]
fn feeding_after_close_is_an_error() {
    let mut dec = PushDecoder::new(&DecodeOptions::default());
    dec.feed("a: 1").unwrap();
    assert_eq!(
        dec.close().unwrap(),
        vec![
            Event::StartObject,
            Event::Key("a".into()),
            Event::Primitive(Value::from(1)),
            Event::EndObject
        ]
    );
    assert!(dec.feed("b: 2\n").is_err());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn any_chunking_of_an_encoded_value_gives_the_same_events(
        v in strategies::value(),
        d in strategies::delimiter(),
        cuts in proptest::collection::vec(any::<usize>(), 0..12),
        strict in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let text = toon::encode_value_with(&v, &toon::EncodeOptions::default().with_delimiter(d))
            .expect("encodes");
        let options = DecodeOptions::default().with_strict(strict);
        prop_assert_eq!(compare(text.as_bytes(), &cuts, &options), Ok(()));
        let (events, error) = pushed(text.as_bytes(), &cuts, &options);
        prop_assert!(error.is_none());
        prop_assert!(!events.is_empty());
        for damaged in variants(text.as_bytes(), seed, 2) {
            prop_assert_eq!(compare(&damaged, &cuts, &options), Ok(()));
        }
    }
}
