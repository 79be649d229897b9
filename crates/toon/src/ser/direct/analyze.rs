//! The look-ahead of the direct encoder: a first, output-free serialization of one
//! array or object that decides its form before any of it is written.
//!
//! It mirrors the `Value` encoder's rules (`encode/table.rs`): the first element (or
//! entry value) fixes a field list — primitives are leaf fields, non-empty objects
//! nested field groups, anything else rules a table out — and every later one must
//! have exactly those keys with the same shapes. Objects are read with the semantics
//! of [`Map`](crate::Map): a repeated key would keep its first position and take its
//! last value, which cannot be decided while streaming, so any repeated key (or a
//! fingerprint collision) answers [`Halt::Fallback`] and that container is encoded
//! through a `Value`. Errors met here also answer `Fallback`: the `Value` serializer
//! then reports the same first error the old path reported.
//!
//! The look-ahead stops descending as soon as it knows enough: list-form elements are
//! only counted, and a container where a primitive is wanted ends its probe at once.

use std::borrow::Cow;

use serde::Serialize;

use super::adapter::{Halt, MapVisit, Never, P, Res, SeqVisit, Visit, visit};
use super::keys::{KeySet, with_key};
use crate::stack::guarded;

/// One entry of a table header's field list: names are the struct's own
/// `&'static str` keys or owned map keys.
pub(crate) type Field = crate::fields::Field<'static>;

/// Whether a field is named `key`; a `&'static str` key of the struct that gave the
/// first row is recognised by its address before the bytes are compared.
#[inline]
pub(crate) fn same_name(name: &str, key: &str) -> bool {
    (name.as_ptr() == key.as_ptr() && name.len() == key.len()) || name == key
}

/// Turns any error of the look-ahead into [`Halt::Fallback`].
fn undecided(h: Halt) -> Halt {
    match h {
        Halt::Fail(_) | Halt::Inconsistent | Halt::Fallback => Halt::Fallback,
        other => other,
    }
}

/// What a value is, as far as a probe that does not open containers can tell.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Primitive,
    Container,
}

struct Probe;

impl Visit for Probe {
    type Ok = ();
    type Seq = Never<()>;
    type Map = Never<()>;
    fn prim(self, _p: P<'_>) -> Res<()> {
        Ok(())
    }
    fn bytes(self, _b: &[u8]) -> Res<()> {
        Err(Halt::Container)
    }
    fn seq(self, _len: Option<usize>) -> Res<Never<()>> {
        Err(Halt::Container)
    }
    fn map(self, _len: Option<usize>) -> Res<Never<()>> {
        Err(Halt::Container)
    }
    fn newtype_variant<T: Serialize + ?Sized>(self, _v: &'static str, _x: &T) -> Res<()> {
        Err(Halt::Container)
    }
    fn tuple_variant(self, _v: &'static str, _len: usize) -> Res<Never<()>> {
        Err(Halt::Container)
    }
    fn struct_variant(self, _v: &'static str, _len: usize) -> Res<Never<()>> {
        Err(Halt::Container)
    }
}

/// Whether `v` is a primitive or a container (without looking inside).
pub(crate) fn kind_of<T: Serialize + ?Sized>(v: &T) -> Res<Kind> {
    match visit(v, Probe) {
        Ok(()) => Ok(Kind::Primitive),
        Err(Halt::Container) => Ok(Kind::Container),
        Err(e) => Err(undecided(e)),
    }
}

/// The template shape of a value: a leaf, a nested field group, or neither.
pub(crate) enum Shape {
    Leaf,
    Group(Vec<Field>),
    Bad,
}

/// Builds the field list a first row prescribes; `level` counts the containers
/// around the value.
struct Template {
    level: usize,
    max_depth: usize,
}

/// The shape of `v`, a value with `level` containers around it.
pub(crate) fn shape_of<T: Serialize + ?Sized>(v: &T, level: usize, max_depth: usize) -> Res<Shape> {
    match guarded(|| visit(v, Template { level, max_depth })) {
        Ok(s) => Ok(s),
        Err(Halt::Container | Halt::NoFit) => Ok(Shape::Bad),
        Err(e) => Err(undecided(e)),
    }
}

