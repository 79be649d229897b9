//! A primitive token as a serde `Deserializer` (spec §4), parsed only as far as the
//! visitor's request needs: integers as `u64`, `i64`, `u128`, `i128` (tried in that
//! order), beyond 128 bits as the exact digits [`Value`](crate::Value)'s visitor
//! recognises; floats as `f64` (`-0` as `0`); integral floats fit integer requests,
//! integers of any size fit float requests; string requests read any token as its text.
//!
//! A token from a whole text is handed to visitors borrowed for `'de`
//! (`visit_borrowed_str`); one copied from a reader is visited as a transient `&str`.

use serde::de::value::{BorrowedStrDeserializer, StrDeserializer};
use serde::de::{self, DeserializeSeed, MapAccess, Visitor};
use serde::forward_to_deserialize_any;

use crate::decode::grammar::tokens::{Num, number};
use crate::value::BIG_INTEGER_KEY;
use crate::{Error, Result};

/// Text handed to a visitor: borrowed from the document for `'de`, or only for now.
#[derive(Clone, Copy)]
pub(super) enum Text<'de, 'a> {
    /// Part of the document text.
    Doc(&'de str),
    /// A copy that lives until the deserializer reads on.
    Copy(&'a str),
}

impl<'de> Text<'de, '_> {
    /// The text itself.
    pub fn as_str(&self) -> &str {
        match *self {
            Text::Doc(s) => s,
            Text::Copy(s) => s,
        }
    }

    /// Hands the text to `visitor` as a string, borrowed where it can be.
    pub fn visit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self {
            Text::Doc(s) => visitor.visit_borrowed_str(s),
            Text::Copy(s) => visitor.visit_str(s),
        }
    }

    /// Hands the text to `seed` as a string key, borrowed where it can be. Inline: a
    /// table row's keys are a seed's whole work, and a call per key costs more than it.
    #[inline]
    pub fn key<K: DeserializeSeed<'de>>(self, seed: K) -> Result<K::Value> {
        match self {
            Text::Doc(s) => seed.deserialize(BorrowedStrDeserializer::<Error>::new(s)),
            Text::Copy(s) => seed.deserialize(StrDeserializer::<Error>::new(s)),
        }
    }
}

/// A primitive: an unquoted token, or the string of a quoted one (unescaped).
pub(super) struct TokenDe<'de, 'a> {
    pub text: Text<'de, 'a>,
    /// The text is a quoted token's string: a string whatever it spells.
    pub quoted: bool,
}

impl<'de> TokenDe<'de, '_> {
    /// An unquoted token that spells `null`.
    pub fn is_null(&self) -> bool {
        !self.quoted && self.text.as_str() == "null"
    }

    fn number(&self) -> Option<Num> {
        if self.quoted {
            None
        } else {
            number(self.text.as_str())
        }
    }

    fn integer<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.number() {
            Some(Num::U64(u)) => return visitor.visit_u64(u),
            Some(Num::I64(i)) => return visitor.visit_i64(i),
            // An integral float fits an integer field (`1e3`).
            Some(Num::F64(f)) if f.fract() == 0.0 && f.abs() < 9.007_199_254_740_992e15 => {
                return if f < 0.0 {
                    visitor.visit_i64(f as i64)
                } else {
                    visitor.visit_u64(f as u64)
                };
            }
            _ => {}
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

impl<'de> de::Deserializer<'de> for TokenDe<'de, '_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.quoted {
            return self.text.visit(visitor);
        }
        let t = self.text.as_str();
        // A token's first byte says what it can be: only `t`, `f`, `n`, a digit or `-`
        // start anything but a string (spec §4).
        match t.as_bytes().first() {
            Some(b'0'..=b'9' | b'-') => {}
            Some(b't' | b'f' | b'n') => match t {
                "true" => return visitor.visit_bool(true),
                "false" => return visitor.visit_bool(false),
                "null" => return visitor.visit_unit(),
                _ => return self.text.visit(visitor),
            },
            _ => return self.text.visit(visitor),
        }
        match number(t) {
            Some(Num::U64(u)) => visitor.visit_u64(u),
            Some(Num::I64(i)) => visitor.visit_i64(i),
            Some(Num::BigInt) => {
                if let Ok(u) = t.parse::<u128>() {
                    visitor.visit_u128(u)
                } else if let Ok(i) = t.parse::<i128>() {
                    visitor.visit_i128(i)
                } else {
                    visitor.visit_map(BigDigits(Some(t)))
                }
            }
            Some(Num::F64(f)) if f.is_finite() => visitor.visit_f64(if f == 0.0 { 0.0 } else { f }),
            Some(Num::F64(_)) | None => self.text.visit(visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.is_null() {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    /// Strings read any token as text: `version: 1.0` fits a `String` field.
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.text.visit(visitor)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.text.visit(visitor)
    }

    /// A unit variant, named by the token.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.text {
            Text::Doc(s) => visitor.visit_enum(BorrowedStrDeserializer::<Error>::new(s)),
            Text::Copy(s) => visitor.visit_enum(StrDeserializer::<Error>::new(s)),
        }
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

    /// Floats read an integer token of any size as a float: a float of 2^64 or more is
    /// written as its integer digits (`240000000000000000000`).
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let f = match self.number() {
            // Exact below 2^53; beyond, the cast rounds to nearest as parsing does.
            Some(Num::U64(u)) => u as f64,
            Some(Num::I64(i)) => i as f64,
            Some(Num::BigInt) => self.text.as_str().parse::<f64>().unwrap_or(f64::INFINITY),
            // Finite floats as `deserialize_any` reads them, without parsing twice.
            Some(Num::F64(f)) if f.is_finite() => f,
            _ => return de::Deserializer::deserialize_any(self, visitor),
        };
        if f.is_finite() {
            return visitor.visit_f64(if f == 0.0 { 0.0 } else { f });
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

/// An integer beyond 128 bits, as the one-entry map [`Value`](crate::Value)'s visitor
/// recognises (other visitors see a map).
struct BigDigits<'t>(Option<&'t str>);

impl<'de> MapAccess<'de> for BigDigits<'_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.0.is_none() {
            return Ok(None);
        }
        seed.deserialize(StrDeserializer::<Error>::new(BIG_INTEGER_KEY))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let digits = self.0.take().unwrap_or("0");
        seed.deserialize(StrDeserializer::<Error>::new(digits))
    }
}
