//! The output buffer of the encoder: one `String`, lines separated by LF with no
//! trailing newline, indentation copied from a precomputed run of spaces, and optional
//! draining into an `io::Write` so large documents stream out in chunks.

use std::io;
use std::num::NonZeroUsize;

/// Once the buffer holds this many bytes, it is handed to the sink (if any).
const FLUSH_AT: usize = 64 * 1024;

/// An LF and 31 spaces: the start of every line indented less than 32 spaces.
const SHORT_LINE_START: &str = "\n                               ";

/// A position in the output to return to (see [`LineWriter::mark`]): the length of
/// the output shifted left by two, whether a line had started in bit 1, and bit 0
/// set (one word, so that an `Option<Mark>` is one word too).
#[must_use]
pub struct Mark(NonZeroUsize);

impl Mark {
    fn new(len: usize, started: bool) -> Mark {
        Mark(NonZeroUsize::MIN | len << 2 | usize::from(started) << 1)
    }

    fn len(&self) -> usize {
        self.0.get() >> 2
    }

    fn started(&self) -> bool {
        self.0.get() & 2 != 0
    }
}

/// Where the encoder appends its text.
pub struct LineWriter<'w> {
    /// Text not yet handed to the sink (all of it when there is no sink).
    pub out: String,
    sink: Option<&'w mut dyn io::Write>,
    /// The first write error of the sink; later output is discarded.
    io_error: Option<io::Error>,
    /// True once any line has started, so the next one needs a separating LF.
    started: bool,
    /// Open [`Mark`]s; while any is open, nothing is handed to the sink.
    held: usize,
    /// True once any text has been handed to the sink.
    pub(crate) flushed: bool,
    indent_size: usize,
    /// The length at which a line start hands the buffer to the sink: [`FLUSH_AT`]
    /// with a sink, never without one.
    flush_at: usize,
    /// An LF followed by spaces, enough for the deepest line so far: a line's start
    /// is one slice of it.
    newline_indent: String,
}

impl<'w> LineWriter<'w> {
    /// A writer that keeps everything in memory.
    pub fn new(indent_size: usize) -> LineWriter<'static> {
        LineWriter {
            out: String::new(),
            sink: None,
            io_error: None,
            started: false,
            held: 0,
            flushed: false,
            indent_size,
            flush_at: usize::MAX,
            newline_indent: String::from("\n"),
        }
    }

    /// A writer that drains into `sink` in chunks of about [`FLUSH_AT`] bytes.
    pub(crate) fn with_sink(indent_size: usize, sink: &'w mut dyn io::Write) -> LineWriter<'w> {
        LineWriter {
            out: String::with_capacity(FLUSH_AT + FLUSH_AT / 4),
            sink: Some(sink),
            io_error: None,
            started: false,
            held: 0,
            flushed: false,
            indent_size,
            flush_at: FLUSH_AT,
            newline_indent: String::from("\n"),
        }
    }

    /// Whether the text drains into a sink as it is written (else it is all kept).
    #[inline]
    pub(crate) fn has_sink(&self) -> bool {
        self.sink.is_some()
    }

    /// Starts a new line at `depth` (LF unless it is the first line, then indentation).
    #[inline]
    pub fn line(&mut self, depth: usize) {
        let n = depth * self.indent_size;
        if self.newline_indent.len() <= n {
            self.grow_indent(n);
        }
        if self.started {
            if self.out.len() >= self.flush_at && self.held == 0 {
                self.flush_to_sink();
            }
            if n < SHORT_LINE_START.len() {
                // A copy of constant length is a few stores; a slice of variable length
                // is a call to `memcpy`. Copy the whole run, keep the LF and `n` spaces.
                let end = self.out.len() + 1 + n;
                self.out.push_str(SHORT_LINE_START);
                self.out.truncate(end);
            } else {
                self.out.push_str(&self.newline_indent[..=n]);
            }
        } else {
            self.started = true;
            self.out.push_str(&self.newline_indent[1..=n]);
        }
    }

    /// Makes [`newline_indent`](Self::newline_indent) hold at least `n` spaces.
    #[cold]
    fn grow_indent(&mut self, n: usize) {
        let spaces = n.max(64).max(self.newline_indent.len() * 2);
        self.newline_indent = format!("\n{}", " ".repeat(spaces));
    }

    /// Starts a list-item line at `depth`: indentation then `- `.
    #[inline]
    pub fn item(&mut self, depth: usize) {
        self.line(depth);
        self.out.push_str("- ");
    }

    /// Writes the line of an empty object that is a list item at `depth`: a bare `-`.
    pub fn empty_item(&mut self, depth: usize) {
        self.line(depth);
        self.out.push('-');
    }

    /// Remembers the current end of the output so it can be taken back with
    /// [`rewind`](Self::rewind); until the mark is rewound or released, the buffer is
    /// not drained.
    pub fn mark(&mut self) -> Mark {
        self.held += 1;
        Mark::new(self.out.len(), self.started)
    }

    /// Drops everything written since `mark`.
    pub fn rewind(&mut self, mark: Mark) {
        self.out.truncate(mark.len());
        self.started = mark.started();
        self.held -= 1;
    }

    /// Keeps everything written since `mark`.
    pub fn release(&mut self, mark: Mark) {
        let _ = mark;
        self.held -= 1;
    }

    fn flush_to_sink(&mut self) {
        if let Some(sink) = self.sink.as_mut()
            && self.io_error.is_none()
            && let Err(e) = sink.write_all(self.out.as_bytes())
        {
            self.io_error = Some(e);
        }
        self.flushed |= self.sink.is_some() && !self.out.is_empty();
        self.out.clear();
    }

    /// Hands the rest to the sink and reports the first write error, if any.
    pub(crate) fn finish_sink(mut self) -> io::Result<()> {
        self.flush_to_sink();
        match self.io_error.take() {
            Some(e) => Err(e),
            None => match self.sink.as_mut() {
                Some(sink) => sink.flush(),
                None => Ok(()),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes lines at depths up to past the constant run of spaces (and past the
    /// first grown run), with marks rewound over more than [`FLUSH_AT`] bytes;
    /// returns the text expected.
    fn write_lines(w: &mut LineWriter<'_>, indent: usize) -> String {
        let mut expected = String::new();
        for round in 0..4000 {
            let depth = (round * 7) % 45;
            w.line(depth);
            w.out.push_str("k: v");
            if round > 0 {
                expected.push('\n');
            }
            expected.push_str(&" ".repeat(depth * indent));
            expected.push_str("k: v");
            if round % 500 == 0 {
                // Text under an open mark is never handed to the sink.
                let mark = w.mark();
                w.line(depth + 1);
                w.out.push_str(&"x".repeat(FLUSH_AT));
                w.line(depth);
                w.line(40);
                w.rewind(mark);
            }
        }
        expected
    }

    #[test]
    fn lines_start_at_every_depth_with_and_without_a_sink() {
        for indent in [1, 2, 4] {
            let mut kept = LineWriter::new(indent);
            let expected = write_lines(&mut kept, indent);
            assert_eq!(kept.out, expected);
            let mut sink = Vec::new();
            let mut drained = LineWriter::with_sink(indent, &mut sink);
            assert_eq!(write_lines(&mut drained, indent), expected);
            assert!(drained.flushed, "{indent}");
            drained.finish_sink().expect("a Vec takes every write");
            assert_eq!(String::from_utf8(sink).expect("UTF-8"), expected);
        }
    }
}