impl Visit for Template {
    type Ok = Shape;
    type Seq = Never<Shape>;
    type Map = TemplateObj;
    fn prim(self, _p: P<'_>) -> Res<Shape> {
        Ok(Shape::Leaf)
    }
    fn bytes(self, _b: &[u8]) -> Res<Shape> {
        Ok(Shape::Bad)
    }
    fn seq(self, _len: Option<usize>) -> Res<Never<Shape>> {
        Err(Halt::Container)
    }
    fn map(self, _len: Option<usize>) -> Res<TemplateObj> {
        if self.level >= self.max_depth {
            return Err(Halt::Fallback);
        }
        Ok(TemplateObj::new(self.level + 1, self.max_depth, None))
    }
    fn newtype_variant<T: Serialize + ?Sized>(self, variant: &'static str, v: &T) -> Res<Shape> {
        if self.level >= self.max_depth {
            return Err(Halt::Fallback);
        }
        let field = match shape_of(v, self.level + 1, self.max_depth)? {
            Shape::Leaf => Field::leaf(variant),
            Shape::Group(children) => Field::group(variant, children),
            Shape::Bad => return Ok(Shape::Bad),
        };
        Ok(Shape::Group(vec![field]))
    }
    fn tuple_variant(self, _v: &'static str, _len: usize) -> Res<Never<Shape>> {
        Err(Halt::Container)
    }
    fn struct_variant(self, variant: &'static str, _len: usize) -> Res<TemplateObj> {
        if self.level + 1 >= self.max_depth {
            return Err(Halt::Fallback);
        }
        Ok(TemplateObj::new(
            self.level + 2,
            self.max_depth,
            Some(variant),
        ))
    }
}

/// The entries of a would-be first row.
struct TemplateObj {
    fields: Vec<Field>,
    keys: KeySet,
    bad: bool,
    /// Containers around the entry values.
    level: usize,
    max_depth: usize,
    pending: Option<Cow<'static, str>>,
    /// For a struct variant, the tag around the fields.
    variant: Option<&'static str>,
}

impl TemplateObj {
    fn new(level: usize, max_depth: usize, variant: Option<&'static str>) -> TemplateObj {
        TemplateObj {
            fields: Vec::new(),
            keys: KeySet::default(),
            bad: false,
            level,
            max_depth,
            pending: None,
            variant,
        }
    }

    fn entry<T: Serialize + ?Sized>(&mut self, name: Cow<'static, str>, v: &T) -> Res<()> {
        if self.bad {
            return Ok(());
        }
        match shape_of(v, self.level, self.max_depth)? {
            Shape::Leaf => self.fields.push(Field::leaf(name)),
            Shape::Group(children) => self.fields.push(Field::group(name, children)),
            Shape::Bad => {
                self.bad = true;
                self.fields = Vec::new();
            }
        }
        Ok(())
    }
}

impl MapVisit for TemplateObj {
    type Ok = Shape;
    fn key<K: Serialize + ?Sized>(&mut self, k: &K) -> Res<()> {
        let bad = self.bad;
        let (fresh, name) = with_key(k, |s| {
            (
                self.keys.insert(s),
                (!bad).then(|| Cow::Owned(s.to_owned())),
            )
        })?;
        if !fresh {
            return Err(Halt::Fallback);
        }
        self.pending = name;
        Ok(())
    }
    fn value<T: Serialize + ?Sized>(&mut self, v: &T) -> Res<()> {
        let name = self.pending.take().unwrap_or(Cow::Borrowed(""));
        self.entry(name, v)
    }
    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Res<()> {
        if !self.keys.insert(key) {
            return Err(Halt::Fallback);
        }
        self.entry(Cow::Borrowed(key), v)
    }
    fn end(self) -> Res<Shape> {
        if self.bad || self.fields.is_empty() {
            return Ok(Shape::Bad);
        }
        Ok(match self.variant {
            Some(variant) => Shape::Group(vec![Field::group(variant, self.fields)]),
            None => Shape::Group(self.fields),
        })
    }
}

/// Checks a row against a field list: `Ok` if it fits, [`Halt::NoFit`] if not.
struct Matcher<'f> {
    fields: &'f [Field],
    level: usize,
    max_depth: usize,
}

/// Whether `v` (with `level` containers around it) fits `fields`.
pub(crate) fn fits<T: Serialize + ?Sized>(
    v: &T,
    fields: &[Field],
    level: usize,
    max_depth: usize,
) -> Res<bool> {
    let m = Matcher {
        fields,
        level,
        max_depth,
    };
    match guarded(|| visit(v, m)) {
        Ok(()) => Ok(true),
        Err(Halt::NoFit | Halt::Container) => Ok(false),
        Err(e) => Err(undecided(e)),
    }
}

/// Whether the value `v` fits `field` (a primitive for a leaf, a fitting object for a
/// group).
fn fits_field<T: Serialize + ?Sized>(
    v: &T,
    field: &Field,
    level: usize,
    max_depth: usize,
) -> Res<bool> {
    match &field.children {
        None => Ok(kind_of(v)? == Kind::Primitive),
        Some(group) => fits(v, group, level, max_depth),
    }
}

