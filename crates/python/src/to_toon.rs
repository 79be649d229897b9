//! Python objects for the encoder: what one call shares ([`Ctx`]: options, the
//! host-type rules and `default`, open containers, replacements), keys and strs as
//! text, and [`PyValue`], which implements `Serialize` over any Python object so that
//! `toon::to_value` builds a `Value` from them where one is needed (`stats`).
//! `encode` itself walks the objects straight into TOON lines ([`walk`](crate::walk));
//! both read the objects through [`views`](crate::views).
//!
//! The mapping is the official `toon_format` 1.2.0's: `dict` → object (insertion
//! order, or sorted by key with `sort_keys`), `list`/`tuple` → array, `str`, `bool`,
//! `None`, `int` (exact at any size) and `float` (NaN and infinities become `null`;
//! integral floats of 2^53 and more are written with their exact digits, so that they
//! decode to the same float); other objects go to the package's host-type rules
//! (`toonkit._host`: `Decimal`, sets, dates, enums, dataclasses, …), then through the
//! `default` hook, else they are a `TypeError`. Keys are strings, or ints, floats,
//! bools and `None`, written as `json.dumps` spells them; two keys of one mapping
//! that spell the same are a `ValueError`, as are circular references.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;

use pyo3::Borrowed;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use toon::__private::writer::Primitive;
use toon::Number;

use crate::views::{Class, classify, with_primitive};

/// Containers and `default` replacements allowed around a value (the root has
/// none), as deep as the `toon` crate's own limit.
pub(crate) const MAX_DEPTH: usize = toon::DEFAULT_MAX_DEPTH;

/// An object a host-type rule or `default` was called on, and what it returned.
type Replaced<'py> = (Bound<'py, PyAny>, Bound<'py, PyAny>);

/// What one `encode` (or `stats`) call shares across the objects it serializes.
pub(crate) struct Ctx<'py> {
    pub(crate) default: Option<Bound<'py, PyAny>>,
    /// `toonkit._host.replacement` and its "not handled" answer, once the package
    /// has registered them.
    host: Option<(Bound<'py, PyAny>, Bound<'py, PyAny>)>,
    pub(crate) sort_keys: bool,
    /// The containers (and objects replaced) being serialized, outermost first, by
    /// address: at the nesting limit, a repeated one is a circular reference.
    open: RefCell<Vec<usize>>,
    /// The Python exception behind the serde error being returned, raised in its place.
    error: RefCell<Option<PyErr>>,
    /// `default`'s result for each object it was called on, by address: the encoder
    /// reads the first element of an array (and some objects) twice (a bounded
    /// look-ahead, then the writing pass), and `default` must run once per object
    /// and give the same answer each time. Each
    /// entry holds the original too, so its address cannot be reused by another object
    /// while the entry exists (even if `default` changes the tree being encoded).
    replaced: RefCell<HashMap<usize, Replaced<'py>>>,
}

