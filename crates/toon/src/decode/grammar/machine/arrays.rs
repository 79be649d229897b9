//! The array frames' steps: expanded lists (spec §9.4), tabular rows (§9.3) and keyed
//! tables, with their strict count and blank-line checks (§14).

use std::borrow::Cow;

use super::{State, at_error, recycle};
use crate::decode::grammar::frames::{Frame, ObjectFrame};
use crate::decode::grammar::scanner::Line;
use crate::decode::grammar::sink::Sink;
use crate::decode::grammar::slot::{
    At, Slot, count_message, is_data_row, list_item, over_indented, tok,
};
use crate::decode::grammar::tokens::{
    ItemStart, PlainKey, find_unquoted, item_start, parse_key, plain_key_colon, split_delimited,
    split_row, trim_after_colon, trim_spaces,
};
use crate::decode::input::LineInput;
use crate::{Error, ErrorKind, Result};

impl<S: Sink> State<S> {
    pub(super) fn step_list<I: LineInput>(&mut self, src: &mut I) -> Result<()> {
        let current = src.current().map_or(0, |l| l.number);
        let Some(Frame::List(f)) = self.stack.last_mut() else {
            return Ok(());
        };
        if f.in_item {
            f.in_item = false;
            f.count += 1;
            f.span.end = current;
        }
        let (length, base_depth, item_depth, count, head) =
            (f.length, f.base_depth, f.item_depth, f.count, f.head);
        let strict = self.ctx.strict;
        let more = if strict && count >= length {
            false
        } else {
            match self.peek(src)? {
                Some(line) if line.depth > base_depth => {
                    if line.depth != item_depth {
                        return Err(over_indented(&line, item_depth));
                    }
                    let is_item = line.content.starts_with("- ") || line.content == "-";
                    if is_item && let Some(Frame::List(f)) = self.stack.last_mut() {
                        f.span.start.get_or_insert(line.number);
                    }
                    is_item
                }
                _ => false,
            }
        };
        if !more {
            if strict {
                if count != length {
                    return Err(last_error(
                        src,
                        head,
                        count,
                        count_message(length, "list-form items", count),
                    ));
                }
                self.check_blank_span("list-form array")?;
                if let Some(next) = self.peek(src)?
                    && next.depth == item_depth
                    && next.content.starts_with("- ")
                {
                    return Err(
                        next.error(format!("Expected {length} list-form items, but found more"))
                    );
                }
            }
            self.close(false);
            return Ok(());
        }
        src.consume()?;
        // `- key: primitive`: an object whose first field is on the item line.
        if let Some(line) = src.current()
            && let Some(ItemStart::Rest(after)) = item_start(line.content)
            && let PlainKey::Colon(colon) = plain_key_colon(after)
        {
            let rest = trim_after_colon(&after[colon + 1..]);
            if !rest.is_empty() && rest != "[]" {
                let item = line.with_content(after);
                let key = trim_spaces(&after[..colon]);
                if let Some(Frame::List(f)) = self.stack.last_mut() {
                    f.in_item = true;
                }
                self.enter_line(&item)?;
                if let Some(seen) = self.open_keys() {
                    seen.insert(key);
                }
                self.out.start_object();
                self.stack.push(Frame::Object(ObjectFrame {
                    min_depth: item_depth + 1,
                    depth: Some(item_depth + 1),
                }));
                return self.out.field(&item, key, rest);
            }
        }
        let slot = match src.current() {
            Some(line) => list_item(self.ctx, &mut self.field_lists, &line, item_depth)?,
            None => Slot::EmptyObject,
        };
        if let Some(Frame::List(f)) = self.stack.last_mut() {
            f.in_item = true;
        }
        self.enter_slot(src, slot)
    }

    /// The strict checks at the end of a table: `(count, length)` rows read and
    /// declared must agree (an error naming `items`), and no blank line inside (`what`).
    fn end_checks<I: LineInput>(
        &mut self,
        src: &I,
        head: At,
        (count, length): (usize, usize),
        items: &str,
        what: &str,
    ) -> Result<()> {
        if count != length {
            return Err(last_error(
                src,
                head,
                count,
                count_message(length, items, count),
            ));
        }
        self.check_blank_span(what)
    }

    fn check_blank_span(&mut self, what: &str) -> Result<()> {
        if let Some(span) = self.stack.last_mut().and_then(Frame::span_mut)
            && let Some(blank) = span.blank_inside()
        {
            return Err(Error::syntax(
                format!("Blank lines inside {what} are not allowed in strict mode"),
                blank,
                1,
                "",
            ));
        }
        Ok(())
    }

