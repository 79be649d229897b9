//! TOON text to Python objects in one pass: a serde `DeserializeSeed` that the `toon`
//! crate's `Deserializer` drives, building dicts, lists, strs, ints, floats, bools
//! and None as the document is read (no intermediate `toon::Value`).
//!
//! Objects become dicts in document order (a repeated key, allowed in non-strict
//! mode, keeps its first position and takes the last value), or whatever
//! `object_hook(dict)` / `object_pairs_hook(pairs)` return. Numbers arrive as the
//! token's text (`Deserializer::with_number_text`) and are made as the official
//! package makes them: `parse_int` / `parse_float` called with the text as written
//! when given, else `int` (exact) or `float`; a float beyond the float range, or an
//! integer `int()` refuses (or a `ValueError` from `parse_int`), is a decode error. Object keys
//! repeat across rows and list items, so each distinct key text is made into a
//! Python str once per call and shared (which also lets dicts reuse its cached hash).

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString};
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

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

    /// The number token `text` (spec §4 grammar, as written) as a Python object.
    fn number<E: de::Error>(&self, text: &str) -> Result<Bound<'py, PyAny>, E> {
        let py = self.py;
        let integer = !text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E'));
        if integer {
            let made = match &self.hooks.parse_int {
                Some(f) => f.call1((text,)),
                None => match text.parse::<i64>() {
                    Ok(i) => Ok(i
                        .into_pyobject(py)
                        .map_or_else(|e| match e {}, Bound::into_any)),
                    Err(_) => py.get_type::<PyInt>().call1((text,)),
                },
            };
            // A `ValueError` making an int is the document's error, located at the
            // token; anything else a hook raises is raised as it is.
            return made.map_err(|e| {
                if e.is_instance_of::<PyValueError>(py) {
                    E::custom(e.value(py).to_string())
                } else {
                    self.fail(e)
                }
            });
        }
        if let Some(f) = &self.hooks.parse_float {
            return f.call1((text,)).map_err(|e| self.fail(e));
        }
        match text.parse::<f64>() {
            Ok(v) if v.is_finite() => {
                Ok(PyFloat::new(py, if v == 0.0 { 0.0 } else { v }).into_any())
            }
            _ => Err(E::custom(format!("Number {text} is out of range"))),
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
                Key::Number => return map.next_value_seed(NumberSeed { b }),
            };
            first = false;
            let value = map.next_value_seed(self)?;
            dict.set_item(key, value)
                .map_err(|e| b.fail::<A::Error>(e))?;
        }
        b.object(dict)
    }
}

/// An object key: a Python str, or the marker through which the decoder hands over a
/// number token's text (the only key of its one-entry map; a document object whose
/// first key is that marker text is read as a number, too).
enum Key<'py> {
    Text(Bound<'py, PyString>),
    Number,
}

/// A number token's text, as a Python object.
struct NumberSeed<'b, 'py> {
    b: &'b Builder<'py>,
}

impl<'de, 'py> DeserializeSeed<'de> for NumberSeed<'_, 'py> {
    type Value = Bound<'py, PyAny>;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de, 'py> Visitor<'de> for NumberSeed<'_, 'py> {
    type Value = Bound<'py, PyAny>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a number token")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        self.b.number(v)
    }
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
        if self.first && v == toon::__private::NUMBER_TEXT_KEY {
            return Ok(Key::Number);
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