impl<'py> Ctx<'py> {
    /// A context calling `default` (if any) on objects with no JSON form.
    pub(crate) fn new(
        py: Python<'py>,
        default: Option<Bound<'py, PyAny>>,
        sort_keys: bool,
    ) -> Ctx<'py> {
        Ctx {
            default,
            host: crate::hooks(py).map(|h| {
                (
                    h.replacement.bind(py).clone(),
                    h.not_handled.bind(py).clone(),
                )
            }),
            sort_keys,
            open: RefCell::new(Vec::new()),
            error: RefCell::new(None),
            replaced: RefCell::new(HashMap::new()),
        }
    }

    /// Whether dicts are read in place, in their own order, while they are written (no
    /// `default` hook can change them meanwhile, and no sorting is asked for).
    #[inline]
    pub(crate) fn reads_in_place(&self) -> bool {
        !self.sort_keys && self.default.is_none()
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
        let depth = e.kind() == toon::ErrorKind::Depth;
        self.error.into_inner().unwrap_or_else(|| {
            PyValueError::new_err(if depth {
                TOO_DEEP.to_owned()
            } else {
                e.to_string()
            })
        })
    }

    /// The error at the nesting limit: a circular reference if an open container (or
    /// replaced object) repeats, else a value nested too deeply.
    pub(crate) fn depth_error(&self) -> PyErr {
        self.depth_error_with(&[])
    }

    /// [`depth_error`](Self::depth_error) with `also` (objects being replaced) open too.
    pub(crate) fn depth_error_with(&self, also: &[usize]) -> PyErr {
        let mut open = self.open.borrow().clone();
        open.extend_from_slice(also);
        open.sort_unstable();
        let circular = open.windows(2).any(|w| w[0] == w[1]);
        PyValueError::new_err(if circular { CIRCULAR } else { TOO_DEEP })
    }

    /// Serializes a container (or a replaced object) with `obj` marked open.
    pub(crate) fn open<T>(&self, obj: &Bound<'py, PyAny>, f: impl FnOnce() -> T) -> T {
        self.open.borrow_mut().push(obj.as_ptr() as usize);
        let result = f();
        self.open.borrow_mut().pop();
        result
    }

    pub(crate) fn replacement(&self, obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let addr = obj.as_ptr() as usize;
        if let Some((_, r)) = self.replaced.borrow().get(&addr) {
            return Ok(r.clone());
        }
        let host = match &self.host {
            Some((rule, not_handled)) => Some(rule.call1((obj,))?).filter(|r| !r.is(not_handled)),
            None => None,
        };
        let replaced = match (host, &self.default) {
            (Some(r), _) => r,
            (None, Some(f)) => f.call1((obj,))?,
            (None, None) => {
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

/// The official package's messages for a circular reference and for nesting deeper
/// than the limit.
const CIRCULAR: &str = "Circular reference detected";
const TOO_DEEP: &str = "Object is nested too deeply to encode";

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
        // At the limit before the `toon` encoder's own (the root container is its
        // level 1), so that a circular reference is told from deep nesting here.
        if self.depth >= MAX_DEPTH {
            return Err(ctx.fail(ctx.depth_error()));
        }
        let obj = self.obj;
        let Some(class) = classify(obj) else {
            let replaced = ctx.replacement(obj).map_err(|e| ctx.fail::<S::Error>(e))?;
            return ctx.open(obj, || self.guarded(|| self.child(&replaced).serialize(s)));
        };
        match class {
            Class::Dict => {
                // SAFETY: `Class::Dict` is given for dict instances only.
                let d = unsafe { obj.cast_unchecked::<PyDict>() };
                ctx.open(obj, || self.guarded(|| self.serialize_dict(d, s)))
            }
            Class::List => {
                // SAFETY: `Class::List` is given for list instances only.
                let list = unsafe { obj.cast_unchecked::<PyList>() };
                ctx.open(obj, || self.guarded(|| self.serialize_list(list, s)))
            }
            Class::Tuple => {
                // SAFETY: `Class::Tuple` is given for tuple instances only.
                let tuple = unsafe { obj.cast_unchecked::<PyTuple>() };
                ctx.open(obj, || {
                    self.guarded(|| {
                        let mut seq = s.serialize_seq(Some(tuple.len()))?;
                        for item in tuple.iter() {
                            seq.serialize_element(&self.child(&item))?;
                        }
                        seq.end()
                    })
                })
            }
            primitive => with_primitive(obj, primitive, |p| match p {
                Primitive::Null => s.serialize_unit(),
                Primitive::Bool(b) => s.serialize_bool(b),
                Primitive::Str(text) => s.serialize_str(text),
                Primitive::Num(n) => match n.as_big_integer_str() {
                    Some(digits) => {
                        s.serialize_newtype_struct(toon::__private::BIG_INTEGER_KEY, digits)
                    }
                    None => n.serialize(s),
                },
            })
            .map_err(|e| ctx.fail::<S::Error>(e))?,
        }
    }
}

/// Stack that must remain before a container's elements are serialized in place, and
/// the size of each new segment when less is left (deep values on small stacks).
pub(crate) const RED_ZONE: usize = 128 * 1024;
pub(crate) const SEGMENT: usize = 4 * 1024 * 1024;
/// The stack is checked at every this many levels: fewer levels than that use far
/// less than [`RED_ZONE`].
pub(crate) const CHECK_EVERY: usize = 8;

impl<'py> PyValue<'_, 'py> {
    /// Runs `f` (which serializes this container's elements), on a new stack segment
    /// if this one is nearly used up.
    #[inline]
    fn guarded<R>(&self, f: impl FnOnce() -> R) -> R {
        if self.depth.is_multiple_of(CHECK_EVERY) {
            stacker::maybe_grow(RED_ZONE, SEGMENT, f)
        } else {
            f()
        }
    }

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
            if let Some(w) = items.windows(2).find(|w| w[0].0 == w[1].0) {
                return Err(ctx.fail(duplicate_key(d.py(), &w[0].0)));
            }
            let mut map = s.serialize_map(Some(items.len()))?;
            for (k, v) in &items {
                map.serialize_entry(k.as_str(), &self.child(v))?;
            }
            return map.end();
        }
        if ctx.default.is_some() {
            // `default` runs Python code, which may change this dict: read a snapshot.
            let items: Vec<_> = d.iter().collect();
            let entries = items
                .iter()
                .map(|(k, v)| (k.as_borrowed(), v.as_borrowed()));
            return self.serialize_entries(d, items.len(), entries, s);
        }
        // No Python code that could change the dict runs while it is serialized (the
        // host-type rules only read the objects they are given): its entries are
        // borrowed in place.
        self.serialize_entries(d, d.len(), BorrowedEntries { d, pos: 0 }, s)
    }

    /// A list's items, borrowed in place when no `default` hook (Python code that
    /// could change the list) runs; else each item is held while it is serialized.
    fn serialize_list<S: Serializer>(
        &self,
        list: &Bound<'py, PyList>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let ctx = self.ctx;
        let mut seq = s.serialize_seq(Some(list.len()))?;
        if ctx.default.is_some() {
            for item in list.iter() {
                seq.serialize_element(&self.child(&item))?;
            }
            return seq.end();
        }
        for i in 0..list.len() {
            let Ok(i) = pyo3::ffi::Py_ssize_t::try_from(i) else {
                break;
            };
            // SAFETY: `list` is a live list; `PyList_GetItem` returns a borrowed
            // reference, or null with an exception set past the end.
            let item = unsafe { pyo3::ffi::PyList_GetItem(list.as_ptr(), i) };
            if item.is_null() {
                return Err(ctx.fail(PyErr::fetch(list.py())));
            }
            // SAFETY: the list holds the item, and nothing changes the list meanwhile.
            let item = unsafe { Borrowed::from_ptr(list.py(), item) };
            seq.serialize_element(&self.child(&item))?;
        }
        seq.end()
    }

    fn serialize_entries<'b, S: Serializer>(
        &self,
        d: &Bound<'py, PyDict>,
        len: usize,
        entries: impl Iterator<Item = (Borrowed<'b, 'py, PyAny>, Borrowed<'b, 'py, PyAny>)>,
        s: S,
    ) -> Result<S::Ok, S::Error>
    where
        'py: 'b,
    {
        let ctx = self.ctx;
        let mut map = s.serialize_map(Some(len))?;
        let mut checked = false;
        for (k, v) in entries {
            let (k, v): (&Bound<'py, PyAny>, &Bound<'py, PyAny>) = (&k, &v);
            if let Ok(k) = k.cast_exact::<PyString>() {
                let key = Text::of(k).map_err(|e| ctx.fail::<S::Error>(e))?;
                let key = key.as_str().map_err(|e| ctx.fail::<S::Error>(e))?;
                map.serialize_entry(key, &self.child(v))?;
                continue;
            }
            if !checked && !k.is_exact_instance_of::<PyString>() {
                // Keys that are not strs may spell the same as another key.
                unique_keys(d).map_err(|e| ctx.fail::<S::Error>(e))?;
                checked = true;
            }
            let key = key_string(k).map_err(|e| ctx.fail::<S::Error>(e))?;
            let key = key.as_str().map_err(|e| ctx.fail::<S::Error>(e))?;
            map.serialize_entry(key, &self.child(v))?;
        }
        map.end()
    }
}

