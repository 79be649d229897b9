//! Reading JSON text into a [`Value`] with key order kept, integers exact at any size,
//! and a nesting limit instead of serde_json's fixed 128 levels.
//!
//! serde_json parses the text; it hands integers beyond 64 bits to the visitor as
//! `f64`. Those (and only those: an integral `f64` of magnitude 2^63 or more) are read
//! again from their literal in the text, found by counting number tokens, so an integer
//! literal becomes the exact [`Number`] the TOON decoder builds for the same digits,
//! while a literal with a fraction or exponent (`1e30`) stays a float.

use std::cell::Cell;
use std::fmt;

use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};

use super::{Key, Map, Number, Value};
use crate::stack::guarded;
use crate::{Error, ErrorKind, Result};

/// Parses JSON text into a [`Value`], allowing nesting up to `max_depth` levels.
///
/// Object keys keep their order; a repeated key keeps its first position and takes its
/// last value, as JavaScript's `JSON.parse` does. Integers stay exact at any size (where
/// `JSON.parse` rounds beyond 2^53); floats are parsed exactly (the nearest `f64`); a
/// number too large for `f64` (`1e400`) is an error, never an infinity. Errors carry
/// line and column.
///
/// ```
/// let v = toon::value::from_json_str(r#"{"b": 1, "a": [true, null]}"#, 100)?;
/// assert_eq!(toon::encode_value(&v), "b: 1\na[2]: true,null");
/// let big = toon::value::from_json_str("[123456789012345678901234567890, 1e30]", 100)?;
/// assert_eq!(toon::encode_value(&big), "[2]: 123456789012345678901234567890,1e+30");
/// # Ok::<(), toon::Error>(())
/// ```
pub fn from_json_str(text: &str, max_depth: usize) -> Result<Value> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let numbers = NumberTokens::new(text);
    let value = Seed {
        depth: 0,
        max_depth,
        numbers: &numbers,
    }
    .deserialize(&mut de)
    .map_err(|e| json_error(e, text))?;
    de.end().map_err(|e| json_error(e, text))?;
    Ok(value)
}

/// A serde_json error as this crate's, located in `text`.
pub(super) fn json_error(e: serde_json::Error, text: &str) -> Error {
    let msg = e.to_string();
    let depth = msg.contains("nesting deeper than");
    // serde_json appends " at line L column C"; keep the bare message.
    let bare = msg.split(" at line ").next().unwrap_or(&msg).to_owned();
    let kind = if depth {
        ErrorKind::Depth
    } else {
        ErrorKind::Syntax
    };
    let line = e.line();
    if line == 0 {
        return Error::new(kind, bare);
    }
    let src = text.lines().nth(line - 1).unwrap_or("");
    let hint = not_json_hint(src, e.column());
    Error::new(kind, format!("Invalid JSON: {bare}{hint}")).at(line, e.column(), src)
}

/// What a common non-JSON spelling at (1-based) `column` of `line` is, if it is one:
/// single quotes, comments (JSON5, JavaScript), said beside serde_json's message.
fn not_json_hint(line: &str, column: usize) -> &'static str {
    let at = |i: usize| line.as_bytes().get(i).copied();
    let near = [column.checked_sub(1).and_then(at), at(column)];
    if near.contains(&Some(b'\'')) {
        " (JSON strings and keys take double quotes, not single quotes)"
    } else if near.contains(&Some(b'/')) {
        " (JSON has no comments)"
    } else {
        ""
    }
}

/// The number tokens of a JSON text, counted as the parser visits them, so that the
/// literal of the n-th number can be found again. The scan is lazy and moves forward
/// only: it runs only when a number must be re-read, and never passes a byte twice.
pub(super) struct NumberTokens<'t> {
    text: &'t [u8],
    /// Numbers the parser has handed to the visitor so far.
    visited: Cell<usize>,
    /// Scan position: byte offset, and how many number tokens lie before it.
    pos: Cell<usize>,
    seen: Cell<usize>,
}

impl<'t> NumberTokens<'t> {
    pub(super) fn new(text: &'t str) -> Self {
        NumberTokens {
            text: text.as_bytes(),
            visited: Cell::new(0),
            pos: Cell::new(0),
            seen: Cell::new(0),
        }
    }

    /// Counts one visited number; returns its index in document order.
    pub(super) fn visit(&self) -> usize {
        let n = self.visited.get();
        self.visited.set(n + 1);
        n
    }

