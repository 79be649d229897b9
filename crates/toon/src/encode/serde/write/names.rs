//! The field names of structs already written, kept per struct name so that the
//! next struct of that name is checked for repeated field names (and its names for
//! quoting, spec §7.3) by address instead of by text.
//!
//! A struct's field names are `&'static str`s, but a `Serialize` impl may still
//! repeat one, so every object's names are checked. Once an object's names have
//! been found distinct, they are kept here as a list; a later object whose names
//! are, in order, the same `&'static str`s as a subsequence of that list (the
//! usual case: the same derived impl, some fields perhaps skipped) has distinct
//! names too — without a comparison of text. Which list is looked up only decides
//! how often this shortcut applies, never whether an answer is right.

use crate::encode::line::quote::is_unquoted_key;

/// Lists kept (direct-mapped by the address of the struct's name).
const SLOTS: usize = 128;

/// Names at most in one kept list (a bit per name records its quoting, and which
/// of them an object has written).
pub(super) const MAX_NAMES: usize = 64;

/// One kept list: the distinct field names of an object written under a struct
/// name, and which of them may be written unquoted.
#[derive(Default)]
struct Kept {
    /// The address of the struct name the list was written under (0: empty).
    struct_name: usize,
    names: Vec<&'static str>,
    /// Bit `i`: `names[i]` may be written unquoted.
    plain: u64,
    /// Objects being written that hold a [`Cursor`] into the list: while any does,
    /// the list is not replaced.
    readers: u32,
}

/// The kept lists of one encoding run.
#[derive(Default)]
pub(crate) struct StructNames {
    slots: Vec<Kept>,
}

/// An object's position in a kept list: the names it has written are the ones
/// marked in `written`, all before `next`.
pub(super) struct Cursor {
    slot: usize,
    next: usize,
    written: u64,
}

fn slot_of(struct_name: &'static str) -> usize {
    let address = struct_name.as_ptr() as u64;
    // Fibonacci hashing: the top bits of the product spread nearby addresses.
    (address.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 57) as usize % SLOTS
}

impl StructNames {
    /// A cursor at the start of the list kept for `struct_name`, if there is one;
    /// it must be given back with [`finish`](Self::finish).
    #[inline]
    pub(super) fn start(&mut self, struct_name: &'static str) -> Option<Cursor> {
        let slot = slot_of(struct_name);
        let kept = self.slots.get_mut(slot)?;
        if kept.struct_name != struct_name.as_ptr() as usize {
            return None;
        }
        kept.readers += 1;
        Some(Cursor {
            slot,
            next: 0,
            written: 0,
        })
    }

    /// Moves `cursor` past `name` if `name` (the same `&'static str`) is one of the
    /// kept names after it: then `name` differs from every name the object wrote
    /// before, and the answer says whether it may be written unquoted.
    #[inline]
    pub(super) fn advance(&self, cursor: &mut Cursor, name: &'static str) -> Option<bool> {
        let kept = self.slots.get(cursor.slot)?;
        let rest = kept.names.get(cursor.next..)?;
        let i = rest
            .iter()
            .position(|kept| kept.as_ptr() == name.as_ptr() && kept.len() == name.len())?;
        let at = cursor.next + i;
        cursor.next = at + 1;
        cursor.written |= 1 << at;
        Some(kept.plain >> at & 1 == 1)
    }

    /// Gives the cursor back, appending the names the object wrote to `names` (to
    /// go on checking its later names by text).
    pub(super) fn finish(&mut self, cursor: Cursor, names: Option<&mut Vec<&'static str>>) {
        let Some(kept) = self.slots.get_mut(cursor.slot) else {
            return;
        };
        kept.readers -= 1;
        if let Some(names) = names {
            names.extend(
                kept.names
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| cursor.written >> i & 1 == 1)
                    .map(|(_, name)| *name),
            );
        }
    }

    /// Keeps `names`, found distinct, as the list of `struct_name`, unless the slot
    /// is being read.
    pub(super) fn keep(&mut self, struct_name: &'static str, names: &[&'static str]) {
        if names.len() > MAX_NAMES {
            return;
        }
        if self.slots.is_empty() {
            self.slots.resize_with(SLOTS, Kept::default);
        }
        let Some(kept) = self.slots.get_mut(slot_of(struct_name)) else {
            return;
        };
        if kept.readers > 0 {
            return;
        }
        kept.struct_name = struct_name.as_ptr() as usize;
        kept.names.clear();
        kept.names.extend_from_slice(names);
        kept.plain = names
            .iter()
            .enumerate()
            .filter(|(_, name)| is_unquoted_key(name))
            .fold(0, |bits, (i, _)| bits | 1 << i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_names_are_found_in_order_and_read_lists_are_not_replaced() {
        let mut kept = StructNames::default();
        assert!(kept.start("S").is_none());
        let names: [&'static str; 3] = ["a", "b c", "d"];
        kept.keep("S", &names);
        let mut cursor = kept.start("S").expect("kept");
        assert_eq!(kept.advance(&mut cursor, names[0]), Some(true));
        // A skipped name is fine, but nothing before the cursor is found again.
        assert_eq!(kept.advance(&mut cursor, names[2]), Some(true));
        assert_eq!(kept.advance(&mut cursor, names[1]), None);
        assert_eq!(kept.advance(&mut cursor, names[0]), None);
        // Same text at another address is not known by address.
        let leaked: &'static str = Box::leak(String::from("d").into_boxed_str());
        let mut again = kept.start("S").expect("kept");
        assert_eq!(kept.advance(&mut again, names[1]), Some(false));
        assert_eq!(kept.advance(&mut again, leaked), None);
        // While read, the list stays; the names written come back in order.
        kept.keep("S", &names[..1]);
        let mut written = Vec::new();
        kept.finish(again, Some(&mut written));
        assert_eq!(written, ["b c"]);
        kept.finish(cursor, None);
        let mut third = kept.start("S").expect("kept");
        assert_eq!(kept.advance(&mut third, names[2]), Some(true));
        kept.finish(third, None);
        // Once nobody reads it, it is replaced.
        kept.keep("S", &names[..1]);
        let mut fourth = kept.start("S").expect("kept");
        assert_eq!(kept.advance(&mut fourth, names[2]), None);
    }
}
