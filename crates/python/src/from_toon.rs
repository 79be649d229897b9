//! TOON text to Python objects in one pass: a serde `DeserializeSeed` that the `toon`
//! crate's `Deserializer` drives, building dicts, lists, strs, ints, floats, bools
//! and None as the document is read (no intermediate `toon::Value`).
//!
//! Objects become dicts in document order (a repeated key, allowed in non-strict
//! mode, keeps its first position and takes the last value), or whatever
//! `object_hook(dict)` / `object_pairs_hook(pairs)` return; numbers call
//! `parse_int` / `parse_float` with their canonical text when given. Object keys
//! repeat across rows and list items, so each distinct key text is made into a
//! Python str once per call and shared (which also lets dicts reuse its cached hash).

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString};
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use toon::Number;

/// Hooks of `decode`, as in `json.loads`.
pub(crate) struct Hooks<'py> {
    /// Called with a float's canonical text instead of making a `float`.
    pub(crate) parse_float: Option<Bound<'py, PyAny>>,
    /// Called with an integer's digits instead of making an `int`.
    pub(crate) parse_int: Option<Bound<'py, PyAny>>,
    /// Called with each decoded dict; its result takes the dict's place.
    pub(crate) object_hook: Option<Bound<'py, PyAny>>,
    /// Called with each object's `(key, value)` list (wins over `object_hook`).
    pub(crate) object_pairs_hook: Option<Bound<'py, PyAny>>,
}

/// Distinct key texts kept per call: enough for any realistic schema, and a bound on
/// the cache for documents whose keys never repeat.
const KEY_CACHE_LIMIT: usize = 4096;

/// What one `decode` call shares while it builds objects.
pub(crate) struct Builder<'py> {
    py: Python<'py>,
    hooks: Hooks<'py>,
    /// The Python str made for each key text so far.
    keys: RefCell<HashMap<String, Bound<'py, PyString>, BuildHasherDefault<Fnv>>>,
    /// The Python exception behind the serde error being returned (a hook raised).
    error: RefCell<Option<PyErr>>,
}

impl<'py> Builder<'py> {
    /// A builder calling `hooks` where given.
    pub(crate) fn new(py: Python<'py>, hooks: Hooks<'py>) -> Builder<'py> {
        Builder {
            py,
            hooks,
            keys: RefCell::new(HashMap::default()),
            error: RefCell::new(None),
        }
    }

    /// Reads the whole document from `de` into Python objects. On failure, the
    /// Python exception a hook raised, or the decoder's error for `to_py_err`.
    pub(crate) fn build(
        &self,
        de: &mut toon::Deserializer<'_>,
        to_py_err: impl FnOnce(toon::Error) -> PyErr,
    ) -> PyResult<Bound<'py, PyAny>> {
        ValueSeed { b: self }.deserialize(de).map_err(|e| {
            self.error
                .borrow_mut()
                .take()
                .unwrap_or_else(|| to_py_err(e))
        })
    }

    /// Keeps `err` to be raised, and returns the serde error that stops the decoder.
    fn fail<E: de::Error>(&self, err: PyErr) -> E {
        let msg = err.to_string();
        *self.error.borrow_mut() = Some(err);
        E::custom(msg)
    }

    fn key(&self, text: &str) -> Bound<'py, PyString> {
        let mut keys = self.keys.borrow_mut();
        if let Some(k) = keys.get(text) {
            return k.clone();
        }
        let k = PyString::new(self.py, text);
        if keys.len() < KEY_CACHE_LIMIT {
            keys.insert(text.to_owned(), k.clone());
        }
        k
    }

    fn int<E: de::Error>(&self, n: Number) -> Result<Bound<'py, PyAny>, E> {
        let py = self.py;
        let made = if let Some(f) = &self.hooks.parse_int {
            f.call1((canonical(&n),))
        } else if let Some(i) = n.as_i64() {
            let Ok(i) = i.into_pyobject(py);
            Ok(i.into_any())
        } else if let Some(u) = n.as_u64() {
            let Ok(u) = u.into_pyobject(py);
            Ok(u.into_any())
        } else {
            py.get_type::<PyInt>().call1((canonical(&n),))
        };
        made.map_err(|e| self.fail(e))
    }

    fn float<E: de::Error>(&self, v: f64) -> Result<Bound<'py, PyAny>, E> {
        match &self.hooks.parse_float {
            Some(f) => match Number::from_f64(v) {
                Some(n) => f.call1((canonical(&n),)).map_err(|e| self.fail(e)),
                None => Err(E::custom("non-finite number")),
            },
            None => Ok(PyFloat::new(self.py, v).into_any()),
        }
    }

    /// A finished dict as the caller sees it: through the hooks, if any.
    fn object<E: de::Error>(&self, dict: Bound<'py, PyDict>) -> Result<Bound<'py, PyAny>, E> {
        let made = if let Some(hook) = &self.hooks.object_pairs_hook {
            hook.call1((dict.items(),))
        } else if let Some(hook) = &self.hooks.object_hook {
            hook.call1((dict,))
        } else {
            return Ok(dict.into_any());
        };
        made.map_err(|e| self.fail(e))
    }
}

