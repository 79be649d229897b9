//! Events to JSON text: a whole document as `JSON.stringify(value, null, indent)`
//! writes it, or JSON Lines (one compact value per line).

use crate::value::write_json_string;
use std::io::{self, BufRead, Write};

use super::{Event, EventReader};
use crate::{DecodeOptions, Error, ErrorKind, Number, Result, Value};

/// Bytes collected before they are handed to the writer.
const FLUSH_AT: usize = 64 * 1024;

/// Writes events as JSON text, formatted as `JSON.stringify(value, null, indent)`
/// formats it.
struct JsonEmitter {
    buf: String,
    indent: usize,
    /// Per open container: is it an object, and has it a member yet.
    open: Vec<(bool, bool)>,
    /// Integers beyond 128 bits as exact digits (`true`) or as the nearest `f64`.
    exact_big: bool,
}

impl JsonEmitter {
    fn new(indent: usize, exact_big: bool) -> Self {
        JsonEmitter {
            buf: String::new(),
            indent: indent.min(10),
            open: Vec::new(),
            exact_big,
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
            Event::StartObject | Event::StartArray { .. } => {
                self.before_value();
                let object = matches!(event, Event::StartObject);
                self.buf.push(if object { '{' } else { '[' });
                self.open.push((object, false));
                false
            }
            Event::EndObject | Event::EndArray => {
                let (object, has) = self.open.pop().unwrap_or((false, false));
                if has {
                    self.newline(self.open.len());
                }
                self.buf.push(if object { '}' } else { ']' });
                self.open.is_empty()
            }
            Event::Key(k) => {
                self.member();
                write_json_string(&mut self.buf, k);
                self.buf.push(':');
                if self.indent > 0 {
                    self.buf.push(' ');
                }
                false
            }
            Event::Primitive(v) => {
                self.before_value();
                self.primitive(v);
                self.open.is_empty()
            }
        }
    }

    fn primitive(&mut self, v: &Value) {
        match v {
            Value::Null => self.buf.push_str("null"),
            Value::Bool(b) => self.buf.push_str(if *b { "true" } else { "false" }),
            Value::Number(n) => write_number(&mut self.buf, n, self.exact_big),
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

/// A number as the JSON transcoder writes it: exact integers up to 128 bits, larger ones
/// as the nearest `f64` (`null` if infinite) unless `exact_big`.
fn write_number(out: &mut String, n: &Number, exact_big: bool) {
    match n.as_big_integer_str() {
        Some(digits)
            if !exact_big && digits.parse::<i128>().is_err() && digits.parse::<u128>().is_err() =>
        {
            match digits.parse::<f64>() {
                Ok(f) if f.is_finite() => out.push_str(ryu_js::Buffer::new().format_finite(f)),
                _ => out.push_str("null"),
            }
        }
        _ => n.write_canonical(out),
    }
}

/// Decodes the TOON document in `reader` and writes it to `writer` as JSON, byte for
/// byte what [`to_json_writer`](super::super::to_json_writer) writes for the same text
/// (`indent` 0 is compact, at most 10), without holding the text in memory.
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
    mut writer: W,
    indent: usize,
) -> Result<()> {
    if !options.strict {
        let value = super::reader_to_value(reader, options)?;
        writer.write_all(crate::value::to_json_string(&value, indent).as_bytes())?;
        return Ok(());
    }
    let mut events = EventReader::new(reader, options);
    let mut out = JsonEmitter::new(indent, false);
    while let Some(event) = events.next_event()? {
        out.event(&event);
        out.flush_if_full(&mut writer)?;
    }
    out.flush(&mut writer)?;
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
    let mut out = JsonEmitter::new(0, !strict);
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
