//! The public event stream: [`EventReader`] runs the decoding state machine over a
//! reader and queues what it reads as owned [`Event`]s.

use std::collections::VecDeque;
use std::io::BufRead;

use super::grammar::machine::Driver;
use super::grammar::sink::Sink;
use super::input::IoSource;
use crate::{DecodeOptions, Result, Value};

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

/// A streaming TOON decoder: reads a document from a [`BufRead`] one line at a time and
/// yields it as [`Event`]s.
///
/// It accepts and rejects exactly what [`decode_value_with`](crate::decode_value_with)
/// accepts and rejects, with the same errors (kind, message, line, column), in strict
/// and non-strict mode. Memory is bounded by the longest line plus, per open container,
/// its header's field list and (strict mode) its keys seen so far — not by the length
/// of the document.
///
/// Differences from [`decode_value_with`](crate::decode_value_with):
///
/// - In non-strict mode a repeated key is yielded again, as the reference's
///   `decodeStreamSync` does; collecting the events with [`ValueBuilder`](super::ValueBuilder)
///   resolves it as `decode_value_with` does (last value, first position).
/// - Invalid UTF-8 (strict mode) is found when its line is read, so an error in an
///   earlier line is reported instead, where [`decode_slice_with`](crate::decode_slice_with),
///   which checks the whole input first, reports the UTF-8 error.
/// - After an error the reader yields nothing more.
///
/// ```
/// use toon::decode::{Event, EventReader};
/// use toon::{DecodeOptions, Value};
///
/// let text = "users[2]{id,name}:\n  1,Ada\n  2,Bob\n";
/// let reader = EventReader::new(text.as_bytes(), &DecodeOptions::default());
/// let events = reader.collect::<Result<Vec<_>, _>>()?;
/// assert_eq!(events[0], Event::StartObject);
/// assert_eq!(events[1], Event::Key("users".into()));
/// assert_eq!(events[2], Event::StartArray { len: 2 });
/// assert_eq!(events[5], Event::Primitive(Value::from(1)));
/// assert_eq!(events.len(), 17);
/// # Ok::<(), toon::Error>(())
/// ```
pub struct EventReader<R> {
    inner: Driver<IoSource<R>, VecDeque<Event>>,
}

impl<R: BufRead> EventReader<R> {
    /// A reader of the TOON document in `reader`, decoded with `options`.
    pub fn new(reader: R, options: &DecodeOptions) -> Self {
        EventReader {
            inner: Driver::over_reader(reader, options, VecDeque::new()),
        }
    }

    /// The next event, `None` after the document's last one (and after an error).
    pub fn next_event(&mut self) -> Result<Option<Event>> {
        loop {
            if let Some(e) = self.inner.sink().pop_front() {
                return Ok(Some(e));
            }
            match self.inner.step() {
                Ok(true) => {}
                Ok(false) => return Ok(None),
                Err(e) => {
                    self.inner.sink().clear();
                    return Err(e);
                }
            }
        }
    }

    /// The 1-based number of the last line read as part of the document (0 before the
    /// first), for locating what a consumer of the events finds wrong.
    pub fn line_number(&self) -> usize {
        self.inner.current_line().map_or(0, |l| l.number)
    }

    /// Whether strict mode is on.
    pub fn is_strict(&self) -> bool {
        self.inner.is_strict()
    }
}

impl<R: BufRead> Iterator for EventReader<R> {
    type Item = Result<Event>;

    fn next(&mut self) -> Option<Result<Event>> {
        self.next_event().transpose()
    }
}

impl Sink for VecDeque<Event> {
    fn start_object(&mut self) {
        self.push_back(Event::StartObject);
    }
    fn end_object(&mut self) {
        self.push_back(Event::EndObject);
    }
    fn start_array(&mut self, len: usize) {
        self.push_back(Event::StartArray { len });
    }
    fn end_array(&mut self) {
        self.push_back(Event::EndArray);
    }
    fn key(&mut self, key: &str) {
        self.push_back(Event::Key(key.to_owned()));
    }
    fn key_owned(&mut self, key: String) {
        self.push_back(Event::Key(key));
    }
    fn value(&mut self, v: Value) {
        self.push_back(Event::Primitive(v));
    }
}
