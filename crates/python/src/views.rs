//! Python objects as the encoder's walker ([`walk`](crate::walk)) reads them: what a
//! value is ([`Class`], by exact type first, one pointer comparison each), a dict's
//! entries with their key text ([`MapView`]) and a list's or tuple's items
//! ([`SeqView`]), read in place where no Python code can change them meanwhile, and
//! primitives as the `toon` writer takes them.
//!
//! The mapping is [`to_toon`](crate::to_toon)'s (the official package's): see there.

use std::borrow::Cow;
use std::collections::HashSet;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use pyo3::{Borrowed, ffi};
use toon::__private::writer::Primitive;
use toon::Number;

use crate::to_toon::{
    Ctx, EXACT_FROM, EXPONENT_FROM, Text, duplicate_key, int_digits, key_string, unique_keys,
};

/// What a value is, once the host-type rules and `default` have replaced it if it
/// has no TOON form of its own.
///
/// A whole word wide: a class is stored into the walker's results and read back by
/// word-wide copies, and a load wider than the store it reads cannot be forwarded
/// from that store (the CPU waits for the store to reach the cache, a stall that cost
/// a tenth of a table's encoding when this was a byte).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u64)]
pub(crate) enum Class {
    Null,
    True,
    False,
    Int,
    Float,
    Str,
    Dict,
    List,
    Tuple,
}

impl Class {
    /// Whether values of this class are written as one token.
    #[inline]
    pub(crate) fn is_primitive(self) -> bool {
        !matches!(self, Class::Dict | Class::List | Class::Tuple)
    }
}

/// The class of `obj`, `None` for an object the host-type rules or `default` must
/// replace. The exact built-in types come first, then their subclasses (an `IntEnum`
/// is an int, an `OrderedDict` a dict), in [`to_toon`](crate::to_toon)'s order.
#[inline]
pub(crate) fn classify(obj: &Bound<'_, PyAny>) -> Option<Class> {
    classify_exact(obj).or_else(|| classify_subclass(obj))
}

/// The class of `obj` when it is of an exact built-in type (or a bool, or `None`).
#[inline(always)]
pub(crate) fn classify_exact(obj: &Bound<'_, PyAny>) -> Option<Class> {
    if obj.is_exact_instance_of::<PyString>() {
        return Some(Class::Str);
    }
    if obj.is_exact_instance_of::<PyInt>() {
        return Some(Class::Int);
    }
    if obj.is_exact_instance_of::<PyDict>() {
        return Some(Class::Dict);
    }
    if obj.is_exact_instance_of::<PyFloat>() {
        return Some(Class::Float);
    }
    if obj.is_exact_instance_of::<PyList>() {
        return Some(Class::List);
    }
    if obj.is_none() {
        return Some(Class::Null);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Some(if b.is_true() {
            Class::True
        } else {
            Class::False
        });
    }
    None
}

#[cold]
fn classify_subclass(obj: &Bound<'_, PyAny>) -> Option<Class> {
    if obj.is_instance_of::<PyString>() {
        Some(Class::Str)
    } else if obj.is_instance_of::<PyInt>() {
        Some(Class::Int)
    } else if obj.is_instance_of::<PyFloat>() {
        Some(Class::Float)
    } else if obj.is_instance_of::<PyDict>() {
        Some(Class::Dict)
    } else if obj.is_instance_of::<PyList>() {
        Some(Class::List)
    } else if obj.is_instance_of::<PyTuple>() {
        Some(Class::Tuple)
    } else {
        None
    }
}

