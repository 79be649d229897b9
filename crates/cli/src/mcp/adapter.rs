//! Every library call of the MCP tools, in one place: the codec (`toon`), token counts
//! (`toon_tokens`) and plans (`toon_plan`). Each function takes the tool's arguments
//! as typed values and returns the tool's structured result, or the located message a
//! failure gives (the one the CLI prints).

use serde_json::{Value, json};
use toon::{DecodeOptions, Delimiter, EncodeOptions};
use toon_plan::{DialectId, Format, Loaded, Setting};
use toon_tokens::{Bpe, Tokenizer as _};

/// A failure of a tool: its message, as the CLI prints it.
pub type ToolResult = Result<Value, String>;

/// JSON text to TOON.
pub fn encode(json_text: &str, delimiter: Delimiter, indent: usize) -> ToolResult {
    let value = toon::value::from_json_str(json_text, toon::DEFAULT_MAX_DEPTH)
        .map_err(|e| e.to_string())?;
    let options = EncodeOptions::default()
        .with_delimiter(delimiter)
        .with_indent_size(indent);
    let text = toon::encode_value_with(&value, &options).map_err(|e| e.to_string())?;
    Ok(json!({ "toon": text }))
}

/// TOON text to a JSON value.
pub fn decode(text: &str, strict: bool, indent: usize) -> ToolResult {
    let options = DecodeOptions::default()
        .with_strict(strict)
        .with_indent_size(indent);
    let value = toon::decode_value_with(text, &options).map_err(|e| e.to_string())?;
    Ok(json!({ "json": Value::from(value) }))
}

/// Bytes and exact o200k_base tokens of a JSON value in every format.
pub fn stats(json_text: &str) -> ToolResult {
    let value = toon::value::from_json_str(json_text, toon::DEFAULT_MAX_DEPTH)
        .map_err(|e| e.to_string())?;
    let bpe = Bpe::o200k_base().map_err(|e| format!("cannot count tokens: {e}"))?;
    let comparison = toon_tokens::compare(&value, &bpe).map_err(|e| e.to_string())?;
    Ok(comparison.to_json())
}

/// A plan read from `text` (named `name` in messages, with `path` to tell its format).
pub fn load(
    text: &str,
    path: Option<&std::path::Path>,
    name: &str,
    dialect: Option<DialectId>,
    format: Option<Format>,
) -> Result<Loaded, String> {
    let options = toon_plan::ReadOptions {
        dialect,
        format,
        file_name: path.map(std::path::Path::to_path_buf),
    };
    toon_plan::read(text, &options).map_err(|e| format!("{name}: {e}"))
}

/// The problems of a plan, one line each, and whether none is an error.
fn problems(loaded: &Loaded) -> (Vec<String>, bool) {
    let problems = toon_plan::validate(loaded);
    let valid = !problems.iter().any(toon_plan::Problem::is_error);
    (problems.iter().map(ToString::to_string).collect(), valid)
}

/// `plan_validate`.
pub fn validate(loaded: &Loaded) -> ToolResult {
    let (problems, valid) = problems(loaded);
    Ok(json!({
        "dialect": loaded.dialect.name(),
        "format": loaded.format.name(),
        "tasks": loaded.plan.tasks.len(),
        "valid": valid,
        "problems": problems,
    }))
}

/// `plan_validate` of a model's answer.
pub fn validate_answer(text: &str, dialect: DialectId) -> ToolResult {
    serde_json::to_value(toon_plan::read_model_output(text, dialect)).map_err(|e| e.to_string())
}

/// `plan_convert`.
pub fn convert(
    loaded: &Loaded,
    to: DialectId,
    format: Option<Format>,
    sets: &[Setting],
) -> ToolResult {
    let options = toon_plan::ConvertOptions {
        format,
        set: sets.to_vec(),
        source_name: loaded.source_name.clone(),
        ..Default::default()
    };
    let conv = toon_plan::convert(&loaded.plan, to, &options).map_err(|e| e.to_string())?;
    let report = &conv.report;
    Ok(json!({
        "text": conv.text,
        "format": report.format.name(),
        "losses": report.losses,
        "problems": report.target_problems.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "settable": report.settable,
        "valid": report.target_errors() == 0,
    }))
}

/// `plan_schedule`.
pub fn schedule(loaded: &Loaded) -> ToolResult {
    let s = toon_plan::schedule(&loaded.plan).map_err(|e| e.to_string())?;
    serde_json::to_value(s).map_err(|e| e.to_string())
}

/// `plan_next`: the tasks ready to start, in schedule order.
pub fn next(loaded: &Loaded) -> ToolResult {
    let n = toon_plan::next(&loaded.plan).map_err(|e| e.to_string())?;
    serde_json::to_value(n).map_err(|e| e.to_string())
}

/// `plan_show`: title, goal, tasks with their dependencies, and validity.
pub fn show(loaded: &Loaded) -> ToolResult {
    let plan = &loaded.plan;
    let (problems, valid) = problems(loaded);
    let tasks: Vec<Value> = plan
        .tasks
        .iter()
        .map(|t| {
            json!({
                "id": t.id,
                "title": t.title.as_ref().or(t.description.as_ref()),
                "status": t.status,
                "group": t.group,
                "dependencies": t.dependencies.clone().unwrap_or_default(),
            })
        })
        .collect();
    Ok(json!({
        "dialect": loaded.dialect.name(),
        "format": loaded.format.name(),
        "title": plan.title.as_ref().or(plan.id.as_ref()),
        "goal": plan.goal,
        "tasks": tasks,
        "edges": plan.edges().len(),
        "groups": plan.groups.len(),
        "valid": valid,
        "problems": problems,
    }))
}

/// `plan_instructions`: the block, its example and its tokens.
pub fn instructions(dialect: DialectId) -> ToolResult {
    let ins = toon_plan::instructions(dialect).map_err(|e| e.to_string())?;
    let tokens = Bpe::o200k_base().ok().map(|b| b.count(&ins.text));
    let mut v = serde_json::to_value(ins).map_err(|e| e.to_string())?;
    v["tokens"] = tokens.into();
    Ok(v)
}
