//! The open containers of the pull decoder, one frame each, with the state their
//! strict-mode checks need.

use std::hash::{BuildHasher, RandomState};

use hashbrown::HashTable;

use super::header::Header;

use super::sink::RowCache;
use super::slot::At;

/// An open container.
pub(crate) enum Frame {
    /// The document itself; when its value is complete, root arrays check that nothing
    /// follows.
    Root { array: bool },
    /// Fields of an object, one line each.
    Object(ObjectFrame),
    /// Items of an expanded list (`- item` lines); boxed, as the tables are: the
    /// commonest frames, objects, stay small to push and pop.
    List(Box<ListFrame>),
    /// Rows of a tabular array.
    Tabular(Box<TabularFrame>),
    /// Entries of a keyed table.
    Keyed(Box<KeyedFrame>),
}

impl Frame {
    /// The blank-line span of an array frame.
    pub fn span_mut(&mut self) -> Option<&mut BlankSpan> {
        match self {
            Frame::List(f) => Some(&mut f.span),
            Frame::Tabular(f) => Some(&mut f.span),
            Frame::Keyed(f) => Some(&mut f.span),
            Frame::Root { .. } | Frame::Object(_) => None,
        }
    }
}

/// The lines an array spans and the first blank line after its first item, for the
/// strict rule against blank lines inside arrays. Constant size, unlike a list of all
/// blank lines.
#[derive(Default)]
pub(crate) struct BlankSpan {
    /// The first item's line.
    pub start: Option<usize>,
    /// The last line the items consumed so far.
    pub end: usize,
    /// The first blank line after `start`.
    pub first_blank: Option<usize>,
}

impl BlankSpan {
    /// Records a blank line skipped by a fetch (always after every line fetched before).
    pub fn note(&mut self, blank: usize) {
        if self.start.is_some() && self.first_blank.is_none() {
            self.first_blank = Some(blank);
        }
    }

    /// The blank line strictly inside the span, if any.
    pub fn blank_inside(&self) -> Option<usize> {
        self.start?;
        self.first_blank.filter(|&b| b < self.end)
    }
}

/// Fields of an object.
pub(crate) struct ObjectFrame {
    /// Lines shallower than this end the object.
    pub min_depth: usize,
    /// The depth of every field line (from the first one if `None`).
    pub depth: Option<usize>,
}

/// Items of an expanded list.
pub(crate) struct ListFrame {
    pub length: usize,
    pub base_depth: usize,
    pub item_depth: usize,
    pub count: usize,
    /// An item was started and has not been counted yet.
    pub in_item: bool,
    pub span: BlankSpan,
    /// The header line (the last line while no item was read).
    pub head: At,
}

/// Rows of a tabular array.
pub(crate) struct TabularFrame {
    pub header: Header<'static>,
    pub base_depth: usize,
    pub row_depth: usize,
    pub leaves: usize,
    pub count: usize,
    pub span: BlankSpan,
    pub head: At,
    pub rows: RowCache,
}

/// Entries of a keyed table.
pub(crate) struct KeyedFrame {
    pub header: Header<'static>,
    pub base_depth: usize,
    pub entry_depth: usize,
    pub leaves: usize,
    pub count: usize,
    pub span: BlankSpan,
    pub head: At,
    pub rows: RowCache,
}

/// The key sets of the open objects and keyed tables, innermost last, for the strict
/// duplicate check (§14): kept apart from the frames, so that a frame stays small to
/// push and pop, and reused from one object to the next (a closed set is emptied, and
/// dropped only if it grew too big to keep).
#[derive(Default)]
pub(crate) struct KeyStack {
    sets: Vec<KeySet>,
    /// The sets in use: the first `open` of `sets`.
    open: usize,
}

impl KeyStack {
    /// Opens an empty set, now the innermost.
    #[inline]
    pub fn open(&mut self) -> Option<&mut KeySet> {
        if self.open == self.sets.len() {
            self.sets.push(KeySet::default());
        }
        self.open += 1;
        self.top()
    }

    /// The innermost open set.
    #[inline]
    pub fn top(&mut self) -> Option<&mut KeySet> {
        let i = self.open.checked_sub(1)?;
        self.sets.get_mut(i)
    }

