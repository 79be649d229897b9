//! Syntaxes a plan can be written in, and turning text into a document and back.

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use serde_json::Value;

use crate::problem::{ErrorKind, Location, PlanError};
use crate::syntax::{tabular, yaml};

/// A syntax: `json`, `yaml`, `toon`, `md` or `prompt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// JSON, pretty-printed with two spaces.
    Json,
    /// YAML, block style.
    Yaml,
    /// TOON.
    Toon,
    /// Markdown (Cursor plans and the workflow markdown layout only).
    Md,
    /// The prompt form (the plan model only): a tree's fields but its text `body` as
    /// TOON between `---` lines, then the body as written. It costs fewer tokens than
    /// the markdown source of a Cursor plan, and reads back as the same plan.
    Prompt,
}

impl Format {
    /// All formats.
    pub const ALL: [Format; 5] = [
        Format::Json,
        Format::Yaml,
        Format::Toon,
        Format::Md,
        Format::Prompt,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Yaml => "yaml",
            Format::Toon => "toon",
            Format::Md => "md",
            Format::Prompt => "prompt",
        }
    }

    /// The usual file extension (`md` for the prompt form, which reads as markdown).
    pub fn extension(self) -> &'static str {
        match self {
            Format::Prompt => "md",
            other => other.name(),
        }
    }

    /// The format a file name suggests, if any.
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "json" => Some(Format::Json),
            "yaml" | "yml" => Some(Format::Yaml),
            "toon" => Some(Format::Toon),
            "md" | "markdown" | "mdc" => Some(Format::Md),
            _ => None,
        }
    }

    /// Guesses the format from the text alone.
    pub fn sniff(text: &str) -> Format {
        let t = text.trim_start_matches('\u{feff}').trim_start();
        if is_prompt_form(text) {
            return Format::Prompt;
        }
        if t.starts_with("---") || t.starts_with('#') || t.starts_with("<!--") || t.is_empty() {
            return Format::Md;
        }
        // An array header (`tasks[3]:`, `rows[2]{a,b}:`, `- deps[0]:`, `[2]: a,b`) is
        // TOON's own syntax: neither JSON nor YAML (which would read a key with brackets
        // in its name).
        if t.lines().any(has_toon_header) {
            return Format::Toon;
        }
        if t.starts_with('{') || t.starts_with('[') {
            return Format::Json;
        }
        if yaml::parse(text).is_ok_and(|v| v.is_object()) {
            return Format::Yaml;
        }
        // A GFM task list (`- [ ] step`) is a Cursor plan's body without front matter.
        if t.lines().any(is_task_item) {
            return Format::Md;
        }
        // A `- ` item with no TOON array header above it is a YAML list (that YAML did
        // not parse): its error is YAML's.
        if t.lines().any(|l| {
            let l = l.trim_start();
            l == "-" || l.starts_with("- ")
        }) {
            return Format::Yaml;
        }
        Format::Toon
    }

    /// The format of a file at `path` holding `text`: its extension's, unless the text
    /// is TOON (it has TOON's array headers and decodes as TOON) in a file named for
    /// another format (TOON in `plan.yaml`, `notes.md` or `x.json`); the content's
    /// ([`Format::sniff`]) when the extension names none.
    pub fn of_file(path: Option<&Path>, text: &str) -> Format {
        match path.and_then(Format::from_path) {
            Some(Format::Toon) => Format::Toon,
            Some(Format::Md) if is_prompt_form(text) => Format::Prompt,
            Some(named) => {
                let t = text.trim_start_matches('\u{feff}').trim_start();
                let toon = !t.starts_with(['{', '[', '#', '<'])
                    && !t.starts_with("---")
                    && t.lines().any(has_toon_header)
                    && Document::parse(text, Format::Toon).is_ok();
                if toon { Format::Toon } else { named }
            }
            None => Format::sniff(text),
        }
    }
}

/// The value of the `schema` key that marks a plan-model document, which the plan
/// model writes first: in the prompt form, the line after the opening `---`.
pub const PLAN_SCHEMA: &str = "toon-plan/1";

/// The line that opens the prompt form's TOON front matter after its `---`.
fn prompt_schema_line() -> String {
    format!("schema: {PLAN_SCHEMA}")
}

