//! A table row kept whole ([`Step::Row`](super::queue::Step::Row)) read as a map: its
//! cells from the queue's spans, its names (and field groups, as nested maps) from the
//! table's field list the queue keeps.

use serde::de::{self, DeserializeSeed, MapAccess, Visitor};
use serde::{Deserialize, forward_to_deserialize_any};

use super::queue::{Name, Tok};
use super::token::Text;
use super::{Deserializer, Pos};
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
    let queue = de.driver.sink_ref();
    let end = queue.names.len();
    let (of, names) = &mut de.row_names;
    if *of != queue.names_of {
        // Once per table: its names sliced from the document (none if one is not there).
        *of = queue.names_of;
        names.clear();
        for name in queue.names.iter().map(Name::name) {
            match de.doc.get(name.start..name.end).filter(|_| name.doc) {
                Some(text) => names.push(text),
                None => {
                    names.clear();
                    break;
                }
            }
        }
    }
    visitor.visit_map(RowAccess {
        de,
        entry: 0,
        end,
        cell,
        at,
    })
}

/// The fields of a row or field group.
struct RowAccess<'d, 'de, I> {
    de: &'d mut Deserializer<'de, I>,
    /// The next field's entry in the queue's names.
    entry: usize,
    /// The end of this level's entries.
    end: usize,
    /// The next field's first cell in the queue's spans.
    cell: usize,
    /// The row's line, where errors about its cells point.
    at: Pos,
}

impl<'de, I: LineInput> MapAccess<'de> for RowAccess<'_, 'de, I> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.entry >= self.end {
            return Ok(None);
        }
        if let Some(&name) = self.de.row_names.1.get(self.entry) {
            let key = Text::Doc(name).key(seed);
            return key.map(Some).map_err(|e| self.de.locate(e, self.at));
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
        let queue = self.de.driver.sink_ref();
        let value = match queue.names.get(self.entry) {
            Some(&Name::Group { entries, cells, .. }) => {
                let group = GroupDe {
                    de: &mut *self.de,
                    entry: self.entry + 1,
                    end: self.entry + 1 + entries,
                    cell: self.cell,
                    at: self.at,
                };
                self.entry += 1 + entries;
                self.cell += cells;
                seed.deserialize(group)
            }
            _ => {
                let tok = queue.spans.get(self.cell).copied().unwrap_or(Tok::EMPTY);
                self.entry += 1;
                self.cell += 1;
                seed.deserialize(self.de.token(tok))
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
    cell: usize,
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
                cell: self.cell,
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
