//! The keys of maps already written, kept per nesting level, so that the next map
//! at that level with the same keys (the usual case: sibling records, a
//! `serde_json::Value` per row) takes its keys from the kept list instead of copying
//! each one and checking it for a repeat by fingerprint.
//!
//! A map's keys are only borrowed while it serializes them, so each key is compared
//! with the kept list: a key found on the list after the previous one is distinct
//! from the map's earlier keys (they form a subsequence of a list of distinct keys),
//! and the list also says whether it may be written unquoted (spec §7.3). A key off
//! the list starts a fresh list — the map's keys so far, then each later key copied
//! and checked by fingerprint as before — which replaces the kept one once the map
//! is written. Which list is found decides only how often the shortcut applies,
//! never an answer.

use super::super::adapter::{Halt, Res};
use super::super::keys::KeySet;
use crate::encode::line::quote::is_unquoted_key;

/// Lists kept per nesting level, direct-mapped by their first key.
const SLOTS_PER_LEVEL: usize = 8;

/// Keys at most in a list (a bit per key records which of them a map has written);
/// a map's later keys are checked and written, not kept.
const MAX_KEYS: usize = 64;

/// Spare states kept for reuse at most.
const MAX_SPARE: usize = 16;

/// Whether two keys have the same bytes: short keys are compared as a few
/// overlapping words (no call to `memcmp`).
#[inline]
fn same_text(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    match (a.first_chunk::<8>(), b.first_chunk::<8>()) {
        (Some(a8), Some(b8)) if a.len() <= 16 => {
            a8 == b8 && a.last_chunk::<8>() == b.last_chunk::<8>()
        }
        (Some(_), Some(_)) => a == b,
        _ => match (a.first_chunk::<4>(), b.first_chunk::<4>()) {
            (Some(a4), Some(b4)) => a4 == b4 && a.last_chunk::<4>() == b.last_chunk::<4>(),
            _ => a == b,
        },
    }
}

/// Distinct map keys in order, each with whether it may be written unquoted.
#[derive(Default)]
struct KeyList {
    /// The keys and their quoting; entries from `len` on are spare buffers.
    keys: Vec<(String, bool)>,
    len: usize,
}

impl KeyList {
    fn push(&mut self, key: &str, plain: bool) {
        match self.keys.get_mut(self.len) {
            Some(entry) => {
                entry.0.clear();
                entry.0.push_str(key);
                entry.1 = plain;
            }
            None => self.keys.push((key.to_owned(), plain)),
        }
        self.len += 1;
    }

    /// The keys in order.
    #[inline]
    fn keys(&self) -> &[(String, bool)] {
        self.keys.get(..self.len).unwrap_or_default()
    }
}

/// The slot of the lists whose first key is `key`, from its length and its first
/// and last bytes.
#[inline]
fn slot_of(key: &str) -> usize {
    let b = key.as_bytes();
    let first = b.first().map_or(0, |&c| usize::from(c));
    let last = b.last().map_or(0, |&c| usize::from(c));
    (first ^ last << 2 ^ b.len().wrapping_mul(3)) % SLOTS_PER_LEVEL
}

/// The key lists of maps written so far, by level and first key, and spare states.
#[derive(Default)]
pub(crate) struct MapKeyLists {
    levels: Vec<[Option<Box<MapKeys>>; SLOTS_PER_LEVEL]>,
    /// Boxed as they are handed out: a state moves as a pointer.
    #[allow(clippy::vec_box)]
    spare: Vec<Box<MapKeys>>,
}

/// The keys of one map being written (boxed, so that the map's writer stays
/// small), kept once it is written as the list the next map of its level and first
/// key follows.
#[derive(Default)]
pub(super) struct MapKeys {
    /// The list followed, or this map's own keys once one was off the list.
    list: KeyList,
    /// The buffers of the other list.
    other: KeyList,
    /// The slot of the map's first key in its level.
    slot: usize,
    /// Whether `list` is followed (else it is this map's own keys).
    following: bool,
    /// The next list position a key is looked for from.
    next: usize,
    /// The positions of the keys written, while following.
    written: u64,
    /// The position of the pending key in `list` ([`EXTRA`]: `extra`).
    pending: usize,
    /// A key past the first [`MAX_KEYS`] of the map's own list (not kept), and its
    /// quoting.
    extra: (String, bool),
}

