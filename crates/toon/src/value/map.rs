//! [`Map`]: an object's entries in document order, searched linearly while small.

use std::fmt;
use std::hash::{BuildHasher, RandomState};

use hashbrown::HashTable;

use super::map_iter::{IntoIter, Iter, IterMut};
use super::{Key, Value};

/// An object: its entries in document order.
///
/// The entries are one vector of `(Key, Value)` pairs. Objects of up to
/// [`INDEX_AFTER`] keys (nearly all of them) are searched linearly, which costs less
/// than hashing the key; larger ones also keep a hash index of positions, so a lookup
/// stays constant-time. The API follows `serde_json::Map` (with its `preserve_order`
/// feature) and the parts of `indexmap::IndexMap` that positions make natural:
///
/// - building: [`new`](Map::new), [`with_capacity`](Map::with_capacity),
///   [`insert`](Map::insert), `FromIterator`, `Extend`, `Default`, `Clone`;
/// - reading: [`len`](Map::len), [`is_empty`](Map::is_empty), [`get`](Map::get),
///   [`get_key_value`](Map::get_key_value), [`contains_key`](Map::contains_key),
///   [`get_index_of`](Map::get_index_of), [`get_index`](Map::get_index),
///   [`first`](Map::first), [`last`](Map::last), `map["key"]`;
/// - changing: [`get_mut`](Map::get_mut), [`get_index_mut`](Map::get_index_mut),
///   [`pop`](Map::pop), [`remove`](Map::remove) / [`shift_remove`](Map::shift_remove) (both keep the order
///   of the other entries), [`shift_remove_index`](Map::shift_remove_index),
///   [`retain`](Map::retain), [`truncate`](Map::truncate), [`reverse`](Map::reverse),
///   [`sort_keys`](Map::sort_keys), [`clear`](Map::clear);
/// - iterating in document order: [`iter`](Map::iter), [`iter_mut`](Map::iter_mut),
///   [`keys`](Map::keys), [`values`](Map::values), [`values_mut`](Map::values_mut),
///   `IntoIterator` for `Map` and `&Map`.
///
/// Keys are [`Key`]s (short keys inline, see there); methods that take a key take
/// `&str`, and those that store one take anything that converts into a `Key`
/// (`&str`, `String`, `Key`). Two maps are equal when they hold the same keys with
/// equal values, in any order, as for `IndexMap` and `serde_json::Map`.
///
/// ```
/// let mut m = toon::Map::new();
/// assert_eq!(m.insert("b", 1.into()), None);
/// m.insert("a", 2.into());
/// assert_eq!(m.insert("b", 3.into()), Some(1.into())); // keeps its position
/// assert_eq!(m.keys().map(|k| k.as_str()).collect::<Vec<_>>(), ["b", "a"]);
/// assert_eq!(m["b"], toon::Value::from(3));
/// ```
#[derive(Clone, Default)]
pub struct Map {
    entries: Vec<(Key, Value)>,
    index: Option<Box<Index>>,
}

/// Maps with more entries than this keep a hash index; smaller ones are searched
/// linearly. Measured with callgrind on maps of `field_N` keys, building a map by
/// `insert` and looking every key up once costs less by linear search up to about 40
/// keys (24 keys: 22 k instructions linear, 28 k hashed); hashing sooner would favour
/// maps read many times, later would let a large object's inserts grow quadratically
/// for longer.
pub const INDEX_AFTER: usize = 24;

/// Positions in `entries`, hashed by their key.
#[derive(Clone)]
struct Index {
    table: HashTable<usize>,
    hasher: RandomState,
}

impl Index {
    fn hash(&self, key: &str) -> u64 {
        self.hasher.hash_one(key)
    }

    fn build(entries: &[(Key, Value)]) -> Box<Index> {
        let mut index = Box::new(Index {
            table: HashTable::with_capacity(entries.len()),
            hasher: RandomState::new(),
        });
        for (i, (k, _)) in entries.iter().enumerate() {
            let hash = index.hash(k);
            let hasher = &index.hasher;
            index
                .table
                .insert_unique(hash, i, |&j| hasher.hash_one(entries[j].0.as_str()));
        }
        index
    }

    fn find(&self, entries: &[(Key, Value)], key: &str) -> Option<usize> {
        self.table
            .find(self.hash(key), |&i| entries[i].0.as_str() == key)
            .copied()
    }

    fn push(&mut self, entries: &[(Key, Value)], position: usize) {
        let hash = self.hash(&entries[position].0);
        let hasher = &self.hasher;
        self.table
            .insert_unique(hash, position, |&j| hasher.hash_one(entries[j].0.as_str()));
    }
}

