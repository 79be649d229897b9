//! The plan half of the bindings: the calls `toonkit.plan` (`python/toonkit/plan.py`)
//! is built on. Each is one `toon_plan` call, the same the `toon plan` commands make;
//! results cross as JSON text in the shapes of the CLI's `--json` (`toon_plan::json`,
//! the serde forms of the schedule, the events and the plan model).

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use toon_plan::exec::{self, DryRunOptions, Outcome};
use toon_plan::{DialectId, Format, Loaded, Location, Setting};

create_exception!(
    _toonkit,
    PlanError,
    PyValueError,
    "A plan that cannot be read or written: `line` and `column` are 1-based (None when \
     unknown), `path` is the place in the document tree when that is what the error \
     names, `file` the file it was read from (None for text)."
);

/// A `PlanError` carrying the library error's location.
fn plan_error(py: Python<'_>, e: &toon_plan::PlanError) -> PyErr {
    let err = PlanError::new_err(e.to_string());
    let v = err.value(py);
    let (line, path) = match &e.location {
        Location::Line(n) => (Some(*n), None),
        Location::Path(p) => (None, Some(p.clone())),
        Location::Document => (None, None),
    };
    let _ = v.setattr("line", line);
    let _ = v.setattr("column", e.column);
    let _ = v.setattr("path", path);
    let _ = v.setattr("msg", e.message.clone());
    let _ = v.setattr("file", None::<String>);
    err
}

fn dialect_arg(name: &str) -> PyResult<DialectId> {
    name.parse().map_err(PyValueError::new_err)
}

fn format_arg(name: Option<&str>) -> PyResult<Option<Format>> {
    name.map(|n| n.parse().map_err(PyValueError::new_err))
        .transpose()
}

fn to_json(v: &impl serde::Serialize) -> PyResult<String> {
    serde_json::to_string(v).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A plan as loaded: its dialect, format, document and model.
#[pyclass(module = "toonkit._toonkit", frozen)]
pub struct LoadedPlan {
    loaded: Loaded,
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

    /// `toon_plan::validate` as the JSON array of `toon plan validate --json`.
    fn problems_json(&self) -> PyResult<String> {
        to_json(&toon_plan::json::problems(&toon_plan::validate(
            &self.loaded,
        )))
    }

    /// The plan model as JSON.
    fn plan_json(&self) -> PyResult<String> {
        to_json(&self.loaded.plan)
    }

    /// `toon plan schedule --json`.
    fn schedule_json(&self, py: Python<'_>) -> PyResult<String> {
        let s = exec::schedule(&self.loaded.plan).map_err(|e| {
            plan_error(
                py,
                &toon_plan::PlanError::doc(format!("cannot schedule: {e}")),
            )
        })?;
        to_json(&s)
    }

    /// `toon plan schedule --events`: the dry run's events as a JSON array.
    fn events_json(
        &self,
        py: Python<'_>,
        cap: i64,
        fail: Vec<String>,
        tool_caps: BTreeMap<String, i64>,
    ) -> PyResult<String> {
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
                let why = format!("{id} failed (--fail)");
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
            .map_err(|e| plan_error(py, &toon_plan::PlanError::doc(e.to_string())))?;
        to_json(&run.events)
    }

    /// `toon_plan::forms::convert_maybe_lean`: the text, its
    /// format, the losses and target problems as JSON, and the fields `sets` could
    /// fill to clear the target's errors.
    fn convert(
        &self,
        py: Python<'_>,
        to: &str,
        format: Option<&str>,
        sets: Vec<String>,
        lean: bool,
    ) -> PyResult<(String, &'static str, String, String, Vec<&'static str>)> {
        let to = dialect_arg(to)?;
        let format = format_arg(format)?;
        let sets: Vec<Setting> = sets
            .iter()
            .map(|s| s.parse().map_err(PyValueError::new_err))
            .collect::<PyResult<_>>()?;
        let conv = toon_plan::forms::convert_maybe_lean(
            &self.loaded.plan,
            self.loaded.dialect,
            to,
            format,
            &sets,
            lean,
        )
        .map_err(|e| plan_error(py, &e))?;
        let settable = conv.settable_fields();
        Ok((
            conv.text,
            conv.format.name(),
            to_json(&toon_plan::json::losses(&conv.report.losses))?,
            to_json(&toon_plan::json::problems(&conv.problems))?,
            settable,
        ))
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

/// `toon_plan::load`: the format from `format`, else `path`'s extension, else the
/// text; the dialect from `dialect`, else the content, else `path`'s name.
#[pyfunction]
#[pyo3(signature = (text, path=None, dialect=None, format=None))]
fn plan_load(
    py: Python<'_>,
    text: &str,
    path: Option<PathBuf>,
    dialect: Option<&str>,
    format: Option<&str>,
) -> PyResult<LoadedPlan> {
    let dialect = dialect.map(dialect_arg).transpose()?;
    let format = format_arg(format)?;
    let loaded = py
        .detach(|| toon_plan::load(text, path.as_deref(), dialect, format))
        .map_err(|e| plan_error(py, &e))?;
    Ok(LoadedPlan { loaded })
}

/// `toon plan schema DIALECT`: the dialect's JSON Schema as text.
#[pyfunction]
fn plan_schema(dialect: &str) -> PyResult<String> {
    Ok(exec::schema::schema_text(dialect_arg(dialect)?))
}

/// The dialect names, in the CLI's order.
#[pyfunction]
fn plan_dialects() -> Vec<&'static str> {
    DialectId::all().map(|d| d.name()).collect()
}

/// Adds the plan calls and `PlanError` to the extension module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<LoadedPlan>()?;
    m.add_function(wrap_pyfunction!(plan_load, m)?)?;
    m.add_function(wrap_pyfunction!(plan_schema, m)?)?;
    m.add_function(wrap_pyfunction!(plan_dialects, m)?)?;
    m.add("PlanError", m.py().get_type::<PlanError>())?;
    Ok(())
}
