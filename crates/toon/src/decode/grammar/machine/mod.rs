//! The decoding state machine: the grammar of spec §5–§14 over an explicit stack of
//! open containers, fed by a [`LineInput`] and feeding a [`Sink`].
//!
//! Every step reads at most one line ahead, keeps what it needs of it as owned state
//! (the frames), and hands what the line holds to the sink: the public event queue,
//! the value builder, the JSON writer or the serde deserializer's queue. Tokens are
//! handed over borrowed from the line (from the text itself for a [`TextSource`]).

mod arrays;
mod objects;

use std::io::BufRead;
use std::sync::Arc;

use crate::decode::input::{IoSource, LineInput, TextSource};

use super::frames::KeySet;
use super::frames::{Frame, KeyStack, KeyedFrame, ListFrame, ObjectFrame, TabularFrame};
use super::header::{Field, FieldList, Header, OwnedFieldCache};
use super::scanner::Line;
use super::sink::{RowCache, Sink};
use super::slot::{
    At, Ctx, Slot, array_slot, count_message, field_line, is_array_header_content, over_indented,
    resolve_header, token_slot,
};
use super::tokens::{find_unquoted, split_delimited, trim_spaces};
use crate::{DecodeOptions, Error, ErrorKind, Result};

/// The state machine over a line source, feeding a [`Sink`].
pub(crate) struct Driver<I, S> {
    src: I,
    st: State<S>,
}

/// Everything but the line source (so line views and state can be borrowed apart).
struct State<S> {
    ctx: Ctx,
    indent_size: usize,
    /// Open objects and arrays, counted for `max_depth`.
    nesting: usize,
    stack: Vec<Frame>,
    out: S,
    started: bool,
    finished: bool,
    /// A reusable cell buffer.
    cells: Vec<&'static str>,
    /// The key sets of the open objects and keyed tables (strict mode only).
    keys: KeyStack,
    /// The field lists and row caches of the last tables closed (at most
    /// [`ROW_STASH`], oldest first), for the next table with the same fields (as in a
    /// list of objects that each hold the same tables).
    row_stash: Vec<(FieldList, RowCache)>,
    /// Field lists of recent headers.
    field_lists: OwnedFieldCache,
}

/// Row caches of closed tables kept for reuse at most.
const ROW_STASH: usize = 8;

impl<I: LineInput, S: Sink> Driver<I, S> {
    /// A driver over the lines of `src`, decoded with `options`, feeding `out`.
    pub fn new(src: I, options: &DecodeOptions, out: S) -> Self {
        Driver {
            src,
            st: State {
                ctx: Ctx {
                    strict: options.strict,
                    max_depth: options.max_depth,
                },
                indent_size: options.indent_size,
                nesting: 0,
                stack: Vec::new(),
                out,
                started: false,
                finished: false,
                cells: Vec::new(),
                keys: KeyStack::default(),
                row_stash: Vec::new(),
                field_lists: OwnedFieldCache::default(),
            },
        }
    }

    /// Runs one step; false once the document is done (and after an error).
    pub fn step(&mut self) -> Result<bool> {
        if self.st.finished {
            return Ok(false);
        }
        if let Err(e) = self.st.step(&mut self.src) {
            self.st.finished = true;
            return Err(e);
        }
        Ok(true)
    }

    /// The sink.
    pub fn sink(&mut self) -> &mut S {
        &mut self.st.out
    }

    /// The sink, to read.
    pub fn sink_ref(&self) -> &S {
        &self.st.out
    }

    /// Whether strict mode is on.
    pub fn is_strict(&self) -> bool {
        self.st.ctx.strict
    }

