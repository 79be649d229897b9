//! The events the serde driver ([`ReaderDeserializer`](super::ReaderDeserializer)) pulls
//! from the reader's state machine: owned, with a primitive's token text kept where its
//! value does not say it (`1.0`, `1e3`, `-0`), so a `String` field reads the token as
//! written, as `from_str` does. While a value is being skipped the sink only counts
//! nesting: skipped keys and values are checked, never kept. Errors take their place
//! among the steps (see [`Step::Error`]).

use std::collections::VecDeque;
use std::ops::Range;

use super::prim::PrimDe;
use crate::decode::grammar::header::Field;
use crate::decode::grammar::scanner::Line;
use crate::decode::grammar::sink::{RowCache, Sink, row_events};
use crate::decode::grammar::slot::primitive;
use crate::decode::grammar::tokens::quoted_str;
use crate::{Result, Value};

/// One step of the document, as the serde driver sees it.
pub(super) enum Step {
    StartObject,
    EndObject,
    /// An array and its declared length.
    StartArray(usize),
    EndArray,
    /// A key: its place in [`StepQueue::text`].
    Key(Range<usize>),
    /// A table row over a flat field list: its fields' names and cells, alternately,
    /// in [`StepQueue::spans`].
    Row(Range<usize>),
    /// A primitive.
    Prim(PrimDe),
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
    /// The text of the queued keys and row cells, one after the other (emptied when
    /// the queue is, so a key or cell costs no allocation of its own).
    pub text: String,
    /// The names and cells of queued rows.
    pub spans: Vec<Span>,
}

/// A name or cell of a queued row: its place in [`StepQueue::text`].
pub(super) enum Span {
    /// A field name.
    Name(Range<usize>),
    /// A cell's token, unquoted.
    Token(Range<usize>),
    /// A quoted cell's string, unescaped.
    Str(Range<usize>),
}

impl StepQueue {
    /// Forgets the text of the steps taken (call only when none is queued).
    pub fn clear_text(&mut self) {
        self.text.clear();
        self.spans.clear();
    }

    /// `part` copied into `text`: its place there.
    fn keep(&mut self, part: &str) -> Range<usize> {
        let start = self.text.len();
        self.text.push_str(part);
        start..self.text.len()
    }

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
            let key = self.keep(key);
            self.steps.push_back(Step::Key(key));
        }
    }
    fn value(&mut self, v: Value) {
        self.push(Step::Prim(PrimDe {
            value: v,
            text: None,
        }));
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
        self.steps.push_back(Step::Prim(PrimDe::new(v, token)));
        Ok(())
    }
    /// A row over a flat field list whose quoted cells are well formed is kept whole
    /// (names, tokens and unescaped strings), read cell by cell when the deserializer
    /// gets to it; other rows go event by event.
    fn row(
        &mut self,
        _cache: &mut RowCache,
        fields: &[Field<'_>],
        cells: &[&str],
        line: &Line<'_>,
    ) -> Result<()> {
        let flat = fields.iter().all(|f| f.children.is_none());
        if self.skip > 0 || !flat {
            if self.skip == 0 {
                return row_events(self, fields, cells, line);
            }
            // Only a quoted cell can be malformed.
            for cell in cells.iter().filter(|c| c.starts_with('"')) {
                primitive(line, cell)?;
            }
            return Ok(());
        }
        let (start, text_start) = (self.spans.len(), self.text.len());
        for (i, f) in fields.iter().enumerate() {
            let name = self.keep(&f.name);
            self.spans.push(Span::Name(name));
            let cell = cells.get(i).copied().unwrap_or("");
            if !cell.starts_with('"') {
                let cell = self.keep(cell);
                self.spans.push(Span::Token(cell));
                continue;
            }
            match quoted_str(cell) {
                Ok(s) => {
                    let s = self.keep(&s);
                    self.spans.push(Span::Str(s));
                }
                Err(_) => {
                    // Event by event, so the error comes after the cells before it.
                    self.spans.truncate(start);
                    self.text.truncate(text_start);
                    return row_events(self, fields, cells, line);
                }
            }
        }
        self.steps.push_back(Step::Row(start..self.spans.len()));
        Ok(())
    }
}
