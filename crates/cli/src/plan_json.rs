//! The machine-readable form of plan problems and loss reports (`--json` of `toon plan
//! validate|convert|show`): stable keys a planner or CI can read.

use serde_json::{Value, json};
use toon_plan::{Change, Location, Loss, Problem, Severity};

/// `{"severity", "rule", "line" | "path", "message"}`.
pub fn problem(p: &Problem) -> Value {
    let mut v = json!({
        "severity": match p.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        },
        "rule": p.rule,
        "message": p.message,
    });
    location(&p.location, &mut v);
    v
}

/// Problems as a JSON array.
pub fn problems(ps: &[Problem]) -> Value {
    Value::Array(ps.iter().map(problem).collect())
}

fn location(l: &Location, v: &mut Value) {
    match l {
        Location::Line(n) => v["line"] = json!(n),
        Location::Path(p) => v["path"] = json!(p),
        Location::Document => {}
    }
}

/// `{"owner", "field", "change", "before", "after", "rule"}`; `change` is one of
/// `dropped`, `changed`, `added`, `derived`, `defaulted`, `set`.
pub fn loss(l: &Loss) -> Value {
    json!({
        "owner": l.owner,
        "field": l.field,
        "change": match l.change {
            Change::Dropped => "dropped",
            Change::Changed => "changed",
            Change::Added => "added",
            Change::Derived => "derived",
            Change::Defaulted => "defaulted",
            Change::Set => "set",
        },
        "before": l.before,
        "after": l.after,
        "rule": l.rule,
    })
}

/// Prints a JSON value, pretty, on stdout.
pub fn print(v: &Value) -> std::io::Result<()> {
    let mut text = serde_json::to_string_pretty(v).unwrap_or_default();
    text.push('\n');
    crate::output::emit(None, text.as_bytes())
}
