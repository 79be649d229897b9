//! The pull decoder: a state machine over an explicit stack of open containers.
//!
//! It performs the tree decoder's steps in the tree decoder's order — the same peeks,
//! the same checks, the same errors — but keeps no text: every step reads at most one
//! line ahead, turns what it needs into owned state, and queues the events of that
//! line.

use std::collections::VecDeque;
use std::io::BufRead;

use super::Event;
use super::frames::{Frame, KeySet, KeyedFrame, ListFrame, ObjectFrame, TabularFrame};
use super::line_source::LineSource;
use super::slot::{
    At, Ctx, Slot, array_slot, count_message, field_line, is_array_header_content, is_data_row,
    list_item, over_indented, primitive, resolve_header, tok,
};
use crate::decode::header::Field;
use crate::decode::scanner::Line;
use crate::decode::tokens::{find_unquoted, parse_key, split_delimited, split_row, trim_spaces};
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
    src: LineSource<R>,
    st: State,
}

/// Everything but the line source (so line views and state can be borrowed apart).
struct State {
    ctx: Ctx,
    indent_size: usize,
    /// Open objects and arrays, as the tree decoder counts them for `max_depth`.
    nesting: usize,
    stack: Vec<Frame>,
    queue: VecDeque<Event>,
    started: bool,
    finished: bool,
    /// A reusable cell buffer.
    cells: Vec<&'static str>,
}

impl<R: BufRead> EventReader<R> {
    /// A reader of the TOON document in `reader`, decoded with `options`.
    pub fn new(reader: R, options: &DecodeOptions) -> Self {
        EventReader {
            src: LineSource::new(reader, options.indent_size, options.strict),
            st: State {
                ctx: Ctx {
                    strict: options.strict,
                    max_depth: options.max_depth,
                },
                indent_size: options.indent_size,
                nesting: 0,
                stack: Vec::new(),
                queue: VecDeque::new(),
                started: false,
                finished: false,
                cells: Vec::new(),
            },
        }
    }

    /// The next event, `None` after the document's last one (and after an error).
    pub fn next_event(&mut self) -> Result<Option<Event>> {
        loop {
            if let Some(e) = self.st.queue.pop_front() {
                return Ok(Some(e));
            }
            if self.st.finished {
                return Ok(None);
            }
            if let Err(e) = self.st.step(&mut self.src) {
                self.st.finished = true;
                self.st.queue.clear();
                return Err(e);
            }
        }
    }

    /// The 1-based number of the last line read as part of the document (0 before the
    /// first), for locating what a consumer of the events finds wrong.
    pub fn line_number(&self) -> usize {
        self.src.current().map_or(0, |l| l.number)
    }

