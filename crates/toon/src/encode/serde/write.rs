//! The writing half of the direct encoder: each value is written in the form the
//! rules of [`form`](crate::encode::form) give it, with the line writer
//! ([`line`](crate::encode::line)) both encoders share.
//!
//! A value at a [`Pos`] is first serialized optimistically ([`Attempt`]): primitives
//! are written at once, and an array is tried as one inline line (`key[N]: a,b`),
//! which can be taken back because no line ends, so nothing reaches the sink, while it
//! is written. Without a sink, an object that is a list item (never a keyed table) is
//! written in this first serialization too, under a mark that a repeated key rewinds.
//! A container that is not inline is then looked at once by
//! [`analyze`](super::analyze) — its length, whether it is a table or keyed table —
//! and serialized a second time into that form. A container the look-ahead cannot
//! decide (repeated keys, tuple and struct variants, errors) is serialized into a
//! small `Value` and handed to the `Value` encoder at the same place.

use serde::Serialize;

use super::adapter::{Halt, Never, P, Res, SeqVisit, Visit, open, visit};
use super::analyze::{Field, count, plan_array, plan_object};
use super::value_serializer::ValueSerializer;
use crate::encode::form::{ArrayForm, Place, array_form, child_depth};
use crate::encode::line::syntax::{
    inline_separator, write_cell, write_empty_array, write_header, write_known_entry_key,
    write_known_object_key, write_primitive, write_root_primitive,
};
use crate::encode::line::{LineWriter, Mark};
use crate::encode::value::Encoder;
use crate::encode::value::row_matches;
use crate::stack::guarded;
use crate::{Delimiter, EncodeOptions, Value};

/// Where a value goes, as the `Value` encoder's functions receive it. `level` is
/// the number of containers around the value.
#[derive(Clone, Copy)]
pub(crate) enum Pos<'k> {
    /// The document root.
    Root,
    /// A field of an object, on its own line at `depth`.
    Field {
        key: &'k str,
        /// The key is known to need no quotes (else it is checked when written).
        plain: bool,
        depth: usize,
        level: usize,
    },
    /// The first field of an object that is a list item at `depth` (on the `- ` line).
    FirstField {
        key: &'k str,
        /// As in `Field`.
        plain: bool,
        depth: usize,
        level: usize,
    },
    /// An item of an expanded list at `depth`.
    ListItem { depth: usize, level: usize },
}

impl<'k> Pos<'k> {
    fn level(self) -> usize {
        match self {
            Pos::Root => 0,
            Pos::Field { level, .. }
            | Pos::FirstField { level, .. }
            | Pos::ListItem { level, .. } => level,
        }
    }

    /// The key, and whether it is known to need no quotes.
    #[inline]
    fn known_key(self) -> Option<(&'k str, bool)> {
        match self {
            Pos::Field { key, plain, .. } | Pos::FirstField { key, plain, .. } => {
                Some((key, plain))
            }
            Pos::Root | Pos::ListItem { .. } => None,
        }
    }

    fn key(self) -> Option<&'k str> {
        match self {
            Pos::Field { key, .. } | Pos::FirstField { key, .. } => Some(key),
            Pos::Root | Pos::ListItem { .. } => None,
        }
    }

    /// The place, as the form rules ([`form`](crate::encode::form)) see it.
    fn place(self) -> Place {
        match self {
            Pos::Root => Place::Root,
            Pos::Field { .. } | Pos::FirstField { .. } => Place::Field,
            Pos::ListItem { .. } => Place::ListItem,
        }
    }

    /// Depth of the lines below a container written here (array items, table rows).
    fn child_depth(self) -> usize {
        match self {
            Pos::Root => child_depth(0, false),
            Pos::Field { depth, .. } | Pos::ListItem { depth, .. } => child_depth(depth, false),
            Pos::FirstField { depth, .. } => child_depth(depth, true),
        }
    }
}

/// Appends a primitive with delimiter-aware quoting.
#[inline]
fn write_prim(out: &mut String, p: &P<'_>, delimiter: Delimiter) {
    write_primitive(out, p.as_primitive(), delimiter);
}

