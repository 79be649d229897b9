//! The pull decoder: a state machine over an explicit stack of open containers.
//!
//! It performs the tree decoder's steps in the tree decoder's order — the same peeks,
//! the same checks, the same errors — but keeps no text: every step reads at most one
//! line ahead, turns what it needs into owned state, and hands the events of that line
//! to its [`Sink`]: the public event queue, or (crate-private) the JSON writer or value
//! builder, fed directly.

use std::collections::VecDeque;
use std::io::BufRead;

use crate::decode::input::{IoSource, LineInput, TextSource};

use super::Event;
use super::frames::{Frame, KeySet, KeyedFrame, ListFrame, ObjectFrame, TabularFrame};
use super::sink::{RowCache, Sink};
use super::slot::{
    At, Ctx, Slot, array_slot, count_message, field_line, is_array_header_content, is_data_row,
    list_item, over_indented, resolve_header, tok, token_slot,
};
use crate::decode::header::{Field, Header, OwnedFieldCache};
use crate::decode::scanner::Line;
use crate::decode::tokens::{
    ItemStart, PlainKey, find_unquoted, item_start, parse_key, plain_key_colon, split_delimited,
    split_row, trim_spaces,
};
use crate::{DecodeOptions, Error, ErrorKind, Result};

/// A streaming TOON decoder: reads a document from a [`BufRead`] one line at a time and
/// yields it as [`Event`]s.
///
/// It accepts and rejects exactly what [`decode_value_with`](crate::decode_value_with)
/// accepts and rejects, with the same errors (kind, message, line, column), in strict
/// and non-strict mode. Memory is bounded by the longest line plus, per open container,
/// its header's field list and (strict mode) its keys seen so far — not by the length
/// of the document.
///
/// Differences from the tree decoder:
///
/// - In non-strict mode a repeated key is yielded again, as the reference's
///   `decodeStreamSync` does; collecting the events with [`ValueBuilder`](super::ValueBuilder)
///   resolves it as the tree decoder does (last value, first position).
/// - Invalid UTF-8 (strict mode) is found when its line is read, so an error in an
///   earlier line is reported instead, where the tree decoder, which checks the whole
///   input first, reports the UTF-8 error.
/// - After an error the reader yields nothing more.
///
/// ```
/// use toon::decode::{Event, EventReader};
/// use toon::{DecodeOptions, Value};
///
/// let text = "users[2]{id,name}:\n  1,Ada\n  2,Bob\n";
/// let reader = EventReader::new(text.as_bytes(), &DecodeOptions::default());
/// let events = reader.collect::<Result<Vec<_>, _>>()?;
/// assert_eq!(events[0], Event::StartObject);
/// assert_eq!(events[1], Event::Key("users".into()));
/// assert_eq!(events[2], Event::StartArray { len: 2 });
/// assert_eq!(events[5], Event::Primitive(Value::from(1)));
/// assert_eq!(events.len(), 17);
/// # Ok::<(), toon::Error>(())
/// ```
pub struct EventReader<R> {
    inner: Driver<IoSource<R>, VecDeque<Event>>,
}

/// The state machine over a line source, feeding a [`Sink`].
pub(super) struct Driver<I, S> {
    src: I,
    st: State<S>,
}

/// Everything but the line source (so line views and state can be borrowed apart).
struct State<S> {
    ctx: Ctx,
    indent_size: usize,
    /// Open objects and arrays, as the tree decoder counts them for `max_depth`.
    nesting: usize,
    stack: Vec<Frame>,
    out: S,
    started: bool,
    finished: bool,
    /// A reusable cell buffer.
    cells: Vec<&'static str>,
    /// Key sets of closed objects, for reuse.
    key_pool: Vec<KeySet>,
    /// The field lists and row caches of the last tables closed (at most
    /// [`ROW_STASH`], oldest first), for the next table with the same fields (as in a
    /// list of objects that each hold the same tables).
    row_stash: Vec<(Vec<Field<'static>>, RowCache)>,
    /// Field lists of recent headers.
    field_lists: OwnedFieldCache,
}

/// Key sets kept for reuse at most.
const KEY_POOL: usize = 64;

/// Row caches of closed tables kept for reuse at most.
const ROW_STASH: usize = 8;

impl<R: BufRead> EventReader<R> {
    /// A reader of the TOON document in `reader`, decoded with `options`.
    pub fn new(reader: R, options: &DecodeOptions) -> Self {
        EventReader {
            inner: Driver::over_reader(reader, options, VecDeque::new()),
        }
    }

