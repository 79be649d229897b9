//! [`Value`] as a serde `Deserializer`: typed decoding of decoded TOON.

use serde::de::{
    self, DeserializeOwned, DeserializeSeed, EnumAccess, IntoDeserializer, MapAccess, SeqAccess,
    VariantAccess, Visitor,
};
use serde::forward_to_deserialize_any;

use crate::value::{N, Number, Value};
use crate::{Error, Result};

/// Deserializes a `T` from a [`Value`].
///
/// Integral floats (`1e3`) fit integer fields; `null` is `None`; enums are read as
/// serde_json reads them (a string for a unit variant, a one-key object otherwise).
pub fn from_value<T: DeserializeOwned>(value: Value) -> Result<T> {
    T::deserialize(value)
}

pub(crate) fn describe(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn invalid(v: &Value, exp: &dyn de::Expected) -> Error {
    de::Error::invalid_type(
        match v {
            Value::Null => de::Unexpected::Unit,
            Value::Bool(b) => de::Unexpected::Bool(*b),
            Value::Number(n) => match n.0 {
                N::PosInt(u) => de::Unexpected::Unsigned(u),
                N::NegInt(i) => de::Unexpected::Signed(i),
                N::Float(f) => de::Unexpected::Float(f),
                N::Big(_) => de::Unexpected::Other("a big integer"),
            },
            Value::String(s) => de::Unexpected::Str(s),
            Value::Array(_) => de::Unexpected::Seq,
            Value::Object(_) => de::Unexpected::Map,
        },
        exp,
    )
}

fn visit_number<'de, V: Visitor<'de>>(n: Number, visitor: V) -> Result<V::Value> {
    match n.0 {
        N::PosInt(u) => visitor.visit_u64(u),
        N::NegInt(i) => visitor.visit_i64(i),
        N::Float(f) => visitor.visit_f64(f),
        N::Big(s) => {
            if let Ok(v) = s.parse::<i128>() {
                visitor.visit_i128(v)
            } else if let Ok(v) = s.parse::<u128>() {
                visitor.visit_u128(v)
            } else {
                visitor.visit_f64(s.parse::<f64>().unwrap_or(f64::INFINITY))
            }
        }
    }
}

/// Integral floats become integers for integer-typed requests.
fn integral(n: Number) -> Number {
    match n.0 {
        N::Float(f) if f.fract() == 0.0 && f.abs() < 9.007_199_254_740_992e15 => {
            Number::from(f as i64)
        }
        _ => n,
    }
}

macro_rules! deserialize_integer {
    ($($method:ident),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            match self {
                Value::Number(n) => visit_number(integral(n), visitor),
                other => Err(invalid(&other, &visitor)),
            }
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Value {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(b),
            Value::Number(n) => visit_number(n, visitor),
            Value::String(s) => visitor.visit_string(s),
            Value::Array(a) => visitor.visit_seq(Seq(a.into_iter())),
            Value::Object(m) => visitor.visit_map(Obj {
                iter: m.into_iter(),
                value: None,
            }),
        }
    }

    deserialize_integer!(
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64,
        deserialize_i128,
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64,
        deserialize_u128
    );

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self {
            Value::Null => visitor.visit_none(),
            other => visitor.visit_some(other),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self {
            Value::String(s) => visitor.visit_enum(Enum {
                variant: s,
                value: Value::Null,
            }),
            Value::Object(m) if m.len() == 1 => {
                let Some((k, v)) = m.into_iter().next() else {
                    return Err(de::Error::custom("empty enum object"));
                };
                visitor.visit_enum(Enum {
                    variant: k.into_string(),
                    value: v,
                })
            }
            other => Err(invalid(&other, &"a string or an object with one key")),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self {
            Value::Null => visitor.visit_unit(),
            other => Err(invalid(&other, &visitor)),
        }
    }

    /// Floats take a number of any size as a float (a float of 2^64 or more is an
    /// integer in TOON), as `from_str` does.
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self {
            Value::Number(n) => visitor.visit_f64(n.as_f64()),
            other => other.deserialize_any(visitor),
        }
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_f64(visitor)
    }

    forward_to_deserialize_any! {
        bool char str string bytes byte_buf unit_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}

struct Seq(std::vec::IntoIter<Value>);

impl<'de> SeqAccess<'de> for Seq {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        self.0.next().map(|v| seed.deserialize(v)).transpose()
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

struct Obj {
    iter: crate::value::IntoIter,
    value: Option<Value>,
}

impl<'de> MapAccess<'de> for Obj {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        match self.iter.next() {
            Some((k, v)) => {
                self.value = Some(v);
                seed.deserialize(Value::String(k.into_string())).map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        match self.value.take() {
            Some(v) => seed.deserialize(v),
            None => Err(de::Error::custom("value requested before key")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

struct Enum {
    variant: String,
    value: Value,
}

impl<'de> EnumAccess<'de> for Enum {
    type Error = Error;
    type Variant = Value;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Value)> {
        let v = seed.deserialize(Value::String(self.variant))?;
        Ok((v, self.value))
    }
}

impl<'de> VariantAccess<'de> for Value {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        match self {
            Value::Null => Ok(()),
            other => Err(invalid(&other, &"null for a unit variant")),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_seq(self, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_map(self, visitor)
    }
}

impl IntoDeserializer<'_, Error> for Value {
    type Deserializer = Value;

    fn into_deserializer(self) -> Value {
        self
    }
}
