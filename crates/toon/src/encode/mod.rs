//! The encoder: values to TOON text (spec §§7–12). STUB — being written.

use crate::{EncodeOptions, Result, Value};
use serde::Serialize;

/// Encodes a value with default options.
pub fn encode_value(value: &Value) -> String {
    encode_value_with(value, &EncodeOptions::default()).unwrap_or_default()
}

/// Encodes a value with the given options.
pub fn encode_value_with(_value: &Value, _options: &EncodeOptions) -> Result<String> {
    todo!()
}

/// Serializes any `T: Serialize` to TOON with default options.
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> Result<String> {
    to_string_with(value, &EncodeOptions::default())
}

/// Serializes any `T: Serialize` to TOON with the given options.
pub fn to_string_with<T: Serialize + ?Sized>(value: &T, options: &EncodeOptions) -> Result<String> {
    encode_value_with(&crate::to_value(value)?, options)
}

/// Serializes to a writer with default options.
pub fn to_writer<W: std::io::Write, T: Serialize + ?Sized>(writer: W, value: &T) -> Result<()> {
    to_writer_with(writer, value, &EncodeOptions::default())
}

/// Serializes to a writer with the given options.
pub fn to_writer_with<W: std::io::Write, T: Serialize + ?Sized>(
    mut writer: W,
    value: &T,
    options: &EncodeOptions,
) -> Result<()> {
    writer.write_all(to_string_with(value, options)?.as_bytes())?;
    Ok(())
}
