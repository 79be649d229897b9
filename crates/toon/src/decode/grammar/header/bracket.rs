//! The bracket segment of a header (spec §6): `[N]`, `[N:]`, `[N<delim>]`, `[N:<delim>]`.

use nom::character::complete::{char, digit1, one_of};
use nom::combinator::{all_consuming, opt};
use nom::{IResult, Parser};

/// The digits a bracket segment starts with (its declared length).
pub(super) fn seg_digits(seg: &str) -> &str {
    &seg[..seg.bytes().take_while(u8::is_ascii_digit).count()]
}

/// `N`, `N:`, `N<delim>`, `N:<delim>` with `N` = `0` or no leading zeros.
fn bracket_segment(input: &str) -> IResult<&str, (&str, bool, Option<char>)> {
    all_consuming((digit1, opt(char(':')), opt(one_of("\t|"))))
        .map(|(n, k, d)| (n, k.is_some(), d))
        .parse(input)
}

pub(super) fn parse_bracket_segment(seg: &str) -> Option<(usize, u8, bool)> {
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