/// A dict's entries, borrowed in place (`PyDict_Next`), while nothing changes the dict.
struct BorrowedEntries<'a, 'py> {
    d: &'a Bound<'py, PyDict>,
    pos: pyo3::ffi::Py_ssize_t,
}

impl<'a, 'py> Iterator for BorrowedEntries<'a, 'py> {
    type Item = (Borrowed<'a, 'py, PyAny>, Borrowed<'a, 'py, PyAny>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let mut k = std::ptr::null_mut();
        let mut v = std::ptr::null_mut();
        // SAFETY: `d` is a live dict; `PyDict_Next` hands out borrowed references.
        if unsafe { pyo3::ffi::PyDict_Next(self.d.as_ptr(), &mut self.pos, &mut k, &mut v) } == 0 {
            return None;
        }
        let py = self.d.py();
        // SAFETY: the dict holds both, and nothing changes the dict meanwhile.
        unsafe { Some((Borrowed::from_ptr(py, k), Borrowed::from_ptr(py, v))) }
    }
}

/// Fails if two keys of `d` spell the same once converted (`1` and `"1"`): keeping
/// one would lose data, and a repeated key is not valid TOON.
pub(crate) fn unique_keys(d: &Bound<'_, PyDict>) -> PyResult<()> {
    let mut seen = std::collections::HashSet::with_capacity(d.len());
    for k in d.keys() {
        let key = key_string(&k)?;
        let key = key.as_str()?;
        if !seen.insert(key.to_owned()) {
            return Err(duplicate_key(d.py(), key));
        }
    }
    Ok(())
}

