//! Splitting a line at row depth of a table into cells (spec §9.3, §11.2).
//!
//! A line without quotes, which most rows are, is read eight bytes at a time: each word
//! gives the places of its delimiters, colons and quotes as bit masks, and a cell is cut
//! at each delimiter bit. No branch asks what an ordinary byte is or where in the word a
//! delimiter lies. A line with a quote goes to the byte-by-byte splitter, which skips
//! quoted parts.

use super::words::equal_bytes;
use super::{skip_ordinary, skip_quoted, trim_spaces};

/// Splits a line at row depth of a table into cells, if it is a row (spec §9.3): a line
/// with no unquoted colon, or whose first unquoted delimiter comes before its first
/// unquoted colon. Returns `false` (a key-value line, ending the rows) otherwise.
pub(crate) fn split_row<'a>(line: &'a str, delim: u8, out: &mut Vec<&'a str>) -> bool {
    out.clear();
    let mut at = Place::default();
    if let Some(is_row) = split_by_words(line, delim, out, &mut at) {
        return is_row;
    }
    split_by_bytes(line, delim, out, at)
}

/// How far a split has read: the next byte to look at, the start of the cell it is in,
/// and whether a delimiter came before.
#[derive(Default, Clone, Copy)]
struct Place {
    next: usize,
    cell: usize,
    seen_delim: bool,
}

/// [`split_row`] of a line eight bytes at a time, while no quote comes: `None` at the
/// first word with a quote (or at once, on a line shorter than eight bytes), `at` then
/// where the byte-by-byte split goes on. The line's last word is its last eight bytes,
/// the ones already read shifted out.
#[inline]
fn split_by_words<'a>(
    line: &'a str,
    delim: u8,
    out: &mut Vec<&'a str>,
    at: &mut Place,
) -> Option<bool> {
    let b = line.as_bytes();
    let last = b.len().checked_sub(8)?;
    let Place {
        next: mut i,
        cell: mut start,
        mut seen_delim,
    } = *at;
    while i < b.len() {
        let word = match b.get(i..i + 8) {
            Some(w) => u64::from_le_bytes(w.try_into().unwrap_or([0; 8])),
            None => {
                let w = b.get(last..).and_then(|w| w.try_into().ok());
                // Zero bytes shifted in match none of the bytes looked for.
                u64::from_le_bytes(w.unwrap_or([0; 8])) >> (8 * (i - last))
            }
        };
        if equal_bytes(word, b'"') != 0 {
            *at = Place {
                next: i,
                cell: start,
                seen_delim,
            };
            return None;
        }
        let mut delims = equal_bytes(word, delim);
        let colons = equal_bytes(word, b':');
        if colons != 0 && !seen_delim && colons.trailing_zeros() < delims.trailing_zeros() {
            // An unquoted colon before any delimiter: a key-value line.
            return Some(false);
        }
        seen_delim |= delims != 0;
        while delims != 0 {
            let end = i + (delims.trailing_zeros() / 8) as usize;
            // Both ends are next to an ASCII delimiter, so on char boundaries.
            out.push(trim_spaces(line.get(start..end).unwrap_or("")));
            start = end + 1;
            delims &= delims - 1;
        }
        i += 8;
    }
    out.push(trim_spaces(line.get(start..).unwrap_or("")));
    Some(true)
}

/// [`split_row`] of any line from `at`, quotes included: ordinary bytes skipped by
/// table, quoted parts with `memchr2`. Kept out of line, so that [`split_row`]'s word
/// loop does not pay for its registers.
#[inline(never)]
fn split_by_bytes<'a>(line: &'a str, delim: u8, out: &mut Vec<&'a str>, at: Place) -> bool {
    let b = line.as_bytes();
    let Place {
        next: mut i,
        cell: mut start,
        mut seen_delim,
    } = at;
    // Skip ordinary bytes; stop at `"`, the delimiter and `:`. Inside quotes only `"`
    // and `\\` matter (skip_quoted).
    loop {
        i = skip_ordinary(b, i);
        if i >= b.len() {
            break;
        }
        match b[i] {
            b'"' => match skip_quoted(b, i) {
                Some(end) => i = end + 1,
                None => break,
            },
            b':' if !seen_delim => return false,
            b':' => i += 1,
            c if c != delim => i += 1,
            _ => {
                out.push(trim_spaces(&line[start..i]));
                start = i + 1;
                seen_delim = true;
                i += 1;
            }
        }
    }
    out.push(trim_spaces(&line[start..]));
    true
}
