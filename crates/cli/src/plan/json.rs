//! Printing the machine-readable form of plan results (`--json` of `toon plan
//! validate|convert|show`): the library's reports and problems, serialised.

use serde::Serialize;
use serde_json::Value;

/// A report or problem list as JSON: its serde form.
pub fn value(v: &impl Serialize) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// Prints a JSON value, pretty, on stdout.
pub fn print(v: &Value) -> std::io::Result<()> {
    let mut text = serde_json::to_string_pretty(v).unwrap_or_default();
    text.push('\n');
    crate::output::emit(None, text.as_bytes())
}
