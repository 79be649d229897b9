//! The decoder proper: a serde `Deserializer` that reads TOON text straight into any
//! `T: Deserialize` — [`Value`](crate::Value) included — without an intermediate tree.
//!
//! It follows the document's structure (spec §5, §8–§10, §14, as the reference 4.4
//! implements them): the root form, objects as `MapAccess`, inline, tabular and list
//! arrays as `SeqAccess`, keyed tables as `MapAccess`, table rows as maps over the header's
//! field list. Strict checks (counts, blank lines in arrays, extra rows) run when an
//! access reaches its end. Unquoted keys and strings are borrowed from the input.

use std::borrow::Cow;
use std::collections::HashSet;
use std::marker::PhantomData;

use serde::de::value::{BorrowedStrDeserializer, StrDeserializer, StringDeserializer};
use serde::de::{self, DeserializeSeed, IntoDeserializer, MapAccess, SeqAccess, Visitor};
use serde::forward_to_deserialize_any;

use super::grammar::header::{Field, FieldCache, Header, HeaderParse, parse_header};
use super::grammar::scanner::{Line, Scanner};
use super::grammar::tokens::{
    ItemStart, NOT_A_LIST_ITEM, NumericKind, PlainKey, TokenError, find_unquoted, item_start,
    numeric_kind, parse_key, plain_key_colon, quoted_str, split_delimited, split_row, trim_spaces,
};
use crate::stack::guarded;
use crate::value::BIG_INTEGER_KEY;
use crate::{DecodeOptions, Error, ErrorKind, Result};

/// A TOON deserializer over a string.
///
/// ```
/// use serde::Deserialize;
/// let mut de = toon::Deserializer::from_str("[2]: 1,2", &toon::DecodeOptions::default());
/// let v = Vec::<u8>::deserialize(&mut de)?;
/// assert_eq!(v, [1, 2]);
/// # Ok::<(), toon::Error>(())
/// ```
pub struct Deserializer<'a> {
    lines: Scanner<'a>,
    strict: bool,
    max_depth: usize,
    indent_size: usize,
    nesting: usize,
    /// The keys of the objects being read, innermost last, for strict duplicate
    /// detection without a hash set per object (see [`Seen`]).
    seen_keys: Vec<Cow<'a, str>>,
    /// The key count of the last object finished at each nesting level: the size hint
    /// of the next one there (siblings in a list usually share a shape).
    object_sizes: Vec<usize>,
    /// Field lists of recent headers (see [`FieldCache`]).
    field_cache: FieldCache<'a>,
}

