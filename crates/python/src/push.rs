//! `toonkit.Decoder`: the push decoder of the `toon` crate ([`toon::decode::PushDecoder`])
//! for text that arrives in pieces, as a model streams it. Each event is a pair
//! `(kind, value)`: `("start_object", None)`, `("end_object", None)`,
//! `("start_array", declared_length)`, `("end_array", None)`, `("key", name)`,
//! `("primitive", value)`.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyList, PyString, PyTuple};
use toon::decode::{Event, PushDecoder};
use toon::{DecodeOptions, Number, Value};

/// Decoder(*, strict=True, indent_size=2): feed TOON text in chunks (`str` or UTF-8
/// bytes, split anywhere) and take the events each chunk completes; `close()` checks
/// the end of the document.
#[pyclass(module = "toonkit._toonkit", name = "Decoder")]
pub struct Decoder {
    inner: PushDecoder,
}

#[pymethods]
impl Decoder {
    #[new]
    #[pyo3(signature = (*, strict=true, indent_size=2))]
    fn new(strict: bool, indent_size: usize) -> Self {
        let options = DecodeOptions::default()
            .with_strict(strict)
            .with_indent_size(indent_size);
        Decoder {
            inner: PushDecoder::new(&options),
        }
    }

    /// The events the chunk completes, as `(kind, value)` pairs. On an error, the
    /// `ToonDecodeError` carries the events the chunk completed before it as `events`.
    fn feed<'py>(
        &mut self,
        py: Python<'py>,
        chunk: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let pushed = if let Ok(s) = chunk.cast::<PyString>() {
            self.inner.push(s.to_cow()?.as_bytes())
        } else if let Ok(b) = chunk.cast::<PyBytes>() {
            self.inner.push(b.as_bytes())
        } else if let Ok(b) = chunk.cast::<PyByteArray>() {
            self.inner.push(b.to_vec())
        } else {
            return Err(PyTypeError::new_err(format!(
                "a TOON chunk must be str, bytes or bytearray, not {}",
                chunk.get_type().name()?
            )));
        };
        let out = PyList::empty(py);
        let drained = self.drain_into(py, &out);
        match (pushed, drained) {
            (Ok(()), Ok(())) => Ok(out),
            (Err(e), _) => Err(with_events(py, error(e), out)),
            (Ok(()), Err(e)) => Err(with_events(py, e, out)),
        }
    }

    /// Declares the end of the text: the remaining events, or `ToonDecodeError` if the
    /// document is invalid or incomplete (carrying the events before it as `events`).
    fn close<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.inner.finish();
        let out = PyList::empty(py);
        match self.drain_into(py, &out) {
            Ok(()) => Ok(out),
            Err(e) => Err(with_events(py, e, out)),
        }
    }

    /// Whether the whole document has been read and every event taken.
    #[getter]
    fn done(&self) -> bool {
        self.inner.is_done()
    }

    /// The 1-based number of the last line read (0 before the first).
    #[getter]
    fn line(&self) -> usize {
        self.inner.line_number()
    }
}

impl Decoder {
    /// Appends every event ready now to `out`, up to an error.
    fn drain_into<'py>(&mut self, py: Python<'py>, out: &Bound<'py, PyList>) -> PyResult<()> {
        while let Some(event) = self.inner.next_event().map_err(error)? {
            out.append(event_tuple(py, event)?)?;
        }
        Ok(())
    }
}

/// `err` with `events`: what the call completed before it failed.
fn with_events<'py>(py: Python<'py>, err: PyErr, events: Bound<'py, PyList>) -> PyErr {
    let _ = err.value(py).setattr("events", events);
    err
}

fn event_tuple(py: Python<'_>, event: Event) -> PyResult<Bound<'_, PyTuple>> {
    let none = || py.None().into_bound(py);
    let (kind, value) = match event {
        Event::StartObject => ("start_object", none()),
        Event::EndObject => ("end_object", none()),
        Event::StartArray { len } => ("start_array", len.into_pyobject(py)?.into_any()),
        Event::EndArray => ("end_array", none()),
        Event::Key(k) => ("key", PyString::new(py, &k).into_any()),
        Event::Primitive(v) => ("primitive", primitive(py, &v)?),
    };
    PyTuple::new(py, [PyString::new(py, kind).into_any(), value])
}

fn primitive<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => number(py, n)?,
        Value::String(s) => PyString::new(py, s).into_any(),
        _ => py.None().into_bound(py),
    })
}

fn number<'py>(py: Python<'py>, n: &Number) -> PyResult<Bound<'py, PyAny>> {
    if let Some(i) = n.as_i64() {
        return Ok(i.into_pyobject(py)?.into_any());
    }
    if let Some(u) = n.as_u64() {
        return Ok(u.into_pyobject(py)?.into_any());
    }
    if let Some(digits) = n.as_big_integer_str() {
        return py
            .get_type::<pyo3::types::PyInt>()
            .call1((digits,))
            .map(Bound::into_any);
    }
    Ok(n.as_f64().into_pyobject(py)?.into_any())
}

/// A `ToonDecodeError` with `msg`, `line`, `source` (the offending line), `column` and
/// `snippet`, as `decode` raises it.
fn error(e: toon::Error) -> PyErr {
    Python::attach(|py| crate::toon_decode_error(py, &e, e.source_line().map(str::to_owned)))
}
