//! Token-level parsers: quoted strings and escapes, primitive tokens, numbers, keys and
//! delimiter splitting (spec §4, §7, §11.2). Each token's grammar is matched by hand in
//! one pass, since these run on every line.

use std::borrow::Cow;

/// A token-level failure: a message and the byte offset in the parsed slice.
#[derive(Debug)]
pub(crate) struct TokenError {
    pub message: String,
    pub offset: usize,
    /// Nesting beyond the limit: reported as [`ErrorKind::Depth`](crate::ErrorKind::Depth).
    pub depth: bool,
}

impl TokenError {
    pub fn new(message: impl Into<String>, offset: usize) -> TokenError {
        TokenError {
            message: message.into(),
            offset,
            depth: false,
        }
    }
}

pub(crate) type TokResult<T> = Result<T, TokenError>;

/// [`trim_spaces`] of the text after a key's colon: its usual single space is
/// dropped first, so the common `key: value` needs no trimming loop.
#[inline(always)]
pub(crate) fn trim_after_colon(rest: &str) -> &str {
    trim_spaces(rest.strip_prefix(' ').unwrap_or(rest))
}

/// Trims surrounding U+0020 only (spec §12: no other whitespace is trimmed).
#[inline(always)]
pub(crate) fn trim_spaces(s: &str) -> &str {
    let b = s.as_bytes();
    // Most tokens have no surrounding spaces.
    if b.first() != Some(&b' ') && b.last() != Some(&b' ') {
        return s;
    }
    trim_surrounding_spaces(s)
}

/// [`trim_spaces`] of a string that starts or ends with a space.
fn trim_surrounding_spaces(s: &str) -> &str {
    let b = s.as_bytes();
    let mut start = 0;
    let mut end = b.len();
    while start < end && b[start] == b' ' {
        start += 1;
    }
    while end > start && b[end - 1] == b' ' {
        end -= 1;
    }
    // Only ASCII spaces were skipped, so both ends are char boundaries.
    &s[start..end]
}

/// Byte index of the first `target` outside double quotes, from `start`.
/// Inside quotes a backslash skips the next byte. Jumps between candidates with
/// `memchr2` instead of stepping byte by byte.
pub(crate) fn find_unquoted(s: &str, target: u8, start: usize) -> Option<usize> {
    if target == b'"' {
        // A quote only ever opens or closes a quoted part.
        return None;
    }
    let b = s.as_bytes();
    let mut i = start;
    loop {
        let at = i + memchr::memchr2(target, b'"', b.get(i..)?)?;
        if b[at] == target {
            return Some(at);
        }
        // An unterminated quote hides everything after it.
        i = skip_quoted(b, at)? + 1;
    }
}

/// Byte index of the first `a` or `b` outside double quotes, from `start`, as
/// [`find_unquoted`] finds one of them.
pub(crate) fn find_unquoted_either(s: &str, a: u8, b: u8, start: usize) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut i = start;
    loop {
        let at = i + memchr::memchr3(a, b, b'"', bytes.get(i..)?)?;
        if bytes[at] != b'"' {
            return Some(at);
        }
        i = skip_quoted(bytes, at)? + 1;
    }
}

/// The bytes of `s` from `start` that stand outside double quotes, with their byte
/// indices: a `"` opens or closes a quoted run and is not yielded, and inside quotes a
/// backslash escapes the byte after it. The byte-by-byte twin of [`find_unquoted`], for
/// the header's scans that look at several bytes ([`split_delimited`], run on every
/// inline array, keeps its own loop: it is faster there).
pub(crate) fn unquoted_bytes(s: &str, start: usize) -> Unquoted<'_> {
    Unquoted {
        b: s.as_bytes(),
        i: start,
        in_quotes: false,
    }
}

/// The iterator of [`unquoted_bytes`].
pub(crate) struct Unquoted<'a> {
    b: &'a [u8],
    i: usize,
    in_quotes: bool,
}

