//! Streaming decoding: TOON from any [`BufRead`](std::io::BufRead) as a pull stream of
//! [`Event`]s, in memory bounded by the longest line and the nesting depth.
//!
//! - [`EventReader`] yields the events, one line read at a time.
//! - [`ValueBuilder`] and [`reader_to_value`] collect them into [`Value`](crate::Value)s.
//! - [`ReaderDeserializer`] and [`from_reader_with`] read any `T: Deserialize` from the
//!   events, one element of a long array at a time.
//! - [`reader_to_json_writer`] writes a document as JSON, [`reader_to_json_lines`] as
//!   JSON Lines.
//!
//! The reader accepts and rejects what the tree decoder does, with the same errors; see
//! [`EventReader`] for the two ways it differs (repeated keys in non-strict mode are
//! yielded again; invalid UTF-8 is found when its line is reached).

mod event;
mod frames;
mod json_out;
mod primitive;
mod reader;
mod serde_de;
mod serde_prim;
mod serde_queue;
mod sink;
mod slot;
mod value_builder;

pub use event::Event;
pub use json_out::{reader_to_json_lines, reader_to_json_writer, to_json_writer};
pub use reader::EventReader;
pub use serde_de::{ReaderDeserializer, from_reader_with};
pub(crate) use value_builder::text_to_value;
pub use value_builder::{ValueBuilder, reader_to_value};
