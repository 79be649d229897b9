//! Serde deserialization of the data model: `Deserialize` for [`Value`] (so any serde
//! format, JSON included, can be read into it with key order kept) and [`Value`] as a
//! serde `Deserializer` for typed decoding ([`from_value`]).

mod from_value;
mod visit;

pub(crate) use from_value::describe;
pub use from_value::from_value;
