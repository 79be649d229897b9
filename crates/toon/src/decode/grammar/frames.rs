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

/// The keys of one object, for the strict duplicate check. The first keys sit in one
/// text buffer (no allocation per key; the set is recycled between objects).
#[derive(Default)]
pub(crate) struct KeySet {
    /// The first keys, one after another.
    names: String,
    /// The end of each key in `names`.
    ends: Vec<usize>,
    set: Option<HashSet<String>>,
}

impl KeySet {
    /// Adds `key`; false if it was there already.
    pub fn insert(&mut self, key: &str) -> bool {
        if let Some(set) = &mut self.set {
            if set.contains(key) {
                return false;
            }
            set.insert(key.to_owned());
            return true;
        }
        let mut start = 0;
        for &end in &self.ends {
            if &self.names[start..end] == key {
                return false;
            }
            start = end;
        }
        if self.ends.len() < LINEAR_KEYS {
            self.names.push_str(key);
            self.ends.push(self.names.len());
        } else {
            let mut set = HashSet::with_capacity(LINEAR_KEYS * 2);
            let mut start = 0;
            for &end in &self.ends {
                set.insert(self.names[start..end].to_owned());
                start = end;
            }
            set.insert(key.to_owned());
            self.names.clear();
            self.ends.clear();
            self.set = Some(set);
        }
        true
    }

    /// Empties the set for reuse; false if it holds more memory than is worth keeping.
    pub fn reset(&mut self) -> bool {
        self.names.clear();
        self.ends.clear();
        self.set = None;
        self.names.capacity() <= 1024
    }
}