/// Whether a text is in the prompt form: `---`, then the plan model's `schema` line.
fn is_prompt_form(text: &str) -> bool {
    let t = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = t.lines();
    lines.next().is_some_and(|l| l.trim_end() == "---")
        && lines
            .next()
            .is_some_and(|l| l.trim_end() == prompt_schema_line())
}

/// Whether a line is a GFM task-list item: `- [ ] …`, `* [x] …`, `+ [X] …`.
fn is_task_item(line: &str) -> bool {
    let t = line.trim_start();
    let Some(rest) = t.strip_prefix(['-', '*', '+']) else {
        return false;
    };
    ["[ ] ", "[x] ", "[X] "]
        .iter()
        .any(|box_| rest.strip_prefix(' ').is_some_and(|r| r.starts_with(box_)))
}

/// Whether a line holds a TOON array header: an optional `- `, a key (plain or quoted)
/// or nothing, `[N]` with an optional `\t` or `|` delimiter after N, an optional field
/// list `{…}`, then `:`.
fn has_toon_header(line: &str) -> bool {
    let t = line.trim_start();
    let t = t.strip_prefix("- ").unwrap_or(t);
    let rest = match t.strip_prefix('"') {
        Some(quoted) => match quoted.split_once('"') {
            Some((_, after)) => after,
            None => return false,
        },
        None => t.trim_start_matches(|c: char| c.is_alphanumeric() || "_.-".contains(c)),
    };
    let Some(inner) = rest.strip_prefix('[') else {
        return false;
    };
    let digits = inner.len() - inner.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return false;
    }
    let after = inner[digits..].trim_start_matches(['\t', '|']);
    let Some(after) = after.strip_prefix(']') else {
        return false;
    };
    let after = match after.strip_prefix('{') {
        Some(fields) => match fields.split_once('}') {
            Some((_, tail)) => tail,
            None => return false,
        },
        None => after,
    };
    after.starts_with(':')
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "json" => Ok(Format::Json),
            "yaml" | "yml" => Ok(Format::Yaml),
            "toon" => Ok(Format::Toon),
            "md" | "markdown" => Ok(Format::Md),
            "prompt" => Ok(Format::Prompt),
            _ => Err(format!(
                "unknown format {s:?} (json, yaml, toon, md, prompt)"
            )),
        }
    }
}

/// A parsed source: a tree (from JSON, YAML or TOON) or markdown text.
#[derive(Clone, Debug, PartialEq)]
pub enum Document {
    /// JSON, YAML or TOON, as a JSON value.
    Tree(Value),
    /// Markdown text, as read.
    Markdown(String),
}

impl Document {
    /// Parses text in a format.
    pub fn parse(text: &str, format: Format) -> Result<Document, PlanError> {
        match format {
            Format::Md => Ok(Document::Markdown(text.to_owned())),
            // A byte-order mark before JSON text is not part of it (RFC 8259 §8.1 lets a
            // reader ignore one).
            Format::Json => {
                serde_json::from_str::<Value>(text.strip_prefix('\u{feff}').unwrap_or(text))
                    .map(Document::Tree)
                    .map_err(|e| {
                        // serde_json ends its message with the position, which the location
                        // and the column below already give; its column is 0 at the start of
                        // a line, ours 1-based.
                        let text = e.to_string();
                        let position = format!(" at line {} column {}", e.line(), e.column());
                        let message = text.strip_suffix(&position).unwrap_or(&text);
                        PlanError::new(ErrorKind::Syntax, format!("invalid JSON: {message}"))
                            .at(Location::Line(e.line()))
                            .with_column(Some(e.column().max(1)))
                    })
            }
            Format::Yaml => yaml::parse(text).map(Document::Tree),
            Format::Toon => match toon::decode_value(text) {
                Ok(v) => Ok(Document::from_toon(v)),
                Err(e) => Err(toon_error(&e)),
            },
            Format::Prompt => parse_prompt(text),
        }
    }

    /// The document a decoded TOON value stands for (a file in the older side-table
    /// layout of plan TOON is put back together first).
    pub fn from_toon(v: toon::Value) -> Document {
        Document::Tree(tabular::unflatten(Value::from(v)))
    }

    /// The tree, if this is one.
    pub fn tree(&self) -> Option<&Value> {
        match self {
            Document::Tree(v) => Some(v),
            Document::Markdown(_) => None,
        }
    }
}

