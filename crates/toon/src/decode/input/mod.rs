//! The inputs of the decoding state machine: the lines of a document, classified by the
//! scanner (spec §5.1, §12), with one line of lookahead.
//!
//! - [`TextSource`] borrows every line from a whole `&str` (nothing is copied).
//! - [`IoSource`] reads an [`io::BufRead`](std::io::BufRead) one line at a time into
//!   reused buffers, checking each line's UTF-8 as it arrives.
//! - [`PushSource`] queues the lines of chunks pushed in by the caller (the push
//!   decoder), checked and classified as [`IoSource`] does it.

mod io;
mod push;
mod text;

pub use io::IoSource;
pub use push::PushSource;
pub use text::TextSource;

use crate::Result;
use crate::decode::grammar::scanner::Line;

/// Content lines (blank and comment lines skipped) with one line of lookahead: the last
/// consumed line stays readable until the next one is consumed.
pub(crate) trait LineInput {
    /// Fetches the next line if it was not fetched yet.
    fn fill(&mut self) -> Result<()>;
    /// The peeked line (call [`LineInput::fill`] first).
    fn peeked(&self) -> Option<Line<'_>>;
    /// The last consumed line.
    fn current(&self) -> Option<Line<'_>>;
    /// Both lines at once: the last consumed one and the peeked one.
    fn both(&self) -> (Option<Line<'_>>, Option<Line<'_>>) {
        (self.current(), self.peeked())
    }
    /// The first blank line skipped since the last call, if any.
    fn take_blank(&mut self) -> Option<usize>;
    /// Consumes the peeked line (fetching it first if needed); false at the end.
    fn consume(&mut self) -> Result<bool>;
    /// [`LineInput::consume`], returning the line consumed (now the current line);
    /// `None` at the end.
    #[inline]
    fn advance(&mut self) -> Result<Option<Line<'_>>> {
        Ok(if self.consume()? {
            self.current()
        } else {
            None
        })
    }
}
