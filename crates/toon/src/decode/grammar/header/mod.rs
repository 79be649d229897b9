//! Array and keyed-table headers (spec §6): `key[N<delim?>]{fields}:` and
//! `key[N:<delim?>]{fields}:`, with nested field groups. This module reads the line's
//! parts (key, bracket segment, field list, colon, inline values); `bracket` reads the
//! bracket segment, `fields` the field list, and `cache` keeps recent field lists.

mod bracket;
mod cache;
mod fields;

use std::borrow::Cow;
use std::sync::Arc;

use super::tokens::{
    TokResult, TokenError, find_closing_quote, find_unquoted, find_unquoted_either,
    parse_name_token, trim_spaces,
};
use bracket::{parse_bracket_segment, seg_digits};
pub(crate) use cache::OwnedFieldCache;
use fields::find_matching_brace;

pub(crate) use crate::fields::Field;
use crate::fields::leaf_count;

/// A header's field list, names owned, shared.
pub(crate) type FieldList = Arc<[Field<'static>]>;

/// A parsed header.
#[derive(Clone, Debug)]
pub(crate) struct Header<'a> {
    pub key: Option<Cow<'a, str>>,
    /// The declared length (saturated at `usize::MAX`; never used to pre-allocate).
    pub length: usize,
    pub delimiter: u8,
    /// The field list, shared with the field-list cache (and the next header with the
    /// same list): names owned, so a table outlives the line of its header.
    pub fields: Option<FieldList>,
    pub keyed: bool,
}

impl Header<'_> {
    /// The number of cells each row carries: the leaf fields, depth first.
    pub fn leaf_count(&self) -> usize {
        self.fields.as_deref().map_or(0, leaf_count)
    }
}

/// The outcome of looking at a line as a header.
#[derive(Debug)]
pub(crate) enum HeaderParse<'a> {
    /// The line is not a header (no `[` before its first unquoted colon).
    NotHeader,
    /// The line is a header with a syntax error (an error in both modes).
    Invalid(TokenError),
    /// A header, its inline values (if any) and an error that applies in strict mode only.
    Header {
        header: Header<'a>,
        inline: Option<&'a str>,
        strict_error: Option<TokenError>,
    },
}

/// Parses `content` as a header line.
pub(crate) fn parse_header<'a>(
    content: &'a str,
    max_depth: usize,
    cache: &mut OwnedFieldCache,
) -> HeaderParse<'a> {
    if let Some(hit) = cache.last_header(content) {
        return hit;
    }
    match parse_header_inner(content, max_depth, cache) {
        Ok(Some((header, inline, strict_error))) => {
            // Table headers (a field list, no inline values) are the ones that repeat
            // and cost most to read; others do not displace the kept one.
            if inline.is_none() && header.fields.is_some() {
                cache.keep_header(content, &header, strict_error.as_ref());
            }
            HeaderParse::Header {
                header,
                inline,
                strict_error,
            }
        }
        Ok(None) => HeaderParse::NotHeader,
        Err(e) => HeaderParse::Invalid(e),
    }
}

type Parsed<'a> = Option<(Header<'a>, Option<&'a str>, Option<TokenError>)>;

