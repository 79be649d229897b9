//! `Serialize` for [`Value`] and [`Number`], so a value can be written by any serde
//! format (JSON through `serde_json`, YAML, …) with key order kept.

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use crate::stack::guarded;
use crate::value::N;
use crate::{Number, Value};

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => serializer.serialize_unit(),
            Value::Bool(b) => serializer.serialize_bool(*b),
            Value::Number(n) => n.serialize(serializer),
            Value::String(s) => serializer.serialize_str(s),
            Value::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    guarded(|| seq.serialize_element(item))?;
                }
                seq.end()
            }
            Value::Object(map) => {
                let mut m = serializer.serialize_map(Some(map.len()))?;
                for (k, v) in map {
                    guarded(|| m.serialize_entry(k, v))?;
                }
                m.end()
            }
        }
    }
}

impl Serialize for Number {
    /// Integers as `u64`/`i64`; wider integers as `u128`/`i128` when they fit, else as
    /// the nearest `f64`; floats as `f64`.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            N::PosInt(u) => serializer.serialize_u64(*u),
            N::NegInt(i) => serializer.serialize_i64(*i),
            N::Float(f) => serializer.serialize_f64(*f),
            N::Big(digits) => {
                if let Ok(u) = digits.parse::<u128>() {
                    serializer.serialize_u128(u)
                } else if let Ok(i) = digits.parse::<i128>() {
                    serializer.serialize_i128(i)
                } else {
                    serializer.serialize_f64(self.as_f64())
                }
            }
        }
    }
}