    /// The current line (the last one read as part of the document), if any.
    pub fn current_line(&self) -> Option<Line<'_>> {
        self.src.current()
    }

    /// The sink, taken out.
    pub fn into_sink(self) -> S {
        self.st.out
    }

    /// The line source (for an input that is fed while the machine runs).
    pub fn source_mut(&mut self) -> &mut I {
        &mut self.src
    }

    /// The line source, to read.
    pub fn source(&self) -> &I {
        &self.src
    }

    /// Whether the document is done (or failed): [`Driver::step`] does nothing more.
    pub fn is_finished(&self) -> bool {
        self.st.finished
    }

    /// How many lines past the current one the next [`Driver::step`] may read, given
    /// the depth of the next line when it is known: a step consumes at most one line
    /// and, opening a block, peeks at most one more. A table row or keyed entry (and the
    /// end of the root) needs only the line it reads, and so does the end of an object
    /// or list that the next line, less indented, closes; so a fed input can hand them
    /// over as soon as that line is complete.
    pub fn lookahead(&self, next_depth: Option<usize>) -> usize {
        if self.st.finished {
            return 0;
        }
        if !self.st.started {
            return 2;
        }
        match (self.st.stack.last(), next_depth) {
            (None, _) => 0,
            (Some(Frame::Root { .. } | Frame::Tabular(_) | Frame::Keyed(_)), _) => 1,
            (Some(Frame::Object(f)), Some(d)) if d < f.min_depth => 1,
            (Some(Frame::List(f)), Some(d)) if d <= f.base_depth => 1,
            (Some(Frame::Object(_) | Frame::List(_)), _) => 2,
        }
    }
}

impl<R: BufRead, S: Sink> Driver<IoSource<R>, S> {
    /// A driver over the lines of `reader`.
    pub fn over_reader(reader: R, options: &DecodeOptions, out: S) -> Self {
        let src = IoSource::new(reader, options.indent_size, options.strict);
        Driver::new(src, options, out)
    }
}

impl<'de, S: Sink> Driver<TextSource<'de>, S> {
    /// A driver over the lines of `text`.
    pub fn over_text(text: &'de str, options: &DecodeOptions, out: S) -> Self {
        let src = TextSource::new(text, options.indent_size, options.strict);
        Driver::new(src, options, out)
    }
}

/// Cells borrowed from a line in a buffer that outlives it.
fn recycle(mut cells: Vec<&str>) -> Vec<&'static str> {
    cells.clear();
    cells.into_iter().map(|_| "").collect()
}

/// An error at `at` on the current line.
fn at_error<I: LineInput>(src: &I, at: At, kind: ErrorKind, msg: String) -> Error {
    let raw = src
        .current()
        .filter(|l| l.number == at.number)
        .map_or("", |l| l.raw);
    at.error(kind, msg, raw)
}

