//! Python bindings for toonkit: the TOON codec (`encode`/`decode`) and exact
//! o200k_base token counts (`count_tokens`, `stats`).
//!
//! The encoder and decoder are those of the `toon` crate, so output is the same as
//! the CLI's; Python objects are serialized straight into TOON text ([`encode`]) and
//! built straight from it ([`decode`]), with no `toon::Value` tree in between.

#[cfg(all(feature = "py39", feature = "py310"))]
compile_error!(
    "features py39 and py310 choose the stable ABI: build py310 with --no-default-features"
);

mod from_toon;
mod to_toon;
mod views;
mod walk;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyBytes, PyString};
use std::borrow::Cow;
use std::sync::OnceLock;
use toon::{DecodeOptions, Delimiter};
use toon_tokens::{Bpe, Tokenizer};

mod agents;
mod plan;
mod push;

/// What the Python package registers at import (`_set_hooks`): its exception class
/// and its host-type rules.
pub(crate) struct Hooks {
    /// `toonkit.ToonDecodeError`, called as `(msg, line, source, column, snippet)`.
    pub(crate) decode_error: Py<PyAny>,
    /// `toonkit._host.replacement`: what a non-JSON object encodes as.
    pub(crate) replacement: Py<PyAny>,
    /// What `replacement` returns for an object it has no rule for.
    pub(crate) not_handled: Py<PyAny>,
}

static HOOKS: PyOnceLock<Hooks> = PyOnceLock::new();

/// The hooks the package registered, if it did (importing `_toonkit` alone does not).
pub(crate) fn hooks(py: Python<'_>) -> Option<&'static Hooks> {
    HOOKS.get(py)
}

/// _set_hooks(decode_error, replacement, not_handled): registers the package's
/// exception class and host-type rules (once; later calls change nothing).
#[pyfunction]
fn _set_hooks(
    py: Python<'_>,
    decode_error: Py<PyAny>,
    replacement: Py<PyAny>,
    not_handled: Py<PyAny>,
) {
    let _ = HOOKS.set(
        py,
        Hooks {
            decode_error,
            replacement,
            not_handled,
        },
    );
}

/// A `ToonDecodeError` with the official package's `msg`, `line` and `source` (the
/// text of the offending line of `input`), and `column` and `snippet` (that line with
/// a caret under the column).
fn decode_error(e: toon::Error, input: &Bound<'_, PyAny>) -> PyErr {
    let source = source_line(input, e.line());
    toon_decode_error(input.py(), &e, source)
}

/// A `ToonDecodeError` of `e` whose offending line is `source` (see [`decode_error`]);
/// a `ValueError` when the package did not register its class (`_toonkit` imported
/// alone).
pub(crate) fn toon_decode_error(py: Python<'_>, e: &toon::Error, source: Option<String>) -> PyErr {
    let shown = e.to_string();
    let snippet = shown.split_once('\n').map(|(_, rest)| rest.to_owned());
    let args = (
        e.message().to_owned(),
        e.line(),
        source,
        e.column(),
        snippet,
    );
    match hooks(py) {
        Some(h) => match h.decode_error.bind(py).call1(args) {
            Ok(err) => PyErr::from_value(err),
            Err(err) => err,
        },
        None => PyValueError::new_err(shown),
    }
}

/// Line `line` (1-based) of the decoded input, `str` or bytes (read lossily).
fn source_line(input: &Bound<'_, PyAny>, line: Option<usize>) -> Option<String> {
    let index = line?.checked_sub(1)?;
    let text = if let Ok(s) = input.cast::<PyString>() {
        s.to_cow().ok()?.into_owned()
    } else {
        String::from_utf8_lossy(&input.extract::<Vec<u8>>().ok()?).into_owned()
    };
    text.split('\n')
        .nth(index)
        .map(|l| l.strip_suffix('\r').unwrap_or(l).to_owned())
}

fn delimiter_of(d: &Bound<'_, PyAny>) -> PyResult<Delimiter> {
    let s: String = match d.getattr("value") {
        Ok(v) if !d.is_instance_of::<PyString>() => v.extract()?,
        _ => d.extract()?,
    };
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Delimiter::from_char(c),
        _ => None,
    }
    .ok_or_else(|| PyValueError::new_err(format!("delimiter must be ',', '\\t' or '|', not {s:?}")))
}

