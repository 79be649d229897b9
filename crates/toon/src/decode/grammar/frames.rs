//! The open containers of the pull decoder, one frame each, with the state their
//! strict-mode checks need.

use std::collections::HashSet;

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
    /// Items of an expanded list (`- item` lines).
    List(ListFrame),
    /// Rows of a tabular array (boxed: the commonest frames, objects, stay small to
    /// push and pop).
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
    /// Keys so far (strict mode only).
    pub seen: Option<KeySet>,
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
    pub seen: Option<KeySet>,
    pub rows: RowCache,
}

/// Keys an object holds before its duplicate check moves from a list to a hash set.
const LINEAR_KEYS: usize = 16;

/// The keys of one object, for the strict duplicate check: each as its [`Print`],
/// which tells keys of up to [`PRINTED`] bytes apart exactly; longer keys also keep
/// their text, compared when the prints match. No allocation per key (the set is
/// recycled between objects) until an object has more than [`LINEAR_KEYS`] keys.
#[derive(Default)]
pub(crate) struct KeySet {
    /// Per key: its print and its text's end in `long`.
    keys: Vec<(Print, usize)>,
    /// The text of the keys longer than [`PRINTED`], one after another.
    long: Vec<u8>,
    /// Past [`LINEAR_KEYS`]: the keys by print, with the text of long ones.
    set: Option<HashSet<(Print, Box<[u8]>)>>,
}

/// Keys up to this length are told apart by their print alone.
const PRINTED: usize = 16;

/// A key's length and two words of its bytes: for 8 bytes or more its first and last
/// 8; for 4 to 7 its first and last 4; for 1 to 3 its first, middle and last byte. A
/// print determines a key of up to [`PRINTED`] bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Print([u64; 2], usize);

impl Print {
    fn of(key: &[u8]) -> Print {
        let n = key.len();
        let word = |at: usize| {
            key.get(at..at + 8)
                .and_then(|w| w.try_into().ok())
                .map_or(0, u64::from_le_bytes)
        };
        let half = |at: usize| {
            key.get(at..at + 4)
                .and_then(|w| w.try_into().ok())
                .map_or(0, |w| u64::from(u32::from_le_bytes(w)))
        };
        let byte = |at: usize| key.get(at).map_or(0, |&b| u64::from(b));
        let words = match n {
            8.. => [word(0), word(n - 8)],
            4..8 => [half(0) | half(n - 4) << 32, 0],
            1..4 => [byte(0) | byte(n / 2) << 8 | byte(n - 1) << 16, 0],
            0 => [0, 0],
        };
        Print(words, n)
    }
}

/// The text a print needs beside it: none for keys it determines.
fn long_text(key: &[u8]) -> &[u8] {
    if key.len() > PRINTED { key } else { &[] }
}

impl KeySet {
    /// Adds `key`; false if it was there already.
    pub fn insert(&mut self, key: &str) -> bool {
        let bytes = key.as_bytes();
        let mark = Print::of(bytes);
        if let Some(set) = &mut self.set {
            return set.insert((mark, long_text(bytes).into()));
        }
        let mut start = 0;
        for &(other, end) in &self.keys {
            if other == mark && (mark.1 <= PRINTED || self.long.get(start..end) == Some(bytes)) {
                return false;
            }
            start = end;
        }
        if self.keys.len() < LINEAR_KEYS {
            self.long.extend_from_slice(long_text(bytes));
            self.keys.push((mark, self.long.len()));
            return true;
        }
        let mut set = HashSet::with_capacity(LINEAR_KEYS * 2);
        let mut start = 0;
        for &(print, end) in &self.keys {
            let text = self.long.get(start..end).unwrap_or_default();
            set.insert((print, text.into()));
            start = end;
        }
        set.insert((mark, long_text(bytes).into()));
        self.keys.clear();
        self.long.clear();
        self.set = Some(set);
        true
    }

    /// Empties the set for reuse; false if it holds more memory than is worth keeping.
    pub fn reset(&mut self) -> bool {
        self.keys.clear();
        self.long.clear();
        self.set = None;
        self.long.capacity() <= 1024
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
        assert!(set.reset());
        assert!(set.insert("a"));
    }
}
