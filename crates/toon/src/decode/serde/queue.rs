//! The events the serde driver ([`Deserializer`](super::Deserializer)) pulls
//! from the state machine: keys and primitives as token text ([`Tok`]), parsed only when
//! the visitor asks. Over a whole text a token is its place in the text (handed to
//! visitors borrowed); otherwise it is copied into the queue's text buffer. While a
//! value is being skipped the sink only counts nesting: skipped keys and values are
//! checked, never kept. Errors take their place among the steps (see [`Step::Error`]).

use std::collections::VecDeque;
use std::ops::Range;

use std::borrow::Cow;

use crate::decode::grammar::header::Field;
use crate::decode::grammar::scanner::Line;
use crate::decode::grammar::sink::{RowCache, Sink, Walk, row_events, walk};
use crate::decode::grammar::slot::primitive;
use crate::decode::grammar::tokens::quoted_str;
use crate::{Result, Value};

/// A key or primitive's text: where it is, and whether it is a quoted token's string.
#[derive(Clone, Copy)]
pub(super) struct Tok {
    pub start: usize,
    pub end: usize,
    /// In the document text (else in [`StepQueue::text`]).
    pub doc: bool,
    /// A quoted token's string, unescaped (a string whatever it spells).
    pub quoted: bool,
}

impl Tok {
    /// The empty string.
    pub const EMPTY: Tok = Tok {
        start: 0,
        end: 0,
        doc: false,
        quoted: true,
    };
}

/// One step of the document, as the serde driver sees it.
pub(super) enum Step {
    StartObject,
    EndObject,
    /// An array (its declared length is not a size hint: see `ArrayAccess::left`).
    StartArray,
    EndArray,
    /// A key.
    Key(Tok),
    /// A `key: primitive` line's key; its primitive is [`StepQueue::field_value`].
    Field(Tok),
    /// A table row over a flat field list: its cells in [`StepQueue::spans`], its
    /// fields' names in [`StepQueue::names`].
    Row(Range<usize>),
    /// A primitive.
    Prim(Tok),
    /// An error the reader found here: raised when the driver reaches it, so a
    /// visitor's error about an earlier value on the same line comes first (a line's
    /// values are errors only when they are asked for, in order).
    Error(crate::Error),
    /// The document is over.
    End,
}

/// The queue the reader fills for the serde driver.
#[derive(Default)]
pub(super) struct StepQueue {
    pub steps: VecDeque<Step>,
    /// Open containers still to be skipped: while non-zero, nothing is queued.
    pub skip: usize,
    /// The text of the queued keys and row cells, one after the other (emptied when
    /// the queue is, so a key or cell costs no allocation of its own).
    pub text: String,
    /// The cells of queued rows.
    pub spans: Vec<Tok>,
    /// The primitive of the queued [`Step::Field`] (at most one is queued between two
    /// [`StepQueue::clear_text`]: the queue runs empty before the machine steps again).
    pub field_value: Option<Tok>,
    /// The field list of the table whose rows are queued, depth first: kept while its
    /// rows come, not copied per row. A name is borrowed from the document's header
    /// where it lies there, else copied into `names_text`.
    pub names: Vec<Name>,
    pub names_text: String,
    /// The fields of `names` with one cell each.
    leaves: usize,

    /// The [`RowCache::id`] of the table `names` belong to, and the last id given.
    pub names_of: usize,
    last_id: usize,
    /// The address and length of the document text the tokens may lie in (0, 0 when
    /// lines are copied from a reader).
    doc: (usize, usize),
}

/// One entry of a queued table's field list, depth first.
pub(super) enum Name {
    /// A field with one cell: its name.
    Leaf(Tok),
    /// A field group: its name, the entries inside it (at every level), the cells
    /// inside it.
    Group {
        name: Tok,
        entries: usize,
        cells: usize,
    },
}

impl Name {
    /// The field's name: in the document, or in [`StepQueue::names_text`].
    pub fn name(&self) -> Tok {
        match self {
            Name::Leaf(t) | Name::Group { name: t, .. } => *t,
        }
    }
}

