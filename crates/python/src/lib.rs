//! Python bindings for toonkit: the TOON codec (`encode`/`decode`) and exact
//! o200k_base token counts (`count_tokens`, `stats`).
//!
//! Python objects are converted to and from [`toon::Value`]; the encoder and
//! decoder are those of the `toon` crate, so output is the same as the CLI's.

use pyo3::create_exception;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple,
};
use std::sync::OnceLock;
use toon::{DecodeOptions, Delimiter, EncodeOptions, Map, Number, Value};
use toon_tokens::{Bpe, Tokenizer};

mod plan;

create_exception!(
    _toonkit,
    ToonDecodeError,
    PyValueError,
    "Malformed TOON text; `line` and `column` are 1-based (None when unknown)."
);

/// Converts a Python object to a TOON value, calling `default` on objects with
/// no JSON form. `depth` guards against self-referencing containers.
fn to_value(
    obj: &Bound<'_, PyAny>,
    default: Option<&Bound<'_, PyAny>>,
    sort_keys: bool,
    depth: usize,
) -> PyResult<Value> {
    if depth > toon::DEFAULT_MAX_DEPTH {
        return Err(PyValueError::new_err(
            "value nested too deeply (or contains a circular reference)",
        ));
    }
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Value::String(s.to_cow()?.into_owned()));
    }
    if obj.is_instance_of::<PyInt>() {
        if let Ok(i) = obj.extract::<i64>() {
            return Ok(Value::from(i));
        }
        if let Ok(u) = obj.extract::<u64>() {
            return Ok(Value::from(u));
        }
        let digits = obj.str()?.to_cow()?.into_owned();
        return Number::from_integer_str(&digits)
            .map(Value::Number)
            .ok_or_else(|| PyValueError::new_err(format!("cannot encode integer {digits}")));
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        // NaN and infinities have no JSON form: null, as the reference does.
        return Ok(Number::from_f64(f.value()).map_or(Value::Null, Value::Number));
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        let mut map = Map::with_capacity(d.len());
        let mut items: Vec<(String, Bound<'_, PyAny>)> = Vec::with_capacity(d.len());
        for (k, v) in d.iter() {
            items.push((key_string(&k)?, v));
        }
        if sort_keys {
            items.sort_by(|a, b| a.0.cmp(&b.0));
        }
        for (k, v) in items {
            let v = to_value(&v, default, sort_keys, depth + 1)?;
            map.insert(k, v);
        }
        return Ok(Value::Object(map));
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let mut out = Vec::new();
        for item in obj.try_iter()? {
            out.push(to_value(&item?, default, sort_keys, depth + 1)?);
        }
        return Ok(Value::Array(out));
    }
    match default {
        Some(f) => {
            let replaced = f.call1((obj,))?;
            to_value(&replaced, default, sort_keys, depth + 1)
        }
        None => Err(PyTypeError::new_err(format!(
            "Object of type {} is not TOON serializable",
            obj.get_type().name()?
        ))),
    }
}

/// A dict key as TOON writes it: strings as they are, and like `json.dumps`,
/// ints, floats, bools and None by their JSON spelling.
fn key_string(k: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = k.cast::<PyString>() {
        return Ok(s.to_cow()?.into_owned());
    }
    if k.is_none() {
        return Ok("null".into());
    }
    if let Ok(b) = k.cast::<PyBool>() {
        return Ok(if b.is_true() { "true" } else { "false" }.into());
    }
    if k.is_instance_of::<PyInt>() || k.is_instance_of::<PyFloat>() {
        let v = to_value(k, None, false, 0)?;
        if let Value::Number(n) = v {
            let mut s = String::new();
            n.write_canonical(&mut s);
            return Ok(s);
        }
        return Ok("null".into());
    }
    Err(PyTypeError::new_err(format!(
        "keys must be str, int, float, bool or None, not {}",
        k.get_type().name()?
    )))
}

