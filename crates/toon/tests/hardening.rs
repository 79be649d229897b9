//! Hostile input: nesting far beyond the limit, absurd declared lengths, very long
//! lines, wide tables, long and repeated keys, invalid UTF-8. Each case must end in a
//! value or a clean error: never a panic, a stack overflow or a huge allocation.
//! (Timing is measured separately, in `fuzz/README.md`; these tests check behaviour.)

use toon::{DEFAULT_MAX_DEPTH, DecodeOptions, ErrorKind, Value};

fn strict() -> DecodeOptions {
    DecodeOptions::default()
}

fn lenient() -> DecodeOptions {
    DecodeOptions::default().with_strict(false)
}

/// Decodes `text` through all three decoder paths (value, serde, streaming JSON) and
/// checks that they agree on success or on the error kind; returns the value result.
fn decode_all(text: &str, options: &DecodeOptions) -> toon::Result<Value> {
    let value = toon::decode_value_with(text, options);
    let typed = toon::from_str_with::<serde_json::Value>(text, options);
    let mut json = Vec::new();
    let streamed = toon::decode::to_json_writer(text, options, &mut json, 0);
    match (&value, &typed, &streamed) {
        (Ok(_), Ok(_), Ok(())) => {}
        (Err(a), Err(b), Err(c)) => {
            assert_eq!(a.kind(), b.kind(), "value vs serde: {a} / {b}");
            assert_eq!(a.kind(), c.kind(), "value vs stream: {a} / {c}");
        }
        _ => panic!("paths disagree: {value:?} / {typed:?} / {streamed:?}"),
    }
    value
}

#[test]
fn the_default_depth_limit_is_documented_and_generous() {
    assert_eq!(DEFAULT_MAX_DEPTH, 1000);
    assert_eq!(DecodeOptions::default().max_depth, DEFAULT_MAX_DEPTH);
    assert_eq!(toon::EncodeOptions::default().max_depth, DEFAULT_MAX_DEPTH);
}

#[test]
fn a_100_000_level_field_group_is_a_depth_error() {
    // One header line nesting 100,000 field groups: `a[1]{b{b{…{c}…}}}:`.
    let n = 100_000;
    let mut text = String::from("a[1]{");
    text.push_str(&"b{".repeat(n));
    text.push('c');
    text.push_str(&"}".repeat(n + 1));
    text.push_str(":\n  1");
    for options in [strict(), lenient()] {
        let e = decode_all(&text, &options).expect_err("too deep");
        assert_eq!(e.kind(), ErrorKind::Depth, "{e}");
        assert!(e.to_string().contains("limit"), "{e}");
    }
}

#[test]
fn a_100_000_level_json_document_is_a_depth_error() {
    for deep in [
        format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)),
        format!("{}1{}", "{\"a\":".repeat(100_000), "}".repeat(100_000)),
    ] {
        let e = toon::value::from_json_str(&deep, DEFAULT_MAX_DEPTH).expect_err("too deep");
        assert_eq!(e.kind(), ErrorKind::Depth, "{e}");
    }
}

/// `depth` levels of list items, each holding the next list: `- [1]:` lines.
fn nested_lists(depth: usize) -> String {
    let mut text = String::from("[1]:\n");
    for i in 1..depth {
        text.push_str(&" ".repeat(i));
        text.push_str("- [1]:\n");
    }
    text.push_str(&" ".repeat(depth));
    text.push_str("- x");
    text
}

#[test]
fn deep_lists_are_a_depth_error_at_the_limit_and_fine_below_it() {
    let indent1 = |o: DecodeOptions| o.with_indent_size(1);
    let deep = nested_lists(DEFAULT_MAX_DEPTH + 50);
    for options in [indent1(strict()), indent1(lenient())] {
        let e = decode_all(&deep, &options).expect_err("too deep");
        assert_eq!(e.kind(), ErrorKind::Depth, "{e}");
    }
    let ok = nested_lists(DEFAULT_MAX_DEPTH / 2);
    let v = decode_all(&ok, &indent1(strict())).expect("within the limit");
    let mut depth = 0;
    let mut cur = &v;
    while let Some(a) = cur.as_array() {
        depth += 1;
        cur = &a[0];
    }
    assert_eq!(depth, DEFAULT_MAX_DEPTH / 2);
    assert_eq!(cur.as_str(), Some("x"));
}

