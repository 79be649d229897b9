//! The header parser's tests.

use super::fields::{brace_depth, find_matching_brace, split_fields};
use super::{Header, HeaderParse, OwnedFieldCache, parse_header};
use crate::decode::grammar::tokens::unquoted_bytes;

fn header(s: &str) -> Header<'_> {
    match parse_header(s, 100, &mut OwnedFieldCache::default()) {
        HeaderParse::Header { header, .. } => header,
        other => panic!("not a header: {other:?}"),
    }
}

fn invalid(s: &str) -> String {
    match parse_header(s, 100, &mut OwnedFieldCache::default()) {
        HeaderParse::Invalid(e) => e.message,
        other => panic!("expected invalid: {other:?}"),
    }
}

#[test]
fn parses_keys_lengths_delimiters_and_groups() {
    let h = header("users[2|]{id|name|addr{city|zip}}:");
    assert_eq!(h.key.as_deref(), Some("users"));
    assert_eq!((h.length, h.delimiter, h.keyed), (2, b'|', false));
    assert_eq!(h.leaf_count(), 4);
    let k = header("\"my key\"[3:\t]{a\tb}:");
    assert_eq!(k.key.as_deref(), Some("my key"));
    assert!(k.keyed);
    assert_eq!(k.delimiter, b'\t');
}

#[test]
fn repeated_field_lists_are_reused_with_their_checks() {
    let mut cache = OwnedFieldCache::default();
    for _ in 0..2 {
        match parse_header("a[1]{x,x}:", 100, &mut cache) {
            HeaderParse::Header {
                strict_error: Some(e),
                ..
            } => assert!(e.message.contains("Duplicate field name"), "{e:?}"),
            other => panic!("expected a duplicate: {other:?}"),
        }
    }
    assert!(matches!(
        parse_header("a[2]{x,y}:", 100, &mut cache),
        HeaderParse::Header { .. }
    ));
    match parse_header("b[1|]{x,y}:", 100, &mut cache) {
        HeaderParse::Invalid(e) => assert!(e.message.contains("delimiter mismatch")),
        other => panic!("expected a mismatch: {other:?}"),
    }
    match parse_header("c[3]{x,y}:", 100, &mut cache) {
        HeaderParse::Header { header, .. } => {
            assert_eq!((header.key.as_deref(), header.length), (Some("c"), 3));
            let names: Vec<&str> = header
                .fields
                .iter()
                .flat_map(|f| f.iter())
                .map(|f| &*f.name)
                .collect();
            assert_eq!(names, ["x", "y"]);
        }
        other => panic!("expected a header: {other:?}"),
    }
}

#[test]
fn a_length_no_array_can_hold_is_a_strict_error_with_its_digits() {
    let parse = |s| parse_header(s, 100, &mut OwnedFieldCache::default());
    match parse("a[99999999999999999999999]: 1,2") {
        HeaderParse::Header {
            header,
            strict_error: Some(e),
            ..
        } => {
            assert_eq!(header.length, usize::MAX);
            assert_eq!(
                e.message,
                "Array length 99999999999999999999999 is larger than any array can hold"
            );
        }
        other => panic!("expected a strict error: {other:?}"),
    }
    let largest = format!("a[{}]: 1", usize::MAX);
    assert!(matches!(
        parse(&largest),
        HeaderParse::Header {
            strict_error: None,
            ..
        }
    ));
}

#[test]
fn rejects_malformed_headers() {
    assert!(invalid("a[03]: 1").contains("Invalid array length"));
    assert!(invalid("a[2] : 1").contains("whitespace between bracket segment and colon"));
    assert!(invalid("k[2:]:").contains("requires a field list"));
    assert!(invalid("a[2: 1").contains("Unterminated"));
    assert!(invalid("k[1]{}:").contains("Empty field name"));
    assert!(invalid("a[1|]{x,y}:").contains("delimiter mismatch"));
    assert!(invalid("foo [2]: x").contains("between key and bracket"));
    assert!(matches!(
        parse_header("a: b[2]: x", 10, &mut OwnedFieldCache::default()),
        HeaderParse::NotHeader
    ));
}