impl<'f> Visit for Matcher<'f> {
    type Ok = ();
    type Seq = Never<()>;
    type Map = MatchObj<'f>;
    fn prim(self, _p: P<'_>) -> Res<()> {
        Err(Halt::NoFit)
    }
    fn bytes(self, _b: &[u8]) -> Res<()> {
        Err(Halt::NoFit)
    }
    fn seq(self, _len: Option<usize>) -> Res<Never<()>> {
        Err(Halt::NoFit)
    }
    fn map(self, _len: Option<usize>) -> Res<MatchObj<'f>> {
        if self.level >= self.max_depth {
            return Err(Halt::Fallback);
        }
        Ok(MatchObj::new(self.fields, self.level + 1, self.max_depth))
    }
    fn newtype_variant<T: Serialize + ?Sized>(self, variant: &'static str, v: &T) -> Res<()> {
        if self.level >= self.max_depth {
            return Err(Halt::Fallback);
        }
        match self.fields {
            [only] if only.name == variant => {
                if fits_field(v, only, self.level + 1, self.max_depth)? {
                    Ok(())
                } else {
                    Err(Halt::NoFit)
                }
            }
            _ => Err(Halt::NoFit),
        }
    }
    fn tuple_variant(self, _v: &'static str, _len: usize) -> Res<Never<()>> {
        Err(Halt::NoFit)
    }
    fn struct_variant(self, variant: &'static str, _len: usize) -> Res<MatchObj<'f>> {
        if self.level + 1 >= self.max_depth {
            return Err(Halt::Fallback);
        }
        match self.fields {
            [only] if only.name == variant && !only.is_leaf() => Ok(MatchObj::new(
                only.group_fields(),
                self.level + 2,
                self.max_depth,
            )),
            _ => Err(Halt::NoFit),
        }
    }
}

/// The entries of a row being matched.
struct MatchObj<'f> {
    fields: &'f [Field],
    /// Entries seen so far.
    i: usize,
    /// Which fields have been seen, once a key came out of order.
    seen: Option<Vec<bool>>,
    /// Keys that are not fields (each one already means no fit).
    extra: KeySet,
    failed: bool,
    level: usize,
    max_depth: usize,
    /// The field index of the pending map key (`None`: not a field).
    pending: Option<usize>,
}

impl<'f> MatchObj<'f> {
    fn new(fields: &'f [Field], level: usize, max_depth: usize) -> MatchObj<'f> {
        MatchObj {
            fields,
            i: 0,
            seen: None,
            extra: KeySet::default(),
            failed: false,
            level,
            max_depth,
            pending: None,
        }
    }

    /// The field index of `key`, or `Fallback` if the key repeats.
    fn index(&mut self, key: &str) -> Res<Option<usize>> {
        if self.seen.is_none() {
            if self
                .fields
                .get(self.i)
                .is_some_and(|f| same_name(&f.name, key))
            {
                return Ok(Some(self.i));
            }
            let mut seen = vec![false; self.fields.len()];
            for s in seen.iter_mut().take(self.i) {
                *s = true;
            }
            self.seen = Some(seen);
        }
        let found = self.fields.iter().position(|f| f.name == key);
        match (found, self.seen.as_mut()) {
            (Some(j), Some(seen)) => {
                if seen[j] {
                    return Err(Halt::Fallback);
                }
                seen[j] = true;
                Ok(Some(j))
            }
            (Some(j), None) => Ok(Some(j)),
            (None, _) => {
                if !self.extra.insert(key) {
                    return Err(Halt::Fallback);
                }
                Ok(None)
            }
        }
    }

    fn entry<T: Serialize + ?Sized>(&mut self, index: Option<usize>, v: &T) -> Res<()> {
        self.i += 1;
        if self.failed {
            return Ok(());
        }
        match index.and_then(|j| self.fields.get(j)) {
            Some(field) => {
                if !fits_field(v, field, self.level, self.max_depth)? {
                    self.failed = true;
                }
            }
            None => self.failed = true,
        }
        Ok(())
    }
}

impl MapVisit for MatchObj<'_> {
    type Ok = ();
    fn key<K: Serialize + ?Sized>(&mut self, k: &K) -> Res<()> {
        self.pending = with_key(k, |s| self.index(s))??;
        Ok(())
    }
    fn value<T: Serialize + ?Sized>(&mut self, v: &T) -> Res<()> {
        let index = self.pending.take();
        self.entry(index, v)
    }
    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Res<()> {
        let index = self.index(key)?;
        self.entry(index, v)
    }
    fn end(self) -> Res<()> {
        if self.failed || self.i != self.fields.len() {
            Err(Halt::NoFit)
        } else {
            Ok(())
        }
    }
}

