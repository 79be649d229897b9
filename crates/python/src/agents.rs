//! What planners that have a model write plans call (`toonkit.plan.instructions`,
//! `toonkit.plan.read_model_output`): the two `toon_plan` calls, results as JSON text
//! of their serde forms.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use toon_plan::DialectId;

fn dialect(name: &str) -> PyResult<DialectId> {
    name.parse().map_err(PyValueError::new_err)
}

/// The prompt block of a dialect, as JSON: `dialect`, `text`, `example`.
#[pyfunction]
fn plan_instructions(name: &str) -> PyResult<String> {
    let ins = toon_plan::instructions(dialect(name)?)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    serde_json::to_string(&ins).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A model's answer read as a dialect, as JSON: `dialect`, `found`, `first_line`,
/// `text`, `plan`, `lines`, `valid`.
#[pyfunction]
fn plan_read_model_output(text: &str, name: &str) -> PyResult<String> {
    let answer = toon_plan::read_model_output(text, dialect(name)?);
    serde_json::to_string(&answer).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Adds the functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(plan_instructions, m)?)?;
    m.add_function(wrap_pyfunction!(plan_read_model_output, m)?)?;
    Ok(())
}