impl<'a> Deserializer<'a> {
    /// A deserializer reading `text` with `options`.
    #[allow(clippy::should_implement_trait)]
    pub fn from_str(text: &'a str, options: &DecodeOptions) -> Deserializer<'a> {
        Deserializer {
            lines: Scanner::new(text, options.indent_size.max(1), options.strict),
            strict: options.strict,
            max_depth: options.max_depth,
            indent_size: options.indent_size,
            nesting: 0,
            seen_keys: Vec::new(),
            object_sizes: Vec::new(),
            field_cache: FieldCache::default(),
        }
    }

    fn enter(&mut self, line: &Line<'_>) -> Result<()> {
        self.nesting += 1;
        if self.nesting > self.max_depth {
            return Err(Error::new(
                ErrorKind::Depth,
                format!("Nesting deeper than the limit of {} levels", self.max_depth),
            )
            .at(line.number, line.column_in(line.content, 0), line.raw));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.nesting = self.nesting.saturating_sub(1);
    }

    /// Runs a nested visit one level deeper, on a grown stack if needed.
    fn nested<T>(&mut self, line: &Line<'_>, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        self.enter(line)?;
        let out = guarded(|| f(self));
        self.leave();
        out
    }

    fn resolve_header(
        &mut self,
        line: &Line<'a>,
        content: &'a str,
    ) -> Result<Option<(Header<'a>, Option<&'a str>)>> {
        match parse_header(content, self.max_depth, &mut self.field_cache) {
            HeaderParse::NotHeader => Ok(None),
            HeaderParse::Invalid(e) => Err(tok(line, content, e)),
            HeaderParse::Header {
                header,
                inline,
                strict_error,
            } => match strict_error {
                Some(e) if self.strict => Err(tok(line, content, e)),
                _ => Ok(Some((header, inline))),
            },
        }
    }

    fn assert_fully_consumed(&mut self) -> Result<()> {
        match self.lines.peek()? {
            Some(line) => Err(line.error("Unexpected content after the document root")),
            None => Ok(()),
        }
    }

    fn assert_no_depth_jump(&self, next: &Line<'_>, parent: usize) -> Result<()> {
        if self.strict && next.depth > parent + 1 {
            return Err(next.error(format!(
                "Indentation depth jump: expected depth {}, but found {}",
                parent + 1,
                next.depth
            )));
        }
        Ok(())
    }

    /// The depth of a block's content: one below its parent, or in non-strict mode the
    /// depth of a first line that sits deeper.
    fn scope_content_depth(&mut self, base_depth: usize) -> Result<usize> {
        match self.lines.peek()? {
            Some(first) if first.depth > base_depth + 1 => {
                self.assert_no_depth_jump(&first, base_depth)?;
                Ok(first.depth)
            }
            _ => Ok(base_depth + 1),
        }
    }

    /// Reads a key-value (or keyed header) line of an object at `depth`.
    fn field_line(&mut self, line: Line<'a>, depth: usize) -> Result<(Cow<'a, str>, Slot<'a>)> {
        let content = line.content;
        if let PlainKey::Colon(colon) = plain_key_colon(content) {
            let key = trim_spaces(&content[..colon]);
            let rest = trim_spaces(&content[colon + 1..]);
            return Ok((Cow::Borrowed(key), value_slot(rest, line, depth)));
        }
        if let Some((mut header, inline)) = self.resolve_header(&line, content)? {
            let Some(key) = header.key.take() else {
                return Err(line.error(if header.keyed {
                    "Keyless keyed header is only valid at the document root"
                } else {
                    "Keyless array header is only valid at the document root or as a list item"
                }));
            };
            let slot = Slot::Array {
                header,
                inline,
                base_depth: depth,
                line,
            };
            return Ok((key, slot));
        }
        let (key, end) = parse_key(content).map_err(|e| tok(&line, content, e))?;
        let rest = trim_spaces(&content[end..]);
        Ok((key, value_slot(rest, line, depth)))
    }

    /// Reads the list item at `item_depth` and says what it holds.
    fn list_item(&mut self, item_depth: usize) -> Result<Slot<'a>> {
        let Some(line) = self.lines.next_line()? else {
            return Ok(Slot::EmptyObject);
        };
        let after = match item_start(line.content) {
            None => return Err(line.error(NOT_A_LIST_ITEM)),
            Some(ItemStart::EmptyObject) => return Ok(Slot::EmptyObject),
            Some(ItemStart::EmptyArray) => return Ok(Slot::EmptyArray),
            Some(ItemStart::Rest(after)) => after,
        };
        let item = line.with_content(after);
        match plain_key_colon(after) {
            // `- key: value`: an object whose first field is plain (no header).
            PlainKey::Colon(colon) => {
                return Ok(Slot::ListObject {
                    first: First::Plain(
                        trim_spaces(&after[..colon]),
                        trim_spaces(&after[colon + 1..]),
                        item,
                    ),
                    depth: item_depth + 1,
                    line: item,
                });
            }
            // No colon, bracket or quote: a primitive.
            PlainKey::Nothing => {
                return Ok(Slot::Token {
                    token: after,
                    line: item,
                });
            }
            PlainKey::Other => {}
        }
        let parsed = self.resolve_header(&item, after)?;
        if let Some((mut header, inline)) = parsed {
            if header.key.is_none() && is_array_header_content(after) {
                if header.keyed {
                    return Err(
                        item.error("Keyless keyed header is only valid at the document root")
                    );
                }
                if header.fields.is_some() {
                    return Err(item.error(
                        "Keyless header with a field list is only valid at the document root",
                    ));
                }
                return Ok(Slot::Array {
                    header,
                    inline,
                    base_depth: item_depth,
                    line: item,
                });
            }
            if header.fields.is_some()
                && let Some(key) = header.key.take()
            {
                let first = Slot::Array {
                    header,
                    inline,
                    base_depth: item_depth + 1,
                    line: item,
                };
                return Ok(Slot::ListObject {
                    first: First::Parsed(key, Box::new(first)),
                    depth: item_depth + 1,
                    line: item,
                });
            }
        }
        if find_unquoted(after, b':', 0).is_some() {
            return Ok(Slot::ListObject {
                first: First::Line(item),
                depth: item_depth + 1,
                line: item,
            });
        }
        Ok(Slot::Token {
            token: after,
            line: item,
        })
    }

    fn check_blank_span(&self, start: Option<usize>, end: usize, what: &str) -> Result<()> {
        if let Some(start) = start
            && let Some(blank) = self.lines.blank_between(start, end)
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

    fn visit_array<V: Visitor<'a>>(
        &mut self,
        header: Header<'a>,
        inline: Option<&'a str>,
        base_depth: usize,
        line: Line<'a>,
        visitor: V,
    ) -> Result<V::Value> {
        self.nested(&line, |de| {
            if header.keyed {
                let mut access = KeyedAccess::new(de, header, base_depth, line)?;
                let v = visitor.visit_map(&mut access)?;
                access.finish()?;
                Ok(v)
            } else if let Some(inline) = inline {
                let mut access = InlineAccess::new(de.strict, &header, inline, line);
                let v = visitor.visit_seq(&mut access)?;
                access.finish()?;
                Ok(v)
            } else if header.fields.as_ref().is_some_and(|f| !f.is_empty()) {
                let mut access = TabularAccess::new(de, header, base_depth, line)?;
                let v = visitor.visit_seq(&mut access)?;
                access.finish()?;
                Ok(v)
            } else {
                let mut access = ListAccess::new(de, header.length, base_depth, line)?;
                let v = visitor.visit_seq(&mut access)?;
                access.finish()?;
                Ok(v)
            }
        })
    }

    fn visit_object<V: Visitor<'a>>(
        &mut self,
        access_init: ObjectInit<'a>,
        line: Line<'a>,
        visitor: V,
    ) -> Result<V::Value> {
        self.nested(&line, |de| {
            let mut access = ObjectAccess::new(de, access_init);
            let v = visitor.visit_map(&mut access)?;
            access.finish()?;
            Ok(v)
        })
    }
}

/// The value of a field whose key ended before `rest` (trimmed) on `line`.
fn value_slot<'a>(rest: &'a str, line: Line<'a>, depth: usize) -> Slot<'a> {
    if rest.is_empty() {
        Slot::Object {
            parent_depth: depth,
            line,
        }
    } else if rest == "[]" {
        Slot::EmptyArray
    } else {
        Slot::Token { token: rest, line }
    }
}

fn tok(line: &Line<'_>, part: &str, e: TokenError) -> Error {
    let err = line.error_at(part, e.offset, e.message);
    if e.depth {
        err.with_kind(ErrorKind::Depth)
    } else {
        err
    }
}

