//! What one line says about the value it introduces, in owned form (a reader's line
//! buffer is reused once the machine moves on): the reading of key-value lines, list
//! items and headers. Errors that belong to the value rather than the line (raised
//! when the value is reached, as the reference raises them) are kept in the slot and
//! raised at that point.

use std::borrow::Cow;
use std::ops::Range;

use super::header::{Header, HeaderParse, OwnedFieldCache, parse_header};
use super::scanner::Line;
use super::tokens::{
    ItemStart, NOT_A_LIST_ITEM, PlainKey, TokenError, find_unquoted, item_start, parse_key,
    plain_key_colon, trim_after_colon, trim_spaces,
};
use crate::{Error, ErrorKind, Result, Value};

use super::primitive::parse_primitive;

/// A position for an error raised later about a line that is still the reader's current
/// line: its number and the column of its content.
#[derive(Clone, Copy, Debug)]
pub(crate) struct At {
    pub number: usize,
    pub column: usize,
}

impl At {
    /// The position of `line`'s content.
    #[inline]
    pub fn of(line: &Line<'_>) -> At {
        At {
            number: line.number,
            column: line.content_column(),
        }
    }

    /// An error of `kind` here; `raw` is the line's text.
    pub fn error(self, kind: ErrorKind, message: impl Into<String>, raw: &str) -> Error {
        Error::new(kind, message).at(self.number, self.column, raw)
    }
}

/// The value a line introduces.
pub(crate) enum Slot {
    /// A primitive token: its byte range in the line's `raw` text (the line is still
    /// the reader's current line when the slot is entered), read by the sink as it
    /// reads table cells, so a sink can keep the token's text.
    Prim(Range<usize>),
    /// `key: []`, `[]`, `- []`.
    EmptyArray,
    /// A bare `-` list item (or an empty document).
    EmptyObject,
    /// `key:` with nothing after the colon: an object, empty unless deeper lines follow.
    Object { parent_depth: usize, at: At },
    /// An array or keyed table under a header.
    Array(Box<ArraySlot>),
    /// An object whose first field sits on the introducing line.
    ListObject {
        first: Box<Result<FirstField>>,
        depth: usize,
        at: At,
    },
}

/// An array or keyed table under a header.
pub(crate) struct ArraySlot {
    pub header: Header<'static>,
    /// The inline values after the colon: their byte range in the line's `raw` text
    /// (the line is still the reader's current line when the slot is entered).
    pub inline: Option<Range<usize>>,
    pub base_depth: usize,
    pub at: At,
}

/// A key read from a line: its byte range in the line's `raw` text (the line is still
/// the reader's current line when the key is used), or its unescaped text.
pub(crate) enum LineKey {
    Raw(Range<usize>),
    Owned(String),
}

impl LineKey {
    /// The key `key` read from `line` (a sub-slice of its raw text when borrowed).
    fn of(line: &Line<'_>, key: Cow<'_, str>) -> LineKey {
        match key {
            Cow::Borrowed(k) => LineKey::Raw(raw_range(line, k)),
            Cow::Owned(k) => LineKey::Owned(k),
        }
    }
}

/// The first field of a [`Slot::ListObject`].
pub(crate) struct FirstField {
    pub key: LineKey,
    pub slot: Slot,
    /// Where a duplicate-key error points.
    pub at: At,
}

/// The decoder's settings that line reading needs.
#[derive(Clone, Copy)]
pub(crate) struct Ctx {
    pub strict: bool,
    pub max_depth: usize,
}

/// A token-level error at `offset` of the sub-slice `part` of `line`.
pub(crate) fn tok(line: &Line<'_>, part: &str, e: TokenError) -> Error {
    let err = line.error_at(part, e.offset, e.message);
    if e.depth {
        err.with_kind(ErrorKind::Depth)
    } else {
        err
    }
}

/// `Over-indented line` at `line`.
pub(crate) fn over_indented(line: &Line<'_>, expected: usize) -> Error {
    line.error(format!(
        "Over-indented line: expected depth {expected}, but found {}",
        line.depth
    ))
}

/// `Expected N what, but got M`.
pub(crate) fn count_message(expected: usize, what: &str, got: usize) -> String {
    format!("Expected {expected} {what}, but got {got}")
}

/// An array header's content: `[` first and a colon somewhere.
pub(crate) fn is_array_header_content(content: &str) -> bool {
    trim_spaces(content).starts_with('[') && find_unquoted(content, b':', 0).is_some()
}

/// A line at row depth that is a table row rather than a key-value line.
pub(crate) fn is_data_row(content: &str, delim: u8) -> bool {
    match find_unquoted(content, b':', 0) {
        None => true,
        Some(colon) => find_unquoted(content, delim, 0).is_some_and(|d| d < colon),
    }
}

/// A parsed primitive token of `line`, errors located.
pub(crate) fn primitive(line: &Line<'_>, token: &str) -> Result<Value> {
    primitive_inline(line, token)
}

/// [`primitive`] inlined into its caller: the value sink's fields and table cells take
/// the parsed value where it goes instead of a returned copy.
#[inline(always)]
pub(crate) fn primitive_inline(line: &Line<'_>, token: &str) -> Result<Value> {
    parse_primitive(token).map_err(|e| tok(line, token, e))
}

/// `content` of `line` as a header, if it is one (strict-only errors in strict mode).
pub(crate) fn resolve_header<'a>(
    ctx: Ctx,
    cache: &mut OwnedFieldCache,
    line: &Line<'a>,
    content: &'a str,
) -> Result<Option<(Header<'a>, Option<&'a str>)>> {
    match parse_header(content, ctx.max_depth, cache) {
        HeaderParse::NotHeader => Ok(None),
        HeaderParse::Invalid(e) => Err(tok(line, content, e)),
        HeaderParse::Header {
            header,
            inline,
            strict_error,
        } => match strict_error {
            Some(e) if ctx.strict => Err(tok(line, content, e)),
            _ => Ok(Some((header, inline))),
        },
    }
}

