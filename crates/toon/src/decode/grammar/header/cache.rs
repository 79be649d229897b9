//! The field-list cache: field lists parsed lately, reused when a header carries the
//! same field-list text.

use std::borrow::Cow;
use std::ops::Range;

use super::fields::parse_field_list;
use super::{FieldList, Header, HeaderParse};
use crate::decode::grammar::tokens::{TokResult, TokenError};

/// Field lists a field-list cache keeps.
const CACHED_FIELD_LISTS: usize = 8;

/// Puts `entry` into `entries`, replacing the oldest once [`CACHED_FIELD_LISTS`] are held.
fn put_round_robin<T>(entries: &mut Vec<T>, next: &mut usize, entry: T) {
    if entries.len() < CACHED_FIELD_LISTS {
        entries.push(entry);
    } else {
        entries[*next] = entry;
        *next = (*next + 1) % CACHED_FIELD_LISTS;
    }
}

/// Field lists parsed lately, reused when a header carries the same `{…}` text with the
/// same delimiter (a table header repeated in every list item, `items[3]{sku,qty}:`,
/// differs only in its length): a reused field list skips the parse and its checks,
/// which passed for that exact text and delimiter. Texts and names are owned, as the
/// lines of a reader do not outlive the next read. Holds a few entries, replaced
/// round-robin. Also keeps the last few table header lines (a field list and no inline
/// values) whole: a header repeated line for line (config's `resources[2:]{cpu,memory}:`
/// and `targets[2:]{utilization}:` in every service) is then read by a comparison
/// instead of its scans.
#[derive(Default)]
pub(crate) struct OwnedFieldCache {
    entries: Vec<(String, u8, FieldList, Option<String>)>,
    next: usize,
    /// The last few table header lines, replaced round-robin.
    last: Vec<LastHeader>,
    next_last: usize,
}

/// A header line and what it parsed to, positions in the line as byte ranges.
struct LastHeader {
    text: String,
    key: Option<LastKey>,
    length: usize,
    delimiter: u8,
    fields: Option<FieldList>,
    keyed: bool,
    strict_error: Option<(String, usize)>,
}

/// A [`LastHeader`]'s key: where it is in the line, or its unescaped text.
enum LastKey {
    At(Range<usize>),
    Owned(String),
}

/// Header lines longer than this are not kept whole.
const LAST_HEADER_BYTES: usize = 256;

impl OwnedFieldCache {
    /// The parse of `content` if it is one of the header lines kept.
    pub(crate) fn last_header<'a>(&self, content: &'a str) -> Option<HeaderParse<'a>> {
        let last = self.last.iter().find(|l| l.text == content)?;
        let key = match &last.key {
            None => None,
            Some(LastKey::At(range)) => Some(Cow::Borrowed(content.get(range.clone())?)),
            Some(LastKey::Owned(key)) => Some(Cow::Owned(key.clone())),
        };
        Some(HeaderParse::Header {
            header: Header {
                key,
                length: last.length,
                delimiter: last.delimiter,
                fields: last.fields.clone(),
                keyed: last.keyed,
            },
            inline: None,
            strict_error: last
                .strict_error
                .as_ref()
                .map(|(message, offset)| TokenError::new(message.clone(), *offset)),
        })
    }

    /// Keeps `header`, parsed from `content` (a field list, no inline values), as the
    /// latest of the table header lines kept.
    pub(crate) fn keep_header(
        &mut self,
        content: &str,
        header: &Header<'_>,
        strict_error: Option<&TokenError>,
    ) {
        if content.len() > LAST_HEADER_BYTES || strict_error.is_some_and(|e| e.depth) {
            return;
        }
        let key = header.key.as_ref().map(|key| match key {
            Cow::Borrowed(k) => {
                let start = (k.as_ptr() as usize).wrapping_sub(content.as_ptr() as usize);
                LastKey::At(start..start + k.len())
            }
            Cow::Owned(k) => LastKey::Owned(k.clone()),
        });
        let kept = LastHeader {
            text: content.to_owned(),
            key,
            length: header.length,
            delimiter: header.delimiter,
            fields: header.fields.clone(),
            keyed: header.keyed,
            strict_error: strict_error.map(|e| (e.message.clone(), e.offset)),
        };
        put_round_robin(&mut self.last, &mut self.next_last, kept);
    }

    /// The fields of the field list `text` (between the braces) under `delimiter`, and
    /// the message of a duplicate name in it (a strict-mode error): from the cache if
    /// the same text was parsed before with the same delimiter (its checks passed for
    /// that text), else parsed and kept. Error offsets are in `text`.
    pub(crate) fn fields(
        &mut self,
        text: &str,
        delimiter: u8,
        max_depth: usize,
    ) -> TokResult<(FieldList, Option<String>)> {
        if let Some(hit) = self.lookup(text, delimiter) {
            return Ok(hit);
        }
        let (fields, duplicate) = parse_field_list(text, delimiter, max_depth)?;
        self.keep(text, delimiter, fields.clone(), &duplicate);
        Ok((fields, duplicate))
    }

    /// The fields and duplicate-name message of the field list `text` (between the
    /// braces) under `delimiter`, if it was parsed before.
    fn lookup(&self, text: &str, delimiter: u8) -> Option<(FieldList, Option<String>)> {
        self.entries
            .iter()
            .find(|e| e.1 == delimiter && e.0 == text)
            .map(|e| (e.2.clone(), e.3.clone()))
    }

    /// Keeps a field list that parsed without error.
    fn keep(&mut self, text: &str, delimiter: u8, fields: FieldList, duplicate: &Option<String>) {
        let entry = (text.to_owned(), delimiter, fields, duplicate.clone());
        put_round_robin(&mut self.entries, &mut self.next, entry);
    }
}
