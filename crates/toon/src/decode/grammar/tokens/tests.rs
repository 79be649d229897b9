//! Tests of the token functions against plain readings of the rules.

use super::*;
use crate::Value;

#[test]
fn numbers_follow_the_spec_grammar() {
    for ok in [
        "0", "-0", "42", "-3.14", "1e-6", "-1E+9", "0.5", "0e1", "1.5000",
    ] {
        assert!(number(ok).is_some(), "{ok}");
    }
    for bad in [
        "05", "-05", ".5", "1.", "+5", "0x10", "1_000", "Infinity", "1e", "-", "",
    ] {
        assert!(number(bad).is_none(), "{bad}");
    }
    assert_eq!(number("12"), Some(Num::U64(12)));
    assert_eq!(number("1e2"), Some(Num::F64(100.0)));
}

/// `plain_key_colon` finds the first of `:`, `[` and `"` wherever it lies (in the
/// words it reads eight bytes at a time, their remainder, or the vector search).
#[test]
fn plain_key_colon_finds_the_first_stop() {
    let stops = [b':', b'[', b'"'];
    for len in 0..40usize {
        for at in 0..=len {
            for &stop in &stops {
                for &later in &stops {
                    let mut b: Vec<u8> = (0..len).map(|i| b"ab\x01\xff "[i % 5]).collect();
                    if at < len {
                        b[at] = stop;
                        if at + 1 < len {
                            b[at + 1] = later;
                        }
                    }
                    let text = String::from_utf8_lossy(&b).into_owned();
                    let want = text.bytes().position(|c| stops.contains(&c));
                    let got = match plain_key_colon(&text) {
                        PlainKey::Colon(i) => Some((i, b':')),
                        PlainKey::Other => want.map(|i| (i, text.as_bytes()[i])),
                        PlainKey::Nothing => None,
                    };
                    assert_eq!(got.map(|g| g.0), want, "{text:?}");
                    if let (Some(i), PlainKey::Other) = (want, plain_key_colon(&text)) {
                        assert_ne!(text.as_bytes()[i], b':', "{text:?}");
                    }
                }
            }
        }
    }
}

/// `find_unquoted` agrees with a byte-by-byte reading of the quoting rules on every
/// short string over the bytes that matter.
#[test]
fn find_unquoted_matches_the_byte_by_byte_rules() {
    fn reference(s: &str, target: u8, start: usize) -> Option<usize> {
        let b = s.as_bytes();
        let (mut in_quotes, mut i) = (false, start);
        while i < b.len() {
            let c = b[i];
            if in_quotes && c == b'\\' && i + 1 < b.len() {
                i += 2;
                continue;
            }
            if c == b'"' {
                in_quotes = !in_quotes;
            } else if c == target && !in_quotes {
                return Some(i);
            }
            i += 1;
        }
        None
    }
    let alphabet = ['a', ':', '"', '\\', ','];
    let mut strings = vec![String::new()];
    for _ in 0..6 {
        let longer: Vec<String> = strings
            .iter()
            .filter(|s| s.len() == strings.last().map_or(0, String::len))
            .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
            .collect();
        strings.extend(longer);
    }
    for s in &strings {
        for start in 0..=s.len() + 1 {
            for target in [b':', b',', b'\\', b'"'] {
                assert_eq!(
                    find_unquoted(s, target, start),
                    reference(s, target, start),
                    "{s:?} {} {start}",
                    target as char
                );
            }
        }
    }
}

