//! The bounded look-ahead of the one-pass encoder (`to_string`): it reads only as far
//! as a decision needs and leaves the rest to the writing pass, which checks each
//! later element as it writes it (and takes the container back if one does not fit).
//!
//! - [`array_head`]: an array's length hint and its first element's table template
//!   (spec §9.3: the first row prescribes the header's fields), with that row's
//!   cells, written on the way.
//! - [`keyed_candidate`]: whether every entry value of an object is an object of one
//!   size (§9.5), stopping at the first that is not — most objects stop at their
//!   first primitive entry.
//! - [`first_value_shape`]: the template of an object's first entry value.

use serde::Serialize;

use super::super::adapter::{Halt, MapVisit, Never, P, Res, SeqVisit, Visit, visit};
use super::table::{RowText, Shape, shape_and_cells, shape_of};
use super::{Sizes, size_of, undecided};
use crate::Delimiter;

/// What [`array_head`] learns of an array.
pub(crate) struct ArrayHead {
    /// The serializer's length hint.
    pub(crate) hint: Option<usize>,
    /// The first element's template shape, when asked for and the array has one.
    pub(crate) first: Option<Shape>,
    /// The first element's cells as a table row (meaningful when `first` is a
    /// group).
    pub(crate) first_cells: String,
}

/// The length hint of the array `v` (at nesting `level`, its own level) and, if
/// `want_shape`, its first element's shape and its cells as a row with `delimiter`,
/// written into `cells` (a spare buffer, cleared first).
pub(crate) fn array_head<T: Serialize + ?Sized>(
    v: &T,
    level: usize,
    max_depth: usize,
    want_shape: bool,
    delimiter: Delimiter,
    mut cells: String,
) -> Res<ArrayHead> {
    cells.clear();
    let mut head = ArrayHead {
        hint: None,
        first: None,
        first_cells: cells,
    };
    let look = HeadLook {
        head: &mut head,
        level,
        max_depth,
        want_shape,
        delimiter,
    };
    match visit(v, look) {
        Ok(()) | Err(Halt::Container) => Ok(head),
        Err(e) => Err(undecided(e)),
    }
}

struct HeadLook<'a> {
    head: &'a mut ArrayHead,
    level: usize,
    max_depth: usize,
    want_shape: bool,
    delimiter: Delimiter,
}

/// Anything but a sequence cannot be the array the attempt saw: the `Value` route.
macro_rules! only_a_sequence_here {
    ($ok:ty) => {
        fn prim(self, _p: P<'_>) -> Res<$ok> {
            Err(Halt::Fallback)
        }
        fn bytes(self, _b: &[u8]) -> Res<$ok> {
            Err(Halt::Fallback)
        }
        fn newtype_variant<T: Serialize + ?Sized>(self, _v: &'static str, _x: &T) -> Res<$ok> {
            Err(Halt::Fallback)
        }
        fn tuple_variant(self, _v: &'static str, _len: usize) -> Res<Self::Seq> {
            Err(Halt::Fallback)
        }
        fn struct_variant(self, _v: &'static str, _len: usize) -> Res<Self::Map> {
            Err(Halt::Fallback)
        }
    };
}

impl<'a> Visit for HeadLook<'a> {
    type Ok = ();
    type Seq = HeadLook<'a>;
    type Map = Never<()>;
    only_a_sequence_here!(());
    fn seq(self, len: Option<usize>) -> Res<HeadLook<'a>> {
        self.head.hint = len;
        if self.want_shape {
            Ok(self)
        } else {
            Err(Halt::Container)
        }
    }
    fn map(self, _len: Option<usize>) -> Res<Never<()>> {
        Err(Halt::Fallback)
    }
}

impl SeqVisit for HeadLook<'_> {
    type Ok = ();
    fn element<T: Serialize + ?Sized>(&mut self, v: &T) -> Res<()> {
        let mut row = RowText {
            out: std::mem::take(&mut self.head.first_cells),
            first: true,
            delimiter: self.delimiter,
        };
        let shape = shape_and_cells(v, self.level, self.max_depth, Some(&mut row))?;
        self.head.first = Some(shape);
        self.head.first_cells = row.out;
        // Stops the serialization: the rest is read while it is written.
        Err(Halt::Container)
    }
    fn end(self) -> Res<()> {
        Ok(())
    }
}

/// `Some(len)` when the object `v` (at its own nesting `level`) has two or more
/// entries whose values are all objects of one size, the precondition of a keyed
/// table; `None` as soon as an entry value rules it out. Keys are not read.
pub(crate) fn keyed_candidate<T: Serialize + ?Sized>(
    v: &T,
    level: usize,
    max_depth: usize,
) -> Res<Option<usize>> {
    match visit(v, CandidateLook { level, max_depth }) {
        Ok(found) => Ok(found),
        Err(Halt::NoFit) => Ok(None),
        Err(e) => Err(undecided(e)),
    }
}

