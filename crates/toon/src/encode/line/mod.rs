//! The low-level TOON writer under both encoders (the `Value` walker and the direct
//! `Serialize` encoder): every character of the output is written here. [`writer`]
//! holds the output buffer (lines, indentation, list-item hyphens, draining into an
//! `io::Write`), [`syntax`] the text of headers with their field lists, primitives
//! and empty arrays, and [`quote`] the quoting of keys and strings.

pub(crate) mod quote;
pub(crate) mod syntax;
pub(crate) mod writer;

pub(crate) use writer::{LineWriter, Mark};
