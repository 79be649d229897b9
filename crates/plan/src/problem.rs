//! Validation problems, warnings and errors, each with a location.

use std::fmt;

use serde::ser::{Serialize, SerializeMap, Serializer};

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

/// A 1-based line and column (in characters) in a source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

/// How bad a problem is; serialised as `"error"` or `"warning"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The plan breaks a rule of its dialect.
    Error,
    /// Worth knowing, not a rule broken (for example a tolerant reading).
    Warning,
}

impl Severity {
    /// `error` or `warning`.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// One finding of validation or reading. It serialises as `{"severity", "rule",
/// "line" | "path", "column", "message"}`: a problem about the whole document has
/// neither `line` nor `path`; `column` is there when the position is known (a problem
/// located by path then has `line` too).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Error or warning.
    pub severity: Severity,
    /// Short rule name, e.g. `acyclic`, `unique-ids`.
    pub rule: &'static str,
    /// Where it is.
    pub location: Location,
    /// For a problem located by path: the line and column of that path in the source
    /// text, when the plan was read from text (see [`crate::validate`]); for one
    /// located by line: that line and the column in it, when known
    /// ([`Problem::with_column`]).
    pub position: Option<Position>,
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
            position: None,
            message: message.into(),
        }
    }

    /// A warning at a location.
    pub fn warning(rule: &'static str, location: Location, message: impl Into<String>) -> Self {
        Problem {
            severity: Severity::Warning,
            rule,
            location,
            position: None,
            message: message.into(),
        }
    }

    /// The problem with a 1-based `column` on its line, for a problem located by line
    /// (a syntax error in text); unchanged for one located by path or document.
    pub fn with_column(mut self, column: Option<usize>) -> Self {
        if let (Location::Line(line), Some(column)) = (&self.location, column) {
            self.position = Some(Position {
                line: *line,
                column,
            });
        }
        self
    }

    /// True for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// The location under its own key (`line` or `path`), none for the document.
fn serialize_location<M: SerializeMap>(map: &mut M, location: &Location) -> Result<(), M::Error> {
    match location {
        Location::Line(n) => map.serialize_entry("line", n),
        Location::Path(p) => map.serialize_entry("path", p),
        Location::Document => Ok(()),
    }
}

impl Serialize for Problem {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("severity", &self.severity)?;
        map.serialize_entry("rule", self.rule)?;
        serialize_location(&mut map, &self.location)?;
        match (&self.location, self.position) {
            // A line location with a position adds only its column.
            (Location::Line(_), Some(p)) => map.serialize_entry("column", &p.column)?,
            (_, Some(p)) => {
                map.serialize_entry("line", &p.line)?;
                map.serialize_entry("column", &p.column)?;
            }
            (_, None) => {}
        }
        map.serialize_entry("message", &self.message)?;
        map.end()
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = self.severity.name();
        match (&self.location, self.position) {
            (Location::Line(n), Some(p)) => write!(f, "line {n}, column {}", p.column)?,
            (location, Some(p)) => write!(f, "{location} (line {}, column {})", p.line, p.column)?,
            (location, None) => write!(f, "{location}")?,
        }
        write!(f, ": {sev}: {} [{}]", self.message, self.rule)
    }
}

/// What kind of failure a [`PlanError`] is; serialised in snake case (`syntax`,
/// `unknown_dialect`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// The text is not valid in its format (JSON, YAML, TOON).
    Syntax,
    /// The text is valid in its format but not in the shape its dialect needs (a
    /// PlanDAG that is not an object).
    Shape,
    /// The document holds no plan at all.
    Empty,
    /// The document's dialect cannot be told from its content or file name.
    UnknownDialect,
    /// The dialect has no form in the format asked for (markdown is for Cursor and
    /// workflow plans only).
    Unsupported,
    /// A [`crate::Setting`] that cannot apply: an unknown field, a value the target
    /// does not know, a task the plan does not have.
    Setting,
    /// The file cannot be read, or its bytes are not UTF-8.
    Unreadable,
    /// The plan has no schedule (duplicate ids, a dependency cycle).
    Unschedulable,
    /// The output cannot go where asked: a folder that is a file, a target that would
    /// write over a source, two sources written to one file.
    Output,
}

/// A failure to read or write a plan at all (syntax errors, unknown dialect, …). It
/// serialises as `{"kind", "line" | "path", "column", "message"}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanError {
    /// What kind of failure it is.
    pub kind: ErrorKind,
    /// Where, when known.
    pub location: Location,
    /// The 1-based column on the location's line, when the parser gives one (shown
    /// with the line: `line 3, column 7: …`).
    pub column: Option<usize>,
    /// What went wrong.
    pub message: String,
}

impl PlanError {
    /// An error of a kind about the whole document.
    ///
    /// ```
    /// use toon_plan::{ErrorKind, Location, PlanError};
    /// let e = PlanError::new(ErrorKind::Shape, "a PlanDAG is a JSON object").at(Location::Line(2));
    /// assert_eq!(e.to_string(), "line 2: a PlanDAG is a JSON object");
    /// ```
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        PlanError {
            kind,
            location: Location::Document,
            column: None,
            message: message.into(),
        }
    }

    /// This error at a location.
    pub fn at(mut self, location: Location) -> Self {
        self.location = location;
        self
    }

    /// This error with a 1-based column.
    pub fn with_column(mut self, column: Option<usize>) -> Self {
        self.column = column;
        self
    }
}

impl Serialize for PlanError {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("kind", &self.kind)?;
        serialize_location(&mut map, &self.location)?;
        if let Some(c) = self.column {
            map.serialize_entry("column", &c)?;
        }
        map.serialize_entry("message", &self.message)?;
        map.end()
    }
}

/// `location: message`, the column with the line (`line 3, column 7: …`) when known.
impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.location, self.column) {
            (Location::Document, _) => f.write_str(&self.message),
            (Location::Line(n), Some(c)) => write!(f, "line {n}, column {c}: {}", self.message),
            (loc, _) => write!(f, "{loc}: {}", self.message),
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

    #[test]
    fn a_line_problem_with_a_column_says_both_once() {
        let p = Problem::error("syntax", Location::Line(5), "bad").with_column(Some(12));
        assert_eq!(p.to_string(), "line 5, column 12: error: bad [syntax]");
        let json = serde_json::to_string(&p).unwrap();
        assert_eq!(
            json,
            r#"{"severity":"error","rule":"syntax","line":5,"column":12,"message":"bad"}"#
        );
        // A path or document problem keeps no column it cannot place.
        let doc = Problem::error("x", Location::Document, "m").with_column(Some(3));
        assert_eq!(doc.position, None);
    }
}