/// The state of one direct encoding run: the `Value` encoder (for its output buffer
/// and for containers that fall back to a `Value`) and the options.
pub(crate) struct Out<'w> {
    pub(crate) enc: Encoder<'w>,
    delimiter: Delimiter,
    max_depth: usize,
    /// The mark of an inline attempt in progress.
    attempt: Option<Mark>,
    /// The text drains into a sink, so nothing written may be taken back beyond an
    /// inline line: each container is looked at whole before it is written (two
    /// passes). Without a sink every container is written in one pass
    /// ([`single`]), and one that turns out to need another form is taken back.
    streaming: bool,
    /// Buffers reused across containers so that writing allocates only for the
    /// output ([`single::Scratch`]).
    scratch: single::Scratch,
}

impl<'w> Out<'w> {
    /// A run writing to `w` with `options`.
    pub(crate) fn new(w: LineWriter<'w>, options: &EncodeOptions) -> Out<'w> {
        let streaming = w.has_sink();
        Out {
            enc: Encoder::new(w, options.delimiter, options.max_depth),
            delimiter: options.delimiter,
            max_depth: options.max_depth,
            attempt: None,
            streaming,
            scratch: single::Scratch::default(),
        }
    }

    fn out(&mut self) -> &mut String {
        &mut self.enc.w.out
    }

    /// Starts the line of a value at `pos` that begins on its own line.
    fn start_line(&mut self, pos: Pos<'_>) {
        match pos {
            Pos::Root => self.enc.w.line(0),
            Pos::Field { depth, .. } => self.enc.w.line(depth),
            Pos::FirstField { depth, .. } | Pos::ListItem { depth, .. } => self.enc.w.item(depth),
        }
    }

    /// A header: `key[N]`, `key[N:]` when keyed, the delimiter mark, the field list,
    /// and the colon.
    fn header(&mut self, key: Option<&str>, len: usize, keyed: bool, fields: Option<&[Field]>) {
        let delimiter = self.delimiter;
        write_header(self.out(), key, len, keyed, delimiter, fields);
    }

    /// Writes `v` at `pos`.
    pub(crate) fn write_at<T: Serialize + ?Sized>(&mut self, pos: Pos<'_>, v: &T) -> Res<()> {
        // Only containers recurse, so only they need the stack guard.
        match visit(v, Attempt { out: self, pos }) {
            Ok(()) => Ok(()),
            Err(Halt::Container) => guarded(|| self.write_object(pos, v)),
            // A list item written at once met a repeated key: its text is taken back.
            Err(Halt::Repeat | Halt::Fallback) => guarded(|| self.fallback(pos, v)),
            Err(Halt::NoFit) => match self.attempt.take() {
                Some(mark) => {
                    self.enc.w.rewind(mark);
                    guarded(|| self.write_array(pos, v))
                }
                None => Err(Halt::Inconsistent),
            },
            Err(e) => {
                if let Some(mark) = self.attempt.take() {
                    self.enc.w.release(mark);
                }
                Err(e)
            }
        }
    }

    /// Encodes `v` at `pos` through a `Value`.
    fn fallback<T: Serialize + ?Sized>(&mut self, pos: Pos<'_>, v: &T) -> Res<()> {
        let value = v.serialize(ValueSerializer::at_level(pos.level(), self.max_depth))?;
        let enc = &mut self.enc;
        let done = match pos {
            Pos::Root => enc.root(&value),
            Pos::Field {
                key, depth, level, ..
            } => enc.field(key, &value, depth, level),
            Pos::FirstField {
                key, depth, level, ..
            } => enc.first_item_field(key, &value, depth, level),
            Pos::ListItem { depth, level } => enc.list_item(&value, depth, level),
        };
        Ok(done?)
    }

    /// An array that is not one inline line, at `pos`.
    fn write_array<T: Serialize + ?Sized>(&mut self, pos: Pos<'_>, v: &T) -> Res<()> {
        if !self.streaming {
            return self.array_in_one_pass(pos, v);
        }
        let array_level = pos.level() + 1;
        let child_depth = pos.child_depth();
        // An array that is not inline holds a non-primitive, so it is not empty.
        if array_form(pos.place(), 1, false) == ArrayForm::List {
            let len = match count(v) {
                Ok(n) => n,
                Err(Halt::Fallback) => return self.fallback(pos, v),
                Err(e) => return Err(e),
            };
            self.start_line(pos);
            self.header(None, len, false, None);
            return self.list(v, len, child_depth, array_level);
        }
        let plan = match plan_array(v, array_level, self.max_depth) {
            Ok(plan) => plan,
            Err(Halt::Fallback) => return self.fallback(pos, v),
            Err(e) => return Err(e),
        };
        self.start_line(pos);
        match &plan.table {
            Some(fields) => {
                self.header(pos.key(), plan.len, false, Some(fields));
                let rows = Rows {
                    out: self,
                    fields,
                    row_depth: child_depth,
                    level: array_level,
                    n: 0,
                    verified: true,
                    skip: 0,
                    exact_first: false,
                };
                check_len(visit(v, rows)?, plan.len)
            }
            None => {
                self.header(pos.key(), plan.len, false, None);
                self.list(v, plan.len, child_depth, array_level)
            }
        }
    }

    /// The items of an expanded list at `depth`; the list is at `level`.
    fn list<T: Serialize + ?Sized>(
        &mut self,
        v: &T,
        len: usize,
        depth: usize,
        level: usize,
    ) -> Res<()> {
        let items = Items {
            out: self,
            depth,
            level,
            n: 0,
        };
        check_len(visit(v, items)?, len)
    }

    /// An object at `pos`.
    fn write_object<T: Serialize + ?Sized>(&mut self, pos: Pos<'_>, v: &T) -> Res<()> {
        if !self.streaming {
            return self.object_in_one_pass(pos, v);
        }
        let object_level = pos.level() + 1;
        let plan = match plan_object(v, object_level, self.max_depth, pos.place()) {
            Ok(plan) => plan,
            Err(Halt::Fallback) => return self.fallback(pos, v),
            Err(e) => return Err(e),
        };
        if let Some(fields) = &plan.keyed {
            let rows = self.keyed_table(pos, plan.len, fields, true, false);
            return check_len(visit(v, rows)?, plan.len);
        }
        self.write_fields(pos, v, false)
    }

    /// The fields of an object at `pos`, one per line; `check_keys` makes a repeated
    /// key stop the writing with [`Halt::Repeat`].
    fn write_fields<T: Serialize + ?Sized>(
        &mut self,
        pos: Pos<'_>,
        v: &T,
        check_keys: bool,
    ) -> Res<()> {
        let (depth, item) = match pos {
            Pos::Root => (0, false),
            Pos::ListItem { depth, .. } => (depth, true),
            Pos::Field { key, plain, .. } | Pos::FirstField { key, plain, .. } => {
                self.start_line(pos);
                write_known_object_key(self.out(), key, plain);
                (pos.child_depth(), false)
            }
        };
        let fields = Fields {
            out: self,
            depth,
            level: pos.level(),
            item,
            check_keys,
        };
        visit(v, fields)
    }

    /// One table row from a `Value`, written by the `Value` walker: the fallback for
    /// a row whose keys are not in the header's order, or that repeats a key (the
    /// `Value` keeps the last value). [`Halt::NoFit`] if the row does not fit.
    fn value_row<T: Serialize + ?Sized>(
        &mut self,
        v: &T,
        fields: &[Field],
        level: usize,
    ) -> Res<()> {
        let value = v.serialize(ValueSerializer::at_level(level, self.max_depth))?;
        let (Some(ordered), Value::Object(row)) = (row_matches(fields, &value), &value) else {
            return Err(Halt::NoFit);
        };
        self.enc.cells(row, fields, ordered, &mut true);
        Ok(())
    }
}

/// `Inconsistent` unless a container had the length its header announced.
fn check_len(written: usize, announced: usize) -> Res<()> {
    if written == announced {
        Ok(())
    } else {
        Err(Halt::Inconsistent)
    }
}

/// The first serialization of a value at a position: primitives and inline arrays
/// are written; other containers stop with a signal, having written nothing.
struct Attempt<'a, 'w, 'k> {
    out: &'a mut Out<'w>,
    pos: Pos<'k>,
}

