//! A serde `Deserializer` driven by the decoding state machine's events, pulled one
//! step of lookahead at a time: the machine reads one more line whenever the queue of
//! steps runs empty. Generic over the machine's input: over a whole text, tokens and
//! keys are handed to visitors borrowed from it; over a [`BufRead`], copied.
//!
//! Objects are `MapAccess` from `StartObject`, keys and values to `EndObject`; arrays
//! are `SeqAccess` from `StartArray` (its declared length the size hint) to `EndArray`;
//! primitives are their token text, parsed only as the visitor's request needs
//! ([`token`]). A skipped value (`deserialize_ignored_any`, unknown struct fields) is
//! read and checked but not kept.

use std::io::{BufRead, BufReader, Read};

use serde::de::{self, DeserializeOwned, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, forward_to_deserialize_any};

mod queue;
mod row;
mod token;

use crate::decode::grammar::machine::Driver;
use crate::decode::input::{IoSource, LineInput, TextSource};
use crate::stack::guarded;
use crate::{DecodeOptions, Error, ErrorKind, Result, Value};
use queue::{Step, StepQueue, Tok};
use token::{Text, TokenDe};

/// A line and the column of its content, for errors about what it holds.
#[derive(Clone, Copy, Default)]
struct Pos {
    line: usize,
    column: usize,
}

/// A TOON deserializer over a [`BufRead`]: the document is read line by line through
/// the streaming decoder's state machine as `T` asks for it, so reading a long array
/// element by element holds one element at a time, never the text.
///
/// It accepts and rejects what [`from_str`](crate::from_str) accepts and rejects, with
/// the same errors, and hands each value to the visitor as `from_str` does. Call
/// [`ReaderDeserializer::end`] after deserializing, to read (and check) the rest of the
/// document; [`from_reader_with`](crate::decode::from_reader_with) does both.
///
/// ```
/// use serde::Deserialize;
/// let text = "[3]{id,name}:\n  1,Ada\n  2,Bob\n  3,Cy\n";
/// let mut de = toon::decode::ReaderDeserializer::new(text.as_bytes(), &toon::DecodeOptions::default());
/// #[derive(Deserialize)]
/// struct User { id: u32, name: String }
/// let users = Vec::<User>::deserialize(&mut de)?;
/// de.end()?;
/// assert_eq!(users[2].name, "Cy");
/// # Ok::<(), toon::Error>(())
/// ```
pub type ReaderDeserializer<R> = MachineDeserializer<'static, IoSource<R>>;

/// The same deserializer over a whole text: keys and tokens are handed to visitors
/// borrowed from `text` where they need no unescaping (`&'de str` fields work). Values
/// and errors are [`from_str_with`](crate::from_str_with)'s; see
/// [`from_text_with`](crate::decode::from_text_with).
///
/// ```
/// use serde::Deserialize;
/// let text = "[2]{id,name}:\n  1,Ada\n  2,Bob\n";
/// let mut de = toon::decode::TextDeserializer::from_text(text, &toon::DecodeOptions::default());
/// #[derive(Deserialize)]
/// struct User<'a> { id: u32, name: &'a str }
/// let users = Vec::<User>::deserialize(&mut de)?;
/// de.end()?;
/// assert_eq!((users[1].id, users[1].name), (2, "Bob"));
/// # Ok::<(), toon::Error>(())
/// ```
pub type TextDeserializer<'de> = MachineDeserializer<'de, TextSource<'de>>;

/// The serde deserializer over the decoding state machine reading lines from `I`: a
/// whole text (tokens borrowed for `'de`, [`TextDeserializer`]) or a reader (tokens
/// copied, [`ReaderDeserializer`]).
pub struct MachineDeserializer<'de, I> {
    driver: Driver<I, StepQueue>,
    /// The document text the queued tokens may lie in (empty over a reader).
    doc: &'de str,
    /// The next step, read ahead (it came from `queued_at`: the machine steps only
    /// when nothing is read ahead).
    peeked: Option<Step>,
    /// Where the queued steps came from: the line the reader's last step consumed.
    queued_at: Pos,
}

