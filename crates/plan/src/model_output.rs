//! Reading a plan from a model's answer, as models write it: the plan in a fenced block
//! (```` ```toon ````, ```` ``` ```` or `~~~`) or bare with prose before and after it,
//! read leniently (non-strict TOON, spec §14: declared lengths are advisory), then
//! validated. Every problem is one short line with its location in the answer (a line,
//! or a path into the plan), to send back to the model as it is.

use serde::Serialize;
use toon::decode::{Event, EventReader, ValueBuilder};
use toon::{DecodeOptions, Value};

use crate::dialects::DialectId;
use crate::model::Plan;
use crate::problem::{Location, Problem};
use crate::syntax::format::{Document, Format};

/// Where in the answer the plan was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Found {
    /// In a fenced code block.
    Fence,
    /// As bare text among prose.
    Bare,
}

/// A plan read from a model's answer.
#[derive(Clone, Debug, Serialize)]
pub struct ModelAnswer {
    /// The dialect it was read as.
    pub dialect: String,
    /// How the plan text was found.
    pub found: Found,
    /// The 1-based line of the answer where the plan text starts.
    pub first_line: usize,
    /// The plan text as taken from the answer.
    pub text: String,
    /// The plan, when the text decodes and reads as the dialect.
    pub plan: Option<Plan>,
    /// Every problem, one short located line each (`line 4: warning: …`).
    pub lines: Vec<String>,
    /// Whether no problem is an error.
    pub valid: bool,
    /// The problems, typed.
    #[serde(skip)]
    pub problems: Vec<Problem>,
}

/// Reads the plan in `answer` as `dialect`: see the [module](self) documentation.
pub fn read_model_output(answer: &str, dialect: DialectId) -> ModelAnswer {
    let root_keys: Vec<&str> = dialect
        .dialect()
        .table()
        .map(|t| t.fields.iter().map(|f| f.key).collect())
        .unwrap_or_default();
    let (found, first, text) = extract(answer, &root_keys);
    let offset = first - 1;
    let mut problems = Vec::new();
    let value = if text.trim().is_empty() {
        let message = if answer.trim().is_empty() {
            "the answer is empty: there is no plan in it"
        } else {
            "the plan text taken from the answer is empty: there is no plan in it"
        };
        problems.push(Problem::error("empty", Location::Document, message));
        None
    } else {
        decode(&text, offset, &mut problems)
    };
    problems.sort_by_key(|p| match p.location {
        Location::Line(n) => n,
        _ => 0,
    });
    let plan = match value {
        Some(value) => read(value, dialect, &text, offset, &mut problems),
        None => None,
    };
    let valid = !problems.iter().any(Problem::is_error);
    ModelAnswer {
        dialect: dialect.name().to_owned(),
        found,
        first_line: first,
        lines: problems.iter().map(ToString::to_string).collect(),
        text,
        plan,
        valid,
        problems,
    }
}

/// The plan's text: the first fenced block marked `toon`, else the first fenced block,
/// else the run of lines that starts at a top-level line naming one of `root_keys` and
/// goes on through indented, blank and top-level key lines. Returns how it was found,
/// its first line (1-based) and the text (line ends without CR).
fn extract(answer: &str, root_keys: &[&str]) -> (Found, usize, String) {
    let lines: Vec<&str> = answer
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let blocks = fences(&lines);
    let chosen = blocks
        .iter()
        .find(|(info, _, _)| info.eq_ignore_ascii_case("toon"))
        .or_else(|| blocks.first());
    if let Some(&(_, start, end)) = chosen {
        return (Found::Fence, start + 1, join(&lines[start..end]));
    }
    let is_root = |l: &str| {
        root_keys.iter().any(|k| {
            l.strip_prefix(k)
                .is_some_and(|rest| rest.starts_with(':') || rest.starts_with('['))
        })
    };
    let Some(start) = lines.iter().position(|l| is_root(l)) else {
        return (Found::Bare, 1, join(&lines));
    };
    let mut end = start + 1;
    while end < lines.len() {
        let l = lines[end];
        if l.trim().is_empty() || l.starts_with(' ') || l.starts_with('\t') || is_root(l) {
            end += 1;
        } else {
            break;
        }
    }
    while end > start + 1 && lines[end - 1].trim().is_empty() {
        end -= 1;
    }
    (Found::Bare, start + 1, join(&lines[start..end]))
}

