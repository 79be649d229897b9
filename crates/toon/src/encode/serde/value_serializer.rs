//! The serde `Serializer` that builds a [`Value`].

use crate::js_number::f32_to_f64;
use serde::ser::{self, Serialize};

use super::map_key::MapKeySerializer;
use crate::stack::guarded;
use crate::{Error, ErrorKind, Map, Number, Result, Value};

/// Serializes one value at a nesting level (the number of containers around it).
#[derive(Clone, Copy)]
pub(crate) struct ValueSerializer {
    level: usize,
    max_depth: usize,
}

impl ValueSerializer {
    /// A serializer for a root value.
    pub(crate) fn new(max_depth: usize) -> ValueSerializer {
        ValueSerializer {
            level: 0,
            max_depth,
        }
    }

    /// A serializer for a value with `level` containers around it.
    pub(crate) fn at_level(level: usize, max_depth: usize) -> ValueSerializer {
        ValueSerializer { level, max_depth }
    }

    /// The serializer for the contents of a container opened here, or a depth error.
    fn inner(self) -> Result<ValueSerializer> {
        if self.level >= self.max_depth {
            return Err(crate::encode::depth_error(self.max_depth));
        }
        Ok(ValueSerializer {
            level: self.level + 1,
            max_depth: self.max_depth,
        })
    }

    fn serialize_child<T: Serialize + ?Sized>(self, value: &T) -> Result<Value> {
        guarded(|| value.serialize(self))
    }
}

/// A float as a value: NaN and infinities are `null` (spec §3).
fn float(f: f64) -> Value {
    Number::from_f64(f).map_or(Value::Null, Value::Number)
}

/// `{variant: value}`, serde's externally tagged form.
fn tagged(variant: &str, value: Value) -> Value {
    let mut map = Map::with_capacity(1);
    map.insert(variant.to_owned(), value);
    Value::Object(map)
}

impl ser::Serializer for ValueSerializer {
    type Ok = Value;
    type Error = Error;
    type SerializeSeq = SeqBuilder;
    type SerializeTuple = SeqBuilder;
    type SerializeTupleStruct = SeqBuilder;
    type SerializeTupleVariant = SeqBuilder;
    type SerializeMap = MapBuilder;
    type SerializeStruct = MapBuilder;
    type SerializeStructVariant = MapBuilder;

    fn serialize_bool(self, v: bool) -> Result<Value> {
        Ok(Value::Bool(v))
    }

    fn serialize_i8(self, v: i8) -> Result<Value> {
        Ok(Value::from(v))
    }

    fn serialize_i16(self, v: i16) -> Result<Value> {
        Ok(Value::from(v))
    }

    fn serialize_i32(self, v: i32) -> Result<Value> {
        Ok(Value::from(v))
    }

    fn serialize_i64(self, v: i64) -> Result<Value> {
        Ok(Value::from(v))
    }

    fn serialize_i128(self, v: i128) -> Result<Value> {
        Ok(Value::from(v))
    }

    fn serialize_u8(self, v: u8) -> Result<Value> {
        Ok(Value::from(v))
    }

    fn serialize_u16(self, v: u16) -> Result<Value> {
        Ok(Value::from(v))
    }

    fn serialize_u32(self, v: u32) -> Result<Value> {
        Ok(Value::from(v))
    }

    fn serialize_u64(self, v: u64) -> Result<Value> {
        Ok(Value::from(v))
    }

    fn serialize_u128(self, v: u128) -> Result<Value> {
        Ok(Value::from(v))
    }

    fn serialize_f32(self, v: f32) -> Result<Value> {
        Ok(float(f32_to_f64(v)))
    }

    fn serialize_f64(self, v: f64) -> Result<Value> {
        Ok(float(v))
    }

    fn serialize_char(self, v: char) -> Result<Value> {
        Ok(Value::String(v.to_string()))
    }

