//! A serde `Deserializer` driven by the decoding state machine's events, pulled one
//! step of lookahead at a time: the machine reads one more line whenever the queue of
//! steps runs empty. Generic over the machine's input: over a whole text, tokens and
//! keys are handed to visitors borrowed from it; over a [`BufRead`], copied.
//!
//! Objects are `MapAccess` from `StartObject`, keys and values to `EndObject`; arrays
//! are `SeqAccess` from `StartArray` to `EndArray` (sized only when all their values are queued: an inline array's);
//! primitives are their token text, parsed only as the visitor's request needs
//! ([`token`]). A skipped value (`deserialize_ignored_any`, unknown struct fields) is
//! read and checked but not kept.

use std::io::{BufRead, BufReader, Read};

use serde::de::{self, DeserializeOwned, Visitor};
use serde::{Deserialize, forward_to_deserialize_any};

mod access;
mod queue;
mod row;
mod token;

use crate::decode::grammar::machine::Driver;
use crate::decode::input::{IoSource, LineInput, TextSource};
use crate::stack::guarded;
use crate::{DecodeOptions, Error, ErrorKind, Result, Value};
use access::{ArrayAccess, ObjectAccess};
use queue::{Step, StepQueue, Tok};
use token::{Text, TokenDe};

/// A line and the column of its content, for errors about what it holds.
#[derive(Clone, Copy, Default)]
struct Pos {
    line: usize,
    column: usize,
}

/// A TOON deserializer over the decoding state machine, generic over where its lines
/// come from: a whole `&'de str` ([`Deserializer::from_str`], the default; strings
/// without escapes are handed to visitors borrowed from it, so `&'de str` fields work)
/// or a [`BufRead`] ([`ReaderDeserializer`], lines copied one at a time).
///
/// The first value deserialized is the whole document: after it, the rest of the
/// document is read and checked (a root array must be the whole text), as
/// [`Deserializer::end`] does.
///
/// ```
/// use serde::Deserialize;
/// let mut de = toon::Deserializer::from_str("[2]: 1,2", &toon::DecodeOptions::default());
/// let v = Vec::<u8>::deserialize(&mut de)?;
/// assert_eq!(v, [1, 2]);
/// # Ok::<(), toon::Error>(())
/// ```
pub struct Deserializer<'de, I = TextSource<'de>> {
    driver: Driver<I, StepQueue>,
    /// The document text the queued tokens may lie in (empty over a reader).
    doc: &'de str,
    /// The next step, read ahead (it came from `queued_at`: the machine steps only
    /// when nothing is read ahead).
    peeked: Option<Step>,
    /// Where the queued steps came from: the line the reader's last step consumed.
    queued_at: Pos,
    /// The next value deserialized is the document's root.
    root: bool,
    /// Open objects and arrays, and the key count of the last object finished at each
    /// nesting level: the size hint of the next one there (siblings in a list usually
    /// share a shape).
    nesting: usize,
    object_sizes: Vec<usize>,
    /// The names of the table whose rows are read (the queue's `names_of` and, when
    /// all of them lie in the document, its names as `'de` text; else empty).
    row_names: (usize, Vec<&'de str>),
}

/// The [`Deserializer`] over a [`BufRead`]: the document is read line by line through
/// the state machine as `T` asks for it, so reading a long array element by element
/// holds one element at a time, never the text. Values and errors are
/// [`from_str`](crate::from_str)'s (see [`from_reader_with`]).
///
/// ```
/// use serde::Deserialize;
/// let text = "[3]{id,name}:\n  1,Ada\n  2,Bob\n  3,Cy\n";
/// let mut de = toon::decode::ReaderDeserializer::new(text.as_bytes(), &toon::DecodeOptions::default());
/// #[derive(Deserialize)]
/// struct User { id: u32, name: String }
/// let users = Vec::<User>::deserialize(&mut de)?;
/// assert_eq!(users[2].name, "Cy");
/// # Ok::<(), toon::Error>(())
/// ```
pub type ReaderDeserializer<R> = Deserializer<'static, IoSource<R>>;

impl<R: BufRead> Deserializer<'static, IoSource<R>> {
    /// A deserializer of the TOON document in `reader`, decoded with `options`.
    pub fn new(reader: R, options: &DecodeOptions) -> Self {
        Deserializer {
            driver: Driver::over_reader(reader, options, StepQueue::default()),
            doc: "",
            peeked: None,
            queued_at: Pos::default(),
            root: true,
            nesting: 0,
            object_sizes: Vec::new(),
            row_names: (0, Vec::new()),
        }
    }
}

