//! The rows of tables and keyed tables (spec §9.3, §9.5) on the direct encoder's
//! second pass: each row's cells written in header order, nested field groups
//! flattened, a row whose keys come out of order rewritten from a `Value`.

use serde::Serialize;

use super::super::adapter::{Halt, MapVisit, Never, P, Res, SeqVisit, Visit, open, visit};
use super::super::analyze::{Field, same_name};
use super::super::keys::{KeySet, key_into, with_key};
use super::{Cell, Out, Pos};
use crate::encode::line::syntax::{row_separator, write_entry_key};
use crate::stack::guarded;

/// The rows of a table.
pub(super) struct Rows<'a, 'w, 'f> {
    pub(super) out: &'a mut Out<'w>,
    pub(super) fields: &'f [Field],
    pub(super) row_depth: usize,
    /// Containers around each row.
    pub(super) level: usize,
    pub(super) n: usize,
    /// Whether the look-ahead found every row to fit (else a row that does not fit
    /// stops the table with [`Halt::NoFit`]).
    pub(super) verified: bool,
    /// Leading rows already written (by the look-ahead), counted but not written.
    pub(super) skip: usize,
    /// Whether the first row must fit the field list as it stands, keys in order
    /// (the list was not built from it): any other first row stops the table with
    /// [`Halt::Reorder`].
    pub(super) exact_first: bool,
}

/// A row that does not fit is [`Halt::NoFit`], unless the look-ahead found it to
/// fit (`verified`): then the value serialized differently the second time.
fn misfit(e: Halt, verified: bool) -> Halt {
    match e {
        Halt::NoFit if verified => Halt::Inconsistent,
        e => e,
    }
}

impl<'a, 'w, 'f> Visit for Rows<'a, 'w, 'f> {
    type Ok = usize;
    type Seq = Rows<'a, 'w, 'f>;
    type Map = Never<usize>;
    only_containers!();
    only_a_sequence!();
}

impl SeqVisit for Rows<'_, '_, '_> {
    type Ok = usize;
    fn element<T: Serialize + ?Sized>(&mut self, v: &T) -> Res<()> {
        if self.n < self.skip {
            self.n += 1;
            return Ok(());
        }
        self.out.enc.w.line(self.row_depth);
        if self.exact_first && self.n == 0 {
            // Whatever stops the first row says only that it differs.
            cells(self.out, v, self.fields, self.level).map_err(|_| Halt::Reorder)?;
        } else {
            row(self.out, v, self.fields, self.level).map_err(|e| misfit(e, self.verified))?;
        }
        self.n += 1;
        Ok(())
    }
    fn end(self) -> Res<usize> {
        Ok(self.n)
    }
}

/// Writes the cells of one row whose keys come in the order of `fields` (the line
/// is started): [`Halt::Reorder`] or [`Halt::NoFit`] if they do not.
fn cells<T: Serialize + ?Sized>(
    out: &mut Out<'_>,
    v: &T,
    fields: &[Field],
    level: usize,
) -> Res<()> {
    let mut first = true;
    let cells = RowCells {
        out,
        fields,
        level,
        first: &mut first,
    };
    visit(v, cells)
}

/// Writes the cells of one row (the line is started); a row whose keys come out of
/// order, or that does not fit as serialized, is written again from a `Value`
/// (whose map keeps the last of repeated keys); [`Halt::NoFit`] if that does not
/// fit either.
fn row<T: Serialize + ?Sized>(out: &mut Out<'_>, v: &T, fields: &[Field], level: usize) -> Res<()> {
    let start = out.out().len();
    match cells(out, v, fields, level) {
        Err(Halt::Reorder | Halt::NoFit) => {
            out.out().truncate(start);
            out.value_row(v, fields, level)
        }
        other => other,
    }
}