fn over_indented(line: &Line<'_>, expected: usize) -> Error {
    line.error(format!(
        "Over-indented line: expected depth {expected}, but found {}",
        line.depth
    ))
}

fn count_error(line: &Line<'_>, expected: usize, what: &str, got: usize) -> Error {
    line.error(format!("Expected {expected} {what}, but got {got}"))
}

fn is_array_header_content(content: &str) -> bool {
    trim_spaces(content).starts_with('[') && find_unquoted(content, b':', 0).is_some()
}

fn is_data_row(content: &str, delim: u8) -> bool {
    match find_unquoted(content, b':', 0) {
        None => true,
        Some(colon) => find_unquoted(content, delim, 0).is_some_and(|d| d < colon),
    }
}

/// Gives an error without a location the location of `line`.
fn locate(e: Error, line: &Line<'_>) -> Error {
    if e.line().is_some() {
        e
    } else {
        let col = line.column_in(line.content, 0);
        e.at(line.number, col, line.raw)
    }
}

fn too_many(line: &Line<'_>) -> Error {
    line.error("More items than the requested type can hold")
}

/// What the next value is, as far as the line that introduced it tells.
enum Slot<'a> {
    /// A primitive token (trimmed).
    Token { token: &'a str, line: Line<'a> },
    /// `key:` with nothing after the colon: an object, empty unless deeper lines follow.
    Object { parent_depth: usize, line: Line<'a> },
    /// `key: []`, `[]`, `- []`.
    EmptyArray,
    /// A bare `-` list item.
    EmptyObject,
    /// An array or keyed table under a header.
    Array {
        header: Header<'a>,
        inline: Option<&'a str>,
        base_depth: usize,
        line: Line<'a>,
    },
    /// An object whose first field sits on a list item's hyphen line.
    ListObject {
        first: First<'a>,
        depth: usize,
        line: Line<'a>,
    },
}

/// The first field of an object, when it was read before the object's access began.
enum First<'a> {
    /// A line still to be read as a field.
    Line(Line<'a>),
    /// A field already split into key and value.
    Parsed(Cow<'a, str>, Box<Slot<'a>>),
    /// A plain `key: rest` field (key and rest trimmed) on the given line.
    Plain(&'a str, &'a str, Line<'a>),
}

struct ObjectInit<'a> {
    /// Lines shallower than this end the object.
    min_depth: usize,
    /// The depth every field line must have (found from the first line if `None`).
    depth: Option<usize>,
    first: Option<First<'a>>,
}

/// `Slot` as a serde deserializer.
struct SlotDe<'s, 'a> {
    de: &'s mut Deserializer<'a>,
    slot: Slot<'a>,
}

impl<'a> de::Deserializer<'a> for SlotDe<'_, 'a> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        let SlotDe { de, slot } = self;
        match slot {
            Slot::Token { token, line } => TokenDe { token, line }.deserialize_any(visitor),
            Slot::EmptyArray => visitor.visit_seq(EmptySeq),
            Slot::EmptyObject => visitor.visit_map(EmptyMap),
            Slot::Object { parent_depth, line } => match de.lines.peek()? {
                Some(next) if next.depth > parent_depth => {
                    de.assert_no_depth_jump(&next, parent_depth)?;
                    let init = ObjectInit {
                        min_depth: parent_depth + 1,
                        depth: None,
                        first: None,
                    };
                    de.visit_object(init, line, visitor)
                }
                _ => visitor.visit_map(EmptyMap),
            },
            Slot::Array {
                header,
                inline,
                base_depth,
                line,
            } => de.visit_array(header, inline, base_depth, line, visitor),
            Slot::ListObject { first, depth, line } => {
                let init = ObjectInit {
                    min_depth: depth,
                    depth: Some(depth),
                    first: Some(first),
                };
                de.visit_object(init, line, visitor)
            }
        }
    }

    fn deserialize_option<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        match &self.slot {
            Slot::Token { token, .. } if *token == "null" => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_enum<V: Visitor<'a>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.slot {
            Slot::Token { token, line } => {
                TokenDe { token, line }.deserialize_enum(name, variants, visitor)
            }
            _ => {
                // An externally tagged enum: an object with one key, the variant.
                let value = <crate::Value as serde::Deserialize>::deserialize(self)?;
                de::Deserializer::deserialize_enum(value, name, variants, visitor)
            }
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'a>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_str<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        match self.slot {
            Slot::Token { token, line } => TokenDe { token, line }.deserialize_str(visitor),
            slot => SlotDe { de: self.de, slot }.deserialize_any(visitor),
        }
    }

    fn deserialize_string<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    forward_numbers!(slot);

    forward_to_deserialize_any! {
        <W: Visitor<'a>>
        bool char bytes byte_buf unit unit_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}

/// Number requests on the root and on a slot go to the token: integers accept integral
/// floats (`1e3`), floats integers of any size.
macro_rules! forward_numbers {
    (slot) => {
        forward_numbers!(@slot deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
            deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
            deserialize_u128 deserialize_f32 deserialize_f64);
    };
    (@slot $($m:ident)*) => {$(
        fn $m<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
            match self.slot {
                Slot::Token { token, line } => TokenDe { token, line }.$m(visitor),
                slot => SlotDe { de: self.de, slot }.deserialize_any(visitor),
            }
        }
    )*};
    (root) => {
        forward_numbers!(@root deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
            deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
            deserialize_u128 deserialize_f32 deserialize_f64);
    };
    (@root $($m:ident)*) => {$(
        fn $m<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
            self.read_root(|slot| slot.$m(visitor))
        }
    )*};
    (token) => {
        forward_numbers!(@token deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
            deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
            deserialize_u128);
    };
    (@token $($m:ident)*) => {$(
        fn $m<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
            self.integer(visitor)
        }
    )*};
}
use forward_numbers;

