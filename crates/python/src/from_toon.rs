//! TOON text to Python objects in one pass: the `toon` crate's decoding state machine
//! feeds this builder directly (`toon::__private::direct`), which makes dicts, lists,
//! strs, ints, floats, bools and None as the document is read (no intermediate
//! `toon::Value`, no serde visitor).
//!
//! Objects become dicts in document order (a repeated key, allowed in non-strict
//! mode, keeps its first position and takes the last value), or whatever
//! `object_hook(dict)` / `object_pairs_hook(pairs)` return. Numbers are made as the
//! official package makes them: `parse_int` / `parse_float` called with the token's
//! text as written when given, else `int` (exact, from the decoder's 64-bit value when
//! it has one) or `float`; a float beyond the float range, or an integer `int()`
//! refuses (or a `ValueError` from `parse_int`), is a decode error at the token. Object
//! keys repeat across rows and list items, so a key text is made into a Python str
//! once and shared while the key cache keeps it (which also lets dicts reuse its
//! cached hash); a table's keys are taken by their place in its header, without a
//! lookup. Entries go into dicts by `PyDict_SetItem` itself.

use std::hash::Hasher;

use pyo3::exceptions::PyValueError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString};
use toon::__private::direct::{self, Scalar};

use crate::to_toon::Text;

/// Hooks of `decode`, as in `json.loads`.
pub(crate) struct Hooks<'py> {
    /// Called with a float's text as written instead of making a `float`.
    pub(crate) parse_float: Option<Bound<'py, PyAny>>,
    /// Called with an integer's digits instead of making an `int`.
    pub(crate) parse_int: Option<Bound<'py, PyAny>>,
    /// Called with each decoded dict; its result takes the dict's place.
    pub(crate) object_hook: Option<Bound<'py, PyAny>>,
    /// Called with each object's `(key, value)` list (wins over `object_hook`).
    pub(crate) object_pairs_hook: Option<Bound<'py, PyAny>>,
}

/// The most slots the key cache has: a power of two, enough for any realistic schema,
/// and a bound for documents whose keys never repeat.
const KEY_SLOTS_MAX: usize = 1024;

/// The key strs made so far, one per slot of a direct-mapped table indexed by the
/// key text's hash: a repeated key is found by one hash, one comparison of the hash
/// and one of the text (kept with the slot, not asked of the str again); a new key
/// takes its slot over (no allocation, no rehash, so a document of keys that never
/// repeat, a keyed table of ids, costs no more than making their strs).
struct KeyCache<'py> {
    slots: Vec<Option<KeySlot<'py>>>,
}

/// A cached key: its text's hash, the str, and its text: the str's own UTF-8 where
/// CPython keeps it with the str (which the slot holds), else a copy (`_copy`).
struct KeySlot<'py> {
    hash: u64,
    utf8: *const u8,
    len: usize,
    key: Bound<'py, PyString>,
    _copy: Option<Box<[u8]>>,
}

impl KeySlot<'_> {
    #[inline]
    fn text(&self) -> &[u8] {
        // SAFETY: `utf8` is `len` bytes of the UTF-8 CPython keeps with `key`, or of
        // `_copy`, which live as long as the slot holds them.
        unsafe { std::slice::from_raw_parts(self.utf8, self.len) }
    }
}

impl<'py> KeyCache<'py> {
    /// A cache sized for a document of `len` bytes (a key takes a few bytes at least).
    fn new(len: usize) -> KeyCache<'py> {
        let slots = (len / 16).clamp(16, KEY_SLOTS_MAX).next_power_of_two();
        KeyCache {
            slots: std::iter::repeat_with(|| None).take(slots).collect(),
        }
    }

    /// The str of key `text`, made once while its slot keeps it.
    #[inline]
    fn get(&mut self, py: Python<'py>, text: &str) -> Bound<'py, PyString> {
        let bytes = text.as_bytes();
        let hash = key_hash(bytes);
        let mask = self.slots.len() - 1;
        // The high bits: the multiply leaves its best mixing there.
        let slot = &mut self.slots[(hash >> 32) as usize & mask];
        if let Some(k) = slot
            && k.hash == hash
            && same_bytes(k.text(), bytes)
        {
            return k.key.clone();
        }
        let key = PyString::new(py, text);
        let (utf8, copy) = match Text::in_place(&key) {
            Some(utf8) => (utf8.as_ptr(), None),
            None => {
                let copy: Box<[u8]> = text.as_bytes().into();
                (copy.as_ptr(), Some(copy))
            }
        };
        *slot = Some(KeySlot {
            hash,
            utf8,
            len: text.len(),
            key: key.clone(),
            _copy: copy,
        });
        key
    }
}

