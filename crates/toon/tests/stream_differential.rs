//! The state machine over a reader, collected into a `Value` (`reader_to_value`), against
//! the serde deserializer over the whole text (`from_str::<Value>`): two inputs and two
//! drivers of the one grammar. On every input the reader's `Value` equals `from_str`'s,
//! or both fail with the same error (kind, message, line, column, source line); the JSON
//! written from a reader equals the JSON written from the text byte for byte, and
//! `from_str`'s value written as JSON. Inputs: the spec fixtures (decode
//! inputs and the expected texts of encode cases), the fuzz corpora of the decode
//! targets, and damaged variants of both; each read through a 1-byte buffer and a
//! normal one, strict and non-strict.
//!
//! Our own conformance cases (`testdata/conformance`) run in every `cargo test`; the
//! official fixtures are read as the conformance suite reads them (`$TOON_SPEC_DIR`,
//! default `shared/toon-spec` beside the checkout) by an ignored test that
//! `--include-ignored` runs (as `.ci/run` does).

use std::io::BufReader;
use std::path::Path;

use toon::decode::{EventReader, reader_to_json_lines, reader_to_json_writer, reader_to_value};
use toon::{DecodeOptions, Error, ErrorKind, Value};
use toon_conformance::{Case, announce_skipped, run_own_suite, run_suite};

mod damage;

use damage::variants;

fn same_error(a: &Error, b: &Error) -> bool {
    a.kind() == b.kind()
        && a.message() == b.message()
        && a.line() == b.line()
        && a.column() == b.column()
        && a.source_line() == b.source_line()
}

fn show(r: &Result<Value, Error>) -> String {
    match r {
        Ok(v) => toon::value::to_json_string(v, 0),
        Err(e) => format!(
            "error {:?} {:?} at {:?}:{:?} {:?}",
            e.kind(),
            e.message(),
            e.line(),
            e.column(),
            e.source_line()
        ),
    }
}

/// Checks one input under one set of options; `Err` describes the disagreement.
fn check_input(bytes: &[u8], options: &DecodeOptions) -> Result<(), String> {
    let tree = toon::from_slice_with::<Value>(bytes, options);
    for cap in [1, 8192] {
        let stream = reader_to_value(BufReader::with_capacity(cap, bytes), options);
        let agree = match (&tree, &stream) {
            (Ok(a), Ok(b)) => a == b,
            (Err(a), Err(b)) if same_error(a, b) => true,
            // Strict UTF-8: the stream finds the bad line when it gets there, so an error
            // on an earlier line (as `from_str` reports it for the repaired text)
            // may come first.
            (Err(a), Err(b)) if a.kind() == ErrorKind::Utf8 => {
                let lossy = String::from_utf8_lossy(bytes);
                let repaired = toon::from_str_with::<Value>(&lossy, options);
                matches!(&repaired, Err(r) if same_error(r, b)
                    && r.line().unwrap_or(0) <= a.line().unwrap_or(0))
            }
            _ => false,
        };
        if !agree {
            return Err(format!(
                "buffer {cap}: tree {} / stream {}",
                show(&tree),
                show(&stream)
            ));
        }
    }
    // JSON: the text input against the reader input (the same writer over the two line
    // sources), and both against the tree's value written as JSON.
    if let Ok(text) = std::str::from_utf8(bytes) {
        for indent in [0, 2] {
            let mut want = Vec::new();
            let want =
                toon::decode::to_json_writer(text, options, &mut want, indent).map(|()| want);
            let mut got = Vec::new();
            let got = reader_to_json_writer(
                BufReader::with_capacity(7, bytes),
                options,
                &mut got,
                indent,
            )
            .map(|()| got);
            let agree = match (&want, &got) {
                (Ok(a), Ok(b)) => a == b,
                (Err(a), Err(b)) => same_error(a, b),
                _ => false,
            };
            if !agree {
                return Err(format!(
                    "JSON indent {indent}: text {:?} / reader {:?}",
                    want.map(String::from_utf8),
                    got.map(String::from_utf8)
                ));
            }
            let tree_json = tree
                .as_ref()
                .ok()
                .map(|v| toon::value::to_json_string(v, indent).into_bytes());
            if let (Some(tree_json), Ok(json)) = (tree_json, &want)
                && &tree_json != json
            {
                return Err(format!(
                    "JSON indent {indent}: tree {:?} / writer {:?}",
                    String::from_utf8_lossy(&tree_json),
                    String::from_utf8_lossy(json)
                ));
            }
            if tree.is_err() != want.is_err() {
                return Err(format!(
                    "JSON indent {indent}: tree {} / writer {want:?}",
                    show(&tree)
                ));
            }
        }
    }
    Ok(())
}

/// Both modes (and the given indent).
fn check_both_modes(bytes: &[u8], indent: usize) -> Result<(), String> {
    damage::in_both_modes(check_input, bytes, indent)
}

fn case_check(case: &Case) -> Result<(), String> {
    damage::case_and_variants(check_input, case, 0, 12)
}