/// Reads the prompt form: the TOON between the `---` lines is the tree, the text after
/// the closing `---` line its `body`. Errors name lines of the whole text.
fn parse_prompt(text: &str) -> Result<Document, PlanError> {
    let (front, body) = split_prompt(text)?;
    let tree = match toon::decode_value(front) {
        Ok(v) => Value::from(v),
        Err(e) => {
            let mut err = toon_error(&e);
            if let Location::Line(n) = err.location {
                err.location = Location::Line(n + 1);
            }
            return Err(err);
        }
    };
    let Value::Object(mut fields) = tree else {
        return Err(PlanError::new(
            ErrorKind::Shape,
            "the prompt form's front matter is an object (`key: value` lines)",
        )
        .at(Location::Line(2)));
    };
    if !body.is_empty() {
        fields.insert("body".into(), Value::String(body.to_owned()));
    }
    Ok(Document::Tree(Value::Object(fields)))
}

/// The prompt form's TOON front matter (from line 2) and its body (after the closing
/// `---` line).
pub(crate) fn split_prompt(text: &str) -> Result<(&str, &str), PlanError> {
    let t = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = t.split_inclusive('\n');
    let opening = lines.next().unwrap_or("");
    if opening.trim_end() != "---" {
        return Err(
            PlanError::new(ErrorKind::Syntax, "the prompt form opens with a `---` line")
                .at(Location::Line(1)),
        );
    }
    let mut front_len = 0;
    let mut closed = false;
    for line in lines {
        if line.trim_end() == "---" {
            closed = true;
            break;
        }
        front_len += line.len();
    }
    if !closed {
        return Err(PlanError::new(
            ErrorKind::Syntax,
            "the front matter that opens here has no closing `---` line",
        )
        .at(Location::Line(1)));
    }
    let front = &t[opening.len()..opening.len() + front_len];
    let rest = &t[opening.len() + front_len..];
    let body = rest.split_once('\n').map_or("", |(_, b)| b);
    Ok((front, body))
}

/// Writes a tree in the prompt form: its fields but `body` as TOON between `---` lines,
/// then the `body` text as it is.
pub fn write_prompt(tree: &Value) -> Result<String, PlanError> {
    let mut fields = tree
        .as_object()
        .cloned()
        .ok_or_else(|| PlanError::new(ErrorKind::Shape, "the prompt form holds an object"))?;
    // An empty body stays in the front matter (`body: ""`): after the `---` line it
    // would read as no body at all.
    let body = match fields.shift_remove("body") {
        Some(Value::String(b)) if !b.is_empty() => b,
        Some(other) => {
            fields.insert("body".into(), other);
            String::new()
        }
        None => String::new(),
    };
    let mut s = String::from("---\n");
    s.push_str(&toon::encode_value(&toon::Value::from(Value::Object(
        fields,
    ))));
    s.push_str("\n---\n");
    s.push_str(&body);
    Ok(s)
}

/// A TOON syntax error as `toon -d` shows it: the line and column as the location,
/// then the message and the source line with a caret under the column.
fn toon_error(e: &toon::Error) -> PlanError {
    let rendered = e.to_string();
    let caret = rendered.split_once('\n').map(|(_, c)| c).unwrap_or("");
    let mut message = format!("invalid TOON: {}", e.message());
    if !caret.is_empty() {
        message.push('\n');
        message.push_str(caret);
    }
    match e.line() {
        Some(line) => PlanError::new(ErrorKind::Syntax, message)
            .at(Location::Line(line))
            .with_column(e.column()),
        None => PlanError::new(ErrorKind::Syntax, message),
    }
}

/// Writes a tree in a tree format: JSON pretty with a final newline, YAML, or plain TOON
/// (`toon::encode_value` of the same tree, so any conformant decoder reads back exactly
/// the JSON form).
pub fn write_tree(value: &Value, format: Format) -> Result<String, PlanError> {
    match format {
        Format::Json => {
            let mut s = serde_json::to_string_pretty(value)
                .map_err(|e| PlanError::new(ErrorKind::Shape, format!("cannot write JSON: {e}")))?;
            s.push('\n');
            Ok(s)
        }
        Format::Yaml => Ok(yaml::to_string(value)),
        Format::Toon => {
            let mut s = toon::encode_value(&toon::Value::from(value.clone()));
            s.push('\n');
            Ok(s)
        }
        Format::Md => Err(PlanError::new(
            ErrorKind::Unsupported,
            "this dialect has no markdown form (use json, yaml or toon)",
        )),
        Format::Prompt => write_prompt(value),
    }
}

