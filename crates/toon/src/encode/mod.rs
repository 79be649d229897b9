//! The encoder: values to TOON text (spec §§2, 7–12), byte-identical to the reference
//! implementation `@toon-format/toon` 4.4.0.
//!
//! Output uses LF line endings with no trailing newline; a root `{}` is the empty
//! document. The encoder appends to one buffer; [`to_writer`] and
//! [`encode_value_to_writer`] drain that buffer into the writer in chunks of about
//! 64 KiB instead of building the whole document first.
//!
//! Forms, in the reference's order of decisions: primitives as `key: value`; empty
//! arrays as `key: []`; arrays of primitives inline (`key[N]: a,b`); arrays of
//! primitive arrays as `- [M]: …` items; uniform arrays of objects as tables, with
//! nested field groups for uniform sub-objects (`orders[2]{id,customer{name}}:`);
//! objects of two or more uniform objects as keyed tables (`users[2:]{age}:`);
//! everything else as `- ` list items.
//!
//! The layers: `form` holds those rules, `line` writes every character of the text,
//! and two walkers drive them — `value` over a [`Value`] tree and `serde` over any
//! `T: Serialize` (written directly, without building a tree).
//!
//! ```
//! let v = toon::toon!({"users": {"ada": {"age": 36}, "bob": {"age": 41}}, "tags": []});
//! assert_eq!(toon::encode_value(&v), "users[2:]{age}:\n  ada: 36\n  bob: 41\ntags: []");
//! ```

pub(crate) mod form;
pub(crate) mod line;
mod replacer;
pub(crate) mod serde;
mod value;

use crate::{EncodeOptions, Result, Value};
use ::serde::Serialize;
use line::LineWriter;
pub use replacer::{PathSegment, Replace};
use value::Encoder;

/// The error of every encoder for a value nesting deeper than `max_depth` levels.
pub(crate) fn depth_error(max_depth: usize) -> crate::Error {
    crate::Error::new(
        crate::ErrorKind::Depth,
        format!("Nesting deeper than the limit of {max_depth} levels"),
    )
}

/// Encodes a value with default options (2-space indentation, comma delimiter).
///
/// This never fails: unlike [`encode_value_with`] it applies no nesting limit (deep
/// values are encoded on heap-allocated stack segments).
pub fn encode_value(value: &Value) -> String {
    let options = EncodeOptions::default().with_max_depth(usize::MAX);
    encode_value_with(value, &options).unwrap_or_default()
}

/// Encodes a value with the given options.
///
/// Fails with [`ErrorKind::Depth`](crate::ErrorKind::Depth) if arrays and objects
/// nest more than `options.max_depth` levels deep (the root container is level 1).
///
/// ```
/// use toon::{Delimiter, EncodeOptions};
/// let v = toon::toon!({"rows": [{"a": 1, "b": "x|y"}, {"a": 2, "b": "z"}]});
/// let opts = EncodeOptions::default().with_delimiter(Delimiter::Pipe).with_indent_size(4);
/// assert_eq!(toon::encode_value_with(&v, &opts)?, "rows[2|]{a|b}:\n    1|\"x|y\"\n    2|z");
/// # Ok::<(), toon::Error>(())
/// ```
pub fn encode_value_with(value: &Value, options: &EncodeOptions) -> Result<String> {
    let mut enc = Encoder::new(
        LineWriter::new(options.indent_size),
        options.delimiter,
        options.max_depth,
    );
    enc.root(value)?;
    Ok(enc.w.out)
}

/// Encodes a value with the given options after passing it through `replacer`, as the
/// reference's `replacer(key, value, path)` encode option does.
///
/// `replacer` is called for the root (key `""`, empty path) and for every property
/// (its key) and array element (its index as a string) below it, parents first; it
/// returns what to do with the entry: anything that converts into a [`Replace`], such
/// as `Option<Value>` (`None` leaves the entry out, except at the root, where it means
/// "no change"; `Some(v)` encodes `v` instead, and `v`'s own children then go through
/// the replacer) or [`Replace::Keep`], which keeps the entry without copying it. Only
/// the containers on the way to a change are copied. For typed values, convert with
/// [`to_value`](crate::to_value) first.
///
/// ```
/// use toon::encode::{PathSegment, Replace};
/// let v = toon::toon!({"user": {"name": "Ada", "password": "x"}, "tags": ["a", "b", "c"]});
/// let text = toon::encode_value_with_replacer(&v, &Default::default(), |key, value, path| {
///     match (key, path) {
///         ("password", _) => Replace::Drop,
///         (_, [PathSegment::Key("tags"), PathSegment::Index(1)]) => Replace::With("B".into()),
///         _ => Replace::Keep,
///     }
/// })?;
/// assert_eq!(text, "user:\n  name: Ada\ntags[3]: a,B,c");
/// # Ok::<(), toon::Error>(())
/// ```
pub fn encode_value_with_replacer<F, R>(
    value: &Value,
    options: &EncodeOptions,
    replacer: F,
) -> Result<String>
where
    F: FnMut(&str, &Value, &[PathSegment<'_>]) -> R,
    R: Into<Replace>,
{
    encode_value_with(
        &replacer::apply(value, options.max_depth, replacer),
        options,
    )
}

/// Encodes a value into a writer, in chunks, with the given options.
///
/// On a nesting error, part of the document may already have been written.
pub fn encode_value_to_writer<W: std::io::Write>(
    mut writer: W,
    value: &Value,
    options: &EncodeOptions,
) -> Result<()> {
    let mut enc = Encoder::new(
        LineWriter::with_sink(options.indent_size, &mut writer),
        options.delimiter,
        options.max_depth,
    );
    enc.root(value)?;
    enc.w.finish_sink()?;
    Ok(())
}

/// Serializes any `T: Serialize` to TOON with default options.
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Point { x: i32, y: i32 }
/// assert_eq!(toon::to_string(&vec![Point { x: 1, y: 2 }, Point { x: 3, y: 4 }])?,
///            "[2]{x,y}:\n  1,2\n  3,4");
/// # Ok::<(), toon::Error>(())
/// ```
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> Result<String> {
    to_string_with(value, &EncodeOptions::default())
}

/// Serializes any `T: Serialize` to TOON with the given options.
///
/// The text is written as the value is serialized, without building a [`Value`]
/// first; it is byte-identical to `encode_value_with(&to_value(value)?, options)`.
pub fn to_string_with<T: Serialize + ?Sized>(value: &T, options: &EncodeOptions) -> Result<String> {
    serde::to_string(value, options)
}

/// Serializes to a writer with default options.
pub fn to_writer<W: std::io::Write, T: Serialize + ?Sized>(writer: W, value: &T) -> Result<()> {
    to_writer_with(writer, value, &EncodeOptions::default())
}

/// Serializes to a writer with the given options, streaming the text in chunks as
/// the value is serialized (memory stays flat however large the value is).
///
/// On an error, part of the document may already have been written.
pub fn to_writer_with<W: std::io::Write, T: Serialize + ?Sized>(
    writer: W,
    value: &T,
    options: &EncodeOptions,
) -> Result<()> {
    serde::to_writer(writer, value, options)
}
