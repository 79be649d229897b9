//! A header's field list (spec §6): names split on the delimiter, nested groups
//! `name{a,b}`, their depth bounded, duplicates found.

use std::borrow::Cow;

use super::super::tokens::{
    TokResult, TokenError, find_unquoted, parse_name_token, skip_quoted, trim_spaces,
    unquoted_bytes,
};
use super::{Field, FieldList};
use crate::fields::leaf_count;

/// Parses the field list `text` (between the braces) under `delimiter`: its fields,
/// names owned, and the message of a duplicate name in it (a strict-mode error).
/// Error offsets are in `text`.
pub(super) fn parse_field_list(
    text: &str,
    delimiter: u8,
    max_depth: usize,
) -> TokResult<(FieldList, Option<String>)> {
    for cand in [b',', b'\t', b'|'] {
        if cand != delimiter && find_unquoted(text, cand, 0).is_some() {
            return Err(TokenError::new(
                format!(
                    "Header delimiter mismatch: bracket declares \"{}\" but field list contains unquoted \"{}\"",
                    show_delim(delimiter),
                    show_delim(cand)
                ),
                0,
            ));
        }
    }
    // One linear scan bounds the nesting before the recursive parse (which rescans
    // each level), so a 100,000-level header fails at once.
    if brace_depth(text) >= max_depth {
        return Err(depth_error(max_depth, 0));
    }
    let parsed = parse_fields(text, delimiter, 1, max_depth)?;
    let duplicate = find_duplicate_field(&parsed)
        .map(|name| format!("Duplicate field name \"{name}\" in field list"));
    Ok((own_fields(parsed).into(), duplicate))
}

/// A delimiter as a header's error message shows it.
fn show_delim(d: u8) -> &'static str {
    match d {
        b'\t' => "\\t",
        b'|' => "|",
        _ => ",",
    }
}

/// `fields` with owned names (names owned already are moved, not copied).
fn own_fields(fields: Vec<Field<'_>>) -> Vec<Field<'static>> {
    fields
        .into_iter()
        .map(|f| Field {
            name: Cow::Owned(f.name.into_owned()),
            children: f.children.map(|c| crate::stack::guarded(|| own_fields(c))),
            leaves: f.leaves,
            origin: f.origin,
        })
        .collect()
}

/// Byte index of the `}` matching the `{` at `start`, ignoring quoted braces: jumps
/// between braces and quotes with `memchr3`.
pub(super) fn find_matching_brace(s: &str, start: usize) -> Option<usize> {
    let b = s.as_bytes();
    let mut depth = 0usize;
    let mut i = start;
    loop {
        let at = i + memchr::memchr3(b'{', b'}', b'"', b.get(i..)?)?;
        match b.get(at) {
            Some(b'{') => depth += 1,
            Some(b'}') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(at);
                }
            }
            // An unterminated quote hides everything after it.
            _ => {
                i = skip_quoted(b, at)? + 1;
                continue;
            }
        }
        i = at + 1;
    }
}

/// The deepest unquoted `{` nesting in `s`.
pub(super) fn brace_depth(s: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    for (_, c) in unquoted_bytes(s, 0) {
        match c {
            b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

fn depth_error(max_depth: usize, offset: usize) -> TokenError {
    TokenError {
        depth: true,
        ..TokenError::new(
            format!("Field groups nest deeper than the limit of {max_depth} levels"),
            offset,
        )
    }
}

/// Splits a field list on the delimiter at brace depth zero (offsets of each entry).
pub(super) fn split_fields(s: &str, delim: u8) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i64, 0);
    for (i, c) in unquoted_bytes(s, 0) {
        match c {
            b'{' => depth += 1,
            b'}' => depth -= 1,
            c if c == delim && depth == 0 => {
                out.push((start, &s[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push((start, &s[start..]));
    out
}

fn parse_fields<'a>(
    s: &'a str,
    delim: u8,
    level: usize,
    max_depth: usize,
) -> TokResult<Vec<Field<'a>>> {
    if level > max_depth {
        return Err(depth_error(max_depth, 0));
    }
    let mut fields = Vec::new();
    for (offset, entry) in split_fields(s, delim) {
        let lead = entry.len() - entry.trim_start_matches(' ').len();
        let offset = offset + lead;
        let t = trim_spaces(entry);
        if t.is_empty() {
            return Err(TokenError::new("Empty field name in field list", offset));
        }
        let Some(group_start) = find_unquoted(t, b'{', 0) else {
            let name =
                parse_name_token(t).map_err(|e| TokenError::new(e.message, e.offset + offset))?;
            fields.push(parsed_field(name, None));
            continue;
        };
        let name_part = &t[..group_start];
        if name_part.is_empty() {
            return Err(TokenError::new(
                "Missing field name before nested field group",
                offset,
            ));
        }
        if name_part.ends_with(' ') {
            return Err(TokenError::new(
                "Unexpected whitespace before nested field group",
                offset + group_start,
            ));
        }
        let Some(group_end) = find_matching_brace(t, group_start) else {
            return Err(TokenError::new(
                "Unmatched brace in field list",
                offset + group_start,
            ));
        };
        if group_end != t.len() - 1 {
            return Err(TokenError::new(
                "Unexpected content after nested field group",
                offset + group_end + 1,
            ));
        }
        let inner = &t[group_start + 1..group_end];
        let children = crate::stack::guarded(|| parse_fields(inner, delim, level + 1, max_depth))
            .map_err(|e| TokenError {
            offset: e.offset + offset + group_start + 1,
            ..e
        })?;
        let name = parse_name_token(name_part)
            .map_err(|e| TokenError::new(e.message, e.offset + offset))?;
        fields.push(parsed_field(name, Some(children)));
    }
    Ok(fields)
}

/// A field read from a header, its [`origin`](Field::origin) the address of its name's
/// text in the line when the name is borrowed from it.
fn parsed_field<'a>(name: Cow<'a, str>, children: Option<Vec<Field<'a>>>) -> Field<'a> {
    let origin = match &name {
        Cow::Borrowed(s) => s.as_ptr() as usize,
        Cow::Owned(_) => 0,
    };
    Field {
        name,
        leaves: children.as_deref().map_or(1, leaf_count),
        children,
        origin,
    }
}

/// The first field name repeated within one brace group, searched depth first. Field
/// lists are short, so a quadratic scan beats hashing up to a few dozen names.
fn find_duplicate_field<'f>(fields: &'f [Field<'_>]) -> Option<&'f str> {
    let mut seen = (fields.len() > 32).then(std::collections::HashSet::new);
    for (i, f) in fields.iter().enumerate() {
        let repeated = match &mut seen {
            Some(set) => !set.insert(&*f.name),
            None => fields[..i].iter().any(|g| g.name == f.name),
        };
        if repeated {
            return Some(&f.name);
        }
        if let Some(d) = f.children.as_deref().and_then(find_duplicate_field) {
            return Some(d);
        }
    }
    None
}
