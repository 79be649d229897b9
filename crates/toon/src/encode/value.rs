//! The `Value` walker: a [`Value`] tree into TOON lines through the line writer
//! ([`line`](super::line)) — objects (§8), inline primitive arrays (§9.1), arrays of
//! arrays (§9.2), tables with nested field groups (§9.3), expanded lists (§9.4),
//! keyed tables (§9.5) and objects as list items (§10), in the reference's order of
//! decisions.
//!
//! Each function that writes a header expects its line to be started already (with
//! indentation, and `- ` on a list item) and is told the depth of the lines below it.
//! `level` counts enclosing containers for the `max_depth` limit: the root container
//! is level 1.

mod table;

use super::form::{ArrayForm, Place, array_form, child_depth, item_field_depth, may_be_keyed};
use super::line::syntax::{
    Primitive, inline_separator, row_separator, write_cell, write_empty_array, write_entry_key,
    write_header, write_object_key, write_primitive, write_root_primitive,
};
use super::line::{LineWriter, Mark};
use crate::fields::Field;
use crate::stack::guarded;
use crate::{Delimiter, Map, Result, Value};
pub(crate) use table::row_matches;
use table::{first_row_fields, same_sizes};

/// The state of one encoding run.
pub(crate) struct Encoder<'w> {
    pub(crate) w: LineWriter<'w>,
    delimiter: Delimiter,
    max_depth: usize,
}

/// Whether an object at `place` is tried as a keyed table: the form rule
/// ([`may_be_keyed`]), and every entry an object of the same non-zero size.
#[inline]
fn keyed_candidate(place: Place, map: &Map) -> bool {
    may_be_keyed(place, Some(map.len())) && same_sizes(map.iter().map(|(_, v)| v))
}

/// A primitive value as the writer takes it; `None` for containers.
#[inline]
fn as_primitive(value: &Value) -> Option<Primitive<'_>> {
    Some(match value {
        Value::Null => Primitive::Null,
        Value::Bool(b) => Primitive::Bool(*b),
        Value::Number(n) => Primitive::Num(n),
        Value::String(s) => Primitive::Str(s),
        Value::Array(_) | Value::Object(_) => return None,
    })
}

