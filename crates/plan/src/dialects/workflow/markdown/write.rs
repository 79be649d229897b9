//! Writing a workflow tree in the markdown layout.

use serde_json::{Map, Value};

use super::labels::{Layout, STEP_LABELS, TASK_LABELS, heading_safe, label_for_key, section_safe};
use super::values::{ValueKind, title_case, write_value};

/// Writes a workflow tree in the markdown layout.
pub fn to_markdown(tree: &Value) -> String {
    let empty = Map::new();
    let root = tree.as_object().unwrap_or(&empty);
    let mut out = String::new();
    let meta = root.get("metadata").and_then(Value::as_object);
    let title = meta
        .and_then(|m| m.get("title"))
        .and_then(Value::as_str)
        .filter(|t| heading_safe(t));
    if let Some(t) = title {
        out.push_str(&format!("# {t}\n\n"));
    }
    if let Some(Value::String(p)) = root.get("preamble") {
        out.push_str(p);
        out.push_str("\n\n");
    }
    let objective = meta
        .and_then(|m| m.get("objective"))
        .and_then(Value::as_str)
        .filter(|o| section_safe(o));
    if let Some(o) = objective {
        out.push_str(&format!("## Objective\n{o}\n\n"));
    }
    if let Some(m) = meta {
        let rest: Vec<_> = m
            .iter()
            .filter(|(k, _)| {
                !(k.as_str() == "title" && title.is_some()
                    || k.as_str() == "objective" && objective.is_some())
            })
            .collect();
        if !rest.is_empty() {
            out.push_str("## Metadata\n");
            for (k, v) in rest {
                out.push_str(&format!(
                    "- {}: {}\n",
                    title_case(k),
                    write_value(v, ValueKind::Any)
                ));
            }
            out.push('\n');
        }
    }
    out.push_str("## Tasks\n\n");
    for (i, t) in root
        .get("tasks")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .enumerate()
    {
        let name = t.get("name").and_then(Value::as_str);
        let shown = name.filter(|n| heading_safe(n));
        out.push_str(&format!("### Task {}: {}\n", i + 1, shown.unwrap_or("")));
        let exact = shown.is_some()
            || name.is_some_and(str::is_empty)
            || t.get("name").is_none_or(Value::is_null);
        write_fields(
            &mut out,
            t,
            &TASK_LABELS,
            if exact { &["name"] } else { &[] },
        );
        out.push('\n');
    }
    out.push_str("## Steps\n\n");
    for (i, s) in root
        .get("steps")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .enumerate()
    {
        let default = ["action", "id"]
            .iter()
            .filter_map(|k| s.get(*k).and_then(Value::as_str))
            .find(|n| heading_safe(n))
            .unwrap_or("");
        let title = s.get("name").and_then(Value::as_str);
        let (shown, exact) = match title {
            Some(t)
                if heading_safe(t)
                    && t != default
                    && Some(t) != s.get("action").and_then(Value::as_str)
                    && Some(t) != s.get("id").and_then(Value::as_str) =>
            {
                (t, true)
            }
            Some(_) => (default, false),
            None => (default, s.get("name").is_none_or(Value::is_null)),
        };
        out.push_str(&format!("### Step {}: {shown}\n", i + 1));
        write_fields(
            &mut out,
            s,
            &STEP_LABELS,
            if exact { &["name"] } else { &[] },
        );
        out.push('\n');
    }
    if let Some(v) = root.get("shared_inputs") {
        out.push_str("## Shared Inputs\n");
        match v {
            // Flat data reads best as bullets, as Workflow Config is written.
            Value::Object(m) if !m.is_empty() && m.iter().all(|(k, v)| bullet_safe(k, v)) => {
                for (k, v) in m {
                    out.push_str(&format!("- {k}: {}\n", write_value(v, ValueKind::Any)));
                }
                out.push('\n');
            }
            _ => {
                let pretty = serde_json::to_string_pretty(v).unwrap_or_else(|_| v.to_string());
                out.push_str(&format!("```json\n{pretty}\n```\n\n"));
            }
        }
    }
    if let Some(Value::Object(c)) = root.get("workflow_config") {
        out.push_str("## Workflow Config\n");
        for (k, v) in c {
            out.push_str(&format!(
                "- {}: {}\n",
                title_case(k),
                write_value(v, ValueKind::Any)
            ));
        }
        out.push('\n');
    }
    let rest: Vec<_> = root
        .iter()
        .filter(|(k, v)| !written_elsewhere(k, v))
        .collect();
    if !rest.is_empty() {
        out.push_str("## Extra Fields\n");
        for (k, v) in rest {
            out.push_str(&format!(
                "- {}: {}\n",
                title_case(k),
                write_value(v, ValueKind::Any)
            ));
        }
        out.push('\n');
    }
    if let Some(Value::String(n)) = root.get("notes") {
        out.push_str(n);
        out.push('\n');
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

/// Whether a shared input can be a `- key: value` bullet that reads back the same: a
/// primitive value under a key that is plain text.
fn bullet_safe(key: &str, value: &Value) -> bool {
    !value.is_array()
        && !value.is_object()
        && !key.is_empty()
        && key.trim() == key
        && super::labels::label_safe(key)
        && !key.contains(':')
}

/// Top-level keys the layout writes in their own sections.
fn written_elsewhere(key: &str, v: &Value) -> bool {
    match key {
        "metadata" | "tasks" | "steps" | "shared_inputs" => true,
        "workflow_config" => v.is_object(),
        "notes" | "preamble" => v.is_string(),
        _ => false,
    }
}

fn write_fields(out: &mut String, item: &Map<String, Value>, table: &Layout, skip: &[&str]) {
    let known: Vec<&str> = table.keys().collect();
    let mut keys: Vec<&String> = Vec::new();
    for k in &known {
        if let Some((key, _)) = item.get_key_value(*k)
            && !skip.contains(k)
        {
            keys.push(key);
        }
    }
    for k in item.keys() {
        if !known.contains(&k.as_str()) && !skip.contains(&k.as_str()) {
            keys.push(k);
        }
    }
    for k in keys {
        let Some(v) = item.get(k.as_str()) else {
            continue;
        };
        if v.is_null() {
            continue;
        }
        let (label, kind) = label_for_key(k, table);
        out.push_str(&format!("- **{label}**: {}\n", write_value(v, kind)));
    }
}
