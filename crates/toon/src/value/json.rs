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

/// Writes `s` as a JSON string literal with `JSON.stringify`'s escapes.
pub(crate) fn write_json_string(out: &mut String, s: &str) {
    out.push('"');
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let esc: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        if esc.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u00");
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 0xf)]));
        } else {
            out.push_str(esc);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

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