impl<'a, 'w, 'k> Attempt<'a, 'w, 'k> {
    /// An object: written at once if it is a list item (which cannot be a keyed
    /// table, spec §9.5) and the whole text stays in memory, else left to
    /// [`Out::write_object`] ([`Halt::Container`]).
    #[inline]
    fn object(self, struct_name: Option<&'static str>) -> Res<FieldEntries<'a, 'w>> {
        match self.pos {
            Pos::ListItem { depth, level } if !self.out.streaming => Fields {
                out: self.out,
                depth,
                level,
                item: true,
                check_keys: true,
            }
            .entries(struct_name, true),
            _ => Err(Halt::Container),
        }
    }
}

impl<'a, 'w, 'k> Visit for Attempt<'a, 'w, 'k> {
    type Ok = ();
    type Seq = Inline<'a, 'w, 'k>;
    type Map = FieldEntries<'a, 'w>;

    fn prim(self, p: P<'_>) -> Res<()> {
        let out = self.out;
        out.start_line(self.pos);
        if let Some((key, plain)) = self.pos.known_key() {
            write_known_entry_key(out.out(), key, plain);
        }
        let delimiter = out.delimiter;
        match self.pos {
            Pos::Root => write_root_primitive(out.out(), p.as_primitive(), delimiter),
            _ => write_prim(out.out(), &p, delimiter),
        }
        Ok(())
    }