impl Iterator for Unquoted<'_> {
    type Item = (usize, u8);

    #[inline]
    fn next(&mut self) -> Option<(usize, u8)> {
        loop {
            let at = self.i;
            let c = *self.b.get(at)?;
            self.i += 1;
            if !self.in_quotes {
                if c != b'"' {
                    return Some((at, c));
                }
                self.in_quotes = true;
            } else if c == b'\\' {
                self.i += 1;
            } else if c == b'"' {
                self.in_quotes = false;
            }
        }
    }
}

/// Byte index of the quote closing the one at `start`, skipping escapes (jumps between
/// quotes and backslashes with `memchr2`).
pub(crate) fn find_closing_quote(s: &str, start: usize) -> Option<usize> {
    skip_quoted(s.as_bytes(), start)
}

/// One escape sequence (spec §7.1) at the start of `after`, the bytes after its
/// backslash: `n`, `t`, `r`, `\\`, `"` or `uXXXX` (four hex digits, not a lone
/// surrogate), as its character and its length in bytes.
#[inline]
fn escape_sequence(after: &[u8]) -> Option<(char, usize)> {
    Some(match *after.first()? {
        b'n' => ('\n', 1),
        b't' => ('\t', 1),
        b'r' => ('\r', 1),
        b'\\' => ('\\', 1),
        b'"' => ('"', 1),
        b'u' => {
            let mut unit = 0;
            for &h in after.get(1..5)? {
                unit = unit * 16 + char::from(h).to_digit(16)?;
            }
            (char::from_u32(unit)?, 5)
        }
        _ => return None,
    })
}

/// Unescapes the inside of a quoted string (spec §7.1).
pub(crate) fn unescape(body: &str) -> TokResult<String> {
    let b = body.as_bytes();
    let mut out = String::with_capacity(body.len());
    let mut from = 0;
    while let Some(at) = memchr::memchr(b'\\', &b[from..]).map(|i| from + i) {
        out.push_str(&body[from..at]);
        match escape_sequence(&b[at + 1..]) {
            Some((c, len)) => {
                out.push(c);
                from = at + 1 + len;
            }
            None if at + 1 == b.len() => {
                return Err(TokenError::new(
                    "Invalid escape sequence: backslash at end of string",
                    at,
                ));
            }
            None => return Err(TokenError::new(describe_bad_escape(&body[at + 1..]), at)),
        }
    }
    out.push_str(&body[from..]);
    Ok(out)
}

/// The string of the quoted token starting `text`, unescaped in the same pass that
/// finds its closing quote, and that quote's byte index; `at` is the first backslash
/// after the opening quote. `None` if an escape is malformed or the quote is not closed
/// (the caller finds which error it is).
#[inline(never)]
fn unescape_quoted(text: &str, mut at: usize) -> Option<(String, usize)> {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut from = 1;
    loop {
        out.push_str(text.get(from..at)?);
        if b[at] == b'"' {
            return Some((out, at));
        }
        let (c, len) = escape_sequence(b.get(at + 1..)?)?;
        out.push(c);
        from = at + 1 + len;
        at = quote_or_backslash(b, from)?;
    }
}

fn describe_bad_escape(after: &str) -> String {
    let mut chars = after.chars();
    let first = chars.next().unwrap_or(' ');
    if first != 'u' {
        return format!("Invalid escape sequence: \\{first}");
    }
    let hex: String = after.chars().skip(1).take(4).collect();
    if hex.chars().count() < 4 {
        format!("Invalid escape sequence: truncated \\u escape at \"\\u{hex}\"")
    } else if hex.chars().all(|c| c.is_ascii_hexdigit()) {
        format!(
            "Invalid escape sequence: \\u{hex} is a lone surrogate. Supplementary code points MUST appear as literal UTF-8"
        )
    } else {
        format!("Invalid escape sequence: \\u must be followed by 4 hex digits, got \"{hex}\"")
    }
}