#[test]
fn own_cases_stream_like_the_tree_decoder() {
    run_own_suite("stream vs tree", case_check);
}

#[test]
#[ignore = "needs the TOON spec fixtures: set TOON_SPEC_DIR and run with --include-ignored (.ci/run does)"]
fn fixtures_stream_like_the_tree_decoder() {
    run_suite("stream vs tree", case_check);
}

#[test]
fn fixtures_skipped_notice() {
    announce_skipped(
        "stream vs tree",
        "cargo test -p toon --test stream_differential",
    );
}

fn corpus_files() -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus");
    let mut files = Vec::new();
    for target in ["decode", "typed"] {
        let dir = root.join(target);
        let entries = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("fuzz corpus {} missing: {e}", dir.display()));
        files.extend(entries.filter_map(|e| e.ok().map(|e| e.path())));
    }
    files.sort();
    assert!(
        files.len() > 100,
        "fuzz corpora look empty: {}",
        files.len()
    );
    files
}

#[test]
fn fuzz_corpora_stream_like_the_tree_decoder() {
    let mut failures = Vec::new();
    for path in corpus_files() {
        let bytes = std::fs::read(&path).unwrap_or_default();
        // The decode target's own indent choice, and the default.
        let indent = 1 + usize::from(bytes.first().copied().unwrap_or(0) % 4);
        for ind in [indent, 2] {
            if let Err(e) = check_both_modes(&bytes, ind) {
                failures.push(format!("{}: {e}", path.display()));
            }
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
fn damaged_corpora_stream_like_the_tree_decoder() {
    let mut failures = Vec::new();
    for (i, path) in corpus_files().into_iter().enumerate() {
        let bytes = std::fs::read(&path).unwrap_or_default();
        for v in variants(&bytes, i as u64 + 1, 6) {
            if let Err(e) = check_both_modes(&v, 2) {
                failures.push(format!(
                    "{} {:?}: {e}",
                    path.display(),
                    String::from_utf8_lossy(&v)
                ));
            }
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
fn hand_written_cases() {
    let cases: &[&str] = &[
        "",
        "\u{feff}a: 1\r\nb:\r\n  c: 2\r\n",
        "# comment\na: 1\n  # indented comment\nb: 2",
        "[3]: 1,2,3",
        "[2]:\n  - a\n\n  - b",
        "items[2]{id,meta{x,y}}:\n  1,2,3\n  4,5,6\nnext: true",
        "users[2:]{name,age}:\n  ada: Ada,36\n  bob: Bob,40",
        "- a\n- b",
        "a[2]:\n  - x: 1\n    y: 2\n  - [2]: 1,2\n  - k[1]{a}:\n      1\n    z: 3\n  -\n  - []",
        "a:\n      b: 1",
        "a: 1\na: 2",
        "a:\n  b: 1\n  b: 2",
        "n: 123456789012345678901234567890123456789012\nm: -0\nf: 1.50\ne: 1e400",
        "a[1]: \"x\\q\"",
        "x\ny",
        "a[2]{p,q}:\n  1,2",
        "a[1]{p,q}:\n  1,2\n  3,4",
        "a[1]:\n  - 1\n  - 2",
        "k[2:]{v}:\n  a: 1\n  a: 2",
        "\ta: 1",
        "a:\n\tb: 1",
        "a:\n   b: 1",
        "\"quoted key\": \"v\"\n\"k[2]\"[2]: 1,2",
        "a\u{0}b: 1",
    ];
    for text in cases {
        for indent in [1, 2, 3] {
            if let Err(e) = check_both_modes(text.as_bytes(), indent) {
                panic!("{text:?}: {e}");
            }
        }
    }
    // Invalid UTF-8, early and late.
    for bytes in [
        &b"a: \xff\nb: 1"[..],
        b"a: 1\nb: x\xc3",
        b"a:\n  b: 1\n\tc: \xff",
    ] {
        check_both_modes(bytes, 2).unwrap();
    }
}

#[test]
fn max_depth_matches() {
    let mut text = String::new();
    for d in 0..40 {
        text.push_str(&" ".repeat(2 * d));
        text.push_str(&format!("k{d}:\n"));
    }
    for max in [1, 5, 39, 40, 41, 100] {
        for strict in [true, false] {
            let options = DecodeOptions::default()
                .with_max_depth(max)
                .with_strict(strict);
            check_input(text.as_bytes(), &options).unwrap();
        }
    }
    let list = "[1]:\n  - [1]:\n    - [1]:\n      - x";
    for max in [1, 2, 3, 4] {
        check_input(
            list.as_bytes(),
            &DecodeOptions::default().with_max_depth(max),
        )
        .unwrap();
    }
    // Deep nesting needs no stack: 5,000 levels stream without recursion.
    let mut deep = String::new();
    for d in 0..5_000 {
        deep.push_str(&" ".repeat(d));
        deep.push_str("a:\n");
    }
    let options = DecodeOptions::default()
        .with_indent_size(1)
        .with_max_depth(usize::MAX);
    let events = EventReader::new(deep.as_bytes(), &options).count();
    assert_eq!(events, 2 + 5_000 * 3);
    let limited = EventReader::new(deep.as_bytes(), &options.clone().with_max_depth(4_000));
    let err = limited.filter_map(Result::err).next().unwrap();
    assert_eq!((err.kind(), err.line()), (ErrorKind::Depth, Some(4_000)));
}

#[test]
fn events_of_a_table_in_order() {
    use toon::decode::Event::*;
    let r = EventReader::new("t[1]{a,g{b}}:\n  1,x".as_bytes(), &DecodeOptions::default());
    let events: Vec<_> = r.collect::<Result<_, _>>().unwrap();
    assert_eq!(
        events,
        vec![
            StartObject,
            Key("t".into()),
            StartArray { len: 1 },
            StartObject,
            Key("a".into()),
            Primitive(Value::from(1)),
            Key("g".into()),
            StartObject,
            Key("b".into()),
            Primitive(Value::from("x")),
            EndObject,
            EndObject,
            EndArray,
            EndObject,
        ]
    );
}

#[test]
fn non_strict_repeats_keys_like_the_reference_stream() {
    let options = DecodeOptions::default().with_strict(false);
    let r = EventReader::new("a: 1\nb: 2\na: 3".as_bytes(), &options);
    let keys: Vec<String> = r
        .filter_map(|e| match e.unwrap() {
            toon::decode::Event::Key(k) => Some(k),
            _ => None,
        })
        .collect();
    assert_eq!(keys, ["a", "b", "a"]);
    let v = reader_to_value("a: 1\nb: 2\na: 3".as_bytes(), &options).unwrap();
    assert_eq!(v, toon::toon!({"a": 3, "b": 2}));
}

#[test]
fn json_lines() {
    let opts = DecodeOptions::default();
    let run = |text: &str, opts: &DecodeOptions| {
        let mut out = Vec::new();
        reader_to_json_lines(text.as_bytes(), opts, &mut out)
            .map(|n| (n, String::from_utf8(out).unwrap()))
    };
    assert_eq!(
        run("[3]: 1,x,true", &opts).unwrap(),
        (3, "1\n\"x\"\ntrue\n".into())
    );
    assert_eq!(
        run("rows[2]:\n  - a: 1\n    b[2]: 1,2\n  - []", &opts).unwrap(),
        (2, "{\"a\":1,\"b\":[1,2]}\n[]\n".into())
    );
    assert_eq!(run("[0]:", &opts).unwrap(), (0, String::new()));
    let nonstrict = DecodeOptions::default().with_strict(false);
    assert_eq!(
        run("r[1]:\n  - a: 1\n    a: 2", &nonstrict).unwrap(),
        (1, "{\"a\":2}\n".into())
    );
    for bad in ["a: 1", "x", "a[1]: 1\nb: 2", "", "a:\n  b: 1"] {
        let e = run(bad, &opts).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Data, "{bad}: {e}");
        assert!(e.message().contains("JSON Lines"), "{e}");
    }
    // Decode errors come through as they are.
    let e = run("[2]: 1", &opts).unwrap_err();
    assert_eq!(e.message(), "Expected 2 inline-form values, but got 1");
    // Each record equals the element as JSON.
    let text =
        "items[3]{id,n}:\n  1,123456789012345678901234567890123456789012\n  2,1.5e3\n  3,\"q\\\"\"";
    let (n, out) = run(text, &opts).unwrap();
    assert_eq!(n, 3);
    let mut whole = Vec::new();
    toon::decode::to_json_writer(text, &opts, &mut whole, 0).unwrap();
    let whole = String::from_utf8(whole).unwrap();
    let joined = out.trim_end().replace('\n', ",");
    assert_eq!(format!("{{\"items\":[{joined}]}}"), whole);
}

/// Integers of any size come out exact from every JSON path, strict or not, whole text
/// or reader, JSON or JSON Lines, as a `Value` keeps them.
#[test]
fn huge_integers_are_exact_on_every_json_path() {
    let big = "123456789012345678901234567890123456789012";
    let text = format!("items[2]: {big},-{big}9");
    let want = format!("{{\"items\":[{big},-{big}9]}}");
    for strict in [true, false] {
        let opts = DecodeOptions::default().with_strict(strict);
        let mut whole = Vec::new();
        toon::decode::to_json_writer(&text, &opts, &mut whole, 0).unwrap();
        assert_eq!(String::from_utf8(whole).unwrap(), want, "strict {strict}");
        let mut read = Vec::new();
        reader_to_json_writer(text.as_bytes(), &opts, &mut read, 0).unwrap();
        assert_eq!(String::from_utf8(read).unwrap(), want, "strict {strict}");
        let mut lines = Vec::new();
        reader_to_json_lines(text.as_bytes(), &opts, &mut lines).unwrap();
        assert_eq!(
            String::from_utf8(lines).unwrap(),
            format!("{big}\n-{big}9\n"),
            "strict {strict}"
        );
    }
}
