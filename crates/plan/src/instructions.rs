//! Prompt blocks that teach a model to write a plan of one dialect as TOON: the TOON
//! forms a plan uses, the dialect's fields as tables (kind, required, closed
//! vocabularies, the rules validation applies), and a worked example written by the
//! dialect's own writer. Everything comes from the dialect's field tables
//! ([`Table`]), so the block says what [`validate`](crate::validate) checks.

use serde::Serialize;
use serde_json::{Value, json};

use crate::conversion::derive::Setting;
use crate::dialects::DialectId;
use crate::problem::{ErrorKind, PlanError};
use crate::syntax::format::Format;
use crate::table::{Check, Field, Kind, Table, TaskField, To};

/// A prompt block for one dialect.
#[derive(Clone, Debug, Serialize)]
pub struct Instructions {
    /// The dialect it teaches.
    pub dialect: String,
    /// The whole block, ready to paste into a system prompt.
    pub text: String,
    /// The worked example alone (TOON text of a valid plan of the dialect).
    pub example: String,
}

/// What the TOON forms of a plan look like (spec §7–§9), for every dialect.
const TOON_FORMS: &str = "\
TOON: one `key: value` per line; an object's fields indent 2 spaces under `key:`.
Strings are bare. Quote one with \"...\" (escapes \\\" \\\\ \\n) when it is empty, \
looks like a number, true, false or null, starts with `-` or a space, or holds \
`:` `,` `\"` `\\` `[` `]` `{` `}`.
`key[N]: a,b,c` is a list of N strings (`key[0]:` when empty).
`key[N]:` then N items one level deeper, each starting `- `; an object item puts its \
first field after `- ` and its other fields under it.
`key[N]{f1,f2}:` then N rows `v1,v2`: objects with the same plain fields, as a table.
N is the number of items, exactly.";

/// The prompt block for `dialect`.
pub fn instructions(dialect: DialectId) -> Result<Instructions, PlanError> {
    let d = dialect.dialect();
    let root = d.table().ok_or_else(|| {
        PlanError::new(
            ErrorKind::Unsupported,
            format!("the {dialect} dialect has no field table to teach"),
        )
    })?;
    let example = example(dialect, root)?;
    let mut text = format!(
        "Write the plan as TOON in one ```toon block: a {} ({dialect} dialect). {}\n\n{TOON_FORMS}\n",
        root.title,
        first_sentence(root.doc)
    );
    let mut tables = vec![("the plan (top level)".to_owned(), root)];
    let mut i = 0;
    while i < tables.len() {
        let (name, table) = (tables[i].0.clone(), tables[i].1);
        for f in table.fields.iter().filter(|f| taught(f)) {
            if let Kind::Items(inner) | Kind::Nested(inner) = f.kind {
                let what = match f.kind {
                    Kind::Items(_) => format!("each item of `{}`", f.key),
                    _ => format!("`{}`", f.key),
                };
                tables.push((what, inner));
            }
        }
        text.push_str(&format!("\nFields of {name}:\n"));
        text.push_str(&field_table(table));
        i += 1;
    }
    text.push_str(&rules(&tables));
    text.push_str(&format!("\nExample:\n```toon\n{}```\n", example));
    Ok(Instructions {
        dialect: dialect.name().to_owned(),
        text,
        example,
    })
}

/// A table's fields as a TOON table: key, kind (with its closed vocabulary or rule),
/// whether required, and what it holds.
fn field_table(table: &Table) -> String {
    let rows: Vec<Value> = table
        .fields
        .iter()
        .filter(|f| taught(f))
        .map(|f| {
            json!({
                "key": f.key,
                "type": kind(f),
                "required": if f.required { "yes" } else { "no" },
                "meaning": first_sentence(f.doc),
            })
        })
        .collect();
    let value = toon::Value::from(json!({ "fields": rows }));
    toon::encode_value(&value) + "\n"
}

/// Whether the block lists a field: every required one, and the optional ones but
/// free-form objects and values (metadata, layout and the like, which a model writing a
/// new plan leaves out).
pub fn taught(f: &Field) -> bool {
    f.required || !matches!(f.kind, Kind::Object | Kind::Any)
}

