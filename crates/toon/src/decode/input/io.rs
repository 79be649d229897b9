//! Lines from an [`io::BufRead`](std::io::BufRead), one at a time, copied into reused
//! buffers.
//!
//! Each physical line is read into a reused buffer, checked as UTF-8 the way
//! [`text_from_bytes`](crate::decode::text_from_bytes) checks a whole input (strict: an
//! error with byte offset, line and column; non-strict: U+FFFD), and classified with
//! the scanner's rules ([`classify`]). Two lines are held at most: the last consumed
//! one and the peeked one. Blank lines are not recorded; a fetch only reports the first
//! blank line it skipped, which is all the strict blank-line check needs.

use std::io::BufRead;
use std::ops::Range;

use super::LineInput;
use crate::decode::grammar::scanner::{Indent, Line, LineKind, classify};
use crate::{Error, ErrorKind, Result};

/// One content line, owned.
pub(super) struct StoredLine {
    /// The physical line as text, without its `\n`.
    text: String,
    /// `raw` of the [`Line`]: after BOM and CR removal.
    raw: Range<usize>,
    /// `content` of the [`Line`].
    content: Range<usize>,
    depth: usize,
    number: usize,
}

impl StoredLine {
    /// The line as the scanner's [`Line`] view.
    pub fn view(&self) -> Line<'_> {
        Line {
            raw: &self.text[self.raw.clone()],
            content: &self.text[self.content.clone()],
            depth: self.depth,
            number: self.number,
        }
    }
}

/// Offset of the sub-slice `part` within `whole`.
fn offset_in(whole: &str, part: &str) -> usize {
    (part.as_ptr() as usize).saturating_sub(whole.as_ptr() as usize)
}

/// The lines of a reader, with one line of lookahead: each physical line is copied into
/// a buffer recycled from consumed lines.
pub struct IoSource<R> {
    reader: R,
    strict: bool,
    indent: Indent,
    /// Physical lines read so far.
    number: usize,
    /// Bytes read so far (for UTF-8 error offsets).
    offset: usize,
    eof: bool,
    /// The last consumed line.
    current: Option<StoredLine>,
    /// The next line, if fetched (`Some(None)`: the end of input).
    peeked: Option<Option<StoredLine>>,
    /// A buffer to read the next line into (recycled from consumed lines).
    spare: Vec<u8>,
    /// The first blank line skipped by the latest fetch, until taken.
    blank: Option<usize>,
}

impl<R: BufRead> IoSource<R> {
    /// A source over `reader`.
    pub fn new(reader: R, indent_size: usize, strict: bool) -> Self {
        IoSource {
            reader,
            strict,
            indent: Indent::new(indent_size),
            number: 0,
            offset: 0,
            eof: false,
            current: None,
            peeked: None,
            spare: Vec::new(),
            blank: None,
        }
    }

    /// Reads physical lines until a content line or the end of input.
    fn fetch(&mut self) -> Result<Option<StoredLine>> {
        loop {
            if self.eof {
                return Ok(None);
            }
            let mut buf = std::mem::take(&mut self.spare);
            buf.clear();
            let n = self.reader.read_until(b'\n', &mut buf)?;
            if n == 0 {
                self.eof = true;
                self.spare = buf;
                return Ok(None);
            }
            let line_start = self.offset;
            self.offset += n;
            self.number += 1;
            if buf.last() == Some(&b'\n') {
                buf.pop();
            } else {
                self.eof = true;
            }
            let text = line_text(buf, line_start, self.number, self.strict)?;
            let text = match store_line(text, self.number, self.indent, self.strict)? {
                Stored::Content(line) => return Ok(Some(line)),
                Stored::Blank(text, n) => {
                    self.blank.get_or_insert(n);
                    text
                }
                Stored::Comment(text) => text,
            };
            let mut bytes = text.into_bytes();
            bytes.clear();
            self.spare = bytes;
        }
    }
}

/// A physical line's bytes (without its `\n`; it starts at byte `line_start` of the
/// input and is line `number`) as text: strict mode rejects invalid UTF-8 as
/// [`text_from_bytes`](crate::decode::text_from_bytes) does, non-strict mode replaces
/// it with U+FFFD.
pub(super) fn line_text(
    buf: Vec<u8>,
    line_start: usize,
    number: usize,
    strict: bool,
) -> Result<String> {
    match String::from_utf8(buf) {
        Ok(s) => Ok(s),
        Err(e) => {
            let valid = e.utf8_error().valid_up_to();
            let bytes = e.into_bytes();
            if !strict {
                return Ok(String::from_utf8_lossy(&bytes).into_owned());
            }
            let off = line_start + valid;
            let prefix = String::from_utf8_lossy(&bytes[..valid]);
            let shown = String::from_utf8_lossy(&bytes);
            Err(
                Error::new(ErrorKind::Utf8, format!("Invalid UTF-8 at byte {off}"))
                    .at(number, prefix.chars().count() + 1, &shown)
                    .with_byte_offset(off),
            )
        }
    }
}

/// A physical line classified by the scanner, its text kept.
pub(super) enum Stored {
    /// A content line.
    Content(StoredLine),
    /// A blank line (its text, for reuse, and its number).
    Blank(String, usize),
    /// A comment line (its text, for reuse).
    Comment(String),
}

/// Classifies the physical line `text` (line `number`) with the scanner's rules.
pub(super) fn store_line(
    text: String,
    number: usize,
    indent: Indent,
    strict: bool,
) -> Result<Stored> {
    let line = match classify(&text, number, indent, strict)? {
        LineKind::Comment => return Ok(Stored::Comment(text)),
        LineKind::Blank(n) => return Ok(Stored::Blank(text, n)),
        LineKind::Content(line) => line,
    };
    let raw_start = offset_in(&text, line.raw);
    let content_start = offset_in(&text, line.content);
    let stored = StoredLine {
        raw: raw_start..raw_start + line.raw.len(),
        content: content_start..content_start + line.content.len(),
        depth: line.depth,
        number,
        text: String::new(),
    };
    Ok(Stored::Content(StoredLine { text, ..stored }))
}

impl<R: BufRead> LineInput for IoSource<R> {
    /// Fetches the next line if it was not fetched yet.
    fn fill(&mut self) -> Result<()> {
        if self.peeked.is_none() {
            let line = self.fetch()?;
            self.peeked = Some(line);
        }
        Ok(())
    }

    /// The peeked line (call [`LineSource::fill`] first).
    fn peeked(&self) -> Option<Line<'_>> {
        self.peeked
            .as_ref()
            .and_then(Option::as_ref)
            .map(StoredLine::view)
    }

    /// The last consumed line.
    fn current(&self) -> Option<Line<'_>> {
        self.current.as_ref().map(StoredLine::view)
    }

    /// The first blank line skipped since the last call, if any.
    fn take_blank(&mut self) -> Option<usize> {
        self.blank.take()
    }

    /// Consumes the peeked line (fetching it first if needed); false at the end.
    fn consume(&mut self) -> Result<bool> {
        self.fill()?;
        match self.peeked.take().flatten() {
            Some(line) => {
                if let Some(old) = self.current.replace(line) {
                    let mut bytes = old.text.into_bytes();
                    bytes.clear();
                    if bytes.capacity() > self.spare.capacity() {
                        self.spare = bytes;
                    }
                }
                Ok(true)
            }
            None => {
                self.peeked = Some(None);
                Ok(false)
            }
        }
    }
}