impl<'w> Encoder<'w> {
    /// An encoder writing to `w` with the document delimiter and nesting limit given.
    pub(crate) fn new(w: LineWriter<'w>, delimiter: Delimiter, max_depth: usize) -> Encoder<'w> {
        Encoder {
            w,
            delimiter,
            max_depth,
        }
    }

    fn check(&self, level: usize) -> Result<()> {
        if level > self.max_depth {
            return Err(super::depth_error(self.max_depth));
        }
        Ok(())
    }

    /// Encodes a whole document. A root `{}` writes nothing; a root string that starts
    /// with U+FEFF is always quoted (DELTA-4.4 E2).
    pub(crate) fn root(&mut self, value: &Value) -> Result<()> {
        match value {
            Value::Array(items) => {
                self.check(1)?;
                self.w.line(0);
                self.array_body(Place::Root, None, items, child_depth(0, false), 1)
            }
            Value::Object(map) => {
                self.check(1)?;
                if keyed_candidate(Place::Root, map) {
                    let mark = self.w.mark();
                    self.w.line(0);
                    if self.try_keyed(mark, None, map, 2, 1) {
                        return Ok(());
                    }
                }
                self.fields(map, 0, 1)
            }
            primitive => {
                self.w.line(0);
                if let Some(p) = as_primitive(primitive) {
                    write_root_primitive(&mut self.w.out, p, self.delimiter);
                }
                Ok(())
            }
        }
    }

    /// Writes a primitive with delimiter-aware quoting.
    #[inline]
    fn primitive(&mut self, value: &Value) {
        // Containers never reach here; callers dispatch them first.
        if let Some(p) = as_primitive(value) {
            write_primitive(&mut self.w.out, p, self.delimiter);
        }
    }

    /// The fields of an object at `level`, one per line at `depth`.
    fn fields(&mut self, map: &Map, depth: usize, level: usize) -> Result<()> {
        for (key, value) in map {
            self.field(key, value, depth, level)?;
        }
        Ok(())
    }

    /// One field of an object at `level`, starting a line at `depth`.
    pub(crate) fn field(
        &mut self,
        key: &str,
        value: &Value,
        depth: usize,
        level: usize,
    ) -> Result<()> {
        match value {
            Value::Array(items) => {
                self.check(level + 1)?;
                self.w.line(depth);
                guarded(|| {
                    let rows = child_depth(depth, false);
                    self.array_body(Place::Field, Some(key), items, rows, level + 1)
                })
            }
            Value::Object(map) => {
                self.check(level + 1)?;
                self.w.line(depth);
                self.object_value(key, map, child_depth(depth, false), level + 1)
            }
            primitive => {
                self.w.line(depth);
                write_entry_key(&mut self.w.out, key);
                self.primitive(primitive);
                Ok(())
            }
        }
    }

    /// An object under `key` on a started line: a keyed table, or `key:` and its
    /// fields at `child_depth`.
    fn object_value(
        &mut self,
        key: &str,
        map: &Map,
        child_depth: usize,
        level: usize,
    ) -> Result<()> {
        if keyed_candidate(Place::Field, map) {
            let mark = self.w.mark();
            if self.try_keyed(mark, Some(key), map, level + 1, child_depth) {
                return Ok(());
            }
        }
        write_object_key(&mut self.w.out, key);
        guarded(|| self.fields(map, child_depth, level))
    }

    /// An array at `level` on a started line (after its key or `- `), in the form
    /// [`array_form`] gives it at `place`, its items or rows at `child_depth`.
    fn array_body(
        &mut self,
        place: Place,
        key: Option<&str>,
        items: &[Value],
        child_depth: usize,
        level: usize,
    ) -> Result<()> {
        let all_primitive = items.iter().all(Value::is_primitive);
        match array_form(place, items.len(), all_primitive) {
            ArrayForm::Empty => write_empty_array(&mut self.w.out, key),
            ArrayForm::Inline => self.inline(key, items),
            ArrayForm::TableOrList => {
                if same_sizes(items.iter()) {
                    let mark = self.w.mark();
                    let spec = TableSpec {
                        key,
                        len: items.len(),
                        keyed: false,
                        row_level: level + 1,
                        row_depth: child_depth,
                    };
                    let rows = items.iter().map(|row| (None, row));
                    if self.try_table(mark, &spec, rows) {
                        return Ok(());
                    }
                }
                self.list(key, items, child_depth, level)?;
            }
            ArrayForm::List => self.list(key, items, child_depth, level)?,
        }
        Ok(())
    }

    /// An expanded list: the header, then each item as `- …` at `child_depth`.
    fn list(
        &mut self,
        key: Option<&str>,
        items: &[Value],
        child_depth: usize,
        level: usize,
    ) -> Result<()> {
        self.header(key, items.len(), false, None);
        for item in items {
            self.list_item(item, child_depth, level)?;
        }
        Ok(())
    }

    /// An inline primitive array on a started line: `key[N]: v1,v2` (`[0]:` if empty).
    fn inline(&mut self, key: Option<&str>, items: &[Value]) {
        self.header(key, items.len(), false, None);
        for (i, item) in items.iter().enumerate() {
            if let Some(p) = as_primitive(item) {
                let sep = inline_separator(i, self.delimiter);
                write_cell(&mut self.w.out, Some(sep), p, self.delimiter);
            }
        }
    }

    /// A header (see [`write_header`]).
    fn header(&mut self, key: Option<&str>, len: usize, keyed: bool, fields: Option<&[Field<'_>]>) {
        write_header(&mut self.w.out, key, len, keyed, self.delimiter, fields);
    }

    /// An object of two or more entries as a keyed table on a started line (§9.5),
    /// entry rows at `entry_depth`; `false`, with the output rewound to `mark`, if
    /// its entries are not uniform objects.
    fn try_keyed(
        &mut self,
        mark: Mark,
        key: Option<&str>,
        map: &Map,
        entry_level: usize,
        entry_depth: usize,
    ) -> bool {
        let spec = TableSpec {
            key,
            len: map.len(),
            keyed: true,
            row_level: entry_level,
            row_depth: entry_depth,
        };
        self.try_table(mark, &spec, map.iter().map(|(k, v)| (Some(k.as_str()), v)))
    }

    /// Writes `rows` as a table (§9.3) or keyed table (§9.5) on a started line,
    /// checking each row against the first row's fields just before writing it. If a
    /// row does not fit, everything since `mark` is taken back and `false` returned.
    /// Each row comes with its entry key for a keyed table.
    fn try_table<'v, I>(&mut self, mark: Mark, spec: &TableSpec<'_>, mut rows: I) -> bool
    where
        I: Iterator<Item = (Option<&'v str>, &'v Value)>,
    {
        let Some((first_key, first)) = rows.next() else {
            self.w.rewind(mark);
            return false;
        };
        let Some(fields) = first_row_fields(first, spec.row_level, self.max_depth) else {
            self.w.rewind(mark);
            return false;
        };
        self.header(spec.key, spec.len, spec.keyed, Some(&fields));
        // The fields follow the first row's key order, so it is read by position.
        self.row(spec.row_depth, first_key, first, &fields, true);
        for (entry_key, row) in rows {
            let Some(ordered) = row_matches(&fields, row) else {
                self.w.rewind(mark);
                return false;
            };
            self.row(spec.row_depth, entry_key, row, &fields, ordered);
        }
        self.w.release(mark);
        true
    }

    /// One table row at `depth`: `entry: cells` in a keyed table, else the cells.
    fn row(
        &mut self,
        depth: usize,
        entry_key: Option<&str>,
        row: &Value,
        fields: &[Field<'_>],
        ordered: bool,
    ) {
        if let Value::Object(row) = row {
            self.w.line(depth);
            if let Some(entry_key) = entry_key {
                write_entry_key(&mut self.w.out, entry_key);
            }
            self.cells(row, fields, ordered, &mut true);
        }
    }

    /// The leaf values of `row` in depth-first field order, joined by the delimiter.
    /// `ordered` says the row's keys are in field order at every level.
    pub(crate) fn cells(
        &mut self,
        row: &Map,
        fields: &[Field<'_>],
        ordered: bool,
        first: &mut bool,
    ) {
        if ordered {
            for ((_, value), field) in row.iter().zip(fields) {
                self.cell(field, value, ordered, first);
            }
        } else {
            for field in fields {
                if let Some(value) = row.get(field.name.as_ref()) {
                    self.cell(field, value, ordered, first);
                }
            }
        }
    }

    /// The cell of a leaf field, or the cells of a group.
    #[inline]
    fn cell(&mut self, field: &Field<'_>, value: &Value, ordered: bool, first: &mut bool) {
        match (&field.children, value) {
            (None, _) => {
                if let Some(p) = as_primitive(value) {
                    let sep = row_separator(first, self.delimiter);
                    write_cell(&mut self.w.out, sep, p, self.delimiter);
                }
            }
            (Some(group), Value::Object(child)) => {
                guarded(|| self.cells(child, group, ordered, first));
            }
            (Some(_), _) => {}
        }
    }

    /// One item of an expanded list at `depth`; the list is at `level`.
    pub(crate) fn list_item(&mut self, item: &Value, depth: usize, level: usize) -> Result<()> {
        match item {
            Value::Array(inner) => {
                self.check(level + 1)?;
                self.w.item(depth);
                guarded(|| {
                    let items = child_depth(depth, false);
                    self.array_body(Place::ListItem, None, inner, items, level + 1)
                })
            }
            Value::Object(map) => {
                self.check(level + 1)?;
                guarded(|| self.object_item(map, depth, level + 1))
            }
            primitive => {
                self.w.item(depth);
                self.primitive(primitive);
                Ok(())
            }
        }
    }

    /// An object at `level` as a list item at `depth` (§10): the first field on the
    /// hyphen line (its rows at depth + 2), the others at depth + 1; a bare `-` if empty.
    fn object_item(&mut self, map: &Map, depth: usize, level: usize) -> Result<()> {
        let mut entries = map.iter();
        let Some((key, value)) = entries.next() else {
            self.w.empty_item(depth);
            return Ok(());
        };
        self.first_item_field(key, value, depth, level)?;
        for (key, value) in entries {
            self.field(key, value, item_field_depth(depth), level)?;
        }
        Ok(())
    }

    /// The first field of an object at `level` that is a list item at `depth`, on
    /// the hyphen line.
    pub(crate) fn first_item_field(
        &mut self,
        key: &str,
        value: &Value,
        depth: usize,
        level: usize,
    ) -> Result<()> {
        match value {
            Value::Array(items) => {
                self.check(level + 1)?;
                self.w.item(depth);
                self.array_body(
                    Place::Field,
                    Some(key),
                    items,
                    child_depth(depth, true),
                    level + 1,
                )
            }
            Value::Object(inner) => {
                self.check(level + 1)?;
                self.w.item(depth);
                self.object_value(key, inner, child_depth(depth, true), level + 1)
            }
            primitive => {
                self.w.item(depth);
                write_entry_key(&mut self.w.out, key);
                self.primitive(primitive);
                Ok(())
            }
        }
    }
}

/// What [`Encoder::try_table`] writes: the header's key, count and kind, and where
/// the rows go.
struct TableSpec<'k> {
    key: Option<&'k str>,
    len: usize,
    keyed: bool,
    /// Nesting level of the row objects.
    row_level: usize,
    /// Indentation depth of the row lines.
    row_depth: usize,
}