    fn serialize_str(self, v: &str) -> Result<Value> {
        Ok(Value::String(v.to_owned()))
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<Value> {
        self.inner()?;
        Ok(Value::Array(v.iter().map(|&b| Value::from(b)).collect()))
    }

    fn serialize_none(self) -> Result<Value> {
        Ok(Value::Null)
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Value> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<Value> {
        Ok(Value::Null)
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<Value> {
        Ok(Value::Null)
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Value> {
        Ok(Value::String(variant.to_owned()))
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<Value> {
        if let Some(n) = super::big_integer(name, value) {
            return n.map(Value::Number);
        }
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Value> {
        let inner = self.inner()?.serialize_child(value)?;
        Ok(tagged(variant, inner))
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<SeqBuilder> {
        Ok(SeqBuilder {
            items: Vec::with_capacity(len.unwrap_or(0).min(4096)),
            child: self.inner()?,
            variant: None,
        })
    }

    fn serialize_tuple(self, len: usize) -> Result<SeqBuilder> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<SeqBuilder> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<SeqBuilder> {
        // The tag object is one level, the tuple inside it another.
        let mut seq = self.inner()?.serialize_seq(Some(len))?;
        seq.variant = Some(variant);
        Ok(seq)
    }

    fn serialize_map(self, len: Option<usize>) -> Result<MapBuilder> {
        Ok(MapBuilder {
            map: Map::with_capacity(len.unwrap_or(0).min(4096)),
            pending_key: None,
            child: self.inner()?,
            variant: None,
        })
    }

    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<MapBuilder> {
        self.serialize_map(Some(len))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<MapBuilder> {
        let mut map = self.inner()?.serialize_map(Some(len))?;
        map.variant = Some(variant);
        Ok(map)
    }

    fn collect_str<T: std::fmt::Display + ?Sized>(self, value: &T) -> Result<Value> {
        Ok(Value::String(value.to_string()))
    }
}

/// Collects the items of a sequence, tuple or tuple variant.
pub(crate) struct SeqBuilder {
    items: Vec<Value>,
    child: ValueSerializer,
    /// For a tuple variant, the variant name to wrap the array in.
    variant: Option<&'static str>,
}

impl SeqBuilder {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.items.push(self.child.serialize_child(value)?);
        Ok(())
    }

    fn finish(self) -> Value {
        let array = Value::Array(self.items);
        match self.variant {
            Some(variant) => tagged(variant, array),
            None => array,
        }
    }
}

impl ser::SerializeSeq for SeqBuilder {
    type Ok = Value;
    type Error = Error;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }

    fn end(self) -> Result<Value> {
        Ok(self.finish())
    }
}

impl ser::SerializeTuple for SeqBuilder {
    type Ok = Value;
    type Error = Error;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }

    fn end(self) -> Result<Value> {
        Ok(self.finish())
    }
}

impl ser::SerializeTupleStruct for SeqBuilder {
    type Ok = Value;
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }

    fn end(self) -> Result<Value> {
        Ok(self.finish())
    }
}

impl ser::SerializeTupleVariant for SeqBuilder {
    type Ok = Value;
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }

    fn end(self) -> Result<Value> {
        Ok(self.finish())
    }
}

/// Collects the entries of a map, struct or struct variant.
pub(crate) struct MapBuilder {
    map: Map,
    pending_key: Option<String>,
    child: ValueSerializer,
    /// For a struct variant, the variant name to wrap the object in.
    variant: Option<&'static str>,
}

impl MapBuilder {
    /// Inserts an entry; a repeated key keeps its first position and takes the last
    /// value, as JavaScript objects do.
    fn insert<T: Serialize + ?Sized>(&mut self, key: String, value: &T) -> Result<()> {
        let value = self.child.serialize_child(value)?;
        self.map.insert(key, value);
        Ok(())
    }

    fn finish(self) -> Value {
        let object = Value::Object(self.map);
        match self.variant {
            Some(variant) => tagged(variant, object),
            None => object,
        }
    }
}

impl ser::SerializeMap for MapBuilder {
    type Ok = Value;
    type Error = Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        self.pending_key = Some(key.serialize(MapKeySerializer)?);
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        let Some(key) = self.pending_key.take() else {
            return Err(Error::new(
                ErrorKind::Encode,
                "serialize_value called before serialize_key",
            ));
        };
        self.insert(key, value)
    }

    fn end(self) -> Result<Value> {
        Ok(self.finish())
    }
}

impl ser::SerializeStruct for MapBuilder {
    type Ok = Value;
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.insert(key.to_owned(), value)
    }

    fn end(self) -> Result<Value> {
        Ok(self.finish())
    }
}

impl ser::SerializeStructVariant for MapBuilder {
    type Ok = Value;
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.insert(key.to_owned(), value)
    }

    fn end(self) -> Result<Value> {
        Ok(self.finish())
    }
}
