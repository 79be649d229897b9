//! The tools `toon mcp` offers: each one's name, description and JSON Schema of its
//! arguments, and the reading of its arguments into the adapter's typed calls.

use std::path::Path;

use serde_json::{Map, Value, json};
use toon::Delimiter;
use toon_plan::{DialectId, Format, Loaded, Setting};

use super::adapter::{self, ToolResult};

/// A tool: name, description, and the JSON Schema of its arguments.
pub struct ToolSpec {
    /// The name a client calls it by.
    pub name: &'static str,
    /// What it does.
    pub description: &'static str,
    /// The JSON Schema of its arguments.
    pub schema: fn() -> Value,
}

/// Plan files larger than this are refused (a plan is a few kilobytes).
const MAX_PLAN_FILE: u64 = 64 << 20;

fn dialects() -> Value {
    DialectId::all().map(|d| d.name()).collect()
}

fn object(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": properties, "required": required})
}

/// The arguments that name a plan: its text or a path to read it from.
fn plan_source(mut extra: Value, required: &[&str]) -> Value {
    let base = json!({
        "text": {"type": "string", "description": "The plan's text (give this or `path`)."},
        "path": {"type": "string", "description": "A plan file to read (never written)."},
        "dialect": {"type": "string", "enum": dialects(), "description": "The plan's dialect; detected when absent."},
        "format": {"type": "string", "enum": ["json", "yaml", "toon", "md", "prompt"], "description": "The plan's format; from the path or the content when absent."},
    });
    if let (Some(e), Value::Object(b)) = (extra.as_object_mut(), base) {
        for (k, v) in b {
            e.entry(k).or_insert(v);
        }
    }
    object(extra, required)
}

/// Every tool, in the order `tools/list` gives them.
pub const TOOLS: &[ToolSpec] = &[
    ToolSpec {
        name: "toon_encode",
        description: "Encode JSON text as TOON (Token-Oriented Object Notation).",
        schema: || {
            object(
                json!({
                    "json": {"type": "string", "description": "The JSON text to encode."},
                    "delimiter": {"type": "string", "enum": [",", "\t", "|"], "description": "Delimiter of arrays and table rows (default `,`)."},
                    "indent": {"type": "integer", "minimum": 1, "maximum": 16, "description": "Spaces per level (default 2)."},
                }),
                &["json"],
            )
        },
    },
    ToolSpec {
        name: "toon_decode",
        description: "Decode TOON text to JSON; errors give the line and column.",
        schema: || {
            object(
                json!({
                    "toon": {"type": "string", "description": "The TOON text to decode."},
                    "strict": {"type": "boolean", "description": "Strict mode (default true): counts, indentation and keys checked."},
                    "indent": {"type": "integer", "minimum": 1, "maximum": 16, "description": "Spaces per level (default 2)."},
                }),
                &["toon"],
            )
        },
    },
    ToolSpec {
        name: "toon_stats",
        description: "Bytes and exact o200k_base tokens of JSON text as pretty and compact JSON, YAML, TOON and CSV.",
        schema: || {
            object(
                json!({"json": {"type": "string", "description": "The JSON text to measure."}}),
                &["json"],
            )
        },
    },
    ToolSpec {
        name: "plan_validate",
        description: "Validate an agent plan (Cursor, PlanDAG, composite, workflow, staged, tool DAG, plan model): every problem with its location. With model_output, the text is a model's answer: the plan is taken from its fenced block or the prose around it and read leniently.",
        schema: || {
            plan_source(
                json!({"model_output": {"type": "boolean", "description": "The text is a model's answer (needs `dialect`)."}}),
                &[],
            )
        },
    },
    ToolSpec {
        name: "plan_convert",
        description: "Convert a plan to another dialect and format; returns the text, the loss report (what the target cannot hold, what was filled in) and the target's problems.",
        schema: || {
            plan_source(
                json!({
                    "to": {"type": "string", "enum": dialects(), "description": "The dialect to write."},
                    "to_format": {"type": "string", "enum": ["json", "yaml", "toon", "md", "prompt"], "description": "The format to write; the target's own when absent."},
                    "set": {"type": "array", "items": {"type": "string"}, "description": "Values the target needs: `FIELD=VALUE` or `TASK.FIELD=VALUE`."},
                }),
                &["to"],
            )
        },
    },
    ToolSpec {
        name: "plan_schedule",
        description: "Waves, stages, critical path and makespan of a plan.",
        schema: || plan_source(json!({}), &[]),
    },
    ToolSpec {
        name: "plan_next",
        description: "The tasks of a plan ready to start (not started, every task they wait for done), in schedule order, with how many of all tasks are finished.",
        schema: || plan_source(json!({}), &[]),
    },
    ToolSpec {
        name: "plan_show",
        description: "A short summary of a plan: title, goal, tasks with status and dependencies, validity.",
        schema: || plan_source(json!({}), &[]),
    },
    ToolSpec {
        name: "plan_instructions",
        description: "A prompt block that teaches a model to write a plan of a dialect as TOON: fields, closed values, rules and a valid example, with its token count.",
        schema: || {
            object(
                json!({"dialect": {"type": "string", "enum": dialects(), "description": "The dialect the model is to write."}}),
                &["dialect"],
            )
        },
    },
];

