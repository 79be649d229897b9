//! Bytes tested eight at a time in a `u64` word (SWAR): the searches for a key's colon,
//! a quoted string's next quote or backslash, and a row's delimiters and quotes.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;
const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The high bit of each byte of `word` that equals `byte`, and no other bit: adding
/// 0x7f to a byte's low seven bits sets its high bit unless they are all zero, and
/// never carries into the next byte.
#[inline(always)]
pub(super) fn equal_bytes(word: u64, byte: u8) -> u64 {
    let x = word ^ (ONES * u64::from(byte));
    !(((x & LOW) + LOW) | x) & HIGH
}

/// The index of the first byte of `b` that `is_stop`, eight bytes per step: `hits` of
/// a word marks the high bit of each byte that is a stop, exactly for the lowest one
/// (see [`zero_bytes`]); the last bytes short of a word are tested one by one.
#[inline(always)]
pub(super) fn first_in_words(
    b: &[u8],
    hits: impl Fn(u64) -> u64,
    is_stop: impl Fn(u8) -> bool,
) -> Option<usize> {
    let mut chunks = b.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let found = hits(u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8])));
        if found != 0 {
            return Some(at + (found.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&c| is_stop(c))
        .map(|i| at + i)
}

/// The high bit of each byte of `word` equal to `byte`, exact for the lowest such
/// byte: a byte equal to it is a zero byte of the word XOR that byte repeated, and the
/// borrow of the test only marks bytes above the lowest zero byte.
#[inline(always)]
pub(super) fn zero_bytes(word: u64, byte: u8) -> u64 {
    let v = word ^ (ONES * u64::from(byte));
    v.wrapping_sub(ONES) & !v & HIGH
}

/// The index of the first `"` or `\\` in `b` at or after `from`, where an escape
/// ended: the next escape or the closing quote is usually near, so the first
/// [`QUOTED_HEAD`] bytes are looked at eight at a time, the rest with `memchr2` (which
/// costs more to start; a string's first part is searched with it at once).
#[inline]
pub(super) fn quote_or_backslash(b: &[u8], from: usize) -> Option<usize> {
    let rest = b.get(from..)?;
    let head = rest.len().min(QUOTED_HEAD);
    let hits = |w| zero_bytes(w, b'"') | zero_bytes(w, b'\\');
    match first_in_words(&rest[..head], hits, |c| c == b'"' || c == b'\\') {
        Some(i) => Some(from + i),
        None => memchr::memchr2(b'"', b'\\', &rest[head..]).map(|i| from + head + i),
    }
}

/// How many bytes [`quote_or_backslash`] checks eight at a time.
const QUOTED_HEAD: usize = 32;
