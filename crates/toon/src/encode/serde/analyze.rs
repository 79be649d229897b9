//! The look-ahead of the direct encoder: a first, output-free serialization of one
//! array or object that decides its form before any of it is written.
//!
//! It gathers the facts the form rules of [`form`](crate::encode::form) ask for: the
//! first element (or entry value) fixes a field list by [`form::template`](crate::encode::form::template) and every
//! later one must fit it ([`form::kind_fits`](crate::encode::form::kind_fits)). Objects are read with the semantics
//! of [`Map`](crate::Map): a repeated key would keep its first position and take its
//! last value, which cannot be decided while streaming, so any repeated key (or a
//! fingerprint collision) answers [`Halt::Fallback`] and that container is encoded
//! through a `Value`. Errors met here also answer `Fallback`: the `Value` serializer
//! then reports the same first error the old path reported.
//!
//! The look-ahead stops descending as soon as it knows enough: list-form elements are
//! only counted, and a container where a primitive is wanted ends its probe at once.

use serde::Serialize;

use super::adapter::{Halt, MapVisit, Never, P, Res, SeqVisit, Visit, visit};
use super::keys::{KeySet, with_key};
use crate::encode::form::{Kind, Place, may_be_keyed};

/// One entry of a table header's field list: names are the struct's own
/// `&'static str` keys or owned map keys.
pub(crate) type Field = crate::fields::Field<'static>;

pub(crate) use crate::fields::same_name;

/// Turns any error of the look-ahead into [`Halt::Fallback`].
fn undecided(h: Halt) -> Halt {
    match h {
        Halt::Fail(_) | Halt::Inconsistent | Halt::Fallback => Halt::Fallback,
        other => other,
    }
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

/// What `v` is, as far as a probe that does not open containers can tell: a
/// primitive, or [`Kind::Other`] for any container.
pub(crate) fn kind_of<T: Serialize + ?Sized>(v: &T) -> Res<Kind> {
    match visit(v, Probe) {
        Ok(()) => Ok(Kind::Primitive),
        Err(Halt::Container) => Ok(Kind::Other),
        Err(e) => Err(undecided(e)),
    }
}

mod head;
mod table;
pub(crate) use head::{ArrayHead, array_head, first_value_shape, keyed_candidate};
pub(crate) use table::Shape;
use table::{fits, shape_of};

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
    /// After the first pass: every entry value is an object of one size, so the
    /// keyed-table template is worth building.
    maybe_keyed: bool,
}

/// Checks an object at `place` with `level` containers around its entry values (the
/// object's own level) for repeated keys and, if [`may_be_keyed`] allows, decides
/// whether it is a keyed table.
///
/// The first pass checks the keys and looks at each entry value without opening
/// it (an object, and its size hint); only when every entry value is an object of
/// the same size does a second pass build the first entry's template and fit the
/// others to it, so objects that are plainly not keyed tables cost no field lists.
pub(crate) fn plan_object<T: Serialize + ?Sized>(
    v: &T,
    level: usize,
    max_depth: usize,
    place: Place,
) -> Res<ObjectPlan> {
    let look = |pass| ObjectLook {
        level,
        max_depth,
        place,
        pass,
    };
    let plan = visit(v, look(Pass::Sizes)).map_err(undecided)?;
    if !plan.maybe_keyed {
        return Ok(plan);
    }
    let rows = visit(v, look(Pass::Rows)).map_err(undecided)?;
    if rows.len != plan.len {
        return Err(Halt::Fallback);
    }
    Ok(rows)
}

/// The two passes of [`plan_object`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    /// Keys, and each entry value's kind and size.
    Sizes,
    /// The keyed-table template and fit.
    Rows,
}

struct ObjectLook {
    level: usize,
    max_depth: usize,
    place: Place,
    pass: Pass,
}

/// Whether the entry values seen so far are objects of one size.
#[derive(Clone, Copy)]
enum Sizes {
    First,
    /// All objects, of this size where their serializers said it.
    Same(Option<usize>),
    Differ,
}

impl Sizes {
    fn observe(self, size: Size) -> Sizes {
        match (self, size) {
            (_, Size::NotObject | Size::Object(Some(0))) | (Sizes::Differ, _) => Sizes::Differ,
            (Sizes::First, Size::Object(n)) => Sizes::Same(n),
            (Sizes::Same(Some(a)), Size::Object(Some(b))) if a != b => Sizes::Differ,
            (Sizes::Same(a), Size::Object(b)) => Sizes::Same(a.or(b)),
        }
    }
}

