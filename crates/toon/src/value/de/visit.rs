//! `Deserialize` for [`Value`] and [`Number`]: reads any serde data into the TOON model.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use crate::value::{BIG_INTEGER_KEY, Key, KeyVisitor, Map, Number, Value};

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON-model value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_i128<E>(self, v: i128) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u128<E>(self, v: u128) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        // Never trust a size hint for allocation beyond a modest bound.
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        // Elements of an array are often objects with the same keys (table rows, list
        // items of one shape): see `Shaped`.
        let mut shape = Shape::default();
        while let Some(v) = seq.next_element_seed(Shaped { shape: &mut shape })? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Value, A::Error> {
        build_map(None, map, None)
    }
}

/// Reads the rest of an object into `out` (a new map if `None`, sized by the hint):
/// `pending`, a key already read, first.
fn build_map<'de, A: MapAccess<'de>>(
    out: Option<Map>,
    mut map: A,
    pending: Option<Key>,
) -> Result<Value, A::Error> {
    let fresh = out.is_none();
    let mut out = out.unwrap_or_else(|| Map::with_capacity(map.size_hint().unwrap_or(0).min(4096)));
    let first = match pending {
        Some(key) => key,
        None => match map.next_key::<Key>()? {
            Some(key) => key,
            None => return Ok(Value::Object(out)),
        },
    };
    if fresh && first == BIG_INTEGER_KEY {
        let digits: String = map.next_value()?;
        return Number::from_integer_str(&digits)
            .map(Value::Number)
            .ok_or_else(|| de::Error::custom("invalid big integer"));
    }
    let v = map.next_value()?;
    out.insert(first, v);
    while let Some((k, v)) = map.next_entry::<Key, Value>()? {
        // Like JavaScript's JSON.parse: a repeated key keeps its first position and
        // takes the last value.
        out.insert(k, v);
    }
    Ok(Value::Object(out))
}

/// An array element read with the key list of the array's last object element (its
/// *shape*: the keys with `null` values). While an object's keys arrive in the shape's
/// order they are only compared, not hashed or allocated; the object is then a clone
/// of the shape (keys and hash table copied, no hashing) with the values put in, cut
/// to the keys that matched, and any further keys inserted as usual. The result is
/// exactly what inserting the keys one by one gives.
struct Shaped<'s> {
    shape: &'s mut Shape,
}

/// The shape of an array's objects, taken once [`SHAPE_AFTER`] objects were read.
#[derive(Default)]
struct Shape {
    keys: Option<Map>,
    objects: usize,
}

/// Objects an array reads the usual way before it takes a shape: a shape costs about
/// one object's keys, which short arrays (a few table rows) would not win back.
const SHAPE_AFTER: usize = 4;

impl<'de> de::DeserializeSeed<'de> for Shaped<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Shaped<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON-model value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_i128<E>(self, v: i128) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u128<E>(self, v: u128) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Value, A::Error> {
        ValueVisitor.visit_seq(seq)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let Some(shape) = self.shape.keys.as_ref() else {
            let value = ValueVisitor.visit_map(map)?;
            self.shape.objects += 1;
            if self.shape.objects >= SHAPE_AFTER {
                self.shape.keys = shape_of(&value);
            }
            return Ok(value);
        };
        // The shape is cloned at the first matching key, and the values put in place.
        let mut out: Option<Map> = None;
        let mut matched = 0;
        let mut pending = None;
        while let Some((expected, _)) = shape.get_index(matched) {
            match map.next_key_seed(KeyMatch(expected))? {
                None => break,
                Some(None) => {
                    let value = map.next_value::<Value>()?;
                    let out = out.get_or_insert_with(|| shape.clone());
                    if let Some((_, slot)) = out.get_index_mut(matched) {
                        *slot = value;
                    }
                    matched += 1;
                }
                Some(Some(other)) => {
                    pending = Some(other);
                    break;
                }
            }
        }
        let Some(mut out) = out else {
            // Nothing matched (an empty object, another shape, a big integer).
            let value = build_map(None, map, pending)?;
            if let Some(new_shape) = shape_of(&value) {
                self.shape.keys = Some(new_shape);
            }
            return Ok(value);
        };
        out.truncate(matched);
        if pending.is_none() && matched < shape.len() {
            return Ok(Value::Object(out));
        }
        let value = build_map(Some(out), map, pending)?;
        // A longer object with this shape as its prefix becomes the shape (shorter
        // ones still match a prefix of it).
        if let Value::Object(m) = &value
            && m.len() > shape.len()
        {
            self.shape.keys = shape_of(&value);
        }
        Ok(value)
    }
}

