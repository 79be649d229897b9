//! Array and keyed-table headers (spec §6): `key[N<delim?>]{fields}:` and
//! `key[N:<delim?>]{fields}:`, with nested field groups.

use nom::character::complete::{char, digit1, one_of};
use nom::combinator::{all_consuming, opt};
use nom::{IResult, Parser};
use std::borrow::Cow;
use std::sync::Arc;

use super::tokens::{
    TokResult, TokenError, find_closing_quote, find_unquoted, find_unquoted_either,
    parse_name_token, skip_quoted, trim_spaces, unquoted_bytes,
};

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

/// `fields` with owned names (names owned already are moved, not copied).
pub(crate) fn own_fields(fields: Vec<Field<'_>>) -> Vec<Field<'static>> {
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

/// Parses `content` as a header line.
pub(crate) fn parse_header<'a>(
    content: &'a str,
    max_depth: usize,
    cache: &mut OwnedFieldCache,
) -> HeaderParse<'a> {
    match parse_header_inner(content, max_depth, cache) {
        Ok(Some((header, inline, strict_error))) => HeaderParse::Header {
            header,
            inline,
            strict_error,
        },
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
    if let Some((bs, end)) = field_span
        && let Some((hit, dup)) = cache.lookup(&content[bs + 1..end], delimiter)
    {
        // Parsed before: the checks below passed for this text and delimiter.
        fields = Some(hit);
        duplicate = dup;
    } else if let Some((bs, end)) = field_span {
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
        // One linear scan bounds the nesting before the recursive parse (which rescans
        // each level), so a 100,000-level header fails at once.
        if brace_depth(inner) >= max_depth {
            return Err(depth_error(max_depth, bs + 1));
        }
        let parsed = parse_fields(inner, delimiter, 1, max_depth).map_err(|e| TokenError {
            offset: e.offset + bs + 1,
            ..e
        })?;
        duplicate = find_duplicate_field(&parsed)
            .map(|name| format!("Duplicate field name \"{name}\" in field list"));
        let parsed: FieldList = own_fields(parsed).into();
        cache.keep(inner, delimiter, parsed.clone(), &duplicate);
        fields = Some(parsed);
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

fn show_delim(d: u8) -> &'static str {
    match d {
        b'\t' => "\\t",
        b'|' => "|",
        _ => ",",
    }
}

/// The digits a bracket segment starts with (its declared length).
fn seg_digits(seg: &str) -> &str {
    &seg[..seg.bytes().take_while(u8::is_ascii_digit).count()]
}

/// `N`, `N:`, `N<delim>`, `N:<delim>` with `N` = `0` or no leading zeros.
fn bracket_segment(input: &str) -> IResult<&str, (&str, bool, Option<char>)> {
    all_consuming((digit1, opt(char(':')), opt(one_of("\t|"))))
        .map(|(n, k, d)| (n, k.is_some(), d))
        .parse(input)
}

fn parse_bracket_segment(seg: &str) -> Option<(usize, u8, bool)> {
    // The commonest segment, a length alone (at most 9 digits: no overflow).
    let b = seg.as_bytes();
    if let Some((&first, _)) = b.split_first()
        && b.len() <= 9
        && (first != b'0' || b.len() == 1)
        && b.iter().all(u8::is_ascii_digit)
    {
        let length = b
            .iter()
            .fold(0usize, |n, &d| n * 10 + usize::from(d - b'0'));
        return Some((length, b',', false));
    }
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

/// Byte index of the `}` matching the `{` at `start`, ignoring quoted braces: jumps
/// between braces and quotes with `memchr3`.
fn find_matching_brace(s: &str, start: usize) -> Option<usize> {
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
fn brace_depth(s: &str) -> usize {
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
fn split_fields(s: &str, delim: u8) -> Vec<(usize, &str)> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn header(s: &str) -> Header<'_> {
        match parse_header(s, 100, &mut OwnedFieldCache::default()) {
            HeaderParse::Header { header, .. } => header,
            other => panic!("not a header: {other:?}"),
        }
    }

    fn invalid(s: &str) -> String {
        match parse_header(s, 100, &mut OwnedFieldCache::default()) {
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
    fn repeated_field_lists_are_reused_with_their_checks() {
        let mut cache = OwnedFieldCache::default();
        for _ in 0..2 {
            match parse_header("a[1]{x,x}:", 100, &mut cache) {
                HeaderParse::Header {
                    strict_error: Some(e),
                    ..
                } => assert!(e.message.contains("Duplicate field name"), "{e:?}"),
                other => panic!("expected a duplicate: {other:?}"),
            }
        }
        assert!(matches!(
            parse_header("a[2]{x,y}:", 100, &mut cache),
            HeaderParse::Header { .. }
        ));
        match parse_header("b[1|]{x,y}:", 100, &mut cache) {
            HeaderParse::Invalid(e) => assert!(e.message.contains("delimiter mismatch")),
            other => panic!("expected a mismatch: {other:?}"),
        }
        match parse_header("c[3]{x,y}:", 100, &mut cache) {
            HeaderParse::Header { header, .. } => {
                assert_eq!((header.key.as_deref(), header.length), (Some("c"), 3));
                let names: Vec<&str> = header
                    .fields
                    .iter()
                    .flat_map(|f| f.iter())
                    .map(|f| &*f.name)
                    .collect();
                assert_eq!(names, ["x", "y"]);
            }
            other => panic!("expected a header: {other:?}"),
        }
    }

    #[test]
    fn a_length_no_array_can_hold_is_a_strict_error_with_its_digits() {
        let parse = |s| parse_header(s, 100, &mut OwnedFieldCache::default());
        match parse("a[99999999999999999999999]: 1,2") {
            HeaderParse::Header {
                header,
                strict_error: Some(e),
                ..
            } => {
                assert_eq!(header.length, usize::MAX);
                assert_eq!(
                    e.message,
                    "Array length 99999999999999999999999 is larger than any array can hold"
                );
            }
            other => panic!("expected a strict error: {other:?}"),
        }
        let largest = format!("a[{}]: 1", usize::MAX);
        assert!(matches!(
            parse(&largest),
            HeaderParse::Header {
                strict_error: None,
                ..
            }
        ));
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
            parse_header("a: b[2]: x", 10, &mut OwnedFieldCache::default()),
            HeaderParse::NotHeader
        ));
    }

    #[test]
    fn quoted_braces_delimiters_and_escapes_do_not_count() {
        let list = r#"a,"b,{\"}",c{d,"e}"},f"#;
        let parts: Vec<(usize, &str)> = split_fields(list, b',');
        assert_eq!(
            parts,
            [
                (0, "a"),
                (2, r#""b,{\"}""#),
                (11, r#"c{d,"e}"}"#),
                (21, "f")
            ]
        );
        assert_eq!(find_matching_brace(list, 12), Some(19));
        assert_eq!(brace_depth(list), 1);
        assert_eq!(brace_depth(r#"a{b{c},"{{{"}"#), 2);
        // A backslash ends a quoted run only as an escape; outside quotes it is a byte.
        assert_eq!(
            split_fields(r#"\,"\\",x"#, b','),
            [(0, r"\"), (2, r#""\\""#), (7, "x")]
        );
    }

    /// The byte-by-byte reading of a matching brace, over [`unquoted_bytes`].
    fn matching_brace_bytewise(s: &str, start: usize) -> Option<usize> {
        let mut depth = 0usize;
        for (i, c) in unquoted_bytes(s, start) {
            match c {
                b'{' => depth += 1,
                b'}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Some(i);
                    }
                }
                _ => {}
            }
        }
        None
    }

    #[test]
    fn matching_brace_agrees_with_the_bytewise_reading() {
        // Every string of up to 7 bytes over braces, quotes, backslashes and a letter,
        // from every start.
        let alphabet = [b'{', b'}', b'"', b'\\', b'a'];
        let mut text = Vec::new();
        for len in 0..=7u32 {
            for mut n in 0..alphabet.len().pow(len) {
                text.clear();
                for _ in 0..len {
                    text.push(alphabet[n % alphabet.len()]);
                    n /= alphabet.len();
                }
                let s = std::str::from_utf8(&text).unwrap_or_default();
                for start in 0..s.len() {
                    assert_eq!(
                        find_matching_brace(s, start),
                        matching_brace_bytewise(s, start),
                        "{s:?} from {start}"
                    );
                }
            }
        }
    }
}