/// The entries of a keyed table: `key: cells` lines.
pub(super) struct KeyedRows<'a, 'w, 'f> {
    pub(super) out: &'a mut Out<'w>,
    pub(super) fields: &'f [Field],
    pub(super) row_depth: usize,
    /// Containers around each entry value (the object's level).
    pub(super) level: usize,
    /// The pending map key.
    pub(super) key: String,
    pub(super) n: usize,
    /// As in [`Rows`].
    pub(super) verified: bool,
    /// The entry keys written so far, when repeats are checked ([`Halt::Repeat`]).
    pub(super) keys: Option<KeySet>,
    /// As in [`Rows`]: the first entry value must fit `fields` as they stand.
    pub(super) exact_first: bool,
}

impl<'w> Out<'w> {
    /// Writes the header line of a keyed table of `len` entries at `pos` under
    /// `fields` and returns the writer of its rows: `verified` when the look-ahead
    /// found every entry to fit (then repeated keys are not checked again), else
    /// with `exact_first` as in [`KeyedRows`].
    pub(super) fn keyed_table<'a, 'f>(
        &'a mut self,
        pos: Pos<'_>,
        len: usize,
        fields: &'f [Field],
        verified: bool,
        exact_first: bool,
    ) -> KeyedRows<'a, 'w, 'f> {
        let key = self.scratch.keys.take();
        self.start_line(pos);
        self.header(pos.key(), len, true, Some(fields));
        KeyedRows {
            row_depth: pos.child_depth(),
            level: pos.level() + 1,
            out: self,
            fields,
            key,
            n: 0,
            verified,
            keys: (!verified).then(KeySet::default),
            exact_first,
        }
    }
}

impl<'a, 'w, 'f> Visit for KeyedRows<'a, 'w, 'f> {
    type Ok = usize;
    type Seq = Never<usize>;
    type Map = KeyedRows<'a, 'w, 'f>;
    only_containers!();
    fn seq(self, _len: Option<usize>) -> Res<Never<usize>> {
        Err(Halt::Inconsistent)
    }
    fn map(self, _len: Option<usize>) -> Res<Self> {
        open(self.level - 1, self.out.max_depth)?;
        Ok(self)
    }
    fn newtype_variant<T: Serialize + ?Sized>(self, _v: &'static str, _x: &T) -> Res<usize> {
        Err(Halt::Inconsistent)
    }
    fn struct_variant(self, _v: &'static str, _len: usize) -> Res<Self> {
        Err(Halt::Inconsistent)
    }
}

impl KeyedRows<'_, '_, '_> {
    fn entry<T: Serialize + ?Sized>(&mut self, key: &str, v: &T) -> Res<()> {
        if let Some(keys) = &mut self.keys
            && !keys.insert(key)
        {
            return Err(Halt::Repeat);
        }
        self.out.enc.w.line(self.row_depth);
        write_entry_key(self.out.out(), key);
        if self.exact_first && self.n == 0 {
            // Whatever stops the first row says only that it differs.
            cells(self.out, v, self.fields, self.level).map_err(|_| Halt::Reorder)?;
        } else {
            row(self.out, v, self.fields, self.level).map_err(|e| misfit(e, self.verified))?;
        }
        self.n += 1;
        Ok(())
    }
}

impl MapVisit for KeyedRows<'_, '_, '_> {
    type Ok = usize;
    fn key<K: Serialize + ?Sized>(&mut self, k: &K) -> Res<()> {
        key_into(k, &mut self.key)
    }
    fn value<T: Serialize + ?Sized>(&mut self, v: &T) -> Res<()> {
        let key = std::mem::take(&mut self.key);
        let done = self.entry(&key, v);
        self.key = key;
        done
    }
    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Res<()> {
        self.entry(key, v)
    }
    fn end(self) -> Res<usize> {
        self.out.scratch.keys.put(self.key);
        Ok(self.n)
    }
}

/// The cells of a row or of a nested field group, which the look-ahead found to fit
/// `fields`.
struct RowCells<'a, 'w, 'f> {
    out: &'a mut Out<'w>,
    fields: &'f [Field],
    /// Containers around this value.
    level: usize,
    first: &'a mut bool,
}

