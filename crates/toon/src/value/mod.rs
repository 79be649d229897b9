//! The JSON data model that TOON encodes: [`Value`], [`Map`] with its [`Key`]s, and [`Number`].

mod convert;
mod de;
#[cfg(feature = "json")]
mod from_json;
mod json;
#[cfg(feature = "json")]
mod json_tape;
mod key;
mod map;
mod map_iter;
mod number;
mod ser;

pub(crate) use de::describe;
pub use de::from_value;
#[cfg(feature = "json")]
pub use from_json::from_json_str;
pub use json::to_json_string;
pub(crate) use json::write_json_string;
#[cfg(feature = "json")]
pub use json_tape::JsonTape;
pub use key::Key;
pub(crate) use key::KeyVisitor;
pub use map::{INDEX_AFTER, Map};
pub use map_iter::{IntoIter, Iter, IterMut};
pub(crate) use number::N;
pub use number::Number;

/// The key of the one-entry map through which the decoder hands an integer too large
/// for 128 bits to a visitor; [`Value`]'s visitor turns it back into a [`Number`].
#[doc(hidden)]
pub const BIG_INTEGER_KEY: &str = "$toon::private::BigInteger";

/// Any value of the JSON data model, with object key order kept.
///
/// Five words: the variant is a tag byte of its own (`repr(u8)`), not hidden in a
/// spare value of the `Map`'s vector capacity, so telling variants apart (which every
/// encoder and reader does per value) is one compare; hiding it would save a word per
/// value but cost encoding 1–3% more instructions.
#[derive(Clone, Debug, PartialEq, Default)]
#[repr(u8)]
pub enum Value {
    /// `null`
    #[default]
    Null,
    /// `true` or `false`
    Bool(bool),
    /// A number; see [`Number`] for the integer policy.
    Number(Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object whose keys keep their order.
    Object(Map),
}

impl Value {
    /// True for `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The array, if this is one.
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The object, if this is one.
    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number, if this is one.
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// Looks up a key of an object (`None` for other values or a missing key).
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_object().and_then(|m| m.get(key))
    }

    /// True for arrays and objects.
    pub fn is_container(&self) -> bool {
        matches!(self, Value::Array(_) | Value::Object(_))
    }

    /// True for `null`, booleans, numbers and strings.
    pub fn is_primitive(&self) -> bool {
        !self.is_container()
    }
}

/// Builds a [`Value`] with JSON-like syntax, as `serde_json::json!` does: `null`,
/// arrays `[…]`, objects `{"key": …}` (keys are string literals or `(expression)`s), and
/// any Rust expression convertible into a [`Value`] (numbers, strings, `bool`, `Option`,
/// `Vec`, another `Value`). Object keys keep the order written.
///
/// ```
/// let v = toon::toon!({"name": "Ada", "tags": ["x", "y"], "n": 3, "ok": true, "none": null});
/// assert_eq!(toon::encode_value(&v), "name: Ada\ntags[2]: x,y\nn: 3\nok: true\nnone: null");
/// let key = "z";
/// let n = 2;
/// assert_eq!(toon::toon!({(key): [n + 1, {}], "a": -0.5}), toon::toon!({"z": [3, {}], "a": -0.5}));
/// ```
#[macro_export]
macro_rules! toon {
    ($($value:tt)+) => {
        $crate::__toon_value!($($value)+)
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __toon_value {
    (null) => {
        $crate::Value::Null
    };
    ([]) => {
        $crate::Value::Array(::std::vec::Vec::new())
    };
    ([ $($items:tt)+ ]) => {
        $crate::Value::Array($crate::__toon_array!([] $($items)+))
    };
    ({}) => {
        $crate::Value::Object($crate::Map::new())
    };
    ({ $($fields:tt)+ }) => {
        $crate::Value::Object({
            let mut object = $crate::Map::new();
            $crate::__toon_object!(object $($fields)+);
            object
        })
    };
    ($other:expr) => {
        $crate::Value::from($other)
    };
}

/// Munches array items: `[done,] rest`.
#[doc(hidden)]
#[macro_export]
macro_rules! __toon_array {
    ([$($done:expr,)*]) => {
        ::std::vec![$($done,)*]
    };
    ([$($done:expr,)*] null $(, $($rest:tt)*)?) => {
        $crate::__toon_array!([$($done,)* $crate::Value::Null,] $($($rest)*)?)
    };
    ([$($done:expr,)*] [$($inner:tt)*] $(, $($rest:tt)*)?) => {
        $crate::__toon_array!([$($done,)* $crate::__toon_value!([$($inner)*]),] $($($rest)*)?)
    };
    ([$($done:expr,)*] {$($inner:tt)*} $(, $($rest:tt)*)?) => {
        $crate::__toon_array!([$($done,)* $crate::__toon_value!({$($inner)*}),] $($($rest)*)?)
    };
    ([$($done:expr,)*] $next:expr $(, $($rest:tt)*)?) => {
        $crate::__toon_array!([$($done,)* $crate::__toon_value!($next),] $($($rest)*)?)
    };
}

/// Munches object fields into the map `$object`.
#[doc(hidden)]
#[macro_export]
macro_rules! __toon_object {
    ($object:ident) => {};
    ($object:ident $key:literal : $($rest:tt)+) => {
        $crate::__toon_object!(@value $object [$key] $($rest)+)
    };
    ($object:ident ($key:expr) : $($rest:tt)+) => {
        $crate::__toon_object!(@value $object [$key] $($rest)+)
    };
    (@value $object:ident [$key:expr] null $(, $($rest:tt)*)?) => {
        $object.insert($crate::value::Key::from($key), $crate::Value::Null);
        $crate::__toon_object!($object $($($rest)*)?)
    };
    (@value $object:ident [$key:expr] [$($inner:tt)*] $(, $($rest:tt)*)?) => {
        $object.insert($crate::value::Key::from($key), $crate::__toon_value!([$($inner)*]));
        $crate::__toon_object!($object $($($rest)*)?)
    };
    (@value $object:ident [$key:expr] {$($inner:tt)*} $(, $($rest:tt)*)?) => {
        $object.insert($crate::value::Key::from($key), $crate::__toon_value!({$($inner)*}));
        $crate::__toon_object!($object $($($rest)*)?)
    };
    (@value $object:ident [$key:expr] $value:expr $(, $($rest:tt)*)?) => {
        $object.insert($crate::value::Key::from($key), $crate::__toon_value!($value));
        $crate::__toon_object!($object $($($rest)*)?)
    };
}

static NULL: Value = Value::Null;

impl std::ops::Index<&str> for Value {
    type Output = Value;

    /// The value at `key` of an object; `null` for a missing key or a non-object.
    fn index(&self, key: &str) -> &Value {
        self.get(key).unwrap_or(&NULL)
    }
}

impl std::ops::Index<usize> for Value {
    type Output = Value;

    /// The element at `i` of an array; `null` when out of range or not an array.
    fn index(&self, i: usize) -> &Value {
        self.as_array().and_then(|a| a.get(i)).unwrap_or(&NULL)
    }
}
