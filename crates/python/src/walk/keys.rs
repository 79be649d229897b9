//! Entry keys (`key: `) as the line writer spells them, kept by key object: the keys
//! of a document's objects repeat (every item of a list of records has the same
//! keys, interned or shared by the code that made them), and deciding whether a key
//! needs quotes, then writing it, costs more than copying its text. A key is kept
//! the second time its object is seen, so keys that never repeat (ids used as
//! keys) cost no copy; a kept key holds its str, so its address stays its own.

use pyo3::prelude::*;
use pyo3::types::PyString;
use toon::__private::writer::write_entry_key;

use crate::to_toon::Text;

/// Slots of the direct-mapped table (a power of two): more than the distinct keys
/// of a usual schema.
const SLOTS: usize = 256;

/// The entry keys of one `encode` call, by key object address.
pub(super) struct KeyTexts<'py> {
    /// Empty until the first key is asked for (a document of primitives needs none).
    slots: Vec<Slot<'py>>,
}

enum Slot<'py> {
    Empty,
    /// A key object seen once (by address; nothing is kept).
    Seen(usize),
    /// A key object and its `key: ` text.
    Kept(Bound<'py, PyString>, Box<str>),
}

/// A key's text for its entry line.
pub(super) enum KeyText<'s, 'k> {
    /// `key: ` as the writer spelled it before.
    Written(&'s str),
    /// The key's text, for [`write_entry_key`].
    Plain(&'k str),
}

impl<'py> KeyTexts<'py> {
    /// An empty table (its slots are made when the first key is asked for).
    pub(super) fn new() -> KeyTexts<'py> {
        KeyTexts { slots: Vec::new() }
    }

    /// The entry text of the str `k`; `None` if its text cannot be read in place
    /// (the caller takes the general path, which reads it or raises).
    #[inline]
    pub(super) fn get<'s, 'k>(
        &'s mut self,
        k: &'k Bound<'py, PyString>,
    ) -> Option<KeyText<'s, 'k>> {
        if self.slots.is_empty() {
            self.slots = std::iter::repeat_with(|| Slot::Empty).take(SLOTS).collect();
        }
        let addr = k.as_ptr() as usize;
        // Objects are 16-byte aligned: the bits above those, mixed.
        let index =
            (((addr as u64) >> 4).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as usize & (SLOTS - 1);
        let (seen, kept) = match &self.slots[index] {
            Slot::Kept(key, _) => (key.as_ptr() as usize == addr, true),
            Slot::Seen(a) => (*a == addr, false),
            Slot::Empty => (false, false),
        };
        if !(seen && kept) {
            let text = Text::in_place(k)?;
            if !seen {
                self.slots[index] = Slot::Seen(addr);
                return Some(KeyText::Plain(text));
            }
            let mut written = String::with_capacity(text.len() + 2);
            write_entry_key(&mut written, text);
            self.slots[index] = Slot::Kept(k.clone(), written.into_boxed_str());
        }
        match &self.slots[index] {
            Slot::Kept(_, text) => Some(KeyText::Written(text)),
            _ => None,
        }
    }
}
