//! Seed 004's hand-offs: `{{task_id.field}}` in a query stands for a field of that
//! task's result.
//!
//! The syntax is read as the tool DAG validator reads it: from `{{` to the next `}}`,
//! trimmed, split at the first `.` into task id and field. A field may be a dotted path
//! into the result (`{{a.data.name}}`). An unclosed `{{` is plain text.

use std::collections::HashMap;
use std::fmt;
use std::ops::Range;

use serde::Serialize;
use serde_json::Value;

use crate::model::Plan;

/// A `{{task_id.field}}` reference found in a plan.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Reference {
    /// The task whose text holds the reference.
    pub in_task: String,
    /// Which of its fields: `description` (a tool DAG `query`), `target`, or a path into
    /// `params` such as `params.url`.
    pub in_field: String,
    /// The referenced task.
    pub task: String,
    /// The referenced field of its result.
    pub field: String,
    /// The reference as written, braces included.
    pub text: String,
}

/// Why a reference cannot be resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefError {
    /// No result for the referenced task.
    MissingTask {
        /// The reference as written.
        reference: String,
        /// The task.
        task: String,
    },
    /// The task's result has no such field.
    MissingField {
        /// The reference as written.
        reference: String,
        /// The task.
        task: String,
        /// The field.
        field: String,
    },
    /// The reference names a task but no field (`{{task}}`).
    NoField {
        /// The reference as written.
        reference: String,
    },
}

impl fmt::Display for RefError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RefError::MissingTask { reference, task } => {
                write!(f, "{reference}: no result for task {task:?}")
            }
            RefError::MissingField {
                reference,
                task,
                field,
            } => write!(
                f,
                "{reference}: the result of task {task:?} has no field {field:?}"
            ),
            RefError::NoField { reference } => write!(
                f,
                "{reference}: names no field (write {{{{task_id.field}}}}, e.g. `.result`)"
            ),
        }
    }
}

impl std::error::Error for RefError {}

/// The references in a text: `(byte range of the whole reference, task id, field)`.
pub fn scan(text: &str) -> Vec<(Range<usize>, &str, &str)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(open) = text[from..].find("{{") {
        let start = from + open;
        let inner_start = start + 2;
        let Some(close) = text[inner_start..].find("}}") else {
            break;
        };
        let end = inner_start + close + 2;
        let inner = text[inner_start..inner_start + close].trim();
        let (id, field) = inner.split_once('.').unwrap_or((inner, ""));
        out.push((start..end, id.trim(), field.trim()));
        from = end;
    }
    out
}

/// Every reference in a plan, in task order: in each task's description (a tool DAG
/// query), target, and the strings inside its params.
pub fn references(plan: &Plan) -> Vec<Reference> {
    let mut out = Vec::new();
    for t in &plan.tasks {
        let mut texts: Vec<(String, &str)> = Vec::new();
        if let Some(d) = &t.description {
            texts.push(("description".into(), d));
        }
        if let Some(x) = &t.target {
            texts.push(("target".into(), x));
        }
        // Params may nest deeply: walk them with a stack, not recursion.
        let mut stack: Vec<(String, &Value)> =
            t.params.iter().map(|p| ("params".to_owned(), p)).collect();
        let mut found: Vec<(String, &str)> = Vec::new();
        while let Some((path, v)) = stack.pop() {
            match v {
                Value::String(s) => found.push((path, s)),
                Value::Array(a) => {
                    for (i, x) in a.iter().enumerate().rev() {
                        stack.push((format!("{path}[{i}]"), x));
                    }
                }
                Value::Object(o) => {
                    for (k, x) in o.iter().rev() {
                        stack.push((format!("{path}.{k}"), x));
                    }
                }
                _ => {}
            }
        }
        texts.extend(found);
        for (field_name, text) in texts {
            for (range, id, field) in scan(text) {
                out.push(Reference {
                    in_task: t.id.clone(),
                    in_field: field_name.clone(),
                    task: id.to_owned(),
                    field: field.to_owned(),
                    text: text[range].to_owned(),
                });
            }
        }
    }
    out
}

/// The text of a field of a task's result: the field path walked through objects (and
/// arrays, by index). A result that is not an object answers the field `result` with
/// itself, so `{"a": "42"}` resolves `{{a.result}}` to `42`. Strings are inserted as
/// they are, other values as JSON.
pub fn lookup(result: &Value, task: &str, field: &str) -> Result<String, RefError> {
    let reference = format!("{{{{{task}.{field}}}}}");
    if field.is_empty() {
        return Err(RefError::NoField {
            reference: format!("{{{{{task}}}}}"),
        });
    }
    let mut cur = result;
    if !result.is_object() && !result.is_array() && field == "result" {
        return Ok(text_of(result));
    }
    for part in field.split('.') {
        let next = match cur {
            Value::Object(o) => o.get(part),
            Value::Array(a) => part.parse::<usize>().ok().and_then(|i| a.get(i)),
            _ => None,
        };
        cur = next.ok_or_else(|| RefError::MissingField {
            reference: reference.clone(),
            task: task.to_owned(),
            field: field.to_owned(),
        })?;
    }
    Ok(text_of(cur))
}

fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Replaces every `{{task_id.field}}` in `template` with the field of that task's
/// result in `results`; the first reference that cannot be resolved is the error.
pub fn resolve(template: &str, results: &HashMap<String, Value>) -> Result<String, RefError> {
    resolve_with(template, |task, field| match results.get(task) {
        Some(v) => lookup(v, task, field),
        None => Err(RefError::MissingTask {
            reference: format!("{{{{{task}.{field}}}}}"),
            task: task.to_owned(),
        }),
    })
}

/// Like [`resolve`], with the text of each reference given by `value(task, field)`.
pub fn resolve_with(
    template: &str,
    mut value: impl FnMut(&str, &str) -> Result<String, RefError>,
) -> Result<String, RefError> {
    let mut out = String::with_capacity(template.len());
    let mut last = 0;
    for (range, task, field) in scan(template) {
        out.push_str(&template[last..range.start]);
        if field.is_empty() {
            return Err(RefError::NoField {
                reference: template[range].to_owned(),
            });
        }
        out.push_str(&value(task, field)?);
        last = range.end;
    }
    out.push_str(&template[last..]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn resolves_seed_style_references() {
        let results: HashMap<String, Value> = [
            ("a".to_owned(), json!({"result": "87"})),
            ("b".to_owned(), json!(55)),
            ("c".to_owned(), json!({"data": {"names": ["x", "y"]}})),
        ]
        .into();
        let q = "Difference between {{a.result}} and {{ b.result }}: {{c.data.names.1}}";
        assert_eq!(
            resolve(q, &results).unwrap(),
            "Difference between 87 and 55: y"
        );
        assert_eq!(resolve("no refs {{", &results).unwrap(), "no refs {{");
    }

    #[test]
    fn errors_name_the_task_and_field() {
        let results: HashMap<String, Value> = [("a".to_owned(), json!({"result": 1}))].into();
        let e = resolve("{{z.result}}", &results).unwrap_err();
        assert_eq!(e.to_string(), "{{z.result}}: no result for task \"z\"");
        let e = resolve("x {{a.answer}}", &results).unwrap_err();
        assert_eq!(
            e,
            RefError::MissingField {
                reference: "{{a.answer}}".into(),
                task: "a".into(),
                field: "answer".into()
            }
        );
        assert!(e.to_string().contains("has no field \"answer\""));
        let e = resolve("{{a}}", &results).unwrap_err();
        assert!(matches!(e, RefError::NoField { .. }), "{e}");
    }
}