impl<'de> Deserializer<'de, TextSource<'de>> {
    /// A deserializer of the TOON document `text`, decoded with `options`: strings
    /// without escapes are handed to visitors borrowed from `text`.
    #[allow(clippy::should_implement_trait)]
    pub fn from_str(text: &'de str, options: &DecodeOptions) -> Self {
        Deserializer {
            driver: Driver::over_text(text, options, StepQueue::over(text)),
            doc: text,
            peeked: None,
            queued_at: Pos::default(),
            root: true,
            nesting: 0,
            object_sizes: Vec::new(),
            row_names: (0, Vec::new()),
        }
    }
}

#[allow(private_bounds)]
impl<'de, I: LineInput> Deserializer<'de, I> {
    /// The text of `tok`: borrowed from the document (the empty string always), or
    /// from the queue until it is read on.
    fn text(&self, tok: Tok) -> Text<'de, '_> {
        if tok.doc || tok.start == tok.end {
            Text::Doc(self.doc.get(tok.start..tok.end).unwrap_or(""))
        } else {
            Text::Copy(
                self.driver
                    .sink_ref()
                    .text
                    .get(tok.start..tok.end)
                    .unwrap_or(""),
            )
        }
    }

    /// The primitive `tok` as a deserializer.
    fn token(&self, tok: Tok) -> TokenDe<'de, '_> {
        TokenDe {
            text: self.text(tok),
            quoted: tok.quoted,
        }
    }

    /// Reads the rest of the document (after the value deserialized from it), with the
    /// checks that apply after the root value. Deserializing the root value does this
    /// already; calling it again does nothing.
    pub fn end(&mut self) -> Result<()> {
        match self.next()? {
            (Step::End, _) => Ok(()),
            (step, at) => Err(self.misplaced(&step, at)),
        }
    }

    /// Reads the root value with `read`, then the rest of the document.
    fn whole<T>(&mut self, read: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        self.root = false;
        let value = read(self)?;
        self.end()?;
        Ok(value)
    }

    /// Notes where the steps the reader just queued came from: the content of the
    /// current line, after the hyphen of a list item.
    fn note_position(&mut self) {
        self.queued_at = self.driver.current_line().map_or_else(Pos::default, |l| {
            let hyphen = if l.content.starts_with("- ") { 2 } else { 0 };
            Pos {
                line: l.number,
                column: l.content_column() + hyphen,
            }
        });
    }

    /// Runs one step of the reader (false after the document). An error it finds is
    /// queued behind the steps it queued before it.
    fn step(&mut self) -> bool {
        match self.driver.step() {
            Ok(more) => {
                if more {
                    self.note_position();
                }
                more
            }
            Err(e) => {
                self.note_position();
                self.driver.sink().steps.push_back(Step::Error(e));
                true
            }
        }
    }

    /// The next step, taken from the queue (the machine runs while it is empty).
    fn pull(&mut self) -> Result<Step> {
        loop {
            if let Some(step) = self.driver.sink().steps.pop_front() {
                return match step {
                    Step::Error(e) => Err(e),
                    step => Ok(step),
                };
            }
            // Nothing queued refers to the queue's text any more.
            self.driver.sink().clear_text();
            if !self.step() {
                return Ok(Step::End);
            }
        }
    }

    #[inline]
    fn peek(&mut self) -> Result<(&Step, Pos)> {
        if self.peeked.is_none() {
            self.peeked = Some(self.pull()?);
        }
        let at = self.queued_at;
        Ok((self.peeked.as_ref().unwrap_or(&Step::End), at))
    }

    #[inline]
    fn next(&mut self) -> Result<(Step, Pos)> {
        let step = match self.peeked.take() {
            Some(step) => step,
            None => self.pull()?,
        };
        Ok((step, self.queued_at))
    }