/// The keys of an object with `null` values, for [`Shaped`].
fn shape_of(value: &Value) -> Option<Map> {
    match value {
        // A first key that marks a big integer must reach `build_map`.
        Value::Object(m) if m.first().is_some_and(|(k, _)| k != BIG_INTEGER_KEY) => Some(
            m.iter()
                .map(|(k, _)| (k.clone(), Value::Null))
                .collect::<Map>(),
        ),
        _ => None,
    }
}

/// Reads a key and compares it with the expected one: `None` when equal (nothing
/// allocated), the key otherwise.
struct KeyMatch<'k>(&'k str);

impl<'de> de::DeserializeSeed<'de> for KeyMatch<'_> {
    type Value = Option<Key>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<Key>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeyMatch<'_> {
    type Value = Option<Key>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }

    fn visit_str<E>(self, v: &str) -> Result<Option<Key>, E> {
        Ok((v != self.0).then(|| Key::new(v)))
    }

    fn visit_string<E>(self, v: String) -> Result<Option<Key>, E> {
        Ok((v != self.0).then(|| Key::from(v)))
    }

    // UTF-8 bytes, as `String` itself accepts them.
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Option<Key>, E> {
        match std::str::from_utf8(v) {
            Ok(s) => self.visit_str(s),
            Err(_) => KeyVisitor.visit_bytes(v).map(Some),
        }
    }

    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Option<Key>, E> {
        match String::from_utf8(v) {
            Ok(s) => self.visit_string(s),
            Err(e) => KeyVisitor.visit_byte_buf(e.into_bytes()).map(Some),
        }
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

impl<'de> Deserialize<'de> for Number {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Number, D::Error> {
        match Value::deserialize(d)? {
            Value::Number(n) => Ok(n),
            other => Err(de::Error::custom(format!(
                "expected a number, found {}",
                super::from_value::describe(&other)
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{DecodeOptions, Value, decode_value, decode_value_with, encode_value};

    /// Objects of changing shapes in one array keep their own keys, order and values.
    #[test]
    fn shaped_elements_match_one_by_one_insertion() {
        // Four plain objects first: the shape is taken after them.
        let lead = "  - a: 0\n    b: 0\n".repeat(4);
        let canonical = [
            format!(
                "[10]:\n{lead}  - a: 1\n  - a: 1\n    b: 2\n    c: 3\n  - a: 4\n    b: 5\n  - a: 6\n    c: 7\n  -\n  - c: 8\n    a: 9"
            ),
            format!(
                "[7]:\n{lead}  - 123456789012345678901234567890\n  - x: 1\n  - -123456789012345678901234567890"
            ),
            "rows[3]{id,name}:\n  1,a\n  2,b\n  3,c\nmore[2]:\n  - id: 1\n    name: x\n    extra: true\n  - id: 2"
                .to_owned(),
        ];
        for text in &canonical {
            let v = decode_value(text).expect(text);
            assert_eq!(&encode_value(&v), text);
        }
        let lenient = DecodeOptions::default().with_strict(false);
        let text = format!("[6]:\n{lead}  - a: 1\n    b: 2\n  - a: 3\n    a: 4\n    b: 5");
        let v = decode_value_with(&text, &lenient).expect("lenient");
        assert_eq!(
            encode_value(&v),
            "[6]{a,b}:\n  0,0\n  0,0\n  0,0\n  0,0\n  1,2\n  4,5"
        );
        let text = format!("[6]:\n{lead}  - a: 1\n  - 123456789012345678901234567890");
        let big = decode_value(&text).expect("big");
        assert!(matches!(&big[5], Value::Number(n) if n.as_big_integer_str().is_some()));
    }
}
