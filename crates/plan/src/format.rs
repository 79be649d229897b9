//! Syntaxes a plan can be written in, and turning text into a document and back.

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use serde_json::Value;

use crate::problem::{Location, PlanError};
use crate::{tabular, yaml};

/// A syntax: `json`, `yaml`, `toon` or `md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// JSON, pretty-printed with two spaces.
    Json,
    /// YAML, block style.
    Yaml,
    /// TOON.
    Toon,
    /// Markdown (Cursor plans and the workflow markdown layout only).
    Md,
}

impl Format {
    /// All formats.
    pub const ALL: [Format; 4] = [Format::Json, Format::Yaml, Format::Toon, Format::Md];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Yaml => "yaml",
            Format::Toon => "toon",
            Format::Md => "md",
        }
    }

    /// The usual file extension.
    pub fn extension(self) -> &'static str {
        self.name()
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
        if t.starts_with('{') || t.starts_with('[') {
            return Format::Json;
        }
        if t.starts_with("---") || t.starts_with('#') || t.starts_with("<!--") || t.is_empty() {
            return Format::Md;
        }
        if yaml::parse(text).is_ok_and(|v| v.is_object()) {
            return Format::Yaml;
        }
        Format::Toon
    }
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
            _ => Err(format!("unknown format {s:?} (json, yaml, toon, md)")),
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
            Format::Json => serde_json::from_str::<Value>(text)
                .map(Document::Tree)
                .map_err(|e| {
                    // serde_json ends its message with the position, which the location
                    // and the column below already give; its column is 0 at the start of
                    // a line, ours 1-based.
                    let text = e.to_string();
                    let position = format!(" at line {} column {}", e.line(), e.column());
                    let message = text.strip_suffix(&position).unwrap_or(&text);
                    PlanError::new(
                        Location::Line(e.line()),
                        format!("invalid JSON: {message} (column {})", e.column().max(1)),
                    )
                }),
            Format::Yaml => yaml::parse(text).map(Document::Tree),
            Format::Toon => match toon::decode_value(text) {
                Ok(v) => Ok(Document::Tree(tabular::unflatten(Value::from(v)))),
                Err(e) => Err(PlanError::new(
                    Location::Line(e.line().unwrap_or(0)),
                    format!("invalid TOON: {}", e.message()),
                )),
            },
        }
    }

    /// The tree, if this is one.
    pub fn tree(&self) -> Option<&Value> {
        match self {
            Document::Tree(v) => Some(v),
            Document::Markdown(_) => None,
        }
    }
}

/// Writes a tree in a tree format: JSON pretty with a final newline, YAML, or plain TOON
/// (`toon::encode_value` of the same tree, so any conformant decoder reads back exactly
/// the JSON form).
pub fn write_tree(value: &Value, format: Format) -> Result<String, PlanError> {
    match format {
        Format::Json => {
            let mut s = serde_json::to_string_pretty(value)
                .map_err(|e| PlanError::doc(format!("cannot write JSON: {e}")))?;
            s.push('\n');
            Ok(s)
        }
        Format::Yaml => Ok(yaml::to_string(value)),
        Format::Toon => {
            let mut s = toon::encode_value(&toon::Value::from(value.clone()));
            s.push('\n');
            Ok(s)
        }
        Format::Md => Err(PlanError::doc(
            "this dialect has no markdown form (use json, yaml or toon)",
        )),
    }
}

#[cfg(test)]
mod json_error_tests {
    use super::*;

    #[test]
    fn invalid_json_names_its_line_and_one_based_column_once() {
        let Err(e) = Document::parse("", Format::Json) else {
            panic!("empty text is not JSON");
        };
        assert_eq!(
            e.to_string(),
            "line 1: invalid JSON: EOF while parsing a value (column 1)"
        );
        let Err(e) = Document::parse("{\"a\": [1, 2", Format::Json) else {
            panic!("unclosed list is not JSON");
        };
        assert_eq!(
            e.to_string(),
            "line 1: invalid JSON: EOF while parsing a list (column 11)"
        );
    }
}