/// A field's kind in words, with its closed vocabulary or further rule.
fn kind(f: &Field) -> String {
    let base = match f.kind {
        Kind::Str => "string",
        Kind::Strings => "list of strings",
        Kind::Number => "number",
        Kind::Integer => "integer",
        Kind::Bool => "true|false",
        Kind::Object | Kind::Nested(_) => "object",
        Kind::StringsOrCount => "list of strings, or their count",
        Kind::StringsCountOrCell => "list of strings, their count, or them joined by `,`",
        Kind::Id => "number or string",
        Kind::Ids => "list of numbers and strings",
        Kind::Lines => "string, or its lines as a list of strings",
        Kind::Any => "any value",
        Kind::Items(_) => "list of objects",
    };
    match f.check {
        Check::OneOf(choices) => {
            let values: Vec<&str> = choices.iter().map(|c| c.value).collect();
            format!("{base}, one of {}", values.join("|"))
        }
        Check::Known(choices) => {
            let values: Vec<&str> = choices.iter().map(|c| c.value).collect();
            format!("{base}, usually one of {}", values.join("|"))
        }
        Check::NonBlank => format!("{base}, not empty"),
        Check::Slug => format!("{base}, no spaces or punctuation but _ and -"),
        Check::Positive => format!("{base} >= 1"),
        Check::NotNegative => format!("{base} >= 0"),
        Check::None => base.to_owned(),
    }
}

/// The rules beyond each field's own: required fields, ids and dependencies.
fn rules(tables: &[(String, &'static Table)]) -> String {
    let mut out = String::from(
        "\nRules: every required field is present and not null; values of a closed list are \
         written exactly as listed.",
    );
    let tasks = tables.iter().map(|(_, t)| *t).find(|t| {
        t.fields
            .iter()
            .any(|f| f.to == To::Task(TaskField::Dependencies))
    });
    if let Some(t) = tasks {
        let id = t.key_of(To::Task(TaskField::Id));
        let deps = t.key_of(To::Task(TaskField::Dependencies));
        out.push_str(&format!(
            " Each `{id}` is unique; `{deps}` names the `{id}`s of tasks that must finish \
             first, with no cycles."
        ));
    }
    out.push('\n');
    out
}

/// The first sentence of a documentation text (an abbreviation such as `e.g.` does not
/// end it).
fn first_sentence(doc: &str) -> &str {
    let mut from = 0;
    while let Some(i) = doc[from..].find(". ").map(|i| from + i) {
        let before = &doc[..i];
        if !(before.ends_with("e.g") || before.ends_with("i.e")) {
            return &doc[..=i];
        }
        from = i + 2;
    }
    doc
}

/// The example plan (in the plan model's JSON form), before the dialect's fills.
const EXAMPLE_PLAN: &str = r#"{"schema":"toon-plan/1","id":"docs-refresh","title":"Refresh the API docs",
"goal":"Publish up-to-date API docs","tasks":[
{"id":"collect","title":"Collect endpoints","description":"List every public endpoint","tool":"code_search","action":"list_endpoints","dependencies":[]},
{"id":"write","title":"Write pages","description":"Write one page per endpoint","tool":"editor","action":"write_pages","dependencies":["collect"]},
{"id":"publish","title":"Publish","description":"Deploy the docs site","tool":"deploy","action":"deploy_site","dependencies":["write"]}]}"#;

/// The worked example: [`EXAMPLE_PLAN`] written by the dialect's own writer as TOON,
/// each required field with a closed vocabulary that the plan cannot fill set to its
/// first value.
fn example(dialect: DialectId, root: &Table) -> Result<String, PlanError> {
    let options = crate::ReadOptions {
        dialect: Some(DialectId::PLAN),
        format: Some(Format::Json),
        file_name: None,
    };
    let plan = crate::read(EXAMPLE_PLAN, &options)?.plan;
    let mut sets = Vec::new();
    let mut stack = vec![root];
    while let Some(t) = stack.pop() {
        for f in t.fields {
            if let Kind::Items(inner) | Kind::Nested(inner) = f.kind {
                stack.push(inner);
            }
            if let (true, Some(c)) = (f.required, f.choices().first())
                && let Ok(s) = format!("{}={}", f.key, c.value).parse::<Setting>()
            {
                sets.push(s);
            }
        }
    }
    let options = crate::ConvertOptions {
        format: Some(Format::Toon),
        set: sets,
        ..crate::ConvertOptions::default()
    };
    Ok(crate::convert(&plan, dialect, &options)?.text)
}
