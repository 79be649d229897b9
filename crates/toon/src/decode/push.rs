//! The push decoder: TOON text fed in chunks of any size (as a model streams it), read
//! by the one decoding state machine, yielding [`Event`]s as soon as they are complete.

use std::collections::VecDeque;

use super::Event;
use super::grammar::machine::Driver;
use super::input::PushSource;
use crate::{DecodeOptions, Error, Result};

/// A TOON decoder that is fed: [`PushDecoder::feed`] takes the next chunk of the text
/// (bytes or `&str`; a UTF-8 sequence or a line may be split anywhere) and returns the
/// events it completes; [`PushDecoder::close`] declares the end of the text and returns
/// the last events, or the error of an incomplete or invalid document.
///
/// It runs the same state machine as [`EventReader`](super::EventReader) and yields, for
/// any split of a text into chunks, the same events and the same error (kind, message,
/// line, column) as `EventReader` over the whole text, in strict and non-strict mode.
/// A line's events come once its `\n` arrives and, where the grammar looks one line
/// ahead (a line that opens a block, an object field), once the next line is complete
/// too; a table row's events come with its own `\n`, and the end of an object or list
/// item with the `\n` of the line that closes it. Memory is the incomplete line, the
/// complete lines fed but not read yet (two at most when every chunk's events are
/// taken), the events not taken, and the machine's open containers — not the text.
///
/// After an error every call returns that error again.
///
/// ```
/// use toon::decode::{Event, PushDecoder};
/// use toon::{DecodeOptions, Value};
///
/// let mut dec = PushDecoder::new(&DecodeOptions::default());
/// assert!(dec.feed("tasks[2]{id,na")?.is_empty());
/// let events = dec.feed("me}:\n  1,Ada\n  2,B")?;
/// // The header and the first row are complete.
/// assert_eq!(events[2], Event::StartArray { len: 2 });
/// assert_eq!(events.last(), Some(&Event::EndObject));
/// let rest = dec.close()?;
/// assert_eq!(rest[2], Event::Primitive(Value::from(2)));
/// assert_eq!(rest.len(), 8);
/// # Ok::<(), toon::Error>(())
/// ```
pub struct PushDecoder {
    inner: Driver<PushSource, VecDeque<Event>>,
    failed: Option<Error>,
}

impl PushDecoder {
    /// A decoder of one TOON document, with `options`.
    pub fn new(options: &DecodeOptions) -> Self {
        let src = PushSource::new(options.indent_size, options.strict);
        PushDecoder {
            inner: Driver::new(src, options, VecDeque::new()),
            failed: None,
        }
    }

    /// Feeds the next chunk of the text and returns the events it completes. An error
    /// discards the events of the chunk (use [`PushDecoder::push`] and
    /// [`PushDecoder::next_event`] to take every event before it).
    pub fn feed(&mut self, chunk: impl AsRef<[u8]>) -> Result<Vec<Event>> {
        self.push(chunk)?;
        self.drain()
    }

    /// Declares the end of the text and returns the remaining events; an error if the
    /// document is invalid or incomplete.
    pub fn close(&mut self) -> Result<Vec<Event>> {
        self.finish();
        self.drain()
    }

    /// Appends the next chunk of the text without reading it: [`PushDecoder::next_event`]
    /// reads on.
    pub fn push(&mut self, chunk: impl AsRef<[u8]>) -> Result<()> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        self.inner.source_mut().push(chunk.as_ref())
    }

    /// Declares the end of the text without reading on.
    pub fn finish(&mut self) {
        self.inner.source_mut().close();
    }

    /// The next complete event, `Ok(None)` when the text fed so far holds no more (or the
    /// document is done: see [`PushDecoder::is_done`]).
    pub fn next_event(&mut self) -> Result<Option<Event>> {
        loop {
            if let Some(e) = self.inner.sink().pop_front() {
                return Ok(Some(e));
            }
            if let Some(e) = &self.failed {
                return Err(e.clone());
            }
            let src = self.inner.source();
            if !src.is_closed() && src.available() < self.inner.lookahead(src.next_depth()) {
                return Ok(None);
            }
            match self.inner.step() {
                Ok(true) => {}
                Ok(false) => return Ok(None),
                Err(e) => {
                    self.inner.sink().clear();
                    self.failed = Some(e.clone());
                    return Err(e);
                }
            }
        }
    }

    /// Whether the whole document has been read (after [`PushDecoder::close`]) and every
    /// event taken.
    pub fn is_done(&self) -> bool {
        self.failed.is_none() && self.inner.is_finished() && self.inner.sink_ref().is_empty()
    }

    /// The 1-based number of the last line read as part of the document (0 before the
    /// first).
    pub fn line_number(&self) -> usize {
        self.inner.current_line().map_or(0, |l| l.number)
    }

    /// Every event available now.
    fn drain(&mut self) -> Result<Vec<Event>> {
        let mut out = Vec::new();
        while let Some(e) = self.next_event()? {
            out.push(e);
        }
        Ok(out)
    }
}
