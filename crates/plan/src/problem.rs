//! Validation problems, warnings and errors, each with a location.

use std::fmt;

/// Where a problem is: a line for text formats (markdown), a path such as
/// `steps[3].depends_on[0]` for JSON, YAML and TOON trees.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// 1-based line in the source text.
    Line(usize),
    /// Path into the document tree.
    Path(String),
    /// The document as a whole.
    Document,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Line(n) => write!(f, "line {n}"),
            Location::Path(p) if p.is_empty() => f.write_str("(root)"),
            Location::Path(p) => f.write_str(p),
            Location::Document => f.write_str("(document)"),
        }
    }
}

/// How bad a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The plan breaks a rule of its dialect.
    Error,
    /// Worth knowing, not a rule broken (for example a tolerant reading).
    Warning,
}

/// One finding of validation or reading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Error or warning.
    pub severity: Severity,
    /// Short rule name, e.g. `acyclic`, `unique-ids`.
    pub rule: &'static str,
    /// Where it is.
    pub location: Location,
    /// What is wrong, in words.
    pub message: String,
}

impl Problem {
    /// An error at a location.
    pub fn error(rule: &'static str, location: Location, message: impl Into<String>) -> Self {
        Problem {
            severity: Severity::Error,
            rule,
            location,
            message: message.into(),
        }
    }

    /// A warning at a location.
    pub fn warning(rule: &'static str, location: Location, message: impl Into<String>) -> Self {
        Problem {
            severity: Severity::Warning,
            rule,
            location,
            message: message.into(),
        }
    }

    /// True for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(
            f,
            "{}: {sev}: {} [{}]",
            self.location, self.message, self.rule
        )
    }
}

/// A failure to read or write a plan at all (syntax errors, unknown dialect, …).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanError {
    /// Where, when known.
    pub location: Location,
    /// The 1-based column on the location's line, when the parser gives one (it is
    /// also in the message).
    pub column: Option<usize>,
    /// What went wrong.
    pub message: String,
}

impl PlanError {
    /// A new error.
    pub fn new(location: Location, message: impl Into<String>) -> Self {
        PlanError {
            location,
            column: None,
            message: message.into(),
        }
    }

    /// This error with a 1-based column.
    pub fn with_column(mut self, column: Option<usize>) -> Self {
        self.column = column;
        self
    }

    /// An error about the whole document.
    pub fn doc(message: impl Into<String>) -> Self {
        Self::new(Location::Document, message)
    }
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.location {
            Location::Document => f.write_str(&self.message),
            ref loc => write!(f, "{loc}: {}", self.message),
        }
    }
}

impl std::error::Error for PlanError {}

/// Builds paths like `steps[3].depends_on[0]`.
#[derive(Clone, Debug, Default)]
pub struct PathBuf(String);

impl PathBuf {
    /// The root path.
    pub fn root() -> Self {
        PathBuf(String::new())
    }

    /// This path plus an object key.
    pub fn key(&self, key: &str) -> Self {
        let simple = !key.is_empty()
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        let mut s = self.0.clone();
        if simple {
            if !s.is_empty() {
                s.push('.');
            }
            s.push_str(key);
        } else {
            s.push('[');
            s.push_str(&serde_json::Value::from(key).to_string());
            s.push(']');
        }
        PathBuf(s)
    }

    /// This path plus an array index.
    pub fn index(&self, i: usize) -> Self {
        PathBuf(format!("{}[{i}]", self.0))
    }

    /// As a location.
    pub fn loc(&self) -> Location {
        Location::Path(self.0.clone())
    }

    /// The path text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_read_like_javascript() {
        let p = PathBuf::root()
            .key("steps")
            .index(3)
            .key("depends_on")
            .index(0);
        assert_eq!(p.as_str(), "steps[3].depends_on[0]");
        assert_eq!(PathBuf::root().key("a b").as_str(), "[\"a b\"]");
        let e = Problem::error("acyclic", p.loc(), "cycle");
        assert_eq!(
            e.to_string(),
            "steps[3].depends_on[0]: error: cycle [acyclic]"
        );
    }
}