/// Hooks of `decode`, as in `json.loads`.
struct Hooks<'py> {
    parse_float: Option<Bound<'py, PyAny>>,
    parse_int: Option<Bound<'py, PyAny>>,
    object_hook: Option<Bound<'py, PyAny>>,
    object_pairs_hook: Option<Bound<'py, PyAny>>,
}

/// Converts a decoded TOON value to Python objects.
fn to_py<'py>(py: Python<'py>, value: Value, hooks: &Hooks<'py>) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, b).to_owned().into_any(),
        Value::String(s) => PyString::new(py, &s).into_any(),
        Value::Number(n) => number_to_py(py, &n, hooks)?,
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py(py, item, hooks)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            if let Some(hook) = &hooks.object_pairs_hook {
                let pairs = PyList::empty(py);
                for (k, v) in map {
                    pairs.append((k, to_py(py, v, hooks)?))?;
                }
                return hook.call1((pairs,));
            }
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, to_py(py, v, hooks)?)?;
            }
            match &hooks.object_hook {
                Some(hook) => hook.call1((dict,))?,
                None => dict.into_any(),
            }
        }
    })
}

fn number_to_py<'py>(
    py: Python<'py>,
    n: &Number,
    hooks: &Hooks<'py>,
) -> PyResult<Bound<'py, PyAny>> {
    if n.is_integer() {
        let mut digits = String::new();
        n.write_canonical(&mut digits);
        if let Some(f) = &hooks.parse_int {
            return f.call1((digits,));
        }
        if let Some(i) = n.as_i64() {
            return Ok(i.into_pyobject(py)?.into_any());
        }
        if let Some(u) = n.as_u64() {
            return Ok(u.into_pyobject(py)?.into_any());
        }
        return py.get_type::<PyInt>().call1((digits,));
    }
    if let Some(f) = &hooks.parse_float {
        let mut text = String::new();
        n.write_canonical(&mut text);
        return f.call1((text,));
    }
    Ok(PyFloat::new(py, n.as_f64()).into_any())
}

/// A `ToonDecodeError` with `line`, `column`, `msg` and, as the official package
/// gives it, `source`: the text of the offending line of `input` (None when the
/// error has no line).
fn decode_error(e: toon::Error, input: &Bound<'_, PyAny>) -> PyErr {
    let err = ToonDecodeError::new_err(e.to_string());
    let v = err.value(input.py());
    let _ = v.setattr("line", e.line());
    let _ = v.setattr("column", e.column());
    let _ = v.setattr("msg", e.message());
    let _ = v.setattr("source", source_line(input, e.line()));
    err
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
    let mut options = EncodeOptions::default().with_indent_size(indent_size);
    if let Some(d) = delimiter {
        options = options.with_delimiter(delimiter_of(d)?);
    }
    let value = to_value(obj, default.filter(|d| !d.is_none()), sort_keys, 0)?;
    toon::encode_value_with(&value, &options).map_err(|e| PyValueError::new_err(e.to_string()))
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
    let value = if let Ok(text) = s.cast::<PyString>() {
        toon::decode_value_with(&text.to_cow()?, &options)
    } else if let Ok(b) = s.cast::<PyBytes>() {
        toon::decode_slice_with(b.as_bytes(), &options)
    } else if let Ok(b) = s.cast::<PyByteArray>() {
        let bytes = b.to_vec();
        toon::decode_slice_with(&bytes, &options)
    } else {
        return Err(PyTypeError::new_err(format!(
            "the TOON object must be str, bytes or bytearray, not {}",
            s.get_type().name()?
        )));
    }
    .map_err(|e| decode_error(e, s))?;
    let none = |h: Option<Bound<'py, PyAny>>| h.filter(|h| !h.is_none());
    let hooks = Hooks {
        parse_float: none(parse_float),
        parse_int: none(parse_int),
        object_hook: none(object_hook),
        object_pairs_hook: none(object_pairs_hook),
    };
    to_py(py, value, &hooks)
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
    let value = to_value(value, None, false, 0)?;
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
    m.add("ToonDecodeError", m.py().get_type::<ToonDecodeError>())?;
    plan::register(m)?;
    Ok(())
}
