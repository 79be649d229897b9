//! # toon — Token-Oriented Object Notation for Rust
//!
//! TOON encodes the JSON data model with indentation, declared array lengths and
//! CSV-like tables for uniform arrays, so the same data costs fewer tokens in a prompt.
//! This crate implements spec v4 as the reference implementation `@toon-format/toon`
//! 4.4.0 does: the encoder's output is byte-identical to the reference, and the decoder
//! accepts and rejects what it accepts and rejects, in strict and non-strict mode.
//!
//! ```
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, PartialEq, Debug)]
//! struct User { id: u32, name: String, admin: bool }
//!
//! #[derive(Serialize, Deserialize, PartialEq, Debug)]
//! struct Doc { users: Vec<User> }
//!
//! let doc = Doc { users: vec![
//!     User { id: 1, name: "Ada".into(), admin: true },
//!     User { id: 2, name: "Bob".into(), admin: false },
//! ]};
//! let text = toon::to_string(&doc)?;
//! assert_eq!(text, "users[2]{id,name,admin}:\n  1,Ada,true\n  2,Bob,false");
//! let back: Doc = toon::from_str(&text)?;
//! assert_eq!(back, doc);
//! # Ok::<(), toon::Error>(())
//! ```
//!
//! [`from_str`] reads from text in memory; [`from_reader`] (and [`from_reader_with`])
//! reads from any `io::Read` one line at a time through the streaming decoder
//! ([`decode::ReaderDeserializer`]), so a long array read as a sequence holds one
//! element at a time, not the text. Both give the same values and the same errors.
//!
//! Numbers: integers stay exact at any size (see [`Number`]); floats print as
//! JavaScript prints them. Nesting deeper than [`DEFAULT_MAX_DEPTH`] is an error, never
//! a stack overflow; set `max_depth` in the options to change it.
//!
//! ## The value tree
//!
//! [`Value`] is the JSON data model with key order kept, with the API of
//! `serde_json::Value` (`as_str`, `as_object`, `v["key"]`, `v[0]`, [`toon!`], `From`
//! conversions). Its objects are [`Map`]s: this crate's own ordered map, not an
//! `IndexMap` alias. A `Map` keeps its entries in one vector in document order, searches
//! small objects linearly and indexes large ones by hash; its keys are [`value::Key`]s,
//! which hold keys of up to 24 bytes inline, so most keys never allocate and cloning
//! them is a copy. `Map` offers the `serde_json::Map` methods (`insert`, `get`,
//! `get_mut`, `contains_key`, `remove`, `iter`, `keys`, `values`, …) and the positional
//! ones of `IndexMap` (`get_index`, `first`, `shift_remove`, …); see [`Map`] for the list.
//! Methods that look a key up take `&str`; a `Key` derefs to `str` (`k.as_str()`,
//! `String::from(k)`).
//!
//! ## Cargo features
//!
//! None is on by default, so depending on `toon` changes nothing about the
//! `serde_json` the rest of your build sees (its features unify across the build).
//!
//! - **`json`**: `value::from_json_str`, JSON text into a [`Value`] the way the
//!   reference reads it — key order kept, a repeated key last-write-wins, floats parsed
//!   exactly, integers exact at any size, nesting up to `max_depth`. Turns on
//!   serde_json's `float_roundtrip` and `unbounded_depth`.
//! - **`preserve_order`**: the `serde_json::Value`s this crate builds
//!   (`from_str::<serde_json::Value>`, `serde_json::Value::from(value)`) keep document
//!   order instead of sorting keys. Turns on serde_json's `preserve_order`.
//!
//! Nothing else depends on serde_json's map order: [`Value`] is always ordered, and
//! [`toon!`] builds it directly. The `toon` CLI and `toon-plan` turn both features on.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod decode;
pub mod encode;
mod error;
mod fields;
mod js_number;
mod options;
mod stack;
pub mod value;

pub use decode::{
    Deserializer, decode_slice_with, decode_value, decode_value_with, from_reader,
    from_reader_with, from_slice, from_slice_with, from_str, from_str_with,
};
pub use encode::serde::to_value;
pub use encode::{
    encode_value, encode_value_with, encode_value_with_replacer, to_string, to_string_with,
    to_writer, to_writer_with,
};
pub use error::{Error, ErrorKind, Result};
pub use options::{DEFAULT_MAX_DEPTH, DecodeOptions, Delimiter, EncodeOptions};
pub use value::from_value;
pub use value::{Map, Number, Value};

#[doc(hidden)]
pub mod __private {
    pub use serde_json;

    /// The private name through which integers wider than 128 bits cross serde: the
    /// decoder hands one to a visitor as a one-entry map `{BIG_INTEGER_KEY: digits}`,
    /// and a `Serialize` impl passes one to this crate's serializers as
    /// `serialize_newtype_struct(BIG_INTEGER_KEY, digits)`.
    pub use crate::value::BIG_INTEGER_KEY;

    /// The one TOON line writer and the form rules, for a walker over data that is
    /// neither a [`Value`](crate::Value) nor `Serialize` (the Python package walks
    /// Python objects with it): the output buffer ([`LineWriter`](writer::LineWriter)),
    /// the text of keys, primitives and headers, the field lists of tables, and the
    /// rules deciding each container's form. Both encoders of this crate write
    /// through the same functions.
    pub mod writer {
        pub use crate::encode::form::{
            ArrayForm, Kind, Place, Template, array_form, child_depth, item_field_depth, kind_fits,
            may_be_keyed, template,
        };
        pub use crate::encode::line::syntax::{
            Primitive, inline_separator, row_separator, write_cell, write_empty_array,
            write_entry_key, write_header, write_object_key, write_primitive, write_root_primitive,
        };
        pub use crate::encode::line::writer::{LineWriter, Mark};
        pub use crate::fields::{Field, same_name};
    }

    /// The decoding state machine feeding a builder of another language's values
    /// (the Python package builds Python objects with it): one grammar, one set of
    /// errors, no intermediate `Value` or serde visitor.
    pub mod direct {
        pub use crate::decode::direct::{Builder, Scalar, build_text};
    }

    /// `to_value` with a nesting limit, for tests comparing against the `Value` route.
    pub fn to_value_limited<T: serde::Serialize + ?Sized>(
        value: &T,
        max_depth: usize,
    ) -> crate::Result<crate::Value> {
        crate::encode::serde::to_value_limited(value, max_depth)
    }

    /// The direct serializer's text without its whole-document retry through a
    /// `Value`: `None` where `to_string_with` would have had to redo the document.
    pub fn to_string_without_retry<T: serde::Serialize + ?Sized>(
        value: &T,
        options: &crate::EncodeOptions,
    ) -> crate::Result<Option<String>> {
        crate::encode::serde::without_retry(value, options)
    }
}