/// How an array that is not all primitives is written.
pub(crate) struct ArrayPlan {
    pub(crate) len: usize,
    /// The header's field list if the array is a table.
    pub(crate) table: Option<Vec<Field>>,
}

/// Decides the form of an array with `level` containers around its elements (the
/// array's own level).
pub(crate) fn plan_array<T: Serialize + ?Sized>(
    v: &T,
    level: usize,
    max_depth: usize,
) -> Res<ArrayPlan> {
    visit(v, ArrayLook { level, max_depth }).map_err(undecided)
}

struct ArrayLook {
    level: usize,
    max_depth: usize,
}

enum Rows {
    First,
    Table(Vec<Field>),
    List,
}

impl Rows {
    /// Takes one more element into account: the first sets the table's fields (or
    /// makes it a list), each later one must fit them.
    fn observe<T: Serialize + ?Sized>(&mut self, v: &T, level: usize, max_depth: usize) -> Res<()> {
        match self {
            Rows::First => {
                *self = match shape_of(v, level, max_depth)? {
                    Shape::Group(fields) => Rows::Table(fields),
                    Shape::Leaf | Shape::Bad => Rows::List,
                };
            }
            Rows::Table(fields) => {
                if !fits(v, fields, level, max_depth)? {
                    *self = Rows::List;
                }
            }
            Rows::List => {}
        }
        Ok(())
    }
}

struct ArrayElems {
    len: usize,
    rows: Rows,
    level: usize,
    max_depth: usize,
}

impl Visit for ArrayLook {
    type Ok = ArrayPlan;
    type Seq = ArrayElems;
    type Map = Never<ArrayPlan>;
    fn prim(self, _p: P<'_>) -> Res<ArrayPlan> {
        Err(Halt::Fallback)
    }
    fn bytes(self, _b: &[u8]) -> Res<ArrayPlan> {
        Err(Halt::Fallback)
    }
    fn seq(self, _len: Option<usize>) -> Res<ArrayElems> {
        Ok(ArrayElems {
            len: 0,
            rows: Rows::First,
            level: self.level,
            max_depth: self.max_depth,
        })
    }
    fn map(self, _len: Option<usize>) -> Res<Never<ArrayPlan>> {
        Err(Halt::Fallback)
    }
    fn newtype_variant<T: Serialize + ?Sized>(self, _v: &'static str, _x: &T) -> Res<ArrayPlan> {
        Err(Halt::Fallback)
    }
    fn tuple_variant(self, _v: &'static str, _len: usize) -> Res<ArrayElems> {
        Err(Halt::Fallback)
    }
    fn struct_variant(self, _v: &'static str, _len: usize) -> Res<Never<ArrayPlan>> {
        Err(Halt::Fallback)
    }
}

impl SeqVisit for ArrayElems {
    type Ok = ArrayPlan;
    fn element<T: Serialize + ?Sized>(&mut self, v: &T) -> Res<()> {
        self.len += 1;
        self.rows.observe(v, self.level, self.max_depth)
    }
    fn end(self) -> Res<ArrayPlan> {
        Ok(ArrayPlan {
            len: self.len,
            table: match self.rows {
                Rows::Table(fields) => Some(fields),
                Rows::First | Rows::List => None,
            },
        })
    }
}

/// How an object is written.
pub(crate) struct ObjectPlan {
    pub(crate) len: usize,
    /// The field list of a keyed table (two or more uniform object entries).
    pub(crate) keyed: Option<Vec<Field>>,
}

/// Checks an object with `level` containers around its entry values (the object's
/// own level) for repeated keys and, if `keyed` may be tried, decides whether it is a
/// keyed table.
pub(crate) fn plan_object<T: Serialize + ?Sized>(
    v: &T,
    level: usize,
    max_depth: usize,
    keyed: bool,
) -> Res<ObjectPlan> {
    visit(
        v,
        ObjectLook {
            level,
            max_depth,
            keyed,
        },
    )
    .map_err(undecided)
}

struct ObjectLook {
    level: usize,
    max_depth: usize,
    keyed: bool,
}

struct ObjectEntries {
    len: usize,
    /// The serializer's length hint.
    hint: Option<usize>,
    /// Whether a keyed table may be tried here.
    keyed: bool,
    keys: KeySet,
    rows: Rows,
    level: usize,
    max_depth: usize,
}