struct CandidateLook {
    level: usize,
    max_depth: usize,
}

struct Candidate {
    len: usize,
    sizes: Sizes,
}

impl Candidate {
    fn entry<T: Serialize + ?Sized>(&mut self, v: &T) -> Res<()> {
        self.len += 1;
        self.sizes = self.sizes.observe(size_of(v)?);
        match self.sizes {
            Sizes::Differ => Err(Halt::NoFit),
            Sizes::First | Sizes::Same(_) => Ok(()),
        }
    }
}

impl Visit for CandidateLook {
    type Ok = Option<usize>;
    type Seq = Never<Option<usize>>;
    type Map = Candidate;
    fn prim(self, _p: P<'_>) -> Res<Option<usize>> {
        Err(Halt::Fallback)
    }
    fn bytes(self, _b: &[u8]) -> Res<Option<usize>> {
        Err(Halt::Fallback)
    }
    fn seq(self, _len: Option<usize>) -> Res<Never<Option<usize>>> {
        Err(Halt::Fallback)
    }
    fn map(self, _len: Option<usize>) -> Res<Candidate> {
        if self.level > self.max_depth {
            return Err(Halt::Fallback);
        }
        Ok(Candidate {
            len: 0,
            sizes: Sizes::First,
        })
    }
    fn newtype_variant<T: Serialize + ?Sized>(
        self,
        _v: &'static str,
        _x: &T,
    ) -> Res<Option<usize>> {
        // A one-entry object.
        Ok(None)
    }
    fn tuple_variant(self, _v: &'static str, _len: usize) -> Res<Never<Option<usize>>> {
        Err(Halt::Fallback)
    }
    fn struct_variant(self, _v: &'static str, _len: usize) -> Res<Candidate> {
        Err(Halt::Fallback)
    }
}

impl MapVisit for Candidate {
    type Ok = Option<usize>;
    fn key<K: Serialize + ?Sized>(&mut self, _k: &K) -> Res<()> {
        Ok(())
    }
    fn value<T: Serialize + ?Sized>(&mut self, v: &T) -> Res<()> {
        self.entry(v)
    }
    fn field<T: Serialize + ?Sized>(&mut self, _key: &'static str, v: &T) -> Res<()> {
        self.entry(v)
    }
    fn end(self) -> Res<Option<usize>> {
        Ok(match self.sizes {
            Sizes::Same(_) if self.len >= 2 => Some(self.len),
            _ => None,
        })
    }
}

/// The template shape of the first entry value of the object `v` (at its own
/// nesting `level`).
pub(crate) fn first_value_shape<T: Serialize + ?Sized>(
    v: &T,
    level: usize,
    max_depth: usize,
) -> Res<Shape> {
    let mut first = None;
    let look = FirstValue {
        first: &mut first,
        level,
        max_depth,
    };
    match visit(v, look) {
        Ok(()) | Err(Halt::Container) => Ok(first.unwrap_or(Shape::Bad)),
        Err(e) => Err(undecided(e)),
    }
}

struct FirstValue<'a> {
    first: &'a mut Option<Shape>,
    level: usize,
    max_depth: usize,
}

impl<'a> Visit for FirstValue<'a> {
    type Ok = ();
    type Seq = Never<()>;
    type Map = FirstValue<'a>;
    fn prim(self, _p: P<'_>) -> Res<()> {
        Err(Halt::Fallback)
    }
    fn bytes(self, _b: &[u8]) -> Res<()> {
        Err(Halt::Fallback)
    }
    fn seq(self, _len: Option<usize>) -> Res<Never<()>> {
        Err(Halt::Fallback)
    }
    fn map(self, _len: Option<usize>) -> Res<FirstValue<'a>> {
        Ok(self)
    }
    fn newtype_variant<T: Serialize + ?Sized>(self, _v: &'static str, _x: &T) -> Res<()> {
        Err(Halt::Fallback)
    }
    fn tuple_variant(self, _v: &'static str, _len: usize) -> Res<Never<()>> {
        Err(Halt::Fallback)
    }
    fn struct_variant(self, _v: &'static str, _len: usize) -> Res<FirstValue<'a>> {
        Err(Halt::Fallback)
    }
}

impl MapVisit for FirstValue<'_> {
    type Ok = ();
    fn key<K: Serialize + ?Sized>(&mut self, _k: &K) -> Res<()> {
        Ok(())
    }
    fn value<T: Serialize + ?Sized>(&mut self, v: &T) -> Res<()> {
        *self.first = Some(shape_of(v, self.level, self.max_depth)?);
        Err(Halt::Container)
    }
    fn field<T: Serialize + ?Sized>(&mut self, _key: &'static str, v: &T) -> Res<()> {
        self.value(v)
    }
    fn end(self) -> Res<()> {
        Ok(())
    }
}
