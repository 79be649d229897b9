//! YAML in and out: strict reading through `serde-saphyr`, and a small deterministic
//! block-style writer (the style Cursor uses: two-space indents, `- ` list items under
//! their key, plain scalars where YAML reads them back as the same string).

use serde_json::Value;

use crate::problem::{ErrorKind, Location, PlanError};

/// Deepest nesting the writer follows; deeper values are written in JSON flow style
/// (valid YAML), so a hostile value cannot exhaust the stack.
const MAX_BLOCK_DEPTH: usize = 64;

/// YAML limits an implicit (`key: value`) key to 1024 characters; longer keys (as
/// written, quotes and escapes included) use the explicit `? key` form.
const MAX_IMPLICIT_KEY: usize = 1000;

/// Parses YAML text into a JSON value. Errors carry the line.
pub fn parse(text: &str) -> Result<Value, PlanError> {
    if text.trim().is_empty() {
        return Ok(Value::Null);
    }
    // YAML 1.2's core schema: only `true`/`false` are booleans, so a todo's `content:
    // Yes` or a `name: Off` stays the text it is (YAML 1.1 read them as booleans).
    // The parser's node and event budgets guard against expansion; they grow with the
    // text (a node takes at least a byte of it), so a 100k-task plan reads while memory
    // stays linear in the input.
    let options = serde_saphyr::options! {
        strict_booleans: true,
        budget: serde_saphyr::budget! {
            max_nodes: text.len().max(250_000),
            max_events: text.len().saturating_mul(4).max(1_000_000),
        },
    };
    serde_saphyr::from_str_with_options::<Value>(text, options).map_err(|e| {
        let (loc, column) = match e.location() {
            Some(l) => (Location::Line(l.line() as usize), Some(l.column() as usize)),
            None => (Location::Document, None),
        };
        let msg = e.to_string();
        let first = msg.lines().next().unwrap_or("invalid YAML");
        let first = first.strip_prefix("error: ").unwrap_or(first);
        // "line 2 column 46: mapping values …" → the location is kept separately.
        let first = match (first.strip_prefix("line "), first.find(": ")) {
            (Some(_), Some(i)) if first[..i].contains("column") => &first[i + 2..],
            _ => first,
        };
        // The parser's advice names its own options ("…, set DuplicateKeyPolicy in
        // Options if acceptable"): not something a user of this tool can set.
        let first = first.split(", set ").next().unwrap_or(first);
        PlanError::new(ErrorKind::Syntax, format!("invalid YAML: {first}"))
            .at(loc)
            .with_column(column)
    })
}

/// Writes a value as block-style YAML, ending with a newline.
pub fn to_string(value: &Value) -> String {
    let mut out = String::new();
    match value {
        Value::Object(m) if !m.is_empty() => write_map(&mut out, m, 0, 0),
        Value::Array(a) if !a.is_empty() => write_seq(&mut out, a, 0, 0),
        other => {
            out.push_str(&scalar(other));
            out.push('\n');
        }
    }
    out
}