impl Visit for ObjectLook {
    type Ok = ObjectPlan;
    type Seq = Never<ObjectPlan>;
    type Map = ObjectEntries;
    fn prim(self, _p: P<'_>) -> Res<ObjectPlan> {
        Err(Halt::Fallback)
    }
    fn bytes(self, _b: &[u8]) -> Res<ObjectPlan> {
        Err(Halt::Fallback)
    }
    fn seq(self, _len: Option<usize>) -> Res<Never<ObjectPlan>> {
        Err(Halt::Fallback)
    }
    fn map(self, len: Option<usize>) -> Res<ObjectEntries> {
        if self.level > self.max_depth {
            return Err(Halt::Fallback);
        }
        // A keyed table needs two entries: with a hint of fewer, the first entry's
        // field list is not built (a wrong hint sends the object to the Value route).
        let keyed = self.keyed && len.is_none_or(|n| n >= 2);
        Ok(ObjectEntries {
            len: 0,
            hint: len,
            keyed: self.keyed,
            keys: KeySet::default(),
            rows: if keyed { Rows::First } else { Rows::List },
            level: self.level,
            max_depth: self.max_depth,
        })
    }
    fn newtype_variant<T: Serialize + ?Sized>(self, _v: &'static str, _x: &T) -> Res<ObjectPlan> {
        if self.level > self.max_depth {
            return Err(Halt::Fallback);
        }
        Ok(ObjectPlan {
            len: 1,
            keyed: None,
        })
    }
    fn tuple_variant(self, _v: &'static str, _len: usize) -> Res<Never<ObjectPlan>> {
        Err(Halt::Fallback)
    }
    fn struct_variant(self, _v: &'static str, _len: usize) -> Res<ObjectEntries> {
        Err(Halt::Fallback)
    }
}

impl ObjectEntries {
    fn entry<T: Serialize + ?Sized>(&mut self, v: &T) -> Res<()> {
        self.len += 1;
        self.rows.observe(v, self.level, self.max_depth)
    }
}

impl MapVisit for ObjectEntries {
    type Ok = ObjectPlan;
    fn key<K: Serialize + ?Sized>(&mut self, k: &K) -> Res<()> {
        if with_key(k, |s| self.keys.insert(s))? {
            Ok(())
        } else {
            Err(Halt::Fallback)
        }
    }
    fn value<T: Serialize + ?Sized>(&mut self, v: &T) -> Res<()> {
        self.entry(v)
    }
    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Res<()> {
        if !self.keys.insert(key) {
            return Err(Halt::Fallback);
        }
        self.entry(v)
    }
    fn end(self) -> Res<ObjectPlan> {
        if self.keyed && self.len >= 2 && self.hint.is_some_and(|n| n < 2) {
            return Err(Halt::Fallback);
        }
        Ok(ObjectPlan {
            len: self.len,
            keyed: match self.rows {
                Rows::Table(fields) if self.len >= 2 => Some(fields),
                _ => None,
            },
        })
    }
}

/// Counts the elements of a sequence without looking at them.
pub(crate) fn count<T: Serialize + ?Sized>(v: &T) -> Res<usize> {
    visit(v, Counter).map_err(undecided)
}

struct Counter;

struct Count(usize);

impl SeqVisit for Count {
    type Ok = usize;
    fn element<T: Serialize + ?Sized>(&mut self, _v: &T) -> Res<()> {
        self.0 += 1;
        Ok(())
    }
    fn end(self) -> Res<usize> {
        Ok(self.0)
    }
}

impl Visit for Counter {
    type Ok = usize;
    type Seq = Count;
    type Map = Never<usize>;
    fn prim(self, _p: P<'_>) -> Res<usize> {
        Err(Halt::Fallback)
    }
    fn bytes(self, b: &[u8]) -> Res<usize> {
        Ok(b.len())
    }
    fn seq(self, _len: Option<usize>) -> Res<Count> {
        Ok(Count(0))
    }
    fn map(self, _len: Option<usize>) -> Res<Never<usize>> {
        Err(Halt::Fallback)
    }
    fn newtype_variant<T: Serialize + ?Sized>(self, _v: &'static str, _x: &T) -> Res<usize> {
        Err(Halt::Fallback)
    }
    fn tuple_variant(self, _v: &'static str, _len: usize) -> Res<Count> {
        Err(Halt::Fallback)
    }
    fn struct_variant(self, _v: &'static str, _len: usize) -> Res<Never<usize>> {
        Err(Halt::Fallback)
    }
}
