//! Tasks written as a GFM task list in the body of a Cursor plan without `todos` (half
//! of real plans): `- [ ] **Title** — detail` is a pending task, `- [x] …` a
//! completed one. The bold lead, or else the first sentence, is the title and the rest
//! the description. Items nested under others are tasks too; nesting does not make
//! dependencies (nothing in the file says it means that). Read with pulldown-cmark,
//! so task lists inside code blocks or block quotes' fences are not tasks.
//!
//! A task line that [`render_line`] writes back exactly can be left out of a stored
//! body and restored from its task ([`compact`], [`expand`]), so a plan model holding
//! the tasks as a table does not hold them twice.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use serde_json::{Map, Value};

use crate::model::Task;

/// The tasks of a body's task lists, in document order, with unique ids made from
/// their titles.
pub fn tasks(body: &str) -> Vec<Task> {
    located(body).into_iter().map(|(t, _)| t).collect()
}

/// Where a task's item starts: the byte offset of its list marker.
type Start = usize;

/// [`tasks`], each with the byte offset where its list item starts.
fn located(body: &str) -> Vec<(Task, Start)> {
    let mut out: Vec<(u64, Task, Start)> = Vec::new();
    let mut markers = 0u64;
    // One entry per open list item: its start, and (checked, bold lead, text) of its own
    // paragraph once its task marker is seen.
    let mut stack: Vec<(Start, Option<Item>)> = Vec::new();
    for (event, range) in Parser::new_ext(body, Options::ENABLE_TASKLISTS).into_offset_iter() {
        match event {
            Event::Start(Tag::Item) => stack.push((range.start, None)),
            Event::End(TagEnd::Item) => {
                if let Some((start, Some(item))) = stack.pop() {
                    out.push((item.order, item.into_task(), start));
                }
            }
            Event::TaskListMarker(checked) => {
                if let Some((_, top)) = stack.last_mut() {
                    markers += 1;
                    *top = Some(Item {
                        checked,
                        order: markers,
                        ..Item::default()
                    });
                }
            }
            // Text of a nested list belongs to the nested item.
            Event::Start(Tag::List(_)) => {
                if let Some((_, Some(item))) = stack.last_mut() {
                    item.closed = true;
                }
            }
            Event::Start(Tag::Strong) => {
                with_item(&mut stack, |i| i.in_strong = i.text.trim().is_empty())
            }
            Event::End(TagEnd::Strong) => with_item(&mut stack, |i| {
                if i.in_strong {
                    i.lead = Some(i.text.trim().to_owned());
                    i.text.clear();
                }
                i.in_strong = false;
            }),
            Event::Text(t) => with_item(&mut stack, |i| i.text.push_str(&t)),
            // Inline code keeps its backticks: a title or description is markdown text.
            Event::Code(t) => with_item(&mut stack, |i| {
                let ticks = "`".repeat(longest_run(&t, '`') + 1);
                let pad = if t.starts_with('`') || t.ends_with('`') {
                    " "
                } else {
                    ""
                };
                i.text.push_str(&format!("{ticks}{pad}{t}{pad}{ticks}"));
            }),
            Event::SoftBreak | Event::HardBreak => with_item(&mut stack, |i| i.text.push(' ')),
            _ => {}
        }
    }
    // Items end inner first: back to the order they start in, which the ids follow.
    out.sort_by_key(|(order, ..)| *order);
    let mut out: Vec<(Task, Start)> = out.into_iter().map(|(_, t, s)| (t, s)).collect();
    let mut seen = std::collections::HashSet::new();
    for (n, (t, _)) in out.iter_mut().enumerate() {
        let mut id = slug(t.title.as_deref().unwrap_or(""));
        if id.is_empty() {
            id = format!("task-{}", n + 1);
        }
        let base = id.clone();
        let mut k = 2;
        while !seen.insert(id.clone()) {
            id = format!("{base}-{k}");
            k += 1;
        }
        t.id = id;
    }
    out
}

/// The task-list line of a task, indented by `indent` spaces: `- [x] **Title** — detail`,
/// or `- [ ] Title. Detail` when the title is a sentence (ends with `.`) or has no
/// detail. The line reads back as the same title, description and status.
pub fn render_line(task: &Task, indent: usize) -> String {
    let done = task.status.as_deref() == Some("completed");
    let title = task.title.as_deref().unwrap_or("");
    let mut line = format!("{:indent$}- [{}] ", "", if done { 'x' } else { ' ' });
    match task.description.as_deref() {
        Some(d) if !title.ends_with('.') => {
            line.push_str(&format!("**{title}** — {d}"));
        }
        Some(d) => line.push_str(&format!("{title} {d}")),
        None => line.push_str(title),
    }
    line.push('\n');
    line
}