    /// The next event, `None` after the document's last one (and after an error).
    pub fn next_event(&mut self) -> Result<Option<Event>> {
        let d = &mut self.inner;
        loop {
            if let Some(e) = d.st.out.pop_front() {
                return Ok(Some(e));
            }
            if d.st.finished {
                return Ok(None);
            }
            if let Err(e) = d.st.step(&mut d.src) {
                d.st.finished = true;
                d.st.out.clear();
                return Err(e);
            }
        }
    }

    /// The 1-based number of the last line read as part of the document (0 before the
    /// first), for locating what a consumer of the events finds wrong.
    pub fn line_number(&self) -> usize {
        self.inner.src.current().map_or(0, |l| l.number)
    }

    /// Whether strict mode is on.
    pub fn is_strict(&self) -> bool {
        self.inner.st.ctx.strict
    }
}

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
                key_pool: Vec::new(),
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

    /// The current line (the last one read as part of the document), if any.
    pub fn current_line(&self) -> Option<Line<'_>> {
        self.src.current()
    }

    /// The sink, taken out.
    pub fn into_sink(self) -> S {
        self.st.out
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

impl<R: BufRead> Iterator for EventReader<R> {
    type Item = Result<Event>;

    fn next(&mut self) -> Option<Result<Event>> {
        self.next_event().transpose()
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
            .rposition(|(stashed, _)| same_fields(stashed, fields))
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

    fn new_keys(&mut self) -> Option<KeySet> {
        self.ctx
            .strict
            .then(|| self.key_pool.pop().unwrap_or_default())
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
                    let seen = self.new_keys();
                    self.stack.push(Frame::Object(ObjectFrame {
                        min_depth: parent_depth + 1,
                        depth: None,
                        seen,
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
                    let seen = self.new_keys();
                    let rows = self.rows_for(&header);
                    self.out.start_object();
                    self.stack.push(Frame::Keyed(KeyedFrame {
                        leaves: header.leaf_count(),
                        header,
                        base_depth: a.base_depth,
                        entry_depth,
                        count: 0,
                        span: Default::default(),
                        head: a.at,
                        seen,
                        rows,
                    }));
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
                    self.stack.push(Frame::Tabular(TabularFrame {
                        leaves: header.leaf_count(),
                        header,
                        base_depth: a.base_depth,
                        row_depth,
                        count: 0,
                        span: Default::default(),
                        head: a.at,
                        rows,
                    }));
                } else {
                    let item_depth = self.scope_content_depth(src, a.base_depth)?;
                    self.out.start_array(header.length);
                    self.stack.push(Frame::List(ListFrame {
                        length: header.length,
                        base_depth: a.base_depth,
                        item_depth,
                        count: 0,
                        in_item: false,
                        span: Default::default(),
                        head: a.at,
                    }));
                }
            }
            Slot::ListObject { first, depth, at } => {
                self.enter(src, at)?;
                let seen = self.new_keys();
                self.out.start_object();
                self.stack.push(Frame::Object(ObjectFrame {
                    min_depth: depth,
                    depth: Some(depth),
                    seen,
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

    /// A field of the object on top: duplicate check, key, value.
    fn object_field<I: LineInput>(
        &mut self,
        src: &mut I,
        key: String,
        slot: Slot,
        at: At,
    ) -> Result<()> {
        self.check_key(src, &key, at)?;
        self.out.key_owned(key);
        self.enter_slot(src, slot)
    }

    /// The strict duplicate check of a key of the object on top.
    fn check_key<I: LineInput>(&mut self, src: &I, key: &str, at: At) -> Result<()> {
        if let Some(Frame::Object(ObjectFrame {
            seen: Some(seen), ..
        })) = self.stack.last_mut()
            && !seen.insert(key)
        {
            return Err(at_error(
                src,
                at,
                ErrorKind::Syntax,
                format!("Duplicate sibling key \"{key}\""),
            ));
        }
        Ok(())
    }

    /// Closes the frame on top.
    fn close(&mut self, object: bool) {
        let (seen, table) = match self.stack.pop() {
            Some(Frame::Object(f)) => (f.seen, None),
            Some(Frame::Keyed(f)) => (f.seen, Some((f.header, f.rows))),
            Some(Frame::Tabular(f)) => (None, Some((f.header, f.rows))),
            _ => (None, None),
        };
        if let Some(mut s) = seen
            && s.reset()
            && self.key_pool.len() < KEY_POOL
        {
            self.key_pool.push(s);
        }
        if let Some((header, rows)) = table
            && rows.ready
            && rows.simple
            && let Some(fields) = header.fields
        {
            if self.row_stash.len() == ROW_STASH {
                self.row_stash.remove(0);
            }
            self.row_stash.push((fields, rows));
        }
        if object {
            self.out.end_object();
        } else {
            self.out.end_array();
        }
        self.leave();
    }

    fn step_object<I: LineInput>(&mut self, src: &mut I) -> Result<()> {
        let Some(Frame::Object(f)) = self.stack.last() else {
            return Ok(());
        };
        let (min_depth, fixed) = (f.min_depth, f.depth);
        let ctx = self.ctx;
        let Some(line) = self.peek(src)? else {
            self.close(true);
            return Ok(());
        };
        if line.depth < min_depth {
            self.close(true);
            return Ok(());
        }
        let depth = fixed.unwrap_or(line.depth);
        if let Some(Frame::Object(f)) = self.stack.last_mut() {
            f.depth = Some(depth);
        }
        if line.depth != depth {
            return Err(over_indented(&line, depth));
        }
        // `key: primitive`, the commonest line: key and token straight from the line.
        if let PlainKey::Colon(colon) = plain_key_colon(line.content) {
            let rest = trim_spaces(&line.content[colon + 1..]);
            if !rest.is_empty() && rest != "[]" {
                src.consume()?;
                let Some(line) = src.current() else {
                    return Ok(());
                };
                let key = trim_spaces(&line.content[..colon]);
                let rest = trim_spaces(&line.content[colon + 1..]);
                if let Some(Frame::Object(ObjectFrame {
                    seen: Some(seen), ..
                })) = self.stack.last_mut()
                    && !seen.insert(key)
                {
                    return Err(At::of(&line).error(
                        ErrorKind::Syntax,
                        format!("Duplicate sibling key \"{key}\""),
                        line.raw,
                    ));
                }
                self.out.key(key);
                return self.out.token(&line, rest);
            }
        }
        let (key, slot) = field_line(ctx, &mut self.field_lists, &line, depth)?;
        let at = At::of(&line);
        src.consume()?;
        self.object_field(src, key, slot, at)
    }

    fn step_list<I: LineInput>(&mut self, src: &mut I) -> Result<()> {
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
            let rest = trim_spaces(&after[colon + 1..]);
            if !rest.is_empty() && rest != "[]" {
                let item = line.with_content(after);
                let key = trim_spaces(&after[..colon]);
                if let Some(Frame::List(f)) = self.stack.last_mut() {
                    f.in_item = true;
                }
                self.enter_line(&item)?;
                let mut seen = self.new_keys();
                if let Some(seen) = &mut seen {
                    seen.insert(key);
                }
                self.out.start_object();
                self.stack.push(Frame::Object(ObjectFrame {
                    min_depth: item_depth + 1,
                    depth: Some(item_depth + 1),
                    seen,
                }));
                self.out.key(key);
                return self.out.token(&item, rest);
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

    fn step_tabular<I: LineInput>(&mut self, src: &mut I) -> Result<()> {
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

    fn step_keyed<I: LineInput>(&mut self, src: &mut I) -> Result<()> {
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
        if find_unquoted(line.content, b':', 0).is_none() {
            return Err(line.error("Expected entry row inside keyed tabular object"));
        }
        let Some(Frame::Keyed(f)) = self.stack.last_mut() else {
            return Ok(());
        };
        f.span.start.get_or_insert(line.number);
        f.span.end = line.number;
        let (key, key_end) = parse_key(line.content).map_err(|e| tok(line, line.content, e))?;
        if let Some(seen) = &mut f.seen
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
            std::borrow::Cow::Borrowed(k) => self.out.key(k),
            std::borrow::Cow::Owned(k) => self.out.key_owned(k),
        }
        let fields = f.header.fields.as_deref().unwrap_or(&[]);
        self.out.row(&mut f.rows, fields, cells, line)
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

/// The error at the end of an array about its count: at the last line read, or at the
/// header (with its own content column) when no item was read.
fn last_error<I: LineInput>(src: &I, head: At, count: usize, msg: String) -> Error {
    match src.current() {
        Some(line) if count > 0 || line.number != head.number => line.error(msg),
        _ => at_error(src, head, ErrorKind::Syntax, msg),
    }
}
