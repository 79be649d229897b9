//! Array and keyed-table headers (spec §6): `key[N<delim?>]{fields}:` and
//! `key[N:<delim?>]{fields}:`, with nested field groups.

use nom::character::complete::{char, digit1, one_of};
use nom::combinator::{all_consuming, opt};
use nom::{IResult, Parser};

use super::tokens::{
    TokResult, TokenError, find_closing_quote, find_unquoted, parse_name_token, trim_spaces,
};

/// One field of a field list, possibly carrying a nested group.
#[derive(Clone, Debug)]
pub(crate) struct Field {
    pub name: String,
    pub children: Option<Vec<Field>>,
    /// Cells this field takes in a row: 1 for a leaf, the group's leaves otherwise.
    pub leaves: usize,
}

/// A parsed header.
#[derive(Clone, Debug)]
pub(crate) struct Header {
    pub key: Option<String>,
    /// The declared length (saturated at `usize::MAX`; never used to pre-allocate).
    pub length: usize,
    pub delimiter: u8,
    pub fields: Option<Vec<Field>>,
    pub keyed: bool,
}

impl Header {
    /// The number of cells each row carries: the leaf fields, depth first.
    pub fn leaf_count(&self) -> usize {
        self.fields.as_deref().map_or(0, leaf_count)
    }
}

fn leaf_count(fields: &[Field]) -> usize {
    fields.iter().map(|f| f.leaves).sum()
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
        header: Header,
        inline: Option<&'a str>,
        strict_error: Option<TokenError>,
    },
}

/// Parses `content` as a header line.
pub(crate) fn parse_header(content: &str, max_depth: usize) -> HeaderParse<'_> {
    match parse_header_inner(content, max_depth) {
        Ok(Some((header, inline, strict_error))) => HeaderParse::Header {
            header,
            inline,
            strict_error,
        },
        Ok(None) => HeaderParse::NotHeader,
        Err(e) => HeaderParse::Invalid(e),
    }
}

type Parsed<'a> = Option<(Header, Option<&'a str>, Option<TokenError>)>;

fn parse_header_inner(content: &str, max_depth: usize) -> TokResult<Parsed<'_>> {
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
    let brace_start = find_unquoted(content, b'{', bracket_end);
    let colon_after_bracket = find_unquoted(content, b':', bracket_end);
    if let Some(bs) = brace_start
        && colon_after_bracket.is_some_and(|c| bs < c)
    {
        let gap = &content[bracket_end + 1..bs];
        if !gap.is_empty() {
            return Err(gap_error(gap, "field list", bracket_end + 1));
        }
        if let Some(end) = find_matching_brace(content, bs) {
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
            raw_key.to_owned()
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
    if let Some(bs) = brace_start
        && bs < colon
        && let Some(end) = find_matching_brace(content, bs)
        && end < colon
    {
        let inner = &content[bs + 1..end];
        for cand in [b',', b'\t', b'|'] {
            if cand != delimiter && find_unquoted(inner, cand, 0).is_some() {
                return Err(TokenError::new(
                    format!(
                        "Header delimiter mismatch: bracket declares \"{}\" but field list contains unquoted \"{}\"",
                        show_delim(delimiter),
                        show_delim(cand)
                    ),
                    bs + 1,
                ));
            }
        }
        fields = Some(
            parse_fields(inner, delimiter, 1, max_depth)
                .map_err(|e| TokenError::new(e.message, e.offset + bs + 1))?,
        );
    }
    let duplicate = fields
        .as_deref()
        .and_then(find_duplicate_field)
        .map(|name| format!("Duplicate field name \"{name}\" in field list"));
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
    let header = Header {
        key,
        length,
        delimiter,
        fields,
        keyed,
    };
    let inline = (!after_colon.is_empty()).then_some(after_colon);
    Ok(Some((
        header,
        inline,
        duplicate.map(|d| TokenError::new(d, bracket_start)),
    )))
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

fn show_delim(d: u8) -> &'static str {
    match d {
        b'\t' => "\\t",
        b'|' => "|",
        _ => ",",
    }
}

/// `N`, `N:`, `N<delim>`, `N:<delim>` with `N` = `0` or no leading zeros.
fn bracket_segment(input: &str) -> IResult<&str, (&str, bool, Option<char>)> {
    all_consuming((digit1, opt(char(':')), opt(one_of("\t|"))))
        .map(|(n, k, d)| (n, k.is_some(), d))
        .parse(input)
}

fn parse_bracket_segment(seg: &str) -> Option<(usize, u8, bool)> {
    let (_, (digits, keyed, delim)) = bracket_segment(seg).ok()?;
    if digits.len() > 1 && digits.starts_with('0') {
        return None;
    }
    let length = digits.parse::<usize>().unwrap_or(usize::MAX);
    let delimiter = match delim {
        Some('\t') => b'\t',
        Some('|') => b'|',
        _ => b',',
    };
    Some((length, delimiter, keyed))
}

/// Byte index of the `}` matching the `{` at `start`, ignoring quoted braces.
fn find_matching_brace(s: &str, start: usize) -> Option<usize> {
    let b = s.as_bytes();
    let mut in_quotes = false;
    let mut depth = 0usize;
    let mut i = start;
    while i < b.len() {
        let c = b[i];
        if in_quotes && c == b'\\' && i + 1 < b.len() {
            i += 2;
            continue;
        }
        if c == b'"' {
            in_quotes = !in_quotes;
        } else if !in_quotes {
            if c == b'{' {
                depth += 1;
            } else if c == b'}' {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(i);
                }
            }
        }
        i += 1;
    }
    None
}