struct ObjectEntries {
    len: usize,
    /// The serializer's length hint.
    hint: Option<usize>,
    place: Place,
    pass: Pass,
    keys: KeySet,
    sizes: Sizes,
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
        // With a hint that rules a keyed table out, the entries are not examined
        // (a wrong hint sends the object to the Value route).
        let keyed = may_be_keyed(self.place, len);
        Ok(ObjectEntries {
            len: 0,
            hint: len,
            place: self.place,
            pass: self.pass,
            keys: KeySet::default(),
            sizes: if keyed { Sizes::First } else { Sizes::Differ },
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
            maybe_keyed: false,
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
        match self.pass {
            Pass::Sizes => {
                if !matches!(self.sizes, Sizes::Differ) {
                    self.sizes = self.sizes.observe(size_of(v)?);
                }
                Ok(())
            }
            Pass::Rows => self.rows.observe(v, self.level, self.max_depth),
        }
    }
}

impl MapVisit for ObjectEntries {
    type Ok = ObjectPlan;
    fn key<K: Serialize + ?Sized>(&mut self, k: &K) -> Res<()> {
        // The first pass found the keys distinct.
        if self.pass == Pass::Rows || with_key(k, |s| self.keys.insert(s))? {
            Ok(())
        } else {
            Err(Halt::Fallback)
        }
    }
    fn value<T: Serialize + ?Sized>(&mut self, v: &T) -> Res<()> {
        self.entry(v)
    }
    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Res<()> {
        if self.pass == Pass::Sizes && !self.keys.insert(key) {
            return Err(Halt::Fallback);
        }
        self.entry(v)
    }
    fn end(self) -> Res<ObjectPlan> {
        let keyed = may_be_keyed(self.place, Some(self.len));
        if keyed && !may_be_keyed(self.place, self.hint) {
            return Err(Halt::Fallback);
        }
        Ok(ObjectPlan {
            len: self.len,
            keyed: match self.rows {
                Rows::Table(fields) if keyed && self.pass == Pass::Rows => Some(fields),
                _ => None,
            },
            maybe_keyed: keyed && self.pass == Pass::Sizes && matches!(self.sizes, Sizes::Same(_)),
        })
    }
}

/// What the first pass of [`plan_object`] sees of an entry value.
#[derive(Clone, Copy)]
enum Size {
    /// An object (a map, or a variant's one-entry object) with this size hint.
    Object(Option<usize>),
    /// Anything else, which no keyed table holds.
    NotObject,
}

/// The [`Size`] of `v`, without opening it.
fn size_of<T: Serialize + ?Sized>(v: &T) -> Res<Size> {
    let mut len = None;
    match visit(v, SizeProbe(&mut len)) {
        Err(Halt::Container) => Ok(Size::Object(len)),
        Ok(()) | Err(Halt::NoFit) => Ok(Size::NotObject),
        Err(e) => Err(undecided(e)),
    }
}

/// Records an object's size hint and stops ([`Halt::Container`]); anything that
/// is not an object answers [`Halt::NoFit`].
struct SizeProbe<'a>(&'a mut Option<usize>);

impl Visit for SizeProbe<'_> {
    type Ok = ();
    type Seq = Never<()>;
    type Map = Never<()>;
    fn prim(self, _p: P<'_>) -> Res<()> {
        Err(Halt::NoFit)
    }
    fn bytes(self, _b: &[u8]) -> Res<()> {
        Err(Halt::NoFit)
    }
    fn seq(self, _len: Option<usize>) -> Res<Never<()>> {
        Err(Halt::NoFit)
    }
    fn map(self, len: Option<usize>) -> Res<Never<()>> {
        *self.0 = len;
        Err(Halt::Container)
    }
    fn newtype_variant<T: Serialize + ?Sized>(self, _v: &'static str, _x: &T) -> Res<()> {
        *self.0 = Some(1);
        Err(Halt::Container)
    }
    fn tuple_variant(self, _v: &'static str, _len: usize) -> Res<Never<()>> {
        // `{Variant: [...]}`: an array field, which no template takes.
        Err(Halt::NoFit)
    }
    fn struct_variant(self, _v: &'static str, _len: usize) -> Res<Never<()>> {
        *self.0 = Some(1);
        Err(Halt::Container)
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
