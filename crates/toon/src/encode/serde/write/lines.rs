//! The items of expanded lists (spec §9.4, §10) and the fields of objects (§8) on
//! the direct encoder's second pass: one line per item or field, each value written
//! at its [`Pos`].

use serde::Serialize;

use super::super::adapter::{Halt, MapVisit, Never, P, Res, SeqVisit, Visit, open};
use super::super::analyze::same_name;
use super::super::keys::{KeySet, with_key};
use super::map_keys::MapKeys;
use super::names::{Cursor, MAX_NAMES};
use super::{Out, Pos};
use crate::encode::form::item_field_depth;
use crate::encode::line::Mark;
use crate::stack::guarded;

/// The items of an expanded list.
pub(super) struct Items<'a, 'w> {
    pub(super) out: &'a mut Out<'w>,
    pub(super) depth: usize,
    pub(super) level: usize,
    pub(super) n: usize,
}

impl<'a, 'w> Visit for Items<'a, 'w> {
    type Ok = usize;
    type Seq = Items<'a, 'w>;
    type Map = Never<usize>;
    only_containers!();
    only_a_sequence!();
}

impl SeqVisit for Items<'_, '_> {
    type Ok = usize;
    fn element<T: Serialize + ?Sized>(&mut self, v: &T) -> Res<()> {
        let pos = Pos::ListItem {
            depth: self.depth,
            level: self.level,
        };
        // An object item is written in its first serialization, on this stack.
        guarded(|| self.out.write_at(pos, v))?;
        self.n += 1;
        Ok(())
    }
    fn end(self) -> Res<usize> {
        Ok(self.n)
    }
}

/// The fields of an object, one per line, or (`item`) an object as a list item with
/// its first field on the hyphen line (a bare `-` when empty).
pub(super) struct Fields<'a, 'w> {
    pub(super) out: &'a mut Out<'w>,
    pub(super) depth: usize,
    /// Containers around the object.
    pub(super) level: usize,
    pub(super) item: bool,
    /// Whether a repeated key stops the writing ([`Halt::Repeat`]); the two-pass
    /// route found the keys distinct beforehand.
    pub(super) check_keys: bool,
}

impl<'a, 'w> Fields<'a, 'w> {
    fn pos(&self, key: &'static str, plain: bool, n: usize) -> Pos<'static> {
        field_pos(key, plain, n, self.depth, self.level + 1, self.item)
    }

    /// The entries of the object, `struct_name` if it is a struct; `marked` when
    /// the object is written in its first serialization, so that a repeated key
    /// takes back its text (the caller then encodes it through a `Value`).
    pub(super) fn entries(
        self,
        struct_name: Option<&'static str>,
        marked: bool,
    ) -> Res<FieldEntries<'a, 'w>> {
        open(self.level, self.out.max_depth)?;
        let check = self.check_keys;
        let mark = marked.then(|| self.out.enc.w.mark());
        let scratch = &mut self.out.scratch;
        Ok(FieldEntries {
            mark,
            keys: None,
            map_keys: None,
            names_from: scratch.names.len(),
            names: 0,
            spilled: false,
            cursor: match struct_name {
                Some(name) if check => scratch.structs.start(name),
                _ => None,
            },
            struct_name,
            fields: self,
            n: 0,
        })
    }
}

/// Where the `n`th field of an object goes; `plain` says the key is known to need
/// no quotes.
fn field_pos(key: &str, plain: bool, n: usize, depth: usize, level: usize, item: bool) -> Pos<'_> {
    match (item, n) {
        (true, 0) => Pos::FirstField {
            key,
            plain,
            depth,
            level,
        },
        (true, _) => Pos::Field {
            key,
            plain,
            depth: item_field_depth(depth),
            level,
        },
        (false, _) => Pos::Field {
            key,
            plain,
            depth,
            level,
        },
    }
}