/// Splits a field list on the delimiter at brace depth zero (offsets of each entry).
fn split_fields(s: &str, delim: u8) -> Vec<(usize, &str)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut in_quotes = false;
    let mut depth = 0i64;
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if in_quotes && c == b'\\' && i + 1 < b.len() {
            i += 2;
            continue;
        }
        if c == b'"' {
            in_quotes = !in_quotes;
        } else if !in_quotes {
            if c == b'{' {
                depth += 1;
            } else if c == b'}' {
                depth -= 1;
            } else if c == delim && depth == 0 {
                out.push((start, &s[start..i]));
                start = i + 1;
            }
        }
        i += 1;
    }
    out.push((start, &s[start..]));
    out
}

fn parse_fields(s: &str, delim: u8, level: usize, max_depth: usize) -> TokResult<Vec<Field>> {
    if level > max_depth {
        return Err(TokenError::new(
            format!("Field groups nest deeper than the limit of {max_depth} levels"),
            0,
        ));
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
            fields.push(Field {
                name: parse_name_token(t)
                    .map_err(|e| TokenError::new(e.message, e.offset + offset))?,
                children: None,
                leaves: 1,
            });
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
        let children = parse_fields(&t[group_start + 1..group_end], delim, level + 1, max_depth)
            .map_err(|e| TokenError::new(e.message, e.offset + offset + group_start + 1))?;
        fields.push(Field {
            name: parse_name_token(name_part)
                .map_err(|e| TokenError::new(e.message, e.offset + offset))?,
            leaves: leaf_count(&children),
            children: Some(children),
        });
    }
    Ok(fields)
}

/// The first field name repeated within one brace group, searched depth first.
fn find_duplicate_field(fields: &[Field]) -> Option<&str> {
    let mut seen = std::collections::HashSet::new();
    for f in fields {
        if !seen.insert(f.name.as_str()) {
            return Some(&f.name);
        }
        if let Some(d) = f.children.as_deref().and_then(find_duplicate_field) {
            return Some(d);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(s: &str) -> Header {
        match parse_header(s, 100) {
            HeaderParse::Header { header, .. } => header,
            other => panic!("not a header: {other:?}"),
        }
    }

    fn invalid(s: &str) -> String {
        match parse_header(s, 100) {
            HeaderParse::Invalid(e) => e.message,
            other => panic!("expected invalid: {other:?}"),
        }
    }

    #[test]
    fn parses_keys_lengths_delimiters_and_groups() {
        let h = header("users[2|]{id|name|addr{city|zip}}:");
        assert_eq!(h.key.as_deref(), Some("users"));
        assert_eq!((h.length, h.delimiter, h.keyed), (2, b'|', false));
        assert_eq!(h.leaf_count(), 4);
        let k = header("\"my key\"[3:\t]{a\tb}:");
        assert_eq!(k.key.as_deref(), Some("my key"));
        assert!(k.keyed);
        assert_eq!(k.delimiter, b'\t');
    }

    #[test]
    fn rejects_malformed_headers() {
        assert!(invalid("a[03]: 1").contains("Invalid array length"));
        assert!(invalid("a[2] : 1").contains("whitespace between bracket segment and colon"));
        assert!(invalid("k[2:]:").contains("requires a field list"));
        assert!(invalid("a[2: 1").contains("Unterminated"));
        assert!(invalid("k[1]{}:").contains("Empty field name"));
        assert!(invalid("a[1|]{x,y}:").contains("delimiter mismatch"));
        assert!(invalid("foo [2]: x").contains("between key and bracket"));
        assert!(matches!(
            parse_header("a: b[2]: x", 10),
            HeaderParse::NotHeader
        ));
    }
}