    /// Gives an error without a location the position `at`.
    fn locate(&self, e: Error, at: Pos) -> Error {
        if e.line().is_some() || at.line == 0 {
            return e;
        }
        let raw = self
            .driver
            .current_line()
            .filter(|l| l.number == at.line)
            .map_or("", |l| l.raw);
        e.at(at.line, at.column, raw)
    }

    /// A step where the document's structure does not allow it (a broken state
    /// machine, never input).
    fn misplaced(&self, step: &Step, at: Pos) -> Error {
        let what = match step {
            Step::StartObject => "start of an object",
            Step::EndObject => "end of an object",
            Step::StartArray => "start of an array",
            Step::EndArray => "end of an array",
            Step::Key(_) | Step::Field(..) => "key",
            Step::Prim(..) => "value",
            Step::Row(_) => "row",
            Step::Error(_) => "error",
            Step::End => "end of the document",
        };
        self.locate(
            Error::new(
                ErrorKind::Data,
                format!("unexpected {what} in the event stream"),
            ),
            at,
        )
    }

    /// Skips one whole value, checked but not kept.
    fn skip_value(&mut self) -> Result<()> {
        let mut open = match self.next()? {
            (Step::Prim(..) | Step::Row(_), _) => return Ok(()),
            (Step::StartObject | Step::StartArray, _) => 1usize,
            (step, at) => return Err(self.misplaced(&step, at)),
        };
        let queue = self.driver.sink();
        while open > 0 {
            match queue.steps.pop_front() {
                Some(Step::StartObject | Step::StartArray) => open += 1,
                Some(Step::EndObject | Step::EndArray) => open -= 1,
                Some(Step::Error(e)) => return Err(e),
                Some(_) => {}
                None => break,
            }
        }
        if open > 0 {
            queue.clear_text();
            queue.skip = open;
            while self.driver.sink().skip > 0 {
                if !self.step() {
                    return Err(self.misplaced(&Step::End, self.queued_at));
                }
                let queue = self.driver.sink();
                if queue.skip > 0
                    && let Some(Step::Error(e)) = queue.steps.pop_back()
                {
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    /// Skips the rest of an object whose first `pending` key's value is still unread.
    fn skip_fields(&mut self, mut pending: bool) -> Result<()> {
        loop {
            if pending {
                self.skip_value()?;
            }
            match self.next()? {
                (Step::Key(_), _) => pending = true,
                (Step::Field(..), _) => pending = false,
                (Step::EndObject, _) => return Ok(()),
                (step, at) => return Err(self.misplaced(&step, at)),
            }
        }
    }

    /// An object just opened at `at`, read as a map. Errors are located by the caller
    /// (the enclosing field or element).
    fn visit_object<V: Visitor<'de>>(&mut self, visitor: V, at: Pos) -> Result<V::Value> {
        self.nesting += 1;
        let mut access = ObjectAccess {
            level: self.nesting,
            de: self,
            key_at: at,
            pending: false,
            value: None,
            done: false,
            keys: 0,
        };
        let value = visitor.visit_map(&mut access)?;
        let (done, pending) = (access.done, access.pending);
        if !done {
            self.skip_fields(pending)?;
        }
        self.nesting -= 1;
        Ok(value)
    }

    /// An array just opened with `len` declared elements, read as a sequence.
    fn visit_array<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        self.nesting += 1;
        let left = self.queued_values();
        let mut access = ArrayAccess {
            de: self,
            left,
            done: false,
        };
        let value = visitor.visit_seq(&mut access)?;
        let done = access.done;
        if !done {
            match self.next()? {
                (Step::EndArray, _) => {}
                (_, next) => {
                    let e = Error::new(
                        ErrorKind::Syntax,
                        "More items than the requested type can hold",
                    );
                    return Err(self.locate(e, next));
                }
            }
        }
        self.nesting -= 1;
        Ok(value)
    }

    /// The values of an array just opened, if all of them are queued already (an
    /// inline array's, read with its header line).
    fn queued_values(&self) -> Option<usize> {
        let steps = &self.driver.sink_ref().steps;
        let end = steps.iter().position(|s| !matches!(s, Step::Prim(_)))?;
        matches!(steps.get(end), Some(Step::EndArray)).then_some(end)
    }

    /// The primitive that comes next, if one does.
    fn next_primitive(&mut self) -> Result<Option<(Tok, Pos)>> {
        if !matches!(self.peek()?.0, Step::Prim(..)) {
            return Ok(None);
        }
        match self.next()? {
            (Step::Prim(tok), at) => Ok(Some((tok, at))),
            (step, at) => Err(self.misplaced(&step, at)),
        }
    }
}

/// Deserializes a `T` from TOON read from `reader` with the given options, one line at
/// a time: beyond what `T` itself keeps, memory is bounded by the longest line and the
/// nesting depth, never the text (a `Vec<T>` holds its elements; a visitor that handles
/// each element as it comes holds one at a time).
///
/// Values and errors are [`from_str_with`](crate::from_str_with)'s, except that invalid
/// UTF-8 (strict mode) is found when its line is reached, so an error on an earlier
/// line comes first; a failed read is an [`ErrorKind::Io`](crate::ErrorKind::Io) error.
///
/// ```
/// let items: Vec<u32> = toon::decode::from_reader_with("[3]: 1,2,3".as_bytes(), &toon::DecodeOptions::default())?;
/// assert_eq!(items, [1, 2, 3]);
/// # Ok::<(), toon::Error>(())
/// ```
pub fn from_reader_with<R: Read, T: DeserializeOwned>(
    reader: R,
    options: &DecodeOptions,
) -> Result<T> {
    T::deserialize(&mut ReaderDeserializer::new(
        BufReader::new(reader),
        options,
    ))
}

/// Requests a primitive answers itself; anything else answers as `deserialize_any`
/// (the root value is read as a whole document).
/// Integer requests locate a primitive's errors at the primitive, the others leave
/// that to the enclosing field or element.
macro_rules! primitive_first {
    (located $($m:ident)*) => {$(
        fn $m<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            if self.root {
                return self.whole(|de| de.$m(visitor));
            }
            match self.next_primitive()? {
                Some((tok, at)) => self.token(tok).$m(visitor).map_err(|e| self.locate(e, at)),
                None => self.deserialize_any(visitor),
            }
        }
    )*};
    ($($m:ident)*) => {$(
        fn $m<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            if self.root {
                return self.whole(|de| de.$m(visitor));
            }
            match self.next_primitive()? {
                Some((tok, _)) => self.token(tok).$m(visitor),
                None => self.deserialize_any(visitor),
            }
        }
    )*};
}

