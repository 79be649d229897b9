//! The decoder. STUB — being written.

use crate::{DecodeOptions, Result, Value};
use serde::de::DeserializeOwned;

/// Decodes TOON text into a [`Value`] (strict mode).
pub fn decode_value(text: &str) -> Result<Value> {
    decode_value_with(text, &DecodeOptions::default())
}

/// Decodes TOON text into a [`Value`] with the given options.
pub fn decode_value_with(_text: &str, _options: &DecodeOptions) -> Result<Value> {
    todo!()
}

/// Deserializes a `T` from TOON text.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T> {
    from_str_with(text, &DecodeOptions::default())
}

/// Deserializes a `T` from TOON text with the given options.
pub fn from_str_with<T: DeserializeOwned>(text: &str, options: &DecodeOptions) -> Result<T> {
    crate::from_value(decode_value_with(text, options)?)
}

/// Deserializes a `T` from TOON bytes.
pub fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T> {
    from_str(std::str::from_utf8(bytes).map_err(|e| crate::Error::new(crate::ErrorKind::Utf8, e.to_string()))?)
}

/// Deserializes a `T` from a reader.
pub fn from_reader<R: std::io::Read, T: DeserializeOwned>(mut reader: R) -> Result<T> {
    let mut buf = Vec::new();
    reader.read_to_end(&mut buf)?;
    from_slice(&buf)
}