impl StepQueue {
    /// Keeps `fields` as the field list of the rows to come.
    fn keep_names(&mut self, fields: &[Field<'_>]) {
        self.names.clear();
        self.names_text.clear();
        self.leaves = 0;
        // The open groups: their entry's place and the cells before them.
        let mut open: Vec<(usize, usize)> = Vec::new();
        walk(fields, |step| {
            let field = match step {
                Walk::Leaf(f) | Walk::Open(f) => f,
                Walk::Close => {
                    let (at, cells_before) = open.pop().unwrap_or_default();
                    let (entries, cells) = (self.names.len() - at - 1, self.leaves - cells_before);
                    if let Some(Name::Group {
                        entries: e,
                        cells: c,
                        ..
                    }) = self.names.get_mut(at)
                    {
                        (*e, *c) = (entries, cells);
                    }
                    return;
                }
            };
            let range = self.keep_name(field);
            if let Walk::Open(_) = step {
                open.push((self.names.len(), self.leaves));
                self.names.push(Name::Group {
                    name: range,
                    entries: 0,
                    cells: 0,
                });
            } else {
                self.leaves += 1;
                self.names.push(Name::Leaf(range));
            }
        });
    }

    /// A field's name as a token: borrowed from the document when the header it was
    /// read from lies there, else copied into `names_text`. A name's
    /// [`origin`](Field::origin) is the address of the unescaped text it was read from
    /// (a header line of this document or, from the field list cache, of an earlier
    /// one of the same document): an address inside the live document text is that
    /// text.
    fn keep_name(&mut self, field: &Field<'_>) -> Tok {
        let name: &str = &field.name;
        if !name.is_empty()
            && field.origin != 0
            && let Some(start) = field.origin.checked_sub(self.doc.0)
            && start + name.len() <= self.doc.1
        {
            return Tok {
                start,
                end: start + name.len(),
                doc: true,
                quoted: true,
            };
        }
        let start = self.names_text.len();
        self.names_text.push_str(name);
        Tok {
            start,
            end: self.names_text.len(),
            doc: false,
            quoted: true,
        }
    }

    /// A queue whose tokens may lie in `doc`, the whole document text.
    pub fn over(doc: &str) -> StepQueue {
        StepQueue {
            doc: (doc.as_ptr() as usize, doc.len()),
            ..StepQueue::default()
        }
    }

    /// Forgets the text of the steps taken (call only when none is queued).
    pub fn clear_text(&mut self) {
        self.text.clear();
        self.spans.clear();
        self.field_value = None;
    }

    /// `part` as a token: its place in the document when it lies there, else copied
    /// into `text`.
    #[inline]
    fn keep(&mut self, part: &str, quoted: bool) -> Tok {
        if !part.is_empty()
            && let Some(start) = (part.as_ptr() as usize).checked_sub(self.doc.0)
            && start + part.len() <= self.doc.1
        {
            return Tok {
                start,
                end: start + part.len(),
                doc: true,
                quoted,
            };
        }
        let start = self.text.len();
        self.text.push_str(part);
        Tok {
            start,
            end: self.text.len(),
            doc: false,
            quoted,
        }
    }

    /// A quoted token's string as a token (borrowed from the document when it has no
    /// escapes), or its error.
    fn keep_quoted(&mut self, token: &str) -> Option<Tok> {
        match quoted_str(token).ok()? {
            Cow::Borrowed(s) => Some(self.keep(s, true)),
            Cow::Owned(s) => {
                let start = self.text.len();
                self.text.push_str(&s);
                Some(Tok {
                    start,
                    end: self.text.len(),
                    doc: false,
                    quoted: true,
                })
            }
        }
    }

    /// [`Sink::token`] of a quoted token: its string kept, or its error queued (checked
    /// only while skipping).
    fn quoted_token(&mut self, line: &Line<'_>, token: &str) -> Result<()> {
        if self.skip > 0 {
            // Only a quoted token can be malformed.
            primitive(line, token)?;
            return Ok(());
        }
        match self.keep_quoted(token) {
            Some(tok) => self.steps.push_back(Step::Prim(tok)),
            None => {
                if let Err(e) = primitive(line, token) {
                    self.steps.push_back(Step::Error(e));
                }
            }
        }
        Ok(())
    }

    #[inline]
    fn open(&mut self, step: Step) {
        if self.skip > 0 {
            self.skip += 1;
        } else {
            self.steps.push_back(step);
        }
    }

    #[inline]
    fn close(&mut self, step: Step) {
        if self.skip > 0 {
            self.skip -= 1;
        } else {
            self.steps.push_back(step);
        }
    }
}

impl Sink for StepQueue {
    #[inline]
    fn start_object(&mut self) {
        self.open(Step::StartObject);
    }
    #[inline]
    fn end_object(&mut self) {
        self.close(Step::EndObject);
    }
    #[inline]
    fn start_array(&mut self, _len: usize) {
        self.open(Step::StartArray);
    }
    #[inline]
    fn end_array(&mut self) {
        self.close(Step::EndArray);
    }
    #[inline]
    fn key(&mut self, key: &str) {
        if self.skip == 0 {
            let key = self.keep(key, true);
            self.steps.push_back(Step::Key(key));
        }
    }
    /// A primitive value, as the token that spells it.
    fn value(&mut self, v: Value) {
        if self.skip > 0 {
            return;
        }
        let tok = match v {
            Value::String(s) => self.keep(&s, true),
            Value::Null => self.keep("null", false),
            Value::Bool(b) => self.keep(if b { "true" } else { "false" }, false),
            Value::Number(n) => {
                let mut text = String::new();
                n.write_canonical(&mut text);
                self.keep(&text, false)
            }
            // Containers never come as one primitive.
            Value::Array(_) | Value::Object(_) => self.keep("", true),
        };
        self.steps.push_back(Step::Prim(tok));
    }
    /// One step for both, unless the value is skipped or is a malformed quoted token
    /// (then as a key and a token: the error comes after the key).
    #[inline]
    fn field(&mut self, line: &Line<'_>, key: &str, token: &str) -> Result<()> {
        if self.skip == 0 && self.field_value.is_none() {
            let value = if token.starts_with('"') {
                self.keep_quoted(token)
            } else {
                Some(self.keep(token, false))
            };
            if value.is_some() {
                self.field_value = value;
                let key = self.keep(key, true);
                self.steps.push_back(Step::Field(key));
                return Ok(());
            }
        }
        self.key(key);
        self.token(line, token)
    }
    #[inline]
    fn token(&mut self, line: &Line<'_>, token: &str) -> Result<()> {
        if !token.starts_with('"') {
            if self.skip == 0 {
                let tok = self.keep(token, false);
                self.steps.push_back(Step::Prim(tok));
            }
            return Ok(());
        }
        self.quoted_token(line, token)
    }
    /// A row whose quoted cells are well formed is kept whole (its cells as tokens, its
    /// table's names kept once), read cell by cell when the deserializer gets to it;
    /// other rows go event by event.
    fn row(
        &mut self,
        cache: &mut RowCache,
        fields: &[Field<'_>],
        cells: &[&str],
        line: &Line<'_>,
    ) -> Result<()> {
        if self.skip > 0 {
            // Only a quoted cell can be malformed.
            for cell in cells.iter().filter(|c| c.starts_with('"')) {
                primitive(line, cell)?;
            }
            return Ok(());
        }
        if cache.id == 0 {
            self.last_id += 1;
            cache.id = self.last_id;
        }
        if cache.id != self.names_of {
            // A row is queued only when the queue is empty: no queued row uses the
            // names of the previous table.
            self.names_of = cache.id;
            self.keep_names(fields);
        }
        let (start, text_start) = (self.spans.len(), self.text.len());
        for i in 0..self.leaves {
            let cell = cells.get(i).copied().unwrap_or("");
            if !cell.starts_with('"') {
                let cell = self.keep(cell, false);
                self.spans.push(cell);
                continue;
            }
            match self.keep_quoted(cell) {
                Some(tok) => self.spans.push(tok),
                None => {
                    // Event by event, so the error comes after the cells before it.
                    self.spans.truncate(start);
                    self.text.truncate(text_start);
                    return row_events(self, fields, cells, line);
                }
            }
        }
        self.steps.push_back(Step::Row(start..self.spans.len()));
        Ok(())
    }
}