#[allow(private_bounds)]
impl<'de, I: LineInput> de::Deserializer<'de> for &mut Deserializer<'de, I> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.root {
            return self.whole(|de| de.deserialize_any(visitor));
        }
        match self.next()? {
            (Step::Prim(tok), _) => self.token(tok).deserialize_any(visitor),
            (Step::Row(cells), at) => row::visit_row(self, visitor, cells.start, at),
            (Step::StartObject, at) => guarded(|| self.visit_object(visitor, at)),
            (Step::StartArray, _) => guarded(|| self.visit_array(visitor)),
            (step, at) => Err(self.misplaced(&step, at)),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.root {
            return self.whole(|de| de.deserialize_option(visitor));
        }
        let null = match self.peek()?.0 {
            Step::Prim(tok) => Some(*tok),
            _ => None,
        };
        if null.is_some_and(|tok| self.token(tok).is_null()) {
            self.next()?;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    /// A unit variant from a primitive (its text); from a container, what
    /// [`Value`]'s `deserialize_enum` makes of it (`Variant: …`, externally tagged), so
    /// the variant's content is read into a `Value` first.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        if self.root {
            return self.whole(|de| de.deserialize_enum(name, variants, visitor));
        }
        if let Some((tok, _)) = self.next_primitive()? {
            return self.token(tok).deserialize_enum(name, variants, visitor);
        }
        let value = Value::deserialize(&mut *self)?;
        de::Deserializer::deserialize_enum(value, name, variants, visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.root {
            return self.whole(|de| de.deserialize_ignored_any(visitor));
        }
        self.skip_value()?;
        visitor.visit_unit()
    }

    primitive_first!(deserialize_str deserialize_string);

    primitive_first!(located deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_u128 deserialize_f32 deserialize_f64);

    forward_to_deserialize_any! {
        bool char bytes byte_buf unit unit_struct seq tuple
        tuple_struct map struct identifier
    }
}
