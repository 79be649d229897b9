//! A table row read as a map: kept whole ([`Step::Row`](super::queue::Step::Row), its
//! cells in the queue's spans) or left on its line
//! ([`Step::RowLine`](super::queue::Step::RowLine), split cell by cell as the visitor
//! asks, its cell count checked here); its names (and field groups, as nested maps) from
//! the table's field list the queue keeps.

use std::borrow::Cow;

use serde::de::{self, DeserializeSeed, MapAccess, Visitor};
use serde::{Deserialize, forward_to_deserialize_any};

use super::queue::{LineRow, Name, Tok};
use super::token::{Text, TokenDe};
use super::{Deserializer, Pos};
use crate::decode::grammar::sink::row_count_error;
use crate::decode::grammar::slot::primitive;
use crate::decode::grammar::tokens::{RowCells, quoted_str};
use crate::decode::input::LineInput;
use crate::stack::guarded;
use crate::{Error, Result, Value};

/// Hands `visitor` the row whose first cell is at `cell` of the queue's spans; its
/// table's field list is the queue's names.
pub(super) fn visit_row<'de, I: LineInput, V: Visitor<'de>>(
    de: &mut Deserializer<'de, I>,
    visitor: V,
    cell: usize,
    at: Pos,
) -> Result<V::Value> {
    let end = de.driver.sink_ref().names.len();
    let mut cells = Cells::Spans(cell);
    visitor.visit_map(RowAccess {
        de,
        entry: 0,
        end,
        cells: &mut cells,
        at,
    })
}

/// Hands `visitor` the row left on its line, entry `row` of the queue's lines: its
/// cells are split as they are read; after the visitor (or when it fails), the rest
/// of the row is split and checked, and a wrong cell count is the row's error.
pub(super) fn visit_line_row<'de, I: LineInput, V: Visitor<'de>>(
    de: &mut Deserializer<'de, I>,
    visitor: V,
    row: usize,
    at: Pos,
) -> Result<V::Value> {
    let Some(mut cells) = line_cells(de, row) else {
        return Err(de.misplaced(&super::queue::Step::RowLine(row), at));
    };
    let end = de.driver.sink_ref().names.len();
    let value = visitor.visit_map(RowAccess {
        de: &mut *de,
        entry: 0,
        end,
        cells: &mut cells,
        at,
    });
    match value {
        Ok(value) => {
            finish(de, &mut cells)?;
            Ok(value)
        }
        Err(e) => Err(count_error(de, &cells).unwrap_or(e)),
    }
}

/// Checks a row left on its line without reading it (a skipped value).
pub(super) fn check_line_row<I: LineInput>(de: &mut Deserializer<'_, I>, row: usize) -> Result<()> {
    match line_cells(de, row) {
        Some(mut cells) => finish(de, &mut cells),
        None => Ok(()),
    }
}

/// The cells of entry `row` of the queue's lines, none read.
fn line_cells<'de, I: LineInput>(de: &Deserializer<'de, I>, row: usize) -> Option<Cells<'de>> {
    let row: LineRow = *de.driver.sink_ref().lines.get(row)?;
    Some(Cells::Line {
        content: de.doc.get(row.content.start..row.content.end)?,
        first: de.doc.get(row.first.start..row.first.end),
        rest: row.rest,
        read: 0,
        leaves: row.leaves,
    })
}

/// Where a row's cells come from.
enum Cells<'de> {
    /// The queue's spans, from this one on.
    Spans(usize),
    /// A row left on its line (`content`), split as far as `first` (until it is
    /// taken) and `rest`; `read` cells taken so far of the `leaves` its fields have.
    Line {
        content: &'de str,
        first: Option<&'de str>,
        rest: RowCells,
        read: usize,
        leaves: usize,
    },
}

impl Cells<'_> {
    /// The cells of the row taken so far (from the spans: the next one's place).
    fn taken(&self) -> usize {
        match *self {
            Cells::Spans(i) | Cells::Line { read: i, .. } => i,
        }
    }
}