    /// Whether strict mode is on.
    pub fn is_strict(&self) -> bool {
        self.st.ctx.strict
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
fn at_error<R: BufRead>(src: &LineSource<R>, at: At, kind: ErrorKind, msg: String) -> Error {
    let raw = src
        .current()
        .filter(|l| l.number == at.number)
        .map_or("", |l| l.raw);
    at.error(kind, msg, raw)
}

impl State {
    fn push(&mut self, e: Event) {
        self.queue.push_back(e);
    }

    /// The next line (fetched if needed), noting skipped blank lines in open arrays.
    fn peek<'s, R: BufRead>(&mut self, src: &'s mut LineSource<R>) -> Result<Option<Line<'s>>> {
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

    fn enter<R: BufRead>(&mut self, src: &LineSource<R>, at: At) -> Result<()> {
        self.nesting += 1;
        if self.nesting > self.ctx.max_depth {
            return Err(at_error(
                src,
                at,
                ErrorKind::Depth,
                format!(
                    "Nesting deeper than the limit of {} levels",
                    self.ctx.max_depth
                ),
            ));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.nesting = self.nesting.saturating_sub(1);
    }

    fn new_keys(&self) -> Option<KeySet> {
        self.ctx.strict.then(KeySet::default)
    }

    fn step<R: BufRead>(&mut self, src: &mut LineSource<R>) -> Result<()> {
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
    fn root<R: BufRead>(&mut self, src: &mut LineSource<R>) -> Result<()> {
        if self.indent_size == 0 {
            return Err(Error::new(
                ErrorKind::Options,
                "indent size must be at least 1",
            ));
        }
        let ctx = self.ctx;
        let Some(first) = self.peek(src)? else {
            self.stack.push(Frame::Root { array: false });
            self.push(Event::StartObject);
            self.push(Event::EndObject);
            return Ok(());
        };
        if first.depth != 0 {
            return Err(over_indented(&first, 0));
        }
        if trim_spaces(first.content) == "[]" {
            src.consume()?;
            self.stack.push(Frame::Root { array: true });
            self.push(Event::StartArray { len: 0 });
            self.push(Event::EndArray);
            return Ok(());
        }
        if is_array_header_content(first.content)
            && let Some((header, inline)) = resolve_header(ctx, &first, first.content)?
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
            let slot = Slot::Prim(primitive(&first, trim_spaces(first.content)));
            self.stack.push(Frame::Root { array: false });
            return self.enter_slot(src, slot);
        }
        if !first_is_kv && following.is_some_and(|l| l.depth == 0) {
            return Err(
                first.error("Top-level document must start with a key-value or array-header line")
            );
        }
        let at = At::of(&first);
        let first_field =
            field_line(ctx, &first, 0).map(|(key, slot)| super::slot::FirstField { key, slot, at });
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
    fn enter_slot<R: BufRead>(&mut self, src: &mut LineSource<R>, slot: Slot) -> Result<()> {
        match slot {
            Slot::Prim(v) => self.push(Event::Primitive(v?)),
            Slot::EmptyArray => {
                self.push(Event::StartArray { len: 0 });
                self.push(Event::EndArray);
            }
            Slot::EmptyObject => {
                self.push(Event::StartObject);
                self.push(Event::EndObject);
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
                self.push(Event::StartObject);
                if deeper {
                    self.enter(src, at)?;
                    let seen = self.new_keys();
                    self.stack.push(Frame::Object(ObjectFrame {
                        min_depth: parent_depth + 1,
                        depth: None,
                        seen,
                    }));
                } else {
                    self.push(Event::EndObject);
                }
            }
            Slot::Array(a) => {
                let a = *a;
                self.enter(src, a.at)?;
                let header = a.header;
                if header.keyed {
                    let entry_depth = self.scope_content_depth(src, a.base_depth)?;
                    let seen = self.new_keys();
                    self.push(Event::StartObject);
                    self.stack.push(Frame::Keyed(KeyedFrame {
                        leaves: header.leaf_count(),
                        header,
                        base_depth: a.base_depth,
                        entry_depth,
                        count: 0,
                        span: Default::default(),
                        head: a.at,
                        seen,
                    }));
                } else if let Some(values) = a.inline {
                    let values = values?;
                    self.push(Event::StartArray { len: header.length });
                    let got = values.len();
                    for v in values {
                        self.push(Event::Primitive(v));
                    }
                    if self.ctx.strict && got != header.length {
                        return Err(at_error(
                            src,
                            a.at,
                            ErrorKind::Syntax,
                            count_message(header.length, "inline-form values", got),
                        ));
                    }
                    self.push(Event::EndArray);
                    self.leave();
                } else if header.fields.as_ref().is_some_and(|f| !f.is_empty()) {
                    let row_depth = self.scope_content_depth(src, a.base_depth)?;
                    self.push(Event::StartArray { len: header.length });
                    self.stack.push(Frame::Tabular(TabularFrame {
                        leaves: header.leaf_count(),
                        header,
                        base_depth: a.base_depth,
                        row_depth,
                        count: 0,
                        span: Default::default(),
                        head: a.at,
                    }));
                } else {
                    let item_depth = self.scope_content_depth(src, a.base_depth)?;
                    self.push(Event::StartArray { len: header.length });
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
                self.push(Event::StartObject);
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
    fn scope_content_depth<R: BufRead>(
        &mut self,
        src: &mut LineSource<R>,
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
    fn object_field<R: BufRead>(
        &mut self,
        src: &mut LineSource<R>,
        key: String,
        slot: Slot,
        at: At,
    ) -> Result<()> {
        if let Some(Frame::Object(ObjectFrame {
            seen: Some(seen), ..
        })) = self.stack.last_mut()
            && !seen.insert(&key)
        {
            return Err(at_error(
                src,
                at,
                ErrorKind::Syntax,
                format!("Duplicate sibling key \"{key}\""),
            ));
        }
        self.push(Event::Key(key));
        self.enter_slot(src, slot)
    }

    /// Closes the frame on top.
    fn close(&mut self, event: Event) {
        self.stack.pop();
        self.push(event);
        self.leave();
    }

    fn step_object<R: BufRead>(&mut self, src: &mut LineSource<R>) -> Result<()> {
        let Some(Frame::Object(f)) = self.stack.last() else {
            return Ok(());
        };
        let (min_depth, fixed) = (f.min_depth, f.depth);
        let ctx = self.ctx;
        let Some(line) = self.peek(src)? else {
            self.close(Event::EndObject);
            return Ok(());
        };
        if line.depth < min_depth {
            self.close(Event::EndObject);
            return Ok(());
        }
        let depth = fixed.unwrap_or(line.depth);
        if let Some(Frame::Object(f)) = self.stack.last_mut() {
            f.depth = Some(depth);
        }
        if line.depth != depth {
            return Err(over_indented(&line, depth));
        }
        let (key, slot) = field_line(ctx, &line, depth)?;
        let at = At::of(&line);
        src.consume()?;
        self.object_field(src, key, slot, at)
    }

    fn step_list<R: BufRead>(&mut self, src: &mut LineSource<R>) -> Result<()> {
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
            self.close(Event::EndArray);
            return Ok(());
        }
        src.consume()?;
        let slot = match src.current() {
            Some(line) => list_item(self.ctx, &line, item_depth)?,
            None => Slot::EmptyObject,
        };
        if let Some(Frame::List(f)) = self.stack.last_mut() {
            f.in_item = true;
        }
        self.enter_slot(src, slot)
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

    fn step_tabular<R: BufRead>(&mut self, src: &mut LineSource<R>) -> Result<()> {
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
            if count != length {
                return Err(last_error(
                    src,
                    head,
                    count,
                    count_message(length, "tabular rows", count),
                ));
            }
            self.check_blank_span("tabular array")?;
            if let Some(next) = self.peek(src)?
                && next.depth == row_depth
                && !next.content.starts_with("- ")
                && is_data_row(next.content, delim)
            {
                return Err(next.error(format!("Expected {length} tabular rows, but found more")));
            }
        }
        self.close(Event::EndArray);
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
        row_events(&mut self.queue, fields, cells, line)
    }

    fn step_keyed<R: BufRead>(&mut self, src: &mut LineSource<R>) -> Result<()> {
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
            if count != length {
                return Err(last_error(
                    src,
                    head,
                    count,
                    count_message(length, "keyed entries", count),
                ));
            }
            self.check_blank_span("keyed tabular object")?;
        }
        self.close(Event::EndObject);
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
        self.queue.push_back(Event::Key(key.into_owned()));
        let fields = f.header.fields.as_deref().unwrap_or(&[]);
        row_events(&mut self.queue, fields, cells, line)
    }
}

/// The error at the end of an array about its count: at the last line read, or at the
/// header (with its own content column) when no item was read.
fn last_error<R: BufRead>(src: &LineSource<R>, head: At, count: usize, msg: String) -> Error {
    match src.current() {
        Some(line) if count > 0 || line.number != head.number => line.error(msg),
        _ => at_error(src, head, ErrorKind::Syntax, msg),
    }
}

/// The events of one row: an object over the field list, cells depth first.
fn row_events(
    queue: &mut VecDeque<Event>,
    fields: &[Field<'_>],
    cells: &[&str],
    line: &Line<'_>,
) -> Result<()> {
    queue.push_back(Event::StartObject);
    let mut cell = 0;
    let mut stack: Vec<(&[Field<'_>], usize)> = Vec::new();
    let mut level: (&[Field<'_>], usize) = (fields, 0);
    loop {
        let Some(f) = level.0.get(level.1) else {
            queue.push_back(Event::EndObject);
            match stack.pop() {
                Some(outer) => {
                    level = outer;
                    continue;
                }
                None => return Ok(()),
            }
        };
        level.1 += 1;
        queue.push_back(Event::Key(f.name.to_string()));
        match &f.children {
            None => {
                let token = cells.get(cell).copied().unwrap_or("");
                cell += 1;
                queue.push_back(Event::Primitive(primitive(line, token)?));
            }
            Some(children) => {
                queue.push_back(Event::StartObject);
                stack.push(level);
                level = (children, 0);
            }
        }
    }
}
