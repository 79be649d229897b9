//! Python objects as serde data: [`PyValue`] implements `Serialize` over any Python
//! object, so the `toon` crate's direct encoder writes TOON straight from the objects
//! (no intermediate `toon::Value`), and `toon::to_value` builds a `Value` from them
//! when one is needed (`stats`).
//!
//! The mapping is `json.dumps`'s: `dict` → object (insertion order, or sorted by key
//! with `sort_keys`), `list`/`tuple` → array, `str`, `bool`, `None`, `int` (exact at
//! any size) and `float` (NaN and infinities become `null`, as in the reference);
//! anything else goes through the `default` hook or is a `TypeError`. Keys are
//! strings, or ints, floats, bools and `None`, written as their JSON spelling.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use toon::Number;

/// Containers and `default` replacements allowed around a value (the root has
/// none), as deep as the `toon` crate's own limit.
const MAX_DEPTH: usize = toon::DEFAULT_MAX_DEPTH;

/// An object `default` was called on, and what it returned.
type Replaced<'py> = (Bound<'py, PyAny>, Bound<'py, PyAny>);

/// What one `encode` (or `stats`) call shares across the objects it serializes.
pub(crate) struct Ctx<'py> {
    default: Option<Bound<'py, PyAny>>,
    sort_keys: bool,
    /// The Python exception behind the serde error being returned, raised in its place.
    error: RefCell<Option<PyErr>>,
    /// `default`'s result for each object it was called on, by address: the encoder
    /// reads a container more than once (a look-ahead, then the writing pass), and
    /// `default` must run once per object and give the same answer each time. Each
    /// entry holds the original too, so its address cannot be reused by another object
    /// while the entry exists (even if `default` changes the tree being encoded).
    replaced: RefCell<HashMap<usize, Replaced<'py>>>,
}

impl<'py> Ctx<'py> {
    /// A context calling `default` (if any) on objects with no JSON form.
    pub(crate) fn new(default: Option<Bound<'py, PyAny>>, sort_keys: bool) -> Ctx<'py> {
        Ctx {
            default,
            sort_keys,
            error: RefCell::new(None),
            replaced: RefCell::new(HashMap::new()),
        }
    }

    /// The root object as serde data.
    pub(crate) fn root<'a>(&'a self, obj: &'a Bound<'py, PyAny>) -> PyValue<'a, 'py> {
        PyValue {
            obj,
            ctx: self,
            depth: 0,
        }
    }

    /// Keeps `err` to be raised, and returns the serde error that stops the encoder.
    fn fail<E: serde::ser::Error>(&self, err: PyErr) -> E {
        let msg = err.to_string();
        *self.error.borrow_mut() = Some(err);
        E::custom(msg)
    }

    /// The Python exception for a failed `toon` call: the one that stopped it, if a
    /// Python error did, else a `ValueError` with the encoder's message.
    pub(crate) fn into_error(self, e: toon::Error) -> PyErr {
        self.error
            .into_inner()
            .unwrap_or_else(|| PyValueError::new_err(e.to_string()))
    }

    fn replacement(&self, obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let addr = obj.as_ptr() as usize;
        if let Some((_, r)) = self.replaced.borrow().get(&addr) {
            return Ok(r.clone());
        }
        let replaced = match &self.default {
            Some(f) => f.call1((obj,))?,
            None => {
                return Err(PyTypeError::new_err(format!(
                    "Object of type {} is not TOON serializable",
                    obj.get_type().name()?
                )));
            }
        };
        self.replaced
            .borrow_mut()
            .insert(addr, (obj.clone(), replaced.clone()));
        Ok(replaced)
    }
}

/// A Python object as serde data, `depth` containers (and `default` calls) deep.
pub(crate) struct PyValue<'a, 'py> {
    obj: &'a Bound<'py, PyAny>,
    ctx: &'a Ctx<'py>,
    depth: usize,
}

impl<'py> PyValue<'_, 'py> {
    fn child<'b>(&'b self, obj: &'b Bound<'py, PyAny>) -> PyValue<'b, 'py> {
        PyValue {
            obj,
            ctx: self.ctx,
            depth: self.depth + 1,
        }
    }
}