/// A cell taken from a row: in the document, or in the queue's text.
enum Cell<'de> {
    Doc(&'de str, bool),
    Queued(Tok),
}

impl<'de> Cell<'de> {
    fn token<'a, I: LineInput>(self, de: &'a Deserializer<'de, I>) -> TokenDe<'de, 'a> {
        match self {
            Cell::Doc(s, quoted) => TokenDe {
                text: Text::Doc(s),
                quoted,
            },
            Cell::Queued(tok) => de.token(tok),
        }
    }
}

/// The next cell of a row on `content` (`None`: the row has no more).
#[inline]
fn next_raw<'de>(
    content: &'de str,
    first: &mut Option<&'de str>,
    rest: &mut RowCells,
) -> Option<&'de str> {
    match first.take() {
        Some(cell) => Some(cell),
        None => rest.next(content),
    }
}

/// Takes the next cell; a quoted one is unescaped (a malformed one is its error).
fn take<'de, I: LineInput>(
    de: &mut Deserializer<'de, I>,
    cells: &mut Cells<'de>,
) -> Result<Cell<'de>> {
    let cell = match cells {
        Cells::Spans(i) => {
            let tok = de
                .driver
                .sink_ref()
                .spans
                .get(*i)
                .copied()
                .unwrap_or(Tok::EMPTY);
            *i += 1;
            return Ok(Cell::Queued(tok));
        }
        Cells::Line {
            content,
            first,
            rest,
            ..
        } => next_raw(content, first, rest),
    };
    taken(de, cells, cell)
}

/// A cell just split off a row on its line (`None`: the row had no more), as
/// [`take`] gives it.
fn taken<'de, I: LineInput>(
    de: &mut Deserializer<'de, I>,
    cells: &mut Cells<'de>,
    cell: Option<&'de str>,
) -> Result<Cell<'de>> {
    let Cells::Line { read, leaves, .. } = cells else {
        return Ok(Cell::Queued(Tok::EMPTY));
    };
    let Some(cell) = cell else {
        return Err(line_error(de, |line| row_count_error(line, *leaves, *read)));
    };
    *read += 1;
    if !cell.starts_with('"') {
        return Ok(Cell::Doc(cell, false));
    }
    match quoted_str(cell) {
        Ok(Cow::Borrowed(s)) => Ok(Cell::Doc(s, true)),
        Ok(Cow::Owned(s)) => {
            let queue = de.driver.sink();
            let start = queue.text.len();
            queue.text.push_str(&s);
            Ok(Cell::Queued(Tok {
                start,
                end: queue.text.len(),
                doc: false,
                quoted: true,
            }))
        }
        Err(_) => Err(line_error(de, |line| match primitive(line, cell) {
            Err(e) => e,
            Ok(_) => Error::new(crate::ErrorKind::Syntax, "malformed quoted cell"),
        })),
    }
}

/// The error `make` gives on the row's line (the line the reader last read).
fn line_error<I: LineInput>(
    de: &Deserializer<'_, I>,
    make: impl FnOnce(&crate::decode::grammar::scanner::Line<'_>) -> Error,
) -> Error {
    match de.driver.current_line() {
        Some(line) => make(&line),
        None => Error::new(crate::ErrorKind::Syntax, "a table row outside its line"),
    }
}

/// The row's cell-count error, if its cells (those read and the rest) are not as many
/// as its fields' leaves.
fn count_error<I: LineInput>(de: &Deserializer<'_, I>, cells: &Cells<'_>) -> Option<Error> {
    let &Cells::Line {
        content,
        mut first,
        mut rest,
        mut read,
        leaves,
    } = cells
    else {
        return None;
    };
    while next_raw(content, &mut first, &mut rest).is_some() {
        read += 1;
    }
    (read != leaves).then(|| line_error(de, |line| row_count_error(line, leaves, read)))
}

/// Checks the cells of the row not read: their count, then each quoted one.
fn finish<'de, I: LineInput>(de: &mut Deserializer<'de, I>, cells: &mut Cells<'de>) -> Result<()> {
    if let Some(e) = count_error(de, cells) {
        return Err(e);
    }
    while let Cells::Line { read, leaves, .. } = cells
        && *read < *leaves
    {
        take(de, cells)?;
    }
    Ok(())
}

