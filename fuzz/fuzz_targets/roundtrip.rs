//! Arbitrary `Value` → encode with each delimiter and indent → decode (strict and
//! non-strict) gives the value back, and encoding is idempotent through decode. The
//! direct `Serialize` encoder, in one pass (`to_string_with`) and streaming
//! (`to_writer_with`), gives the text of the `Value` encoder on the serialized data.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use toon::{DecodeOptions, Delimiter, EncodeOptions, Map, Number, Value};

/// Nesting beyond this becomes `null` (the encoder's own limit is tested elsewhere).
const DEPTH: usize = 24;

#[derive(Arbitrary, Debug)]
enum Any {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    /// Digits of an integer of any size (non-digits are dropped).
    Big(String),
    Str(String),
    /// One of the strings that need quoting or look like other tokens.
    Tricky(u8),
    Array(Vec<Any>),
    Object(Vec<(String, Any)>),
    /// An array of objects with the same keys: the encoder's table form.
    Table(Vec<String>, Vec<Vec<Any>>),
}

const TRICKY: &[&str] = &[
    "", " ", "true", "false", "null", "-", "- x", "1", "-0", "1e5", "0.0", "05", "a,b", "a|b",
    "a\tb", "a:b", "[2]", "{x}", "#", "\"", "\\", "\n", "\r\n", " lead", "trail ", "[1]: x",
    "a[1]", "k: v", "é", "\u{feff}", "\u{2028}", "\0",
];

fn build(a: Any, depth: usize) -> Value {
    if depth >= DEPTH {
        return Value::Null;
    }
    match a {
        Any::Null => Value::Null,
        Any::Bool(b) => Value::Bool(b),
        Any::Int(i) => Value::from(i),
        Any::UInt(u) => Value::from(u),
        Any::Float(f) => Number::from_f64(f).map_or(Value::Null, Value::Number),
        Any::Big(s) => {
            let digits: String = s.chars().filter(char::is_ascii_digit).collect();
            let digits = if s.starts_with('-') {
                format!("-{digits}")
            } else {
                digits
            };
            Number::from_integer_str(&digits).map_or(Value::Null, Value::Number)
        }
        Any::Str(s) => Value::String(s),
        Any::Tricky(i) => Value::from(TRICKY[usize::from(i) % TRICKY.len()]),
        Any::Array(items) => Value::Array(items.into_iter().map(|v| build(v, depth + 1)).collect()),
        Any::Object(entries) => Value::Object(
            entries
                .into_iter()
                .map(|(k, v)| (k, build(v, depth + 1)))
                .collect::<Map>(),
        ),
        Any::Table(keys, rows) => Value::Array(
            rows.into_iter()
                .map(|row| {
                    let mut cells = row.into_iter();
                    let obj: Map = keys
                        .iter()
                        .map(|k| {
                            (
                                k.clone(),
                                cells.next().map_or(Value::Null, |c| build(c, depth + 2)),
                            )
                        })
                        .collect();
                    Value::Object(obj)
                })
                .collect(),
        ),
    }
}

fuzz_target!(|a: Any| {
    let value = build(a, 0);
    for delimiter in [Delimiter::Comma, Delimiter::Tab, Delimiter::Pipe] {
        for indent in [1, 2, 4] {
            let enc = EncodeOptions::default()
                .with_delimiter(delimiter)
                .with_indent_size(indent);
            let text = toon::encode_value_with(&value, &enc).expect("shallow values encode");
            // `Value`'s `Serialize` writes integers wider than 128 bits as the nearest
            // f64, so the direct encoder is held to the `Value` of the serialized data.
            let serialized = toon::to_value(&value).expect("shallow values serialize");
            let want = toon::encode_value_with(&serialized, &enc).expect("encodes");
            let direct = toon::to_string_with(&value, &enc).expect("the direct encoder encodes");
            assert_eq!(direct, want, "{delimiter:?}/{indent}: to_string_with");
            let mut streamed = Vec::new();
            toon::to_writer_with(&mut streamed, &value, &enc).expect("streams");
            assert_eq!(streamed, want.as_bytes(), "{delimiter:?}/{indent}: to_writer_with");
            for strict in [true, false] {
                let dec = DecodeOptions::default()
                    .with_indent_size(indent)
                    .with_strict(strict);
                let back = toon::decode_value_with(&text, &dec).unwrap_or_else(|e| {
                    panic!("{delimiter:?}/{indent}/strict={strict}: {e}\n{text}\n{value:?}")
                });
                assert_eq!(
                    back, value,
                    "{delimiter:?}/{indent}/strict={strict}\n{text}"
                );
                let again = toon::encode_value_with(&back, &enc).expect("encodes again");
                assert_eq!(again, text, "encode is not idempotent");
            }
        }
    }
});