#[test]
fn quoted_braces_delimiters_and_escapes_do_not_count() {
    let list = r#"a,"b,{\"}",c{d,"e}"},f"#;
    let parts: Vec<(usize, &str)> = split_fields(list, b',');
    assert_eq!(
        parts,
        [
            (0, "a"),
            (2, r#""b,{\"}""#),
            (11, r#"c{d,"e}"}"#),
            (21, "f")
        ]
    );
    assert_eq!(find_matching_brace(list, 12), Some(19));
    assert_eq!(brace_depth(list), 1);
    assert_eq!(brace_depth(r#"a{b{c},"{{{"}"#), 2);
    // A backslash ends a quoted run only as an escape; outside quotes it is a byte.
    assert_eq!(
        split_fields(r#"\,"\\",x"#, b','),
        [(0, r"\"), (2, r#""\\""#), (7, "x")]
    );
}

/// The byte-by-byte reading of a matching brace, over [`unquoted_bytes`].
fn matching_brace_bytewise(s: &str, start: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in unquoted_bytes(s, start) {
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

#[test]
fn matching_brace_agrees_with_the_bytewise_reading() {
    // Every string of up to 7 bytes over braces, quotes, backslashes and a letter,
    // from every start.
    let alphabet = [b'{', b'}', b'"', b'\\', b'a'];
    let mut text = Vec::new();
    for len in 0..=7u32 {
        for mut n in 0..alphabet.len().pow(len) {
            text.clear();
            for _ in 0..len {
                text.push(alphabet[n % alphabet.len()]);
                n /= alphabet.len();
            }
            let s = std::str::from_utf8(&text).unwrap_or_default();
            for start in 0..s.len() {
                assert_eq!(
                    find_matching_brace(s, start),
                    matching_brace_bytewise(s, start),
                    "{s:?} from {start}"
                );
            }
        }
    }
}

#[test]
fn a_header_line_read_again_parses_as_the_first_time() {
    let mut cache = OwnedFieldCache::default();
    // The same lines twice: the second reading comes from the kept line and must be
    // the first one's (key borrowed from the new line, escaped key, strict error).
    let lines = [
        "ports[1]{name,port,protocol}:",
        "\"a\\tb\"[2]{x,y}:",
        "k[3:]{x,x}:",
        "[2|]{x|y}:",
        "ports[1]{name,port,protocol}:",
    ];
    let show = |p: HeaderParse<'_>| match p {
        HeaderParse::Header {
            header,
            inline,
            strict_error,
        } => format!(
            "{:?} {} {} {} {:?} {:?} {:?}",
            header.key,
            header.length,
            header.delimiter,
            header.keyed,
            header
                .fields
                .as_deref()
                .map(|f| f.iter().map(|f| f.name.to_string()).collect::<Vec<_>>()),
            inline,
            strict_error.map(|e| (e.message, e.offset))
        ),
        other => format!("{other:?}"),
    };
    for line in lines {
        let first = show(parse_header(line, 100, &mut OwnedFieldCache::default()));
        let copy = line.to_owned();
        for _ in 0..2 {
            assert_eq!(show(parse_header(&copy, 100, &mut cache)), first, "{line}");
        }
    }
    // A kept line does not answer for a different one of the same length.
    assert!(matches!(
        parse_header("ports[2]{name,port,protocol}:", 100, &mut cache),
        HeaderParse::Header {
            header: Header { length: 2, .. },
            ..
        }
    ));
    match parse_header("ports[2]{name,port,protocol}: x", 100, &mut cache) {
        HeaderParse::Invalid(e) => assert!(e.message.contains("Unexpected content")),
        other => panic!("expected an error: {other:?}"),
    }
}
