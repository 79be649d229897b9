//! Collecting events into [`Value`]s.

use std::io::BufRead;

use super::{Event, EventReader};
use crate::{DecodeOptions, Error, ErrorKind, Map, Result, Value};

/// Builds [`Value`]s from [`Event`]s: feed it events with [`ValueBuilder::push`] and it
/// hands back each complete top-level value.
///
/// A repeated key (non-strict mode) keeps its first position and takes the last value,
/// as the tree decoder and the reference's `buildValueFromEvents` do.
///
/// ```
/// use toon::decode::{Event, ValueBuilder};
/// let mut b = ValueBuilder::new();
/// assert_eq!(b.push(Event::StartArray { len: 1 })?, None);
/// assert_eq!(b.push(Event::Primitive(toon::Value::from(7)))?, None);
/// assert_eq!(b.push(Event::EndArray)?, Some(toon::toon!([7])));
/// # Ok::<(), toon::Error>(())
/// ```
#[derive(Default)]
pub struct ValueBuilder {
    stack: Vec<Partial>,
}

/// An open container.
enum Partial {
    Array(Vec<Value>),
    Object(Map, Option<String>),
}

fn misplaced(what: &str) -> Error {
    Error::new(
        ErrorKind::Data,
        format!("unexpected {what} in the event stream"),
    )
}

impl ValueBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        ValueBuilder::default()
    }

    /// True while a container is open.
    pub fn is_building(&self) -> bool {
        !self.stack.is_empty()
    }

    /// Takes one event; returns the value it completes at the top level, if any.
    /// Events out of order (an end without a start, a value in an object without a
    /// key) are a [`ErrorKind::Data`] error.
    pub fn push(&mut self, event: Event) -> Result<Option<Value>> {
        let done = match event {
            Event::StartObject => {
                self.stack.push(Partial::Object(Map::new(), None));
                return Ok(None);
            }
            Event::StartArray { len } => {
                self.stack
                    .push(Partial::Array(Vec::with_capacity(len.min(1024))));
                return Ok(None);
            }
            Event::Key(k) => match self.stack.last_mut() {
                Some(Partial::Object(_, pending @ None)) => {
                    *pending = Some(k);
                    return Ok(None);
                }
                _ => return Err(misplaced("key")),
            },
            Event::EndObject => match self.stack.pop() {
                Some(Partial::Object(m, None)) => Value::Object(m),
                _ => return Err(misplaced("end of object")),
            },
            Event::EndArray => match self.stack.pop() {
                Some(Partial::Array(v)) => Value::Array(v),
                _ => return Err(misplaced("end of array")),
            },
            Event::Primitive(v) => v,
        };
        match self.stack.last_mut() {
            None => Ok(Some(done)),
            Some(Partial::Array(items)) => {
                items.push(done);
                Ok(None)
            }
            Some(Partial::Object(map, pending)) => match pending.take() {
                Some(k) => {
                    map.insert(k, done);
                    Ok(None)
                }
                None => Err(misplaced("value without a key")),
            },
        }
    }
}

impl<R: BufRead> EventReader<R> {
    /// Reads the next complete value from the events: the whole document when called
    /// first; called after a container's start (or a key), the next element (or the
    /// key's value), which is how to take a huge root array one element at a time.
    /// At the end of the container that is a [`ErrorKind::Data`] error; `None` after
    /// the document.
    pub fn next_value(&mut self) -> Result<Option<Value>> {
        let mut builder = ValueBuilder::new();
        while let Some(event) = self.next_event()? {
            if let Some(v) = builder.push(event)? {
                return Ok(Some(v));
            }
        }
        if builder.is_building() {
            return Err(misplaced("end of events"));
        }
        Ok(None)
    }
}

/// Decodes the TOON document in `reader` into a [`Value`], through the event reader:
/// the same value (or error) as [`decode_value_with`](crate::decode_value_with) gives,
/// without holding the text in memory.
///
/// ```
/// let v = toon::decode::reader_to_value("a[2]: 1,x".as_bytes(), &toon::DecodeOptions::default())?;
/// assert_eq!(v, toon::toon!({"a": [1, "x"]}));
/// # Ok::<(), toon::Error>(())
/// ```
pub fn reader_to_value<R: BufRead>(reader: R, options: &DecodeOptions) -> Result<Value> {
    let mut events = EventReader::new(reader, options);
    let value = events.next_value()?.unwrap_or(Value::Null);
    // Drain to run the end-of-document checks.
    while events.next_event()?.is_some() {}
    Ok(value)
}
