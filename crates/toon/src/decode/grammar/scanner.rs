//! The lexical pass: classifies each physical line the inputs (`decode/input/`) read.
//!
//! Per line, in order (spec §5.1, §12 and the 4.4 behaviour): strip a BOM at the start
//! of line 1, drop one trailing CR, take the leading run of spaces and tabs as
//! indentation (in strict mode a tab there is an error), strip trailing spaces, drop
//! the line if spaces alone precede a `#`, and record it as blank if nothing is left.

use crate::{Error, Result};

/// One non-blank, non-comment line.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Line<'a> {
    /// The line after BOM and CR removal, indentation included.
    pub raw: &'a str,
    /// The content after the indentation, trailing spaces removed.
    pub content: &'a str,
    /// The nesting depth computed from the indentation.
    pub depth: usize,
    /// The 1-based line number.
    pub number: usize,
}

impl<'a> Line<'a> {
    /// The same line with its content narrowed to `content`, a sub-slice of it.
    pub fn with_content(self, content: &'a str) -> Line<'a> {
        Line { content, ..self }
    }

    /// The 1-based column of the content's first character, as [`Line::column_in`]
    /// finds it: everything before the content is indentation (spaces and tabs) or, for
    /// a list item's content, `- ` and spaces, so every byte before it is one column.
    #[inline]
    pub fn content_column(&self) -> usize {
        let column =
            (self.content.as_ptr() as usize).saturating_sub(self.raw.as_ptr() as usize) + 1;
        debug_assert_eq!(column, self.column_in(self.content, 0), "{self:?}");
        column
    }

    /// The 1-based column (in characters) of byte `offset` within the sub-slice `part`
    /// of this line's raw text.
    pub fn column_in(&self, part: &str, offset: usize) -> usize {
        let base = (part.as_ptr() as usize).saturating_sub(self.raw.as_ptr() as usize);
        let end = (base + offset).min(self.raw.len());
        let mut end = end;
        while end > 0 && !self.raw.is_char_boundary(end) {
            end -= 1;
        }
        let before = &self.raw[..end];
        if before.is_ascii() {
            return end + 1;
        }
        before.chars().count() + 1
    }

    /// A syntax error at byte `offset` of the sub-slice `part` of this line.
    pub fn error_at(&self, part: &str, offset: usize, message: impl Into<String>) -> Error {
        Error::syntax(message, self.number, self.column_in(part, offset), self.raw)
    }

    /// A syntax error at the start of this line's content.
    pub fn error(&self, message: impl Into<String>) -> Error {
        self.error_at(self.content, 0, message)
    }
}

/// The indent size (spaces per nesting level, at least 1), with what turns a count of
/// spaces into a depth without a division when the size is a power of two (2, the
/// default, above all).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Indent {
    size: usize,
    /// `log2(size)` when the size is a power of two, else `u32::MAX`.
    shift: u32,
}

impl Indent {
    /// The indent of `size` spaces a level (0 is read as 1; the state machine rejects
    /// an indent size of 0 before reading a line).
    pub fn new(size: usize) -> Indent {
        let size = size.max(1);
        let shift = if size.is_power_of_two() {
            size.trailing_zeros()
        } else {
            u32::MAX
        };
        Indent { size, shift }
    }

    /// The spaces a level.
    pub fn size(self) -> usize {
        self.size
    }

    /// The depth of `spaces` spaces of indentation (rounded down).
    #[inline(always)]
    pub fn depth(self, spaces: usize) -> usize {
        if self.shift != u32::MAX {
            spaces >> self.shift
        } else {
            spaces / self.size
        }
    }

    /// Whether `spaces` is a whole number of levels.
    #[inline(always)]
    pub fn is_aligned(self, spaces: usize) -> bool {
        if self.shift != u32::MAX {
            spaces & (self.size - 1) == 0
        } else {
            spaces.is_multiple_of(self.size)
        }
    }
}

/// What one raw line is, as [`classify`] finds it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum LineKind<'a> {
    /// A comment line (spaces alone precede a `#`): skipped.
    Comment,
    /// A blank line, with its 1-based number.
    Blank(usize),
    /// A line with content.
    Content(Line<'a>),
}

