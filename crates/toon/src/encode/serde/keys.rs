//! Map keys as text (by the rules of `ser/map_key.rs`, without allocating for string
//! keys), and the set of key fingerprints that finds repeated keys.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use serde::ser::{Impossible, Serialize, Serializer};

use super::adapter::{Halt, Res};
use super::map_key::MapKeySerializer;
use crate::Error;

/// Calls `f` with the text that the map key `key` becomes.
pub(crate) fn with_key<K: Serialize + ?Sized, R>(key: &K, f: impl FnOnce(&str) -> R) -> Res<R> {
    key.serialize(KeyText(f))
}

/// Replaces the text in `buf` with the text that the map key `key` becomes (the
/// pending key of a map being written).
pub(crate) fn key_into<K: Serialize + ?Sized>(key: &K, buf: &mut String) -> Res<()> {
    with_key(key, |s| {
        buf.clear();
        buf.push_str(s);
    })
}

/// Serializes a map key and hands its text to the closure.
struct KeyText<F>(F);

fn fail(e: Error) -> Halt {
    Halt::Fail(e)
}

macro_rules! via_map_key {
    ($($method:ident($t:ty)),*) => {$(
        fn $method(self, v: $t) -> Res<R> {
            let text = MapKeySerializer.$method(v).map_err(fail)?;
            Ok((self.0)(&text))
        }
    )*};
}

macro_rules! refused {
    ($($method:ident($($arg:ident: $t:ty),*) -> $ret:ty),*) => {$(
        fn $method(self, $($arg: $t),*) -> Res<$ret> {
            match MapKeySerializer.$method($($arg),*) {
                Err(e) => Err(fail(e)),
                Ok(_) => Err(Halt::Inconsistent),
            }
        }
    )*};
}

impl<R, F: FnOnce(&str) -> R> Serializer for KeyText<F> {
    type Ok = R;
    type Error = Halt;
    type SerializeSeq = Impossible<R, Halt>;
    type SerializeTuple = Impossible<R, Halt>;
    type SerializeTupleStruct = Impossible<R, Halt>;
    type SerializeTupleVariant = Impossible<R, Halt>;
    type SerializeMap = Impossible<R, Halt>;
    type SerializeStruct = Impossible<R, Halt>;
    type SerializeStructVariant = Impossible<R, Halt>;

