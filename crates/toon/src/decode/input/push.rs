//! Lines pushed in by the caller, in chunks of any size: the input of the push decoder.
//!
//! Bytes are buffered until a `\n` completes a physical line; each complete line is
//! checked as UTF-8 and classified exactly as [`IoSource`](super::IoSource) checks and
//! classifies the lines it reads (the same functions), and queued. The state machine
//! then reads the queue through [`LineInput`] as it reads any other input; the driver
//! of the push decoder runs a step only when the queue holds as many lines as the step
//! may read ([`PushSource::available`]), or the input is closed.

use std::collections::VecDeque;

use super::LineInput;
use super::io::{Stored, StoredLine, line_text, store_line};
use crate::decode::grammar::scanner::{Indent, Line};
use crate::{Error, ErrorKind, Result};

/// A queued line: a content line with the first blank line skipped before it, or the
/// error its check or classification gave (read when the machine reaches it).
enum Queued {
    Line(StoredLine, Option<usize>),
    Failed(Error),
}

/// The lines pushed so far, with one line of lookahead.
pub struct PushSource {
    strict: bool,
    indent: Indent,
    /// The bytes of the incomplete last physical line.
    partial: Vec<u8>,
    /// Physical lines completed so far.
    number: usize,
    /// Bytes completed so far (for UTF-8 error offsets).
    offset: usize,
    /// Whether the input is closed (no more bytes will come).
    closed: bool,
    /// Complete content lines not fetched yet (after an error: nothing more is queued).
    queue: VecDeque<Queued>,
    /// Blank lines skipped after the last queued line (its first).
    trailing_blank: Option<usize>,
    /// Whether an error has been queued.
    failed: bool,
    /// The last consumed line.
    current: Option<StoredLine>,
    /// The next line, if fetched (`Some(None)`: the end of input).
    peeked: Option<Option<StoredLine>>,
    /// The first blank line skipped by the latest fetch, until taken.
    blank: Option<usize>,
}

impl PushSource {
    /// An empty, open source.
    pub fn new(indent_size: usize, strict: bool) -> Self {
        PushSource {
            strict,
            indent: Indent::new(indent_size),
            partial: Vec::new(),
            number: 0,
            offset: 0,
            closed: false,
            queue: VecDeque::new(),
            trailing_blank: None,
            failed: false,
            current: None,
            peeked: None,
            blank: None,
        }
    }

    /// Appends `bytes`: every line they complete is checked, classified and queued.
    pub fn push(&mut self, mut bytes: &[u8]) -> Result<()> {
        if self.closed {
            return Err(Error::new(
                ErrorKind::Options,
                "input pushed after the end of the document was declared",
            ));
        }
        while let Some(i) = memchr::memchr(b'\n', bytes) {
            self.partial.extend_from_slice(&bytes[..i]);
            bytes = &bytes[i + 1..];
            self.complete_line(1);
        }
        self.partial.extend_from_slice(bytes);
        Ok(())
    }

    /// Declares the end of input: a last line without `\n` is completed.
    pub fn close(&mut self) {
        if self.closed {
            return;
        }
        if !self.partial.is_empty() {
            self.complete_line(0);
        }
        self.closed = true;
    }

    /// Whether the end of input has been declared.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Lines the machine can read before it would need more input: the peeked line and
    /// the queued ones (an error counts as a line: reading it ends the document).
    pub fn available(&self) -> usize {
        let peeked = usize::from(matches!(self.peeked, Some(Some(_))));
        peeked + self.queue.len()
    }

    /// The depth of the next line the machine will read, when it is a complete line.
    pub fn next_depth(&self) -> Option<usize> {
        match &self.peeked {
            Some(Some(line)) => Some(line.view().depth),
            Some(None) => None,
            None => match self.queue.front() {
                Some(Queued::Line(line, _)) => Some(line.view().depth),
                _ => None,
            },
        }
    }

    /// Checks, classifies and queues the buffered line; `newline` is the length of its
    /// terminator (0 for the last line of a closed input).
    fn complete_line(&mut self, newline: usize) {
        let buf = std::mem::take(&mut self.partial);
        let line_start = self.offset;
        self.offset += buf.len() + newline;
        self.number += 1;
        if self.failed {
            return;
        }
        let stored = line_text(buf, line_start, self.number, self.strict)
            .and_then(|text| store_line(text, self.number, self.indent, self.strict));
        match stored {
            Ok(Stored::Content(line)) => {
                let blank = self.trailing_blank.take();
                self.queue.push_back(Queued::Line(line, blank));
            }
            Ok(Stored::Blank(_, n)) => {
                self.trailing_blank.get_or_insert(n);
            }
            Ok(Stored::Comment(_)) => {}
            Err(e) => {
                self.failed = true;
                self.queue.push_back(Queued::Failed(e));
            }
        }
    }

    /// The next queued line; `Ok(None)` at the end of a closed input.
    fn fetch(&mut self) -> Result<Option<StoredLine>> {
        match self.queue.pop_front() {
            Some(Queued::Line(line, blank)) => {
                if let Some(n) = blank {
                    self.blank.get_or_insert(n);
                }
                Ok(Some(line))
            }
            Some(Queued::Failed(e)) => Err(e),
            None if self.closed => {
                if let Some(n) = self.trailing_blank.take() {
                    self.blank.get_or_insert(n);
                }
                Ok(None)
            }
            None => Err(Error::new(
                ErrorKind::Syntax,
                "internal: the push decoder ran a step past the lines it holds",
            )),
        }
    }
}

impl LineInput for PushSource {
    fn fill(&mut self) -> Result<()> {
        if self.peeked.is_none() {
            let line = self.fetch()?;
            self.peeked = Some(line);
        }
        Ok(())
    }

    fn peeked(&self) -> Option<Line<'_>> {
        self.peeked
            .as_ref()
            .and_then(Option::as_ref)
            .map(StoredLine::view)
    }

    fn current(&self) -> Option<Line<'_>> {
        self.current.as_ref().map(StoredLine::view)
    }

    fn take_blank(&mut self) -> Option<usize> {
        self.blank.take()
    }

    fn consume(&mut self) -> Result<bool> {
        self.fill()?;
        match self.peeked.take().flatten() {
            Some(line) => {
                self.current = Some(line);
                Ok(true)
            }
            None => {
                self.peeked = Some(None);
                Ok(false)
            }
        }
    }
}
