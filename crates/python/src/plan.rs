//! The plan half of the bindings: the calls `toonkit.plan` (`python/toonkit/plan.py`)
//! is built on. Each is one `toon_plan` call; its report, problems, schedule and
//! events come back as Python objects built from their serde form (the same form the
//! `toon plan` commands print with `--json`), with no JSON text in between.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyString};
use serde_json::Value;
use toon_plan::exec::{self, DryRunOptions, ExecError, Outcome};
use toon_plan::{
    ConvertOptions, DialectId, ErrorKind, Format, GraphFormat, Loaded, Location, Plan, ReadOptions,
    Setting,
};
use toon_tokens::Tokenizer;

create_exception!(
    _toonkit,
    PlanError,
    PyValueError,
    "A plan that cannot be read or written: `kind` says why (`syntax`, `shape`, \
     `empty`, `unknown_dialect`, `unsupported`, `setting`, `unreadable`, \
     `unschedulable`); `line` and `column` are 1-based (None when unknown), `path` is \
     the place in the document tree when that is what the error names, `file` the file \
     it was read from (None for text)."
);

/// A `PlanError` carrying the library error's kind and location.
fn plan_error(py: Python<'_>, e: &toon_plan::PlanError) -> PyErr {
    let err = PlanError::new_err(e.to_string());
    let v = err.value(py);
    let (line, path) = match &e.location {
        Location::Line(n) => (Some(*n), None),
        Location::Path(p) => (None, Some(p.clone())),
        Location::Document => (None, None),
    };
    let kind = serde_json::to_value(e.kind)
        .ok()
        .and_then(|k| k.as_str().map(str::to_owned));
    let _ = v.setattr("kind", kind);
    let _ = v.setattr("line", line);
    let _ = v.setattr("column", e.column);
    let _ = v.setattr("path", path);
    let _ = v.setattr("msg", e.message.clone());
    let _ = v.setattr("file", None::<String>);
    err
}

/// A plan with no schedule (or a dry run asked for the impossible) as a `PlanError` of
/// kind `unschedulable`, its message after `what`, located at the model field at fault
/// (`tasks[3].id` for the second task of a repeated id).
fn exec_error(py: Python<'_>, what: &str, plan: &Plan, e: &ExecError) -> PyErr {
    let index_of = |id: &str, nth: usize| {
        plan.tasks
            .iter()
            .enumerate()
            .filter(|(_, t)| t.id == id)
            .nth(nth)
            .map(|(i, _)| i)
    };
    let path = match e {
        ExecError::EmptyId { index } => Some(format!("tasks[{index}].id")),
        ExecError::DuplicateId { id } => index_of(id, 1).map(|i| format!("tasks[{i}].id")),
        ExecError::UnknownDependency { task, dependency } => index_of(task, 0).map(|i| {
            let j = plan.tasks[i]
                .dependencies
                .iter()
                .flatten()
                .position(|d| d == dependency)
                .unwrap_or(0);
            format!("tasks[{i}].dependencies[{j}]")
        }),
        _ => None,
    };
    let mut err = toon_plan::PlanError::new(ErrorKind::Unschedulable, format!("{what}{e}"));
    if let Some(p) = path {
        err = err.at(Location::Path(p));
    }
    plan_error(py, &err)
}

fn dialect_arg(name: &str) -> PyResult<DialectId> {
    name.parse().map_err(PyValueError::new_err)
}

fn format_arg(name: Option<&str>) -> PyResult<Option<Format>> {
    name.map(|n| n.parse().map_err(PyValueError::new_err))
        .transpose()
}

/// A serde value as the Python object `json.loads` would give for its JSON.
fn py_value<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(a) => {
            let list = PyList::empty(py);
            for x in a {
                list.append(py_value(py, x)?)?;
            }
            list.into_any()
        }
        Value::Object(o) => {
            let dict = PyDict::new(py);
            for (k, x) in o {
                dict.set_item(k, py_value(py, x)?)?;
            }
            dict.into_any()
        }
    })
}

/// A serialisable library object as Python objects.
fn to_py<'py>(py: Python<'py>, v: &impl serde::Serialize) -> PyResult<Bound<'py, PyAny>> {
    let value = serde_json::to_value(v).map_err(|e| PyValueError::new_err(e.to_string()))?;
    py_value(py, &value)
}

