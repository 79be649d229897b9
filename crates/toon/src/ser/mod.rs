//! Serde serialization: any `T: Serialize` into a [`Value`] ([`to_value`]), and
//! `Serialize` for [`Value`] and [`Number`](crate::Number) so they can be written by
//! any serde format.
//!
//! The mapping follows `serde_json`: unit, `None` and unit structs become `null`;
//! unit variants become their name as a string; newtype, tuple and struct variants
//! become a one-key object `{Variant: …}` (externally tagged); bytes become an array of
//! numbers; `f32`/`f64` NaN and infinities become `null` (spec §3), and an `f32` keeps
//! its shortest decimal form (`0.1f32` is `0.1`). Map keys must be strings, or
//! integers, booleans, chars or finite floats, which become their string form.
//! Integers stay exact at any width (including `i128`/`u128`); an integer wider than
//! 128 bits is passed as `serialize_newtype_struct(BIG_INTEGER_KEY, digits)` (the
//! decimal digits as a `&str`, the same private name through which the decoder hands
//! such integers to visitors), which both serializers of this crate turn into that
//! exact [`Number`](crate::Number); other serializers see a newtype struct around the
//! digits.

pub(crate) mod direct;
mod map_key;
pub(crate) mod serializer;
mod value_impl;

use crate::value::BIG_INTEGER_KEY;
use crate::{DEFAULT_MAX_DEPTH, Error, ErrorKind, Number, Result, Value};
use serde::Serialize;

/// Converts any `T: Serialize` into a [`Value`].
///
/// Nesting deeper than [`DEFAULT_MAX_DEPTH`] levels is an
/// [`ErrorKind::Depth`](crate::ErrorKind::Depth) error.
///
/// ```
/// #[derive(serde::Serialize)]
/// enum Shape { Circle { r: f64 }, Empty }
/// let v = toon::to_value(&vec![Shape::Circle { r: 1.5 }, Shape::Empty])?;
/// assert_eq!(v, toon::toon!([{"Circle": {"r": 1.5}}, "Empty"]));
/// # Ok::<(), toon::Error>(())
/// ```
pub fn to_value<T: Serialize + ?Sized>(value: &T) -> Result<Value> {
    to_value_limited(value, DEFAULT_MAX_DEPTH)
}

/// [`to_value`] with a nesting limit (the outermost container is level 1).
pub(crate) fn to_value_limited<T: Serialize + ?Sized>(
    value: &T,
    max_depth: usize,
) -> Result<Value> {
    value.serialize(serializer::ValueSerializer::new(max_depth))
}

/// The exact integer a `serialize_newtype_struct(name, value)` call stands for, when
/// `name` is [`BIG_INTEGER_KEY`] (`value` then serializes as a string of decimal
/// digits); `None` for every other newtype struct.
pub(crate) fn big_integer<T: Serialize + ?Sized>(name: &str, value: &T) -> Option<Result<Number>> {
    if name != BIG_INTEGER_KEY {
        return None;
    }
    Some(
        value
            .serialize(map_key::MapKeySerializer)
            .and_then(|digits| {
                Number::from_integer_str(&digits).ok_or_else(|| {
                    Error::new(ErrorKind::Encode, format!("not an integer: {digits:?}"))
                })
            }),
    )
}