/// A primitive token as a serde deserializer (spec §4).
struct TokenDe<'a> {
    token: &'a str,
    line: Line<'a>,
}

impl<'a> TokenDe<'a> {
    fn err(&self, e: TokenError) -> Error {
        tok(&self.line, self.token, e)
    }

    fn integer<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        let line = self.line;
        let out = match numeric_kind(self.token) {
            Some(NumericKind::Int) => match self.token.parse::<u64>() {
                Ok(u) => visitor.visit_u64(u),
                Err(_) => match self.token.parse::<i64>() {
                    Ok(i) => visitor.visit_i64(i),
                    Err(_) => de::Deserializer::deserialize_any(self, visitor),
                },
            },
            Some(NumericKind::Float) => match self.token.parse::<f64>() {
                // An integral float fits an integer field (`1e3`).
                Ok(f) if f.fract() == 0.0 && f.abs() < 9.007_199_254_740_992e15 => {
                    if f < 0.0 {
                        visitor.visit_i64(f as i64)
                    } else {
                        visitor.visit_u64(f as u64)
                    }
                }
                _ => de::Deserializer::deserialize_any(self, visitor),
            },
            None => de::Deserializer::deserialize_any(self, visitor),
        };
        out.map_err(|e| locate(e, &line))
    }
}

impl<'a> de::Deserializer<'a> for TokenDe<'a> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        let t = self.token;
        if t.is_empty() {
            return visitor.visit_borrowed_str(t);
        }
        if t.as_bytes()[0] == b'"' {
            return match quoted_str(t).map_err(|e| self.err(e))? {
                Cow::Borrowed(s) => visitor.visit_borrowed_str(s),
                Cow::Owned(s) => visitor.visit_string(s),
            };
        }
        match t {
            "true" => return visitor.visit_bool(true),
            "false" => return visitor.visit_bool(false),
            "null" => return visitor.visit_unit(),
            _ => {}
        }
        match numeric_kind(t) {
            Some(NumericKind::Int) => {
                if let Ok(u) = t.parse::<u64>() {
                    visitor.visit_u64(u)
                } else if let Ok(i) = t.parse::<i64>() {
                    // "-0" parses as 0 and reaches visit_u64 above.
                    visitor.visit_i64(i)
                } else if let Ok(u) = t.parse::<u128>() {
                    visitor.visit_u128(u)
                } else if let Ok(i) = t.parse::<i128>() {
                    visitor.visit_i128(i)
                } else {
                    visitor.visit_map(BigIntegerAccess(Some(t)))
                }
            }
            Some(NumericKind::Float) => match t.parse::<f64>() {
                Ok(f) if f.is_finite() => visitor.visit_f64(if f == 0.0 { 0.0 } else { f }),
                _ => visitor.visit_borrowed_str(t),
            },
            None => visitor.visit_borrowed_str(t),
        }
    }

    fn deserialize_option<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        if self.token == "null" {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    /// Strings read any token as text: `version: 1.0` fits a `String` field.
    fn deserialize_str<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        if self.token.starts_with('"') {
            self.deserialize_any(visitor)
        } else {
            visitor.visit_borrowed_str(self.token)
        }
    }

    fn deserialize_string<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_enum<V: Visitor<'a>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let name: Cow<'a, str> = if self.token.starts_with('"') {
            quoted_str(self.token).map_err(|e| self.err(e))?
        } else {
            Cow::Borrowed(self.token)
        };
        match name {
            Cow::Borrowed(s) => visitor.visit_enum(BorrowedStrDeserializer::<Error>::new(s)),
            Cow::Owned(s) => visitor.visit_enum(StringDeserializer::<Error>::new(s)),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'a>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    forward_numbers!(token);

    /// Floats read an integer token as a float too: a float of 2^64 or more is written
    /// as its integer digits (`240000000000000000000`), which fits an `f64` field as
    /// serde_json reads it.
    fn deserialize_f64<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        if matches!(numeric_kind(self.token), Some(NumericKind::Int))
            && let Ok(f) = self.token.parse::<f64>()
        {
            return visitor.visit_f64(if f == 0.0 { 0.0 } else { f });
        }
        self.deserialize_any(visitor)
    }

    fn deserialize_f32<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_f64(visitor)
    }

    forward_to_deserialize_any! {
        <W: Visitor<'a>>
        bool char bytes byte_buf unit unit_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}

/// An integer beyond 128 bits, handed to visitors as a one-entry map that
/// [`Value`](crate::Value)'s visitor recognises (other visitors see a map).
struct BigIntegerAccess<'a>(Option<&'a str>);

impl<'a> MapAccess<'a> for BigIntegerAccess<'a> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'a>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.0.is_none() {
            return Ok(None);
        }
        seed.deserialize(StrDeserializer::<Error>::new(BIG_INTEGER_KEY))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'a>>(&mut self, seed: V) -> Result<V::Value> {
        let digits = self.0.take().unwrap_or("0");
        seed.deserialize(BorrowedStrDeserializer::<Error>::new(digits))
    }
}

struct EmptySeq;

impl<'a> SeqAccess<'a> for EmptySeq {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'a>>(&mut self, _seed: T) -> Result<Option<T::Value>> {
        Ok(None)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(0)
    }
}

struct EmptyMap;

