//! TOON → JSON without building a tree: the decoder drives a JSON serializer directly
//! (a serde transcoder), writing what JavaScript's `JSON.stringify(v, null, indent)`
//! writes. Memory stays at the input text plus the writer's buffer.
//!
//! Strict mode streams; non-strict mode, where repeated keys resolve last-write-wins,
//! goes through a [`Value`](crate::Value).
//!
//! Integers beyond 128 bits are written as the nearest `f64`, as the reference does;
//! decode to a [`Value`](crate::Value) to keep them exact.

use std::io;

use serde_json::ser::{CompactFormatter, Formatter, PrettyFormatter};

use super::Deserializer;
use crate::{DecodeOptions, Error, ErrorKind, Result};

/// Decodes TOON `text` and writes it to `writer` as JSON, formatted as
/// `JSON.stringify(value, null, indent)` formats it (`indent` 0 is compact, at most 10).
///
/// ```
/// let mut out = Vec::new();
/// toon::decode::to_json_writer("a[2]: 1,x", &toon::DecodeOptions::default(), &mut out, 0)?;
/// assert_eq!(out, br#"{"a":[1,"x"]}"#);
/// # Ok::<(), toon::Error>(())
/// ```
pub fn to_json_writer<W: io::Write>(
    text: &str,
    options: &DecodeOptions,
    writer: W,
    indent: usize,
) -> Result<()> {
    if !options.strict {
        // Non-strict documents may repeat keys (last write wins, first position), which a
        // single forward pass cannot resolve: go through a `Value`.
        let value = super::decode_value_with(text, options)?;
        let mut writer = writer;
        writer.write_all(crate::value::to_json_string(&value, indent).as_bytes())?;
        return Ok(());
    }
    let mut de = Deserializer::from_str(text, options);
    de.exact_big_integers = false;
    de.size_guesses = false;
    let spaces = " ".repeat(indent.min(10));
    let result = if spaces.is_empty() {
        let mut ser = serde_json::Serializer::with_formatter(writer, JsFormatter(CompactFormatter));
        serde_transcode::transcode(&mut de, &mut ser)
    } else {
        let fmt = JsFormatter(PrettyFormatter::with_indent(spaces.as_bytes()));
        let mut ser = serde_json::Serializer::with_formatter(writer, fmt);
        serde_transcode::transcode(&mut de, &mut ser)
    };
    result.map_err(|e| {
        if e.is_io() {
            return json_error(e);
        }
        // The transcoder flattens decode errors into text; decode again (errors are
        // the rare path) to return the structured error with its location.
        super::decode_value_with(text, options)
            .err()
            .unwrap_or_else(|| json_error(e))
    })
}

fn json_error(e: serde_json::Error) -> Error {
    if e.is_io() {
        Error::new(ErrorKind::Io, e.to_string())
    } else {
        Error::new(ErrorKind::Data, e.to_string())
    }
}

/// serde_json's formatting with JavaScript's number output.
struct JsFormatter<F>(F);

impl<F: Formatter> Formatter for JsFormatter<F> {
    fn write_f64<W: ?Sized + io::Write>(&mut self, w: &mut W, value: f64) -> io::Result<()> {
        let mut buf = ryu_js::Buffer::new();
        w.write_all(crate::js_number::f64_str(&mut buf, value).as_bytes())
    }

    fn write_f32<W: ?Sized + io::Write>(&mut self, w: &mut W, value: f32) -> io::Result<()> {
        self.write_f64(w, f64::from(value))
    }

    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_array(w)
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array(w)
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_array_value(w, first)
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array_value(w)
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object(w)
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object(w)
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_object_key(w, first)
    }

    fn end_object_key<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_key(w)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object_value(w)
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_value(w)
    }
}