impl<S: Sink> State<S> {
    /// The next line (fetched if needed), noting skipped blank lines in open arrays.
    fn peek<'s, I: LineInput>(&mut self, src: &'s mut I) -> Result<Option<Line<'s>>> {
        src.fill()?;
        if let Some(blank) = src.take_blank()
            && self.ctx.strict
        {
            for frame in &mut self.stack {
                if let Some(span) = frame.span_mut() {
                    span.note(blank);
                }
            }
        }
        Ok(src.peeked())
    }

    fn enter<I: LineInput>(&mut self, src: &I, at: At) -> Result<()> {
        self.nesting += 1;
        if self.nesting > self.ctx.max_depth {
            return Err(at_error(src, at, ErrorKind::Depth, self.depth_message()));
        }
        Ok(())
    }

    /// [`State::enter`] at the content of `line`, the current line.
    fn enter_line(&mut self, line: &Line<'_>) -> Result<()> {
        self.nesting += 1;
        if self.nesting > self.ctx.max_depth {
            return Err(At::of(line).error(ErrorKind::Depth, self.depth_message(), line.raw));
        }
        Ok(())
    }

    /// The row cache of a recent table with `header`'s fields, else a new one.
    fn rows_for(&mut self, header: &Header<'_>) -> RowCache {
        let Some(fields) = &header.fields else {
            return RowCache::default();
        };
        match self
            .row_stash
            .iter()
            .rposition(|(stashed, _)| Arc::ptr_eq(stashed, fields) || same_fields(stashed, fields))
        {
            Some(i) => self.row_stash.remove(i).1,
            None => RowCache::default(),
        }
    }

    fn depth_message(&self) -> String {
        format!(
            "Nesting deeper than the limit of {} levels",
            self.ctx.max_depth
        )
    }

    fn leave(&mut self) {
        self.nesting = self.nesting.saturating_sub(1);
    }

    /// Opens the key set of a new object or keyed table (strict mode only).
    fn open_keys(&mut self) -> Option<&mut KeySet> {
        if self.ctx.strict {
            self.keys.open()
        } else {
            None
        }
    }

    fn step<I: LineInput>(&mut self, src: &mut I) -> Result<()> {
        if !self.started {
            self.started = true;
            return self.root(src);
        }
        match self.stack.last() {
            None => {
                self.finished = true;
                Ok(())
            }
            Some(Frame::Root { array }) => {
                let array = *array;
                if array && let Some(line) = self.peek(src)? {
                    return Err(line.error("Unexpected content after the document root"));
                }
                self.stack.pop();
                self.finished = true;
                Ok(())
            }
            Some(Frame::Object(_)) => self.step_object(src),
            Some(Frame::List(_)) => self.step_list(src),
            Some(Frame::Tabular(_)) => self.step_tabular(src),
            Some(Frame::Keyed(_)) => self.step_keyed(src),
        }
    }

    /// The root form (spec §5).
    fn root<I: LineInput>(&mut self, src: &mut I) -> Result<()> {
        if self.indent_size == 0 {
            return Err(Error::new(
                ErrorKind::Options,
                "indent size must be at least 1",
            ));
        }
        let ctx = self.ctx;
        let Some(first) = self.peek(src)? else {
            self.stack.push(Frame::Root { array: false });
            self.out.start_object();
            self.out.end_object();
            return Ok(());
        };
        if first.depth != 0 {
            return Err(over_indented(&first, 0));
        }
        if trim_spaces(first.content) == "[]" {
            src.consume()?;
            self.stack.push(Frame::Root { array: true });
            self.out.start_array(0);
            self.out.end_array();
            return Ok(());
        }
        if is_array_header_content(first.content)
            && let Some((header, inline)) =
                resolve_header(ctx, &mut self.field_lists, &first, first.content)?
        {
            let slot = array_slot(header, inline, 0, &first);
            src.consume()?;
            self.stack.push(Frame::Root { array: true });
            return self.enter_slot(src, slot);
        }
        src.consume()?;
        self.peek(src)?;
        let (Some(first), following) = src.both() else {
            return Err(Error::new(
                ErrorKind::Syntax,
                "internal: lost the first line",
            ));
        };
        let first_is_kv = find_unquoted(first.content, b':', 0).is_some();
        if following.is_none() && !first_is_kv {
            let slot = token_slot(&first, trim_spaces(first.content));
            self.stack.push(Frame::Root { array: false });
            return self.enter_slot(src, slot);
        }
        if !first_is_kv && following.is_some_and(|l| l.depth == 0) {
            return Err(
                first.error("Top-level document must start with a key-value or array-header line")
            );
        }
        let at = At::of(&first);
        let first_field = field_line(ctx, &mut self.field_lists, &first, 0)
            .map(|(key, slot)| super::slot::FirstField { key, slot, at });
        self.stack.push(Frame::Root { array: false });
        self.enter_slot(
            src,
            Slot::ListObject {
                first: Box::new(first_field),
                depth: 0,
                at,
            },
        )
    }

    /// Starts the value `slot` describes: queues its events, or opens its frame.
    fn enter_slot<I: LineInput>(&mut self, src: &mut I, slot: Slot) -> Result<()> {
        match slot {
            Slot::Prim(range) => {
                let Some(line) = src.current() else {
                    return Err(Error::new(ErrorKind::Syntax, "internal: lost the line"));
                };
                let token = line.raw.get(range).unwrap_or("");
                self.out.token(&line, token)?;
            }
            Slot::EmptyArray => {
                self.out.start_array(0);
                self.out.end_array();
            }
            Slot::EmptyObject => {
                self.out.start_object();
                self.out.end_object();
            }
            Slot::Object { parent_depth, at } => {
                let deeper = match self.peek(src)? {
                    Some(next) if next.depth > parent_depth => {
                        if self.ctx.strict && next.depth > parent_depth + 1 {
                            return Err(next.error(format!(
                                "Indentation depth jump: expected depth {}, but found {}",
                                parent_depth + 1,
                                next.depth
                            )));
                        }
                        true
                    }
                    _ => false,
                };
                self.out.start_object();
                if deeper {
                    self.enter(src, at)?;
                    self.open_keys();
                    self.stack.push(Frame::Object(ObjectFrame {
                        min_depth: parent_depth + 1,
                        depth: None,
                    }));
                } else {
                    self.out.end_object();
                }
            }
            Slot::Array(a) => {
                let a = *a;
                self.enter(src, a.at)?;
                let header = a.header;
                if header.keyed {
                    let entry_depth = self.scope_content_depth(src, a.base_depth)?;
                    if let Some(seen) = self.open_keys() {
                        seen.expect(header.length);
                    }
                    let rows = self.rows_for(&header);
                    self.out.start_object();
                    self.stack.push(Frame::Keyed(Box::new(KeyedFrame {
                        leaves: header.leaf_count(),
                        header,
                        base_depth: a.base_depth,
                        entry_depth,
                        count: 0,
                        span: Default::default(),
                        head: a.at,
                        rows,
                    })));
                } else if let Some(range) = a.inline {
                    let Some(line) = src.current() else {
                        return Err(Error::new(ErrorKind::Syntax, "internal: lost the line"));
                    };
                    let text = line.raw.get(range).unwrap_or("");
                    let mut cells = std::mem::take(&mut self.cells);
                    split_delimited(text, header.delimiter, &mut cells);
                    self.out.start_array(header.length);
                    let got = cells.len();
                    for t in &cells {
                        self.out.token(&line, t)?;
                    }
                    self.cells = recycle(cells);
                    if self.ctx.strict && got != header.length {
                        return Err(at_error(
                            src,
                            a.at,
                            ErrorKind::Syntax,
                            count_message(header.length, "inline-form values", got),
                        ));
                    }
                    self.out.end_array();
                    self.leave();
                } else if header.fields.as_ref().is_some_and(|f| !f.is_empty()) {
                    let row_depth = self.scope_content_depth(src, a.base_depth)?;
                    self.out.start_array(header.length);
                    let rows = self.rows_for(&header);
                    self.stack.push(Frame::Tabular(Box::new(TabularFrame {
                        leaves: header.leaf_count(),
                        header,
                        base_depth: a.base_depth,
                        row_depth,
                        count: 0,
                        span: Default::default(),
                        head: a.at,
                        rows,
                    })));
                } else {
                    let item_depth = self.scope_content_depth(src, a.base_depth)?;
                    self.out.start_array(header.length);
                    self.stack.push(Frame::List(Box::new(ListFrame {
                        length: header.length,
                        base_depth: a.base_depth,
                        item_depth,
                        count: 0,
                        in_item: false,
                        span: Default::default(),
                        head: a.at,
                    })));
                }
            }
            Slot::ListObject { first, depth, at } => {
                self.enter(src, at)?;
                self.open_keys();
                self.out.start_object();
                self.stack.push(Frame::Object(ObjectFrame {
                    min_depth: depth,
                    depth: Some(depth),
                }));
                let first = (*first)?;
                self.object_field(src, first.key, first.slot, first.at)?;
            }
        }
        Ok(())
    }

    /// The depth of a block's content: one below its parent, or in non-strict mode the
    /// depth of a first line that sits deeper.
    fn scope_content_depth<I: LineInput>(
        &mut self,
        src: &mut I,
        base_depth: usize,
    ) -> Result<usize> {
        match self.peek(src)? {
            Some(first) if first.depth > base_depth + 1 => {
                if self.ctx.strict {
                    return Err(first.error(format!(
                        "Indentation depth jump: expected depth {}, but found {}",
                        base_depth + 1,
                        first.depth
                    )));
                }
                Ok(first.depth)
            }
            _ => Ok(base_depth + 1),
        }
    }

    /// Closes the frame on top.
    #[inline]
    fn close(&mut self, object: bool) {
        match self.stack.pop() {
            Some(Frame::Object(_)) if self.ctx.strict => self.keys.close(),
            Some(Frame::Keyed(f)) => {
                if self.ctx.strict {
                    self.keys.close();
                }
                self.stash_rows(f.header, f.rows);
            }
            Some(Frame::Tabular(f)) => self.stash_rows(f.header, f.rows),
            _ => {}
        }
        if object {
            self.out.end_object();
        } else {
            self.out.end_array();
        }
        self.leave();
    }

    /// Keeps the row cache of a closed table for the next table with the same fields.
    fn stash_rows(&mut self, header: Header<'static>, rows: RowCache) {
        if rows.ready
            && rows.simple
            && let Some(fields) = header.fields
        {
            if self.row_stash.len() == ROW_STASH {
                self.row_stash.remove(0);
            }
            self.row_stash.push((fields, rows));
        }
    }
}

/// The same field names in the same groups (recursion ends at the first difference,
/// so within the depth of a stashed, simple list).
fn same_fields(a: &[Field<'_>], b: &[Field<'_>]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            x.name == y.name
                && match (&x.children, &y.children) {
                    (None, None) => true,
                    (Some(p), Some(q)) => same_fields(p, q),
                    _ => false,
                }
        })
}
