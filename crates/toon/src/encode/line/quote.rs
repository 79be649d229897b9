//! Quoting decisions and escapes for string values and keys (spec §7.1–§7.3, with the
//! reference 4.4 behaviour of DELTA-4.4 E1/E2).
//!
//! Every decision is one pass over the bytes through a 256-entry table per delimiter;
//! the rarer checks (literals, numeric look-alikes) run only when the first byte could
//! start one.

use crate::Delimiter;

/// Bytes that force quoting wherever they appear: `:`, `"`, `\`, brackets, braces and
/// the C0 controls. The delimiter is added per table.
const fn unsafe_table(delimiter: u8) -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[b':' as usize] = true;
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t[b'[' as usize] = true;
    t[b']' as usize] = true;
    t[b'{' as usize] = true;
    t[b'}' as usize] = true;
    t[delimiter as usize] = true;
    t
}

static UNSAFE_COMMA: [bool; 256] = unsafe_table(b',');
static UNSAFE_TAB: [bool; 256] = unsafe_table(b'\t');
static UNSAFE_PIPE: [bool; 256] = unsafe_table(b'|');

/// Bytes that need an escape inside quotes: `"`, `\` and the C0 controls.
static ESCAPED: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

fn table(delimiter: Delimiter) -> &'static [bool; 256] {
    match delimiter {
        Delimiter::Comma => &UNSAFE_COMMA,
        Delimiter::Tab => &UNSAFE_TAB,
        Delimiter::Pipe => &UNSAFE_PIPE,
    }
}

/// Whether any byte of `b` is marked in `t`: eight lookups OR-ed per step, so the
/// common long run of safe bytes costs one branch per eight.
#[inline]
fn any_in(b: &[u8], t: &[bool; 256]) -> bool {
    let mut chunks = b.chunks_exact(8);
    for c in &mut chunks {
        let hit = (t[usize::from(c[0])] | t[usize::from(c[1])])
            | (t[usize::from(c[2])] | t[usize::from(c[3])])
            | (t[usize::from(c[4])] | t[usize::from(c[5])])
            | (t[usize::from(c[6])] | t[usize::from(c[7])]);
        if hit {
            return true;
        }
    }
    chunks.remainder().iter().any(|&c| t[usize::from(c)])
}

/// True if the string value `s` must be quoted when written where `delimiter` is the
/// relevant delimiter (spec §7.2, §11.1).
///
/// Leading or trailing whitespace means U+0020 or U+0009 only (DELTA E1); a leading
/// `-` or `#` always quotes.
pub(crate) fn needs_quotes(s: &str, delimiter: Delimiter) -> bool {
    let b = s.as_bytes();
    let (Some(&first), Some(&last)) = (b.first(), b.last()) else {
        return true;
    };
    if matches!(first, b' ' | b'\t' | b'-' | b'#') || matches!(last, b' ' | b'\t') {
        return true;
    }
    if any_in(b, table(delimiter)) {
        return true;
    }
    match first {
        b'0'..=b'9' | b'+' => is_numeric_like(b),
        b't' | b'f' | b'n' => matches!(b, b"true" | b"false" | b"null"),
        _ => false,
    }
}

/// Matches `/^[+-]?\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i` over ASCII digits.
pub(crate) fn is_numeric_like(b: &[u8]) -> bool {
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i = 1;
    }
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i > start
    };
    if !digits(&mut i) {
        return false;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        if !digits(&mut i) {
            return false;
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if !digits(&mut i) {
            return false;
        }
    }
    i == b.len()
}

/// Bytes that may not follow the first byte of an unquoted key: all but
/// `[A-Za-z0-9_.]`.
static NOT_KEY_TAIL: [bool; 256] = {
    let mut t = [true; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        t[i] = !(c.is_ascii_alphanumeric() || c == b'_' || c == b'.');
        i += 1;
    }
    t
};

/// True if a key or field name may be written unquoted: `^[A-Za-z_][A-Za-z0-9_.]*$`.
#[inline]
pub(crate) fn is_unquoted_key(key: &str) -> bool {
    let b = key.as_bytes();
    match b.first() {
        Some(c) if c.is_ascii_alphabetic() || *c == b'_' => !any_in(&b[1..], &NOT_KEY_TAIL),
        _ => false,
    }
}