/// A field name or header key token: quoted tokens are unescaped, others taken as they
/// are. Borrows from the input unless there are escapes.
pub(crate) fn parse_name_token(token: &str) -> TokResult<Cow<'_, str>> {
    let t = trim_spaces(token);
    if t.starts_with('"') {
        quoted_str(t)
    } else {
        Ok(Cow::Borrowed(t))
    }
}

/// A number token (spec §4), parsed.
#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) enum Num {
    /// An integer literal that fits `u64`.
    U64(u64),
    /// A negative integer literal that fits `i64` (and `-0`).
    I64(i64),
    /// An integer literal beyond 64 bits (its digits are the token).
    BigInt,
    /// A literal with a fraction or exponent: the nearest `f64` (infinite when its
    /// magnitude is beyond `f64`; `-0` kept).
    F64(f64),
}

/// Powers of ten exact in an `f64`.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// The token as a number, if it is one under spec §4: the grammar
/// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, ASCII digits only. Matched and
/// parsed in one pass (this runs on every unquoted scalar): the digits accumulate as
/// they are matched, and a decimal of at most 15 significant digits and 22 fraction
/// digits without exponent is the quotient of two exact `f64`s, which IEEE division
/// rounds correctly (Clinger's fast path); anything else is parsed by the standard
/// library, so every result is the correctly rounded value.
pub(crate) fn number(token: &str) -> Option<Num> {
    let b = token.as_bytes();
    let neg = b.first() == Some(&b'-');
    let mut i = usize::from(neg);
    // The digits seen so far as an integer (exact while `digits` ≤ 19).
    let mut mantissa: u64 = 0;
    let mut digits = 0usize;
    // Takes the digits from `i` into the mantissa; the index after them.
    let take_digits = |i: usize, mantissa: &mut u64, digits: &mut usize| {
        let mut n = 0;
        for &c in b.get(i..).unwrap_or(&[]) {
            let d = c.wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            *mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(d));
            n += 1;
        }
        *digits += n;
        i + n
    };
    i = match b.get(i)? {
        b'0' => {
            digits = 1;
            i + 1
        }
        b'1'..=b'9' => take_digits(i, &mut mantissa, &mut digits),
        _ => return None,
    };
    let mut fraction = 0usize;
    if b.get(i) == Some(&b'.') {
        let end = take_digits(i + 1, &mut mantissa, &mut digits);
        if end == i + 1 {
            return None;
        }
        fraction = end - i - 1;
        i = end;
    }
    let mut exponent = false;
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let end = (i..b.len())
            .find(|&j| !b[j].is_ascii_digit())
            .unwrap_or(b.len());
        if end == i {
            return None;
        }
        i = end;
        exponent = true;
    }
    if i != b.len() {
        return None;
    }
    if fraction == 0 && !exponent {
        return Some(if digits <= 19 {
            match (neg, i64::try_from(mantissa)) {
                (false, _) => Num::U64(mantissa),
                (true, Ok(m)) => Num::I64(-m),
                (true, Err(_)) if mantissa == 1 << 63 => Num::I64(i64::MIN),
                (true, Err(_)) => Num::BigInt,
            }
        } else if let Ok(u) = token.parse::<u64>() {
            Num::U64(u)
        } else if let Ok(v) = token.parse::<i64>() {
            Num::I64(v)
        } else {
            Num::BigInt
        });
    }
    if !exponent && digits <= 15 && fraction < POW10.len() {
        let f = mantissa as f64 / POW10[fraction];
        return Some(Num::F64(if neg { -f } else { f }));
    }
    Some(Num::F64(token.parse::<f64>().unwrap_or(f64::INFINITY)))
}

/// What a list item line (`- …`) holds after its hyphen, as far as its text alone says.
pub(crate) enum ItemStart<'a> {
    /// `-` or `- ` alone: an empty object.
    EmptyObject,
    /// `- []`: an empty array.
    EmptyArray,
    /// Anything else: the text after `- ` and any further spaces.
    Rest(&'a str),
}