impl Map {
    /// An empty map.
    #[inline]
    pub fn new() -> Map {
        Map {
            entries: Vec::new(),
            index: None,
        }
    }

    /// An empty map with room for `capacity` entries.
    #[inline]
    pub fn with_capacity(capacity: usize) -> Map {
        Map {
            entries: Vec::with_capacity(capacity),
            index: None,
        }
    }

    /// The number of entries.
    #[inline]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when the map has no entries.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.index = None;
    }

    /// The position of `key`, if present.
    #[inline]
    pub fn get_index_of(&self, key: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.find(&self.entries, key),
            None => self.entries.iter().position(|(k, _)| k.as_str() == key),
        }
    }

    /// Sets `key` to `value`. A new key goes last; a key already present keeps its
    /// position, takes the new value and the old value is returned (as JavaScript's
    /// `JSON.parse` treats a repeated key).
    pub fn insert(&mut self, key: impl Into<Key>, value: Value) -> Option<Value> {
        let key = key.into();
        match self.get_index_of(&key) {
            Some(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            None => {
                self.push_unique(key, value);
                None
            }
        }
    }

    /// Appends an entry whose key the caller knows is not in the map yet (a decoder
    /// that already rejected duplicates). A repeated key would make the map hold it
    /// twice, with lookups finding the first.
    #[inline]
    pub(crate) fn push_unique(&mut self, key: Key, value: Value) {
        // Small maps without an index (nearly all of them) only push: the call stays
        // small enough to inline into a decoder's sink.
        if self.index.is_none() && self.entries.len() < INDEX_AFTER {
            self.entries.push((key, value));
        } else {
            self.push_indexed(key, value);
        }
    }

    /// [`Map::push_unique`] on a map that has an index or gets one with this entry.
    #[inline(never)]
    fn push_indexed(&mut self, key: Key, value: Value) {
        self.entries.push((key, value));
        match &mut self.index {
            Some(index) => index.push(&self.entries, self.entries.len() - 1),
            None if self.entries.len() > INDEX_AFTER => {
                self.index = Some(Index::build(&self.entries));
            }
            None => {}
        }
    }

    /// A map of `entries`, whose keys the caller knows to differ (a table row built
    /// from its header's field names, which were checked once).
    #[inline]
    pub(crate) fn from_unique_entries(entries: Vec<(Key, Value)>) -> Map {
        let index = (entries.len() > INDEX_AFTER).then(|| Index::build(&entries));
        Map { entries, index }
    }

    /// The value of `key`.
    #[inline]
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.get_index_of(key).map(|i| &self.entries[i].1)
    }

    /// The stored key and value of `key`.
    pub fn get_key_value(&self, key: &str) -> Option<(&Key, &Value)> {
        self.get_index_of(key).map(|i| {
            let (k, v) = &self.entries[i];
            (k, v)
        })
    }

    /// The value of `key`, to change it.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.get_index_of(key).map(|i| &mut self.entries[i].1)
    }

    /// True when `key` is present.
    #[inline]
    pub fn contains_key(&self, key: &str) -> bool {
        self.get_index_of(key).is_some()
    }

    /// The entry at position `i`.
    #[inline]
    pub fn get_index(&self, i: usize) -> Option<(&Key, &Value)> {
        self.entries.get(i).map(|(k, v)| (k, v))
    }

    /// The entry at position `i`, with its value to change.
    #[inline]
    pub fn get_index_mut(&mut self, i: usize) -> Option<(&Key, &mut Value)> {
        self.entries.get_mut(i).map(|(k, v)| (&*k, v))
    }

    /// The first entry.
    pub fn first(&self) -> Option<(&Key, &Value)> {
        self.get_index(0)
    }

    /// The last entry.
    pub fn last(&self) -> Option<(&Key, &Value)> {
        self.entries.last().map(|(k, v)| (k, v))
    }

    /// Removes `key` and returns its value; the entries after it move up one position.
    pub fn shift_remove(&mut self, key: &str) -> Option<Value> {
        self.shift_remove_entry(key).map(|(_, v)| v)
    }

    /// Removes `key` and returns it with its value; the entries after it move up.
    pub fn shift_remove_entry(&mut self, key: &str) -> Option<(Key, Value)> {
        let i = self.get_index_of(key)?;
        let entry = self.entries.remove(i);
        self.reindex();
        Some(entry)
    }

    /// Removes the entry at position `i`; the entries after it move up one position.
    pub fn shift_remove_index(&mut self, i: usize) -> Option<(Key, Value)> {
        if i >= self.entries.len() {
            return None;
        }
        let entry = self.entries.remove(i);
        self.reindex();
        Some(entry)
    }

    /// Removes `key` and returns its value, keeping the order of the other entries
    /// (the same as [`shift_remove`](Map::shift_remove)).
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        self.shift_remove(key)
    }

    /// Removes `key` and returns it with its value, keeping the order of the others.
    pub fn remove_entry(&mut self, key: &str) -> Option<(Key, Value)> {
        self.shift_remove_entry(key)
    }

    /// Removes the last entry and returns it.
    pub fn pop(&mut self) -> Option<(Key, Value)> {
        let entry = self.entries.pop()?;
        if let Some(index) = &mut self.index {
            let hash = index.hash(&entry.0);
            let last = self.entries.len();
            if let Ok(slot) = index.table.find_entry(hash, |&i| i == last) {
                slot.remove();
            }
        }
        Some(entry)
    }

    /// Keeps the entries for which `keep` returns true, in their order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Key, &mut Value) -> bool) {
        self.entries.retain_mut(|(k, v)| keep(k, v));
        self.reindex();
    }

    /// Keeps the first `len` entries.
    pub fn truncate(&mut self, len: usize) {
        if len < self.entries.len() {
            self.entries.truncate(len);
            self.reindex();
        }
    }

    /// Reverses the order of the entries.
    pub fn reverse(&mut self) {
        self.entries.reverse();
        self.reindex();
    }

    /// Sorts the entries by key.
    pub fn sort_keys(&mut self) {
        self.entries.sort_by(|a, b| a.0.cmp(&b.0));
        self.reindex();
    }

    /// Rebuilds the index after entries moved, or drops it when the map is small.
    fn reindex(&mut self) {
        self.index = (self.entries.len() > INDEX_AFTER).then(|| Index::build(&self.entries));
    }

    /// The entries in order.
    #[inline]
    pub fn iter(&self) -> Iter<'_> {
        Iter(self.entries.iter())
    }

    /// The entries in order, with values to change.
    pub fn iter_mut(&mut self) -> IterMut<'_> {
        IterMut(self.entries.iter_mut())
    }

    /// The keys in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &Key> + ExactSizeIterator {
        self.entries.iter().map(|(k, _)| k)
    }

    /// The values in order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Value> + ExactSizeIterator {
        self.entries.iter().map(|(_, v)| v)
    }

    /// The values in order, to change them.
    pub fn values_mut(
        &mut self,
    ) -> impl DoubleEndedIterator<Item = &mut Value> + ExactSizeIterator {
        self.entries.iter_mut().map(|(_, v)| v)
    }

    /// The keys in order, consuming the map.
    pub fn into_keys(self) -> impl DoubleEndedIterator<Item = Key> + ExactSizeIterator {
        self.entries.into_iter().map(|(k, _)| k)
    }

    /// The values in order, consuming the map.
    pub fn into_values(self) -> impl DoubleEndedIterator<Item = Value> + ExactSizeIterator {
        self.entries.into_iter().map(|(_, v)| v)
    }
}

