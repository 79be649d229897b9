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
const SLOTS: usize = 32;

/// Names at most in one kept list (a bit per name records its quoting).
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
    /// Changes whenever the list is replaced, so that an object that holds a
    /// position in it notices when a nested object replaced it.
    generation: u32,
}

/// The kept lists of one encoding run.
#[derive(Default)]
pub(crate) struct StructNames {
    slots: Vec<Kept>,
}

/// An object's position in a kept list: the names up to `next` are behind it.
#[derive(Clone, Copy)]
pub(super) struct Cursor {
    slot: usize,
    generation: u32,
    next: usize,
}

/// What [`StructNames::advance`] found for one field name.
pub(super) enum Step {
    /// The name follows in the kept list: distinct from the object's earlier
    /// names; `plain` says whether it may be written unquoted.
    Known { plain: bool },
    /// The name does not follow (or the list was replaced): check it by text.
    Unknown,
}

fn slot_of(struct_name: &'static str) -> usize {
    let address = struct_name.as_ptr() as usize;
    (address >> 3 ^ address >> 11) % SLOTS
}

impl StructNames {
    /// A cursor at the start of the list kept for `struct_name`, if there is one.
    #[inline]
    pub(super) fn start(&self, struct_name: &'static str) -> Option<Cursor> {
        let slot = slot_of(struct_name);
        let kept = self.slots.get(slot)?;
        (kept.struct_name == struct_name.as_ptr() as usize).then_some(Cursor {
            slot,
            generation: kept.generation,
            next: 0,
        })
    }

    /// Moves `cursor` past `name` if `name` (the same `&'static str`) is one of the
    /// kept names after it.
    #[inline]
    pub(super) fn advance(&self, cursor: &mut Cursor, name: &'static str) -> Step {
        let Some(kept) = self.slots.get(cursor.slot) else {
            return Step::Unknown;
        };
        if kept.generation != cursor.generation {
            return Step::Unknown;
        }
        let rest = kept.names.get(cursor.next..).unwrap_or_default();
        match rest
            .iter()
            .position(|kept| kept.as_ptr() == name.as_ptr() && kept.len() == name.len())
        {
            Some(i) => {
                let at = cursor.next + i;
                cursor.next = at + 1;
                Step::Known {
                    plain: kept.plain >> at & 1 == 1,
                }
            }
            None => Step::Unknown,
        }
    }

    /// Keeps `names`, found distinct, as the list of `struct_name`.
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
        kept.struct_name = struct_name.as_ptr() as usize;
        kept.names.clear();
        kept.names.extend_from_slice(names);
        kept.plain = names
            .iter()
            .enumerate()
            .filter(|(_, name)| is_unquoted_key(name))
            .fold(0, |bits, (i, _)| bits | 1 << i);
        kept.generation = kept.generation.wrapping_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_names_are_found_in_order_and_replaced_lists_are_noticed() {
        let mut kept = StructNames::default();
        assert!(kept.start("S").is_none());
        let names: [&'static str; 3] = ["a", "b c", "d"];
        kept.keep("S", &names);
        let mut cursor = kept.start("S").expect("kept");
        assert!(matches!(
            kept.advance(&mut cursor, names[0]),
            Step::Known { plain: true }
        ));
        // A skipped name is fine; the quoted one is known to need quotes.
        let mut skip = cursor;
        assert!(matches!(
            kept.advance(&mut skip, names[2]),
            Step::Known { plain: true }
        ));
        assert!(matches!(kept.advance(&mut skip, names[1]), Step::Unknown));
        assert!(matches!(
            kept.advance(&mut cursor, names[1]),
            Step::Known { plain: false }
        ));
        // A name seen already is not after the cursor: a repeat is never "known".
        assert!(matches!(kept.advance(&mut cursor, names[0]), Step::Unknown));
        // Same text at another address is not known by address.
        let other = String::from("d");
        let leaked: &'static str = Box::leak(other.into_boxed_str());
        assert!(matches!(kept.advance(&mut cursor, leaked), Step::Unknown));
        // Replacing the list invalidates cursors into it.
        kept.keep("S", &names[..1]);
        assert!(matches!(kept.advance(&mut cursor, names[2]), Step::Unknown));
    }
}