impl Serialize for PyValue<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let ctx = self.ctx;
        if self.depth > MAX_DEPTH {
            return Err(ctx.fail(PyValueError::new_err(
                "value nested too deeply (or contains a circular reference)",
            )));
        }
        let obj = self.obj;
        // The exact built-in types first (one pointer comparison each), then their
        // subclasses.
        if let Ok(text) = obj.cast_exact::<PyString>() {
            let text = Text::of(text).map_err(|e| ctx.fail::<S::Error>(e))?;
            return s.serialize_str(text.as_str().map_err(|e| ctx.fail::<S::Error>(e))?);
        }
        if let Ok(i) = obj.cast_exact::<PyInt>() {
            return serialize_int(i, s, ctx);
        }
        if let Ok(d) = obj.cast_exact::<PyDict>() {
            return stacker::maybe_grow(RED_ZONE, SEGMENT, || self.serialize_dict(d, s));
        }
        if let Ok(f) = obj.cast_exact::<PyFloat>() {
            return s.serialize_f64(f.value());
        }
        if let Ok(text) = obj.cast::<PyString>() {
            let text = Text::of(text).map_err(|e| ctx.fail::<S::Error>(e))?;
            return s.serialize_str(text.as_str().map_err(|e| ctx.fail::<S::Error>(e))?);
        }
        if obj.is_none() {
            return s.serialize_unit();
        }
        if let Ok(b) = obj.cast::<PyBool>() {
            return s.serialize_bool(b.is_true());
        }
        if let Ok(i) = obj.cast::<PyInt>() {
            return serialize_int(i, s, ctx);
        }
        if let Ok(f) = obj.cast::<PyFloat>() {
            return s.serialize_f64(f.value());
        }
        if let Ok(d) = obj.cast::<PyDict>() {
            return stacker::maybe_grow(RED_ZONE, SEGMENT, || self.serialize_dict(d, s));
        }
        if let Ok(list) = obj.cast::<PyList>() {
            return stacker::maybe_grow(RED_ZONE, SEGMENT, || {
                let mut seq = s.serialize_seq(Some(list.len()))?;
                for item in list.iter() {
                    seq.serialize_element(&self.child(&item))?;
                }
                seq.end()
            });
        }
        if let Ok(tuple) = obj.cast::<PyTuple>() {
            return stacker::maybe_grow(RED_ZONE, SEGMENT, || {
                let mut seq = s.serialize_seq(Some(tuple.len()))?;
                for item in tuple.iter() {
                    seq.serialize_element(&self.child(&item))?;
                }
                seq.end()
            });
        }
        let replaced = ctx.replacement(obj).map_err(|e| ctx.fail::<S::Error>(e))?;
        stacker::maybe_grow(RED_ZONE, SEGMENT, || self.child(&replaced).serialize(s))
    }
}

/// Stack that must remain before a container's elements are serialized in place, and
/// the size of each new segment when less is left (deep values on small stacks).
const RED_ZONE: usize = 128 * 1024;
const SEGMENT: usize = 4 * 1024 * 1024;

impl<'py> PyValue<'_, 'py> {
    fn serialize_dict<S: Serializer>(
        &self,
        d: &Bound<'py, PyDict>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let ctx = self.ctx;
        if ctx.sort_keys {
            let mut items = Vec::with_capacity(d.len());
            for (k, v) in d.iter() {
                let key = key_string(&k).map_err(|e| ctx.fail::<S::Error>(e))?;
                let key = key.as_str().map_err(|e| ctx.fail::<S::Error>(e))?;
                items.push((key.to_owned(), v));
            }
            items.sort_by(|a, b| a.0.cmp(&b.0));
            let mut map = s.serialize_map(Some(items.len()))?;
            for (k, v) in &items {
                map.serialize_entry(k.as_str(), &self.child(v))?;
            }
            return map.end();
        }
        if ctx.default.is_some() {
            // `default` runs Python code, which may change this dict: read a snapshot.
            let items: Vec<_> = d.iter().collect();
            return self.serialize_entries(items, s);
        }
        self.serialize_entries(d.iter(), s)
    }

    fn serialize_entries<S: Serializer>(
        &self,
        entries: impl IntoIterator<
            Item = (Bound<'py, PyAny>, Bound<'py, PyAny>),
            IntoIter: ExactSizeIterator,
        >,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let ctx = self.ctx;
        let entries = entries.into_iter();
        let mut map = s.serialize_map(Some(entries.len()))?;
        for (k, v) in entries {
            let key = key_string(&k).map_err(|e| ctx.fail::<S::Error>(e))?;
            let key = key.as_str().map_err(|e| ctx.fail::<S::Error>(e))?;
            map.serialize_entry(key, &self.child(&v))?;
        }
        map.end()
    }
}

