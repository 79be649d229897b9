//! The options of `encode` and `decode`, checked here as the official `toon_format`
//! 1.2.0 checks them (same exception classes and messages), so that the package's
//! `encode`/`decode` are the extension's functions themselves: no Python frame runs
//! around a call (after a `gc.collect()` or any other work that leaves the caches cold,
//! a Python-level wrapper cost tens of microseconds, a tenth of a small document's
//! encoding), and the cyclic collector is paused around a decode from here.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyInt, PyString, PyTuple};
use pyo3::{Borrowed, intern};
use toon::Delimiter;

/// An option as the caller passed it (checked by the function), or its default: a
/// keyword given as `None` is told from one left out.
pub(crate) enum Arg<'py> {
    Default,
    Given(Bound<'py, PyAny>),
}

impl<'a, 'py> FromPyObject<'a, 'py> for Arg<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(Arg::Given(obj.to_owned()))
    }
}

/// `indent_size`: an int (not a bool) of at least 1.
pub(crate) fn indent_size(arg: &Arg<'_>) -> PyResult<usize> {
    let Arg::Given(v) = arg else {
        return Ok(2);
    };
    if v.is_instance_of::<PyBool>() || !v.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "indent_size must be an int, not {}",
            v.get_type().name()?
        )));
    }
    if v.lt(1)? {
        return Err(PyValueError::new_err(format!(
            "indent_size must be at least 1, got {v}"
        )));
    }
    v.extract()
}

/// The three delimiters as the official package lists them (a tuple searched with
/// `in`: equal by identity or `==`).
fn delimiters(py: Python<'_>) -> &Bound<'_, PyTuple> {
    static DELIMITERS: PyOnceLock<Py<PyTuple>> = PyOnceLock::new();
    DELIMITERS
        .get_or_init(py, || {
            PyTuple::new(py, [",", "\t", "|"])
                .expect("a tuple of strs")
                .unbind()
        })
        .bind(py)
}

/// `delimiter`: one of `","`, `"\t"` and `"|"`, as a str or a str subclass (a
/// `Delimiter` member) equal to one; `str.__str__` of anything else that compares
/// equal to one.
pub(crate) fn delimiter(arg: &Arg<'_>) -> PyResult<Delimiter> {
    let Arg::Given(d) = arg else {
        return Ok(Delimiter::Comma);
    };
    if let Ok(s) = d.cast_exact::<PyString>()
        && let Some(delimiter) = one_delimiter(&s.to_cow()?)
    {
        return Ok(delimiter);
    }
    if !delimiters(d.py()).contains(d)? {
        return Err(PyValueError::new_err(format!(
            "delimiter must be ',', '\\t', or '|', got {}",
            d.repr()?
        )));
    }
    // `str.__str__(d)`: the str value of a subclass instance; a TypeError otherwise.
    let text = d
        .py()
        .get_type::<PyString>()
        .getattr(intern!(d.py(), "__str__"))?
        .call1((d,))?;
    one_delimiter(&text.cast::<PyString>()?.to_cow()?).ok_or_else(|| {
        PyValueError::new_err(format!(
            "delimiter must be ',', '\\t', or '|', got {}",
            d.repr().map_or_else(|_| "?".to_owned(), |r| r.to_string())
        ))
    })
}

fn one_delimiter(s: &str) -> Option<Delimiter> {
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Delimiter::from_char(c),
        _ => None,
    }
}

/// A boolean option by its truth value (`bool(x)`), `default` when left out.
pub(crate) fn flag(arg: &Arg<'_>, default: bool) -> PyResult<bool> {
    match arg {
        Arg::Default => Ok(default),
        Arg::Given(v) => v.is_truthy(),
    }
}

/// The cyclic garbage collector paused for a decode, and resumed when this is dropped
/// (if it was running): every container the decoder makes is new and holds no cycle,
/// yet each batch of them would set off the collector, which walks all young
/// containers again (half the time of a nested document).
pub(crate) struct GcPause<'py> {
    py: Python<'py>,
    resume: bool,
}

impl<'py> GcPause<'py> {
    /// Pauses the collector if it runs.
    pub(crate) fn new(py: Python<'py>) -> PyResult<GcPause<'py>> {
        Ok(GcPause {
            py,
            resume: gc_disable(py)?,
        })
    }
}

impl Drop for GcPause<'_> {
    fn drop(&mut self) {
        if self.resume {
            gc_enable(self.py);
        }
    }
}

/// Disables the collector; whether it was enabled.
#[cfg(feature = "py310")]
fn gc_disable(_py: Python<'_>) -> PyResult<bool> {
    // SAFETY: the GIL is held; `PyGC_Disable` returns the previous state and cannot fail.
    Ok(unsafe { pyo3::ffi::PyGC_Disable() } != 0)
}

#[cfg(feature = "py310")]
fn gc_enable(_py: Python<'_>) {
    // SAFETY: the GIL is held; `PyGC_Enable` cannot fail.
    unsafe { pyo3::ffi::PyGC_Enable() };
}

/// `gc.isenabled`, `gc.disable` and `gc.enable` (the 3.9 stable ABI has no C calls
/// for them), looked up once.
#[cfg(not(feature = "py310"))]
fn gc_functions(py: Python<'_>) -> PyResult<&[Py<PyAny>; 3]> {
    static GC: PyOnceLock<[Py<PyAny>; 3]> = PyOnceLock::new();
    GC.get_or_try_init(py, || {
        let gc = py.import("gc")?;
        Ok([
            gc.getattr("isenabled")?.unbind(),
            gc.getattr("disable")?.unbind(),
            gc.getattr("enable")?.unbind(),
        ])
    })
}

#[cfg(not(feature = "py310"))]
fn gc_disable(py: Python<'_>) -> PyResult<bool> {
    let [isenabled, disable, _] = gc_functions(py)?;
    if !isenabled.call0(py)?.is_truthy(py)? {
        return Ok(false);
    }
    disable.call0(py)?;
    Ok(true)
}

#[cfg(not(feature = "py310"))]
fn gc_enable(py: Python<'_>) {
    if let Ok([_, _, enable]) = gc_functions(py) {
        // `gc.enable()` cannot fail.
        let _ = enable.call0(py);
    }
}
