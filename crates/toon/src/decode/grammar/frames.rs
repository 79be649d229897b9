//! The open containers of the pull decoder, one frame each, with the state their
//! strict-mode checks need.

use std::hash::BuildHasher;

use hashbrown::HashTable;
use hashbrown::hash_table::Entry;

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

/// Stored keys one lookup may compare with before the set takes its hasher for
/// adversarial: with a sound hash a lookup compares with about one key, so this many
/// means keys built to collide under the fast hasher's seed.
const COLLISIONS: usize = 32;

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
    hasher: KeyHasher,
}

/// The hash of a [`KeySet`]'s index. Every set starts with foldhash (a fast hash made
/// for hash tables, seeded per set; hashbrown's default, already in the dependency
/// tree through indexmap and serde_json), about a tenth of SipHash's cost on short
/// keys. A lookup that meets more than [`COLLISIONS`] colliding keys rebuilds the
/// index with the standard library's keyed SipHash, so keys crafted to collide under
/// one seed cost one rebuild, not a comparison with every key before them.
enum KeyHasher {
    Fast(foldhash::fast::RandomState),
    Keyed(std::hash::RandomState),
    /// Every key at one hash: the worst case, for the tests.
    #[cfg(test)]
    Colliding,
}

impl KeyHasher {
    #[inline]
    fn hash(&self, print: Print, text: &[u8]) -> u64 {
        // A print determines a key of up to `PRINTED` bytes: its words and length are
        // hashed, not its text.
        fn with(state: &impl BuildHasher, print: Print, text: &[u8]) -> u64 {
            if print.1 <= PRINTED {
                state.hash_one((print.0[0], print.0[1], print.1))
            } else {
                state.hash_one(text)
            }
        }
        match self {
            KeyHasher::Fast(s) => with(s, print, text),
            KeyHasher::Keyed(s) => with(s, print, text),
            #[cfg(test)]
            KeyHasher::Colliding => 0,
        }
    }
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

    /// Whether key `i` is `print` with text `text` (compared only for long keys).
    #[inline]
    fn is(&self, i: usize, print: Print, text: &[u8]) -> bool {
        self.keys.get(i).is_some_and(|k| k.0 == print)
            && (print.1 <= PRINTED || self.text(i) == text)
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
        if self.hashed.is_none() {
            let mut start = 0;
            for &(other, end) in &self.keys {
                if other == mark && (mark.1 <= PRINTED || self.long.get(start..end) == Some(bytes))
                {
                    return false;
                }
                start = end;
            }
            if self.keys.len() < LINEAR_KEYS {
                self.push(mark, bytes);
                return true;
            }
            self.hashed = Some(self.index(KeyHasher::Fast(Default::default())));
        }
        match self.insert_hashed(mark, bytes) {
            Some(new) => new,
            None => {
                // Too many collisions: the same lookup under a keyed hash.
                self.hashed = Some(self.index(KeyHasher::Keyed(Default::default())));
                self.insert_hashed(mark, bytes).unwrap_or(true)
            }
        }
    }

    /// Appends a key not in the set (its text kept if its print does not determine it).
    #[inline]
    fn push(&mut self, print: Print, text: &[u8]) {
        if print.1 > PRINTED {
            self.long.extend_from_slice(text);
        }
        self.keys.push((print, self.long.len()));
    }

    /// A hash index of the keys so far under `hasher`.
    fn index(&self, hasher: KeyHasher) -> Hashed {
        let capacity = self
            .expected
            .max(self.keys.len())
            .clamp(LINEAR_KEYS * 2, 1 << 16);
        let mut table = HashTable::with_capacity(capacity);
        for (i, &(print, _)) in self.keys.iter().enumerate() {
            let hash = hasher.hash(print, self.text(i));
            table.insert_unique(hash, i, |&j| {
                let print = self.keys.get(j).map_or(print, |k| k.0);
                hasher.hash(print, self.text(j))
            });
        }
        Hashed { table, hasher }
    }

    /// Adds a key through the hash index (one probe finds it or its slot): whether it
    /// is new, or `None` when the probe met more than [`COLLISIONS`] colliding keys
    /// under the fast hasher (the key not added).
    fn insert_hashed(&mut self, print: Print, text: &[u8]) -> Option<bool> {
        let Some(Hashed { table, hasher }) = self.hashed.take() else {
            return Some(true);
        };
        let hash = hasher.hash(print, text);
        let mut compared = 0usize;
        let mut table = table;
        let at = self.keys.len();
        let entry = table.entry(
            hash,
            |&i| {
                compared += 1;
                self.is(i, print, text)
            },
            |&j| {
                let print = self.keys.get(j).map_or(print, |k| k.0);
                hasher.hash(print, self.text(j))
            },
        );
        let outcome = match entry {
            Entry::Occupied(_) => Some(false),
            Entry::Vacant(_) if compared > COLLISIONS && !matches!(hasher, KeyHasher::Keyed(_)) => {
                None
            }
            Entry::Vacant(slot) => {
                slot.insert(at);
                Some(true)
            }
        };
        if outcome == Some(true) {
            self.push(print, text);
        }
        self.hashed = Some(Hashed { table, hasher });
        outcome
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
    use super::{COLLISIONS, KeyHasher, KeySet};

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

    #[test]
    fn keys_built_to_collide_move_the_set_to_the_keyed_hash() {
        // Past the linear part every key hashes alike under the test's hasher, as keys
        // built against the fast hasher's seed would: within a few lookups the set
        // rebuilds its index under the keyed hash, and 100,000 keys are then checked
        // at about one comparison each (at every key, a quadratic walk would not end
        // in a test's time).
        let mut set = KeySet::default();
        set.expect(100_000);
        let mut moved_at = None;
        for i in 0..100_000 {
            let key = if i % 2 == 0 {
                format!("k{i}")
            } else {
                format!("a long key number {i}")
            };
            assert!(set.insert(&key), "{key} is new");
            if i == super::LINEAR_KEYS {
                assert!(set.hashed.is_some(), "hashed past the linear part");
                set.hashed = Some(set.index(KeyHasher::Colliding));
            }
            let keyed = set
                .hashed
                .as_ref()
                .is_some_and(|h| matches!(h.hasher, KeyHasher::Keyed(_)));
            if keyed && moved_at.is_none() {
                moved_at = Some(i);
            }
            assert!(
                moved_at.is_some() || i <= super::LINEAR_KEYS + COLLISIONS + 2,
                "still on the colliding hash at key {i}"
            );
        }
        for i in [0, 1, 17, 18, 49, 50, 99_998, 99_999] {
            let key = if i % 2 == 0 {
                format!("k{i}")
            } else {
                format!("a long key number {i}")
            };
            assert!(!set.insert(&key), "{key} is there");
        }
        assert!(set.insert("k100000"));
    }
}
