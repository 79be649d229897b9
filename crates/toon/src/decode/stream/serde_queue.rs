//! The events the serde driver ([`ReaderDeserializer`](super::ReaderDeserializer)) pulls
//! from the reader's state machine: owned, with a primitive's token text kept where its
//! value does not say it (`1.0`, `1e3`, `-0`), so a `String` field reads the token as
//! written, as `from_str` does. While a value is being skipped the sink only counts
//! nesting: skipped keys and values are checked, never kept. Errors take their place
//! among the steps (see [`Step::Error`]).

use std::collections::VecDeque;
use std::ops::Range;

use super::sink::Sink;
use super::slot::primitive;
use crate::decode::scanner::Line;
use crate::{Result, Value};

/// One step of the document, as the serde driver sees it.
pub(super) enum Step {
    StartObject,
    EndObject,
    /// An array and its declared length.
    StartArray(usize),
    EndArray,
    /// A key: its place in [`StepQueue::keys`].
    Key(Range<usize>),
    /// A primitive and, for a number whose canonical text differs from the token, the
    /// token.
    Prim(Value, Option<Box<str>>),
    /// An error the reader found here: raised when the driver reaches it, so a
    /// visitor's error about an earlier value on the same line comes first, as it does
    /// with `from_str`, which reads a line's values as they are asked for.
    Error(crate::Error),
    /// The document is over.
    End,
}

/// The queue the reader fills for the serde driver.
#[derive(Default)]
pub(super) struct StepQueue {
    pub steps: VecDeque<Step>,
    /// Open containers still to be skipped: while non-zero, nothing is queued.
    pub skip: usize,
    /// The text of the queued keys, one after the other (emptied when the queue is,
    /// so a key costs no allocation of its own).
    pub keys: String,
}

impl StepQueue {
    fn push(&mut self, step: Step) {
        if self.skip == 0 {
            self.steps.push_back(step);
        }
    }

    fn open(&mut self, step: Step) {
        if self.skip > 0 {
            self.skip += 1;
        } else {
            self.steps.push_back(step);
        }
    }

    fn close(&mut self, step: Step) {
        if self.skip > 0 {
            self.skip -= 1;
        } else {
            self.steps.push_back(step);
        }
    }
}

/// Whether a number token reads back differently from its canonical text: it has a
/// fraction or an exponent, or is `-0`. Integers are otherwise written in canonical
/// form (the grammar forbids leading zeros).
fn keeps_text(token: &str) -> bool {
    token == "-0" || token.bytes().any(|b| matches!(b, b'.' | b'e' | b'E'))
}

impl Sink for StepQueue {
    fn start_object(&mut self) {
        self.open(Step::StartObject);
    }
    fn end_object(&mut self) {
        self.close(Step::EndObject);
    }
    fn start_array(&mut self, len: usize) {
        self.open(Step::StartArray(len));
    }
    fn end_array(&mut self) {
        self.close(Step::EndArray);
    }
    fn key(&mut self, key: &str) {
        if self.skip == 0 {
            let start = self.keys.len();
            self.keys.push_str(key);
            self.steps.push_back(Step::Key(start..self.keys.len()));
        }
    }
    fn value(&mut self, v: Value) {
        self.push(Step::Prim(v, None));
    }
    fn token(&mut self, line: &Line<'_>, token: &str) -> Result<()> {
        if self.skip > 0 {
            // Only a quoted token can be malformed.
            if token.starts_with('"') {
                primitive(line, token)?;
            }
            return Ok(());
        }
        let v = match primitive(line, token) {
            Ok(v) => v,
            Err(e) => {
                self.steps.push_back(Step::Error(e));
                return Ok(());
            }
        };
        let text = (matches!(v, Value::Number(_)) && keeps_text(token)).then(|| token.into());
        self.steps.push_back(Step::Prim(v, text));
        Ok(())
    }
}