impl<'a> MapAccess<'a> for EmptyMap {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'a>>(&mut self, _seed: K) -> Result<Option<K::Value>> {
        Ok(None)
    }

    fn next_value_seed<V: DeserializeSeed<'a>>(&mut self, _seed: V) -> Result<V::Value> {
        Err(de::Error::custom("no value in an empty object"))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(0)
    }
}

fn deliver_key<'a, K: DeserializeSeed<'a>>(seed: K, key: Cow<'a, str>) -> Result<K::Value> {
    match key {
        Cow::Borrowed(s) => seed.deserialize(BorrowedStrDeserializer::<Error>::new(s)),
        Cow::Owned(s) => seed.deserialize(s.into_deserializer()),
    }
}

/// Keys an object may hold before its strict duplicate check moves from a linear scan
/// of the shared key stack to a hash set.
const LINEAR_KEYS: usize = 16;

/// Strict-mode duplicate detection for one object's keys. Small objects (nearly all)
/// push their keys on the deserializer's shared stack and compare linearly, which costs
/// no allocation and no hashing; an object with more than [`LINEAR_KEYS`] keys moves
/// them to its own hash set.
struct Seen<'a> {
    strict: bool,
    /// Where this object's keys start on the shared stack.
    start: usize,
    set: Option<HashSet<Cow<'a, str>>>,
}

impl<'a> Seen<'a> {
    fn new(strict: bool, stack: &[Cow<'a, str>]) -> Seen<'a> {
        Seen {
            strict,
            start: stack.len(),
            set: None,
        }
    }

    // `&Cow`, not `&str`: a borrowed key is kept (cloned) without allocating.
    #[allow(clippy::ptr_arg)]
    fn check(
        &mut self,
        stack: &mut Vec<Cow<'a, str>>,
        key: &Cow<'a, str>,
        line: &Line<'_>,
    ) -> Result<()> {
        if !self.strict {
            return Ok(());
        }
        let duplicate = match &mut self.set {
            Some(set) => !set.insert(key.clone()),
            None => {
                let mine = stack.get(self.start..).unwrap_or(&[]);
                if mine.iter().any(|k| k == key) {
                    true
                } else if mine.len() < LINEAR_KEYS {
                    stack.push(key.clone());
                    false
                } else {
                    let mut set: HashSet<Cow<'a, str>> = stack.drain(self.start..).collect();
                    set.insert(key.clone());
                    self.set = Some(set);
                    false
                }
            }
        };
        if duplicate {
            return Err(line.error(format!("Duplicate sibling key \"{key}\"")));
        }
        Ok(())
    }

    /// Drops this object's keys from the shared stack.
    fn release(&self, stack: &mut Vec<Cow<'a, str>>) {
        stack.truncate(self.start);
    }
}

/// The fields of an object, one line each.
struct ObjectAccess<'s, 'a> {
    de: &'s mut Deserializer<'a>,
    init: ObjectInit<'a>,
    pending: Option<(Slot<'a>, Line<'a>)>,
    seen: Seen<'a>,
    /// The nesting level of this object and the keys read so far (for size hints).
    level: usize,
    keys: usize,
    done: bool,
}

impl<'s, 'a> ObjectAccess<'s, 'a> {
    fn new(de: &'s mut Deserializer<'a>, init: ObjectInit<'a>) -> Self {
        let seen = Seen::new(de.strict, &de.seen_keys);
        ObjectAccess {
            level: de.nesting,
            de,
            init,
            pending: None,
            seen,
            keys: 0,
            done: false,
        }
    }

    /// The next field line, or `None` at the end of the object.
    fn next_field(&mut self) -> Result<Option<(Cow<'a, str>, Slot<'a>, Line<'a>)>> {
        if let Some(first) = self.init.first.take() {
            let depth = self.init.depth.unwrap_or(0);
            return Ok(Some(match first {
                First::Line(line) => {
                    let (k, s) = self.de.field_line(line, depth)?;
                    (k, s, line)
                }
                First::Parsed(k, slot) => {
                    let line = slot_line(&slot);
                    (k, *slot, line)
                }
                First::Plain(k, rest, line) => {
                    (Cow::Borrowed(k), value_slot(rest, line, depth), line)
                }
            }));
        }
        let Some(line) = self.de.lines.peek()? else {
            return Ok(None);
        };
        if line.depth < self.init.min_depth {
            return Ok(None);
        }
        let depth = *self.init.depth.get_or_insert(line.depth);
        if line.depth != depth {
            return Err(over_indented(&line, depth));
        }
        self.de.lines.next_line()?;
        let (k, s) = self.de.field_line(line, depth)?;
        Ok(Some((k, s, line)))
    }

    /// Reads any fields the visitor did not ask for (they must still be valid).
    fn finish(&mut self) -> Result<()> {
        while !self.done {
            if self.next_key_seed(PhantomData::<de::IgnoredAny>)?.is_none() {
                break;
            }
            self.next_value_seed(PhantomData::<de::IgnoredAny>)?;
        }
        Ok(())
    }
}

impl Drop for ObjectAccess<'_, '_> {
    fn drop(&mut self) {
        self.seen.release(&mut self.de.seen_keys);
    }
}

fn slot_line<'a>(slot: &Slot<'a>) -> Line<'a> {
    match slot {
        Slot::Token { line, .. }
        | Slot::Object { line, .. }
        | Slot::Array { line, .. }
        | Slot::ListObject { line, .. } => *line,
        Slot::EmptyArray | Slot::EmptyObject => Line {
            raw: "",
            content: "",
            depth: 0,
            number: 0,
        },
    }
}