/// An int as serde data: `i64`/`u64` when it fits, else its exact digits through the
/// `toon` crate's big-integer newtype.
fn serialize_int<S: Serializer>(
    i: &Bound<'_, PyInt>,
    s: S,
    ctx: &Ctx<'_>,
) -> Result<S::Ok, S::Error> {
    if let Ok(v) = i.extract::<i64>() {
        return s.serialize_i64(v);
    }
    if let Ok(v) = i.extract::<u64>() {
        return s.serialize_u64(v);
    }
    let digits = int_digits(i).map_err(|e| ctx.fail::<S::Error>(e))?;
    s.serialize_newtype_struct(toon::__private::BIG_INTEGER_KEY, digits.as_str())
}

/// The decimal digits of an int: `int.__repr__(i)`, which an int subclass (an
/// `IntEnum`, say) cannot override.
fn int_digits(i: &Bound<'_, PyInt>) -> PyResult<String> {
    let digits = i.py().get_type::<PyInt>().call_method1("__repr__", (i,))?;
    Ok(digits.cast_into::<PyString>()?.to_cow()?.into_owned())
}

/// A str's text as UTF-8 (a lone surrogate is an error, as in `str.encode`). The
/// stable ABI of CPython 3.9, which the default wheel targets, cannot read a str's
/// UTF-8 in place (`PyUnicode_AsUTF8AndSize` joined it in 3.10): CPython encodes the
/// str into a `bytes` object once, and the text is borrowed from that. Built with the
/// `py310` feature, the text is borrowed from the str itself.
pub(crate) enum Text<'a, 'py> {
    /// Encoded by CPython.
    #[cfg_attr(feature = "py310", allow(dead_code))]
    Utf8(Bound<'py, PyBytes>),
    /// Read in place, or spelled here (a non-str dict key).
    Str(Cow<'a, str>),
}

impl<'a, 'py> Text<'a, 'py> {
    #[cfg(not(feature = "py310"))]
    fn of(s: &'a Bound<'py, PyString>) -> PyResult<Self> {
        Ok(Text::Utf8(s.encode_utf8()?))
    }

    #[cfg(feature = "py310")]
    fn of(s: &'a Bound<'py, PyString>) -> PyResult<Self> {
        Ok(Text::Str(Cow::Borrowed(s.to_str()?)))
    }

    /// The text; CPython's UTF-8 encoder always gives valid UTF-8.
    pub(crate) fn as_str(&self) -> PyResult<&str> {
        match self {
            Text::Utf8(b) => std::str::from_utf8(b.as_bytes())
                .map_err(|e| PyValueError::new_err(format!("str is not UTF-8: {e}"))),
            Text::Str(s) => Ok(s),
        }
    }
}

/// A dict key as TOON writes it: strings as they are, and like `json.dumps`, ints,
/// floats, bools and None by their JSON spelling (a non-finite float as `null`).
pub(crate) fn key_string<'a, 'py>(k: &'a Bound<'py, PyAny>) -> PyResult<Text<'a, 'py>> {
    if let Ok(s) = k.cast_exact::<PyString>() {
        return Text::of(s);
    }
    if let Ok(s) = k.cast::<PyString>() {
        return Text::of(s);
    }
    if k.is_none() {
        return Ok(Text::Str(Cow::Borrowed("null")));
    }
    if let Ok(b) = k.cast::<PyBool>() {
        return Ok(Text::Str(Cow::Borrowed(if b.is_true() {
            "true"
        } else {
            "false"
        })));
    }
    if let Ok(i) = k.cast::<PyInt>() {
        return Ok(Text::Str(Cow::Owned(match i.extract::<i64>() {
            Ok(v) => v.to_string(),
            Err(_) => int_digits(i)?,
        })));
    }
    if let Ok(f) = k.cast::<PyFloat>() {
        return Ok(Text::Str(Cow::Owned(match Number::from_f64(f.value()) {
            Some(n) => {
                let mut s = String::new();
                n.write_canonical(&mut s);
                s
            }
            None => "null".to_owned(),
        })));
    }
    Err(PyTypeError::new_err(format!(
        "keys must be str, int, float, bool or None, not {}",
        k.get_type().name()?
    )))
}
