//! The events of the pull decoder.

use crate::Value;

/// One step through a TOON document, in document order.
///
/// A document yields exactly one value: a primitive, or a container whose start and end
/// events enclose its contents. Inside an object every value is preceded by its
/// [`Event::Key`].
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// The start of an object (a TOON object, a keyed table, or one table row).
    StartObject,
    /// The end of the innermost open object.
    EndObject,
    /// The start of an array.
    StartArray {
        /// The length the header declares (`0` for `[]`). Exact in strict mode; only
        /// advisory in non-strict mode, where the items that follow may differ.
        len: usize,
    },
    /// The end of the innermost open array.
    EndArray,
    /// The key of the next value in the innermost open object.
    Key(String),
    /// A primitive: [`Value::Null`], [`Value::Bool`], [`Value::Number`] or
    /// [`Value::String`] (never an array or object).
    Primitive(Value),
}