fn pad(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

fn write_map(out: &mut String, m: &serde_json::Map<String, Value>, indent: usize, depth: usize) {
    let mut first = true;
    for (k, v) in m {
        // The first key of a map inside a list item follows the `- ` directly.
        if !first || indent == 0 || !out.ends_with("- ") {
            pad(out, indent);
        }
        first = false;
        let written = key(k);
        if written.chars().count() > MAX_IMPLICIT_KEY {
            // Too long for an implicit key: an explicit `? key` line, then `: value`.
            out.push_str("? ");
            out.push_str(&written);
            out.push('\n');
            pad(out, indent);
        } else {
            out.push_str(&written);
        }
        out.push(':');
        write_after_key(out, v, indent, depth + 1);
    }
}

fn write_after_key(out: &mut String, v: &Value, indent: usize, depth: usize) {
    if depth > MAX_BLOCK_DEPTH {
        out.push(' ');
        out.push_str(&v.to_string());
        out.push('\n');
        return;
    }
    match v {
        Value::Object(m) if !m.is_empty() => {
            out.push('\n');
            write_map(out, m, indent + 2, depth);
        }
        Value::Array(a) if !a.is_empty() => {
            out.push('\n');
            write_seq(out, a, indent + 2, depth);
        }
        other => {
            out.push(' ');
            out.push_str(&scalar(other));
            out.push('\n');
        }
    }
}

fn write_seq(out: &mut String, a: &[Value], indent: usize, depth: usize) {
    for v in a {
        pad(out, indent);
        out.push_str("- ");
        if depth > MAX_BLOCK_DEPTH {
            out.push_str(&v.to_string());
            out.push('\n');
            continue;
        }
        match v {
            Value::Object(m) if !m.is_empty() => write_map(out, m, indent + 2, depth + 1),
            Value::Array(inner) if !inner.is_empty() => {
                // A nested list starts on the item's line: `- - x`.
                let mut nested = String::new();
                write_seq(&mut nested, inner, indent + 2, depth + 1);
                out.push_str(nested.trim_start_matches(' '));
            }
            other => {
                out.push_str(&scalar(other));
                out.push('\n');
            }
        }
    }
}

fn key(k: &str) -> String {
    // A plain `<<` key is YAML's merge key.
    if k != "<<" && is_plain_safe(k) {
        k.to_owned()
    } else {
        quote(k)
    }
}

/// A scalar (or empty collection) in YAML syntax.
pub fn scalar(v: &Value) -> String {
    match v {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => {
            if is_plain_safe(s) {
                s.clone()
            } else {
                quote(s)
            }
        }
        Value::Array(a) if a.is_empty() => "[]".to_owned(),
        Value::Object(m) if m.is_empty() => "{}".to_owned(),
        other => other.to_string(),
    }
}

/// True when `s` can be written as a plain YAML scalar and reads back as this string.
pub fn is_plain_safe(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    if first.is_whitespace() || s.ends_with(char::is_whitespace) {
        return false;
    }
    if "-?:,[]{}#&*!|>'\"%@`".contains(first) {
        return false;
    }
    if s.contains(": ") || s.contains(" #") || s.ends_with(':') {
        return false;
    }
    if s.chars().any(|c| {
        c.is_control()
            || matches!(
                c,
                '\u{feff}' | '\u{2028}' | '\u{2029}' | '\u{85}' | '\u{fffe}' | '\u{ffff}'
            )
    }) {
        return false;
    }
    let lower = s.to_ascii_lowercase();
    if matches!(
        lower.as_str(),
        "null" | "~" | "true" | "false" | "yes" | "no" | "on" | "off" | "y" | "n"
    ) {
        return false;
    }
    if looks_numeric(s) {
        return false;
    }
    true
}

/// Conservative: anything a YAML 1.1 or 1.2 reader might take for a number, date or
/// time stays quoted.
fn looks_numeric(s: &str) -> bool {
    let body = s.trim_start_matches(['+', '-']);
    let lower = body.to_ascii_lowercase();
    if lower == ".inf" || lower == ".nan" {
        return true;
    }
    let first = body.chars().next();
    let starts_numeric = match first {
        Some(c) if c.is_ascii_digit() => true,
        Some('.') => body.chars().nth(1).is_some_and(|c| c.is_ascii_digit()),
        _ => false,
    };
    starts_numeric
        && body
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | ':' | '-' | '+' | ' '))
}

/// A YAML scalar style a text value can be written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarStyle {
    /// As it is, unquoted (also where a strict reader would refuse it, as Cursor
    /// writes `content: Phase 1: setup`; the tolerant front matter reader takes it).
    Plain,
    /// Double-quoted, with [`quote`]'s escapes.
    Double,
    /// Single-quoted, `'` written twice.
    Single,
}

