//! The plumbing shared by every serializer of the direct encoder: the [`Halt`] error
//! that also carries control signals, the primitive values of the data model ([`P`]),
//! and [`Ser`], which turns a small [`Visit`] implementation into a full serde
//! `Serializer` with the value mapping of [`to_value`](crate::to_value).

use std::fmt;

use serde::ser::{self, Serialize};

use crate::js_number::f32_to_f64;
use crate::{Error, Number};

/// What stops a serializer early: a real error, or a signal that the caller handles.
#[derive(Debug)]
pub(crate) enum Halt {
    /// An error to report (depth, map key, or a `Serialize` impl's own error).
    Fail(Error),
    /// The value is a container, so the caller must take another route.
    Container,
    /// The value does not fit the form being tried (not a primitive, not a matching
    /// row); nothing needs undoing beyond what the caller marked.
    NoFit,
    /// A table row's keys are not in the header's order.
    Reorder,
    /// An object written in one pass met a key it had already written: it is taken
    /// back and encoded through a `Value` (which keeps the first position and the
    /// last value).
    Repeat,
    /// The analysis cannot decide the form: encode this container through a `Value`.
    Fallback,
    /// The second serialization of a value differed from the first (a `Serialize`
    /// impl that is not deterministic).
    Inconsistent,
}

impl fmt::Display for Halt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Halt::Fail(e) => e.fmt(f),
            other => write!(f, "internal encoder signal {other:?}"),
        }
    }
}

impl std::error::Error for Halt {}

impl ser::Error for Halt {
    fn custom<T: fmt::Display>(msg: T) -> Halt {
        Halt::Fail(<Error as ser::Error>::custom(msg))
    }
}

impl From<Error> for Halt {
    fn from(e: Error) -> Halt {
        Halt::Fail(e)
    }
}

/// Result of the direct encoder's steps.
pub(crate) type Res<T> = std::result::Result<T, Halt>;

/// The depth error, worded as the `Value` serializer words it.
pub(crate) fn depth_error(max_depth: usize) -> Halt {
    Halt::Fail(crate::encode::depth_error(max_depth))
}

/// Fails unless a container may open around a value that has `level` containers
/// around it.
#[inline]
pub(crate) fn open(level: usize, max_depth: usize) -> Res<()> {
    if level >= max_depth {
        Err(depth_error(max_depth))
    } else {
        Ok(())
    }
}

/// A primitive as the `Value` serializer maps it.
pub(crate) enum P<'a> {
    Null,
    Bool(bool),
    Num(Number),
    Str(&'a str),
}

impl P<'_> {
    fn float(f: f64) -> P<'static> {
        Number::from_f64(f).map_or(P::Null, P::Num)
    }

    /// The primitive as the writer takes it.
    #[inline]
    pub(crate) fn as_primitive(&self) -> crate::encode::line::syntax::Primitive<'_> {
        use crate::encode::line::syntax::Primitive;
        match self {
            P::Null => Primitive::Null,
            P::Bool(b) => Primitive::Bool(*b),
            P::Num(n) => Primitive::Num(n),
            P::Str(s) => Primitive::Str(s),
        }
    }
}