/// Layout key of a plan model whose body leaves out task lines: one row per task, in
/// task order, `{line, indent}`: the 1-based body line where [`render_line`] of that
/// task goes back, or `null` for a task whose line the body still holds as written.
pub const TASK_LINES: &str = "cursor.task_lines";

/// The body without the lines its tasks restore exactly, and the [`TASK_LINES`] rows
/// that put them back; `None` when `tasks` are not the body's task list or no line can
/// be left out.
pub fn compact(body: &str, tasks: &[Task]) -> Option<(String, Value)> {
    let found = located(body);
    if found.len() != tasks.len() || found.iter().zip(tasks).any(|((f, _), t)| f != t) {
        return None;
    }
    let starts: Vec<usize> = std::iter::once(0)
        .chain(body.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let mut rows = Vec::with_capacity(tasks.len());
    let mut dropped = Vec::new();
    for (task, start) in &found {
        // The item's first line, from the start of its text line through its newline.
        let n = starts.partition_point(|&s| s <= *start) - 1;
        let (from, indent) = (starts[n], start - starts[n]);
        let to = starts.get(n + 1).copied().unwrap_or(body.len());
        let line = &body[from..to];
        let whole = line.ends_with('\n') && !dropped.contains(&n);
        if whole && line == render_line(task, indent) {
            dropped.push(n);
            rows.push(Value::Object(Map::from_iter([
                ("line".to_owned(), Value::from(n + 1)),
                ("indent".to_owned(), Value::from(indent)),
            ])));
        } else {
            rows.push(Value::Object(Map::from_iter([
                ("line".to_owned(), Value::Null),
                ("indent".to_owned(), Value::Null),
            ])));
        }
    }
    if dropped.is_empty() {
        return None;
    }
    let mut kept = String::with_capacity(body.len());
    for (n, line) in body.split_inclusive('\n').enumerate() {
        if !dropped.contains(&n) {
            kept.push_str(line);
        }
    }
    let rows = Value::Array(rows);
    (expand(&kept, &rows, tasks).as_deref() == Some(body)).then_some((kept, rows))
}

/// The body [`compact`] was given, from its result and the same tasks; `None` when the
/// rows do not fit the body and tasks (a damaged or hand-edited layout).
pub fn expand(kept: &str, rows: &Value, tasks: &[Task]) -> Option<String> {
    let rows = rows.as_array()?;
    if rows.len() != tasks.len() {
        return None;
    }
    let mut lines: Vec<std::borrow::Cow<'_, str>> =
        kept.split_inclusive('\n').map(Into::into).collect();
    let mut last = 0;
    for (row, task) in rows.iter().zip(tasks) {
        let (line, indent) = (row.get("line")?, row.get("indent")?);
        if line.is_null() && indent.is_null() {
            continue;
        }
        let (line, indent) = (line.as_u64()? as usize, indent.as_u64()? as usize);
        // Lines go back in ascending order, each at most one past the end so far.
        if line <= last || line > lines.len() + 1 || indent > 1024 {
            return None;
        }
        last = line;
        lines.insert(line - 1, render_line(task, indent).into());
    }
    Some(lines.concat())
}

#[derive(Default)]
struct Item {
    checked: bool,
    lead: Option<String>,
    text: String,
    in_strong: bool,
    /// A nested list started: later text is not this item's.
    closed: bool,
    order: u64,
}

fn with_item(stack: &mut [(Start, Option<Item>)], f: impl FnOnce(&mut Item)) {
    if let Some((_, Some(item))) = stack.last_mut()
        && !item.closed
    {
        f(item);
    }
}

impl Item {
    fn into_task(self) -> Task {
        let rest = self.text.trim();
        let (title, description) = match self.lead {
            Some(lead) => {
                let rest = rest
                    .trim_start_matches(|c: char| c.is_whitespace() || "—–-:.".contains(c))
                    .trim();
                (lead, rest.to_owned())
            }
            None => match rest.find(". ") {
                Some(end) => (
                    rest[..=end].trim().to_owned(),
                    rest[end + 1..].trim().to_owned(),
                ),
                None => (rest.to_owned(), String::new()),
            },
        };
        Task {
            title: Some(title),
            description: (!description.is_empty()).then_some(description),
            status: Some(if self.checked { "completed" } else { "pending" }.to_owned()),
            ..Task::default()
        }
    }
}

/// The length of the longest run of `c` in `s`.
fn longest_run(s: &str, c: char) -> usize {
    s.split(|x| x != c).map(str::len).max().unwrap_or(0)
}

/// `Add the toggle` → `add-the-toggle`.
fn slug(title: &str) -> String {
    let mut s = String::new();
    for c in title.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            s.push(c);
        } else if !s.ends_with('-') && !s.is_empty() {
            s.push('-');
        }
        if s.len() >= 48 {
            break;
        }
    }
    s.trim_end_matches('-').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_list_items_become_tasks() {
        let body = "# Plan\n\n- [ ] **Add the toggle** — put it on the settings page\n\
                    - [x] Create the context. It holds both palettes.\n\
                    - plain bullet, not a task\n\
                    ```\n- [ ] in a code block\n```\n\
                    - [ ] **Add the toggle**: again\n  - [ ] Nested step\n";
        let t = tasks(body);
        let got: Vec<[&str; 4]> = t
            .iter()
            .map(|t| {
                [
                    t.id.as_str(),
                    t.title.as_deref().unwrap_or("-"),
                    t.description.as_deref().unwrap_or("-"),
                    t.status.as_deref().unwrap_or("-"),
                ]
            })
            .collect();
        assert_eq!(
            got,
            [
                [
                    "add-the-toggle",
                    "Add the toggle",
                    "put it on the settings page",
                    "pending"
                ],
                [
                    "create-the-context",
                    "Create the context.",
                    "It holds both palettes.",
                    "completed"
                ],
                ["add-the-toggle-2", "Add the toggle", "again", "pending"],
                ["nested-step", "Nested step", "-", "pending"],
            ]
        );
    }

    #[test]
    fn task_lines_left_out_come_back_byte_for_byte() {
        let body = "# Plan\n\n- [x] **Index** — build the `idx` map\n\
                    - [ ] Create the context. It holds both palettes.\n\
                    - [ ] *Styled* title, kept as written\n\
                    \x20 - [ ] Nested step\n\
                    > - [ ] quoted, kept\n\
                    - [ ] last line without newline";
        let tasks = tasks(body);
        assert_eq!(tasks.len(), 6);
        assert_eq!(tasks[0].description.as_deref(), Some("build the `idx` map"));
        let (kept, rows) = compact(body, &tasks).expect("some lines are left out");
        assert_eq!(
            kept,
            "# Plan\n\n- [ ] *Styled* title, kept as written\n> - [ ] quoted, kept\n\
             - [ ] last line without newline"
        );
        let lines: Vec<Value> = rows
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["line"].clone())
            .collect();
        assert_eq!(
            lines,
            [
                3.into(),
                4.into(),
                Value::Null,
                6.into(),
                Value::Null,
                Value::Null
            ]
        );
        assert_eq!(expand(&kept, &rows, &tasks).as_deref(), Some(body));
    }

    #[test]
    fn compact_refuses_tasks_that_are_not_the_body_list_and_expand_bad_rows() {
        let body = "- [ ] One\n- [ ] Two\n";
        let mut tasks = tasks(body);
        let (kept, rows) = compact(body, &tasks).unwrap();
        assert_eq!(kept, "");
        // An edited title is written into the restored line.
        tasks[1].title = Some("Deux".into());
        assert_eq!(
            expand(&kept, &rows, &tasks).as_deref(),
            Some("- [ ] One\n- [ ] Deux\n")
        );
        assert!(
            compact(body, &tasks).is_none(),
            "tasks differ from the body's list"
        );
        assert!(
            expand(&kept, &rows, &tasks[..1]).is_none(),
            "a row per task"
        );
        let backwards = serde_json::json!([{"line": 2, "indent": 0}, {"line": 1, "indent": 0}]);
        assert!(expand(&kept, &backwards, &tasks).is_none());
        let past_end = serde_json::json!([{"line": 1, "indent": 0}, {"line": 9, "indent": 0}]);
        assert!(expand(&kept, &past_end, &tasks).is_none());
    }

    #[test]
    fn a_body_without_task_lists_has_no_tasks() {
        assert!(tasks("# Title\n\n- a\n- b\n\n1. one\n").is_empty());
    }
}
