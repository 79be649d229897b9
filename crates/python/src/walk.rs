//! `encode`: Python objects straight into TOON lines, without serde in between.
//!
//! The walker reads the objects through [`views`](crate::views) and writes with the
//! `toon` crate's one line writer and its form rules (`toon::__private::writer`), in
//! the `Value` encoder's order of decisions, so the text is the one `toon` writes for
//! the same data (the differential tests pin it to the official package's). Each
//! container is written in one pass: an array is tried as a table row by row under a
//! mark and taken back at the first row that does not fit; an object is tried as a
//! keyed table only when all its values are dicts of one size.
//!
//! Look-aheads (is every item a primitive, do the rows fit the template) treat a
//! value that raises (a `default` hook, a bad key) as not fitting; the error is then
//! raised where the value is written, so errors come in document order, depth first,
//! as from the serde route. A `default` hook or host-type rule runs once per object
//! (its answer, or its exception, is kept for the call).

use std::cell::RefCell;
use std::collections::HashMap;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use pyo3::{Borrowed, ffi};
use toon::__private::writer::{
    ArrayForm, Field, Kind, LineWriter, Place, array_form, child_depth, inline_separator,
    item_field_depth, write_cell, write_empty_array, write_entry_key, write_header,
    write_object_key, write_primitive, write_root_primitive,
};
use toon::Delimiter;

use crate::to_toon::{CHECK_EVERY, Ctx, MAX_DEPTH, RED_ZONE, SEGMENT};
use crate::views::{Class, MapView, SeqView, classify, classify_exact, live_key, with_primitive};

mod keys;
mod table;

use keys::{KeyText, KeyTexts};
use table::{Rows, TableSpec};

/// The `toon` crate's nesting limit for containers (the root container is level 1).
const MAX_LEVEL: usize = toon::DEFAULT_MAX_DEPTH;

/// Encodes `obj` as a TOON document.
pub(crate) fn encode<'py>(
    ctx: &Ctx<'py>,
    obj: &Bound<'py, PyAny>,
    indent_size: usize,
    delimiter: Delimiter,
) -> PyResult<String> {
    stacker::maybe_grow(RED_ZONE, SEGMENT, || {
        let mut walker = Walker {
            ctx,
            w: LineWriter::new(indent_size),
            delimiter,
            failed: RefCell::new(HashMap::new()),
            keys: KeyTexts::new(),
            stack_base: stack_here(),
        };
        walker.root(obj)?;
        Ok(walker.w.out)
    })
}

/// One `encode` call.
struct Walker<'c, 'py> {
    ctx: &'c Ctx<'py>,
    w: LineWriter<'static>,
    delimiter: Delimiter,
    /// The exception a host-type rule or `default` raised for each object, by
    /// address (with the object, so the address stays its own): asked again, the
    /// same exception is raised without calling the hook again.
    failed: RefCell<HashMap<usize, (Bound<'py, PyAny>, PyErr)>>,
    /// The entry keys written so far, by key object.
    keys: KeyTexts<'py>,
    /// Where on the stack the walk started, with at least [`RED_ZONE`] left.
    stack_base: usize,
}

/// A value after its replacements: the object to read (`None`: the value itself),
/// its class, and its depth (containers and replacements around it).
struct Res<'py> {
    replaced: Option<Bound<'py, PyAny>>,
    class: Class,
    depth: usize,
}

impl<'py> Res<'py> {
    #[inline]
    fn obj<'s>(&'s self, orig: &'s Bound<'py, PyAny>) -> &'s Bound<'py, PyAny> {
        self.replaced.as_ref().unwrap_or(orig)
    }
}

/// Stack a walk may use beyond where it started (with at least [`RED_ZONE`] left)
/// before it checks how much is left.
const UNCHECKED: usize = RED_ZONE / 2;

/// An address in the current stack frame.
#[inline(always)]
fn stack_here() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

/// Runs `f` (the elements of a container at `depth`), on a new stack segment if this
/// one is nearly used up: checked every [`CHECK_EVERY`] levels once the walk has
/// gone [`UNCHECKED`] bytes beyond `base`, where it started (shallow values never
/// ask the system how much stack is left).
#[inline]
fn guard<R>(base: usize, depth: usize, f: impl FnOnce() -> R) -> R {
    if depth.is_multiple_of(CHECK_EVERY) && base.abs_diff(stack_here()) > UNCHECKED {
        stacker::maybe_grow(RED_ZONE, SEGMENT, f)
    } else {
        f()
    }
}

/// A resolved dict as a `PyDict`.
#[inline]
fn dict<'s, 'py>(obj: &'s Bound<'py, PyAny>) -> &'s Bound<'py, PyDict> {
    // SAFETY: called on objects of `Class::Dict`, dict instances only.
    unsafe { obj.cast_unchecked::<PyDict>() }
}

