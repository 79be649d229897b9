//! Lines borrowed from a whole text in memory.

use super::LineInput;
use crate::Result;
use crate::decode::grammar::scanner::{Indent, Line, LineKind, classify};

/// The lines of a `&'de str`, with one line of lookahead; every line and token borrows
/// from the text.
pub struct TextSource<'de> {
    /// The text after the last line fetched (`None` past the end).
    rest: Option<&'de str>,
    newline: NewlineFinder,
    strict: bool,
    indent: Indent,
    /// Physical lines fetched so far.
    number: usize,
    /// The last consumed line.
    current: Option<Line<'de>>,
    /// The next line, if `filled` (`None`: the end of input).
    peeked: Option<Line<'de>>,
    /// `peeked` holds the next line (or the end): it was fetched and not consumed.
    filled: bool,
    /// The first blank line skipped by the latest fetch, until taken.
    blank: Option<usize>,
}

impl<'de> TextSource<'de> {
    /// A source over `text`.
    pub fn new(text: &'de str, indent_size: usize, strict: bool) -> Self {
        TextSource {
            rest: Some(text),
            newline: NewlineFinder::new(),
            strict,
            indent: Indent::new(indent_size),
            number: 0,
            current: None,
            peeked: None,
            filled: false,
            blank: None,
        }
    }

    /// The next physical line, without its `\n`.
    #[inline]
    fn raw_line(&mut self) -> Option<&'de str> {
        let rest = self.rest?;
        match self.newline.find(rest.as_bytes()) {
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

    /// Physical lines until a content line or the end of input, into `peeked`: the
    /// commonest case (the next physical line is content) inline, every other through
    /// [`TextSource::fetch_other`].
    #[inline]
    fn fetch(&mut self) -> Result<()> {
        self.filled = true;
        let Some(raw) = self.raw_line() else {
            self.peeked = None;
            return Ok(());
        };
        self.number += 1;
        match classify(raw, self.number, self.indent, self.strict) {
            Ok(LineKind::Content(line)) => {
                self.peeked = Some(line);
                Ok(())
            }
            other => self.fetch_other(other),
        }
    }

    /// [`TextSource::fetch`] after a physical line that is not content (`kind`, as
    /// classified): the following lines until a content line or the end of input.
    #[inline(never)]
    fn fetch_other(&mut self, mut kind: Result<LineKind<'de>>) -> Result<()> {
        loop {
            match kind {
                Ok(LineKind::Comment) => {}
                Ok(LineKind::Blank(n)) => {
                    self.blank.get_or_insert(n);
                }
                Ok(LineKind::Content(line)) => {
                    self.peeked = Some(line);
                    return Ok(());
                }
                Err(e) => {
                    self.filled = false;
                    return Err(e);
                }
            }
            let Some(raw) = self.raw_line() else {
                self.peeked = None;
                return Ok(());
            };
            self.number += 1;
            kind = classify(raw, self.number, self.indent, self.strict);
        }
    }
}

/// Finds the next `\n`. On x86-64 with AVX2 (detected once per source), memchr's AVX2
/// searcher is called directly: `memchr::memchr` picks it too, but through a function
/// pointer and two more calls for every line.
#[derive(Clone, Copy)]
struct NewlineFinder {
    #[cfg(target_arch = "x86_64")]
    avx2: Option<memchr::arch::x86_64::avx2::memchr::One>,
}

impl NewlineFinder {
    fn new() -> Self {
        NewlineFinder {
            #[cfg(target_arch = "x86_64")]
            avx2: memchr::arch::x86_64::avx2::memchr::One::new(b'\n'),
        }
    }

    /// The offset of the first `\n` in `haystack`.
    #[inline(always)]
    fn find(&self, haystack: &[u8]) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        if let Some(one) = &self.avx2 {
            return one.find(haystack);
        }
        memchr::memchr(b'\n', haystack)
    }
}

// Inlined across crates: the state machine is generic, so it is compiled where it is
// used, and these are called once or twice per line.
impl LineInput for TextSource<'_> {
    #[inline]
    fn fill(&mut self) -> Result<()> {
        if !self.filled {
            self.fetch()?;
        }
        Ok(())
    }

    #[inline]
    fn peeked(&self) -> Option<Line<'_>> {
        self.peeked
    }

    #[inline]
    fn current(&self) -> Option<Line<'_>> {
        self.current
    }

    #[inline]
    fn take_blank(&mut self) -> Option<usize> {
        self.blank.take()
    }

    #[inline]
    fn consume(&mut self) -> Result<bool> {
        self.fill()?;
        match self.peeked.take() {
            Some(line) => {
                self.current = Some(line);
                self.filled = false;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    #[inline(always)]
    fn advance(&mut self) -> Result<Option<Line<'_>>> {
        self.fill()?;
        match self.peeked.take() {
            Some(line) => {
                self.current = Some(line);
                self.filled = false;
                Ok(Some(line))
            }
            None => Ok(None),
        }
    }
}