#[test]
fn declared_lengths_are_never_trusted_for_allocation() {
    // Pre-allocating 4e9 (or 2^64) elements would abort the process.
    for (text, expected) in [
        ("a[4000000000]: 1,2", toon::toon!({"a": [1, 2]})),
        ("[4000000000]: x", toon::toon!(["x"])),
        (
            "a[4000000000]{x,y}:\n  1,2",
            toon::toon!({"a": [{"x": 1, "y": 2}]}),
        ),
        (
            "a[4000000000]:\n  - 1\n  - [2]: a,b",
            toon::toon!({"a": [1, ["a", "b"]]}),
        ),
        ("a[99999999999999999999999999]: 1", toon::toon!({"a": [1]})),
    ] {
        let e = decode_all(text, &strict()).expect_err("count mismatch");
        assert_ne!(e.kind(), ErrorKind::Depth, "{text}: {e}");
        assert_eq!(
            decode_all(text, &lenient()).expect(text),
            expected,
            "{text}"
        );
    }
    // Serde's own size hints are bounded too.
    assert!(toon::from_str::<Vec<u8>>("[4000000000]: 1").is_err());
    let lenient_vec: Vec<u8> =
        toon::from_str_with("[4000000000]: 1,2", &lenient()).expect("advisory count");
    assert_eq!(lenient_vec, [1, 2]);
}

#[test]
fn a_2_mb_single_line_decodes() {
    let long = "x".repeat(2 << 20);
    let v = decode_all(&format!("k: {long}"), &strict()).expect("long string");
    assert_eq!(v["k"].as_str().map(str::len), Some(2 << 20));
    let quoted = format!("k: \"{}\"", "\\\"ab".repeat(1 << 19));
    let v = decode_all(&quoted, &strict()).expect("long quoted string");
    assert_eq!(v["k"].as_str().map(str::len), Some(3 << 19));
    // 300,000 items on one line.
    let n = 300_000;
    let items = vec!["7"; n].join(",");
    let v = decode_all(&format!("a[{n}]: {items}"), &strict()).expect("long array");
    assert_eq!(v["a"].as_array().map(Vec::len), Some(n));
}

#[test]
fn thousands_of_columns_decode() {
    let cols = 5000;
    let names: Vec<String> = (0..cols).map(|i| format!("c{i}")).collect();
    let row: Vec<String> = (0..cols).map(|i| i.to_string()).collect();
    let text = format!(
        "t[2]{{{}}}:\n  {}\n  {}",
        names.join(","),
        row.join(","),
        row.join(",")
    );
    let v = decode_all(&text, &strict()).expect("wide table");
    let rows = v["t"].as_array().expect("rows");
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1].as_object().map(|o| o.len()), Some(cols));
    assert_eq!(rows[1]["c4999"], toon::toon!(4999));
    // A duplicate among thousands of field names is still found.
    let dup = text.replacen("c4999", "c0", 1);
    let e = decode_all(&dup, &strict()).expect_err("duplicate field");
    assert!(e.to_string().contains("Duplicate field name"), "{e}");
}

#[test]
fn very_long_keys_decode() {
    let key = "k".repeat(1 << 20);
    let v = decode_all(&format!("{key}: 1\n\"{key}x\": 2"), &strict()).expect("long keys");
    assert_eq!(v[key.as_str()], toon::toon!(1));
    assert_eq!(v.as_object().map(|o| o.len()), Some(2));
    let header = decode_all(&format!("{key}[1]{{{key}}}:\n  3"), &strict()).expect("long header");
    assert_eq!(header[key.as_str()][0][key.as_str()], toon::toon!(3));
}