/// Appends `s` in double quotes with the escapes of spec §7.1: `\\`, `\"`, `\n`,
/// `\r`, `\t`, and `\u00xx` (lowercase hex) for the other C0 controls.
pub(crate) fn write_quoted(out: &mut String, s: &str) {
    out.push('"');
    let b = s.as_bytes();
    let mut start = 0;
    // Runs of eight bytes without `"`, `\` or a control are skipped a word at a time.
    let mut i = 0;
    while i < b.len() {
        if i + 8 <= b.len() && b.len() >= 16 {
            let word = u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or([0; 8]));
            if !needs_escape(word) {
                i += 8;
                continue;
            }
        }
        let c = b[i];
        i += 1;
        if !ESCAPED[c as usize] {
            continue;
        }
        let i = i - 1;
        out.push_str(&s[start..i]);
        match c {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.push_str("\\u00");
                out.push(HEX[usize::from(c >> 4)] as char);
                out.push(HEX[usize::from(c & 0xf)] as char);
            }
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Whether any of the eight bytes of `word` is `"`, `\\` or below 0x20 (exact: the
/// borrows of the subtractions cannot make a clean word look dirty).
#[inline]
fn needs_escape(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero_byte = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    let below_space = word.wrapping_sub(ONES * 0x20) & !word & HIGH;
    (below_space
        | zero_byte(word ^ (ONES * u64::from(b'"')))
        | zero_byte(word ^ (ONES * u64::from(b'\\'))))
        != 0
}

/// Appends a string value, quoted only if [`needs_quotes`] says so.
pub(crate) fn write_string(out: &mut String, s: &str, delimiter: Delimiter) {
    if needs_quotes(s, delimiter) {
        write_quoted(out, s);
    } else {
        out.push_str(s);
    }
}

/// Appends a key or field name, quoted unless [`is_unquoted_key`] holds (spec §7.3).
#[inline]
pub(crate) fn write_key(out: &mut String, key: &str) {
    if is_unquoted_key(key) {
        out.push_str(key);
    } else {
        write_quoted(out, key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_like_follows_the_reference_pattern() {
        for yes in ["0", "05", "+1", "-3.14", "1e5", "1E+5", "2.5e-3", "007.0"] {
            assert!(is_numeric_like(yes.as_bytes()), "{yes}");
        }
        for no in [
            "", "+", "1.", ".5", "1e", "1e+", "0x10", "1_000", "١", "1.2.3", "--1",
        ] {
            assert!(!is_numeric_like(no.as_bytes()), "{no}");
        }
    }

    #[test]
    fn unsafe_bytes_are_found_at_every_position() {
        let t = table(Delimiter::Comma);
        for len in 0..20 {
            let clean = "a".repeat(len);
            assert!(!any_in(clean.as_bytes(), t), "{len}");
            for at in 0..len {
                for bad in [b',', b':', b'"', b'\\', b'[', b'}', b'\n'] {
                    let mut b = clean.clone().into_bytes();
                    b[at] = bad;
                    assert!(any_in(&b, t), "{len} {at} {bad}");
                }
            }
        }
        assert!(any_in(b"a|b\tc", table(Delimiter::Comma)));
        assert!(any_in(b"a|b", table(Delimiter::Pipe)));
        assert!(!any_in(b"a|b", table(Delimiter::Comma)));
    }

    #[test]
    fn keys() {
        for yes in ["a", "_", "A.b_9", "user.name"] {
            assert!(is_unquoted_key(yes), "{yes}");
        }
        for no in ["", "9a", ".a", "a-b", "a b", "é", "a:b", "$x"] {
            assert!(!is_unquoted_key(no), "{no}");
        }
    }

    #[test]
    fn escapes_are_found_at_every_position_of_long_strings() {
        for len in 0..40 {
            for at in 0..len {
                for bad in ['"', '\\', '\n', '\u{1}', '\u{1f}'] {
                    let mut text: Vec<char> = "abcdéfghij klmnopqrstuvwxyz0123456789ABCDEF"
                        .chars()
                        .take(len)
                        .collect();
                    text[at] = bad;
                    let text: String = text.into_iter().collect();
                    let mut out = String::new();
                    write_quoted(&mut out, &text);
                    let expected = serde_json::to_string(&text).unwrap();
                    assert_eq!(out, expected.replace("\\u001F", "\\u001f"), "{text:?}");
                }
            }
        }
        // Bytes at and above 0x80 (UTF-8) and just above the controls pass unescaped.
        let mut out = String::new();
        write_quoted(&mut out, "  ~~ééé€€ !#$%&'()*+,-./0");
        assert_eq!(out, "\"  ~~ééé€€ !#$%&'()*+,-./0\"");
    }

    #[test]
    fn escapes() {
        let mut out = String::new();
        write_quoted(&mut out, "a\"b\\c\nd\re\tf\u{1}\u{1f}\u{7f}");
        assert_eq!(out, "\"a\\\"b\\\\c\\nd\\re\\tf\\u0001\\u001f\u{7f}\"");
    }
}