    via_map_key!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_i128(i128),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_u128(u128),
        serialize_f32(f32),
        serialize_f64(f64)
    );

    fn serialize_char(self, v: char) -> Res<R> {
        let mut buf = [0u8; 4];
        Ok((self.0)(v.encode_utf8(&mut buf)))
    }

    fn serialize_str(self, v: &str) -> Res<R> {
        Ok((self.0)(v))
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Res<R> {
        Ok((self.0)(variant))
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Res<R> {
        value.serialize(self)
    }

    fn collect_str<T: std::fmt::Display + ?Sized>(self, value: &T) -> Res<R> {
        Ok((self.0)(&value.to_string()))
    }

    refused!(
        serialize_bytes(v: &[u8]) -> R,
        serialize_none() -> R,
        serialize_unit() -> R,
        serialize_unit_struct(name: &'static str) -> R,
        serialize_seq(len: Option<usize>) -> Self::SerializeSeq,
        serialize_tuple(len: usize) -> Self::SerializeTuple,
        serialize_tuple_struct(name: &'static str, len: usize) -> Self::SerializeTupleStruct,
        serialize_map(len: Option<usize>) -> Self::SerializeMap,
        serialize_struct(name: &'static str, len: usize) -> Self::SerializeStruct
    );

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Res<R> {
        match MapKeySerializer.serialize_some(value) {
            Err(e) => Err(fail(e)),
            Ok(_) => Err(Halt::Inconsistent),
        }
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Res<R> {
        match MapKeySerializer.serialize_newtype_variant(name, index, variant, value) {
            Err(e) => Err(fail(e)),
            Ok(_) => Err(Halt::Inconsistent),
        }
    }

    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Res<Self::SerializeTupleVariant> {
        match MapKeySerializer.serialize_tuple_variant(name, index, variant, len) {
            Err(e) => Err(fail(e)),
            Ok(_) => Err(Halt::Inconsistent),
        }
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Res<Self::SerializeStructVariant> {
        match MapKeySerializer.serialize_struct_variant(name, index, variant, len) {
            Err(e) => Err(fail(e)),
            Ok(_) => Err(Halt::Inconsistent),
        }
    }
}

/// A 64-bit fingerprint of a key, eight bytes at a time (the length is mixed in,
/// so a key and its zero-padded extension differ). Equal keys have equal
/// fingerprints; a collision of different keys only sends the object down the
/// slower `Value` route.
pub(crate) fn fingerprint(key: &str) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let bytes = key.as_bytes();
    let mut h = (bytes.len() as u64).wrapping_mul(K);
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        h = (h ^ u64::from_le_bytes(word))
            .wrapping_mul(K)
            .rotate_left(29);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        h = (h ^ tail_word(bytes, rest)).wrapping_mul(K).rotate_left(29);
    }
    h ^ (h >> 32)
}

/// A word made of the last `rest.len()` (1 to 7) bytes of `bytes`, read without copying
/// them (a copy of a variable length is a call to `memcpy`): the last eight bytes when
/// there are eight, else overlapping halves or single bytes. The same bytes always give
/// the same word, which is all a fingerprint needs.
fn tail_word(bytes: &[u8], rest: &[u8]) -> u64 {
    if let Some(last) = bytes.last_chunk::<8>() {
        return u64::from_le_bytes(*last);
    }
    let n = rest.len();
    match (rest.first_chunk::<4>(), rest.last_chunk::<4>()) {
        (Some(lo), Some(hi)) => {
            u64::from(u32::from_le_bytes(*lo)) | u64::from(u32::from_le_bytes(*hi)) << 32
        }
        _ => {
            let byte = |i: usize| rest.get(i).map_or(0, |&b| u64::from(b));
            byte(0) | byte(n / 2) << 8 | byte(n - 1) << 16
        }
    }
}

/// Hashes a fingerprint to itself: fingerprints are hashes already.
#[derive(Default)]
struct Identity(u64);

impl Hasher for Identity {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Fingerprints held inline before a [`KeySet`] moves to a hash set.
const INLINE_KEYS: usize = 8;

/// The fingerprints of an object's keys seen so far: inline for small objects (no
/// allocation), in a hash set beyond [`INLINE_KEYS`].
#[derive(Default)]
pub(crate) struct KeySet {
    len: usize,
    inline: [u64; INLINE_KEYS],
    large: Option<HashSet<u64, BuildHasherDefault<Identity>>>,
}

impl KeySet {
    /// Empties the set.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.large = None;
    }

    /// Adds the key; `false` if its fingerprint was there already.
    #[inline]
    pub(crate) fn insert(&mut self, key: &str) -> bool {
        let h = fingerprint(key);
        if let Some(large) = self.large.as_mut() {
            return large.insert(h);
        }
        let seen = &self.inline[..self.len];
        if seen.contains(&h) {
            return false;
        }
        if self.len < INLINE_KEYS {
            self.inline[self.len] = h;
            self.len += 1;
        } else {
            let mut large: HashSet<u64, BuildHasherDefault<Identity>> =
                seen.iter().copied().collect();
            large.insert(h);
            self.large = Some(large);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::KeySet;

    #[test]
    fn repeated_keys_are_found_inline_and_in_the_hash_set() {
        let mut keys = KeySet::default();
        let names: Vec<String> = (0..40).map(|i| format!("k{i}")).collect();
        for name in &names {
            assert!(keys.insert(name), "{name}");
        }
        for name in &names {
            assert!(!keys.insert(name), "{name}");
        }
    }
}