/// What one `decode` call builds and shares.
pub(crate) struct Builder<'py> {
    py: Python<'py>,
    hooks: Hooks<'py>,
    /// The Python str made for each key text so far.
    keys: KeyCache<'py>,
    /// The keys of the last table's rows, by field index, and that table's number.
    table: (usize, Vec<Bound<'py, PyString>>),
    /// Open containers, innermost last.
    stack: Vec<Open<'py>>,
    /// The document's value, once complete.
    result: Option<Bound<'py, PyAny>>,
    /// The largest list capacity taken from a header (the text's length: every item
    /// takes at least a byte), so a lying header cannot reserve memory.
    capacity_cap: usize,
    /// The Python exception that stopped the build (a hook raised).
    error: Option<PyErr>,
}

/// An open container.
enum Open<'py> {
    List(Vec<Bound<'py, PyAny>>),
    Dict(Bound<'py, PyDict>, Option<Bound<'py, PyString>>),
}

impl<'py> Builder<'py> {
    /// A builder calling `hooks` where given.
    pub(crate) fn new(py: Python<'py>, hooks: Hooks<'py>) -> Builder<'py> {
        Builder {
            py,
            hooks,
            keys: KeyCache::new(0),
            table: (0, Vec::new()),
            stack: Vec::new(),
            result: None,
            capacity_cap: 0,
            error: None,
        }
    }

    /// Decodes `text` into Python objects. On failure, the Python exception a hook
    /// raised, or the decoder's error for `to_py_err`.
    pub(crate) fn build(
        mut self,
        text: &str,
        options: &toon::DecodeOptions,
        to_py_err: impl FnOnce(toon::Error) -> PyErr,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.capacity_cap = text.len() + 1;
        self.keys = KeyCache::new(text.len());
        let done = direct::build_text(text, options, &mut self);
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        done.map_err(to_py_err)?;
        Ok(self
            .result
            .unwrap_or_else(|| PyDict::new(self.py).into_any()))
    }

    fn key_of(&mut self, text: &str) -> Bound<'py, PyString> {
        self.keys.get(self.py, text)
    }

    fn set_key(&mut self, key: Bound<'py, PyString>) {
        if let Some(Open::Dict(_, pending)) = self.stack.last_mut() {
            *pending = Some(key);
        }
    }

    /// Puts a complete value into the open container (or keeps it as the result).
    fn complete(&mut self, value: Bound<'py, PyAny>) {
        match self.stack.last_mut() {
            None => self.result = Some(value),
            Some(Open::List(items)) => items.push(value),
            Some(Open::Dict(dict, pending)) => {
                if let Some(key) = pending.take() {
                    // SAFETY: the GIL is held and all three are live; `PyDict_SetItem`
                    // takes its own references (it steals none), and returns -1 with an
                    // exception set on failure.
                    let failed =
                        unsafe { ffi::PyDict_SetItem(dict.as_ptr(), key.as_ptr(), value.as_ptr()) }
                            < 0;
                    if failed {
                        self.error = Some(PyErr::fetch(self.py));
                    }
                }
            }
        }
    }

    /// An integer token: through `parse_int`, else exact. A `ValueError` is the
    /// document's error (`Err(message)`); any other exception stops the build.
    fn integer(&mut self, value: Option<i64>, text: &str) -> Result<Bound<'py, PyAny>, String> {
        let py = self.py;
        let made = match (&self.hooks.parse_int, value) {
            (Some(f), _) => f.call1((text,)),
            (None, Some(i)) => {
                return Ok(i
                    .into_pyobject(py)
                    .map_or_else(|e| match e {}, Bound::into_any));
            }
            (None, None) => py.get_type::<PyInt>().call1((text,)),
        };
        made.map_err(|e| {
            if e.is_instance_of::<PyValueError>(py) {
                e.value(py).to_string()
            } else {
                self.stop(e)
            }
        })
    }

    /// Keeps `err` to be raised; the message the decoder stops with.
    fn stop(&mut self, err: PyErr) -> String {
        let msg = err.to_string();
        self.error = Some(err);
        msg
    }

    /// A primitive as a Python object.
    fn scalar_object(&mut self, value: Scalar<'_>) -> Result<Bound<'py, PyAny>, String> {
        let py = self.py;
        Ok(match value {
            Scalar::Null => py.None().into_bound(py),
            Scalar::Bool(b) => PyBool::new(py, b).to_owned().into_any(),
            Scalar::Str(s) => PyString::new(py, &s).into_any(),
            Scalar::Int(i, text) => return self.integer(i, text),
            Scalar::U64(u, text) => match &self.hooks.parse_int {
                Some(_) => return self.integer(None, text),
                None => u
                    .into_pyobject(py)
                    .map_or_else(|e| match e {}, Bound::into_any),
            },
            Scalar::Float(f, text) => {
                if let Some(hook) = &self.hooks.parse_float {
                    return hook.call1((text,)).map_err(|e| self.stop(e));
                }
                if !f.is_finite() {
                    return Err(format!("Number {text} is out of range"));
                }
                PyFloat::new(py, if f == 0.0 { 0.0 } else { f }).into_any()
            }
        })
    }
}