impl<'a, 'w> Visit for Fields<'a, 'w> {
    type Ok = ();
    type Seq = Never<()>;
    type Map = FieldEntries<'a, 'w>;
    fn prim(self, _p: P<'_>) -> Res<()> {
        Err(Halt::Inconsistent)
    }
    fn bytes(self, _b: &[u8]) -> Res<()> {
        Err(Halt::Inconsistent)
    }
    /// Tuple and struct variants go through a `Value` (nothing is written yet).
    fn tuple_variant(self, _v: &'static str, _len: usize) -> Res<Never<()>> {
        Err(Halt::Fallback)
    }
    fn seq(self, _len: Option<usize>) -> Res<Never<()>> {
        Err(Halt::Inconsistent)
    }
    fn map(self, _len: Option<usize>) -> Res<FieldEntries<'a, 'w>> {
        self.entries(None, false)
    }
    fn struct_map(self, name: &'static str, _len: usize) -> Res<FieldEntries<'a, 'w>> {
        self.entries(Some(name), false)
    }
    fn newtype_variant<T: Serialize + ?Sized>(self, variant: &'static str, v: &T) -> Res<()> {
        open(self.level, self.out.max_depth)?;
        let pos = self.pos(variant, false, 0);
        self.out.write_at(pos, v)
    }
    fn struct_variant(self, _v: &'static str, _len: usize) -> Res<FieldEntries<'a, 'w>> {
        Err(Halt::Fallback)
    }
}

/// The entries of an object being written as fields.
pub(super) struct FieldEntries<'a, 'w> {
    fields: Fields<'a, 'w>,
    n: usize,
    /// The keys of a map, and the pending one.
    map_keys: Option<Box<MapKeys>>,
    /// The fingerprints of the keys written so far, once `spilled` when repeats are
    /// checked (boxed and reused, so that the object's writer stays small).
    keys: Option<Box<KeySet>>,
    /// Where this object's struct field names start in `Scratch::names`.
    names_from: usize,
    /// How many struct field names this object has there (at most [`MAX_NAMES`] + 1:
    /// past [`NAME_SCAN`] they move into `keys`).
    names: u32,
    /// Whether the names moved into `keys` (a map key came, or too many names).
    spilled: bool,
    /// The struct's name, when the object is a struct.
    struct_name: Option<&'static str>,
    /// Where this object's names stand in the names kept for its struct name, while
    /// they follow them (see [`StructNames`](super::names::StructNames)).
    cursor: Option<Cursor>,
    /// The start of the object's text, when it is written in its first
    /// serialization: a repeated key takes it back.
    mark: Option<Mark>,
}

/// Struct field names compared one by one before an object's keys are checked by
/// fingerprint instead: the comparisons grow with the square of the count.
const NAME_SCAN: u32 = 32;

impl FieldEntries<'_, '_> {
    /// [`Halt::Repeat`] if `key` was written already (or shares its fingerprint).
    #[inline]
    fn check(&mut self, key: &str) -> Res<()> {
        if !self.spilled {
            self.spill();
        }
        Self::check_print(&mut self.keys, key)
    }

    /// [`Halt::Repeat`] if `key`'s fingerprint is in `keys` already (adding it).
    #[inline]
    fn check_print(keys: &mut Option<Box<KeySet>>, key: &str) -> Res<()> {
        if let Some(keys) = keys
            && !keys.insert(key)
        {
            return Err(Halt::Repeat);
        }
        Ok(())
    }

    /// [`Halt::Repeat`] if the struct field name `key` was written already, else
    /// whether `key` is known to need no quotes. While the names follow the list
    /// kept for the struct's name they are distinct by address; otherwise the few
    /// names of one object are compared directly (by address, then by text), with
    /// no fingerprint.
    #[inline(always)]
    fn check_name(&mut self, key: &'static str) -> Res<bool> {
        if let Some(cursor) = &mut self.cursor
            && let Some(plain) = self.fields.out.scratch.structs.advance(cursor, key)
        {
            self.names += 1;
            return Ok(plain);
        }
        self.check_name_by_text(key)
    }

    /// [`check_name`](Self::check_name) off the kept list.
    #[inline(never)]
    fn check_name_by_text(&mut self, key: &'static str) -> Res<bool> {
        if !self.fields.check_keys {
            return Ok(false);
        }
        self.leave_list();
        if self.spilled || self.names >= NAME_SCAN {
            self.check(key)?;
            return Ok(false);
        }
        let names = &mut self.fields.out.scratch.names;
        // A nested object that stopped early may have left its names above ours.
        names.truncate(self.names_from + self.names as usize);
        if names[self.names_from..]
            .iter()
            .any(|name| same_name(name, key))
        {
            return Err(Halt::Repeat);
        }
        names.push(key);
        self.names += 1;
        Ok(false)
    }

    /// Stops following the kept list: the names written so far are put where the
    /// comparison by text reads them.
    #[inline]
    fn leave_list(&mut self) {
        if let Some(cursor) = self.cursor.take() {
            let scratch = &mut self.fields.out.scratch;
            scratch.names.truncate(self.names_from);
            scratch.structs.finish(cursor, Some(&mut scratch.names));
        }
    }