/// One line of block YAML (`key: value`, `- value` or `- key: value`, with its
/// indentation and line break) whose value is text, with the value written in
/// `style`; `None` when the line holds no single text value or the style cannot
/// write it on one line.
pub fn restyle_line(line: &str, style: ScalarStyle) -> Option<String> {
    let (content, newline) = match line.strip_suffix('\n') {
        Some(c) => (c, "\n"),
        None => (line, ""),
    };
    let text = match parse(content.trim_start()).ok()? {
        Value::Object(m) if m.len() == 1 => m.into_iter().next()?.1,
        Value::Array(mut a) if a.len() == 1 => match a.pop()? {
            Value::Object(m) if m.len() == 1 => m.into_iter().next()?.1,
            v => v,
        },
        _ => return None,
    };
    let Value::String(text) = text else {
        return None;
    };
    let written = scalar(&Value::String(text.clone()));
    let prefix = content.strip_suffix(written.as_str())?;
    let one_line = !text.contains(['\n', '\r']);
    let value = match style {
        ScalarStyle::Plain => {
            let clean = one_line
                && !text.is_empty()
                && text.trim() == text
                && !text.starts_with(['"', '\'', '#', '|', '>', '[', '{', '&', '*', '!']);
            clean.then(|| text.clone())?
        }
        ScalarStyle::Double => quote(&text),
        ScalarStyle::Single => one_line.then(|| format!("'{}'", text.replace('\'', "''")))?,
    };
    Some(format!("{prefix}{value}{newline}"))
}

/// A double-quoted YAML string with escapes.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\0' => out.push_str("\\0"),
            '\u{85}' => out.push_str("\\N"),
            '\u{2028}' => out.push_str("\\L"),
            '\u{2029}' => out.push_str("\\P"),
            '\u{feff}' => out.push_str("\\uFEFF"),
            c if c.is_control() => out.push_str(&format!("\\x{:02X}", c as u32)),
            // Not printable in YAML (§5.1), so escaped.
            '\u{fffe}' | '\u{ffff}' => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn errors_do_not_name_the_parsers_options() {
        let e = parse("a: 1\na: 2\n").unwrap_err();
        assert!(e.message.contains("duplicate mapping key"), "{e}");
        assert!(!e.message.contains("Options"), "{e}");
    }

    #[test]
    fn a_large_document_is_within_the_budget_that_grows_with_it() {
        // 300,001 nodes: over the parser's default budget of 250,000.
        let text = "- a\n".repeat(300_000);
        let parsed = parse(&text);
        assert!(
            parsed
                .as_ref()
                .is_ok_and(|v| v.as_array().is_some_and(|a| a.len() == 300_000)),
            "{parsed:?}"
        );
    }

    #[test]
    fn only_true_and_false_are_booleans() {
        let v = parse("a: Yes\nb: off\nc: y\nd: true\ne: False\n").unwrap();
        assert_eq!(
            v,
            json!({"a": "Yes", "b": "off", "c": "y", "d": true, "e": false})
        );
    }

    #[test]
    fn block_style_reads_back() {
        let v = json!({
            "name": "Phase 0: Setup",
            "todos": [
                {"id": "a", "content": "Do it", "dependencies": ["x", "y"]},
                {"id": "b", "nested": [[1, 2], []], "empty": {}}
            ],
            "isProject": false,
            "n": "42",
            "yes": "yes",
            "multi": "line one\nline two",
            "ünï": "日本語のテキスト"
        });
        let text = to_string(&v);
        assert!(text.contains("name: \"Phase 0: Setup\"\n"), "{text}");
        assert!(
            text.contains("todos:\n  - id: a\n    content: Do it\n    dependencies:\n      - x\n"),
            "{text}"
        );
        assert_eq!(parse(&text).unwrap(), v, "{text}");
    }

    #[test]
    fn invalid_yaml_reports_a_line() {
        let e = parse("a: 1\nb: Phase 0: Setup\n").unwrap_err();
        assert!(matches!(e.location, Location::Line(2)), "{e:?}");
    }
}