    fn bytes(self, b: &[u8]) -> Res<()> {
        let out = self.out;
        open(self.pos.level(), out.max_depth)?;
        out.start_line(self.pos);
        if array_form(self.pos.place(), b.len(), true) == ArrayForm::Empty {
            write_empty_array(out.out(), self.pos.key());
            return Ok(());
        }
        out.header(self.pos.key(), b.len(), false, None);
        let delimiter = out.delimiter;
        let text = out.out();
        for (i, byte) in b.iter().enumerate() {
            text.push(inline_separator(i, delimiter));
            crate::js_number::push_int(text, *byte);
        }
        Ok(())
    }

    fn seq(self, len: Option<usize>) -> Res<Inline<'a, 'w, 'k>> {
        let out = self.out;
        open(self.pos.level(), out.max_depth)?;
        let mark = out.enc.w.mark();
        out.attempt = Some(mark);
        out.scratch.seq_hint = len;
        out.start_line(self.pos);
        let header_start = out.out().len();
        let guess = len.unwrap_or(0);
        out.header(self.pos.key(), guess, false, None);
        let header_end = out.out().len();
        Ok(Inline {
            out,
            pos: self.pos,
            n: 0,
            guess,
            header_start,
            header_end,
        })
    }

    fn map(self, _len: Option<usize>) -> Res<FieldEntries<'a, 'w>> {
        self.object(None)
    }

    fn struct_map(self, name: &'static str, _len: usize) -> Res<FieldEntries<'a, 'w>> {
        self.object(Some(name))
    }

    fn newtype_variant<T: Serialize + ?Sized>(self, _v: &'static str, _x: &T) -> Res<()> {
        Err(Halt::Container)
    }

    fn tuple_variant(self, _v: &'static str, _len: usize) -> Res<Inline<'a, 'w, 'k>> {
        Err(Halt::Container)
    }

    fn struct_variant(self, _v: &'static str, _len: usize) -> Res<FieldEntries<'a, 'w>> {
        Err(Halt::Container)
    }
}

/// An inline array being tried: `key[N]: a,b` on the current line.
struct Inline<'a, 'w, 'k> {
    out: &'a mut Out<'w>,
    pos: Pos<'k>,
    n: usize,
    /// The count written in the header, from the serializer's length hint.
    guess: usize,
    header_start: usize,
    header_end: usize,
}

