//! The Rust peer: the `toon-format` crate, version 0.7.0, used through its own value
//! type (`JsonValue`) for encoding and its parser (which yields a `serde_json::Value`)
//! for decoding, the cheapest paths its public API offers.

use toon_format::decode::parser::Parser;
use toon_format::types::JsonValue;
use toon_format::{DecodeOptions, EncodeOptions};

/// The peer's value type.
pub type PeerValue = JsonValue;

/// The peer's value for the data in `json`.
pub fn value(json: &serde_json::Value) -> PeerValue {
    PeerValue::from(json)
}

/// The peer's encoding of `value` with its default options (2 spaces, commas).
pub fn encode(value: &PeerValue) -> Result<String, String> {
    toon_format::encode_object(value, &EncodeOptions::default()).map_err(|e| e.to_string())
}

/// The peer's decoding of `text` with its default options (strict).
pub fn decode(text: &str) -> Result<serde_json::Value, String> {
    let mut parser = Parser::new(text, DecodeOptions::default()).map_err(|e| e.to_string())?;
    parser.parse().map_err(|e| e.to_string())
}
