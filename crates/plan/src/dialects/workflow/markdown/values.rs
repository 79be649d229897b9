//! Field values as text: how a bullet's value reads and how a value is written so it
//! reads back the same.

use serde_json::Value;

/// How a field's value is written.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum ValueKind {
    Text,
    List,
    Seconds,
    Any,
}

pub(super) fn unquote_text(v: &str) -> String {
    if v.starts_with('"')
        && let Ok(Value::String(s)) = serde_json::from_str::<Value>(v)
    {
        return s;
    }
    if v.len() >= 2 && v.starts_with('`') && v.ends_with('`') && !v[1..v.len() - 1].contains('`') {
        return v[1..v.len() - 1].to_owned();
    }
    v.to_owned()
}

pub(super) fn parse_value(v: &str, kind: ValueKind) -> Value {
    match kind {
        ValueKind::Text => Value::String(unquote_text(v)),
        ValueKind::List => {
            if v.starts_with('[')
                && let Ok(Value::Array(a)) = serde_json::from_str::<Value>(v)
            {
                return Value::Array(a);
            }
            let inner = v
                .strip_prefix('[')
                .and_then(|x| x.strip_suffix(']'))
                .unwrap_or(v)
                .trim();
            if inner.is_empty() || inner.eq_ignore_ascii_case("none") {
                return Value::Array(Vec::new());
            }
            Value::Array(
                inner
                    .split(',')
                    .map(|s| Value::String(unquote_text(s.trim())))
                    .collect(),
            )
        }
        ValueKind::Seconds => {
            let t = v.trim();
            let num = t
                .strip_suffix("seconds")
                .or_else(|| t.strip_suffix("sec"))
                .or_else(|| t.strip_suffix('s'))
                .map(str::trim_end);
            if let Some(n) = num
                && let Ok(Value::Number(n)) = serde_json::from_str::<Value>(n)
            {
                return Value::Number(n);
            }
            parse_value(v, ValueKind::Any)
        }
        ValueKind::Any => {
            serde_json::from_str::<Value>(v).unwrap_or_else(|_| Value::String(unquote_text(v)))
        }
    }
}

pub(super) fn needs_quotes(s: &str) -> bool {
    s.is_empty()
        || s.trim() != s
        || s.contains(['\n', '\r'])
        || s.starts_with('"')
        || (s.starts_with('`') && s.ends_with('`'))
}

pub(super) fn write_text(s: &str) -> String {
    if needs_quotes(s) {
        Value::String(s.to_owned()).to_string()
    } else {
        s.to_owned()
    }
}

pub(super) fn write_value(v: &Value, kind: ValueKind) -> String {
    match (kind, v) {
        (ValueKind::Text, Value::String(s)) => write_text(s),
        (ValueKind::List, Value::Array(a)) => {
            let simple = a.iter().all(|x| {
                x.as_str().is_some_and(|s| {
                    !needs_quotes(s)
                        && !s.contains(',')
                        && !s.starts_with('[')
                        && !s.starts_with('`')
                        && !s.ends_with(']')
                        && !s.eq_ignore_ascii_case("none")
                })
            });
            if a.is_empty() {
                "[]".to_owned()
            } else if simple {
                a.iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join(", ")
            } else {
                v.to_string()
            }
        }
        (ValueKind::Seconds, Value::Number(n)) => format!("{n}s"),
        (_, Value::String(s)) => {
            if needs_quotes(s) || serde_json::from_str::<Value>(s).is_ok() {
                Value::String(s.clone()).to_string()
            } else {
                s.clone()
            }
        }
        (_, other) => other.to_string(),
    }
}

pub(super) fn title_case(key: &str) -> String {
    let snake = key.contains('_')
        && key.split('_').all(|w| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        });
    if !snake {
        return key.to_owned();
    }
    key.split('_')
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}