/// The pending key is `MapKeys::extra`.
const EXTRA: usize = usize::MAX;

impl MapKeyLists {
    /// The state for a map whose first key is `key`: the list of this level that
    /// starts with `key` to follow, if there is one, else a fresh one holding it
    /// (its fingerprint put in `seen`).
    #[inline]
    pub(super) fn first(
        &mut self,
        key: &str,
        level: usize,
        seen: &mut Option<Box<KeySet>>,
    ) -> Box<MapKeys> {
        let slot = slot_of(key);
        let found = self
            .levels
            .get_mut(level)
            .and_then(|slots| slots.get_mut(slot))
            .and_then(|kept| {
                kept.take_if(|kept| {
                    kept.list
                        .keys()
                        .first()
                        .is_some_and(|k| same_text(&k.0, key))
                })
            });
        if let Some(mut state) = found {
            state.following = true;
            state.next = 1;
            state.written = 1;
            state.pending = 0;
            return state;
        }
        if let Some(seen) = seen {
            seen.insert(key);
        }
        let mut state = self.spare.pop().unwrap_or_default();
        state.slot = slot;
        state.following = false;
        state.list.len = 0;
        state.list.push(key, is_unquoted_key(key));
        state.pending = 0;
        state
    }
}

impl MapKeys {
    /// Takes `key` as the map's next key (not the first): found on the followed
    /// list, or added to the map's own list after a check for a repeat
    /// ([`Halt::Repeat`]) against `seen`, the fingerprints of the map's keys when
    /// repeats are checked.
    #[inline]
    pub(super) fn key(&mut self, key: &str, seen: &mut Option<Box<KeySet>>) -> Res<()> {
        if self.following {
            if self.follow(key) {
                return Ok(());
            }
            self.leave(seen);
        }
        self.add(key, seen)
    }

    /// Finds `key` on the followed list after the previous key.
    #[inline]
    fn follow(&mut self, key: &str) -> bool {
        let keys = self.list.keys();
        let keys = keys.get(..keys.len().min(MAX_KEYS)).unwrap_or_default();
        for (at, (kept, _)) in keys.iter().enumerate().skip(self.next) {
            if same_text(kept, key) {
                self.pending = at;
                self.next = at + 1;
                self.written |= 1 << at;
                return true;
            }
        }
        false
    }

    /// Stops following: the keys written so far start the map's own list, and
    /// their fingerprints go into `seen`.
    #[cold]
    #[inline(never)]
    fn leave(&mut self, seen: &mut Option<Box<KeySet>>) {
        self.following = false;
        let mut own = std::mem::take(&mut self.other);
        own.len = 0;
        for (i, (key, plain)) in self.list.keys().iter().enumerate().take(MAX_KEYS) {
            if self.written >> i & 1 == 1 {
                own.push(key, *plain);
                if let Some(seen) = seen {
                    // The keys are distinct; a shared fingerprint only means a later
                    // key with it is taken for a repeat (the slower, exact route).
                    seen.insert(key);
                }
            }
        }
        self.other = std::mem::replace(&mut self.list, own);
    }

    /// Adds `key` to the map's own list, unless it repeats one ([`Halt::Repeat`]).
    fn add(&mut self, key: &str, seen: &mut Option<Box<KeySet>>) -> Res<()> {
        if let Some(seen) = seen
            && !seen.insert(key)
        {
            return Err(Halt::Repeat);
        }
        if self.list.len < MAX_KEYS {
            self.list.push(key, is_unquoted_key(key));
            self.pending = self.list.len - 1;
        } else {
            self.extra.0.clear();
            self.extra.0.push_str(key);
            self.extra.1 = is_unquoted_key(key);
            self.pending = EXTRA;
        }
        Ok(())
    }