    pub(super) fn step_tabular<I: LineInput>(&mut self, src: &mut I) -> Result<()> {
        let Some(Frame::Tabular(f)) = self.stack.last() else {
            return Ok(());
        };
        let (length, base_depth, row_depth, count, head, delim) = (
            f.header.length,
            f.base_depth,
            f.row_depth,
            f.count,
            f.head,
            f.header.delimiter,
        );
        let strict = self.ctx.strict;
        if !(strict && count >= length) {
            let mut cells = std::mem::take(&mut self.cells);
            let row = match self.peek(src)? {
                Some(line) if line.depth > base_depth => {
                    if line.depth != row_depth {
                        return Err(over_indented(&line, row_depth));
                    }
                    if split_row(line.content, delim, &mut cells) {
                        self.row(&line, &cells)?;
                        true
                    } else {
                        false
                    }
                }
                _ => false,
            };
            self.cells = recycle(cells);
            if row {
                src.consume()?;
                return Ok(());
            }
        }
        if strict {
            self.end_checks(src, head, (count, length), "tabular rows", "tabular array")?;
            if let Some(next) = self.peek(src)?
                && next.depth == row_depth
                && !next.content.starts_with("- ")
                && is_data_row(next.content, delim)
            {
                return Err(next.error(format!("Expected {length} tabular rows, but found more")));
            }
        }
        self.close(false);
        Ok(())
    }

    /// One table row on `line`, split into `cells`.
    fn row(&mut self, line: &Line<'_>, cells: &[&str]) -> Result<()> {
        let Some(Frame::Tabular(f)) = self.stack.last_mut() else {
            return Ok(());
        };
        f.span.start.get_or_insert(line.number);
        f.span.end = line.number;
        if cells.len() != f.leaves {
            return Err(line.error(count_message(f.leaves, "tabular row values", cells.len())));
        }
        f.count += 1;
        let fields = f.header.fields.as_deref().unwrap_or(&[]);
        self.out.row(&mut f.rows, fields, cells, line)
    }

    pub(super) fn step_keyed<I: LineInput>(&mut self, src: &mut I) -> Result<()> {
        let Some(Frame::Keyed(f)) = self.stack.last() else {
            return Ok(());
        };
        let (length, base_depth, entry_depth, count, head, delim) = (
            f.header.length,
            f.base_depth,
            f.entry_depth,
            f.count,
            f.head,
            f.header.delimiter,
        );
        let strict = self.ctx.strict;
        let mut cells = std::mem::take(&mut self.cells);
        let entry = match self.peek(src)? {
            Some(line) if line.depth > base_depth => {
                let r = self.entry(&line, entry_depth, delim, &mut cells);
                self.cells = recycle(cells);
                r?;
                true
            }
            _ => {
                self.cells = recycle(cells);
                false
            }
        };
        if entry {
            src.consume()?;
            return Ok(());
        }
        if strict {
            self.end_checks(
                src,
                head,
                (count, length),
                "keyed entries",
                "keyed tabular object",
            )?;
        }
        self.close(true);
        Ok(())
    }

    /// One keyed-table entry on `line`.
    fn entry<'l>(
        &mut self,
        line: &Line<'l>,
        entry_depth: usize,
        delim: u8,
        cells: &mut Vec<&'l str>,
    ) -> Result<()> {
        if line.depth != entry_depth {
            return Err(over_indented(line, entry_depth));
        }
        const NOT_AN_ENTRY: &str = "Expected entry row inside keyed tabular object";
        // A plain key's colon is found in one scan; quoted keys take the general path.
        let (key, key_end) = match plain_key_colon(line.content) {
            PlainKey::Colon(colon) => (
                Cow::Borrowed(trim_spaces(&line.content[..colon])),
                colon + 1,
            ),
            PlainKey::Nothing => return Err(line.error(NOT_AN_ENTRY)),
            // A line without an unquoted colon is not an entry; one with a key that
            // does not parse is a malformed entry (the colon is looked for only then).
            PlainKey::Other => match parse_key(line.content) {
                Ok(key) => key,
                Err(_) if find_unquoted(line.content, b':', 0).is_none() => {
                    return Err(line.error(NOT_AN_ENTRY));
                }
                Err(e) => return Err(tok(line, line.content, e)),
            },
        };
        let Some(Frame::Keyed(f)) = self.stack.last_mut() else {
            return Ok(());
        };
        f.span.start.get_or_insert(line.number);
        f.span.end = line.number;
        if self.ctx.strict
            && let Some(seen) = self.keys.top()
            && !seen.insert(&key)
        {
            return Err(line.error(format!("Duplicate sibling key \"{key}\"")));
        }
        let rest = trim_spaces(&line.content[key_end..]);
        if rest.is_empty() {
            cells.clear();
        } else {
            split_delimited(rest, delim, cells);
        }
        if cells.len() != f.leaves {
            return Err(line.error(count_message(f.leaves, "keyed entry cells", cells.len())));
        }
        f.count += 1;
        match key {
            Cow::Borrowed(k) => self.out.key(k),
            Cow::Owned(k) => self.out.key_owned(k),
        }
        let fields = f.header.fields.as_deref().unwrap_or(&[]);
        self.out.row(&mut f.rows, fields, cells, line)
    }
}

/// The error at the end of an array about its count: at the last line read, or at the
/// header (with its own content column) when no item was read.
fn last_error<I: LineInput>(src: &I, head: At, count: usize, msg: String) -> Error {
    match src.current() {
        Some(line) if count > 0 || line.number != head.number => line.error(msg),
        _ => at_error(src, head, ErrorKind::Syntax, msg),
    }
}