    /// Closes the innermost set.
    #[inline]
    pub fn close(&mut self) {
        if let Some(set) = self.top()
            && !set.reset()
        {
            *set = KeySet::default();
        }
        self.open = self.open.saturating_sub(1);
    }
}

/// Keys an object holds before its duplicate check moves from a list to a hash set.
const LINEAR_KEYS: usize = 16;

/// The keys of one object, for the strict duplicate check: each as its [`Print`],
/// which tells keys of up to [`PRINTED`] bytes apart exactly; longer keys also keep
/// their text, compared when the prints match. Past [`LINEAR_KEYS`] keys they are
/// hashed (keys of up to [`PRINTED`] bytes by their print, longer ones by their text).
/// No allocation per key: the set and its text buffer are recycled between objects.
#[derive(Default)]
pub(crate) struct KeySet {
    /// Per key: its print and its text's end in `long` (where it starts where the
    /// previous key's text ends).
    keys: Vec<(Print, usize)>,
    /// The text of the keys longer than [`PRINTED`], one after another.
    long: Vec<u8>,
    /// Past [`LINEAR_KEYS`]: the keys as positions in `keys`, hashed.
    hashed: Option<Hashed>,
    /// Keys the object is expected to hold (a keyed table's declared count).
    expected: usize,
    /// The union of [`Print::bit`] of the short keys (those of up to [`PRINTED`] bytes).
    bloom: u64,
}

/// The hash index of a [`KeySet`] past its linear part.
struct Hashed {
    table: HashTable<usize>,
    hasher: RandomState,
}

/// Keys up to this length are told apart by their print alone.
const PRINTED: usize = 16;

/// A key's length and two words of its bytes: for 8 bytes or more its first and last
/// 8; for 4 to 7 its first and last 4; for 1 to 3 its first, middle and last byte. A
/// print determines a key of up to [`PRINTED`] bytes.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Print([u64; 2], usize);

impl Print {
    /// One bit of 64 chosen by the print (a filter before comparing prints).
    #[inline]
    fn bit(self) -> u64 {
        let mixed = (self.0[0] ^ self.0[1].rotate_left(29) ^ self.1 as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        1 << (mixed >> 58)
    }

    #[inline]
    fn of(key: &[u8]) -> Print {
        let n = key.len();
        let word = |w: Option<&[u8; 8]>| w.map_or(0, |w| u64::from_le_bytes(*w));
        let half = |w: Option<&[u8; 4]>| w.map_or(0, |w| u64::from(u32::from_le_bytes(*w)));
        let byte = |at: usize| key.get(at).map_or(0, |&b| u64::from(b));
        let words = match n {
            8.. => [word(key.first_chunk()), word(key.last_chunk())],
            4..8 => [half(key.first_chunk()) | half(key.last_chunk()) << 32, 0],
            1..4 => [byte(0) | byte(n / 2) << 8 | byte(n - 1) << 16, 0],
            0 => [0, 0],
        };
        Print(words, n)
    }
}

impl KeySet {
    /// Notes that the object is expected to hold `n` keys (a hint for the hash index).
    pub fn expect(&mut self, n: usize) {
        self.expected = n;
    }

    /// The text of key `i` (empty for keys its print determines).
    fn text(&self, i: usize) -> &[u8] {
        let start = match i.checked_sub(1) {
            Some(before) => self.keys.get(before).map_or(0, |k| k.1),
            None => 0,
        };
        let end = self.keys.get(i).map_or(start, |k| k.1);
        self.long.get(start..end).unwrap_or_default()
    }

    /// The hash of a key: of its print if that determines it, else of its text.
    fn hash(hasher: &RandomState, print: Print, text: &[u8]) -> u64 {
        if print.1 <= PRINTED {
            hasher.hash_one(print.0)
        } else {
            hasher.hash_one(text)
        }
    }

