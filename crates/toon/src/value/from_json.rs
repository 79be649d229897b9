//! Reading JSON text into a [`Value`] with key order kept, integers exact up to 64 bits,
//! and a nesting limit instead of serde_json's fixed 128 levels.

use std::fmt;

use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};

use super::{Map, Value};
use crate::stack::guarded;
use crate::{Error, ErrorKind, Result};

/// Parses JSON text into a [`Value`], allowing nesting up to `max_depth` levels.
///
/// Object keys keep their order; a repeated key keeps its first position and takes its
/// last value, as JavaScript's `JSON.parse` does. Errors carry line and column.
///
/// ```
/// let v = toon::value::from_json_str(r#"{"b": 1, "a": [true, null]}"#, 100)?;
/// assert_eq!(toon::encode_value(&v), "b: 1\na[2]: true,null");
/// # Ok::<(), toon::Error>(())
/// ```
pub fn from_json_str(text: &str, max_depth: usize) -> Result<Value> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let value = Seed {
        depth: 0,
        max_depth,
    }
    .deserialize(&mut de)
    .map_err(|e| json_error(e, text))?;
    de.end().map_err(|e| json_error(e, text))?;
    Ok(value)
}

fn json_error(e: serde_json::Error, text: &str) -> Error {
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
    Error::new(kind, format!("Invalid JSON: {bare}")).at(line, e.column(), src)
}

#[derive(Clone, Copy)]
struct Seed {
    depth: usize,
    max_depth: usize,
}

impl Seed {
    fn deeper<E: serde::de::Error>(self) -> std::result::Result<Seed, E> {
        if self.depth >= self.max_depth {
            return Err(E::custom(format!(
                "nesting deeper than the limit of {} levels",
                self.max_depth
            )));
        }
        Ok(Seed {
            depth: self.depth + 1,
            max_depth: self.max_depth,
        })
    }
}

impl<'de> DeserializeSeed<'de> for Seed {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(
        self,
        d: D,
    ) -> std::result::Result<Value, D::Error> {
        guarded(|| d.deserialize_any(self))
    }
}

impl<'de> Visitor<'de> for Seed {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> std::result::Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> std::result::Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> std::result::Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> std::result::Result<Value, E> {
        Ok(Value::from(v))
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
        while let Some(k) = map.next_key::<String>()? {
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

    #[test]
    fn syntax_errors_have_locations() {
        let e = from_json_str("{\n  \"a\": 1,,\n}", 10).unwrap_err();
        assert_eq!(e.line(), Some(2));
        assert!(e.to_string().contains("Invalid JSON"));
    }
}
