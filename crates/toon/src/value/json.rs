//! Writing a [`Value`] as JSON text exactly as JavaScript's
//! `JSON.stringify(value, null, indent)` does: key order kept, numbers in JavaScript's
//! form, the same escapes, indentation capped at 10 spaces.

use super::{Number, Value};
use crate::stack::guarded;

/// `JSON.stringify(value, null, indent)` byte for byte (`indent` 0 is compact).
///
/// ```
/// let v = toon::decode_value("a[2]: 1,1e3\nb: x")?;
/// assert_eq!(toon::value::to_json_string(&v, 0), r#"{"a":[1,1000],"b":"x"}"#);
/// assert_eq!(toon::value::to_json_string(&v, 2), "{\n  \"a\": [\n    1,\n    1000\n  ],\n  \"b\": \"x\"\n}");
/// # Ok::<(), toon::Error>(())
/// ```
pub fn to_json_string(value: &Value, indent: usize) -> String {
    let mut out = String::new();
    write_json(&mut out, value, indent.min(10), 0);
    out
}

fn newline(out: &mut String, indent: usize, level: usize) {
    if indent > 0 {
        out.push('\n');
        for _ in 0..indent * level {
            out.push(' ');
        }
    }
}

fn write_json(out: &mut String, value: &Value, indent: usize, level: usize) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => write_number(out, n),
        Value::String(s) => write_json_string(out, s),
        Value::Array(items) => {
            if items.is_empty() {
                out.push_str("[]");
                return;
            }
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, indent, level + 1);
                guarded(|| write_json(out, item, indent, level + 1));
            }
            newline(out, indent, level);
            out.push(']');
        }
        Value::Object(map) => {
            if map.is_empty() {
                out.push_str("{}");
                return;
            }
            out.push('{');
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, indent, level + 1);
                write_json_string(out, k);
                out.push(':');
                if indent > 0 {
                    out.push(' ');
                }
                guarded(|| write_json(out, v, indent, level + 1));
            }
            newline(out, indent, level);
            out.push('}');
        }
    }
}

fn write_number(out: &mut String, n: &Number) {
    n.write_canonical(out);
}

/// Writes `s` as a JSON string literal with `JSON.stringify`'s escapes: `"`, `\`, the
/// short forms `\b \f \n \r \t`, and `\u00XX` for the other control characters.
/// A string with nothing to escape (checked eight bytes at a time) is copied whole.
pub(crate) fn write_json_string(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    if needs_no_escape(s.as_bytes()) {
        out.push('"');
        out.push_str(s);
        out.push('"');
    } else {
        write_escaped(out, s);
    }
}

/// [`write_json_string`] byte by byte: runs of bytes that need no escape are copied
/// whole, the others escaped.
fn write_escaped(out: &mut String, s: &str) {
    out.push('"');
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if !NEEDS_ESCAPE[usize::from(b)] {
            i += 1;
            continue;
        }
        // `b` is ASCII, so `start..i` and `i + 1..` are on character boundaries.
        out.push_str(&s[start..i]);
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x08 => out.push_str("\\b"),
            0x0c => out.push_str("\\f"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.push_str("\\u00");
                out.push(char::from(HEX[usize::from(b >> 4)]));
                out.push(char::from(HEX[usize::from(b & 0xf)]));
            }
        }
        i += 1;
        start = i;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// No control character, `"` or backslash in `b` (the bytes [`write_escaped`] escapes).
fn needs_no_escape(b: &[u8]) -> bool {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let mut chunks = b.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        // Some byte below 0x20, a quote or a backslash (exact: no false hits).
        let control = x.wrapping_sub(LO * 0x20) & !x;
        let q = x ^ (LO * u64::from(b'"'));
        let quote = q.wrapping_sub(LO) & !q;
        let s = x ^ (LO * u64::from(b'\\'));
        let slash = s.wrapping_sub(LO) & !s;
        if (control | quote | slash) & HI != 0 {
            return false;
        }
    }
    chunks
        .remainder()
        .iter()
        .all(|&c| c >= 0x20 && c != b'"' && c != b'\\')
}

/// The bytes [`write_json_string`] escapes: control characters, `"` and `\`.
static NEEDS_ESCAPE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = true;
        b += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_whole_string_copy_is_the_byte_loop() {
        let mut samples: Vec<String> = vec![String::new(), "plain".into(), "é/ünï€😀".into()];
        for b in 0u8..=0x7f {
            for at in [0, 3, 7, 8, 9, 15, 16] {
                let mut s = "abcdefghijklmnopq".to_string();
                s.insert(at, char::from(b));
                samples.push(s);
            }
        }
        samples.push("ab\u{80}\u{7f}é\u{1f}".into());
        for s in &samples {
            let (mut a, mut b) = (String::new(), String::new());
            write_json_string(&mut a, s);
            write_escaped(&mut b, s);
            assert_eq!(a, b, "{s:?}");
        }
    }

    #[test]
    fn escapes_like_json_stringify() {
        let mut out = String::new();
        write_json_string(&mut out, "a\"b\\c\n\u{1}\u{8}\u{c}é/");
        assert_eq!(out, r#""a\"b\\c\n\u0001\b\fé/""#);
    }

    #[test]
    fn empty_containers_and_indent_cap() {
        let v = crate::toon!({"a": [], "b": {}, "c": [{}]});
        assert_eq!(to_json_string(&v, 0), r#"{"a":[],"b":{},"c":[{}]}"#);
        let deep = to_json_string(&crate::toon!({"x": 1}), 40);
        assert_eq!(deep, format!("{{\n{}\"x\": 1\n}}", " ".repeat(10)));
    }
}
