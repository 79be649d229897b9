//! A forgiving reader for front matter that is not valid YAML, the way a person reads
//! it: `content: Phase 0: Setup` is the text after the first `: `. It understands the
//! block mappings and lists Cursor writes (nested by indentation), flow lists `[a, b]`,
//! quoted strings, and `|` / `>` block scalars; anything else is kept as text.

use serde_json::{Map, Number, Value};

/// Deepest nesting followed; deeper blocks are kept as text.
const MAX_DEPTH: usize = 64;

struct Line<'a> {
    indent: usize,
    text: &'a str,
}

/// Reads front matter tolerantly into a mapping. Never fails.
pub fn parse(yaml: &str) -> Map<String, Value> {
    let lines: Vec<Line<'_>> = yaml
        .lines()
        .filter(|l| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with('#')
        })
        .map(|l| {
            let text = l.trim_end();
            let indent = text.len() - text.trim_start().len();
            Line {
                indent,
                text: text.trim_start(),
            }
        })
        .collect();
    let mut pos = 0;
    match block(&lines, &mut pos, 0, 0) {
        Value::Object(m) => m,
        other => {
            let mut m = Map::new();
            if !other.is_null() {
                m.insert("front_matter".into(), other);
            }
            m
        }
    }
}

/// Reads the block starting at `pos` whose lines are indented at least `min`.
fn block(lines: &[Line<'_>], pos: &mut usize, min: usize, depth: usize) -> Value {
    let Some(first) = lines.get(*pos) else {
        return Value::Null;
    };
    if first.indent < min {
        return Value::Null;
    }
    let indent = first.indent;
    if depth > MAX_DEPTH {
        let mut text = String::new();
        while let Some(l) = lines.get(*pos).filter(|l| l.indent >= min) {
            text.push_str(l.text);
            text.push('\n');
            *pos += 1;
        }
        return Value::String(text);
    }
    if is_item(first.text) {
        let mut items = Vec::new();
        while let Some(l) = lines.get(*pos) {
            if l.indent != indent || !is_item(l.text) {
                break;
            }
            let after = l.text[1..].trim_start();
            let item_indent = indent + (l.text.len() - after.len());
            *pos += 1;
            if after.is_empty() {
                items.push(block(lines, pos, indent + 1, depth + 1));
            } else if let Some((k, v)) = key_value(after) {
                let mut m = Map::new();
                insert_pair(&mut m, lines, pos, k, v, item_indent, depth);
                // Further keys of the same item sit at the item's key column.
                while let Some(n) = lines.get(*pos) {
                    if n.indent != item_indent || is_item(n.text) {
                        break;
                    }
                    let Some((k, v)) = key_value(n.text) else {
                        break;
                    };
                    *pos += 1;
                    insert_pair(&mut m, lines, pos, k, v, item_indent, depth);
                }
                items.push(Value::Object(m));
            } else {
                items.push(scalar(after));
            }
        }
        return Value::Array(items);
    }
    let mut m = Map::new();
    while let Some(l) = lines.get(*pos) {
        if l.indent != indent {
            if l.indent > indent {
                // A stray deeper line: keep it with the previous key's text.
                *pos += 1;
                continue;
            }
            break;
        }
        match key_value(l.text) {
            Some((k, v)) => {
                *pos += 1;
                insert_pair(&mut m, lines, pos, k, v, indent, depth);
            }
            None if m.is_empty() => {
                *pos += 1;
                return scalar(l.text);
            }
            None => {
                *pos += 1;
            }
        }
    }
    Value::Object(m)
}

fn insert_pair(
    m: &mut Map<String, Value>,
    lines: &[Line<'_>],
    pos: &mut usize,
    key: String,
    rest: &str,
    indent: usize,
    depth: usize,
) {
    let rest = rest.trim();
    let value = if rest.is_empty() {
        // Nested block: deeper lines, or a list at the same indent (`key:\n- a`).
        match lines.get(*pos) {
            Some(n) if n.indent > indent => block(lines, pos, indent + 1, depth + 1),
            Some(n) if n.indent == indent && is_item(n.text) => {
                block(lines, pos, indent, depth + 1)
            }
            _ => Value::Null,
        }
    } else if matches!(rest.chars().next(), Some('|' | '>'))
        && rest[1..]
            .chars()
            .all(|c| matches!(c, '-' | '+') || c.is_ascii_digit())
    {
        let folded = rest.starts_with('>');
        let mut parts = Vec::new();
        while let Some(n) = lines.get(*pos).filter(|n| n.indent > indent) {
            parts.push(n.text);
            *pos += 1;
        }
        let sep = if folded { " " } else { "\n" };
        let mut s = parts.join(sep);
        if !rest.contains('-') {
            s.push('\n');
        }
        Value::String(s)
    } else {
        scalar(rest)
    };
    m.insert(key, value);
}

fn is_item(text: &str) -> bool {
    text == "-" || text.starts_with("- ")
}

/// Splits `key: rest` at the first `: ` (or a final `:`). Keys may be quoted.
fn key_value(text: &str) -> Option<(String, &str)> {
    if let Some(q) = text.chars().next().filter(|c| *c == '"' || *c == '\'') {
        let close = text[1..].find(q)? + 1;
        let key = text[1..close].to_owned();
        let rest = text[close + 1..].trim_start();
        let rest = rest.strip_prefix(':')?;
        return Some((key, rest));
    }
    let idx = match text.find(": ") {
        Some(i) => i,
        None if text.ends_with(':') => text.len() - 1,
        None => return None,
    };
    let key = text[..idx].trim();
    if key.is_empty() || key.starts_with(['-', '[', '{']) {
        return None;
    }
    Some((key.to_owned(), &text[idx + 1..]))
}

/// A scalar the way YAML would read it, or the text itself.
pub fn scalar(text: &str) -> Value {
    scalar_at(text, 0)
}

/// [`scalar`] inside `depth` flow lists: deeper than [`MAX_DEPTH`], a flow list is kept
/// as text, so `[[[[…]]]]` cannot exhaust the stack.
fn scalar_at(text: &str, depth: usize) -> Value {
    let t = text.trim();
    if t.len() >= 2 && t.starts_with('"') && t.ends_with('"') {
        if let Ok(Value::String(s)) = serde_json::from_str::<Value>(t) {
            return Value::String(s);
        }
        return Value::String(t[1..t.len() - 1].to_owned());
    }
    if t.len() >= 2 && t.starts_with('\'') && t.ends_with('\'') {
        return Value::String(t[1..t.len() - 1].replace("''", "'"));
    }
    if t.starts_with('[') && t.ends_with(']') && depth < MAX_DEPTH {
        let inner = t[1..t.len() - 1].trim();
        if inner.is_empty() {
            return Value::Array(Vec::new());
        }
        return Value::Array(inner.split(',').map(|s| scalar_at(s, depth + 1)).collect());
    }
    if t == "{}" {
        return Value::Object(Map::new());
    }
    match t {
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        "null" | "Null" | "NULL" | "~" => return Value::Null,
        _ => {}
    }
    if t.bytes().all(|b| b.is_ascii_digit() || b == b'-') && t.parse::<i64>().is_ok() {
        return t.parse::<i64>().map(Value::from).unwrap_or(Value::Null);
    }
    if t.contains('.')
        && t.bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-')
        && let Ok(f) = t.parse::<f64>()
        && let Some(n) = Number::from_f64(f)
    {
        return Value::Number(n);
    }
    Value::String(t.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_what_yaml_refuses() {
        let fm = "name: Rollout plan\noverview: Ship it: fast\ntodos:\n  - id: setup\n    content: Phase 0: Setup\n    status: pending\n  - id: build\n    content: \"Phase 1: Build\"\n    status: in_progress\n    dependencies:\n      - setup\nisProject: false\n";
        let m = parse(fm);
        assert_eq!(
            Value::Object(m),
            json!({
                "name": "Rollout plan",
                "overview": "Ship it: fast",
                "todos": [
                    {"id": "setup", "content": "Phase 0: Setup", "status": "pending"},
                    {"id": "build", "content": "Phase 1: Build", "status": "in_progress",
                     "dependencies": ["setup"]}
                ],
                "isProject": false
            })
        );
    }

    #[test]
    fn zero_indent_lists_flow_lists_and_block_scalars() {
        let fm = "todos:\n- id: a\n  dependencies: [b, 'c']\nnote: |\n  line 1\n  line 2\n";
        let m = parse(fm);
        assert_eq!(
            Value::Object(m),
            json!({
                "todos": [{"id": "a", "dependencies": ["b", "c"]}],
                "note": "line 1\nline 2\n"
            })
        );
    }
}
