//! Events to JSON text: a whole document as `JSON.stringify(value, null, indent)`
//! writes it, or JSON Lines (one compact value per line).

use crate::value::write_json_string;
use std::io::{self, BufRead, Write};

use super::grammar::header::Field;
use super::grammar::machine::Driver;
use super::grammar::scanner::Line;
use super::grammar::sink::{RowCache, RowOp, Sink, Walk, row_events, walk};
use super::grammar::slot::primitive;
use super::grammar::tokens::{Num, number, quoted_str};
use super::input::LineInput;
use super::{Event, EventReader};
use crate::js_number;
use crate::{DecodeOptions, Error, ErrorKind, Result, Value};

/// Bytes collected before they are handed to the writer.
const FLUSH_AT: usize = 64 * 1024;

/// Writes events as JSON text, formatted as `JSON.stringify(value, null, indent)`
/// formats it.
struct JsonEmitter {
    buf: String,
    indent: usize,
    /// Per open container: is it an object, and has it a member yet.
    open: Vec<(bool, bool)>,
}

impl JsonEmitter {
    fn new(indent: usize) -> Self {
        JsonEmitter {
            buf: String::new(),
            indent: indent.min(10),
            open: Vec::new(),
        }
    }

    fn newline(&mut self, level: usize) {
        if self.indent > 0 {
            self.buf.push('\n');
            for _ in 0..self.indent * level {
                self.buf.push(' ');
            }
        }
    }

    /// The separator before an array element or object key.
    fn member(&mut self) {
        let level = self.open.len();
        if let Some((_, has)) = self.open.last_mut() {
            let first = !*has;
            *has = true;
            if !first {
                self.buf.push(',');
            }
            self.newline(level);
        }
    }

    /// Before a value: array elements need their separator (object values follow keys).
    fn before_value(&mut self) {
        if matches!(self.open.last(), Some((false, _))) {
            self.member();
        }
    }

    /// Writes one event; true when it completes a top-level value.
    fn event(&mut self, event: &Event) -> bool {
        match event {
            Event::StartObject => self.start_object(),
            Event::StartArray { len } => self.start_array(*len),
            Event::EndObject | Event::EndArray => {
                self.close();
                return self.open.is_empty();
            }
            Event::Key(k) => self.key(k),
            Event::Primitive(v) => {
                self.before_value();
                self.primitive(v);
                return self.open.is_empty();
            }
        }
        false
    }

    fn open(&mut self, object: bool) {
        self.before_value();
        self.buf.push(if object { '{' } else { '[' });
        self.open.push((object, false));
    }

    fn close(&mut self) {
        let (object, has) = self.open.pop().unwrap_or((false, false));
        if has {
            self.newline(self.open.len());
        }
        self.buf.push(if object { '}' } else { ']' });
    }

    fn primitive(&mut self, v: &Value) {
        match v {
            Value::Null => self.buf.push_str("null"),
            Value::Bool(b) => self.buf.push_str(if *b { "true" } else { "false" }),
            Value::Number(n) => n.write_canonical(&mut self.buf),
            Value::String(s) => write_json_string(&mut self.buf, s),
            // Events never carry containers; write them whole if one comes anyway.
            other => self.buf.push_str(&crate::value::to_json_string(other, 0)),
        }
    }

    fn flush_if_full<W: Write>(&mut self, w: &mut W) -> io::Result<()> {
        if self.buf.len() >= FLUSH_AT {
            self.flush(w)?;
        }
        Ok(())
    }

    fn flush<W: Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(self.buf.as_bytes())?;
        self.buf.clear();
        Ok(())
    }
}

