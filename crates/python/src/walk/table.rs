//! Tables (spec §9.3) and keyed tables (§9.5) from Python objects: the first row's
//! template, each later row checked while its cells are written, rows that fit only
//! out of order looked at again, and the keyed-table candidate check.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use pyo3::{Borrowed, ffi};
use toon::__private::writer::{
    Field, Mark, Place, Template, kind_fits, may_be_keyed, row_separator, template, write_cell,
    write_entry_key,
};

use super::{MAX_LEVEL, Walker, dict, guard};
use crate::to_toon::{MAX_DEPTH, Text};
use crate::views::{Class, Entry, MapView, SeqView, classify_exact, with_primitive};

/// The rows of a would-be table: a list's items, or a dict's values with their keys
/// (a keyed table).
pub(super) enum Rows<'r, 'a, 'py> {
    Seq(&'r SeqView<'a, 'py>),
    Map(&'r MapView<'a, 'py>),
}

impl<'py> Rows<'_, '_, 'py> {
    fn len(&self) -> usize {
        match self {
            Rows::Seq(s) => s.len(),
            Rows::Map(m) => m.len(),
        }
    }

    /// Calls `f` with each row (and its entry key) while it returns `Ok(true)`.
    fn each(
        &self,
        mut f: impl FnMut(usize, Option<&str>, &Bound<'py, PyAny>) -> PyResult<bool>,
    ) -> PyResult<bool> {
        match self {
            Rows::Seq(s) => {
                for i in 0..s.len() {
                    let item = s.get(i)?;
                    if !f(i, None, &item)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Rows::Map(m) => m.each(|i, e| f(i, Some(&e.key()?), e.value)),
        }
    }
}

/// What a table writes: the header's key, count and kind, and where the rows go.
pub(super) struct TableSpec<'k> {
    pub(super) key: Option<&'k str>,
    pub(super) keyed: bool,
    /// Nesting level of the row objects.
    pub(super) row_level: usize,
    /// Indentation depth of the row lines.
    pub(super) row_depth: usize,
}

/// Whether the key `k` is an exact str spelling `name`.
#[inline]
fn same_text(k: &Bound<'_, PyAny>, name: &str) -> bool {
    k.cast_exact::<PyString>()
        .is_ok_and(|s| Text::in_place(s) == Some(name))
}

/// Whether an entry's key is `field`'s name: the first row's key object itself (a
/// key shared between rows, as interned keys are; its address is the field's
/// `origin`) before the text is compared. A key that cannot be read is no match.
#[inline]
fn same_key(field: &Field<'_>, e: &Entry<'_, '_>) -> bool {
    (field.origin != 0 && field.origin == e.key_addr())
        || e.key().is_ok_and(|key| *field.name == *key)
}
impl<'py> Walker<'_, 'py> {
    /// Whether an object at `place` (at `pd`) is tried as a keyed table: the form
    /// rule, and every value a dict of the same non-zero size.
    pub(super) fn keyed_candidate(&self, place: Place, map: &MapView<'_, 'py>, pd: usize) -> bool {
        may_be_keyed(place, Some(map.len())) && self.same_sizes(&Rows::Map(map), pd + 1)
    }

    /// Whether every row resolves to a dict with as many entries as the first, which
    /// is non-empty.
    fn same_sizes(&self, rows: &Rows<'_, '_, 'py>, pd: usize) -> bool {
        let mut size = 0;
        rows.each(|i, _, row| {
            let Ok(r) = self.resolve(row, pd) else {
                return Ok(false);
            };
            if r.class != Class::Dict {
                return Ok(false);
            }
            let n = dict(r.obj(row)).len();
            if i == 0 {
                size = n;
            }
            Ok(n > 0 && n == size)
        })
        .unwrap_or(false)
    }

    /// An object of two or more entries as a keyed table on a started line.
    pub(super) fn try_keyed(
        &mut self,
        mark: Mark,
        key: Option<&str>,
        map: &MapView<'_, 'py>,
        entry_level: usize,
        entry_depth: usize,
        pd: usize,
    ) -> PyResult<bool> {
        let spec = TableSpec {
            key,
            keyed: true,
            row_level: entry_level,
            row_depth: entry_depth,
        };
        self.try_table(mark, &spec, &Rows::Map(map), pd + 1)
    }

    /// Writes `rows` (at `pd`) as a table or keyed table on a started line, checking
    /// each row against the first row's fields just before writing it. If a row does
    /// not fit, everything since `mark` is taken back and `false` returned.
    pub(super) fn try_table(
        &mut self,
        mark: Mark,
        spec: &TableSpec<'_>,
        rows: &Rows<'_, '_, 'py>,
        pd: usize,
    ) -> PyResult<bool> {
        let mut fields: Option<Vec<Field<'static>>> = None;
        let len = rows.len();
        let complete = rows.each(|_, entry_key, row| {
            let ordered = match &fields {
                None => {
                    let Some(first) = self.first_row_fields(row, spec.row_level, pd) else {
                        return Ok(false);
                    };
                    self.header(spec.key, len, spec.keyed, Some(&first));
                    fields = Some(first);
                    true
                }
                Some(fields) => {
                    // The usual row is checked as it is written (one walk over it);
                    // one that does not fit in field order is taken back and looked
                    // at again.
                    let row_mark = self.w.mark();
                    self.w.line(spec.row_depth);
                    if let Some(entry_key) = entry_key {
                        write_entry_key(&mut self.w.out, entry_key);
                    }
                    if self.fit_row(fields, row, pd) {
                        self.w.release(row_mark);
                        return Ok(true);
                    }
                    self.w.rewind(row_mark);
                    match self.row_matches(fields, row, pd) {
                        Some(ordered) => ordered,
                        None => return Ok(false),
                    }
                }
            };
            if let Some(fields) = &fields {
                self.row(spec.row_depth, entry_key, row, fields, ordered, pd)?;
            }
            Ok(true)
        })?;
        if complete && fields.is_some() {
            self.w.release(mark);
            Ok(true)
        } else {
            self.w.rewind(mark);
            Ok(false)
        }
    }

    /// The field list the first row prescribes, `None` if the rules rule the table
    /// out (or reading the row raises).
    fn first_row_fields(
        &self,
        row: &Bound<'py, PyAny>,
        row_level: usize,
        pd: usize,
    ) -> Option<Vec<Field<'static>>> {
        let r = self.resolve(row, pd).ok()?;
        if r.class != Class::Dict
            || template(Self::kind(&r, row), row_level, MAX_LEVEL) != Template::Group
        {
            return None;
        }
        let map = MapView::of(self.ctx, dict(r.obj(row))).ok()?;
        self.template(&map, row_level, r.depth)
    }

    fn template(
        &self,
        map: &MapView<'_, 'py>,
        level: usize,
        pd: usize,
    ) -> Option<Vec<Field<'static>>> {
        let mut fields = Vec::with_capacity(map.len());
        let done = map.each(|_, e: &Entry<'_, 'py>| {
            let Ok(r) = self.resolve(e.value, pd + 1) else {
                return Ok(false);
            };
            let key = e.key()?;
            let mut field = match template(Self::kind(&r, e.value), level + 1, MAX_LEVEL) {
                Template::Leaf => Field::leaf(key.into_owned()),
                Template::Group => {
                    let Ok(child) = MapView::of(self.ctx, dict(r.obj(e.value))) else {
                        return Ok(false);
                    };
                    match guard(self.stack_base, r.depth, || {
                        self.template(&child, level + 1, r.depth)
                    }) {
                        Some(group) => Field::group(key.into_owned(), group),
                        None => return Ok(false),
                    }
                }
                Template::NotATable => return Ok(false),
            };
            field.origin = e.key_addr();
            fields.push(field);
            Ok(true)
        });
        matches!(done, Ok(true)).then_some(fields)
    }

    /// Writes the cells of `row` (at `pd`) while checking that it fits `fields`, keys
    /// in field order at every level, when it is read in place: an exact dict whose
    /// keys are strs and whose values are of exact built-in types (the usual row, one
    /// walk over it, in registers). `false`, with part of the row written, for a row
    /// that does not fit, for any other row (a snapshot, a value to replace, a key that
    /// is not a str), or if a cell cannot be written: [`row_matches`](Self::row_matches)
    /// then looks at the row, and [`row`](Self::row) writes it or raises.
    fn fit_row(&mut self, fields: &[Field<'_>], row: &Bound<'py, PyAny>, pd: usize) -> bool {
        pd < MAX_DEPTH
            && self.ctx.reads_in_place()
            && row.is_exact_instance_of::<PyDict>()
            && self.fit_cells(fields, dict(row), &mut true, pd)
    }

    /// The cells of the exact dict `d` (at `pd`) in `fields`' order, `first` while no
    /// cell of the row is written yet; see [`fit_row`](Self::fit_row).
    fn fit_cells(
        &mut self,
        fields: &[Field<'_>],
        d: &Bound<'py, PyDict>,
        first: &mut bool,
        pd: usize,
    ) -> bool {
        if pd + 1 >= MAX_DEPTH || d.len() != fields.len() {
            return false;
        }
        let py = d.py();
        let mut pos: ffi::Py_ssize_t = 0;
        for field in fields {
            let mut k = std::ptr::null_mut();
            let mut v = std::ptr::null_mut();
            // SAFETY: `d` is a live dict; `PyDict_Next` hands out borrowed references,
            // and no Python code runs that could change the dict meanwhile.
            if unsafe { ffi::PyDict_Next(d.as_ptr(), &mut pos, &mut k, &mut v) } == 0 {
                return false;
            }
            // SAFETY: the dict holds both.
            let (k, v) = unsafe { (Borrowed::from_ptr(py, k), Borrowed::from_ptr(py, v)) };
            // The first row's key object itself (keys are shared between rows, as
            // interned and memoised keys are), else a str spelling the name.
            if k.as_ptr() as usize != field.origin && !same_text(&k, &field.name) {
                return false;
            }
            let fits = match &field.children {
                None => match classify_exact(&v) {
                    Some(class) if class.is_primitive() => {
                        let delimiter = self.delimiter;
                        let sep = row_separator(first, delimiter);
                        let out = &mut self.w.out;
                        with_primitive(&v, class, |p| write_cell(out, sep, p, delimiter)).is_ok()
                    }
                    _ => false,
                },
                Some(group) => {
                    v.is_exact_instance_of::<PyDict>()
                        && guard(self.stack_base, pd + 1, || {
                            self.fit_cells(group, dict(&v), first, pd + 1)
                        })
                }
            };
            if !fits {
                return false;
            }
        }
        true
    }

    /// If `row` fits `fields` (the same keys, primitives at the leaves, dicts of the
    /// same shape at the groups), whether its keys are in field order at every level.
    fn row_matches(
        &self,
        fields: &[Field<'_>],
        row: &Bound<'py, PyAny>,
        pd: usize,
    ) -> Option<bool> {
        let r = self.resolve(row, pd).ok()?;
        if r.class != Class::Dict {
            return None;
        }
        let map = MapView::of(self.ctx, dict(r.obj(row))).ok()?;
        let mut ordered = true;
        self.matches(fields, &map, &mut ordered, r.depth)
            .then_some(ordered)
    }

    fn matches(
        &self,
        fields: &[Field<'_>],
        map: &MapView<'_, 'py>,
        ordered: &mut bool,
        pd: usize,
    ) -> bool {
        if map.len() != fields.len() {
            return false;
        }
        // The usual case: the row's keys come in field order.
        let mut in_order = true;
        let done = map.each(|i, e| {
            let Some(field) = fields.get(i).filter(|f| same_key(f, e)) else {
                in_order = false;
                return Ok(false);
            };
            Ok(self.fits(field, e.value, ordered, pd + 1))
        });
        match done {
            Ok(true) => return true,
            Err(_) => return false,
            Ok(false) if in_order => return false,
            Ok(false) => {}
        }
        *ordered = false;
        fields.iter().all(|field| {
            self.find(map, &field.name)
                .is_some_and(|v| self.fits(field, &v, ordered, pd + 1))
        })
    }

    /// The value under `name` in `map`.
    fn find(&self, map: &MapView<'_, 'py>, name: &str) -> Option<Bound<'py, PyAny>> {
        let mut found = None;
        map.each(|_, e| {
            if e.key()? == name {
                found = Some(e.value.clone());
                return Ok(false);
            }
            Ok(true)
        })
        .ok()?;
        found
    }

    /// Whether `value` (at `pd`) fits `field`: of the field's kind, and for a group a
    /// dict whose entries fit the group.
    fn fits(
        &self,
        field: &Field<'_>,
        value: &Bound<'py, PyAny>,
        ordered: &mut bool,
        pd: usize,
    ) -> bool {
        let Ok(r) = self.resolve(value, pd) else {
            return false;
        };
        if !kind_fits(field, Self::kind(&r, value)) {
            return false;
        }
        match (&field.children, r.class) {
            (Some(group), Class::Dict) => {
                let Ok(child) = MapView::of(self.ctx, dict(r.obj(value))) else {
                    return false;
                };
                guard(self.stack_base, r.depth, || {
                    self.matches(group, &child, ordered, r.depth)
                })
            }
            _ => true,
        }
    }

    /// One table row at `depth`: `entry: cells` in a keyed table, else the cells.
    fn row(
        &mut self,
        depth: usize,
        entry_key: Option<&str>,
        row: &Bound<'py, PyAny>,
        fields: &[Field<'_>],
        ordered: bool,
        pd: usize,
    ) -> PyResult<()> {
        let r = self.resolve(row, pd)?;
        let map = MapView::of(self.ctx, dict(r.obj(row)))?;
        self.w.line(depth);
        if let Some(entry_key) = entry_key {
            write_entry_key(&mut self.w.out, entry_key);
        }
        self.cells(&map, fields, ordered, &mut true, r.depth)
    }

    /// The leaf values of a row in depth-first field order, joined by the delimiter.
    fn cells(
        &mut self,
        map: &MapView<'_, 'py>,
        fields: &[Field<'_>],
        ordered: bool,
        first: &mut bool,
        pd: usize,
    ) -> PyResult<()> {
        if ordered {
            map.each(|i, e| {
                if let Some(field) = fields.get(i) {
                    self.cell(field, e.value, ordered, first, pd + 1)?;
                }
                Ok(true)
            })?;
        } else {
            for field in fields {
                if let Some(value) = self.find(map, &field.name) {
                    self.cell(field, &value, ordered, first, pd + 1)?;
                }
            }
        }
        Ok(())
    }

    /// The cell of a leaf field, or the cells of a group.
    #[inline]
    fn cell(
        &mut self,
        field: &Field<'_>,
        value: &Bound<'py, PyAny>,
        ordered: bool,
        first: &mut bool,
        pd: usize,
    ) -> PyResult<()> {
        let r = self.resolve(value, pd)?;
        let o = r.obj(value);
        match (&field.children, r.class) {
            (None, class) if class.is_primitive() => {
                let delimiter = self.delimiter;
                let sep = row_separator(first, delimiter);
                let out = &mut self.w.out;
                with_primitive(o, class, |p| write_cell(out, sep, p, delimiter))
            }
            (Some(group), Class::Dict) => {
                let map = MapView::of(self.ctx, dict(o))?;
                guard(self.stack_base, r.depth, || {
                    self.cells(&map, group, ordered, first, r.depth)
                })
            }
            _ => Ok(()),
        }
    }
}
