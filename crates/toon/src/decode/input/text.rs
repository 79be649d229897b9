//! Lines borrowed from a whole text in memory.

use super::LineInput;
use crate::Result;
use crate::decode::grammar::scanner::{Line, LineKind, classify};

/// The lines of a `&'de str`, with one line of lookahead; every line and token borrows
/// from the text.
pub struct TextSource<'de> {
    /// The text after the last line fetched (`None` past the end).
    rest: Option<&'de str>,
    strict: bool,
    indent_size: usize,
    /// Physical lines fetched so far.
    number: usize,
    /// The last consumed line.
    current: Option<Line<'de>>,
    /// The next line, if fetched (`Some(None)`: the end of input).
    peeked: Option<Option<Line<'de>>>,
    /// The first blank line skipped by the latest fetch, until taken.
    blank: Option<usize>,
}

impl<'de> TextSource<'de> {
    /// A source over `text`.
    pub fn new(text: &'de str, indent_size: usize, strict: bool) -> Self {
        TextSource {
            rest: Some(text),
            strict,
            indent_size: indent_size.max(1),
            number: 0,
            current: None,
            peeked: None,
            blank: None,
        }
    }

    /// The next physical line, without its `\n`.
    fn raw_line(&mut self) -> Option<&'de str> {
        let rest = self.rest?;
        match memchr::memchr(b'\n', rest.as_bytes()) {
            Some(i) => {
                self.rest = Some(&rest[i + 1..]);
                Some(&rest[..i])
            }
            None => {
                self.rest = None;
                Some(rest)
            }
        }
    }

    /// Physical lines until a content line or the end of input.
    fn fetch(&mut self) -> Result<Option<Line<'de>>> {
        while let Some(raw) = self.raw_line() {
            self.number += 1;
            match classify(raw, self.number, self.indent_size, self.strict)? {
                LineKind::Comment => {}
                LineKind::Blank(n) => {
                    self.blank.get_or_insert(n);
                }
                LineKind::Content(line) => return Ok(Some(line)),
            }
        }
        Ok(None)
    }
}

impl LineInput for TextSource<'_> {
    fn fill(&mut self) -> Result<()> {
        if self.peeked.is_none() {
            let line = self.fetch()?;
            self.peeked = Some(line);
        }
        Ok(())
    }

    fn peeked(&self) -> Option<Line<'_>> {
        self.peeked.flatten()
    }

    fn current(&self) -> Option<Line<'_>> {
        self.current
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
