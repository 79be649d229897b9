//! The serde side of the encoder: any `T: Serialize` to TOON text without building a
//! [`Value`] first (the direct serializer), and into a [`Value`] ([`to_value`]), plus
//! `Serialize` for [`Value`] and [`Number`] so they can be written by any serde format.
//!
//! # The value mapping
//!
//! Both serializers map the serde data model as `serde_json` does: unit, `None` and unit structs become `null`;
//! unit variants become their name as a string; newtype, tuple and struct variants
//! become a one-key object `{Variant: …}` (externally tagged); bytes become an array of
//! numbers; `f32`/`f64` NaN and infinities become `null` (spec §3), and an `f32` keeps
//! its shortest decimal form (`0.1f32` is `0.1`). Map keys must be strings, or
//! integers, booleans, chars or finite floats, which become their string form.
//! Integers stay exact at any width (including `i128`/`u128`); an integer wider than
//! 128 bits is passed as `serialize_newtype_struct(BIG_INTEGER_KEY, digits)` (the
//! decimal digits as a `&str`, the same private name through which the decoder hands
//! such integers to visitors), which both serializers of this crate turn into that
//! exact [`Number`]; other serializers see a newtype struct around the
//! digits.
//!
//! # The direct serializer
//!
//! It writes TOON text without building a [`Value`] tree first, byte-identical to
//! encoding [`to_value`]'s result with the same options.
//!
//! The form of an array (inline, table, list) or object (fields, keyed table)
//! depends on all its elements, and an array's header carries its length, so a
//! container cannot be written before it has been seen whole. Serde's `Serialize`
//! takes `&self`, so a value can be serialized more than once: the encoder looks at
//! each container once without writing ([`analyze`]: its length, whether it is a
//! table and the header's field list, whether its keys repeat) and then serializes it
//! again into that form ([`write`](mod@write)). Nothing but the look-ahead's small plan (a
//! length and a field list) is held, so memory stays flat however long the arrays
//! are, and [`to_writer`] hands the text to the writer in chunks as it is written.
//!
//! Primitives and inline arrays are written on the first pass (an inline line never
//! reaches the writer before it is complete, so a non-primitive element can take it
//! back). Table rows are written cell by cell in header order. The rare cases the
//! plan cannot express — objects with repeated keys, tuple and struct variants, a
//! row whose keys come out of order, an error found by the look-ahead — are
//! serialized into a small `Value` for that container and written by the `Value`
//! encoder at the same place, which also reports errors exactly as before.
//!
//! A `Serialize` impl that serializes differently the second time (it should not)
//! is caught where it shows; [`to_string`] then encodes through a whole `Value`
//! instead, and [`to_writer`] does the same if nothing has reached the writer yet,
//! else reports an error.

mod adapter;
mod analyze;
mod keys;
mod map_key;
pub(crate) mod value_serializer;
mod write;

use std::io;

use serde::Serialize;

use super::line::LineWriter;
use crate::value::BIG_INTEGER_KEY;
use crate::{DEFAULT_MAX_DEPTH, EncodeOptions, Error, ErrorKind, Number, Result, Value};
use adapter::Halt;
use write::{Out, Pos};

/// Converts any `T: Serialize` into a [`Value`].
///
/// Nesting deeper than [`DEFAULT_MAX_DEPTH`] levels is an
/// [`ErrorKind::Depth`] error.
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
    value.serialize(value_serializer::ValueSerializer::new(max_depth))
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

/// Encodes `value` to a string.
pub(crate) fn to_string<T: Serialize + ?Sized>(
    value: &T,
    options: &EncodeOptions,
) -> Result<String> {
    match without_retry(value, options)? {
        Some(text) => Ok(text),
        None => through_value(value, options),
    }
}

/// Encodes `value` to a string in one direct attempt: `None` when the value
/// serialized differently on a second pass and the document must be redone.
pub(crate) fn without_retry<T: Serialize + ?Sized>(
    value: &T,
    options: &EncodeOptions,
) -> Result<Option<String>> {
    let mut out = Out::new(LineWriter::new(options.indent_size), options);
    match out.write_at(Pos::Root, value) {
        Ok(()) => Ok(Some(out.enc.w.out)),
        Err(Halt::Fail(e)) => Err(e),
        Err(_) => Ok(None),
    }
}

/// Encodes `value` into `writer` in chunks. On an error, part of the document may
/// already have been written.
pub(crate) fn to_writer<W: io::Write, T: Serialize + ?Sized>(
    mut writer: W,
    value: &T,
    options: &EncodeOptions,
) -> Result<()> {
    let flushed = {
        let mut out = Out::new(
            LineWriter::with_sink(options.indent_size, &mut writer),
            options,
        );
        match out.write_at(Pos::Root, value) {
            Ok(()) => return Ok(out.enc.w.finish_sink()?),
            Err(Halt::Fail(e)) => return Err(e),
            Err(_) => out.enc.w.flushed,
        }
    };
    if flushed {
        return Err(Error::new(
            ErrorKind::Encode,
            "the value serialized differently on a second pass (a Serialize impl that is \
             not deterministic), after part of the document was written",
        ));
    }
    let value = to_value_limited(value, options.max_depth)?;
    crate::encode::encode_value_to_writer(writer, &value, options)
}

/// The route through a whole `Value`, then the `Value` encoder.
fn through_value<T: Serialize + ?Sized>(value: &T, options: &EncodeOptions) -> Result<String> {
    crate::encode::encode_value_with(&to_value_limited(value, options.max_depth)?, options)
}