/// Reads the start of a list item's content; `None` if it does not start with `- `
/// (nor is a bare `-`).
pub(crate) fn item_start(content: &str) -> Option<ItemStart<'_>> {
    if content == "-" {
        return Some(ItemStart::EmptyObject);
    }
    let after = content.strip_prefix("- ")?.trim_start_matches(' ');
    Some(match after {
        "" => ItemStart::EmptyObject,
        "[]" => ItemStart::EmptyArray,
        rest => ItemStart::Rest(rest),
    })
}

/// The error for a line in a list that is not a list item.
pub(crate) const NOT_A_LIST_ITEM: &str = "Expected list item to start with \"- \"";

/// What a one-pass look at the start of a field line found (see [`plain_key_colon`]).
pub(crate) enum PlainKey {
    /// The first of `:`, `[` and `"` is a colon, at this byte index: a plain key.
    Colon(usize),
    /// None of the three occurs: no key, no header and no quotes.
    Nothing,
    /// A quote or a bracket comes first: the general path decides.
    Other,
}

/// Finds a plain key's colon in one scan. When a `:` comes before any `[` and any `"`,
/// the line is not a header (spec §6 needs a `[` before the first unquoted colon) and
/// that colon is the first unquoted one, so the key is everything before it.
#[inline]
pub(crate) fn plain_key_colon(content: &str) -> PlainKey {
    let b = content.as_bytes();
    // Keys are short: eight bytes at a time finds their colon sooner than the vector
    // search gets going, which then takes over for long keyless lines.
    let head = b.len().min(PLAIN_KEY_HEAD);
    let hits = |w| zero_bytes(w, b':') | zero_bytes(w, b'[') | zero_bytes(w, b'"');
    let stop = |c| c == b':' || c == b'[' || c == b'"';
    let found = match first_in_words(&b[..head], hits, stop) {
        Some(i) => Some(i),
        None => memchr::memchr3(b':', b'[', b'"', &b[head..]).map(|i| head + i),
    };
    match found {
        Some(i) if b[i] == b':' => PlainKey::Colon(i),
        Some(_) => PlainKey::Other,
        None => PlainKey::Nothing,
    }
}

/// How many leading bytes [`plain_key_colon`] checks eight at a time.
const PLAIN_KEY_HEAD: usize = 24;

/// Splits `input` on unquoted `delim`, trimming spaces around each token (spec §11.2).
/// An empty input gives no tokens. Returned slices borrow from `input`. Ordinary bytes
/// are skipped by table and quoted parts with `memchr2`, as [`split_row`] does on a line
/// with quotes.
pub(crate) fn split_delimited<'a>(input: &'a str, delim: u8, out: &mut Vec<&'a str>) {
    out.clear();
    let b = input.as_bytes();
    let mut start = 0;
    let mut i = 0;
    loop {
        i = skip_ordinary(b, i);
        let Some(&c) = b.get(i) else {
            break;
        };
        if c == b'"' {
            // An unterminated quote hides every delimiter after it.
            match skip_quoted(b, i) {
                Some(end) => i = end + 1,
                None => break,
            }
        } else {
            if c == delim {
                out.push(trim_spaces(&input[start..i]));
                start = i + 1;
            }
            i += 1;
        }
    }
    if start < b.len() || !out.is_empty() {
        out.push(trim_spaces(&input[start..]));
    }
}

/// The index of the first byte at or after `i` that [`ROW_SPECIAL`] marks, or the
/// length of `b`. Four bytes a step: cells are short, so a wider search (`memchr3`, a
/// word at a time) costs more to set up than it saves, but one bounds check per four
/// bytes does not.
#[inline]
fn skip_ordinary(b: &[u8], mut i: usize) -> usize {
    while let Some(&[w, x, y, z]) = b.get(i..i + 4) {
        if ROW_SPECIAL[usize::from(w)] {
            return i;
        }
        if ROW_SPECIAL[usize::from(x)] {
            return i + 1;
        }
        if ROW_SPECIAL[usize::from(y)] {
            return i + 2;
        }
        if ROW_SPECIAL[usize::from(z)] {
            return i + 3;
        }
        i += 4;
    }
    while i < b.len() && !ROW_SPECIAL[usize::from(b[i])] {
        i += 1;
    }
    i
}

