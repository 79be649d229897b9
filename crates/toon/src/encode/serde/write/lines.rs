//! The items of expanded lists (spec §9.4, §10) and the fields of objects (§8) on
//! the direct encoder's second pass: one line per item or field, each value written
//! at its [`Pos`].

use serde::Serialize;

use super::super::adapter::{Halt, MapVisit, Never, P, Res, SeqVisit, Visit, open};
use super::super::keys::{KeySet, key_into};
use super::{Out, Pos};
use crate::encode::form::item_field_depth;

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
        self.out.write_at(pos, v)?;
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
    fn pos(&self, key: &'static str, n: usize) -> Pos<'static> {
        field_pos(key, n, self.depth, self.level + 1, self.item)
    }
}

/// Where the `n`th field of an object goes.
fn field_pos(key: &str, n: usize, depth: usize, level: usize, item: bool) -> Pos<'_> {
    match (item, n) {
        (true, 0) => Pos::FirstField { key, depth, level },
        (true, _) => Pos::Field {
            key,
            depth: item_field_depth(depth),
            level,
        },
        (false, _) => Pos::Field { key, depth, level },
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
        open(self.level, self.out.max_depth)?;
        Ok(FieldEntries {
            keys: self.check_keys.then(KeySet::default),
            key: self.out.scratch.keys.take(),
            fields: self,
            n: 0,
        })
    }
    fn newtype_variant<T: Serialize + ?Sized>(self, variant: &'static str, v: &T) -> Res<()> {
        open(self.level, self.out.max_depth)?;
        let pos = self.pos(variant, 0);
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
    /// The pending map key.
    key: String,
    /// The keys written so far, when repeats are checked.
    keys: Option<KeySet>,
}

impl FieldEntries<'_, '_> {
    /// [`Halt::Repeat`] if `key` was written already (or shares its fingerprint).
    #[inline]
    fn check(keys: &mut Option<KeySet>, key: &str) -> Res<()> {
        if let Some(keys) = keys
            && !keys.insert(key)
        {
            return Err(Halt::Repeat);
        }
        Ok(())
    }
}

impl MapVisit for FieldEntries<'_, '_> {
    type Ok = ();
    fn key<K: Serialize + ?Sized>(&mut self, k: &K) -> Res<()> {
        key_into(k, &mut self.key)?;
        Self::check(&mut self.keys, &self.key)
    }
    fn value<T: Serialize + ?Sized>(&mut self, v: &T) -> Res<()> {
        let f = &mut self.fields;
        let pos = field_pos(&self.key, self.n, f.depth, f.level + 1, f.item);
        self.n += 1;
        f.out.write_at(pos, v)
    }
    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Res<()> {
        Self::check(&mut self.keys, key)?;
        let pos = self.fields.pos(key, self.n);
        self.n += 1;
        self.fields.out.write_at(pos, v)
    }
    fn end(self) -> Res<()> {
        if self.fields.item && self.n == 0 {
            self.fields.out.enc.w.empty_item(self.fields.depth);
        }
        self.fields.out.scratch.keys.put(self.key);
        Ok(())
    }
}
