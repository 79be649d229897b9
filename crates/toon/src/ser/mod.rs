//! Serde serialization into [`Value`]. STUB — being written.

use crate::{Result, Value};
use serde::Serialize;

/// Converts any `T: Serialize` into a [`Value`].
pub fn to_value<T: Serialize + ?Sized>(_value: &T) -> Result<Value> {
    todo!()
}
