//! A primitive of the event stream as a serde `Deserializer`, handing values to
//! visitors exactly as `from_str` hands the same token (spec §4): integers as `u64`,
//! `i64`, `u128`, `i128` (tried in that order), beyond 128 bits as the exact digits
//! [`Value`](crate::Value)'s visitor recognises; floats as `f64`; integral floats fit
//! integer requests; string requests read any token as its text.

use serde::de::value::{StrDeserializer, StringDeserializer};
use serde::de::{self, DeserializeSeed, MapAccess, Visitor};
use serde::forward_to_deserialize_any;

use crate::value::{BIG_INTEGER_KEY, N, Number};
use crate::{Error, Result, Value};

/// A primitive value and, where its value does not say it, its token text.
pub(super) struct PrimDe {
    pub value: Value,
    pub text: Option<Box<str>>,
}

/// Whether a number token reads back differently from its canonical text: it has a
/// fraction or an exponent, or is `-0`. Integers are otherwise written in canonical
/// form (the grammar forbids leading zeros).
fn keeps_text(token: &str) -> bool {
    token == "-0" || token.bytes().any(|b| matches!(b, b'.' | b'e' | b'E'))
}

impl PrimDe {
    /// The primitive `value`, read from `token`.
    pub fn new(value: Value, token: &str) -> PrimDe {
        let text = (matches!(value, Value::Number(_)) && keeps_text(token)).then(|| token.into());
        PrimDe { value, text }
    }

    /// The token as text: the kept token, or the value's canonical form.
    fn into_text(self) -> String {
        if let Some(t) = self.text {
            return t.into();
        }
        match self.value {
            Value::String(s) => s,
            Value::Null => "null".to_owned(),
            Value::Bool(b) => b.to_string(),
            Value::Number(n) => {
                let mut out = String::new();
                n.write_canonical(&mut out);
                out
            }
            // Containers never come as one primitive.
            Value::Array(_) | Value::Object(_) => String::new(),
        }
    }

    fn integer<'de, V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if let Value::Number(Number(N::Float(f))) = self.value
            && f.fract() == 0.0
            && f.abs() < 9.007_199_254_740_992e15
        {
            // An integral float fits an integer field (`1e3`).
            return if f < 0.0 {
                visitor.visit_i64(f as i64)
            } else {
                visitor.visit_u64(f as u64)
            };
        }
        de::Deserializer::deserialize_any(self, visitor)
    }
}

macro_rules! integers {
    ($($m:ident)*) => {$(
        fn $m<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            self.integer(visitor)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for PrimDe {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.value {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(b),
            Value::String(s) => visitor.visit_string(s),
            Value::Number(Number(n)) => match n {
                N::PosInt(u) => visitor.visit_u64(u),
                N::NegInt(i) => visitor.visit_i64(i),
                N::Float(f) => visitor.visit_f64(f),
                N::Big(digits) => {
                    if let Ok(u) = digits.parse::<u128>() {
                        visitor.visit_u128(u)
                    } else if let Ok(i) = digits.parse::<i128>() {
                        visitor.visit_i128(i)
                    } else {
                        visitor.visit_map(BigDigits(Some(digits.into())))
                    }
                }
            },
            // Containers never come as one primitive; hand them over whole.
            other => other.deserialize_any(visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if matches!(self.value, Value::Null) {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    /// Strings read any token as text: `version: 1.0` fits a `String` field.
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_string(self.into_text())
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    /// A unit variant, named by the token.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_enum(StringDeserializer::<Error>::new(self.into_text()))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    integers!(deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128);

    /// Floats read an integer of any size as a float, as `from_str` does: a float of
    /// 2^64 or more is written as its integer digits.
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if let Value::Number(Number(N::Big(digits))) = &self.value
            && let Ok(f) = digits.parse::<f64>()
        {
            return visitor.visit_f64(f);
        }
        de::Deserializer::deserialize_any(self, visitor)
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_f64(visitor)
    }

    forward_to_deserialize_any! {
        bool char bytes byte_buf unit unit_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}

/// An integer beyond 128 bits, as the one-entry map [`Value`]'s visitor recognises
/// (other visitors see a map).
struct BigDigits(Option<String>);

impl<'de> MapAccess<'de> for BigDigits {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.0.is_none() {
            return Ok(None);
        }
        seed.deserialize(StrDeserializer::<Error>::new(BIG_INTEGER_KEY))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let digits = self.0.take().unwrap_or_else(|| "0".to_owned());
        seed.deserialize(StringDeserializer::<Error>::new(digits))
    }
}