/// The official package's error for keys that collide after conversion.
pub(crate) fn duplicate_key(py: Python<'_>, key: &str) -> PyErr {
    let repr = PyString::new(py, key)
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| format!("{key:?}"));
    PyValueError::new_err(format!("Duplicate key after conversion: {repr}"))
}

/// 2^53: from here on not every integer is a float.
pub(crate) const EXACT_FROM: f64 = 9_007_199_254_740_992.0;
/// The magnitude from which the canonical number form uses an exponent (spec §2).
pub(crate) const EXPONENT_FROM: f64 = 1e21;

/// The decimal digits of an int: `int.__repr__(i)`, which an int subclass (an
/// `IntEnum`, say) cannot override.
pub(crate) fn int_digits(i: &Bound<'_, PyInt>) -> PyResult<String> {
    let digits = i.py().get_type::<PyInt>().call_method1("__repr__", (i,))?;
    Ok(digits.cast_into::<PyString>()?.to_cow()?.into_owned())
}

/// A str's text as UTF-8 (a lone surrogate is an error, as in `str.encode`), read in
/// place: CPython keeps a str's UTF-8 with the str (an ASCII str is its own UTF-8),
/// and `PyUnicode_AsUTF8AndSize` hands it out. That function is public C API since
/// CPython 3.3 and part of the stable ABI from 3.10; the 3.9 stable ABI lacks it, but
/// every CPython the abi3 wheel loads into exports it (on Linux and macOS an
/// extension resolves it from the interpreter). Only on Windows, where the 3.9 wheel
/// links against `python3.dll`, which exports the 3.9 stable ABI alone, is the str
/// encoded into a temporary `bytes` instead.
pub(crate) enum Text<'a, 'py> {
    /// Encoded by CPython into a `bytes` (Windows, 3.9 stable ABI).
    #[cfg_attr(any(feature = "py310", not(windows)), allow(dead_code))]
    Utf8(Bound<'py, PyBytes>),
    /// Read in place, or spelled here (a non-str dict key).
    Str(Cow<'a, str>),
}

#[cfg(any(feature = "py310", not(windows)))]
unsafe extern "C" {
    fn PyUnicode_AsUTF8AndSize(
        s: *mut pyo3::ffi::PyObject,
        size: *mut pyo3::ffi::Py_ssize_t,
    ) -> *const std::os::raw::c_char;
}

impl<'a, 'py> Text<'a, 'py> {
    /// The UTF-8 of `s` read in place (two words, returned in registers), `None` where
    /// it cannot be (the str has an unpaired surrogate, or this build encodes strs into
    /// a `bytes`): then [`Text::of`] gives the text or the error.
    #[cfg(any(feature = "py310", not(windows)))]
    #[inline(always)]
    pub(crate) fn in_place(s: &'a Bound<'py, PyString>) -> Option<&'a str> {
        let mut size: pyo3::ffi::Py_ssize_t = 0;
        // SAFETY: `s` is a live str; CPython returns null with an exception set, or
        // its UTF-8, `size` bytes owned by the str.
        let data = unsafe { PyUnicode_AsUTF8AndSize(s.as_ptr(), &mut size) };
        if data.is_null() {
            // [`Text::of`] asks again and takes the exception.
            // SAFETY: the GIL is held (`s` is bound).
            unsafe { pyo3::ffi::PyErr_Clear() };
            return None;
        }
        // SAFETY: the bytes live as long as the str, which `'a` borrows, and
        // CPython's UTF-8 encoder writes valid UTF-8.
        Some(unsafe {
            std::str::from_utf8_unchecked(std::slice::from_raw_parts(
                data.cast::<u8>(),
                usize::try_from(size).unwrap_or(0),
            ))
        })
    }

    #[cfg(not(any(feature = "py310", not(windows))))]
    #[inline(always)]
    pub(crate) fn in_place(_s: &'a Bound<'py, PyString>) -> Option<&'a str> {
        None
    }