    /// Moves this object's struct field names into the fingerprint set (taken from
    /// the spare ones when repeats are checked).
    #[inline(never)]
    fn spill(&mut self) {
        self.leave_list();
        self.spilled = true;
        let scratch = &mut self.fields.out.scratch;
        if self.fields.check_keys {
            self.keys = Some(scratch.key_sets.take());
        }
        let names = &mut scratch.names;
        let end = (self.names_from + self.names as usize).min(names.len());
        if let Some(keys) = &mut self.keys {
            for name in &names[self.names_from..end] {
                // The names are distinct; a shared fingerprint only means a later
                // key with it is taken for a repeat (the slower, exact route).
                keys.insert(name);
            }
        }
        names.truncate(self.names_from);
    }
}

impl FieldEntries<'_, '_> {
    /// Passes `e` on, taking the object's text back first when it was written in its
    /// first serialization and is to be encoded through a `Value`.
    #[cold]
    #[inline(never)]
    fn undo(&mut self, e: Halt) -> Halt {
        if let Some(mark) = self.mark.take() {
            match e {
                Halt::Repeat | Halt::Fallback => self.fields.out.enc.w.rewind(mark),
                _ => self.fields.out.enc.w.release(mark),
            }
        }
        e
    }

    #[inline(always)]
    fn map_key<K: Serialize + ?Sized>(&mut self, k: &K) -> Res<()> {
        if !self.spilled {
            self.spill();
        }
        let keys = &mut self.keys;
        match &mut self.map_keys {
            Some(map_keys) => with_key(k, |s| map_keys.key(s, keys))?,
            None => {
                let f = &mut self.fields;
                let lists = &mut f.out.scratch.map_keys;
                let state = with_key(k, |s| lists.first(s, f.level, keys))?;
                self.map_keys = Some(state);
                Ok(())
            }
        }
    }

    #[inline(always)]
    fn map_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Res<()> {
        let f = &mut self.fields;
        let (key, plain) = self.map_keys.as_ref().map_or(("", false), |m| m.pending());
        let pos = field_pos(key, plain, self.n, f.depth, f.level + 1, f.item);
        self.n += 1;
        f.out.write_at(pos, v)
    }

    #[inline(always)]
    fn struct_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Res<()> {
        let plain = self.check_name(key)?;
        let pos = self.fields.pos(key, plain, self.n);
        self.n += 1;
        self.fields.out.write_at(pos, v)
    }
}

impl MapVisit for FieldEntries<'_, '_> {
    type Ok = ();
    #[inline]
    fn key<K: Serialize + ?Sized>(&mut self, k: &K) -> Res<()> {
        match self.map_key(k) {
            Ok(()) => Ok(()),
            Err(e) => Err(self.undo(e)),
        }
    }
    #[inline]
    fn value<T: Serialize + ?Sized>(&mut self, v: &T) -> Res<()> {
        match self.map_value(v) {
            Ok(()) => Ok(()),
            Err(e) => Err(self.undo(e)),
        }
    }
    #[inline]
    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Res<()> {
        match self.struct_field(key, v) {
            Ok(()) => Ok(()),
            Err(e) => Err(self.undo(e)),
        }
    }
    fn end(self) -> Res<()> {
        if let Some(mark) = self.mark {
            self.fields.out.enc.w.release(mark);
        }
        if self.fields.item && self.n == 0 {
            self.fields.out.enc.w.empty_item(self.fields.depth);
        }
        let scratch = &mut self.fields.out.scratch;
        if let Some(cursor) = self.cursor {
            scratch.structs.finish(cursor, None);
        } else if let Some(struct_name) = self.struct_name
            && self.fields.check_keys
            && !self.spilled
            && self.names <= MAX_NAMES as u32
        {
            // Found distinct: the next object of this struct name is checked against them.
            let end = (self.names_from + self.names as usize).min(scratch.names.len());
            let names = scratch.names.get(self.names_from..end).unwrap_or_default();
            scratch.structs.keep(struct_name, names);
        }
        scratch.names.truncate(self.names_from);
        if let Some(map_keys) = self.map_keys {
            map_keys.finish(&mut scratch.map_keys, self.fields.level);
        }
        if let Some(keys) = self.keys {
            scratch.key_sets.put(keys);
        }
        Ok(())
    }
}
