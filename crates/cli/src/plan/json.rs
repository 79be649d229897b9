//! Printing the machine-readable form of plan results (`--json` of `toon plan
//! validate|convert|show`); the shapes themselves are [`toon_plan::json`]'s.

use serde_json::Value;

pub use toon_plan::json::{loss, problems};

/// Prints a JSON value, pretty, on stdout.
pub fn print(v: &Value) -> std::io::Result<()> {
    let mut text = serde_json::to_string_pretty(v).unwrap_or_default();
    text.push('\n');
    crate::output::emit(None, text.as_bytes())
}
