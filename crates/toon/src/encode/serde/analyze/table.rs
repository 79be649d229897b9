//! The field list of a would-be table on the direct encoder's look-ahead (spec
//! §9.3): the template the first row prescribes, and whether each later row fits it.

use std::borrow::Cow;

use serde::Serialize;

use super::super::adapter::{Halt, MapVisit, Never, P, Res, Visit, visit};
use super::super::keys::{KeySet, with_key};
use super::{Field, kind_of, same_name, undecided};
use crate::Delimiter;
use crate::encode::form::{self, Kind, Template};
use crate::encode::line::syntax::{row_separator, write_cell};
use crate::stack::guarded;

/// The template shape of a value: a leaf, a nested field group, or neither.
pub(crate) enum Shape {
    Leaf,
    Group(Vec<Field>),
    Bad,
}

/// The cells of a first row, written while its template is built (the one-pass
/// encoder then needs not serialize that row again): the leaves in template order,
/// which is the order a row's cells are written in.
pub(crate) struct RowText {
    pub(crate) out: String,
    pub(crate) first: bool,
    pub(crate) delimiter: Delimiter,
}

/// Builds the field list a first row prescribes; `level` counts the containers
/// around the value.
struct TemplateOf<'r> {
    level: usize,
    max_depth: usize,
    row: Option<&'r mut RowText>,
}

impl TemplateOf<'_> {
    /// The template rule ([`form::template`]) for a value of `kind` here.
    fn rule(&self, kind: Kind) -> Template {
        form::template(kind, self.level + 1, self.max_depth)
    }
}

/// The shape of `v`, a value with `level` containers around it.
pub(crate) fn shape_of<T: Serialize + ?Sized>(v: &T, level: usize, max_depth: usize) -> Res<Shape> {
    shape_and_cells(v, level, max_depth, None)
}

/// [`shape_of`], also writing the value's cells into `row` when it is given.
pub(crate) fn shape_and_cells<T: Serialize + ?Sized>(
    v: &T,
    level: usize,
    max_depth: usize,
    row: Option<&mut RowText>,
) -> Res<Shape> {
    let look = TemplateOf {
        level,
        max_depth,
        row,
    };
    match guarded(|| visit(v, look)) {
        Ok(s) => Ok(s),
        Err(Halt::Container | Halt::NoFit) => Ok(Shape::Bad),
        Err(e) => Err(undecided(e)),
    }
}

impl<'r> Visit for TemplateOf<'r> {
    type Ok = Shape;
    type Seq = Never<Shape>;
    type Map = TemplateObj<'r>;
    fn prim(self, p: P<'_>) -> Res<Shape> {
        Ok(match self.rule(Kind::Primitive) {
            Template::Leaf => {
                if let Some(row) = self.row {
                    let sep = row_separator(&mut row.first, row.delimiter);
                    write_cell(&mut row.out, sep, p.as_primitive(), row.delimiter);
                }
                Shape::Leaf
            }
            Template::Group | Template::NotATable => Shape::Bad,
        })
    }
    fn bytes(self, _b: &[u8]) -> Res<Shape> {
        Ok(Shape::Bad)
    }
    fn seq(self, _len: Option<usize>) -> Res<Never<Shape>> {
        Err(Halt::Container)
    }
    /// An object is a group within the nesting limit (an empty one ends as
    /// [`Shape::Bad`]); past the limit the `Value` route decides.
    fn map(self, len: Option<usize>) -> Res<TemplateObj<'r>> {
        if self.rule(Kind::Object) != Template::Group {
            return Err(Halt::Fallback);
        }
        Ok(TemplateObj::new(
            self.level + 1,
            self.max_depth,
            None,
            len,
            self.row,
        ))
    }
    fn newtype_variant<T: Serialize + ?Sized>(self, variant: &'static str, v: &T) -> Res<Shape> {
        if self.rule(Kind::Object) != Template::Group {
            return Err(Halt::Fallback);
        }
        let field = match shape_and_cells(v, self.level + 1, self.max_depth, self.row)? {
            Shape::Leaf => Field::leaf(variant),
            Shape::Group(children) => Field::group(variant, children),
            Shape::Bad => return Ok(Shape::Bad),
        };
        Ok(Shape::Group(vec![field]))
    }
    fn tuple_variant(self, _v: &'static str, _len: usize) -> Res<Never<Shape>> {
        Err(Halt::Container)
    }
    fn struct_variant(self, variant: &'static str, len: usize) -> Res<TemplateObj<'r>> {
        if self.level + 1 >= self.max_depth {
            return Err(Halt::Fallback);
        }
        Ok(TemplateObj::new(
            self.level + 2,
            self.max_depth,
            Some(variant),
            Some(len),
            self.row,
        ))
    }
}

/// The entries of a would-be first row.
struct TemplateObj<'r> {
    fields: Vec<Field>,
    keys: KeySet,
    bad: bool,
    /// Containers around the entry values.
    level: usize,
    max_depth: usize,
    pending: Option<Cow<'static, str>>,
    /// For a struct variant, the tag around the fields.
    variant: Option<&'static str>,
    /// Where the row's cells are written, if anywhere.
    row: Option<&'r mut RowText>,
}

impl<'r> TemplateObj<'r> {
    fn new(
        level: usize,
        max_depth: usize,
        variant: Option<&'static str>,
        len: Option<usize>,
        row: Option<&'r mut RowText>,
    ) -> TemplateObj<'r> {
        TemplateObj {
            // The hint sizes the field list; a false one only costs a reallocation.
            fields: Vec::with_capacity(len.unwrap_or(0).min(64)),
            keys: KeySet::default(),
            bad: false,
            level,
            max_depth,
            pending: None,
            variant,
            row,
        }
    }

    fn entry<T: Serialize + ?Sized>(&mut self, name: Cow<'static, str>, v: &T) -> Res<()> {
        if self.bad {
            return Ok(());
        }
        match shape_and_cells(v, self.level, self.max_depth, self.row.as_deref_mut())? {
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

impl MapVisit for TemplateObj<'_> {
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
        None => Ok(form::kind_fits(field, kind_of(v)?)),
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
    extra: Option<Box<KeySet>>,
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
            extra: None,
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
                if !self.extra.get_or_insert_default().insert(key) {
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
