//! The decoder: TOON text to [`Value`] or any `T: Deserialize` (spec §4–§14, with the
//! behaviour of the reference implementation 4.4).
//!
//! Strict mode (the default) enforces every rule of spec §14. Non-strict mode recovers
//! from exactly the five conditions the reference 4.4 recovers from: declared counts
//! are advisory, duplicate keys and field names resolve last-write-wins, indentation may
//! use tabs (one level each) or non-multiples of the indent size (rounded down), blank
//! lines inside arrays are ignored, and a block whose first line sits too deep takes
//! that line's depth. Everything else is an error in both modes.
//!
//! Layers: the grammar (scanner, tokens, headers and the state machine) reads lines
//! from an input (a whole `&str`, borrowed, or an `io::BufRead`, copied line by line)
//! and drives one of the consumers: the `Value` builder ([`decode_value`],
//! [`reader_to_value`]), the JSON writer ([`to_json_writer`], [`reader_to_json_writer`],
//! [`reader_to_json_lines`]), the public [`EventReader`] and its fed twin
//! [`PushDecoder`] (chunks of text pushed in), and the serde
//! [`Deserializer`] of [`from_str`], [`from_slice`] (over the text) and [`from_reader`]
//! ([`ReaderDeserializer`], over a reader).

pub(crate) mod direct;
mod events;
mod grammar;
mod input;
mod json;
mod push;
mod serde;
mod value;

pub use events::{Event, EventReader};
pub use json::{reader_to_json_lines, reader_to_json_writer, to_json_writer};
pub use push::PushDecoder;
pub use serde::{Deserializer, ReaderDeserializer, from_reader_with};
pub use value::{ValueBuilder, reader_to_value};

use crate::{DecodeOptions, Error, ErrorKind, Result, Value};
use ::serde::Deserialize;
use ::serde::de::DeserializeOwned;
use std::borrow::Cow;

/// Decodes TOON text into a [`Value`] with default options (strict).
///
/// ```
/// let v = toon::decode_value("users[2]{id,name}:\n  1,Ada\n  2,Bob")?;
/// assert_eq!(v, toon::toon!({"users": [{"id": 1, "name": "Ada"}, {"id": 2, "name": "Bob"}]}));
/// # Ok::<(), toon::Error>(())
/// ```
pub fn decode_value(text: &str) -> Result<Value> {
    decode_value_with(text, &DecodeOptions::default())
}

/// Decodes TOON text into a [`Value`] with the given options.
pub fn decode_value_with(text: &str, options: &DecodeOptions) -> Result<Value> {
    value::text_to_value(text, options)
}

/// Decodes TOON bytes into a [`Value`]. Invalid UTF-8 is an error (with its byte
/// offset, line and column) in strict mode and becomes U+FFFD in non-strict mode.
pub fn decode_slice_with(bytes: &[u8], options: &DecodeOptions) -> Result<Value> {
    decode_value_with(&text_from_bytes(bytes, options.strict)?, options)
}

/// TOON input bytes as text (spec §4): invalid UTF-8 is an error with its byte offset,
/// line and column when `strict`, and becomes U+FFFD otherwise. Borrows when valid.
pub fn text_from_bytes(bytes: &[u8], strict: bool) -> Result<Cow<'_, str>> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok(Cow::Borrowed(s)),
        Err(_) if !strict => Ok(String::from_utf8_lossy(bytes)),
        Err(e) => {
            let off = e.valid_up_to();
            let before = &bytes[..off];
            let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
            let line_start = before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| p + 1);
            let line_end = bytes[off..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |p| off + p);
            let prefix = String::from_utf8_lossy(&bytes[line_start..off]);
            let shown = String::from_utf8_lossy(&bytes[line_start..line_end]);
            Err(
                Error::new(ErrorKind::Utf8, format!("Invalid UTF-8 at byte {off}"))
                    .at(line, prefix.chars().count() + 1, &shown)
                    .with_byte_offset(off),
            )
        }
    }
}

/// Deserializes a `T` from TOON text (strict).
///
/// ```
/// #[derive(serde::Deserialize, Debug, PartialEq)]
/// struct Item { sku: String, qty: u32 }
/// let items: Vec<Item> = toon::from_str("[2]{sku,qty}:\n  A1,2\n  B2,1")?;
/// assert_eq!(items[1], Item { sku: "B2".into(), qty: 1 });
/// # Ok::<(), toon::Error>(())
/// ```
pub fn from_str<'a, T: Deserialize<'a>>(text: &'a str) -> Result<T> {
    from_str_with(text, &DecodeOptions::default())
}

/// Deserializes a `T` from TOON text with the given options, straight from the text
/// (no intermediate [`Value`]); unquoted strings can be borrowed.
pub fn from_str_with<'a, T: Deserialize<'a>>(text: &'a str, options: &DecodeOptions) -> Result<T> {
    T::deserialize(&mut Deserializer::from_str(text, options))
}

/// Deserializes a `T` from TOON bytes (strict: invalid UTF-8 is an error).
pub fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T> {
    from_slice_with(bytes, &DecodeOptions::default())
}

/// Deserializes a `T` from TOON bytes with the given options.
pub fn from_slice_with<T: DeserializeOwned>(bytes: &[u8], options: &DecodeOptions) -> Result<T> {
    from_str_with(&text_from_bytes(bytes, options.strict)?, options)
}

/// Deserializes a `T` from a reader (strict), one line at a time through the streaming
/// decoder (see [`from_reader_with`]): reading a long array as a sequence holds one
/// element at a time, not the text.
///
/// ```
/// #[derive(serde::Deserialize)]
/// struct Item { sku: String, qty: u32 }
/// let file = "[2]{sku,qty}:\n  A1,2\n  B2,1\n".as_bytes();
/// let items: Vec<Item> = toon::from_reader(file)?;
/// assert_eq!(items[1].qty, 1);
/// # Ok::<(), toon::Error>(())
/// ```
pub fn from_reader<R: std::io::Read, T: DeserializeOwned>(reader: R) -> Result<T> {
    from_reader_with(reader, &DecodeOptions::default())
}