/// Fenced blocks: (info string, first content line, end) as line indexes; a block the
/// answer does not close runs to its end.
fn fences<'a>(lines: &[&'a str]) -> Vec<(&'a str, usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim_start();
        let mark = ["```", "~~~"].into_iter().find(|m| t.starts_with(m));
        let Some(mark) = mark else {
            i += 1;
            continue;
        };
        let fence_char = mark.as_bytes()[0] as char;
        let len = t.chars().take_while(|&c| c == fence_char).count();
        let info = t[len..].trim();
        let start = i + 1;
        let mut end = start;
        while end < lines.len() {
            let c = lines[end].trim();
            if c.len() >= len && c.chars().all(|ch| ch == fence_char) {
                break;
            }
            end += 1;
        }
        out.push((info, start, end));
        i = end + 1;
    }
    out
}

fn join(lines: &[&str]) -> String {
    let mut s = lines.join("\n");
    s.push('\n');
    s
}

/// A list being read: its key, declared length, items so far and header line.
struct OpenList {
    key: String,
    declared: usize,
    items: usize,
    line: usize,
}

/// Decodes `text` non-strictly; each declared length that differs from the items is a
/// warning with the actual count, a syntax error an error (lines shifted by `offset`).
fn decode(text: &str, offset: usize, problems: &mut Vec<Problem>) -> Option<Value> {
    let options = DecodeOptions::default().with_strict(false);
    let mut reader = EventReader::new(text.as_bytes(), &options);
    let mut builder = ValueBuilder::new();
    // `None` for an open object.
    let mut open: Vec<Option<OpenList>> = Vec::new();
    let mut key = String::new();
    loop {
        let event = match reader.next_event() {
            Ok(Some(e)) => e,
            Ok(None) => return None,
            Err(e) => {
                let at = e
                    .line()
                    .map_or(Location::Document, |l| Location::Line(l + offset));
                let message = format!("invalid TOON: {}", e.message());
                problems.push(Problem::error("syntax", at, message).with_column(e.column()));
                return None;
            }
        };
        if matches!(
            event,
            Event::StartObject | Event::StartArray { .. } | Event::Primitive(_)
        ) && let Some(Some(list)) = open.last_mut()
        {
            list.items += 1;
        }
        match &event {
            Event::Key(k) => key.clone_from(k),
            Event::StartObject => open.push(None),
            Event::StartArray { len } => open.push(Some(OpenList {
                key: std::mem::take(&mut key),
                declared: *len,
                items: 0,
                line: reader.line_number() + offset,
            })),
            Event::EndArray => {
                if let Some(Some(list)) = open.pop()
                    && list.items != list.declared
                {
                    let name = if list.key.is_empty() {
                        "the list".to_owned()
                    } else {
                        format!("`{}`", list.key)
                    };
                    problems.push(Problem::warning(
                        "length",
                        Location::Line(list.line),
                        format!(
                            "{name} declares [{}] but has {} item(s): write [{}]",
                            list.declared, list.items, list.items
                        ),
                    ));
                }
            }
            Event::EndObject => {
                open.pop();
            }
            Event::Primitive(_) => {}
        }
        match builder.push(event) {
            Ok(Some(v)) => return Some(v),
            Ok(None) => {}
            Err(_) => return None,
        }
    }
}

/// Reads the decoded value as `dialect` and validates it.
/// Reads the decoded answer as a plan of `dialect`; its problems are placed in the
/// answer's lines (`text` starts after `offset` lines of the answer).
fn read(
    value: Value,
    dialect: DialectId,
    text: &str,
    offset: usize,
    problems: &mut Vec<Problem>,
) -> Option<Plan> {
    let document = Document::from_toon(value);
    match dialect.dialect().read(&document) {
        Ok(read) => {
            let mut plan = read.plan;
            plan.set_source_dialect(Some(dialect));
            let loaded = crate::Loaded {
                dialect,
                format: Format::Toon,
                document,
                plan,
                warnings: read.warnings,
                text: Some(text.to_owned()),
                source_name: None,
            };
            problems.extend(crate::validate(&loaded).into_iter().map(|mut p| {
                if let Some(at) = &mut p.position {
                    at.line += offset;
                }
                p
            }));
            Some(loaded.plan)
        }
        Err(e) => {
            problems.push(Problem::error("dialect", e.location.clone(), e.message));
            None
        }
    }
}
