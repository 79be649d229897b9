//! Where the pull decoder's state machine puts what it reads: the public [`Event`]
//! queue of [`EventReader`](super::EventReader), or (crate-private fast paths) a JSON
//! writer or a value builder fed directly, without an `Event` (and its owned key and
//! value) per step.

use super::header::Field;
use super::scanner::Line;
use super::slot::primitive;
use crate::{Map, Result, Value};

/// A consumer of the reader's output, called in event order.
pub(crate) trait Sink {
    fn start_object(&mut self);
    /// The start of an object that will have `fields` keys (a table row).
    fn start_object_sized(&mut self, fields: usize) {
        let _ = fields;
        self.start_object();
    }
    fn end_object(&mut self);
    fn start_array(&mut self, len: usize);
    fn end_array(&mut self);
    /// The key of the next value (borrowed).
    fn key(&mut self, key: &str);
    /// The key of the next value (owned).
    fn key_owned(&mut self, key: String) {
        self.key(&key);
    }
    /// A primitive value.
    fn value(&mut self, v: Value);
    /// A `key: primitive` field of an object: its key (borrowed) and the primitive's
    /// token of `line`, as [`Sink::key`] then [`Sink::token`].
    #[inline]
    fn field(&mut self, line: &Line<'_>, key: &str, token: &str) -> Result<()> {
        self.key(key);
        self.token(line, token)
    }
    /// A primitive token of `line` (a table cell), read as [`primitive`] reads it.
    fn token(&mut self, line: &Line<'_>, token: &str) -> Result<()> {
        self.value(primitive(line, token)?);
        Ok(())
    }
    /// One table row: an object over `fields`, its leaves from `cells` (as many as the
    /// fields have leaves). `cache` lives as long as the table.
    fn row(
        &mut self,
        cache: &mut RowCache,
        fields: &[Field<'_>],
        cells: &[&str],
        line: &Line<'_>,
    ) -> Result<()>
    where
        Self: Sized,
    {
        let _ = cache;
        row_events(self, fields, cells, line)
    }
}

impl RowCache {
    /// Notes once whether `fields` is simple (nested at most [`SIMPLE_DEPTH`] levels);
    /// true the first time.
    pub fn first_use(&mut self, fields: &[Field<'_>]) -> bool {
        if self.ready {
            return false;
        }
        self.ready = true;
        let mut depth = 0usize;
        let mut deepest = 0usize;
        walk(fields, |step| match step {
            Walk::Open(_) => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            Walk::Close => depth = depth.saturating_sub(1),
            Walk::Leaf(_) => {}
        });
        self.simple = deepest <= SIMPLE_DEPTH;
        true
    }
}

/// Field groups nested deeper than this take the general row path.
const SIMPLE_DEPTH: usize = 16;

/// One step of a depth-first walk over a field list.
pub(crate) enum Walk<'f> {
    /// A field with one cell.
    Leaf(&'f Field<'f>),
    /// A field group opens.
    Open(&'f Field<'f>),
    /// The innermost open group closes.
    Close,
}

/// Walks `fields` depth first (no recursion).
pub(crate) fn walk<'f>(fields: &'f [Field<'f>], mut visit: impl FnMut(Walk<'f>)) {
    let mut stack: Vec<(&'f [Field<'f>], usize)> = Vec::new();
    let mut level: (&'f [Field<'f>], usize) = (fields, 0);
    loop {
        let Some(f) = level.0.get(level.1) else {
            match stack.pop() {
                Some(outer) => {
                    visit(Walk::Close);
                    level = outer;
                    continue;
                }
                None => return,
            }
        };
        level.1 += 1;
        match &f.children {
            None => visit(Walk::Leaf(f)),
            Some(children) => {
                visit(Walk::Open(f));
                stack.push(level);
                level = (children, 0);
            }
        }
    }
}

/// What a sink keeps per table to write its rows faster.
#[derive(Default)]
pub(crate) struct RowCache {
    /// Whether `simple` is known (and the sink's fields below were set up).
    pub ready: bool,
    /// Groups nest at most [`SIMPLE_DEPTH`] levels.
    pub simple: bool,
    /// The value builder's row object with every key and `null` values, groups as
    /// objects (`None` when rows are built key by key: repeated names, deep groups).
    pub shape: Option<Map>,
    /// The JSON writer's row, flattened: keys escaped with their colon (and space).
    pub ops: Vec<RowOp>,
    /// A number the serde driver's queue gives this table's field list (0: none yet),
    /// to know when the names it keeps are this table's.
    pub id: usize,
}

/// One step of the JSON writer's row.
pub(crate) enum RowOp {
    /// A key and the next cell.
    Leaf(String),
    /// A key and an object.
    Open(String),
    /// The end of the innermost object.
    Close,
}

/// The events of one row: an object over the field list, cells depth first.
pub(crate) fn row_events<S: Sink>(
    out: &mut S,
    fields: &[Field<'_>],
    cells: &[&str],
    line: &Line<'_>,
) -> Result<()> {
    out.start_object_sized(fields.len());
    // Flat field lists (the common case): one cell per field.
    if fields.iter().all(|f| f.children.is_none()) {
        for (i, f) in fields.iter().enumerate() {
            out.key(&f.name);
            out.token(line, cells.get(i).copied().unwrap_or(""))?;
        }
        out.end_object();
        return Ok(());
    }
    let mut cell = 0;
    let mut stack: Vec<(&[Field<'_>], usize)> = Vec::new();
    let mut level: (&[Field<'_>], usize) = (fields, 0);
    loop {
        let Some(f) = level.0.get(level.1) else {
            out.end_object();
            match stack.pop() {
                Some(outer) => {
                    level = outer;
                    continue;
                }
                None => return Ok(()),
            }
        };
        level.1 += 1;
        out.key(&f.name);
        match &f.children {
            None => {
                let token = cells.get(cell).copied().unwrap_or("");
                cell += 1;
                out.token(line, token)?;
            }
            Some(children) => {
                out.start_object_sized(children.len());
                stack.push(level);
                level = (children, 0);
            }
        }
    }
}