    /// The literal of the `index`-th number token. Outside strings, a JSON number is
    /// the only token that starts with `-` or a digit.
    fn literal(&self, index: usize) -> Option<&'t str> {
        let text = self.text;
        let mut i = self.pos.get();
        let mut seen = self.seen.get();
        while i < text.len() {
            match text[i] {
                b'"' => {
                    i += 1;
                    while i < text.len() && text[i] != b'"' {
                        i += if text[i] == b'\\' { 2 } else { 1 };
                    }
                    i += 1;
                }
                b'-' | b'0'..=b'9' => {
                    let start = i;
                    while i < text.len()
                        && matches!(text[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                    {
                        i += 1;
                    }
                    seen += 1;
                    if seen == index + 1 {
                        self.pos.set(i);
                        self.seen.set(seen);
                        return std::str::from_utf8(&text[start..i]).ok();
                    }
                }
                _ => i += 1,
            }
        }
        self.pos.set(i);
        self.seen.set(seen);
        None
    }

    /// The number visited as `f` at `index`: the exact integer when its literal is an
    /// integer too large for 64 bits, else the float.
    fn float(&self, index: usize, f: f64) -> Value {
        self.exact_integer(index, f)
            .map_or_else(|| Value::from(f), Value::Number)
    }

    /// The exact integer of the number visited as `f` at `index`, when its literal is
    /// an integer too large for 64 bits (`None`: the number is the float).
    pub(super) fn exact_integer(&self, index: usize, f: f64) -> Option<Number> {
        // Below 2^63 serde_json hands integer literals over as i64/u64.
        if f.fract() == 0.0 && f.abs() >= 9_223_372_036_854_775_808.0 {
            return self
                .literal(index)
                .filter(|l| !l.contains(['.', 'e', 'E']))
                .and_then(Number::from_integer_str);
        }
        None
    }
}

/// The depth inside a container at `depth`, or the error (whose message
/// [`json_error`] reads as [`ErrorKind::Depth`]) past `max_depth`.
pub(super) fn deeper<E: serde::de::Error>(
    depth: usize,
    max_depth: usize,
) -> std::result::Result<usize, E> {
    if depth >= max_depth {
        return Err(E::custom(format!(
            "nesting deeper than the limit of {max_depth} levels"
        )));
    }
    Ok(depth + 1)
}

#[derive(Clone, Copy)]
struct Seed<'a, 't> {
    depth: usize,
    max_depth: usize,
    numbers: &'a NumberTokens<'t>,
}

impl<'a, 't> Seed<'a, 't> {
    fn deeper<E: serde::de::Error>(self) -> std::result::Result<Self, E> {
        Ok(Seed {
            depth: deeper(self.depth, self.max_depth)?,
            ..self
        })
    }
}

impl<'de> DeserializeSeed<'de> for Seed<'_, '_> {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(
        self,
        d: D,
    ) -> std::result::Result<Value, D::Error> {
        guarded(|| d.deserialize_any(self))
    }
}

impl<'de> Visitor<'de> for Seed<'_, '_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> std::result::Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> std::result::Result<Value, E> {
        self.numbers.visit();
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> std::result::Result<Value, E> {
        self.numbers.visit();
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> std::result::Result<Value, E> {
        let index = self.numbers.visit();
        Ok(self.numbers.float(index, v))
    }

    fn visit_str<E>(self, v: &str) -> std::result::Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> std::result::Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> std::result::Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Value, A::Error> {
        let inner = self.deeper()?;
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(inner)? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Value, A::Error> {
        let inner = self.deeper()?;
        let mut out = Map::new();
        while let Some(k) = map.next_key::<Key>()? {
            let v = map.next_value_seed(inner)?;
            out.insert(k, v);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_order_and_duplicates_like_json_parse() {
        let v = from_json_str(r#"{"z":1,"a":2,"z":3}"#, 10).unwrap();
        let keys: Vec<_> = v.as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, ["z", "a"]);
        assert_eq!(v.get("z"), Some(&Value::from(3)));
    }

    #[test]
    fn deep_input_errors_instead_of_overflowing() {
        let deep = "[".repeat(200_000);
        let e = from_json_str(&deep, 1000).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Depth);
        let ok = format!("{}{}", "[".repeat(900), "]".repeat(900));
        assert!(from_json_str(&ok, 1000).is_ok());
    }

    fn json_round_trip(text: &str) -> String {
        let v = from_json_str(text, 10).unwrap();
        let toon = crate::encode_value(&v);
        crate::value::to_json_string(&crate::decode_value(&toon).unwrap(), 0)
    }

    #[test]
    fn integers_beyond_64_bits_stay_exact() {
        let text = r#"{"big":123456789012345678901234567890,"neg":-18446744073709551617}"#;
        let v = from_json_str(text, 10).unwrap();
        assert_eq!(
            crate::encode_value(&v),
            "big: 123456789012345678901234567890\nneg: -18446744073709551617"
        );
        assert_eq!(json_round_trip(text), text);
        // Just past each 64-bit bound, and among strings holding digits and floats.
        let edges =
            r#"["7e1",18446744073709551616,-9223372036854775809,2.5,"-1",99999999999999999999999]"#;
        assert_eq!(json_round_trip(edges), edges);
        assert!(
            from_json_str(edges, 10).unwrap()[1]
                .as_number()
                .unwrap()
                .is_integer()
        );
    }

    #[test]
    fn floats_and_exponents_stay_floats() {
        // An exponent makes a float even when its value is an integer, as in JavaScript.
        assert_eq!(
            json_round_trip("[1E2,1e30,-0,1.5e300]"),
            "[100,1e+30,0,1.5e+300]"
        );
        let v = from_json_str("[1e30, 100000000000000000000000000000.0]", 10).unwrap();
        assert!(v[0].as_number().unwrap().is_f64());
        assert!(v[1].as_number().unwrap().is_f64());
    }

    #[test]
    fn numbers_beyond_f64_are_errors() {
        for text in ["1e400", "[1, -1e400]", "{\"a\": 2e999}"] {
            let e = from_json_str(text, 10).unwrap_err();
            assert!(e.to_string().contains("number out of range"), "{text}: {e}");
            assert!(e.line().is_some(), "{text}: {e}");
        }
    }

    #[test]
    fn syntax_errors_have_locations() {
        let e = from_json_str("{\n  \"a\": 1,,\n}", 10).unwrap_err();
        assert_eq!(e.line(), Some(2));
        assert!(e.to_string().contains("Invalid JSON"));
    }
}