impl direct::Builder for Builder<'_> {
    fn start_object(&mut self, _fields: Option<usize>) {
        if self.error.is_none() {
            self.stack.push(Open::Dict(PyDict::new(self.py), None));
        }
    }

    fn end_object(&mut self) {
        if self.error.is_some() {
            return;
        }
        let Some(Open::Dict(dict, _)) = self.stack.pop() else {
            return;
        };
        let made = if let Some(hook) = &self.hooks.object_pairs_hook {
            hook.call1((dict.items(),))
        } else if let Some(hook) = &self.hooks.object_hook {
            hook.call1((dict,))
        } else {
            Ok(dict.into_any())
        };
        match made {
            Ok(v) => self.complete(v),
            Err(e) => self.error = Some(e),
        }
    }

    fn start_array(&mut self, len: usize) {
        if self.error.is_none() {
            let cap = len.min(self.capacity_cap);
            self.stack.push(Open::List(Vec::with_capacity(cap)));
        }
    }

    fn end_array(&mut self) {
        if self.error.is_some() {
            return;
        }
        let Some(Open::List(items)) = self.stack.pop() else {
            return;
        };
        match PyList::new(self.py, items) {
            Ok(list) => self.complete(list.into_any()),
            Err(e) => self.error = Some(e),
        }
    }

    fn key(&mut self, key: &str) {
        if self.error.is_none() {
            let k = self.key_of(key);
            self.set_key(k);
        }
    }

    fn table_key(&mut self, table: usize, field: usize, key: &str) {
        if self.error.is_some() {
            return;
        }
        if self.table.0 != table {
            self.table = (table, Vec::new());
        }
        let k = match self.table.1.get(field) {
            Some(k) => k.clone(),
            None => {
                let k = self.key_of(key);
                if self.table.1.len() == field {
                    self.table.1.push(k.clone());
                }
                k
            }
        };
        self.set_key(k);
    }

    fn scalar(&mut self, value: Scalar<'_>) -> Result<(), String> {
        if let Some(e) = &self.error {
            return Err(e.to_string());
        }
        let v = self.scalar_object(value)?;
        self.complete(v);
        Ok(())
    }

    fn failed(&self) -> bool {
        self.error.is_some()
    }
}

/// The first and last 8 bytes of `b` (8 to 16 bytes long) as two words: together
/// they hold every byte.
#[inline(always)]
fn ends(b: &[u8]) -> (u64, u64) {
    let n = b.len();
    let word = |i: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&b[i..i + 8]);
        u64::from_le_bytes(w)
    };
    (word(0), word(n - 8))
}

/// The hash of a key text: a key of 8 to 16 bytes (most keys) as its two end words,
/// without a loop; any other through [`WordHash`].
#[inline]
fn key_hash(b: &[u8]) -> u64 {
    if (8..=16).contains(&b.len()) {
        let (lo, hi) = ends(b);
        let mut h = WordHash(b.len() as u64);
        h.add(lo);
        h.add(hi);
        return h.finish();
    }
    let mut h = WordHash::default();
    h.write(b);
    h.finish()
}

/// Whether two key texts are equal: of 8 to 16 bytes compared by their end words,
/// without a call to `memcmp`.
#[inline]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    if (8..=16).contains(&a.len()) {
        return ends(a) == ends(b);
    }
    a == b
}

/// A word-at-a-time multiplicative hash (as rustc's `FxHasher`): object keys are
/// short, where it beats SipHash (and byte-wise FNV) by a wide margin; the cache is
/// bounded, so colliding keys cost time, never memory.
#[derive(Default)]
struct WordHash(u64);

impl WordHash {
    const K: u64 = 0x517c_c1b7_2722_0a95;

    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(Self::K);
    }
}

impl Hasher for WordHash {
    fn finish(&self) -> u64 {
        self.0
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        // The last 1–7 bytes as one word: two overlapping 4-byte reads, or bytes.
        let rest = chunks.remainder();
        let n = rest.len();
        let word = if n >= 4 {
            let lo = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]);
            let hi = u32::from_le_bytes([rest[n - 4], rest[n - 3], rest[n - 2], rest[n - 1]]);
            u64::from(lo) | (u64::from(hi) << 32)
        } else {
            rest.iter().fold(0u64, |w, &b| (w << 8) | u64::from(b))
        };
        if n > 0 {
            self.add(word ^ ((n as u64) << 59));
        }
    }

    #[inline]
    fn write_u8(&mut self, b: u8) {
        self.add(u64::from(b));
    }
}