/// Equal when both hold the same keys with equal values, in any order.
impl PartialEq for Map {
    fn eq(&self, other: &Map) -> bool {
        if self.len() != other.len() {
            return false;
        }
        // Maps built from the same document have their keys in the same order.
        if self
            .entries
            .iter()
            .zip(&other.entries)
            .all(|((ka, va), (kb, vb))| ka == kb && va == vb)
        {
            return true;
        }
        self.iter().all(|(k, v)| other.get(k) == Some(v))
    }
}

impl fmt::Debug for Map {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl std::ops::Index<&str> for Map {
    type Output = Value;

    /// The value of `key`.
    ///
    /// # Panics
    /// When the key is missing, as `serde_json::Map` and `IndexMap` do; use
    /// [`Map::get`] or index a [`Value`] (missing keys give `null`) instead.
    fn index(&self, key: &str) -> &Value {
        match self.get(key) {
            Some(v) => v,
            None => panic!("no entry for key {key:?}"),
        }
    }
}

impl std::ops::IndexMut<&str> for Map {
    /// The value of `key`, to change it.
    ///
    /// # Panics
    /// When the key is missing.
    fn index_mut(&mut self, key: &str) -> &mut Value {
        match self.get_mut(key) {
            Some(v) => v,
            None => panic!("no entry for key {key:?}"),
        }
    }
}

impl<K: Into<Key>> FromIterator<(K, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (K, Value)>>(iter: I) -> Map {
        let iter = iter.into_iter();
        let mut map = Map::with_capacity(iter.size_hint().0.min(4096));
        map.extend(iter);
        map
    }
}

impl<K: Into<Key>> Extend<(K, Value)> for Map {
    fn extend<I: IntoIterator<Item = (K, Value)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

impl IntoIterator for Map {
    type Item = (Key, Value);
    type IntoIter = IntoIter;

