//! Map keys: strings as they are; integers, booleans, chars, finite floats and unit
//! variants as their string form (as `serde_json` does); anything else is an error.

use serde::ser::{self, Impossible, Serialize};

use crate::js_number::f32_to_f64;
use crate::{Error, ErrorKind, Result};

/// Serializes a map key to the `String` it becomes.
pub(crate) struct MapKeySerializer;

fn key_error(what: &str) -> Error {
    Error::new(
        ErrorKind::Encode,
        format!("map key must be a string, integer, boolean, char or finite float, not {what}"),
    )
}

fn integer<I: itoa::Integer>(i: I) -> Result<String> {
    let mut key = String::new();
    crate::js_number::push_int(&mut key, i);
    Ok(key)
}

impl ser::Serializer for MapKeySerializer {
    type Ok = String;
    type Error = Error;
    type SerializeSeq = Impossible<String, Error>;
    type SerializeTuple = Impossible<String, Error>;
    type SerializeTupleStruct = Impossible<String, Error>;
    type SerializeTupleVariant = Impossible<String, Error>;
    type SerializeMap = Impossible<String, Error>;
    type SerializeStruct = Impossible<String, Error>;
    type SerializeStructVariant = Impossible<String, Error>;

    fn serialize_bool(self, v: bool) -> Result<String> {
        Ok(if v { "true" } else { "false" }.to_owned())
    }

    fn serialize_i8(self, v: i8) -> Result<String> {
        integer(v)
    }

    fn serialize_i16(self, v: i16) -> Result<String> {
        integer(v)
    }

    fn serialize_i32(self, v: i32) -> Result<String> {
        integer(v)
    }

    fn serialize_i64(self, v: i64) -> Result<String> {
        integer(v)
    }

    fn serialize_i128(self, v: i128) -> Result<String> {
        integer(v)
    }

    fn serialize_u8(self, v: u8) -> Result<String> {
        integer(v)
    }

    fn serialize_u16(self, v: u16) -> Result<String> {
        integer(v)
    }

    fn serialize_u32(self, v: u32) -> Result<String> {
        integer(v)
    }

    fn serialize_u64(self, v: u64) -> Result<String> {
        integer(v)
    }

    fn serialize_u128(self, v: u128) -> Result<String> {
        integer(v)
    }

    /// A finite float key in JavaScript's form (`1.5`, `1e+21`).
    fn serialize_f32(self, v: f32) -> Result<String> {
        self.serialize_f64(f32_to_f64(v))
    }

    /// A finite float key in JavaScript's form (`1.5`, `1e+21`).
    fn serialize_f64(self, v: f64) -> Result<String> {
        if !v.is_finite() {
            return Err(key_error("a NaN or infinite float"));
        }
        let mut key = String::new();
        crate::js_number::push_f64(&mut key, v);
        Ok(key)
    }

    fn serialize_char(self, v: char) -> Result<String> {
        Ok(v.to_string())
    }

    fn serialize_str(self, v: &str) -> Result<String> {
        Ok(v.to_owned())
    }

    fn serialize_bytes(self, _v: &[u8]) -> Result<String> {
        Err(key_error("bytes"))
    }

    fn serialize_none(self) -> Result<String> {
        Err(key_error("None"))
    }

    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Result<String> {
        Err(key_error("an Option"))
    }

    fn serialize_unit(self) -> Result<String> {
        Err(key_error("()"))
    }

    fn serialize_unit_struct(self, name: &'static str) -> Result<String> {
        Err(key_error(&format!("unit struct {name}")))
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<String> {
        Ok(variant.to_owned())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<String> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _value: &T,
    ) -> Result<String> {
        Err(key_error(&format!("enum variant {variant} with data")))
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(key_error("a sequence"))
    }

    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple> {
        Err(key_error("a tuple"))
    }

    fn serialize_tuple_struct(
        self,
        name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(key_error(&format!("tuple struct {name}")))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(key_error(&format!("enum variant {variant} with data")))
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap> {
        Err(key_error("a map"))
    }

    fn serialize_struct(self, name: &'static str, _len: usize) -> Result<Self::SerializeStruct> {
        Err(key_error(&format!("struct {name}")))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(key_error(&format!("enum variant {variant} with data")))
    }

    fn collect_str<T: std::fmt::Display + ?Sized>(self, value: &T) -> Result<String> {
        Ok(value.to_string())
    }
}