#[test]
fn escapes_and_errors() {
    assert_eq!(unescape(r#"a\nb\t\"\\\u0041"#).unwrap(), "a\nb\t\"\\A");
    assert!(unescape(r"\x").unwrap_err().message.contains("\\x"));
    assert!(unescape(r"\u12").unwrap_err().message.contains("truncated"));
    assert!(
        unescape(r"\ud800")
            .unwrap_err()
            .message
            .contains("lone surrogate")
    );
    assert!(
        unescape("\\")
            .unwrap_err()
            .message
            .contains("end of string")
    );
}

#[test]
fn splitting_respects_quotes() {
    let mut out = Vec::new();
    split_delimited(r#"a, "b,c" ,,d"#, b',', &mut out);
    assert_eq!(out, vec!["a", "\"b,c\"", "", "d"]);
    split_delimited("", b',', &mut out);
    assert!(out.is_empty());
}

#[test]
fn rows_are_told_from_key_value_lines() {
    let mut out = Vec::new();
    assert!(split_row("1,a:b", b',', &mut out));
    assert_eq!(out, ["1", "a:b"]);
    assert!(!split_row("a: 1,2", b',', &mut out));
    assert!(split_row("\"x:y\"", b',', &mut out));
    assert!(split_row("plain", b'|', &mut out));
    for line in ["1,a:b", "a: 1,2", "\"x:y\",2", "k|v:1", "x"] {
        let mut cells = Vec::new();
        let is_row = split_row(line, b',', &mut cells);
        let colon = find_unquoted(line, b':', 0);
        let delim = find_unquoted(line, b',', 0);
        let expected = colon.is_none() || delim.is_some_and(|d| d < colon.unwrap_or(0));
        assert_eq!(is_row, expected, "{line}");
        if is_row {
            split_delimited(line, b',', &mut out);
            assert_eq!(cells, out);
        }
    }
}

/// A line of `len` characters drawn from `alphabet` (each byte as the character of that
/// code point) by a xorshift generator at `seed`.
fn random_line(seed: &mut u64, alphabet: &[u8], len: usize) -> String {
    (0..len)
        .map(|_| {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            char::from(alphabet[(*seed % alphabet.len() as u64) as usize])
        })
        .collect()
}

/// `split_row` agrees with a plain byte-by-byte reading of the row rules on many
/// lines over the bytes that matter, for every delimiter.
#[test]
fn split_row_matches_the_byte_by_byte_rules() {
    fn reference<'a>(line: &'a str, delim: u8, out: &mut Vec<&'a str>) -> bool {
        out.clear();
        let b = line.as_bytes();
        let (mut seen_delim, mut start, mut i) = (false, 0, 0);
        while i < b.len() {
            match b[i] {
                b'"' => match skip_quoted(b, i) {
                    Some(end) => i = end + 1,
                    None => break,
                },
                b':' if !seen_delim => return false,
                c if c == delim => {
                    out.push(trim_spaces(&line[start..i]));
                    start = i + 1;
                    seen_delim = true;
                    i += 1;
                }
                _ => i += 1,
            }
        }
        out.push(trim_spaces(&line[start..]));
        true
    }
    // Short lines over every byte that matters; long lines without quotes (read a word at
    // a time), dense in delimiters, with a two-byte character.
    let alphabets: [(&[u8], usize); 2] = [
        (b"a,:\"|\\ \tb", 37),
        (
            &[b'a', b',', b',', b'|', b'|', b'\t', b'\t', b' ', b':', 0xe9],
            301,
        ),
    ];
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for (alphabet, lengths) in alphabets {
        for n in 0..20000 {
            let len = n % lengths;
            let line = random_line(&mut seed, alphabet, len);
            let (mut want, mut got) = (Vec::new(), Vec::new());
            for delim in [b',', b'|', b'\t'] {
                let expected = reference(&line, delim, &mut want);
                assert_eq!(split_row(&line, delim, &mut got), expected, "{line:?}");
                if expected {
                    assert_eq!(got, want, "{line:?}");
                }
            }
        }
    }
}

/// `split_delimited` agrees with a plain byte-by-byte reading of the quoting rules
/// (a quote toggles quoting, a backslash inside quotes escapes the next byte).
#[test]
fn split_delimited_matches_the_byte_by_byte_rules() {
    fn reference<'a>(input: &'a str, delim: u8, out: &mut Vec<&'a str>) {
        out.clear();
        let b = input.as_bytes();
        let (mut in_quotes, mut start, mut i) = (false, 0, 0);
        while i < b.len() {
            let c = b[i];
            if in_quotes && c == b'\\' && i + 1 < b.len() {
                i += 2;
                continue;
            }
            if c == b'"' {
                in_quotes = !in_quotes;
            } else if c == delim && !in_quotes {
                out.push(trim_spaces(&input[start..i]));
                start = i + 1;
            }
            i += 1;
        }
        if start < b.len() || !out.is_empty() {
            out.push(trim_spaces(&input[start..]));
        }
    }
    let alphabet = [b'a', b',', b':', b'"', b'|', b'\\', b' ', b'\t', b'b'];
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for n in 0..20000 {
        let len = n % 37;
        let line = random_line(&mut seed, &alphabet, len);
        let (mut want, mut got) = (Vec::new(), Vec::new());
        for delim in [b',', b'|', b'\t'] {
            reference(&line, delim, &mut want);
            split_delimited(&line, delim, &mut got);
            assert_eq!(got, want, "{line:?}");
        }
    }
}

#[test]
fn primitives() {
    let v = |t: &str| crate::decode_value(&format!("k: {t}")).unwrap()["k"].clone();
    assert_eq!(v("1e400"), Value::String("1e400".into()));
    assert_eq!(v("-0"), Value::from(0));
    assert_eq!(v(" \"x\" "), Value::from("x"));
    assert_eq!(v("1.5000"), Value::from(1.5));
    assert!(crate::decode_value("k: \"x\"y").is_err());
}

/// `number` against a plain reading: the grammar by a straightforward matcher, the
/// value by the standard library's parsers.
fn plain_number(t: &str) -> Option<Num> {
    let b = t.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let digits = |mut i: usize| {
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    i = match b.get(i)? {
        b'0' => i + 1,
        b'1'..=b'9' => digits(i + 1),
        _ => return None,
    };
    let mut float = false;
    if b.get(i) == Some(&b'.') {
        let end = digits(i + 1);
        if end == i + 1 {
            return None;
        }
        (i, float) = (end, true);
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let end = digits(i);
        if end == i {
            return None;
        }
        (i, float) = (end, true);
    }
    if i != b.len() {
        return None;
    }
    Some(if float {
        Num::F64(t.parse().ok()?)
    } else if let Ok(u) = t.parse::<u64>() {
        Num::U64(u)
    } else if let Ok(v) = t.parse::<i64>() {
        Num::I64(v)
    } else {
        Num::BigInt
    })
}

fn same_number(t: &str) {
    let (got, want) = (number(t), plain_number(t));
    let agree = match (got, want) {
        (Some(Num::F64(a)), Some(Num::F64(b))) => a.to_bits() == b.to_bits(),
        (a, b) => a == b,
    };
    assert!(agree, "{t:?}: {got:?}, want {want:?}");
}

#[test]
fn number_parses_as_the_standard_library() {
    // Every string of up to 5 bytes over these.
    let alphabet = b"019-.eE+";
    let mut words = vec![String::new()];
    for _ in 0..5 {
        let mut next = Vec::new();
        for w in &words {
            for &c in alphabet {
                let mut w = w.clone();
                w.push(char::from(c));
                same_number(&w);
                next.push(w);
            }
        }
        words = next;
    }
    for t in [
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "9999999999999999999",
        "-9999999999999999999",
        "123456789012345.5",
        "0.1",
        "0.30000000000000004",
        "999999999999999.9",
        "1.7976931348623157e308",
        "1e400",
        "-0.0",
        "5e-324",
        "0.0000000000000000000001",
        "12345678901234567890.5",
    ] {
        same_number(t);
    }
    // Decimals as a writer prints them: shortest, fixed and long fractions.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..20_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let f = (x >> 11) as f64 / (1u64 << (x % 40)) as f64 - 1e6;
        for t in [
            format!("{f}"),
            format!("{f:.2}"),
            format!("{f:.7}"),
            format!("{:.3}", f / 1e9),
        ] {
            same_number(&t);
        }
    }
}

/// A quoted token read byte by byte and char by char: the closing quote (a backslash
/// skips the byte after it), then each escape of the body.
fn plain_quoted(token: &str, whole: bool) -> Result<(String, usize), (String, usize)> {
    let b = token.as_bytes();
    let mut i = 1;
    let close = loop {
        match b.get(i) {
            None => return Err(("unterminated".into(), 0)),
            Some(b'"') => break i,
            Some(b'\\') if i + 1 < b.len() => i += 2,
            Some(b'\\') => return Err(("unterminated".into(), 0)),
            Some(_) => i += 1,
        }
    };
    if whole && close != b.len() - 1 {
        return Err((
            "Unexpected characters after closing quote".into(),
            close + 1,
        ));
    }
    let body = &token[1..close];
    let mut out = String::new();
    let mut chars = body.char_indices();
    while let Some((at, c)) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let bad = |m: &str| Err((m.to_string(), at + 1));
        match chars.next().map(|(_, c)| c) {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('\\') => out.push('\\'),
            Some('"') => out.push('"'),
            Some('u') => {
                let hex: String = chars.clone().take(4).map(|(_, c)| c).collect();
                let unit = (hex.len() == 4)
                    .then(|| u32::from_str_radix(&hex, 16).ok())
                    .flatten();
                match unit.and_then(char::from_u32) {
                    Some(c) => out.push(c),
                    None => return bad("escape"),
                }
                chars.nth(3);
            }
            None => return bad("Invalid escape sequence: backslash at end of string"),
            Some(_) => return bad("escape"),
        }
    }
    Ok((out, close))
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]

    /// `quoted_str` and `parse_key` against the plain reading: the same string, or an
    /// error of the same kind at the same offset.
    #[test]
    fn quoted_tokens_read_as_the_plain_reading(
        parts in proptest::collection::vec(proptest::sample::select(vec![
            "a", "bc", " ", "\"", "\\", "n", "t", "u", "0", "D", "8", "f", "é", "\\\"",
            "\\n", "\\u00e9", "\\uD800", ":", "longer text without specials ",
        ]), 0..24),
        suffix in proptest::sample::select(vec!["", "\"", "\": v", "x"]),
    ) {
        let token = format!("\"{}{suffix}", parts.concat());
        let same = |got: TokResult<String>, want: Result<String, (String, usize)>| {
            match (got, want) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{token:?}"),
                (Err(e), Err((m, at))) => {
                    assert_eq!(e.offset, at, "{token:?}: {}", e.message);
                    let kind = if m == "unterminated" { "Unterminated" } else if m == "escape" { "Invalid escape" } else { &m };
                    assert!(e.message.contains(kind), "{token:?}: {} is not {m}", e.message);
                }
                (got, want) => panic!("{token:?}: {got:?}, want {want:?}"),
            }
        };
        same(
            quoted_str(&token).map(|s| s.into_owned()),
            plain_quoted(&token, true).map(|(s, _)| s),
        );
        let want_key = plain_quoted(&token, false).and_then(|(s, close)| {
            let rest = token[close + 1..].trim_start_matches(' ');
            if rest.starts_with(':') {
                Ok(s)
            } else {
                Err(("Missing colon after key".into(), token.len() - rest.len()))
            }
        });
        same(parse_key(&token).map(|(k, _)| k.into_owned()), want_key);
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20000))]

    /// `number` against the standard library on number-shaped tokens (integer and
    /// fraction lengths around the 15 and 19 digits where its fast paths end) and on
    /// any short text of number characters.
    #[test]
    fn numbers_parse_as_the_standard_library(
        t in proptest::prop_oneof![
            "-?[0-9]{0,21}(\\.[0-9]{0,17})?",
            "-?[1-9][0-9]{0,9}\\.[0-9]{1,9}([eE][-+]?[0-9]{1,3})?",
            "[-0-9.eE+x:/ \u{e9}]{0,14}",
        ],
    ) {
        same_number(&t);
    }
}