/// What a serializer of the direct encoder does with each kind of value.
pub(crate) trait Visit: Sized {
    type Ok;
    type Seq: SeqVisit<Ok = Self::Ok>;
    type Map: MapVisit<Ok = Self::Ok>;
    fn prim(self, p: P<'_>) -> Res<Self::Ok>;
    fn bytes(self, b: &[u8]) -> Res<Self::Ok>;
    fn seq(self, len: Option<usize>) -> Res<Self::Seq>;
    fn map(self, len: Option<usize>) -> Res<Self::Map>;
    /// A struct named `name` of `len` fields: a map whose keys are the struct's
    /// `&'static str` field names (visitors that do not care take it as a map).
    #[inline]
    fn struct_map(self, name: &'static str, len: usize) -> Res<Self::Map> {
        let _ = name;
        self.map(Some(len))
    }
    fn newtype_variant<T: Serialize + ?Sized>(self, variant: &'static str, v: &T) -> Res<Self::Ok>;
    fn tuple_variant(self, variant: &'static str, len: usize) -> Res<Self::Seq>;
    fn struct_variant(self, variant: &'static str, len: usize) -> Res<Self::Map>;
}

/// The elements of a sequence, tuple or tuple variant.
pub(crate) trait SeqVisit {
    type Ok;
    fn element<T: Serialize + ?Sized>(&mut self, v: &T) -> Res<()>;
    fn end(self) -> Res<Self::Ok>;
}

/// The entries of a map, struct or struct variant.
pub(crate) trait MapVisit {
    type Ok;
    fn key<K: Serialize + ?Sized>(&mut self, k: &K) -> Res<()>;
    fn value<T: Serialize + ?Sized>(&mut self, v: &T) -> Res<()>;
    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Res<()>;
    fn end(self) -> Res<Self::Ok>;
}

/// A sequence or map state for visitors that never produce one.
pub(crate) enum Never<O> {
    #[allow(dead_code)]
    Never(std::convert::Infallible, std::marker::PhantomData<O>),
}

impl<O> SeqVisit for Never<O> {
    type Ok = O;
    fn element<T: Serialize + ?Sized>(&mut self, _v: &T) -> Res<()> {
        match *self {
            Never::Never(never, _) => match never {},
        }
    }
    fn end(self) -> Res<O> {
        match self {
            Never::Never(never, _) => match never {},
        }
    }
}

impl<O> MapVisit for Never<O> {
    type Ok = O;
    fn key<K: Serialize + ?Sized>(&mut self, _k: &K) -> Res<()> {
        match *self {
            Never::Never(never, _) => match never {},
        }
    }
    fn value<T: Serialize + ?Sized>(&mut self, _v: &T) -> Res<()> {
        match *self {
            Never::Never(never, _) => match never {},
        }
    }
    fn field<T: Serialize + ?Sized>(&mut self, _key: &'static str, _v: &T) -> Res<()> {
        match *self {
            Never::Never(never, _) => match never {},
        }
    }
    fn end(self) -> Res<O> {
        match self {
            Never::Never(never, _) => match never {},
        }
    }
}

/// A serde `Serializer` driving a [`Visit`].
pub(crate) struct Ser<V>(pub(crate) V);

/// Serializes `v` with the visitor `visit`.
#[inline]
pub(crate) fn visit<T: Serialize + ?Sized, V: Visit>(v: &T, visit: V) -> Res<V::Ok> {
    v.serialize(Ser(visit))
}

/// The sequence state of [`Ser`].
pub(crate) struct SeqS<S>(S);
/// The map state of [`Ser`].
pub(crate) struct MapS<M>(M);

impl<V: Visit> ser::Serializer for Ser<V> {
    type Ok = V::Ok;
    type Error = Halt;
    type SerializeSeq = SeqS<V::Seq>;
    type SerializeTuple = SeqS<V::Seq>;
    type SerializeTupleStruct = SeqS<V::Seq>;
    type SerializeTupleVariant = SeqS<V::Seq>;
    type SerializeMap = MapS<V::Map>;
    type SerializeStruct = MapS<V::Map>;
    type SerializeStructVariant = MapS<V::Map>;

    fn serialize_bool(self, v: bool) -> Res<V::Ok> {
        self.0.prim(P::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Res<V::Ok> {
        self.0.prim(P::Num(Number::from(v)))
    }
    fn serialize_i16(self, v: i16) -> Res<V::Ok> {
        self.0.prim(P::Num(Number::from(v)))
    }
    fn serialize_i32(self, v: i32) -> Res<V::Ok> {
        self.0.prim(P::Num(Number::from(v)))
    }
    fn serialize_i64(self, v: i64) -> Res<V::Ok> {
        self.0.prim(P::Num(Number::from(v)))
    }
    fn serialize_i128(self, v: i128) -> Res<V::Ok> {
        self.0.prim(P::Num(Number::from(v)))
    }
    fn serialize_u8(self, v: u8) -> Res<V::Ok> {
        self.0.prim(P::Num(Number::from(v)))
    }
    fn serialize_u16(self, v: u16) -> Res<V::Ok> {
        self.0.prim(P::Num(Number::from(v)))
    }
    fn serialize_u32(self, v: u32) -> Res<V::Ok> {
        self.0.prim(P::Num(Number::from(v)))
    }
    fn serialize_u64(self, v: u64) -> Res<V::Ok> {
        self.0.prim(P::Num(Number::from(v)))
    }
    fn serialize_u128(self, v: u128) -> Res<V::Ok> {
        self.0.prim(P::Num(Number::from(v)))
    }
    fn serialize_f32(self, v: f32) -> Res<V::Ok> {
        self.0.prim(P::float(f32_to_f64(v)))
    }
    fn serialize_f64(self, v: f64) -> Res<V::Ok> {
        self.0.prim(P::float(v))
    }
    fn serialize_char(self, v: char) -> Res<V::Ok> {
        let mut buf = [0u8; 4];
        self.0.prim(P::Str(v.encode_utf8(&mut buf)))
    }
    fn serialize_str(self, v: &str) -> Res<V::Ok> {
        self.0.prim(P::Str(v))
    }
    fn serialize_bytes(self, v: &[u8]) -> Res<V::Ok> {
        self.0.bytes(v)
    }
    fn serialize_none(self) -> Res<V::Ok> {
        self.0.prim(P::Null)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Res<V::Ok> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Res<V::Ok> {
        self.0.prim(P::Null)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Res<V::Ok> {
        self.0.prim(P::Null)
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Res<V::Ok> {
        self.0.prim(P::Str(variant))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Res<V::Ok> {
        if let Some(n) = super::big_integer(name, value) {
            return self.0.prim(P::Num(n?));
        }
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Res<V::Ok> {
        self.0.newtype_variant(variant, value)
    }
    fn serialize_seq(self, len: Option<usize>) -> Res<Self::SerializeSeq> {
        self.0.seq(len).map(SeqS)
    }
    fn serialize_tuple(self, len: usize) -> Res<Self::SerializeTuple> {
        self.0.seq(Some(len)).map(SeqS)
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Res<Self::SerializeTupleStruct> {
        self.0.seq(Some(len)).map(SeqS)
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Res<Self::SerializeTupleVariant> {
        self.0.tuple_variant(variant, len).map(SeqS)
    }
    fn serialize_map(self, len: Option<usize>) -> Res<Self::SerializeMap> {
        self.0.map(len).map(MapS)
    }
    fn serialize_struct(self, name: &'static str, len: usize) -> Res<Self::SerializeStruct> {
        self.0.struct_map(name, len).map(MapS)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Res<Self::SerializeStructVariant> {
        self.0.struct_variant(variant, len).map(MapS)
    }
}

macro_rules! seq_impl {
    ($tr:ident, $method:ident) => {
        impl<S: SeqVisit> ser::$tr for SeqS<S> {
            type Ok = S::Ok;
            type Error = Halt;
            fn $method<T: Serialize + ?Sized>(&mut self, v: &T) -> Res<()> {
                self.0.element(v)
            }
            fn end(self) -> Res<S::Ok> {
                self.0.end()
            }
        }
    };
}
seq_impl!(SerializeSeq, serialize_element);
seq_impl!(SerializeTuple, serialize_element);
seq_impl!(SerializeTupleStruct, serialize_field);
seq_impl!(SerializeTupleVariant, serialize_field);

impl<M: MapVisit> ser::SerializeMap for MapS<M> {
    type Ok = M::Ok;
    type Error = Halt;
    fn serialize_key<K: Serialize + ?Sized>(&mut self, k: &K) -> Res<()> {
        self.0.key(k)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Res<()> {
        self.0.value(v)
    }
    fn end(self) -> Res<M::Ok> {
        self.0.end()
    }
}

macro_rules! struct_impl {
    ($tr:ident) => {
        impl<M: MapVisit> ser::$tr for MapS<M> {
            type Ok = M::Ok;
            type Error = Halt;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                v: &T,
            ) -> Res<()> {
                self.0.field(key, v)
            }
            fn end(self) -> Res<M::Ok> {
                self.0.end()
            }
        }
    };
}
struct_impl!(SerializeStruct);
struct_impl!(SerializeStructVariant);