/// A plan as read: its dialect, format, document and model, and the source text.
#[pyclass(module = "toonkit._toonkit", frozen)]
pub struct LoadedPlan {
    loaded: Loaded,
    text: String,
}

#[pymethods]
impl LoadedPlan {
    /// The dialect's name (`cursor`, `plandag`, …).
    #[getter]
    fn dialect(&self) -> &'static str {
        self.loaded.dialect.name()
    }

    /// The format's name (`json`, `yaml`, `toon`, `md`).
    #[getter]
    fn format(&self) -> &'static str {
        self.loaded.format.name()
    }

    /// `toon_plan::validate`: a list of problem dicts.
    fn problems<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &toon_plan::validate(&self.loaded))
    }

    /// The plan model as a dict.
    fn model<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.loaded.plan)
    }

    /// The plan in its own dialect's JSON form, as a dict or list: the fields named
    /// as the dialect names them.
    fn document<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let options = ConvertOptions {
            format: Some(Format::Json),
            ..ConvertOptions::default()
        };
        let conv = toon_plan::convert(&self.loaded.plan, self.loaded.dialect, &options)
            .map_err(|e| plan_error(py, &e))?;
        let value: Value =
            serde_json::from_str(&conv.text).map_err(|e| PyValueError::new_err(e.to_string()))?;
        py_value(py, &value)
    }

    /// `toon_plan::schedule` as a dict; a plan without one raises `PlanError`.
    fn schedule<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let s = exec::schedule(&self.loaded.plan)
            .map_err(|e| exec_error(py, "cannot schedule: ", &self.loaded.plan, &e))?;
        to_py(py, &s)
    }

    /// `toon_plan::graph`: the plan's graph drawn as `mermaid`, `dot` or `text`.
    fn graph(&self, py: Python<'_>, format: &str) -> PyResult<String> {
        let format: GraphFormat = format.parse().map_err(|e| plan_error(py, &e))?;
        toon_plan::graph(&self.loaded.plan, format)
            .map_err(|e| exec_error(py, "cannot schedule: ", &self.loaded.plan, &e))
    }

    /// `toon_plan::stats` with exact o200k_base token counts: a list of dicts.
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let bpe = crate::tokenizer()?;
        let count = |s: &str| bpe.count(s);
        let forms = py
            .detach(|| toon_plan::stats(&self.loaded, &self.text, &count))
            .map_err(|e| plan_error(py, &e))?;
        to_py(py, &forms)
    }

    /// A dry run's events as a list of dicts.
    fn events<'py>(
        &self,
        py: Python<'py>,
        cap: i64,
        fail: Vec<String>,
        tool_caps: BTreeMap<String, i64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        // A negative cap is a cap below 1: the dry run refuses it as it refuses 0.
        let at_least_0 = |n: i64| usize::try_from(n).unwrap_or(0);
        let cap = at_least_0(cap);
        let tool_caps: BTreeMap<String, usize> = tool_caps
            .into_iter()
            .map(|(tool, n)| (tool, at_least_0(n)))
            .collect();
        let outcomes: HashMap<String, Outcome> = fail
            .into_iter()
            .map(|id| {
                let why = format!("{id} failed (asked to fail)");
                (id, Outcome::Fail(why))
            })
            .collect();
        let opts = DryRunOptions {
            cap,
            tool_caps,
            outcomes,
            ..DryRunOptions::default()
        };
        let run = exec::dry_run(&self.loaded.plan, &opts)
            .map_err(|e| exec_error(py, "", &self.loaded.plan, &e))?;
        to_py(py, &run.events)
    }

    /// `toon_plan::convert`: the text and the report as a dict (`from`, `to`,
    /// `format`, `losses`, `target_problems`, `settable`). `sets` are
    /// `(task or None, field, value)`.
    fn convert<'py>(
        &self,
        py: Python<'py>,
        to: &str,
        format: Option<&str>,
        sets: Vec<(Option<String>, String, String)>,
        lean: bool,
    ) -> PyResult<(String, Bound<'py, PyAny>)> {
        let to = dialect_arg(to)?;
        let format = format_arg(format)?;
        let set = sets
            .into_iter()
            .map(|(task, field, value)| {
                let s = Setting::new(&field, value)?;
                Ok(match task {
                    Some(t) => s.for_task(t),
                    None => s,
                })
            })
            .collect::<Result<Vec<Setting>, toon_plan::PlanError>>()
            .map_err(|e| plan_error(py, &e))?;
        let options = ConvertOptions { format, set, lean };
        let conv = py
            .detach(|| toon_plan::convert(&self.loaded.plan, to, &options))
            .map_err(|e| plan_error(py, &e))?;
        Ok((conv.text, to_py(py, &conv.report)?))
    }

    fn __repr__(&self) -> String {
        format!(
            "<LoadedPlan {} {}, {} tasks>",
            self.loaded.dialect,
            self.loaded.format,
            self.loaded.plan.tasks.len()
        )
    }
}