impl<'a> MapAccess<'a> for ObjectAccess<'_, 'a> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'a>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.done {
            return Ok(None);
        }
        let Some((key, slot, line)) = self.next_field()? else {
            self.done = true;
            let sizes = &mut self.de.object_sizes;
            if sizes.len() <= self.level {
                sizes.resize(self.level + 1, 0);
            }
            sizes[self.level] = self.keys;
            return Ok(None);
        };
        self.keys += 1;
        self.seen.check(&mut self.de.seen_keys, &key, &line)?;
        self.pending = Some((slot, line));
        deliver_key(seed, key)
            .map(Some)
            .map_err(|e| locate(e, &line))
    }

    fn next_value_seed<V: DeserializeSeed<'a>>(&mut self, seed: V) -> Result<V::Value> {
        let Some((slot, line)) = self.pending.take() else {
            return Err(de::Error::custom("value requested before key"));
        };
        seed.deserialize(SlotDe { de: self.de, slot })
            .map_err(|e| locate(e, &line))
    }

    /// A guess: the size of the last object finished at this level, up to
    /// [`OBJECT_HINT_CAP`] (`None` without one).
    fn size_hint(&self) -> Option<usize> {
        let last = self.de.object_sizes.get(self.level).copied().unwrap_or(0);
        (last > 0).then_some(last.min(OBJECT_HINT_CAP))
    }
}

/// The largest size hint an object gives (a hint is a guess from its previous sibling).
const OBJECT_HINT_CAP: usize = 32;

/// Inline primitive values after a header's colon.
struct InlineAccess<'a> {
    cells: Vec<&'a str>,
    next: usize,
    length: usize,
    strict: bool,
    line: Line<'a>,
}

impl<'a> InlineAccess<'a> {
    fn new(strict: bool, header: &Header<'_>, inline: &'a str, line: Line<'a>) -> Self {
        let mut cells = Vec::new();
        split_delimited(inline, header.delimiter, &mut cells);
        InlineAccess {
            cells,
            next: 0,
            length: header.length,
            strict,
            line,
        }
    }

    fn finish(&mut self) -> Result<()> {
        if self.next < self.cells.len() {
            return Err(too_many(&self.line));
        }
        Ok(())
    }
}

impl<'a> SeqAccess<'a> for InlineAccess<'a> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'a>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let Some(&token) = self.cells.get(self.next) else {
            if self.strict && self.cells.len() != self.length {
                return Err(count_error(
                    &self.line,
                    self.length,
                    "inline-form values",
                    self.cells.len(),
                ));
            }
            return Ok(None);
        };
        self.next += 1;
        seed.deserialize(TokenDe {
            token,
            line: self.line,
        })
        .map(Some)
        .map_err(|e| locate(e, &self.line))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.cells.len() - self.next)
    }
}

/// One table row (or keyed entry) as an object over the header's field list.
struct RowDe<'r, 'a> {
    fields: &'r [Field<'a>],
    cells: &'r [&'a str],
    line: Line<'a>,
}

impl<'a> de::Deserializer<'a> for RowDe<'_, 'a> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_map(RowAccess {
            fields: self.fields,
            cells: self.cells,
            field: 0,
            cell: 0,
            line: self.line,
        })
    }

    fn deserialize_option<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_some(self)
    }

    fn deserialize_enum<V: Visitor<'a>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let value = <crate::Value as serde::Deserialize>::deserialize(self)?;
        de::Deserializer::deserialize_enum(value, name, variants, visitor)
    }

    forward_to_deserialize_any! {
        <W: Visitor<'a>>
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct newtype_struct seq tuple tuple_struct map struct identifier
        ignored_any
    }
}

struct RowAccess<'r, 'a> {
    fields: &'r [Field<'a>],
    cells: &'r [&'a str],
    field: usize,
    cell: usize,
    line: Line<'a>,
}

impl<'a> MapAccess<'a> for RowAccess<'_, 'a> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'a>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        match self.fields.get(self.field) {
            Some(f) => seed
                .deserialize(StrDeserializer::<Error>::new(&f.name))
                .map(Some),
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'a>>(&mut self, seed: V) -> Result<V::Value> {
        let Some(field) = self.fields.get(self.field) else {
            return Err(de::Error::custom("value requested before key"));
        };
        self.field += 1;
        let start = self.cell;
        self.cell += field.leaves;
        let cells = self.cells.get(start..self.cell).unwrap_or(&[]);
        match &field.children {
            None => seed.deserialize(TokenDe {
                token: cells.first().copied().unwrap_or(""),
                line: self.line,
            }),
            Some(children) => seed.deserialize(RowDe {
                fields: children,
                cells,
                line: self.line,
            }),
        }
        .map_err(|e| locate(e, &self.line))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.fields.len() - self.field)
    }
}

/// Rows of a tabular array.
struct TabularAccess<'s, 'a> {
    de: &'s mut Deserializer<'a>,
    header: Header<'a>,
    base_depth: usize,
    row_depth: usize,
    leaves: usize,
    count: usize,
    start: Option<usize>,
    end: usize,
    last: Line<'a>,
    cells: Vec<&'a str>,
    done: bool,
}

impl<'s, 'a> TabularAccess<'s, 'a> {
    fn new(
        de: &'s mut Deserializer<'a>,
        header: Header<'a>,
        base_depth: usize,
        line: Line<'a>,
    ) -> Result<Self> {
        let row_depth = de.scope_content_depth(base_depth)?;
        Ok(TabularAccess {
            leaves: header.leaf_count(),
            de,
            header,
            base_depth,
            row_depth,
            count: 0,
            start: None,
            end: 0,
            last: line,
            cells: Vec::new(),
            done: false,
        })
    }

