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

mod args;
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
use toon::DecodeOptions;

use crate::args::Arg;
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

/// Serialize ``obj`` to a TOON document (no trailing newline).
///
/// Values: ``dict`` (and any ``Mapping``) becomes an object, ``list``, ``tuple``,
/// ``set`` and ``frozenset`` (sorted) an array; ``str``, ``int`` (exact at any size),
/// ``float`` (written so that it decodes to the same float; NaN and infinities as
/// ``null``), ``bool`` and ``None`` as themselves. As in the official package,
/// ``Decimal`` is a number, ``datetime``/``date``/``time`` their ISO text, ``UUID``
/// and ``pathlib`` paths their ``str``, an ``Enum`` member its value, and dataclasses,
/// attrs classes and pydantic models an object of their fields. Anything else is
/// passed to ``default``, whose result is encoded in its place.
///
/// Keys: ``str`` as they are; ``int``, ``float`` (``NaN``, ``Infinity``), ``bool``
/// and ``None`` by their ``json.dumps`` spelling.
///
/// Options:
///     indent_size: spaces per indentation level (an int, at least 1).
///     delimiter: between array values and table cells: ``","`` (default), ``"\t"``
///         or ``"|"``, or a :class:`Delimiter` member. Headers declare a tab or pipe.
///     default: called with each value that has no TOON form; returns a replacement.
///     sort_keys: write every object's keys sorted.
///
/// Raises:
///     TypeError: a value has no TOON form (and no ``default``), a key is not a
///         str, int, float, bool or None, or ``indent_size`` is not an int.
///     ValueError: an invalid option; two keys of one mapping spell the same after
///         conversion (``{1: "a", "1": "b"}``); a circular reference (also through
///         ``default``); nesting deeper than 1000 levels; a str with an unpaired
///         surrogate.
///     Whatever ``default`` raises.
#[pyfunction]
#[pyo3(
    signature = (obj, *, indent_size=Arg::Default, delimiter=Arg::Default, default=None, sort_keys=Arg::Default),
    text_signature = "(obj, *, indent_size=2, delimiter=',', default=None, sort_keys=False)"
)]
fn encode(
    obj: &Bound<'_, PyAny>,
    indent_size: Arg<'_>,
    delimiter: Arg<'_>,
    default: Option<&Bound<'_, PyAny>>,
    sort_keys: Arg<'_>,
) -> PyResult<String> {
    // In the official package's order: the delimiter, then the indentation.
    let delimiter = args::delimiter(&delimiter)?;
    let indent_size = args::indent_size(&indent_size)?;
    let ctx = to_toon::Ctx::new(
        obj.py(),
        default.filter(|d| !d.is_none()).cloned(),
        args::flag(&sort_keys, false)?,
    );
    walk::encode(&ctx, obj, indent_size, delimiter)
}

/// Deserialize a TOON document (``str``, or UTF-8 ``bytes``/``bytearray``).
///
/// Objects become dicts in document order, arrays lists. Each array header declares
/// its delimiter (``[N]`` comma, ``[N\t]`` tab, ``[N|]`` pipe), so no delimiter
/// option is needed.
///
/// Options:
///     strict: enforce every check of spec §14 (declared lengths, indentation,
///         duplicate keys, blank lines inside arrays). ``strict=False`` tolerates
///         those as the reference does (a repeated key: the last value wins).
///     indent_size: spaces per indentation level (an int, at least 1).
///     parse_float: called with the text of every number with a fraction or an
///         exponent, as written (``Decimal`` for lossless decoding).
///     parse_int: called with the text of every integer, as written.
///     object_hook: called with every decoded dict; its result takes its place.
///     object_pairs_hook: called with every object as a list of ``(key, value)``
///         pairs; wins over ``object_hook``.
///
/// Raises:
///     ToonDecodeError: the document is not valid TOON (also a number out of the
///         float range without ``parse_float``, an integer ``int()`` refuses, or a
///         ``ValueError`` from ``parse_int``); it has ``msg``, ``line`` and
///         ``source`` as in the official package, and ``column`` and ``snippet``.
///     TypeError: ``s`` is not str, bytes or bytearray; ``indent_size`` is not an int.
///     ValueError: ``indent_size`` is below 1.
///     Whatever a hook raises (other than the above).
#[pyfunction]
#[pyo3(
    signature = (s, *, strict=Arg::Default, indent_size=Arg::Default, parse_float=None, parse_int=None, object_hook=None, object_pairs_hook=None),
    text_signature = "(s, *, strict=True, indent_size=2, parse_float=None, parse_int=None, object_hook=None, object_pairs_hook=None)"
)]
#[allow(clippy::too_many_arguments)]
fn decode<'py>(
    py: Python<'py>,
    s: &Bound<'py, PyAny>,
    strict: Arg<'py>,
    indent_size: Arg<'py>,
    parse_float: Option<Bound<'py, PyAny>>,
    parse_int: Option<Bound<'py, PyAny>>,
    object_hook: Option<Bound<'py, PyAny>>,
    object_pairs_hook: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let text = if let Ok(text) = s.cast::<PyString>() {
        Input::Str(text)
    } else if let Ok(b) = s.cast::<PyBytes>() {
        Input::Bytes(b)
    } else if let Ok(b) = s.cast::<PyByteArray>() {
        Input::ByteArray(b)
    } else {
        return Err(PyTypeError::new_err(format!(
            "the TOON document must be str, bytes or bytearray, not {}",
            s.get_type().name()?
        )));
    };
    let strict = args::flag(&strict, true)?;
    let options = DecodeOptions::default()
        .with_strict(strict)
        .with_indent_size(args::indent_size(&indent_size)?);
    let text: Cow<'_, str> = match text {
        // Read in place where CPython keeps the str's UTF-8 (no copy of the document);
        // a str with an unpaired surrogate is read by `to_cow`, which raises.
        Input::Str(text) => match to_toon::Text::in_place(text) {
            Some(utf8) => Cow::Borrowed(utf8),
            None => text.to_cow()?,
        },
        Input::Bytes(b) => {
            toon::decode::text_from_bytes(b.as_bytes(), strict).map_err(|e| decode_error(e, s))?
        }
        Input::ByteArray(b) => Cow::Owned(
            toon::decode::text_from_bytes(&b.to_vec(), strict)
                .map_err(|e| decode_error(e, s))?
                .into_owned(),
        ),
    };
    let none = |h: Option<Bound<'py, PyAny>>| h.filter(|h| !h.is_none());
    let hooks = from_toon::Hooks {
        parse_float: none(parse_float),
        parse_int: none(parse_int),
        object_hook: none(object_hook),
        object_pairs_hook: none(object_pairs_hook),
    };
    let _paused = args::GcPause::new(py)?;
    from_toon::Builder::new(py, hooks).build(&text, &options, |e| decode_error(e, s))
}

/// What `decode` reads.
enum Input<'a, 'py> {
    Str(&'a Bound<'py, PyString>),
    Bytes(&'a Bound<'py, PyBytes>),
    ByteArray(&'a Bound<'py, PyByteArray>),
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