/// The header with its key owned (the field list is owned already).
pub(crate) fn own_header(h: Header<'_>) -> Header<'static> {
    Header {
        key: h.key.map(|k| Cow::Owned(k.into_owned())),
        length: h.length,
        delimiter: h.delimiter,
        fields: h.fields,
        keyed: h.keyed,
    }
}

/// The byte range of `part`, a sub-slice of `line`'s raw text, in that text.
#[inline]
pub(crate) fn raw_range(line: &Line<'_>, part: &str) -> Range<usize> {
    let start = (part.as_ptr() as usize).saturating_sub(line.raw.as_ptr() as usize);
    start..start + part.len()
}

/// The slot of the primitive token `token`, a sub-slice of `line`'s raw text.
pub(crate) fn token_slot(line: &Line<'_>, token: &str) -> Slot {
    Slot::Prim(raw_range(line, token))
}

/// The slot of an array header on `line`.
pub(crate) fn array_slot(
    header: Header<'_>,
    inline: Option<&str>,
    base_depth: usize,
    line: &Line<'_>,
) -> Slot {
    let inline = inline.map(|text| raw_range(line, text));
    Slot::Array(Box::new(ArraySlot {
        header: own_header(header),
        inline,
        base_depth,
        at: At::of(line),
    }))
}

/// The value of a field whose key ended before `rest` (trimmed) on `line`.
pub(crate) fn value_slot(rest: &str, line: &Line<'_>, depth: usize) -> Slot {
    if rest.is_empty() {
        Slot::Object {
            parent_depth: depth,
            at: At::of(line),
        }
    } else if rest == "[]" {
        Slot::EmptyArray
    } else {
        token_slot(line, rest)
    }
}

/// A key-value line of an object at `depth` whose plain key ends at the colon at byte
/// `colon` of its content: its key and value.
pub(crate) fn plain_field(line: &Line<'_>, colon: usize, depth: usize) -> (LineKey, Slot) {
    let key = trim_spaces(&line.content[..colon]);
    let rest = trim_after_colon(&line.content[colon + 1..]);
    (
        LineKey::Raw(raw_range(line, key)),
        value_slot(rest, line, depth),
    )
}

/// A key-value (or keyed header) line of an object at `depth`: its key and value.
pub(crate) fn field_line(
    ctx: Ctx,
    cache: &mut OwnedFieldCache,
    line: &Line<'_>,
    depth: usize,
) -> Result<(LineKey, Slot)> {
    let content = line.content;
    if let PlainKey::Colon(colon) = plain_key_colon(content) {
        return Ok(plain_field(line, colon, depth));
    }
    if let Some((mut header, inline)) = resolve_header(ctx, cache, line, content)? {
        let Some(key) = header.key.take() else {
            return Err(line.error(if header.keyed {
                "Keyless keyed header is only valid at the document root"
            } else {
                "Keyless array header is only valid at the document root or as a list item"
            }));
        };
        let key = LineKey::of(line, key);
        return Ok((key, array_slot(header, inline, depth, line)));
    }
    let (key, end) = parse_key(content).map_err(|e| tok(line, content, e))?;
    let rest = trim_spaces(&content[end..]);
    Ok((LineKey::of(line, key), value_slot(rest, line, depth)))
}

/// The list item on `line` (just consumed) at `item_depth`.
pub(crate) fn list_item(
    ctx: Ctx,
    cache: &mut OwnedFieldCache,
    line: &Line<'_>,
    item_depth: usize,
) -> Result<Slot> {
    let after = match item_start(line.content) {
        None => return Err(line.error(NOT_A_LIST_ITEM)),
        Some(ItemStart::EmptyObject) => return Ok(Slot::EmptyObject),
        Some(ItemStart::EmptyArray) => return Ok(Slot::EmptyArray),
        Some(ItemStart::Rest(after)) => after,
    };
    let item = line.with_content(after);
    let at = At::of(&item);
    let depth = item_depth + 1;
    match plain_key_colon(after) {
        PlainKey::Colon(colon) => {
            let key = LineKey::Raw(raw_range(&item, trim_spaces(&after[..colon])));
            let slot = value_slot(trim_after_colon(&after[colon + 1..]), &item, depth);
            return Ok(Slot::ListObject {
                first: Box::new(Ok(FirstField { key, slot, at })),
                depth,
                at,
            });
        }
        PlainKey::Nothing => return Ok(token_slot(&item, after)),
        PlainKey::Other => {}
    }
    if let Some((mut header, inline)) = resolve_header(ctx, cache, &item, after)? {
        if header.key.is_none() && is_array_header_content(after) {
            if header.keyed {
                return Err(item.error("Keyless keyed header is only valid at the document root"));
            }
            if header.fields.is_some() {
                return Err(item
                    .error("Keyless header with a field list is only valid at the document root"));
            }
            return Ok(array_slot(header, inline, item_depth, &item));
        }
        if header.fields.is_some()
            && let Some(key) = header.key.take()
        {
            let key = LineKey::of(&item, key);
            let slot = array_slot(header, inline, depth, &item);
            return Ok(Slot::ListObject {
                first: Box::new(Ok(FirstField { key, slot, at })),
                depth,
                at,
            });
        }
    }
    if find_unquoted(after, b':', 0).is_some() {
        let first =
            field_line(ctx, cache, &item, depth).map(|(key, slot)| FirstField { key, slot, at });
        return Ok(Slot::ListObject {
            first: Box::new(first),
            depth,
            at,
        });
    }
    Ok(token_slot(&item, after))
}