/// encode(obj, *, indent_size=2, delimiter=",", default=None, sort_keys=False) -> str
#[pyfunction]
#[pyo3(signature = (obj, *, indent_size=2, delimiter=None, default=None, sort_keys=false))]
fn encode(
    obj: &Bound<'_, PyAny>,
    indent_size: usize,
    delimiter: Option<&Bound<'_, PyAny>>,
    default: Option<&Bound<'_, PyAny>>,
    sort_keys: bool,
) -> PyResult<String> {
    let delimiter = match delimiter {
        Some(d) => delimiter_of(d)?,
        None => Delimiter::Comma,
    };
    let ctx = to_toon::Ctx::new(
        obj.py(),
        default.filter(|d| !d.is_none()).cloned(),
        sort_keys,
    );
    walk::encode(&ctx, obj, indent_size, delimiter)
}

/// decode(s, *, strict=True, indent_size=2, parse_float=None, parse_int=None,
/// object_hook=None, object_pairs_hook=None)
#[pyfunction]
#[pyo3(signature = (s, *, strict=true, indent_size=2, parse_float=None, parse_int=None, object_hook=None, object_pairs_hook=None))]
#[allow(clippy::too_many_arguments)]
fn decode<'py>(
    py: Python<'py>,
    s: &Bound<'py, PyAny>,
    strict: bool,
    indent_size: usize,
    parse_float: Option<Bound<'py, PyAny>>,
    parse_int: Option<Bound<'py, PyAny>>,
    object_hook: Option<Bound<'py, PyAny>>,
    object_pairs_hook: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let options = DecodeOptions::default()
        .with_strict(strict)
        .with_indent_size(indent_size);
    let text: Cow<'_, str> = if let Ok(text) = s.cast::<PyString>() {
        text.to_cow()?
    } else if let Ok(b) = s.cast::<PyBytes>() {
        toon::decode::text_from_bytes(b.as_bytes(), strict).map_err(|e| decode_error(e, s))?
    } else if let Ok(b) = s.cast::<PyByteArray>() {
        Cow::Owned(
            toon::decode::text_from_bytes(&b.to_vec(), strict)
                .map_err(|e| decode_error(e, s))?
                .into_owned(),
        )
    } else {
        return Err(PyTypeError::new_err(format!(
            "the TOON object must be str, bytes or bytearray, not {}",
            s.get_type().name()?
        )));
    };
    let none = |h: Option<Bound<'py, PyAny>>| h.filter(|h| !h.is_none());
    let hooks = from_toon::Hooks {
        parse_float: none(parse_float),
        parse_int: none(parse_int),
        object_hook: none(object_hook),
        object_pairs_hook: none(object_pairs_hook),
    };
    from_toon::Builder::new(py, hooks).build(&text, &options, |e| decode_error(e, s))
}

fn tokenizer() -> PyResult<&'static Bpe> {
    static BPE: OnceLock<Result<Bpe, String>> = OnceLock::new();
    BPE.get_or_init(|| Bpe::o200k_base().map_err(|e| e.to_string()))
        .as_ref()
        .map_err(|e| PyValueError::new_err(format!("cannot count tokens: {e}")))
}

/// count_tokens(text) -> int: exact o200k_base token count.
#[pyfunction]
fn count_tokens(py: Python<'_>, text: &str) -> PyResult<usize> {
    let bpe = tokenizer()?;
    Ok(py.detach(|| bpe.count(text)))
}

/// stats(value) -> dict: token and byte counts per format, the keys of `toon stats --json`.
#[pyfunction]
fn stats<'py>(py: Python<'py>, value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let ctx = to_toon::Ctx::new(py, None, false);
    let value = toon::to_value(&ctx.root(value)).map_err(|e| ctx.into_error(e))?;
    let bpe = tokenizer()?;
    let cmp =
        toon_tokens::compare(&value, bpe).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let json = cmp.to_json().to_string();
    py.import("json")?.call_method1("loads", (json,))
}

#[pymodule]
fn _toonkit(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(encode, m)?)?;
    m.add_function(wrap_pyfunction!(decode, m)?)?;
    m.add_function(wrap_pyfunction!(count_tokens, m)?)?;
    m.add_function(wrap_pyfunction!(stats, m)?)?;
    m.add_function(wrap_pyfunction!(_set_hooks, m)?)?;
    plan::register(m)?;
    m.add_class::<push::Decoder>()?;
    agents::register(m)?;
    Ok(())
}