fn parse_header_inner<'a>(
    content: &'a str,
    max_depth: usize,
    cache: &mut OwnedFieldCache,
) -> TokResult<Parsed<'a>> {
    let bracket_start = if content.starts_with('"') {
        let Some(close) = find_closing_quote(content, 0) else {
            return Ok(None);
        };
        if content.as_bytes().get(close + 1) != Some(&b'[') {
            return Ok(None);
        }
        close + 1
    } else {
        match find_unquoted(content, b'[', 0) {
            Some(i) => i,
            None => return Ok(None),
        }
    };
    match find_unquoted(content, b':', 0) {
        Some(colon) if colon >= bracket_start => {}
        _ => return Ok(None),
    }
    let Some(bracket_end) = find_unquoted(content, b']', bracket_start) else {
        return Err(TokenError::new(
            "Unterminated bracket segment",
            bracket_start,
        ));
    };
    let mut brace_end = bracket_end + 1;
    // The `}` closing the field list, if it has one.
    let mut brace_match = None;
    // A field list is a `{` before the first colon after the bracket segment.
    let brace_start = find_unquoted_either(content, b'{', b':', bracket_end)
        .filter(|&i| content.as_bytes().get(i) == Some(&b'{'));
    if let Some(bs) = brace_start
        && find_unquoted(content, b':', bs).is_some()
    {
        let gap = &content[bracket_end + 1..bs];
        if !gap.is_empty() {
            return Err(gap_error(gap, "field list", bracket_end + 1));
        }
        brace_match = find_matching_brace(content, bs);
        if let Some(end) = brace_match {
            brace_end = end + 1;
        }
    }
    let Some(colon) = find_unquoted(content, b':', bracket_end.max(brace_end)) else {
        return Err(TokenError::new(
            "Missing colon after array header",
            content.len(),
        ));
    };
    let gap_start = (bracket_end + 1).max(brace_end);
    let gap = &content[gap_start..colon];
    if !gap.is_empty() {
        return Err(gap_error(gap, "colon", gap_start));
    }
    let key = if bracket_start > 0 {
        let raw_key = &content[..bracket_start];
        if raw_key.ends_with([' ', '\t']) {
            return Err(TokenError::new(
                "Unexpected whitespace between key and bracket segment",
                bracket_start,
            ));
        }
        Some(if raw_key.starts_with('"') {
            parse_name_token(raw_key)?
        } else {
            Cow::Borrowed(raw_key)
        })
    } else {
        None
    };
    let after_colon = trim_spaces(&content[colon + 1..]);
    let seg = &content[bracket_start + 1..bracket_end];
    let (length, delimiter, keyed) = parse_bracket_segment(seg).ok_or_else(|| {
        TokenError::new(
            format!(
                "Invalid array length: \"{}\" (expected non-negative integer with no leading zeros)",
                seg.replace('\t', "\\t")
            ),
            bracket_start + 1,
        )
    })?;
    let mut fields = None;
    let mut duplicate = None;
    let field_span = brace_start
        .filter(|&bs| bs < colon)
        .and_then(|bs| brace_match.filter(|&end| end < colon).map(|end| (bs, end)));
    if let Some((bs, end)) = field_span {
        let (list, dup) = cache
            .fields(&content[bs + 1..end], delimiter, max_depth)
            .map_err(|e| TokenError {
                offset: e.offset + bs + 1,
                ..e
            })?;
        fields = Some(list);
        duplicate = dup;
    }
    if keyed && fields.is_none() {
        return Err(TokenError::new(
            "Keyed header requires a field list",
            bracket_start,
        ));
    }
    if fields.is_some() && !after_colon.is_empty() {
        return Err(TokenError::new(
            duplicate.unwrap_or_else(|| {
                "Unexpected content after fields-bearing header colon".to_owned()
            }),
            colon + 1,
        ));
    }
    // A length beyond what any array can hold is advisory in non-strict mode (as every
    // length is) and can never be met in strict mode: said at once, with its digits.
    let strict_error = match duplicate {
        Some(d) => Some(TokenError::new(d, bracket_start)),
        None if length == usize::MAX && seg_digits(seg).parse::<usize>().is_err() => {
            Some(TokenError::new(
                format!(
                    "Array length {} is larger than any array can hold",
                    seg_digits(seg)
                ),
                bracket_start + 1,
            ))
        }
        None => None,
    };
    let header = Header {
        key,
        length,
        delimiter,
        fields,
        keyed,
    };
    let inline = (!after_colon.is_empty()).then_some(after_colon);
    Ok(Some((header, inline, strict_error)))
}

fn gap_error(gap: &str, what: &str, offset: usize) -> TokenError {
    let trimmed = gap.trim_matches([' ', '\t']);
    if trimmed.is_empty() {
        TokenError::new(
            format!("Unexpected whitespace between bracket segment and {what}"),
            offset,
        )
    } else {
        TokenError::new(
            format!("Unexpected content \"{trimmed}\" between bracket segment and {what}"),
            offset,
        )
    }
}

#[cfg(test)]
mod tests;