/// `toon_plan::read`: the format from `format`, else `path`'s extension, else the
/// text; the dialect from `dialect`, else the content, else `path`'s name. With
/// `built`, `text` is the JSON of a document built in code, read as
/// `toon_plan::read_value` reads a value (problems by path only: the text is not the
/// caller's).
#[pyfunction]
#[pyo3(signature = (text, path=None, dialect=None, format=None, built=false))]
fn plan_load(
    py: Python<'_>,
    text: String,
    path: Option<PathBuf>,
    dialect: Option<&str>,
    format: Option<&str>,
    built: bool,
) -> PyResult<LoadedPlan> {
    let options = ReadOptions {
        dialect: dialect.map(dialect_arg).transpose()?,
        format: format_arg(format)?,
        file_name: path,
    };
    let loaded = py
        .detach(|| {
            if built {
                let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
                    toon_plan::PlanError::new(toon_plan::ErrorKind::Syntax, e.to_string())
                })?;
                toon_plan::read_value(&value, &options)
            } else {
                toon_plan::read(&text, &options)
            }
        })
        .map_err(|e| plan_error(py, &e))?;
    Ok(LoadedPlan { loaded, text })
}

/// `toon plan schema DIALECT`: the dialect's JSON Schema as text.
#[pyfunction]
fn plan_schema(dialect: &str) -> PyResult<String> {
    Ok(toon_plan::schema::schema_text(dialect_arg(dialect)?))
}

/// `toon_plan::folder::plan`: the files of a folder conversion as a dict (`dialect`,
/// `format`, `entries` of `source`, `target`, `foreign_dialect`).
#[pyfunction]
#[pyo3(signature = (source, target, to, format=None, dialect=None))]
fn plan_folder<'py>(
    py: Python<'py>,
    source: PathBuf,
    target: PathBuf,
    to: &str,
    format: Option<&str>,
    dialect: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let to = dialect_arg(to)?;
    let format = format_arg(format)?;
    let options = ReadOptions {
        dialect: dialect.map(dialect_arg).transpose()?,
        ..ReadOptions::default()
    };
    let work = py
        .detach(|| toon_plan::folder::plan(&source, &target, to, format, &options))
        .map_err(|e| plan_error(py, &e))?;
    let value = serde_json::to_value(&work).map_err(|e| PyValueError::new_err(e.to_string()))?;
    py_value(py, &value)
}

/// The dialect names, in the registry's order.
#[pyfunction]
fn plan_dialects() -> Vec<&'static str> {
    DialectId::all().map(|d| d.name()).collect()
}

/// Every name a setting takes for a field: the model's, then the dialects' own.
#[pyfunction]
fn plan_settable_names() -> Vec<&'static str> {
    toon_plan::conversion::derive::settable_names()
}

/// Adds the plan calls and `PlanError` to the extension module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<LoadedPlan>()?;
    m.add_function(wrap_pyfunction!(plan_load, m)?)?;
    m.add_function(wrap_pyfunction!(plan_schema, m)?)?;
    m.add_function(wrap_pyfunction!(plan_folder, m)?)?;
    m.add_function(wrap_pyfunction!(plan_dialects, m)?)?;
    m.add_function(wrap_pyfunction!(plan_settable_names, m)?)?;
    m.add("PlanError", m.py().get_type::<PlanError>())?;
    Ok(())
}