#[test]
fn many_duplicate_keys_resolve_last_wins_when_lenient_and_fail_when_strict() {
    let n = 20_000;
    let mut text = String::new();
    for i in 0..n {
        text.push_str(&format!("k: {i}\nu{i}: {i}\n"));
    }
    let v = decode_all(&text, &lenient()).expect("last write wins");
    let o = v.as_object().expect("object");
    assert_eq!(o.len(), n + 1);
    // The key keeps its first position and takes the last value (JSON.parse).
    assert_eq!(o.get_index(0).map(|(k, _)| k.as_str()), Some("k"));
    assert_eq!(v["k"], toon::toon!(n - 1));
    let e = decode_all(&text, &strict()).expect_err("duplicate");
    assert_eq!(e.line(), Some(3), "{e}");
}

#[test]
fn a_duplicate_key_past_the_first_keys_is_an_error_at_its_line_and_column() {
    // Past its first 16 keys a key set is hashed: a duplicate found there is still the
    // error at the repeated key, for short and long keys, in an object and in a keyed
    // table (quoted keys and plain ones), with 40 and 5,000 keys before it.
    for before in [40usize, 5_000] {
        for long in [false, true] {
            let name = |i: usize| {
                if long {
                    format!("a rather long key number {i}")
                } else {
                    format!("k{i}")
                }
            };
            let repeated = name(before / 2);
            let quoted = |k: &str| {
                if long {
                    format!("\"{k}\"")
                } else {
                    k.to_owned()
                }
            };
            let mut object = String::from("root:\n");
            let mut keyed = format!("root[{}:]{{a,b}}:\n", before + 1);
            for i in 0..before {
                object.push_str(&format!("  {}: {i}\n", quoted(&name(i))));
                keyed.push_str(&format!("  {}: {i},x\n", quoted(&name(i))));
            }
            object.push_str(&format!("  {}: 0\n", quoted(&repeated)));
            keyed.push_str(&format!("  {}: 0,x\n", quoted(&repeated)));
            for text in [object, keyed] {
                let e = decode_all(&text, &strict()).expect_err("duplicate");
                assert_eq!(
                    (e.line(), e.column()),
                    (Some(before + 2), Some(3)),
                    "{before} {long}: {e}"
                );
                assert!(e.to_string().contains(&repeated), "{e}");
                decode_all(&text, &lenient()).expect("last write wins");
            }
        }
    }
}

#[test]
fn invalid_utf8_names_its_byte_offset_when_strict_and_is_replaced_when_not() {
    let bytes = b"a: 1\nb: ok\nc: x\xe2\x82\ny: 2";
    let e = toon::decode_slice_with(bytes, &strict()).expect_err("invalid UTF-8");
    assert_eq!(e.kind(), ErrorKind::Utf8);
    assert_eq!(e.byte_offset(), Some(15));
    assert_eq!((e.line(), e.column()), (Some(3), Some(5)));
    assert!(e.to_string().contains("byte 15"), "{e}");
    let e = toon::from_reader::<_, Value>(&bytes[..]).expect_err("reader too");
    assert_eq!(e.byte_offset(), Some(15));
    let v = toon::decode_slice_with(bytes, &lenient()).expect("lossy");
    // A truncated sequence is one U+FFFD, as TextDecoder (the reference) does it.
    assert_eq!(v["c"].as_str(), Some("x\u{FFFD}"));
    assert_eq!(v["y"], toon::toon!(2));
    // A lone continuation byte, and a truncated sequence at the very end.
    let v = toon::decode_slice_with(b"k: \x80\x80z\xf0\x9f", &lenient()).expect("lossy");
    assert_eq!(v["k"].as_str(), Some("\u{FFFD}\u{FFFD}z\u{FFFD}"));
}
