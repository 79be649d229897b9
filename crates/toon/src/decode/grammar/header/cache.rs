//! The field-list cache: field lists parsed lately, reused when a header carries the
//! same field-list text.

use super::FieldList;
use super::fields::parse_field_list;
use crate::decode::grammar::tokens::TokResult;

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
/// round-robin.
#[derive(Default)]
pub(crate) struct OwnedFieldCache {
    entries: Vec<(String, u8, FieldList, Option<String>)>,
    next: usize,
}

impl OwnedFieldCache {
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