/// Bytes that can matter in a row: quote, colon and the three delimiters.
static ROW_SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    t[b'"' as usize] = true;
    t[b':' as usize] = true;
    t[b',' as usize] = true;
    t[b'\t' as usize] = true;
    t[b'|' as usize] = true;
    t
};

/// The index of the quote closing the one at `open` (backslash escapes skipped).
pub(crate) fn skip_quoted(b: &[u8], open: usize) -> Option<usize> {
    let mut at = open + 1 + memchr::memchr2(b'"', b'\\', b.get(open + 1..)?)?;
    loop {
        if b[at] == b'"' {
            return Some(at);
        }
        if at + 1 >= b.len() {
            return None;
        }
        at = quote_or_backslash(b, at + 2)?;
    }
}

/// The string of the quoted token that starts `text` and the byte index of its closing
/// quote: borrowed when it has no escapes, else unescaped in the same pass. `None` when
/// the quote is not closed or an escape is malformed (see [`quoted_error`]).
#[inline(always)]
fn quoted_prefix(text: &str) -> Option<(Cow<'_, str>, usize)> {
    let at = 1 + memchr::memchr2(b'"', b'\\', text.as_bytes().get(1..)?)?;
    if text.as_bytes()[at] == b'"' {
        return Some((Cow::Borrowed(text.get(1..at)?), at));
    }
    unescape_quoted(text, at).map(|(s, close)| (Cow::Owned(s), close))
}

/// Why the quoted token starting `text` does not read as a string up to the end of
/// `text` (`whole`) or to its closing quote, in the order the errors are told: not
/// closed, characters after the closing quote (if `whole`), a malformed escape.
#[cold]
fn quoted_error(text: &str, whole: bool, unterminated: &str) -> TokenError {
    let Some(close) = find_closing_quote(text, 0) else {
        return TokenError::new(unterminated, 0);
    };
    if whole && close != text.len() - 1 {
        return TokenError::new("Unexpected characters after closing quote", close + 1);
    }
    match unescape(&text[1..close]) {
        Err(e) => TokenError::new(e.message, e.offset + 1),
        // A closed string without a bad escape reads in `quoted_prefix`.
        Ok(_) => TokenError::new(unterminated, 0),
    }
}

/// Parses the key at the start of `content` (spec §7.4) and returns it with the byte
/// index just after its colon. Keys without escapes borrow from the input.
pub(crate) fn parse_key(content: &str) -> TokResult<(Cow<'_, str>, usize)> {
    if content.starts_with('"') {
        let b = content.as_bytes();
        let Some((key, close)) = quoted_prefix(content) else {
            return Err(quoted_error(content, false, "Unterminated quoted key"));
        };
        let mut pos = close + 1;
        while pos < b.len() && b[pos] == b' ' {
            pos += 1;
        }
        if pos >= b.len() || b[pos] != b':' {
            return Err(TokenError::new("Missing colon after key", pos));
        }
        Ok((key, pos + 1))
    } else {
        match find_unquoted(content, b':', 0) {
            Some(colon) => Ok((Cow::Borrowed(trim_spaces(&content[..colon])), colon + 1)),
            None => Err(TokenError::new("Missing colon after key", content.len())),
        }
    }
}

/// A quoted token's string: borrowed when it has no escapes, unescaped while its
/// closing quote is looked for otherwise.
pub(crate) fn quoted_str(token: &str) -> TokResult<Cow<'_, str>> {
    match quoted_prefix(token) {
        Some((s, close)) if close == token.len() - 1 => Ok(s),
        _ => Err(quoted_error(
            token,
            true,
            "Unterminated string: missing closing quote",
        )),
    }
}

mod row;
mod words;
pub(crate) use row::split_row;
use words::{first_in_words, quote_or_backslash, zero_bytes};

#[cfg(test)]
mod tests;
