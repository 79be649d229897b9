//! The machine-readable form of problems and loss reports: the stable keys of `toon plan
//! validate|convert|show --json`, which the Python package gives too.

use serde_json::{Value, json};

use crate::loss::{Change, Loss};
use crate::problem::{Location, Problem, Severity};

/// `{"severity", "rule", "line" | "path", "message"}`; a problem about the whole
/// document has neither `line` nor `path`.
pub fn problem(p: &Problem) -> Value {
    let mut v = json!({
        "severity": severity_name(p.severity),
        "rule": p.rule,
        "message": p.message,
    });
    match &p.location {
        Location::Line(n) => v["line"] = json!(n),
        Location::Path(path) => v["path"] = json!(path),
        Location::Document => {}
    }
    v
}

/// Problems as a JSON array.
pub fn problems(ps: &[Problem]) -> Value {
    Value::Array(ps.iter().map(problem).collect())
}

/// `error` or `warning`.
pub fn severity_name(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// `{"owner", "field", "change", "before", "after", "rule"}`; `change` is one of
/// `dropped`, `changed`, `added`, `derived`, `defaulted`, `set`.
pub fn loss(l: &Loss) -> Value {
    json!({
        "owner": l.owner,
        "field": l.field,
        "change": change_name(l.change),
        "before": l.before,
        "after": l.after,
        "rule": l.rule,
    })
}

/// Losses as a JSON array.
pub fn losses(ls: &[Loss]) -> Value {
    Value::Array(ls.iter().map(loss).collect())
}

/// The name of a change in JSON: `dropped`, `changed`, `added`, `derived`,
/// `defaulted` or `set`.
pub fn change_name(c: Change) -> &'static str {
    match c {
        Change::Dropped => "dropped",
        Change::Changed => "changed",
        Change::Added => "added",
        Change::Derived => "derived",
        Change::Defaulted => "defaulted",
        Change::Set => "set",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_carry_their_location_under_its_own_key() {
        let at_line = problem(&Problem::error("acyclic", Location::Line(3), "cycle"));
        assert_eq!(
            at_line,
            json!({"severity": "error", "rule": "acyclic", "message": "cycle", "line": 3})
        );
        let at_path = problem(&Problem::warning("x", Location::Path("a[0]".into()), "m"));
        assert_eq!(at_path["path"], "a[0]");
        assert_eq!(at_path["severity"], "warning");
        assert!(at_path.get("line").is_none());
        let whole = problem(&Problem::error("x", Location::Document, "m"));
        assert!(whole.get("line").is_none() && whole.get("path").is_none());
    }
}