impl Sink for JsonEmitter {
    fn start_object(&mut self) {
        self.open(true);
    }
    fn end_object(&mut self) {
        self.close();
    }
    fn start_array(&mut self, _len: usize) {
        self.open(false);
    }
    fn end_array(&mut self) {
        self.close();
    }
    fn key(&mut self, key: &str) {
        self.member();
        write_json_string(&mut self.buf, key);
        self.buf.push(':');
        if self.indent > 0 {
            self.buf.push(' ');
        }
    }
    fn value(&mut self, v: Value) {
        self.before_value();
        self.primitive(&v);
    }
    fn token(&mut self, line: &Line<'_>, token: &str) -> Result<()> {
        self.before_value();
        if !write_token(&mut self.buf, token) {
            let v = primitive(line, token)?;
            self.primitive(&v);
        }
        Ok(())
    }
    /// Rows follow a list of steps made once per table, keys escaped.
    fn row(
        &mut self,
        cache: &mut RowCache,
        fields: &[Field<'_>],
        cells: &[&str],
        line: &Line<'_>,
    ) -> Result<()> {
        if cache.first_use(fields) && cache.simple {
            let space = self.indent > 0;
            let prepared = |name: &str| {
                let mut k = String::new();
                write_json_string(&mut k, name);
                k.push(':');
                if space {
                    k.push(' ');
                }
                k
            };
            let mut ops = Vec::new();
            walk(fields, |step| {
                ops.push(match step {
                    Walk::Leaf(f) => RowOp::Leaf(prepared(&f.name)),
                    Walk::Open(f) => RowOp::Open(prepared(&f.name)),
                    Walk::Close => RowOp::Close,
                });
            });
            cache.ops = ops;
        }
        if !cache.simple {
            return row_events(self, fields, cells, line);
        }
        self.start_object();
        let mut cell = 0;
        for op in &cache.ops {
            match op {
                RowOp::Leaf(key) => {
                    self.member();
                    self.buf.push_str(key);
                    let token = cells.get(cell).copied().unwrap_or("");
                    cell += 1;
                    if !write_token(&mut self.buf, token) {
                        let v = primitive(line, token)?;
                        self.primitive(&v);
                    }
                }
                RowOp::Open(key) => {
                    self.member();
                    self.buf.push_str(key);
                    self.open(true);
                }
                RowOp::Close => self.close(),
            }
        }
        self.end_object();
        Ok(())
    }
}

/// Writes the primitive token `token` as JSON directly, byte for byte as its parsed
/// [`Value`] is written, when that needs no `Value`; false (nothing written) otherwise:
/// quoted strings with errors, integers that may not fit 64 bits or are `-0`.
fn write_token(out: &mut String, token: &str) -> bool {
    let Some(&first) = token.as_bytes().first() else {
        out.push_str("\"\"");
        return true;
    };
    if first == b'"' {
        return match quoted_str(token) {
            Ok(s) => {
                write_json_string(out, &s);
                true
            }
            Err(_) => false,
        };
    }
    match token {
        "true" | "false" | "null" => {
            out.push_str(token);
            return true;
        }
        _ => {}
    }
    match number(token) {
        // Canonical already (the grammar has no leading zeros).
        Some(Num::U64(_) | Num::I64(_) | Num::BigInt) => {
            return js_number::push_int_token(out, token);
        }
        Some(Num::F64(_)) => {
            if !js_number::push_float_token(out, token) {
                write_json_string(out, token);
            }
        }
        None => write_json_string(out, token),
    }
    true
}

/// Decodes TOON `text` and writes it to `writer` as JSON, formatted as
/// `JSON.stringify(value, null, indent)` formats it (`indent` 0 is compact, at most 10).
///
/// Strict mode writes while it decodes, without building a tree; non-strict mode, where
/// a repeated key takes the last value at the first position, builds a
/// [`Value`] first. Integers of any size are written exactly, as a [`Value`] keeps them
/// (the reference rounds integers beyond 2^53). On an error,
/// part of the output may have been written already.
///
/// ```
/// let mut out = Vec::new();
/// toon::decode::to_json_writer("a[2]: 1,x", &toon::DecodeOptions::default(), &mut out, 0)?;
/// assert_eq!(out, br#"{"a":[1,"x"]}"#);
/// # Ok::<(), toon::Error>(())
/// ```
pub fn to_json_writer<W: Write>(
    text: &str,
    options: &DecodeOptions,
    writer: W,
    indent: usize,
) -> Result<()> {
    if !options.strict {
        let value = super::value::text_to_value(text, options)?;
        return write_value(writer, &value, indent);
    }
    emit(
        Driver::over_text(text, options, JsonEmitter::new(indent)),
        writer,
    )
}

/// Decodes the TOON document in `reader` and writes it to `writer` as JSON, byte for
/// byte what [`to_json_writer`] writes for the same text (`indent` 0 is compact, at
/// most 10), without holding the text in memory.
///
/// Strict mode streams: memory stays at the reader's bound (see [`EventReader`]) plus a
/// 64 KiB output buffer. Non-strict mode, where a repeated key takes the last value at
/// the first position, cannot be resolved in one pass: the document is collected into a
/// [`Value`] first, so memory grows with the document (not with its text).
///
/// On an error, part of the output may have been written already.
///
/// ```
/// let mut out = Vec::new();
/// let toon = "rows[2]{a,b}:\n  1,x\n  2,y\n";
/// toon::decode::reader_to_json_writer(toon.as_bytes(), &toon::DecodeOptions::default(), &mut out, 0)?;
/// assert_eq!(out, br#"{"rows":[{"a":1,"b":"x"},{"a":2,"b":"y"}]}"#);
/// # Ok::<(), toon::Error>(())
/// ```
pub fn reader_to_json_writer<R: BufRead, W: Write>(
    reader: R,
    options: &DecodeOptions,
    writer: W,
    indent: usize,
) -> Result<()> {
    if !options.strict {
        let value = super::reader_to_value(reader, options)?;
        return write_value(writer, &value, indent);
    }
    emit(
        Driver::over_reader(reader, options, JsonEmitter::new(indent)),
        writer,
    )
}

/// A whole [`Value`] as JSON (the non-strict route).
fn write_value<W: Write>(mut writer: W, value: &Value, indent: usize) -> Result<()> {
    writer.write_all(crate::value::to_json_string(value, indent).as_bytes())?;
    Ok(())
}

/// Runs `driver` to the end, handing its JSON to `writer` in blocks of [`FLUSH_AT`].
fn emit<I: LineInput, W: Write>(mut driver: Driver<I, JsonEmitter>, mut writer: W) -> Result<()> {
    while driver.step()? {
        driver.sink().flush_if_full(&mut writer)?;
    }
    driver.sink().flush(&mut writer)?;
    Ok(())
}

/// Decodes the TOON document in `reader` and writes it to `writer` as JSON Lines: one
/// compact JSON value per line, each ending in `\n`. Returns the number of lines.
///
/// The records are the elements of the root array, or, when the root is an object with
/// exactly one key, the elements of the array that key holds (`items[N]{…}:` at the
/// top). Any other document is an [`ErrorKind::Data`] error; when a second root key
/// follows the array, its elements have been written already.
///
/// Values are formatted as [`reader_to_json_writer`] formats them. Strict mode
/// streams every record; non-strict mode collects one record at a time into a
/// [`Value`] (to resolve repeated keys), so memory is bounded by the largest record.
///
/// ```
/// let mut out = Vec::new();
/// let toon = "items[2]{id,ok}:\n  1,true\n  2,false\n";
/// let n = toon::decode::reader_to_json_lines(toon.as_bytes(), &toon::DecodeOptions::default(), &mut out)?;
/// assert_eq!(n, 2);
/// assert_eq!(out, b"{\"id\":1,\"ok\":true}\n{\"id\":2,\"ok\":false}\n");
/// # Ok::<(), toon::Error>(())
/// ```
pub fn reader_to_json_lines<R: BufRead, W: Write>(
    reader: R,
    options: &DecodeOptions,
    mut writer: W,
) -> Result<u64> {
    let mut events = EventReader::new(reader, options);
    let shape_error = |events: &EventReader<R>, found: &str| {
        Error::new(
            ErrorKind::Data,
            format!(
                "JSON Lines output needs a root array or a root object whose only key holds an array; found {found} (line {})",
                events.line_number()
            ),
        )
    };
    let wrapped = match events.next_event()? {
        Some(Event::StartArray { .. }) => false,
        Some(Event::StartObject) => {
            match events.next_event()? {
                Some(Event::Key(_)) => {}
                _ => return Err(shape_error(&events, "an empty object")),
            }
            match events.next_event()? {
                Some(Event::StartArray { .. }) => true,
                _ => return Err(shape_error(&events, "a root key that is not an array")),
            }
        }
        _ => return Err(shape_error(&events, "a primitive")),
    };
    let strict = options.strict;
    let mut out = JsonEmitter::new(0);
    let mut lines = 0u64;
    loop {
        if strict {
            let Some(event) = events.next_event()? else {
                return Err(Error::new(ErrorKind::Data, "unexpected end of events"));
            };
            if event == Event::EndArray && out.open.is_empty() {
                break;
            }
            if out.event(&event) {
                out.buf.push('\n');
                lines += 1;
            }
        } else {
            // The first event tells whether the array ended; then the record is read.
            let Some(event) = events.next_event()? else {
                return Err(Error::new(ErrorKind::Data, "unexpected end of events"));
            };
            let value = match event {
                Event::EndArray => break,
                Event::Primitive(v) => v,
                start => {
                    let mut b = super::ValueBuilder::new();
                    let mut first = Some(start);
                    loop {
                        let e = match first.take() {
                            Some(e) => e,
                            None => events.next_event()?.ok_or_else(|| {
                                Error::new(ErrorKind::Data, "unexpected end of events")
                            })?,
                        };
                        if let Some(v) = b.push(e)? {
                            break v;
                        }
                    }
                }
            };
            out.buf.push_str(&crate::value::to_json_string(&value, 0));
            out.buf.push('\n');
            lines += 1;
        }
        out.flush_if_full(&mut writer)?;
    }
    if wrapped {
        match events.next_event()? {
            Some(Event::EndObject) => {}
            Some(Event::Key(k)) => {
                out.flush(&mut writer)?;
                return Err(shape_error(&events, &format!("another root key \"{k}\"")));
            }
            _ => {
                return Err(Error::new(
                    ErrorKind::Data,
                    "unexpected event after the array",
                ));
            }
        }
    }
    // The end-of-document checks.
    while events.next_event()?.is_some() {}
    out.flush(&mut writer)?;
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::grammar::primitive::parse_primitive;

    #[test]
    fn write_token_is_the_parsed_value() {
        for t in [
            "",
            "0",
            "-0",
            "1",
            "-1",
            "12",
            "123456789012345678",
            "1234567890123456789",
            "-123456789012345678",
            "18446744073709551615",
            "18446744073709551616",
            "99999999999999999999999999999999999999999",
            "1.5",
            "-0.0",
            "0.0",
            "1e3",
            "1E-7",
            "1.0",
            "-1.25e+2",
            "1e400",
            "-1e400",
            "05",
            "1.",
            ".5",
            "true",
            "false",
            "null",
            "True",
            "\"a\\\"b\"",
            "\"\"",
            "abc",
            "a\"b",
            "\"x",
        ] {
            let mut fast = String::new();
            let mut slow = JsonEmitter::new(0);
            if write_token(&mut fast, t) {
                slow.primitive(&parse_primitive(t).unwrap());
                assert_eq!(fast, slow.buf, "{t:?}");
            }
        }
    }
}