impl<'a, 'w, 'f> RowCells<'a, 'w, 'f> {
    /// Writes the value of `field` (a cell, or a group's cells).
    fn put<T: Serialize + ?Sized>(&mut self, field: &Field, v: &T, level: usize) -> Res<()> {
        if field.is_leaf() {
            let delimiter = self.out.delimiter;
            let sep = row_separator(self.first, delimiter);
            let cell = Cell {
                out: self.out.out(),
                sep,
                delimiter,
            };
            visit(v, cell)
        } else {
            let group = RowCells {
                out: &mut *self.out,
                fields: field.group_fields(),
                level,
                first: &mut *self.first,
            };
            guarded(|| visit(v, group))
        }
    }
}

/// A group (or row) value that is not an object does not fit.
impl<'a, 'w, 'f> Visit for RowCells<'a, 'w, 'f> {
    type Ok = ();
    type Seq = Never<()>;
    type Map = GroupEntries<'a, 'w, 'f>;
    fn prim(self, _p: P<'_>) -> Res<()> {
        Err(Halt::NoFit)
    }
    fn bytes(self, _b: &[u8]) -> Res<()> {
        Err(Halt::NoFit)
    }
    fn tuple_variant(self, _v: &'static str, _len: usize) -> Res<Never<()>> {
        Err(Halt::NoFit)
    }
    fn seq(self, _len: Option<usize>) -> Res<Never<()>> {
        Err(Halt::NoFit)
    }
    fn map(self, _len: Option<usize>) -> Res<GroupEntries<'a, 'w, 'f>> {
        open(self.level, self.out.max_depth)?;
        Ok(GroupEntries {
            level: self.level + 1,
            cells: self,
            i: 0,
            pending: false,
        })
    }
    fn newtype_variant<T: Serialize + ?Sized>(mut self, variant: &'static str, v: &T) -> Res<()> {
        open(self.level, self.out.max_depth)?;
        match self.fields {
            [only] if only.name == variant => {
                let level = self.level + 1;
                self.put(only, v, level)
            }
            _ => Err(Halt::Reorder),
        }
    }
    fn struct_variant(
        mut self,
        variant: &'static str,
        _len: usize,
    ) -> Res<GroupEntries<'a, 'w, 'f>> {
        open(self.level, self.out.max_depth)?;
        open(self.level + 1, self.out.max_depth)?;
        match self.fields {
            [only] if only.name == variant && !only.is_leaf() => {
                self.fields = only.group_fields();
                Ok(GroupEntries {
                    level: self.level + 2,
                    cells: self,
                    i: 0,
                    pending: false,
                })
            }
            _ => Err(Halt::Reorder),
        }
    }
}

/// The entries of a row object or group object.
struct GroupEntries<'a, 'w, 'f> {
    cells: RowCells<'a, 'w, 'f>,
    /// Containers around the entry values.
    level: usize,
    i: usize,
    /// Whether the pending map key is the expected field.
    pending: bool,
}

impl GroupEntries<'_, '_, '_> {
    fn expected(&self, key: &str) -> bool {
        self.cells
            .fields
            .get(self.i)
            .is_some_and(|f| same_name(&f.name, key))
    }

    fn put<T: Serialize + ?Sized>(&mut self, v: &T) -> Res<()> {
        let fields = self.cells.fields;
        let Some(field) = fields.get(self.i) else {
            return Err(Halt::Reorder);
        };
        self.i += 1;
        let level = self.level;
        self.cells.put(field, v, level)
    }
}

impl MapVisit for GroupEntries<'_, '_, '_> {
    type Ok = ();
    fn key<K: Serialize + ?Sized>(&mut self, k: &K) -> Res<()> {
        self.pending = with_key(k, |s| self.expected(s))?;
        Ok(())
    }
    fn value<T: Serialize + ?Sized>(&mut self, v: &T) -> Res<()> {
        if !self.pending {
            return Err(Halt::Reorder);
        }
        self.put(v)
    }
    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Res<()> {
        if !self.expected(key) {
            return Err(Halt::Reorder);
        }
        self.put(v)
    }
    fn end(self) -> Res<()> {
        if self.i == self.cells.fields.len() {
            Ok(())
        } else {
            Err(Halt::Reorder)
        }
    }
}