#[cfg(test)]
mod json_error_tests {
    use super::*;

    #[test]
    fn toon_is_recognised_by_its_array_headers() {
        let workflow = "metadata:\n  title: T\ntasks[1]:\n  - id: a\n    steps[0]:\nsteps[0]:";
        assert_eq!(Format::sniff(workflow), Format::Toon);
        assert_eq!(Format::sniff("dag[1]{id,tool}:\n  a,x"), Format::Toon);
        assert_eq!(Format::sniff("\"my list\"[2|]: a|b"), Format::Toon);
        assert_eq!(Format::sniff("[2]: a,b"), Format::Toon);
        // Brackets that are not headers leave YAML as YAML.
        assert_eq!(
            Format::sniff("tasks:\n  - id: a[1]\n    note: \"x[2]: y\""),
            Format::Yaml
        );
        assert_eq!(Format::sniff("a[x]: 1\nb: 2"), Format::Yaml);
        // A task list without front matter is markdown.
        assert_eq!(Format::sniff("- [ ] alpha\n- [x] beta\n"), Format::Md);
        assert_eq!(Format::sniff("Intro\n\n* [ ] alpha\n"), Format::Md);
        // YAML that does not parse is still YAML, for its error.
        assert_eq!(
            Format::sniff("tasks:\n  - id: a\n    prompt: p\n    prompt: q\n"),
            Format::Yaml
        );
    }

    #[test]
    fn toon_in_a_file_named_for_another_format_is_toon() {
        let toon = "schema: toon-plan/1\ntasks[1]{id,title}:\n  a,Do it\n";
        for name in ["p.yaml", "p.md", "p.json", "p.toon", "p"] {
            assert_eq!(
                Format::of_file(Some(Path::new(name)), toon),
                Format::Toon,
                "{name}"
            );
        }
        // What the extension says otherwise, even with a header-like line.
        let md = "Notes\n\nitems[2]: a,b\nmore prose\n";
        assert_eq!(Format::of_file(Some(Path::new("n.md")), md), Format::Md);
        let yaml = "tasks:\n  - id: a\n";
        assert_eq!(
            Format::of_file(Some(Path::new("p.yaml")), yaml),
            Format::Yaml
        );
        let front = "---\nname: x\n---\nitems[1]: a\n";
        assert_eq!(
            Format::of_file(Some(Path::new("x.plan.md")), front),
            Format::Md
        );
        assert_eq!(
            Format::of_file(Some(Path::new("x.json")), "{\"a[1]\": 1}"),
            Format::Json
        );
    }

    #[test]
    fn toon_errors_show_line_column_and_caret() {
        let Err(e) = Document::parse("tasks[2]:\n  - id: a", Format::Toon) else {
            panic!("a short list is an error");
        };
        assert_eq!(
            e.to_string(),
            "line 2, column 3: invalid TOON: Expected 2 list-form items, but got 1\n  |\n2 |   - id: a\n  |   ^"
        );
        assert_eq!((e.location, e.column), (Location::Line(2), Some(3)));
    }

    #[test]
    fn invalid_json_names_its_line_and_one_based_column_once() {
        let Err(e) = Document::parse("", Format::Json) else {
            panic!("empty text is not JSON");
        };
        assert_eq!(
            e.to_string(),
            "line 1, column 1: invalid JSON: EOF while parsing a value"
        );
        let Err(e) = Document::parse("{\"a\": [1, 2", Format::Json) else {
            panic!("unclosed list is not JSON");
        };
        assert_eq!(
            e.to_string(),
            "line 1, column 11: invalid JSON: EOF while parsing a list"
        );
        assert_eq!(e.column, Some(11));
        let Err(e) = Document::parse("a: 1\nb: [x\n", Format::Yaml) else {
            panic!("an unclosed flow list is not YAML");
        };
        assert!(matches!(e.location, Location::Line(n) if n >= 2), "{e:?}");
        assert!(e.column.is_some_and(|c| c >= 1), "{e:?}");
        assert!(
            e.to_string()
                .starts_with(&format!("line {}, column ", n_of(&e))),
            "{e}"
        );
    }

    /// The line of an error located at one.
    fn n_of(e: &PlanError) -> usize {
        match e.location {
            Location::Line(n) => n,
            _ => 0,
        }
    }
}