    #[cfg(any(feature = "py310", not(windows)))]
    #[cold]
    pub(crate) fn of(s: &'a Bound<'py, PyString>) -> PyResult<Self> {
        let mut size: pyo3::ffi::Py_ssize_t = 0;
        // SAFETY: `s` is a live str; CPython returns null with an exception set, or
        // its UTF-8, `size` bytes owned by the str.
        let data = unsafe { PyUnicode_AsUTF8AndSize(s.as_ptr(), &mut size) };
        if data.is_null() {
            return Err(surrogate_error(s, PyErr::fetch(s.py())));
        }
        // SAFETY: the bytes live as long as the str, which `'a` borrows, and
        // CPython's UTF-8 encoder writes valid UTF-8.
        let text = unsafe {
            std::str::from_utf8_unchecked(std::slice::from_raw_parts(
                data.cast::<u8>(),
                usize::try_from(size).unwrap_or(0),
            ))
        };
        Ok(Text::Str(Cow::Borrowed(text)))
    }

    #[cfg(not(any(feature = "py310", not(windows))))]
    pub(crate) fn of(s: &'a Bound<'py, PyString>) -> PyResult<Self> {
        s.encode_utf8()
            .map(Text::Utf8)
            .map_err(|e| surrogate_error(s, e))
    }

    /// The text; CPython's UTF-8 encoder always gives valid UTF-8.
    #[inline]
    pub(crate) fn as_str(&self) -> PyResult<&str> {
        match self {
            Text::Utf8(b) => std::str::from_utf8(b.as_bytes())
                .map_err(|e| PyValueError::new_err(format!("str is not UTF-8: {e}"))),
            Text::Str(s) => Ok(s),
        }
    }
}

/// The official package's error for a str CPython cannot encode as UTF-8 (one with
/// an unpaired surrogate), a `ValueError`; `e` when it is another error.
fn surrogate_error(s: &Bound<'_, PyString>, e: PyErr) -> PyErr {
    if !e.is_instance_of::<pyo3::exceptions::PyUnicodeEncodeError>(s.py()) {
        return e;
    }
    match s.repr() {
        Ok(repr) => PyValueError::new_err(format!("String contains an unpaired surrogate: {repr}")),
        Err(e) => e,
    }
}

/// A dict key as TOON writes it: strings as they are, and like `json.dumps`, ints,
/// floats, bools and None by their JSON spelling (non-finite floats as `NaN`,
/// `Infinity`, `-Infinity`; integral floats below 1e21 as their exact digits).
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
        let f = f.value();
        let text = if f.is_nan() {
            "NaN".to_owned()
        } else if f.is_infinite() {
            if f > 0.0 { "Infinity" } else { "-Infinity" }.to_owned()
        } else if f.fract() == 0.0 && f.abs() < EXPONENT_FROM {
            format!("{}", f as i128)
        } else {
            let mut s = String::new();
            if let Some(n) = Number::from_f64(f) {
                n.write_canonical(&mut s);
            }
            s
        };
        return Ok(Text::Str(Cow::Owned(text)));
    }
    Err(PyTypeError::new_err(format!(
        "Keys must be str, int, float, bool or None, not {}",
        k.get_type().name()?
    )))
}