    /// The pending key and whether it may be written unquoted.
    #[inline]
    pub(super) fn pending(&self) -> (&str, bool) {
        // Positions past the list's length are never pending (`add` sets them).
        let (key, plain) = match self.list.keys.get(self.pending) {
            Some(entry) => entry,
            None => &self.extra,
        };
        (key, *plain)
    }

    /// Keeps the state once the map is written, as the list the next map of its
    /// level and first key follows (the followed list, or the map's own keys).
    pub(super) fn finish(self: Box<Self>, lists: &mut MapKeyLists, level: usize) {
        if lists.levels.len() <= level {
            lists.levels.resize_with(level + 1, Default::default);
        }
        let slot = self.slot;
        let old = match lists.levels.get_mut(level).and_then(|s| s.get_mut(slot)) {
            Some(kept) => kept.replace(self),
            None => Some(self),
        };
        if let Some(old) = old
            && lists.spare.len() < MAX_SPARE
        {
            lists.spare.push(old);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes one map's keys through the lists; `Err` on a repeat.
    fn map(lists: &mut MapKeyLists, keys: &[&str]) -> Result<Vec<(String, bool)>, ()> {
        let mut seen = Some(Box::<KeySet>::default());
        let mut got = Vec::new();
        let mut state: Option<Box<MapKeys>> = None;
        for key in keys {
            match &mut state {
                Some(state) => state.key(key, &mut seen).map_err(|_| ())?,
                None => state = Some(lists.first(key, 2, &mut seen)),
            }
            if let Some(state) = &state {
                let (pending, plain) = state.pending();
                got.push((pending.to_string(), plain));
            }
        }
        if let Some(state) = state {
            state.finish(lists, 2);
        }
        Ok(got)
    }

    fn plain(keys: &[&str]) -> Vec<(String, bool)> {
        keys.iter()
            .map(|k| (k.to_string(), is_unquoted_key(k)))
            .collect()
    }

    #[test]
    fn kept_keys_are_followed_and_repeats_are_still_found() {
        let mut lists = MapKeyLists::default();
        let full = ["id", "a b", "error", "z"];
        assert_eq!(map(&mut lists, &full), Ok(plain(&full)));
        // A subsequence of the kept list follows it.
        assert_eq!(map(&mut lists, &["id", "z"]), Ok(plain(&["id", "z"])));
        // A key before the cursor is a repeat, found by fingerprint.
        assert_eq!(map(&mut lists, &["id", "error", "id"]), Err(()));
        assert_eq!(
            map(&mut lists, &["id", "z", "a b"]),
            Ok(plain(&["id", "z", "a b"]))
        );
        // The list is now the last map's keys; repeats of them are found.
        assert_eq!(map(&mut lists, &["id", "z", "a b", "z"]), Err(()));
        assert_eq!(map(&mut lists, &["id", "a b"]), Ok(plain(&["id", "a b"])));
        // Maps with another first key keep their own lists.
        for round in 0..3 {
            for first in ["p", "q", "r"] {
                let keys = [first, "x", "y"];
                assert_eq!(map(&mut lists, &keys), Ok(plain(&keys)), "{round}");
            }
        }
        assert_eq!(map(&mut lists, &["p", "y", "y"]), Err(()));
    }

    #[test]
    fn keys_compare_by_every_byte() {
        let base = "abcdefghijklmnopqrstuvwxyz";
        for len in 0..=base.len() {
            let a = &base[..len];
            assert!(same_text(a, a), "{a}");
            assert!(!same_text(a, &base[..len.saturating_sub(1)]) || len == 0);
            for at in 0..len {
                let mut b = a.as_bytes().to_vec();
                b[at] = b'_';
                let b = String::from_utf8(b).expect("ascii");
                assert!(!same_text(a, &b), "{a} {b}");
            }
        }
    }
}