impl<'c, 'py> Walker<'c, 'py> {
    /// `obj` at `depth`, after the host-type rules and `default` where it has no
    /// TOON form of its own.
    #[inline(always)]
    fn resolve(&self, obj: &Bound<'py, PyAny>, depth: usize) -> PyResult<Res<'py>> {
        if depth < MAX_DEPTH
            && let Some(class) = classify(obj)
        {
            return Ok(Res {
                replaced: None,
                class,
                depth,
            });
        }
        self.resolve_slow(obj, depth)
    }

    /// [`resolve`](Self::resolve) at the nesting limit or of an object to replace.
    #[cold]
    #[inline(never)]
    fn resolve_slow(&self, obj: &Bound<'py, PyAny>, depth: usize) -> PyResult<Res<'py>> {
        if depth >= MAX_DEPTH {
            return Err(self.ctx.depth_error());
        }
        self.resolve_replaced(obj, depth)
    }

    #[cold]
    fn resolve_replaced(&self, obj: &Bound<'py, PyAny>, depth: usize) -> PyResult<Res<'py>> {
        let mut chain = vec![obj.as_ptr() as usize];
        let mut current = self.replace(obj)?;
        let mut depth = depth + 1;
        loop {
            if depth >= MAX_DEPTH {
                return Err(self.ctx.depth_error_with(&chain));
            }
            if let Some(class) = classify(&current) {
                return Ok(Res {
                    replaced: Some(current),
                    class,
                    depth,
                });
            }
            chain.push(current.as_ptr() as usize);
            let next = self.replace(&current)?;
            current = next;
            depth += 1;
        }
    }

    /// The replacement of `obj` (the host-type rules, then `default`), once per object.
    fn replace(&self, obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let addr = obj.as_ptr() as usize;
        if let Some((_, e)) = self.failed.borrow().get(&addr) {
            return Err(e.clone_ref(obj.py()));
        }
        self.ctx.replacement(obj).inspect_err(|e| {
            self.failed
                .borrow_mut()
                .insert(addr, (obj.clone(), e.clone_ref(obj.py())));
        })
    }

    /// What `r` is, as the table rules see it.
    #[inline]
    fn kind(r: &Res<'py>, orig: &Bound<'py, PyAny>) -> Kind {
        match r.class {
            Class::Dict if !dict(r.obj(orig)).is_empty() => Kind::Object,
            Class::Dict | Class::List | Class::Tuple => Kind::Other,
            _ => Kind::Primitive,
        }
    }

    /// Writes the primitive `obj` of class `class`.
    #[inline]
    fn primitive(&mut self, obj: &Bound<'py, PyAny>, class: Class) -> PyResult<()> {
        let delimiter = self.delimiter;
        let out = &mut self.w.out;
        with_primitive(obj, class, |p| write_primitive(out, p, delimiter))
    }

    fn header(&mut self, key: Option<&str>, len: usize, keyed: bool, fields: Option<&[Field<'_>]>) {
        write_header(&mut self.w.out, key, len, keyed, self.delimiter, fields);
    }

    /// The whole document. A root `{}` writes nothing; a root string that starts
    /// with U+FEFF is always quoted.
    fn root(&mut self, obj: &Bound<'py, PyAny>) -> PyResult<()> {
        let r = self.resolve(obj, 0)?;
        let o = r.obj(obj);
        let ctx = self.ctx;
        match r.class {
            Class::List | Class::Tuple => {
                self.w.line(0);
                self.array(
                    o,
                    r.class,
                    Place::Root,
                    None,
                    child_depth(0, false),
                    1,
                    r.depth,
                )
            }
            Class::Dict => ctx.open(o, || {
                let map = MapView::of(ctx, dict(o))?;
                if self.keyed_candidate(Place::Root, &map, r.depth) {
                    let mark = self.w.mark();
                    self.w.line(0);
                    if self.try_keyed(mark, None, &map, 2, 1, r.depth)? {
                        return Ok(());
                    }
                }
                self.fields(&map, 0, 1, r.depth)
            }),
            class => {
                self.w.line(0);
                let delimiter = self.delimiter;
                let out = &mut self.w.out;
                with_primitive(o, class, |p| write_root_primitive(out, p, delimiter))
            }
        }
    }

    /// The fields of an object at `level` (at `pd`), one per line at `depth`.
    fn fields(
        &mut self,
        map: &MapView<'_, 'py>,
        depth: usize,
        level: usize,
        pd: usize,
    ) -> PyResult<()> {
        if let MapView::Live(d) = map {
            return self.live_fields(d, depth, false, level, pd);
        }
        map.each(|_, e| {
            self.field(&e.key()?, e.value, depth, false, level, pd + 1)?;
            Ok(true)
        })?;
        Ok(())
    }

    /// The fields of the dict `d`, read in place ([`MapView::Live`]), of an object at
    /// `level` (at `pd`), one per line at `depth`; with `hyphen`, of an object that is
    /// a list item at `depth`: the first field on the hyphen line, the others at
    /// [`item_field_depth`]. The usual field, an exact str key and a primitive of an
    /// exact built-in type, is written here (its `key: ` from [`KeyTexts`]); any
    /// other goes through [`field`](Self::field), in the same order of reads.
    fn live_fields(
        &mut self,
        d: &Bound<'py, PyDict>,
        depth: usize,
        hyphen: bool,
        level: usize,
        pd: usize,
    ) -> PyResult<()> {
        let py = d.py();
        let rest_depth = if hyphen {
            item_field_depth(depth)
        } else {
            depth
        };
        let mut on_hyphen = hyphen;
        let mut checked = false;
        let mut pos: ffi::Py_ssize_t = 0;
        loop {
            let mut k = std::ptr::null_mut();
            let mut v = std::ptr::null_mut();
            // SAFETY: `d` is a live dict; `PyDict_Next` hands out borrowed references,
            // and nothing changes the dict meanwhile (it is read in place).
            if unsafe { ffi::PyDict_Next(d.as_ptr(), &mut pos, &mut k, &mut v) } == 0 {
                return Ok(());
            }
            // SAFETY: the dict holds both.
            let (k, v) = unsafe { (Borrowed::from_ptr(py, k), Borrowed::from_ptr(py, v)) };
            let line_depth = if on_hyphen { depth } else { rest_depth };
            if pd + 1 < MAX_DEPTH
                && let Ok(ks) = k.cast_exact::<PyString>()
                && let Some(class) = classify_exact(&v).filter(|c| c.is_primitive())
                && let Some(key) = self.keys.get(&ks)
            {
                start_field(&mut self.w, line_depth, on_hyphen);
                let out = &mut self.w.out;
                match key {
                    KeyText::Written(text) => out.push_str(text),
                    KeyText::Plain(text) => write_entry_key(out, text),
                }
                let delimiter = self.delimiter;
                with_primitive(&v, class, |p| write_primitive(out, p, delimiter))?;
            } else {
                let key = live_key(d, &k, &mut checked)?;
                self.field(&key, &v, line_depth, on_hyphen, level, pd + 1)?;
            }
            on_hyphen = false;
        }
    }

    /// One field of an object at `level`, starting a line at `depth`; with `on_hyphen`,
    /// the first field of an object that is a list item at `depth`, on the hyphen line.
    fn field(
        &mut self,
        key: &str,
        value: &Bound<'py, PyAny>,
        depth: usize,
        on_hyphen: bool,
        level: usize,
        pd: usize,
    ) -> PyResult<()> {
        let r = self.resolve(value, pd)?;
        let o = r.obj(value);
        start_field(&mut self.w, depth, on_hyphen);
        match r.class {
            Class::List | Class::Tuple => {
                let rows = child_depth(depth, on_hyphen);
                self.array(
                    o,
                    r.class,
                    Place::Field,
                    Some(key),
                    rows,
                    level + 1,
                    r.depth,
                )
            }
            Class::Dict => {
                self.object_value(key, o, child_depth(depth, on_hyphen), level + 1, r.depth)
            }
            class => {
                write_entry_key(&mut self.w.out, key);
                self.primitive(o, class)
            }
        }
    }

    /// An array `o` at `level` on a started line, marked open while it is written.
    #[allow(clippy::too_many_arguments)]
    fn array(
        &mut self,
        o: &Bound<'py, PyAny>,
        class: Class,
        place: Place,
        key: Option<&str>,
        child_depth: usize,
        level: usize,
        pd: usize,
    ) -> PyResult<()> {
        let ctx = self.ctx;
        ctx.open(o, || {
            guard(self.stack_base, pd, || {
                let seq = SeqView::of(ctx, o, class);
                self.array_body(place, key, &seq, child_depth, level, pd)
            })
        })
    }

    /// An object `o` under `key` on a started line: a keyed table, or `key:` and its
    /// fields at `child_depth`.
    fn object_value(
        &mut self,
        key: &str,
        o: &Bound<'py, PyAny>,
        child_depth: usize,
        level: usize,
        pd: usize,
    ) -> PyResult<()> {
        let ctx = self.ctx;
        ctx.open(o, || {
            guard(self.stack_base, pd, || {
                let map = MapView::of(ctx, dict(o))?;
                if self.keyed_candidate(Place::Field, &map, pd) {
                    let mark = self.w.mark();
                    if self.try_keyed(mark, Some(key), &map, level + 1, child_depth, pd)? {
                        return Ok(());
                    }
                }
                write_object_key(&mut self.w.out, key);
                self.fields(&map, child_depth, level, pd)
            })
        })
    }

    /// An array at `level` (at `pd`) on a started line, in the form [`array_form`]
    /// gives it at `place`, its items or rows at `child_depth`.
    fn array_body(
        &mut self,
        place: Place,
        key: Option<&str>,
        seq: &SeqView<'_, 'py>,
        child_depth: usize,
        level: usize,
        pd: usize,
    ) -> PyResult<()> {
        let all_primitive = self.all_primitive(seq, pd + 1);
        match array_form(place, seq.len(), all_primitive) {
            ArrayForm::Empty => write_empty_array(&mut self.w.out, key),
            ArrayForm::Inline => self.inline(key, seq, pd + 1)?,
            ArrayForm::TableOrList => {
                // Rows of different sizes are found as the table is written (no pass
                // over the rows before it).
                let mark = self.w.mark();
                let spec = TableSpec {
                    key,
                    keyed: false,
                    row_level: level + 1,
                    row_depth: child_depth,
                };
                if self.try_table(mark, &spec, &Rows::Seq(seq), pd + 1)? {
                    return Ok(());
                }
                self.list(key, seq, child_depth, level, pd)?;
            }
            ArrayForm::List => self.list(key, seq, child_depth, level, pd)?,
        }
        Ok(())
    }

    /// Whether every item resolves to a primitive (one that raises does not).
    fn all_primitive(&self, seq: &SeqView<'_, 'py>, pd: usize) -> bool {
        (0..seq.len()).all(|i| {
            seq.get(i)
                .and_then(|item| self.resolve(&item, pd))
                .is_ok_and(|r| r.class.is_primitive())
        })
    }

    /// An inline primitive array on a started line: `key[N]: v1,v2`.
    fn inline(&mut self, key: Option<&str>, seq: &SeqView<'_, 'py>, pd: usize) -> PyResult<()> {
        self.header(key, seq.len(), false, None);
        let delimiter = self.delimiter;
        for i in 0..seq.len() {
            let item = seq.get(i)?;
            let r = self.resolve(&item, pd)?;
            let sep = inline_separator(i, delimiter);
            let out = &mut self.w.out;
            with_primitive(r.obj(&item), r.class, |p| {
                write_cell(out, Some(sep), p, delimiter)
            })?;
        }
        Ok(())
    }

    /// An expanded list: the header, then each item as `- …` at `child_depth`.
    fn list(
        &mut self,
        key: Option<&str>,
        seq: &SeqView<'_, 'py>,
        child_depth: usize,
        level: usize,
        pd: usize,
    ) -> PyResult<()> {
        self.header(key, seq.len(), false, None);
        for i in 0..seq.len() {
            let item = seq.get(i)?;
            self.list_item(&item, child_depth, level, pd + 1)?;
        }
        Ok(())
    }

    /// One item of an expanded list at `depth`; the list is at `level`.
    fn list_item(
        &mut self,
        item: &Bound<'py, PyAny>,
        depth: usize,
        level: usize,
        pd: usize,
    ) -> PyResult<()> {
        let r = self.resolve(item, pd)?;
        let o = r.obj(item);
        match r.class {
            Class::List | Class::Tuple => {
                self.w.item(depth);
                let items = child_depth(depth, false);
                self.array(o, r.class, Place::ListItem, None, items, level + 1, r.depth)
            }
            Class::Dict => self.object_item(o, depth, level + 1, r.depth),
            class => {
                self.w.item(depth);
                self.primitive(o, class)
            }
        }
    }

    /// An object at `level` as a list item at `depth`: the first field on the
    /// hyphen line, the others at depth + 1; a bare `-` if empty.
    fn object_item(
        &mut self,
        o: &Bound<'py, PyAny>,
        depth: usize,
        level: usize,
        pd: usize,
    ) -> PyResult<()> {
        let ctx = self.ctx;
        ctx.open(o, || {
            guard(self.stack_base, pd, || {
                let map = MapView::of(ctx, dict(o))?;
                if map.len() == 0 {
                    self.w.empty_item(depth);
                    return Ok(());
                }
                if let MapView::Live(d) = &map {
                    return self.live_fields(d, depth, true, level, pd);
                }
                map.each(|i, e| {
                    if i == 0 {
                        self.field(&e.key()?, e.value, depth, true, level, pd + 1)?;
                    } else {
                        self.field(
                            &e.key()?,
                            e.value,
                            item_field_depth(depth),
                            false,
                            level,
                            pd + 1,
                        )?;
                    }
                    Ok(true)
                })?;
                Ok(())
            })
        })
    }
}

/// Starts a field's line at `depth` in `w`: with `on_hyphen`, the hyphen line of the
/// object that is a list item at `depth`.
#[inline]
fn start_field(w: &mut LineWriter<'_>, depth: usize, on_hyphen: bool) {
    if on_hyphen {
        w.item(depth);
    } else {
        w.line(depth);
    }
}