impl<R: BufRead> MachineDeserializer<'static, IoSource<R>> {
    /// A deserializer of the TOON document in `reader`, decoded with `options`.
    pub fn new(reader: R, options: &DecodeOptions) -> Self {
        MachineDeserializer {
            driver: Driver::over_reader(reader, options, StepQueue::default()),
            doc: "",
            peeked: None,
            queued_at: Pos::default(),
        }
    }
}

impl<'de> MachineDeserializer<'de, TextSource<'de>> {
    /// A deserializer of the TOON document `text`, decoded with `options`: strings
    /// without escapes are handed to visitors borrowed from `text`.
    pub fn from_text(text: &'de str, options: &DecodeOptions) -> Self {
        MachineDeserializer {
            driver: Driver::over_text(text, options, StepQueue::over(text)),
            doc: text,
            peeked: None,
            queued_at: Pos::default(),
        }
    }
}

#[allow(private_bounds)]
impl<'de, I: LineInput> MachineDeserializer<'de, I> {
    /// The text of `tok`: borrowed from the document, or from the queue until it is
    /// read on.
    fn text(&self, tok: Tok) -> Text<'de, '_> {
        if tok.doc {
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
    /// checks that apply after the root value.
    pub fn end(&mut self) -> Result<()> {
        match self.next()? {
            (Step::End, _) => Ok(()),
            (step, at) => Err(self.misplaced(&step, at)),
        }
    }

    /// Notes where the steps the reader just queued came from: the content of the
    /// current line, after the hyphen of a list item.
    fn note_position(&mut self) {
        self.queued_at = self.driver.current_line().map_or_else(Pos::default, |l| {
            let item = l.content.strip_prefix("- ").unwrap_or(l.content);
            Pos {
                line: l.number,
                column: l.column_in(item, 0),
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

    fn peek(&mut self) -> Result<(&Step, Pos)> {
        if self.peeked.is_none() {
            self.peeked = Some(self.pull()?);
        }
        let at = self.queued_at;
        Ok((self.peeked.as_ref().unwrap_or(&Step::End), at))
    }

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
            Step::StartArray(_) => "start of an array",
            Step::EndArray => "end of an array",
            Step::Key(_) => "key",
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
            (Step::StartObject | Step::StartArray(_), _) => 1usize,
            (step, at) => return Err(self.misplaced(&step, at)),
        };
        let queue = self.driver.sink();
        while open > 0 {
            match queue.steps.pop_front() {
                Some(Step::StartObject | Step::StartArray(_)) => open += 1,
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
                (Step::EndObject, _) => return Ok(()),
                (step, at) => return Err(self.misplaced(&step, at)),
            }
        }
    }

    /// An object just opened at `at`, read as a map. Errors are located by the caller
    /// (the enclosing field or element), as `from_str` locates them.
    fn visit_object<V: Visitor<'de>>(&mut self, visitor: V, at: Pos) -> Result<V::Value> {
        let mut access = ObjectAccess {
            de: self,
            key_at: at,
            pending: false,
            done: false,
        };
        let value = visitor.visit_map(&mut access)?;
        let (done, pending) = (access.done, access.pending);
        if !done {
            self.skip_fields(pending)?;
        }
        Ok(value)
    }

    /// An array just opened with `len` declared elements, read as a sequence.
    fn visit_array<V: Visitor<'de>>(&mut self, len: usize, visitor: V) -> Result<V::Value> {
        let mut access = ArrayAccess {
            de: self,
            left: len,
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
        Ok(value)
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
    let mut de = ReaderDeserializer::new(BufReader::new(reader), options);
    let value = T::deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// Deserializes a `T` from TOON text with the given options through the decoding state
/// machine ([`TextDeserializer`]): the values and errors of
/// [`from_str_with`](crate::from_str_with), which runs the tree deserializer.
///
/// ```
/// let items: Vec<&str> = toon::decode::from_text_with("[3]: a,b,c", &toon::DecodeOptions::default())?;
/// assert_eq!(items, ["a", "b", "c"]);
/// # Ok::<(), toon::Error>(())
/// ```
pub fn from_text_with<'de, T: Deserialize<'de>>(
    text: &'de str,
    options: &DecodeOptions,
) -> Result<T> {
    let mut de = TextDeserializer::from_text(text, options);
    let value = T::deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// Requests a primitive answers itself; anything else answers as `deserialize_any`.
/// Integer requests locate a primitive's errors themselves (as `from_str` does), the
/// others leave that to the enclosing field or element.
macro_rules! primitive_first {
    (located $($m:ident)*) => {$(
        fn $m<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            match self.next_primitive()? {
                Some((tok, at)) => self.token(tok).$m(visitor).map_err(|e| self.locate(e, at)),
                None => self.deserialize_any(visitor),
            }
        }
    )*};
    ($($m:ident)*) => {$(
        fn $m<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            match self.next_primitive()? {
                Some((tok, _)) => self.token(tok).$m(visitor),
                None => self.deserialize_any(visitor),
            }
        }
    )*};
}

#[allow(private_bounds)]
impl<'de, I: LineInput> de::Deserializer<'de> for &mut MachineDeserializer<'de, I> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.next()? {
            (Step::Prim(tok), _) => self.token(tok).deserialize_any(visitor),
            (Step::Row(cells), at) => row::visit_row(self, visitor, cells.start, at),
            (Step::StartObject, at) => guarded(|| self.visit_object(visitor, at)),
            (Step::StartArray(len), _) => guarded(|| self.visit_array(len, visitor)),
            (step, at) => Err(self.misplaced(&step, at)),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
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
    /// the variant's content is read into a `Value` first, as `from_str` reads it.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
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

/// An object's fields.
struct ObjectAccess<'d, 'de, I> {
    de: &'d mut MachineDeserializer<'de, I>,
    /// Where the last key was read: errors in its value without a position get it.
    key_at: Pos,
    /// A key was read and its value not yet.
    pending: bool,
    done: bool,
}

impl<'de, I: LineInput> MapAccess<'de> for ObjectAccess<'_, 'de, I> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.done {
            return Ok(None);
        }
        if self.pending {
            // The visitor skipped a value.
            self.pending = false;
            self.de.skip_value()?;
        }
        match self.de.next()? {
            (Step::Key(key), at) => {
                self.key_at = at;
                self.pending = true;
                let key = self.de.text(key).key(seed);
                key.map(Some).map_err(|e| self.de.locate(e, at))
            }
            (Step::EndObject, _) => {
                self.done = true;
                Ok(None)
            }
            (step, at) => Err(self.de.misplaced(&step, at)),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        if !self.pending {
            return Err(de::Error::custom("value requested before key"));
        }
        self.pending = false;
        let at = self.key_at;
        seed.deserialize(&mut *self.de)
            .map_err(|e| self.de.locate(e, at))
    }
}

/// An array's elements.
struct ArrayAccess<'d, 'de, I> {
    de: &'d mut MachineDeserializer<'de, I>,
    /// Elements still to come, as the header declares them.
    left: usize,
    done: bool,
}

impl<'de, I: LineInput> SeqAccess<'de> for ArrayAccess<'_, 'de, I> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.done {
            return Ok(None);
        }
        let (step, at) = self.de.peek()?;
        if matches!(step, Step::EndArray) {
            self.de.next()?;
            self.done = true;
            return Ok(None);
        }
        self.left = self.left.saturating_sub(1);
        seed.deserialize(&mut *self.de)
            .map(Some)
            .map_err(|e| self.de.locate(e, at))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}