/// Calls `f` with the primitive `obj` (of primitive class `class`) as the writer
/// takes it: a str's UTF-8 read in place, an int exact at any size, a float
/// written so that it decodes to the same float (NaN and infinities as `null`).
#[inline(always)]
pub(crate) fn with_primitive<R>(
    obj: &Bound<'_, PyAny>,
    class: Class,
    f: impl FnOnce(Primitive<'_>) -> R,
) -> PyResult<R> {
    Ok(match class {
        Class::Str => {
            // SAFETY: `Class::Str` is given for str instances only.
            let s = unsafe { obj.cast_unchecked::<PyString>() };
            match Text::in_place(s) {
                Some(text) => f(Primitive::Str(text)),
                None => {
                    let text = Text::of(s)?;
                    f(Primitive::Str(text.as_str()?))
                }
            }
        }
        Class::Int => {
            // SAFETY: `Class::Int` is given for int instances only.
            let n = int_number(unsafe { obj.cast_unchecked::<PyInt>() })?;
            f(Primitive::Num(&n))
        }
        Class::Float => {
            // SAFETY: `Class::Float` is given for float instances only.
            let v = unsafe { obj.cast_unchecked::<PyFloat>() }.value();
            match float_number(v) {
                Some(n) => f(Primitive::Num(&n)),
                None => f(Primitive::Null),
            }
        }
        Class::True => f(Primitive::Bool(true)),
        Class::False => f(Primitive::Bool(false)),
        Class::Null | Class::Dict | Class::List | Class::Tuple => f(Primitive::Null),
    })
}

/// An int's exact value: `i64` when it fits, else `u64`, else its decimal digits.
#[inline]
fn int_number(i: &Bound<'_, PyInt>) -> PyResult<Number> {
    let mut overflow = 0;
    // SAFETY: `i` is a live int; the call sets `overflow` instead of raising when the
    // value does not fit, and raises (returning -1) only on other errors.
    let v = unsafe { ffi::PyLong_AsLongLongAndOverflow(i.as_ptr(), &mut overflow) };
    if overflow == 0 {
        if v == -1
            && let Some(e) = PyErr::take(i.py())
        {
            return Err(e);
        }
        return Ok(Number::from(v));
    }
    if let Ok(v) = i.extract::<u64>() {
        return Ok(Number::from(v));
    }
    let digits = int_digits(i)?;
    Number::from_integer_str(&digits)
        .ok_or_else(|| pyo3::exceptions::PyValueError::new_err(format!("not an integer: {digits}")))
}

/// A float as a number: an integral float of 2^53 or more (below 1e21, where the
/// canonical form turns to exponents) as its exact integer, so that it decodes to the
/// same float; `None` for NaN and infinities (written `null`).
#[inline]
fn float_number(f: f64) -> Option<Number> {
    // Every float of magnitude 2^52 or more is an integer, so the range says it all
    // (no `fract`: a call to `trunc` on the baseline x86-64 target, which the compiler
    // hoists above the range test).
    if f.abs() >= EXACT_FROM && f.abs() < EXPONENT_FROM {
        // Exact: the float is an integer below 2^70.
        return Some(Number::from(f as i128));
    }
    Number::from_f64(f)
}

/// A dict's entries as the walker reads them, each key as its text.
pub(crate) enum MapView<'a, 'py> {
    /// Read in place with `PyDict_Next`: no Python code that could change the dict
    /// runs while it is written (no `default` hook; the host-type rules only read).
    Live(&'a Bound<'py, PyDict>),
    /// Converted once: sorted by key (`sort_keys`), or a snapshot (a `default` hook
    /// may change the dict while it is written). Keys are checked distinct.
    Snap(Vec<(String, Bound<'py, PyAny>)>),
}

/// One entry of a [`MapView`]: its key and value. A key that is an exact str is
/// kept as the object, its text read only when asked for, so that a key object shared
/// between rows (interned keys are) is recognised by its address alone.
pub(crate) struct Entry<'e, 'py> {
    key: EntryKey<'e, 'py>,
    pub(crate) value: &'e Bound<'py, PyAny>,
}

enum EntryKey<'e, 'py> {
    Str(&'e Bound<'py, PyString>),
    Text(&'e str),
}

impl<'e, 'py> Entry<'e, 'py> {
    /// The key's text.
    #[inline]
    pub(crate) fn key(&self) -> PyResult<Cow<'e, str>> {
        match self.key {
            EntryKey::Str(s) => Ok(match Text::in_place(s) {
                Some(text) => Cow::Borrowed(text),
                None => Self::key_text(s)?,
            }),
            EntryKey::Text(text) => Ok(Cow::Borrowed(text)),
        }
    }

    #[cold]
    fn key_text(s: &'e Bound<'py, PyString>) -> PyResult<Cow<'e, str>> {
        Ok(match Text::of(s)? {
            Text::Str(text) => text,
            text => Cow::Owned(text.as_str()?.to_owned()),
        })
    }

    /// The address of the key object when it is an exact str read in place, else 0.
    #[inline]
    pub(crate) fn key_addr(&self) -> usize {
        match self.key {
            EntryKey::Str(s) => s.as_ptr() as usize,
            EntryKey::Text(_) => 0,
        }
    }
}

impl<'a, 'py> MapView<'a, 'py> {
    /// The view of `d` under `ctx`'s options.
    pub(crate) fn of(ctx: &Ctx<'py>, d: &'a Bound<'py, PyDict>) -> PyResult<MapView<'a, 'py>> {
        if ctx.reads_in_place() {
            return Ok(MapView::Live(d));
        }
        let mut items = Vec::with_capacity(d.len());
        let mut all_str = true;
        for (k, v) in d.iter() {
            all_str &= k.is_exact_instance_of::<PyString>();
            let key = key_string(&k)?;
            items.push((key.as_str()?.to_owned(), v));
        }
        if ctx.sort_keys {
            items.sort_by(|a, b| a.0.cmp(&b.0));
            if let Some(w) = items.windows(2).find(|w| w[0].0 == w[1].0) {
                return Err(duplicate_key(d.py(), &w[0].0));
            }
        } else if !all_str {
            let mut seen = HashSet::with_capacity(items.len());
            if let Some((k, _)) = items.iter().find(|(k, _)| !seen.insert(k.as_str())) {
                return Err(duplicate_key(d.py(), k));
            }
        }
        Ok(MapView::Snap(items))
    }

    /// The number of entries.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        match self {
            MapView::Live(d) => d.len(),
            MapView::Snap(items) => items.len(),
        }
    }

    /// Calls `f` with each entry in order while it returns `Ok(true)`; `Ok(false)` if
    /// `f` stopped early. The entry is lent, not moved: a moved entry is copied with
    /// wide loads from the narrower stores that made it, which cannot be forwarded.
    #[inline]
    pub(crate) fn each(
        &self,
        mut f: impl FnMut(usize, &Entry<'_, 'py>) -> PyResult<bool>,
    ) -> PyResult<bool> {
        match self {
            MapView::Live(d) => {
                let py = d.py();
                let mut pos: ffi::Py_ssize_t = 0;
                let mut checked = false;
                let mut i = 0;
                loop {
                    let mut k = std::ptr::null_mut();
                    let mut v = std::ptr::null_mut();
                    // SAFETY: `d` is a live dict; `PyDict_Next` hands out borrowed
                    // references, and nothing changes the dict meanwhile.
                    if unsafe { ffi::PyDict_Next(d.as_ptr(), &mut pos, &mut k, &mut v) } == 0 {
                        return Ok(true);
                    }
                    // SAFETY: the dict holds both.
                    let (k, v) = unsafe { (Borrowed::from_ptr(py, k), Borrowed::from_ptr(py, v)) };
                    let go = if let Ok(s) = k.cast_exact::<PyString>() {
                        f(
                            i,
                            &Entry {
                                key: EntryKey::Str(&s),
                                value: &v,
                            },
                        )?
                    } else {
                        let text = other_key(d, &k, &mut checked)?;
                        let key = text.as_str()?;
                        f(
                            i,
                            &Entry {
                                key: EntryKey::Text(key),
                                value: &v,
                            },
                        )?
                    };
                    if !go {
                        return Ok(false);
                    }
                    i += 1;
                }
            }
            MapView::Snap(items) => {
                for (i, (key, value)) in items.iter().enumerate() {
                    if !f(
                        i,
                        &Entry {
                            key: EntryKey::Text(key),
                            value,
                        },
                    )? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
        }
    }
}

/// The text of `k`, a key of `d` read in place that is not an exact str, after
/// checking (once per dict: `checked`) that no two keys of `d` spell the same.
#[cold]
fn other_key<'a, 'py>(
    d: &Bound<'py, PyDict>,
    k: &'a Bound<'py, PyAny>,
    checked: &mut bool,
) -> PyResult<Text<'a, 'py>> {
    if !*checked {
        // Keys that are not strs may spell the same as another key.
        unique_keys(d)?;
        *checked = true;
    }
    key_string(k)
}

/// The text of `k`, a key of the dict `d` read in place: an exact str's read in
/// place (or its error), any other key's as [`MapView::each`] gives it.
#[inline]
pub(crate) fn live_key<'a, 'py>(
    d: &Bound<'py, PyDict>,
    k: &'a Bound<'py, PyAny>,
    checked: &mut bool,
) -> PyResult<Cow<'a, str>> {
    if let Ok(s) = k.cast_exact::<PyString>() {
        return match Text::in_place(s) {
            Some(text) => Ok(Cow::Borrowed(text)),
            None => Entry::key_text(s),
        };
    }
    Ok(match other_key(d, k, checked)? {
        Text::Str(text) => text,
        text => Cow::Owned(text.as_str()?.to_owned()),
    })
}

/// A list's or tuple's items as the walker reads them.
pub(crate) enum SeqView<'a, 'py> {
    /// A list read in place (no `default` hook runs that could change it).
    List(&'a Bound<'py, PyList>),
    /// A tuple (it cannot change).
    Tuple(&'a Bound<'py, PyTuple>),
    /// A list's items held while they are written (a `default` hook may change it).
    Snap(Vec<Bound<'py, PyAny>>),
}

impl<'a, 'py> SeqView<'a, 'py> {
    /// The view of `obj`, of class [`Class::List`] or [`Class::Tuple`].
    pub(crate) fn of(ctx: &Ctx<'py>, obj: &'a Bound<'py, PyAny>, class: Class) -> SeqView<'a, 'py> {
        if class == Class::Tuple {
            // SAFETY: `Class::Tuple` is given for tuple instances only.
            return SeqView::Tuple(unsafe { obj.cast_unchecked::<PyTuple>() });
        }
        // SAFETY: `Class::List` is given for list instances only.
        let list = unsafe { obj.cast_unchecked::<PyList>() };
        if ctx.default.is_some() {
            SeqView::Snap(list.iter().collect())
        } else {
            SeqView::List(list)
        }
    }

    /// The number of items.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        match self {
            SeqView::List(l) => l.len(),
            SeqView::Tuple(t) => t.len(),
            SeqView::Snap(items) => items.len(),
        }
    }

    /// Item `i` (below [`len`](Self::len)), borrowed.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> PyResult<Borrowed<'_, 'py, PyAny>> {
        match self {
            SeqView::List(l) => {
                let index = ffi::Py_ssize_t::try_from(i).unwrap_or(ffi::Py_ssize_t::MAX);
                // SAFETY: `l` is a live list; `PyList_GetItem` returns a borrowed
                // reference, or null with an exception set past the end.
                let item = unsafe { ffi::PyList_GetItem(l.as_ptr(), index) };
                if item.is_null() {
                    return Err(PyErr::fetch(l.py()));
                }
                // SAFETY: the list holds the item, and nothing changes the list meanwhile.
                Ok(unsafe { Borrowed::from_ptr(l.py(), item) })
            }
            SeqView::Tuple(t) => t.get_borrowed_item(i),
            SeqView::Snap(items) => items
                .get(i)
                .map(Bound::as_borrowed)
                .ok_or_else(|| pyo3::exceptions::PyIndexError::new_err("list index out of range")),
        }
    }
}