/// Classifies one raw line (without its `\n`), numbered `number` (1-based): strips a
/// BOM on line 1 and one trailing CR, computes the depth, and applies the strict-mode
/// indentation checks. Shared by both line inputs (`decode/input/`).
#[inline]
pub(crate) fn classify(
    raw: &str,
    number: usize,
    indent: Indent,
    strict: bool,
) -> Result<LineKind<'_>> {
    // The commonest line first: indented by spaces, its content starting with neither a
    // tab nor `#` and ending in neither a space nor a CR (and no BOM: not line 1).
    if number != 1 {
        let bytes = raw.as_bytes();
        let spaces = leading_spaces(bytes);
        if let (Some(&first), Some(&last)) = (bytes.get(spaces), bytes.last())
            && first != b'\t'
            && first != b'#'
            && last != b' '
            && last != b'\r'
            && (!strict || indent.is_aligned(spaces))
        {
            return Ok(LineKind::Content(Line {
                raw,
                content: raw.get(spaces..).unwrap_or(raw),
                depth: indent.depth(spaces),
                number,
            }));
        }
    }
    classify_other(raw, number, indent, strict)
}

/// [`classify`] of the other lines: line 1, blank and comment lines, tabs, trailing
/// spaces or CR, misaligned indentation (`unit`: the indent, as for [`classify`]).
fn classify_other(
    mut raw: &str,
    number: usize,
    unit: Indent,
    strict: bool,
) -> Result<LineKind<'_>> {
    if number == 1 {
        raw = raw.strip_prefix('\u{FEFF}').unwrap_or(raw);
    }
    raw = raw.strip_suffix('\r').unwrap_or(raw);
    let bytes = raw.as_bytes();
    // The common case first: indentation of spaces only.
    let spaces = bytes.iter().take_while(|&&b| b == b' ').count();
    if bytes.get(spaces) != Some(&b'\t') {
        let content = trim_end_spaces(&raw[spaces..]);
        if content.starts_with('#') {
            return Ok(LineKind::Comment);
        }
        if content.is_empty() {
            return Ok(LineKind::Blank(number));
        }
        if strict && !unit.is_aligned(spaces) {
            return Err(misaligned(raw, number, unit.size(), spaces));
        }
        return Ok(LineKind::Content(Line {
            raw,
            content,
            depth: unit.depth(spaces),
            number,
        }));
    }
    let lead = bytes
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    let first_tab = bytes[..lead].iter().position(|&b| b == b'\t');
    let indent = match first_tab {
        Some(t) if strict => t,
        _ => lead,
    };
    let content = raw[indent..].trim_end_matches(' ');
    if first_tab.is_none() && content.starts_with('#') {
        return Ok(LineKind::Comment);
    }
    let tabs = if strict {
        0
    } else {
        bytes[..lead].iter().filter(|&&b| b == b'\t').count()
    };
    let depth = unit.depth(indent - tabs) + tabs;
    if content.is_empty() {
        return Ok(LineKind::Blank(number));
    }
    if strict {
        if first_tab.is_some() {
            return Err(Error::syntax(
                "Tabs are not allowed in indentation in strict mode",
                number,
                indent + 1,
                raw,
            ));
        }
        if !unit.is_aligned(indent) {
            return Err(misaligned(raw, number, unit.size(), indent));
        }
    }
    Ok(LineKind::Content(Line {
        raw,
        content,
        depth,
        number,
    }))
}

/// The number of spaces `b` starts with, eight bytes at a time (indentation of nested
/// data runs to tens of spaces).
#[inline]
fn leading_spaces(b: &[u8]) -> usize {
    const SPACES: u64 = u64::from_le_bytes([b' '; 8]);
    let mut n = 0;
    while let Some(word) = b.get(n..).and_then(<[u8]>::first_chunk::<8>) {
        let other = u64::from_le_bytes(*word) ^ SPACES;
        if other != 0 {
            return n + (other.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + b
        .get(n..)
        .unwrap_or_default()
        .iter()
        .take_while(|&&c| c == b' ')
        .count()
}

/// `s` without trailing spaces (most lines have none).
fn trim_end_spaces(s: &str) -> &str {
    match s.as_bytes().last() {
        Some(b' ') => s.trim_end_matches(' '),
        _ => s,
    }
}

/// The strict-mode error for indentation that is not a multiple of the indent size.
fn misaligned(raw: &str, number: usize, indent_size: usize, indent: usize) -> Error {
    Error::syntax(
        format!("Indentation must be exact multiple of {indent_size}, but found {indent} spaces"),
        number,
        1,
        raw,
    )
}

#[cfg(test)]
mod tests {
    use super::leading_spaces;

    #[test]
    fn leading_spaces_are_counted_at_every_length_and_stop() {
        for len in 0..40 {
            for spaces in 0..=len {
                let mut line = vec![b' '; spaces];
                line.extend(std::iter::repeat_n(b'x', len - spaces));
                assert_eq!(leading_spaces(&line), spaces, "{len} {spaces}");
                if spaces < len {
                    // A tab or any other byte ends the run.
                    line[spaces] = b'\t';
                    assert_eq!(leading_spaces(&line), spaces);
                }
            }
        }
    }
}
