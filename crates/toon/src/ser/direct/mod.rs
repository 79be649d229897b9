//! The direct encoder: any `T: Serialize` to TOON text without building a
//! [`Value`](crate::Value) tree first, byte-identical to encoding
//! [`to_value`](crate::to_value)'s result with the same options.
//!
//! The form of an array (inline, table, list) or object (fields, keyed table)
//! depends on all its elements, and an array's header carries its length, so a
//! container cannot be written before it has been seen whole. Serde's `Serialize`
//! takes `&self`, so a value can be serialized more than once: the encoder looks at
//! each container once without writing ([`analyze`]: its length, whether it is a
//! table and the header's field list, whether its keys repeat) and then serializes it
//! again into that form ([`write`]). Nothing but the look-ahead's small plan (a
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
mod write;

use std::io;

use serde::Serialize;

use crate::encode::writer::LineWriter;
use crate::{EncodeOptions, Error, ErrorKind, Result};
use adapter::Halt;
use write::{Out, Pos};

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
    let value = super::to_value_limited(value, options.max_depth)?;
    crate::encode::encode_value_to_writer(writer, &value, options)
}

/// The old route: a whole `Value`, then the `Value` encoder.
fn through_value<T: Serialize + ?Sized>(value: &T, options: &EncodeOptions) -> Result<String> {
    crate::encode::encode_value_with(&super::to_value_limited(value, options.max_depth)?, options)
}