    /// The next row line, or `None` (after the strict end checks) at the end.
    fn next_row(&mut self) -> Result<Option<Line<'a>>> {
        if self.done {
            return Ok(None);
        }
        let strict = self.de.strict;
        let line = if strict && self.count >= self.header.length {
            None
        } else {
            match self.de.lines.peek()? {
                Some(line) if line.depth > self.base_depth => {
                    if line.depth != self.row_depth {
                        return Err(over_indented(&line, self.row_depth));
                    }
                    split_row(line.content, self.header.delimiter, &mut self.cells).then_some(line)
                }
                _ => None,
            }
        };
        let Some(line) = line else {
            self.done = true;
            if strict {
                self.end_checks()?;
            }
            return Ok(None);
        };
        self.start.get_or_insert(line.number);
        self.end = line.number;
        self.last = line;
        self.de.lines.next_line()?;
        if self.cells.len() != self.leaves {
            return Err(count_error(
                &line,
                self.leaves,
                "tabular row values",
                self.cells.len(),
            ));
        }
        self.count += 1;
        Ok(Some(line))
    }

    fn end_checks(&mut self) -> Result<()> {
        if self.count != self.header.length {
            return Err(count_error(
                &self.last,
                self.header.length,
                "tabular rows",
                self.count,
            ));
        }
        self.de
            .check_blank_span(self.start, self.end, "tabular array")?;
        if let Some(next) = self.de.lines.peek()?
            && next.depth == self.row_depth
            && !next.content.starts_with("- ")
            && is_data_row(next.content, self.header.delimiter)
        {
            return Err(next.error(format!(
                "Expected {} tabular rows, but found more",
                self.header.length
            )));
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<()> {
        match self.next_row()? {
            Some(line) => Err(too_many(&line)),
            None => Ok(()),
        }
    }
}

impl<'a> SeqAccess<'a> for TabularAccess<'_, 'a> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'a>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let Some(line) = self.next_row()? else {
            return Ok(None);
        };
        let fields = self.header.fields.as_deref().unwrap_or(&[]);
        seed.deserialize(RowDe {
            fields,
            cells: &self.cells,
            line,
        })
        .map(Some)
    }
}

/// Entries of a keyed table: `entry: cell,cell`.
struct KeyedAccess<'s, 'a> {
    de: &'s mut Deserializer<'a>,
    header: Header<'a>,
    base_depth: usize,
    entry_depth: usize,
    leaves: usize,
    count: usize,
    start: Option<usize>,
    end: usize,
    last: Line<'a>,
    cells: Vec<&'a str>,
    seen: Seen<'a>,
    done: bool,
}

impl<'s, 'a> KeyedAccess<'s, 'a> {
    fn new(
        de: &'s mut Deserializer<'a>,
        header: Header<'a>,
        base_depth: usize,
        line: Line<'a>,
    ) -> Result<Self> {
        let entry_depth = de.scope_content_depth(base_depth)?;
        let seen = Seen::new(de.strict, &de.seen_keys);
        Ok(KeyedAccess {
            leaves: header.leaf_count(),
            de,
            header,
            base_depth,
            entry_depth,
            count: 0,
            start: None,
            end: 0,
            last: line,
            cells: Vec::new(),
            seen,
            done: false,
        })
    }

    fn finish(&mut self) -> Result<()> {
        while !self.done {
            if self.next_key_seed(PhantomData::<de::IgnoredAny>)?.is_none() {
                break;
            }
            self.next_value_seed(PhantomData::<de::IgnoredAny>)?;
        }
        Ok(())
    }
}

impl<'a> MapAccess<'a> for KeyedAccess<'_, 'a> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'a>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.done {
            return Ok(None);
        }
        let line = match self.de.lines.peek()? {
            Some(line) if line.depth > self.base_depth => line,
            _ => {
                self.done = true;
                if self.de.strict {
                    if self.count != self.header.length {
                        return Err(count_error(
                            &self.last,
                            self.header.length,
                            "keyed entries",
                            self.count,
                        ));
                    }
                    self.de
                        .check_blank_span(self.start, self.end, "keyed tabular object")?;
                }
                return Ok(None);
            }
        };
        if line.depth != self.entry_depth {
            return Err(over_indented(&line, self.entry_depth));
        }
        if find_unquoted(line.content, b':', 0).is_none() {
            return Err(line.error("Expected entry row inside keyed tabular object"));
        }
        self.de.lines.next_line()?;
        self.start.get_or_insert(line.number);
        self.end = line.number;
        self.last = line;
        let (key, key_end) = parse_key(line.content).map_err(|e| tok(&line, line.content, e))?;
        self.seen.check(&mut self.de.seen_keys, &key, &line)?;
        let rest = trim_spaces(&line.content[key_end..]);
        if rest.is_empty() {
            self.cells.clear();
        } else {
            split_delimited(rest, self.header.delimiter, &mut self.cells);
        }
        if self.cells.len() != self.leaves {
            return Err(count_error(
                &line,
                self.leaves,
                "keyed entry cells",
                self.cells.len(),
            ));
        }
        self.count += 1;
        deliver_key(seed, key)
            .map(Some)
            .map_err(|e| locate(e, &line))
    }

    fn next_value_seed<V: DeserializeSeed<'a>>(&mut self, seed: V) -> Result<V::Value> {
        let fields = self.header.fields.as_deref().unwrap_or(&[]);
        seed.deserialize(RowDe {
            fields,
            cells: &self.cells,
            line: self.last,
        })
    }
}