/// The arguments of one call.
struct Args<'a>(&'a Map<String, Value>);

impl Args<'_> {
    fn str(&self, key: &str) -> Result<Option<&str>, String> {
        match self.0.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(format!("argument `{key}` must be a string")),
        }
    }

    fn required(&self, key: &str) -> Result<&str, String> {
        self.str(key)?
            .ok_or_else(|| format!("missing argument `{key}`"))
    }

    fn bool(&self, key: &str, default: bool) -> Result<bool, String> {
        match self.0.get(key) {
            None | Some(Value::Null) => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(format!("argument `{key}` must be true or false")),
        }
    }

    fn indent(&self) -> Result<usize, String> {
        match self.0.get("indent") {
            None | Some(Value::Null) => Ok(2),
            Some(v) => match v.as_u64() {
                Some(n @ 1..=16) => Ok(n as usize),
                _ => Err("argument `indent` must be an integer from 1 to 16".into()),
            },
        }
    }

    fn dialect(&self, key: &str) -> Result<Option<DialectId>, String> {
        self.str(key)?.map(str::parse).transpose()
    }

    fn format(&self, key: &str) -> Result<Option<Format>, String> {
        self.str(key)?
            .map(|f| {
                f.parse::<Format>()
                    .map_err(|e| format!("argument `{key}`: {e}"))
            })
            .transpose()
    }

    fn sets(&self) -> Result<Vec<Setting>, String> {
        match self.0.get("set") {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| {
                    v.as_str()
                        .ok_or_else(|| "argument `set` must be a list of strings".to_owned())?
                        .parse::<Setting>()
                        .map_err(|e| e.to_string())
                })
                .collect(),
            Some(_) => Err("argument `set` must be a list of strings".into()),
        }
    }

    /// The plan's text and its name in messages: `text`, else the file at `path`.
    fn plan_text(&self) -> Result<(String, String), String> {
        match (self.str("text")?, self.str("path")?) {
            (Some(_), Some(_)) => Err("give `text` or `path`, not both".into()),
            (Some(t), None) => Ok((t.to_owned(), "<text>".into())),
            (None, Some(p)) => {
                let meta = std::fs::metadata(p).map_err(|e| format!("{p}: {e}"))?;
                if !meta.is_file() {
                    return Err(format!("{p}: not a file"));
                }
                if meta.len() > MAX_PLAN_FILE {
                    return Err(format!("{p}: larger than {MAX_PLAN_FILE} bytes"));
                }
                let text = std::fs::read_to_string(p).map_err(|e| format!("{p}: {e}"))?;
                Ok((text, p.to_owned()))
            }
            (None, None) => Err("missing argument `text` or `path`".into()),
        }
    }

    fn plan(&self) -> Result<Loaded, String> {
        let (text, name) = self.plan_text()?;
        let path = self.str("path")?.map(Path::new);
        adapter::load(
            &text,
            path,
            &name,
            self.dialect("dialect")?,
            self.format("format")?,
        )
    }
}

/// Runs the tool `name` on `arguments`.
pub fn call(name: &str, arguments: &Map<String, Value>) -> ToolResult {
    let a = Args(arguments);
    match name {
        "toon_encode" => {
            let delimiter = match a.str("delimiter")? {
                None | Some(",") => Delimiter::Comma,
                Some("\t") => Delimiter::Tab,
                Some("|") => Delimiter::Pipe,
                Some(d) => return Err(format!("unknown delimiter {d:?} (`,`, tab or `|`)")),
            };
            adapter::encode(a.required("json")?, delimiter, a.indent()?)
        }
        "toon_decode" => adapter::decode(a.required("toon")?, a.bool("strict", true)?, a.indent()?),
        "toon_stats" => adapter::stats(a.required("json")?),
        "plan_validate" if a.bool("model_output", false)? => {
            let dialect = a
                .dialect("dialect")?
                .ok_or("model_output needs the `dialect` the model was asked for")?;
            adapter::validate_answer(&a.plan_text()?.0, dialect)
        }
        "plan_validate" => adapter::validate(&a.plan()?),
        "plan_convert" => {
            let to = a.dialect("to")?.ok_or("missing argument `to`")?;
            adapter::convert(&a.plan()?, to, a.format("to_format")?, &a.sets()?)
        }
        "plan_schedule" => adapter::schedule(&a.plan()?),
        "plan_next" => adapter::next(&a.plan()?),
        "plan_show" => adapter::show(&a.plan()?),
        "plan_instructions" => {
            adapter::instructions(a.dialect("dialect")?.ok_or("missing argument `dialect`")?)
        }
        _ => Err(format!("unknown tool {name:?}")),
    }
}