    /// Adds `key`; false if it was there already.
    #[inline]
    pub fn insert(&mut self, key: &str) -> bool {
        let bytes = key.as_bytes();
        // A short key in a small object (the common case): its print is the key, and a
        // long key's print never equals it (their lengths differ). The prints are
        // compared only when the key's bit is set in `bloom`, the bits of the short
        // keys so far.
        if bytes.len() <= PRINTED && self.hashed.is_none() && self.keys.len() < LINEAR_KEYS {
            let mark = Print::of(bytes);
            let bit = mark.bit();
            if self.bloom & bit != 0 && self.keys.iter().any(|k| k.0 == mark) {
                return false;
            }
            self.bloom |= bit;
            self.keys.push((mark, self.long.len()));
            return true;
        }
        self.insert_other(key)
    }

    /// [`KeySet::insert`] of a long key, or into a set past its linear part.
    fn insert_other(&mut self, key: &str) -> bool {
        let bytes = key.as_bytes();
        let mark = Print::of(bytes);
        let long = mark.1 > PRINTED;
        match &self.hashed {
            Some(hashed) => {
                let hash = KeySet::hash(&hashed.hasher, mark, bytes);
                let found = hashed.table.find(hash, |&i| {
                    self.keys.get(i).is_some_and(|k| k.0 == mark)
                        && (!long || self.text(i) == bytes)
                });
                if found.is_some() {
                    return false;
                }
            }
            None => {
                let mut start = 0;
                for &(other, end) in &self.keys {
                    if other == mark && (!long || self.long.get(start..end) == Some(bytes)) {
                        return false;
                    }
                    start = end;
                }
            }
        }
        if long {
            self.long.extend_from_slice(bytes);
        }
        self.keys.push((mark, self.long.len()));
        let at = self.keys.len() - 1;
        if self.hashed.is_none() && self.keys.len() <= LINEAR_KEYS {
            return true;
        }
        let mut hashed = self.hashed.take().unwrap_or_else(|| Hashed {
            table: HashTable::with_capacity(self.expected.clamp(LINEAR_KEYS * 2, 1 << 16)),
            hasher: RandomState::new(),
        });
        let first = if hashed.table.is_empty() { 0 } else { at };
        for i in first..=at {
            let print = self.keys.get(i).map_or(mark, |k| k.0);
            let hash = KeySet::hash(&hashed.hasher, print, self.text(i));
            let Hashed { table, hasher } = &mut hashed;
            table.insert_unique(hash, i, |&j| {
                let print = self.keys.get(j).map_or(mark, |k| k.0);
                KeySet::hash(hasher, print, self.text(j))
            });
        }
        self.hashed = Some(hashed);
        true
    }

    /// Empties the set for reuse; false if it holds more memory than is worth keeping.
    pub fn reset(&mut self) -> bool {
        self.keys.clear();
        self.long.clear();
        self.hashed = None;
        self.expected = 0;
        self.bloom = 0;
        self.long.capacity() <= 1024 && self.keys.capacity() <= 4 * LINEAR_KEYS
    }
}

#[cfg(test)]
mod tests {
    use super::KeySet;

    #[test]
    fn repeated_keys_are_found_whatever_their_length() {
        let mut set = KeySet::default();
        let keys = [
            "a",
            "b",
            "ab",
            "ba",
            "aab",
            "abb",
            "abcdefg",
            "abcdefh",
            "abcdefgh",
            "abcdefgi",
            "abcdefghijklmnop",
            "abcdefghXjklmnop",
            "abcdefghijklmnopq",
            "abcdefghijXlmnopq",
            "",
            "ä",
            "a\u{0}",
        ];
        for k in keys {
            assert!(set.insert(k), "{k:?} is new");
        }
        for k in keys {
            assert!(!set.insert(k), "{k:?} is there");
        }
        // Past the linear part: a hash set, with the keys before it.
        for i in 0..40 {
            assert!(set.insert(&format!("k{i}")));
            assert!(set.insert(&format!("a rather long key number {i}")));
        }
        assert!(!set.insert("a rather long key number 7"));
        for k in keys {
            assert!(!set.insert(k), "{k:?} is there after the move");
        }
        assert!(!set.insert("k39") && set.insert("k40"));
        // Too big to keep, but empty after the reset.
        assert!(!set.reset());
        assert!(set.insert("a") && !set.insert("a"));
        let mut small = KeySet::default();
        small.expect(1000);
        assert!(small.insert("x") && small.reset());
    }
}