impl SeqVisit for Inline<'_, '_, '_> {
    type Ok = ();

    fn element<T: Serialize + ?Sized>(&mut self, v: &T) -> Res<()> {
        let delimiter = self.out.delimiter;
        let sep = inline_separator(self.n, delimiter);
        visit(
            v,
            Cell {
                out: self.out.out(),
                sep: Some(sep),
                delimiter,
            },
        )?;
        self.n += 1;
        Ok(())
    }

    fn end(self) -> Res<()> {
        let out = self.out;
        if let Some(mark) = out.attempt.take() {
            out.enc.w.release(mark);
        }
        if array_form(self.pos.place(), self.n, true) == ArrayForm::Empty {
            out.out().truncate(self.header_start);
            write_empty_array(out.out(), self.pos.key());
        } else if self.n != self.guess {
            let mut header = String::new();
            write_header(
                &mut header,
                self.pos.key(),
                self.n,
                false,
                out.delimiter,
                None,
            );
            out.out()
                .replace_range(self.header_start..self.header_end, &header);
        }
        Ok(())
    }
}

/// A primitive inside a line (an inline item or a table cell), after `sep`; any
/// container answers [`Halt::NoFit`].
struct Cell<'a> {
    out: &'a mut String,
    sep: Option<char>,
    delimiter: Delimiter,
}

impl Visit for Cell<'_> {
    type Ok = ();
    type Seq = Never<()>;
    type Map = Never<()>;
    #[inline]
    fn prim(self, p: P<'_>) -> Res<()> {
        write_cell(self.out, self.sep, p.as_primitive(), self.delimiter);
        Ok(())
    }
    fn bytes(self, _b: &[u8]) -> Res<()> {
        Err(Halt::NoFit)
    }
    fn seq(self, _len: Option<usize>) -> Res<Never<()>> {
        Err(Halt::NoFit)
    }
    fn map(self, _len: Option<usize>) -> Res<Never<()>> {
        Err(Halt::NoFit)
    }
    fn newtype_variant<T: Serialize + ?Sized>(self, _v: &'static str, _x: &T) -> Res<()> {
        Err(Halt::NoFit)
    }
    fn tuple_variant(self, _v: &'static str, _len: usize) -> Res<Never<()>> {
        Err(Halt::NoFit)
    }
    fn struct_variant(self, _v: &'static str, _len: usize) -> Res<Never<()>> {
        Err(Halt::NoFit)
    }
}

/// Visitors of the second serialization, which expect the container the look-ahead
/// saw; anything else means the value serialized differently.
macro_rules! only_containers {
    () => {
        fn prim(self, _p: P<'_>) -> Res<Self::Ok> {
            Err(Halt::Inconsistent)
        }
        fn bytes(self, _b: &[u8]) -> Res<Self::Ok> {
            Err(Halt::Inconsistent)
        }
        fn tuple_variant(self, _v: &'static str, _len: usize) -> Res<Self::Seq> {
            Err(Halt::Inconsistent)
        }
    };
}

/// The rest of a visitor that accepts only a sequence (list items, table rows): the
/// sequence is the visitor itself, anything else means the value changed between the
/// look-ahead and the write.
macro_rules! only_a_sequence {
    () => {
        fn seq(self, _len: Option<usize>) -> Res<Self> {
            Ok(self)
        }
        fn map(self, _len: Option<usize>) -> Res<Never<usize>> {
            Err(Halt::Inconsistent)
        }
        fn newtype_variant<T: Serialize + ?Sized>(self, _v: &'static str, _x: &T) -> Res<usize> {
            Err(Halt::Inconsistent)
        }
        fn struct_variant(self, _v: &'static str, _len: usize) -> Res<Never<usize>> {
            Err(Halt::Inconsistent)
        }
    };
}

mod lines;
mod map_keys;
mod names;
mod single;
mod table;
use lines::{FieldEntries, Fields, Items};
use table::Rows;