    fn into_iter(self) -> IntoIter {
        IntoIter(self.entries.into_iter())
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a Key, &'a Value);
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut Map {
    type Item = (&'a Key, &'a mut Value);
    type IntoIter = IterMut<'a>;

    fn into_iter(self) -> IterMut<'a> {
        self.iter_mut()
    }
}

impl serde::Serialize for Map {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = serializer.serialize_map(Some(self.len()))?;
        for (k, v) in self {
            crate::stack::guarded(|| m.serialize_entry(k.as_str(), v))?;
        }
        m.end()
    }
}

impl<'de> serde::Deserialize<'de> for Map {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Map, D::Error> {
        match <Value as serde::Deserialize>::deserialize(d)? {
            Value::Object(map) => Ok(map),
            other => Err(serde::de::Error::custom(format!(
                "expected an object, found {}",
                crate::value::describe(&other)
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{INDEX_AFTER, Map};
    use crate::Value;

    /// Every operation agrees with a plain list of pairs, below and above the size at
    /// which the map starts hashing.
    #[test]
    fn map_agrees_with_a_list_of_pairs() {
        for n in [0, 3, INDEX_AFTER, INDEX_AFTER + 1, 40] {
            let mut map = Map::new();
            let mut pairs: Vec<(String, Value)> = Vec::new();
            // Insert keys in a scrambled order, some twice.
            for i in (0..n).map(|i| (i * 7) % n.max(1)).chain(0..n / 2) {
                let key = format!("k{i}");
                let value = Value::from(i + pairs.len());
                let old = map.insert(key.as_str(), value.clone());
                match pairs.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, v)) => assert_eq!(old, Some(std::mem::replace(v, value))),
                    None => {
                        assert_eq!(old, None);
                        pairs.push((key, value));
                    }
                }
            }
            let check = |map: &Map, pairs: &[(String, Value)]| {
                assert_eq!(map.len(), pairs.len());
                let listed: Vec<(String, Value)> = map
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.clone()))
                    .collect();
                assert_eq!(listed, pairs);
                for (i, (k, v)) in pairs.iter().enumerate() {
                    assert_eq!(map.get(k), Some(v));
                    assert_eq!(map.get_index_of(k), Some(i));
                }
                assert_eq!(map.get("absent"), None);
            };
            check(&map, &pairs);
            if n > 2 {
                let gone = pairs.remove(1);
                assert_eq!(map.shift_remove(&gone.0), Some(gone.1.clone()));
                assert_eq!(map.shift_remove(&gone.0), None);
                check(&map, &pairs);
                map.truncate(n / 2);
                pairs.truncate(n / 2);
                check(&map, &pairs);
            }
            let rebuilt: Map = pairs.iter().cloned().collect();
            assert_eq!(rebuilt, map);
            let mut reversed: Map = pairs.iter().rev().cloned().collect();
            assert_eq!(reversed, map, "equality ignores order");
            if let Some((k, _)) = pairs.first() {
                *reversed.get_mut(k).expect("present") = Value::Null;
                assert_ne!(reversed, map);
            }
        }
    }

    /// A value is five words (a tag and the largest payload, a `Map`) and a short key
    /// lives inside its entry: the tree is one vector of 64-byte entries per object,
    /// with no table for small objects.
    #[test]
    fn values_and_entries_stay_small() {
        assert_eq!(size_of::<Value>(), 5 * size_of::<usize>());
        assert_eq!(size_of::<Map>(), 4 * size_of::<usize>());
        assert_eq!(size_of::<super::Key>(), 3 * size_of::<usize>());
    }

    #[test]
    fn retain_and_sort_keep_lookups_right() {
        let mut map: Map = (0..30)
            .rev()
            .map(|i| (format!("k{i:02}"), Value::from(i)))
            .collect();
        map.retain(|_, v| {
            v.as_number()
                .and_then(|n| n.as_i64())
                .is_some_and(|i| i % 3 == 0)
        });
        assert_eq!(map.len(), 10);
        map.sort_keys();
        assert_eq!(map.first().map(|(k, _)| k.as_str()), Some("k00"));
        assert_eq!(map.last().map(|(k, _)| k.as_str()), Some("k27"));
        assert_eq!(map.get("k27"), Some(&Value::from(27)));
        assert_eq!(map.get("k28"), None);
    }
}
