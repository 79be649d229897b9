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

/// Slots for kept lists (direct-mapped by the address of the struct's name) when the
/// first list is kept: a small document pays for no more.
const FIRST_SLOTS: usize = 8;

/// Slots at most: the table grows (×16) when a list would take the slot of another
/// struct name.
const MAX_SLOTS: usize = 128;

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
    /// None, [`FIRST_SLOTS`] or [`MAX_SLOTS`] lists.
    slots: Vec<Kept>,
}

/// An object's position in a kept list: the names it has written are the ones
/// marked in `written`, all before `next`.
pub(super) struct Cursor {
    /// The address of the struct name, which finds the list when the table grew
    /// since the cursor was made.
    struct_name: usize,
    /// The list's slot when the cursor was made (below [`MAX_SLOTS`]).
    slot: u32,
    /// The next list position (at most [`MAX_NAMES`]).
    next: u32,
    written: u64,
}

/// The slot of the struct name at `address` in a table of `slots` slots (a power of
/// two up to [`MAX_SLOTS`]). Fibonacci hashing: the top bits of the product spread
/// nearby addresses; the slot in the small table is the low bits of the slot in the
/// large one, so lists in distinct small slots stay distinct when the table grows.
#[inline]
fn slot_of(address: usize, slots: usize) -> usize {
    ((address as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 57) as usize & (slots - 1)
}

impl StructNames {
    /// A cursor at the start of the list kept for `struct_name`, if there is one;
    /// it must be given back with [`finish`](Self::finish).
    #[inline]
    pub(super) fn start(&mut self, struct_name: &'static str) -> Option<Cursor> {
        let address = struct_name.as_ptr() as usize;
        let slots = self.slots.len();
        if slots == 0 {
            return None;
        }
        let slot = slot_of(address, slots);
        let kept = self.slots.get_mut(slot)?;
        if kept.struct_name != address {
            return None;
        }
        kept.readers += 1;
        Some(Cursor {
            struct_name: address,
            slot: slot as u32,
            next: 0,
            written: 0,
        })
    }

    /// The slot of the struct name at `address`, if the table is allocated.
    #[inline]
    fn kept_mut(&mut self, address: usize) -> Option<&mut Kept> {
        let slots = self.slots.len();
        if slots == 0 {
            return None;
        }
        self.slots.get_mut(slot_of(address, slots))
    }

    /// The list a cursor reads: in its slot, unless the table grew since.
    #[inline]
    fn kept(&self, cursor: &Cursor) -> Option<&Kept> {
        match self.slots.get(cursor.slot as usize) {
            Some(kept) if kept.struct_name == cursor.struct_name => Some(kept),
            _ => self.moved(cursor.struct_name),
        }
    }

    /// The list of the struct name at `address` after the table grew.
    #[cold]
    fn moved(&self, address: usize) -> Option<&Kept> {
        let slots = self.slots.len();
        if slots == 0 {
            return None;
        }
        self.slots.get(slot_of(address, slots))
    }

    /// Moves `cursor` past `name` if `name` (the same `&'static str`) is one of the
    /// kept names after it: then `name` differs from every name the object wrote
    /// before, and the answer says whether it may be written unquoted.
    #[inline]
    pub(super) fn advance(&self, cursor: &mut Cursor, name: &'static str) -> Option<bool> {
        let kept = self.kept(cursor)?;
        let next = cursor.next as usize;
        let rest = kept.names.get(next..)?;
        let i = rest
            .iter()
            .position(|kept| kept.as_ptr() == name.as_ptr() && kept.len() == name.len())?;
        let at = next + i;
        // A kept list holds at most `MAX_NAMES` names.
        cursor.next = at as u32 + 1;
        cursor.written |= 1 << at;
        Some(kept.plain >> at & 1 == 1)
    }

    /// Gives the cursor back, appending the names the object wrote to `names` (to
    /// go on checking its later names by text).
    pub(super) fn finish(&mut self, cursor: Cursor, names: Option<&mut Vec<&'static str>>) {
        let Some(kept) = self.kept_mut(cursor.struct_name) else {
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
        let address = struct_name.as_ptr() as usize;
        if self.slots.is_empty() {
            self.slots.resize_with(FIRST_SLOTS, Kept::default);
        }
        let slots = self.slots.len();
        let taken = self
            .slots
            .get(slot_of(address, slots))
            .is_some_and(|kept| kept.struct_name != 0 && kept.struct_name != address);
        if taken && slots < MAX_SLOTS {
            self.grow();
        }
        let Some(kept) = self.kept_mut(address) else {
            return;
        };
        if kept.readers > 0 {
            return;
        }
        kept.struct_name = address;
        kept.names.clear();
        kept.names.extend_from_slice(names);
        kept.plain = names
            .iter()
            .enumerate()
            .filter(|(_, name)| is_unquoted_key(name))
            .fold(0, |bits, (i, _)| bits | 1 << i);
    }
}

impl StructNames {
    /// Moves the lists into a table of [`MAX_SLOTS`] slots, each to the slot of its
    /// struct name there (distinct slots stay distinct; cursors find their list by
    /// the struct name's address, so lists being read may move).
    #[cold]
    fn grow(&mut self) {
        let mut large = Vec::with_capacity(MAX_SLOTS);
        large.resize_with(MAX_SLOTS, Kept::default);
        for kept in self.slots.drain(..) {
            if kept.struct_name != 0
                && let Some(slot) = large.get_mut(slot_of(kept.struct_name, MAX_SLOTS))
            {
                *slot = kept;
            }
        }
        self.slots = large;
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

    #[test]
    fn lists_survive_the_table_growing_while_read() {
        let mut kept = StructNames::default();
        let outer: &'static str = "Outer";
        let names: [&'static str; 2] = ["a", "b"];
        kept.keep(outer, &names);
        let mut cursor = kept.start(outer).expect("kept");
        assert_eq!(kept.advance(&mut cursor, names[0]), Some(true));
        // Enough other struct names that some take the slot of another: the
        // table grows while "Outer" is read.
        let others: Vec<&'static str> = (0..40)
            .map(|i| &*Box::leak(format!("S{i}").into_boxed_str()))
            .collect();
        for other in &others {
            kept.keep(other, &names[1..]);
        }
        assert_eq!(kept.slots.len(), MAX_SLOTS);
        assert_eq!(kept.advance(&mut cursor, names[1]), Some(true));
        let mut written = Vec::new();
        kept.finish(cursor, Some(&mut written));
        assert_eq!(written, names);
        // Most of the other lists are found again (a few share a slot).
        let found = others
            .iter()
            .filter(|other| {
                let cursor = kept.start(other);
                let found = cursor.is_some();
                if let Some(cursor) = cursor {
                    kept.finish(cursor, None);
                }
                found
            })
            .count();
        assert!(found > 20, "{found}");
        assert!(kept.start(outer).is_some());
    }
}
