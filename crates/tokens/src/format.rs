//! The formats data can be written in, and the text of a value in each.

use std::fmt;

use toon::{Delimiter, EncodeOptions, Value};

use crate::{csv_table, yaml};

/// A text format the same data can be written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// `JSON.stringify(v, null, 2)`.
    JsonPretty,
    /// `JSON.stringify(v)`.
    JsonCompact,
    /// Block YAML as `serde-saphyr` writes it.
    Yaml,
    /// TOON, comma delimiter, indent 2.
    Toon,
    /// TOON, tab delimiter.
    ToonTab,
    /// TOON, pipe delimiter.
    ToonPipe,
    /// CSV with a header row; only for flat data (see [`csv_table::flat_rows`]).
    Csv,
}

impl Format {
    /// Every format, in the order tables list them.
    pub const ALL: [Format; 7] = [
        Format::JsonPretty,
        Format::JsonCompact,
        Format::Yaml,
        Format::Toon,
        Format::ToonTab,
        Format::ToonPipe,
        Format::Csv,
    ];

    /// The stable machine-readable key (`json_pretty`, …, `csv`) used in JSON output.
    pub fn key(self) -> &'static str {
        match self {
            Format::JsonPretty => "json_pretty",
            Format::JsonCompact => "json_compact",
            Format::Yaml => "yaml",
            Format::Toon => "toon",
            Format::ToonTab => "toon_tab",
            Format::ToonPipe => "toon_pipe",
            Format::Csv => "csv",
        }
    }

    /// A label for people, such as `JSON (pretty)` or `TOON (tab)`.
    pub fn label(self) -> &'static str {
        match self {
            Format::JsonPretty => "JSON (pretty)",
            Format::JsonCompact => "JSON (compact)",
            Format::Yaml => "YAML",
            Format::Toon => "TOON",
            Format::ToonTab => "TOON (tab)",
            Format::ToonPipe => "TOON (pipe)",
            Format::Csv => "CSV",
        }
    }

    /// The TOON delimiter of a TOON format.
    pub fn delimiter(self) -> Option<Delimiter> {
        match self {
            Format::Toon => Some(Delimiter::Comma),
            Format::ToonTab => Some(Delimiter::Tab),
            Format::ToonPipe => Some(Delimiter::Pipe),
            _ => None,
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// Why a value could not be written in some format.
#[derive(Debug)]
pub enum RenderError {
    /// The TOON encoder refused the value (for example, nesting beyond its limit).
    Toon(toon::Error),
    /// The YAML writer failed.
    Yaml(String),
    /// The CSV writer failed.
    Csv(String),
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::Toon(e) => write!(f, "cannot encode as TOON: {e}"),
            RenderError::Yaml(e) => write!(f, "cannot write YAML: {e}"),
            RenderError::Csv(e) => write!(f, "cannot write CSV: {e}"),
        }
    }
}

impl std::error::Error for RenderError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RenderError::Toon(e) => Some(e),
            _ => None,
        }
    }
}

/// The text of `value` in `format`, without a trailing newline; `None` when the format
/// cannot hold the data (CSV of non-flat data).
pub fn render(value: &Value, format: Format) -> Result<Option<String>, RenderError> {
    let text = match format {
        Format::JsonPretty => toon::value::to_json_string(value, 2),
        Format::JsonCompact => toon::value::to_json_string(value, 0),
        Format::Yaml => {
            let mut text = yaml::to_yaml(value).map_err(RenderError::Yaml)?;
            if text.ends_with('\n') {
                text.pop();
            }
            text
        }
        Format::Toon | Format::ToonTab | Format::ToonPipe => {
            let delimiter = format.delimiter().unwrap_or_default();
            let options = EncodeOptions::default().with_delimiter(delimiter);
            toon::encode_value_with(value, &options).map_err(RenderError::Toon)?
        }
        Format::Csv => return csv_table::to_csv(value).map_err(RenderError::Csv),
    };
    Ok(Some(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_snake_case() {
        let keys: std::collections::HashSet<_> = Format::ALL.iter().map(|f| f.key()).collect();
        assert_eq!(keys.len(), Format::ALL.len());
        assert!(
            keys.iter()
                .all(|k| k.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
        );
    }

    #[test]
    fn yaml_has_no_trailing_newline() -> Result<(), RenderError> {
        let v = toon::toon!({"a": 1});
        assert_eq!(render(&v, Format::Yaml)?.as_deref(), Some("a: 1"));
        Ok(())
    }

    #[test]
    fn csv_is_absent_for_nested_data() -> Result<(), RenderError> {
        let v = toon::toon!({"a": {"b": 1}});
        assert_eq!(render(&v, Format::Csv)?, None);
        Ok(())
    }
}