/// A number's canonical text (JavaScript's shortest form for floats, exact digits for
/// integers), as the hooks receive it.
fn canonical(n: &Number) -> String {
    let mut text = String::new();
    n.write_canonical(&mut text);
    text
}

/// Any value, as a Python object.
#[derive(Clone, Copy)]
struct ValueSeed<'b, 'py> {
    b: &'b Builder<'py>,
}

impl<'de, 'py> DeserializeSeed<'de> for ValueSeed<'_, 'py> {
    type Value = Bound<'py, PyAny>;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, 'py> Visitor<'de> for ValueSeed<'_, 'py> {
    type Value = Bound<'py, PyAny>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any TOON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        Ok(PyBool::new(self.b.py, v).to_owned().into_any())
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        self.b.int(Number::from(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        self.b.int(Number::from(v))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Self::Value, E> {
        self.b.int(Number::from(v))
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Self::Value, E> {
        self.b.int(Number::from(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        self.b.float(v)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(PyString::new(self.b.py, v).into_any())
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(self.b.py.None().into_bound(self.b.py))
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        self.visit_unit()
    }

    fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        // A size hint is only trusted up to a modest bound.
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element_seed(self)? {
            items.push(item);
        }
        PyList::new(self.b.py, items)
            .map(Bound::into_any)
            .map_err(|e| self.b.fail(e))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let b = self.b;
        let dict = PyDict::new(b.py);
        let mut first = true;
        while let Some(key) = map.next_key_seed(KeySeed { b, first })? {
            let key = match key {
                Key::Text(k) => k,
                Key::BigInteger => {
                    let digits: String = map.next_value()?;
                    return match Number::from_integer_str(&digits) {
                        Some(n) => b.int(n),
                        None => Err(de::Error::custom("invalid big integer")),
                    };
                }
            };
            first = false;
            let value = map.next_value_seed(self)?;
            dict.set_item(key, value)
                .map_err(|e| b.fail::<A::Error>(e))?;
        }
        b.object(dict)
    }
}

/// An object key: a Python str, or the marker through which the decoder hands over an
/// integer too large for 128 bits (the only key of its one-entry map).
enum Key<'py> {
    Text(Bound<'py, PyString>),
    BigInteger,
}

struct KeySeed<'b, 'py> {
    b: &'b Builder<'py>,
    first: bool,
}

impl<'de, 'py> DeserializeSeed<'de> for KeySeed<'_, 'py> {
    type Value = Key<'py>;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de, 'py> Visitor<'de> for KeySeed<'_, 'py> {
    type Value = Key<'py>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        if self.first && v == toon::__private::BIG_INTEGER_KEY {
            return Ok(Key::BigInteger);
        }
        Ok(Key::Text(self.b.key(v)))
    }
}

/// FNV-1a: object keys are short, where it beats SipHash by a wide margin; the cache
/// is bounded, so colliding keys cost time, never memory.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut h = self.0;
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}
