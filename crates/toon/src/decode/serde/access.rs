//! An object's fields and an array's elements, as serde's `MapAccess` and `SeqAccess`
//! over the [`Deserializer`]'s steps.

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess};

use super::queue::{Step, Tok};
use super::{Deserializer, Pos};
use crate::decode::input::LineInput;
use crate::{Error, Result};

/// An object's fields.
pub(super) struct ObjectAccess<'d, 'de, I> {
    pub(super) de: &'d mut Deserializer<'de, I>,
    /// Where the last key was read: errors in its value without a position get it.
    pub(super) key_at: Pos,
    /// A key was read and its value, still queued, not yet.
    pub(super) pending: bool,
    /// The primitive of the last key, read with it and not yet taken.
    pub(super) value: Option<Tok>,
    pub(super) done: bool,
    /// The object's nesting level and the keys read so far (for size hints).
    pub(super) level: usize,
    pub(super) keys: usize,
}

impl<'de, I: LineInput> MapAccess<'de> for ObjectAccess<'_, 'de, I> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.done {
            return Ok(None);
        }
        if self.pending {
            // The visitor skipped a value.
            self.pending = false;
            self.de.skip_value()?;
        }
        self.value = None;
        match self.de.next()? {
            (Step::Field(key), at) => {
                self.key_at = at;
                self.value = self.de.driver.sink_ref().field_value;
                self.keys += 1;
                let key = self.de.text(key).key(seed);
                key.map(Some).map_err(|e| self.de.locate(e, at))
            }
            (Step::Key(key), at) => {
                self.key_at = at;
                self.pending = true;
                self.keys += 1;
                let key = self.de.text(key).key(seed);
                key.map(Some).map_err(|e| self.de.locate(e, at))
            }
            (Step::EndObject, _) => {
                self.done = true;
                let sizes = &mut self.de.object_sizes;
                if sizes.len() <= self.level {
                    sizes.resize(self.level + 1, 0);
                }
                sizes[self.level] = self.keys;
                Ok(None)
            }
            (step, at) => Err(self.de.misplaced(&step, at)),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        if let Some(value) = self.value.take() {
            // A primitive read with its key: no step to pull.
            let at = self.key_at;
            return seed
                .deserialize(self.de.token(value))
                .map_err(|e| self.de.locate(e, at));
        }
        if !self.pending {
            return Err(de::Error::custom("value requested before key"));
        }
        self.pending = false;
        let at = self.key_at;
        seed.deserialize(&mut *self.de)
            .map_err(|e| self.de.locate(e, at))
    }

    /// A guess: the size of the last object finished at this level, up to
    /// [`OBJECT_HINT_CAP`] (`None` without one).
    fn size_hint(&self) -> Option<usize> {
        let last = self.de.object_sizes.get(self.level).copied().unwrap_or(0);
        (last > 0).then_some(last.min(OBJECT_HINT_CAP))
    }
}

/// The largest size hint an object gives (a hint is a guess from its previous sibling).
const OBJECT_HINT_CAP: usize = 32;

/// An array's elements.
pub(super) struct ArrayAccess<'d, 'de, I> {
    pub(super) de: &'d mut Deserializer<'de, I>,
    /// Elements still to come, where all of them are queued already (an inline
    /// array's values); `None` for rows and list items, which a header's declared
    /// length only announces.
    pub(super) left: Option<usize>,
    pub(super) done: bool,
}

impl<'de, I: LineInput> SeqAccess<'de> for ArrayAccess<'_, 'de, I> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.done {
            return Ok(None);
        }
        let (step, at) = self.de.peek()?;
        if matches!(step, Step::EndArray) {
            self.de.next()?;
            self.done = true;
            return Ok(None);
        }
        self.left = self.left.map(|n| n.saturating_sub(1));
        seed.deserialize(&mut *self.de)
            .map(Some)
            .map_err(|e| self.de.locate(e, at))
    }

    fn size_hint(&self) -> Option<usize> {
        self.left
    }
}