/// The fields of a row or field group.
struct RowAccess<'d, 'de, I> {
    de: &'d mut Deserializer<'de, I>,
    /// The next field's entry in the queue's names.
    entry: usize,
    /// The end of this level's entries.
    end: usize,
    /// Where the next field's first cell comes from.
    cells: &'d mut Cells<'de>,
    /// The row's line, where errors about its cells point.
    at: Pos,
}

impl<'de, I: LineInput> MapAccess<'de> for RowAccess<'_, 'de, I> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.entry >= self.end {
            return Ok(None);
        }
        let queue = self.de.driver.sink_ref();
        let name = queue.names.get(self.entry).map_or(Tok::EMPTY, Name::name);
        let key = if name.doc {
            Text::Doc(self.de.doc.get(name.start..name.end).unwrap_or(""))
        } else {
            Text::Copy(queue.names_text.get(name.start..name.end).unwrap_or(""))
        };
        let key = key.key(seed);
        key.map(Some).map_err(|e| self.de.locate(e, self.at))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let value = match self.de.driver.sink_ref().names.get(self.entry) {
            Some(&Name::Group { entries, cells, .. }) => {
                // The group's cells end here, however many of them its visitor reads.
                let after = self.cells.taken() + cells;
                let group = GroupDe {
                    de: &mut *self.de,
                    entry: self.entry + 1,
                    end: self.entry + 1 + entries,
                    cells: &mut *self.cells,
                    at: self.at,
                };
                self.entry += 1 + entries;
                seed.deserialize(group).and_then(|value| {
                    while self.cells.taken() < after {
                        take(self.de, self.cells)?;
                    }
                    Ok(value)
                })
            }
            _ => {
                self.entry += 1;
                match self.cells {
                    Cells::Spans(i) => {
                        let queue = self.de.driver.sink_ref();
                        let tok = queue.spans.get(*i).copied().unwrap_or(Tok::EMPTY);
                        *i += 1;
                        seed.deserialize(self.de.token(tok))
                    }
                    Cells::Line {
                        content,
                        first,
                        rest,
                        read,
                        ..
                    } => match next_raw(content, first, rest) {
                        // The common cell, unquoted, straight to the visitor.
                        Some(cell) if !cell.starts_with('"') => {
                            *read += 1;
                            seed.deserialize(TokenDe {
                                text: Text::Doc(cell),
                                quoted: false,
                            })
                        }
                        cell => {
                            let cell = taken(self.de, self.cells, cell)?;
                            seed.deserialize(cell.token(self.de))
                        }
                    },
                }
            }
        };
        value.map_err(|e| self.de.locate(e, self.at))
    }

    /// The fields left at this level (a group counts as one).
    fn size_hint(&self) -> Option<usize> {
        let names = &self.de.driver.sink_ref().names;
        let (mut entry, mut left) = (self.entry, 0);
        while entry < self.end {
            left += 1;
            entry += match names.get(entry) {
                Some(&Name::Group { entries, .. }) => 1 + entries,
                _ => 1,
            };
        }
        Some(left)
    }
}

/// A field group of a row: an object, as the row's events would make it.
struct GroupDe<'d, 'de, I> {
    de: &'d mut Deserializer<'de, I>,
    entry: usize,
    end: usize,
    cells: &'d mut Cells<'de>,
    at: Pos,
}

impl<'de, I: LineInput> de::Deserializer<'de> for GroupDe<'_, 'de, I> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        guarded(|| {
            visitor.visit_map(RowAccess {
                de: self.de,
                entry: self.entry,
                end: self.end,
                cells: self.cells,
                at: self.at,
            })
        })
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    /// What [`Value`]'s `deserialize_enum` makes of the object (`Variant: …`).
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let value = Value::deserialize(self)?;
        de::Deserializer::deserialize_enum(value, name, variants, visitor)
    }

    /// The group's cells are passed over by the enclosing row.
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct identifier
    }
}
