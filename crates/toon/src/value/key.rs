//! [`Key`]: the key of an object entry, stored inline when short.

use std::borrow::Borrow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

use compact_str::CompactString;

/// The key of an object entry: a string that does not allocate when it is at most 24
/// bytes long, so building, cloning and dropping short keys (nearly all keys) costs no
/// allocation; cloning a short key is a copy.
///
/// A `Key` derefs to `str` and compares, hashes and orders exactly as its `str` does,
/// so `key == "name"`, `map.get(&key)` and `key.len()` all work; `String::from(key)` or
/// [`Key::into_string`] gives an owned `String`.
///
/// ```
/// use toon::value::Key;
/// let key = Key::from("name");
/// assert_eq!(key, "name");
/// assert_eq!(key.as_str().len(), 4);
/// assert_eq!(String::from(key.clone()), "name");
/// assert_eq!(format!("{key}"), "name");
/// ```
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Key(CompactString);

impl Key {
    /// A key holding a copy of `s`.
    #[inline]
    pub fn new(s: &str) -> Key {
        Key(CompactString::new(s))
    }

    /// The key as a string slice.
    #[inline]
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }

    /// The key as an owned `String`.
    pub fn into_string(self) -> String {
        self.0.into_string()
    }
}

impl Deref for Key {
    type Target = str;

    #[inline]
    fn deref(&self) -> &str {
        self.0.as_str()
    }
}

impl AsRef<str> for Key {
    fn as_ref(&self) -> &str {
        self.0.as_str()
    }
}

impl Borrow<str> for Key {
    fn borrow(&self) -> &str {
        self.0.as_str()
    }
}

/// Hashes as the key's `str` does, as [`Borrow<str>`] requires.
impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl From<&str> for Key {
    #[inline]
    fn from(s: &str) -> Key {
        Key::new(s)
    }
}

impl From<&String> for Key {
    fn from(s: &String) -> Key {
        Key::new(s)
    }
}

impl From<String> for Key {
    /// Short strings are copied inline; long ones keep their buffer.
    fn from(s: String) -> Key {
        Key(CompactString::from(s))
    }
}

impl From<&Key> for Key {
    fn from(k: &Key) -> Key {
        k.clone()
    }
}

impl From<std::borrow::Cow<'_, str>> for Key {
    fn from(s: std::borrow::Cow<'_, str>) -> Key {
        match s {
            std::borrow::Cow::Borrowed(s) => Key::new(s),
            std::borrow::Cow::Owned(s) => Key::from(s),
        }
    }
}

impl From<Key> for String {
    fn from(k: Key) -> String {
        k.into_string()
    }
}

macro_rules! eq_str {
    ($($t:ty),*) => {$(
        impl PartialEq<$t> for Key {
            fn eq(&self, other: &$t) -> bool {
                self.as_str() == &other[..]
            }
        }
        impl PartialEq<Key> for $t {
            fn eq(&self, other: &Key) -> bool {
                &self[..] == other.as_str()
            }
        }
    )*};
}
eq_str!(str, String);

impl PartialEq<&str> for Key {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<Key> for &str {
    fn eq(&self, other: &Key) -> bool {
        *self == other.as_str()
    }
}

impl serde::Serialize for Key {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for Key {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
        d.deserialize_str(KeyVisitor)
    }
}

/// Reads a string into a [`Key`] without an intermediate `String` when the
/// deserializer lends the text.
pub(crate) struct KeyVisitor;

impl serde::de::Visitor<'_> for KeyVisitor {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }

    #[inline]
    fn visit_str<E>(self, v: &str) -> Result<Key, E> {
        Ok(Key::new(v))
    }

    fn visit_string<E>(self, v: String) -> Result<Key, E> {
        Ok(Key::from(v))
    }

    // UTF-8 bytes, as `String` itself accepts them.
    fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Key, E> {
        match std::str::from_utf8(v) {
            Ok(s) => Ok(Key::new(s)),
            Err(_) => Err(E::invalid_value(serde::de::Unexpected::Bytes(v), &self)),
        }
    }

    fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> Result<Key, E> {
        match String::from_utf8(v) {
            Ok(s) => Ok(Key::from(s)),
            Err(e) => Err(E::invalid_value(
                serde::de::Unexpected::Bytes(e.as_bytes()),
                &self,
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Key;

    #[test]
    fn keys_compare_and_convert_as_their_text() {
        let short = Key::from("id");
        let long = Key::from("a key that is longer than twenty-four bytes".to_owned());
        assert_eq!(short, "id");
        assert_eq!("id", short);
        assert_ne!(short, long);
        assert!(long < short, "ordered as their text");
        assert_eq!(long.as_str(), "a key that is longer than twenty-four bytes");
        assert_eq!(long.clone().into_string(), long.as_str());
        assert_eq!(format!("{short:?}"), "\"id\"");
        let state = std::hash::RandomState::new();
        use std::hash::BuildHasher;
        assert_eq!(state.hash_one(&long), state.hash_one(long.as_str()));
    }
}