impl Drop for KeyedAccess<'_, '_> {
    fn drop(&mut self) {
        self.seen.release(&mut self.de.seen_keys);
    }
}

/// Items of an expanded list: `- item` lines.
struct ListAccess<'s, 'a> {
    de: &'s mut Deserializer<'a>,
    length: usize,
    base_depth: usize,
    item_depth: usize,
    count: usize,
    start: Option<usize>,
    end: usize,
    last: Line<'a>,
    done: bool,
}

impl<'s, 'a> ListAccess<'s, 'a> {
    fn new(
        de: &'s mut Deserializer<'a>,
        length: usize,
        base_depth: usize,
        line: Line<'a>,
    ) -> Result<Self> {
        let item_depth = de.scope_content_depth(base_depth)?;
        Ok(ListAccess {
            de,
            length,
            base_depth,
            item_depth,
            count: 0,
            start: None,
            end: 0,
            last: line,
            done: false,
        })
    }

    /// True if another item follows; runs the strict end checks otherwise.
    fn has_next(&mut self) -> Result<bool> {
        if self.done {
            return Ok(false);
        }
        let strict = self.de.strict;
        let more = if strict && self.count >= self.length {
            false
        } else {
            match self.de.lines.peek()? {
                Some(line) if line.depth > self.base_depth => {
                    if line.depth != self.item_depth {
                        return Err(over_indented(&line, self.item_depth));
                    }
                    let is_item = line.content.starts_with("- ") || line.content == "-";
                    if is_item {
                        self.start.get_or_insert(line.number);
                    }
                    is_item
                }
                _ => false,
            }
        };
        if !more {
            self.done = true;
            if strict {
                if self.count != self.length {
                    return Err(count_error(
                        &self.last,
                        self.length,
                        "list-form items",
                        self.count,
                    ));
                }
                self.de
                    .check_blank_span(self.start, self.end, "list-form array")?;
                if let Some(next) = self.de.lines.peek()?
                    && next.depth == self.item_depth
                    && next.content.starts_with("- ")
                {
                    return Err(next.error(format!(
                        "Expected {} list-form items, but found more",
                        self.length
                    )));
                }
            }
        }
        Ok(more)
    }

    fn finish(&mut self) -> Result<()> {
        if self.has_next()? {
            let line = self.de.lines.peek()?.unwrap_or(self.last);
            return Err(too_many(&line));
        }
        Ok(())
    }
}

impl<'a> SeqAccess<'a> for ListAccess<'_, 'a> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'a>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if !self.has_next()? {
            return Ok(None);
        }
        let slot = self.de.list_item(self.item_depth)?;
        let value = seed.deserialize(SlotDe { de: self.de, slot })?;
        if let Some(consumed) = self.de.lines.last_consumed {
            self.last = consumed;
            self.end = consumed.number;
        }
        self.count += 1;
        Ok(Some(value))
    }
}

impl<'a> de::Deserializer<'a> for &mut Deserializer<'a> {
    type Error = Error;

    /// Reads the whole document: the root form of spec §5.
    fn deserialize_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        self.read_root(|slot| slot.deserialize_any(visitor))
    }

    forward_numbers!(root);

    fn deserialize_option<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        self.read_root(|root| match root.slot {
            Slot::Token { token: "null", .. } => visitor.visit_none(),
            _ => visitor.visit_some(root),
        })
    }

    fn deserialize_enum<V: Visitor<'a>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let slot = self.root_slot()?;
        SlotDe { de: self, slot }.deserialize_enum(name, variants, visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'a>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    forward_to_deserialize_any! {
        <W: Visitor<'a>>
        bool char str string bytes byte_buf
        unit unit_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

impl<'a> Deserializer<'a> {
    /// Reads the root value (spec §5) with `read`; a root array must be the whole text.
    fn read_root<T>(&mut self, read: impl FnOnce(SlotDe<'_, 'a>) -> Result<T>) -> Result<T> {
        let slot = self.root_slot()?;
        let is_array = matches!(slot, Slot::Array { .. } | Slot::EmptyArray);
        let value = read(SlotDe { de: self, slot })?;
        if is_array {
            self.assert_fully_consumed()?;
        }
        Ok(value)
    }

    /// Decides the root form (spec §5) and reads the lines that decide it.
    fn root_slot(&mut self) -> Result<Slot<'a>> {
        if self.indent_size == 0 {
            return Err(Error::new(
                ErrorKind::Options,
                "indent size must be at least 1",
            ));
        }
        let Some(first) = self.lines.peek()? else {
            return Ok(Slot::EmptyObject);
        };
        if first.depth != 0 {
            return Err(over_indented(&first, 0));
        }
        if trim_spaces(first.content) == "[]" {
            self.lines.next_line()?;
            return Ok(Slot::EmptyArray);
        }
        if is_array_header_content(first.content)
            && let Some((header, inline)) = self.resolve_header(&first, first.content)?
        {
            self.lines.next_line()?;
            return Ok(Slot::Array {
                header,
                inline,
                base_depth: 0,
                line: first,
            });
        }
        self.lines.next_line()?;
        let following = self.lines.peek()?;
        let first_is_kv = find_unquoted(first.content, b':', 0).is_some();
        if following.is_none() && !first_is_kv {
            return Ok(Slot::Token {
                token: trim_spaces(first.content),
                line: first,
            });
        }
        if !first_is_kv && following.is_some_and(|l| l.depth == 0) {
            return Err(
                first.error("Top-level document must start with a key-value or array-header line")
            );
        }
        Ok(Slot::ListObject {
            first: First::Line(first),
            depth: 0,
            line: first,
        })
    }
}
