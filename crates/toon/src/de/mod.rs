//! Serde deserialization. STUB — being written.

use crate::{Result, Value};
use serde::de::DeserializeOwned;

/// Deserializes a `T` from a [`Value`].
pub fn from_value<T: DeserializeOwned>(_value: Value) -> Result<T> {
    todo!()
}

/// A TOON deserializer. STUB.
pub struct Deserializer;
