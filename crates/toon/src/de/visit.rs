//! `Deserialize` for [`Value`] and [`Number`]: reads any serde data into the TOON model.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use crate::value::{BIG_INTEGER_KEY, Map, Number, Value};

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
        while let Some(v) = seq.next_element()? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::with_capacity(map.size_hint().unwrap_or(0).min(4096));
        let Some(first) = map.next_key::<String>()? else {
            return Ok(Value::Object(out));
        };
        if first == BIG_INTEGER_KEY {
            let digits: String = map.next_value()?;
            return Number::from_integer_str(&digits)
                .map(Value::Number)
                .ok_or_else(|| de::Error::custom("invalid big integer"));
        }
        let v = map.next_value()?;
        out.insert(first, v);
        while let Some((k, v)) = map.next_entry::<String, Value>()? {
            // Like JavaScript's JSON.parse: a repeated key keeps its first position and
            // takes the last value.
            out.insert(k, v);
        }
        Ok(Value::Object(out))
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
