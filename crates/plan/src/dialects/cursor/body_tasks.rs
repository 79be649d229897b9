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
    let ids = crate::model::ids_from_titles(out.iter().map(|(t, _)| t.title.as_deref()));
    for ((t, _), id) in out.iter_mut().zip(ids) {
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

/// Layout key of a plan model whose body leaves out task lines: runs of tasks, in task
/// order, `{line, count, indent}`: the next `count` tasks' lines ([`render_line`], all
/// indented by `indent` spaces) go back as body lines `line`, `line + 1`, … (1-based);
/// a run with `line` and `indent` null is tasks whose lines the body holds as written.
pub const TASK_LINES: &str = "cursor.task_lines";

/// Where one task's line goes back: its 1-based body line and its indentation, or
/// `None` when the body keeps the line as written.
type Place = Option<(usize, usize)>;

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
    let mut places: Vec<Place> = Vec::with_capacity(tasks.len());
    let mut dropped = std::collections::HashSet::new();
    for (task, start) in &found {
        // The item's first line, from the start of its text line through its newline.
        let n = starts.partition_point(|&s| s <= *start) - 1;
        let (from, indent) = (starts[n], start - starts[n]);
        let to = starts.get(n + 1).copied().unwrap_or(body.len());
        let line = &body[from..to];
        let whole = line.ends_with('\n') && !dropped.contains(&n);
        if whole && line == render_line(task, indent) {
            dropped.insert(n);
            places.push(Some((n + 1, indent)));
        } else {
            places.push(None);
        }
    }
    if dropped.is_empty() {
        return None;
    }
    let kept: String = body
        .split_inclusive('\n')
        .enumerate()
        .filter(|(n, _)| !dropped.contains(n))
        .map(|(_, line)| line)
        .collect();
    let rows = Value::Array(runs(&places));
    (expand(&kept, &rows, tasks).as_deref() == Some(body)).then_some((kept, rows))
}

/// Consecutive places as `{line, count, indent}` runs: kept lines together, and
/// restored lines that follow each other with the same indentation.
fn runs(places: &[Place]) -> Vec<Value> {
    let mut out: Vec<(Place, usize)> = Vec::new();
    for &place in places {
        match (out.last_mut(), place) {
            (Some((None, count)), None) => *count += 1,
            (Some((Some((line, indent)), count)), Some((l, i)))
                if l == *line + *count && i == *indent =>
            {
                *count += 1
            }
            _ => out.push((place, 1)),
        }
    }
    out.into_iter()
        .map(|(place, count)| {
            let (line, indent) = match place {
                Some((l, i)) => (Value::from(l), Value::from(i)),
                None => (Value::Null, Value::Null),
            };
            Value::Object(Map::from_iter([
                ("line".to_owned(), line),
                ("count".to_owned(), Value::from(count)),
                ("indent".to_owned(), indent),
            ]))
        })
        .collect()
}

/// The body [`compact`] was given, from its result and the same tasks; `None` when the
/// rows do not fit the body and tasks (a damaged or hand-edited layout).
pub fn expand(kept: &str, rows: &Value, tasks: &[Task]) -> Option<String> {
    let mut places: Vec<Place> = Vec::with_capacity(tasks.len());
    for row in rows.as_array()? {
        let count = usize::try_from(row.get("count")?.as_u64()?).ok()?;
        if count > tasks.len() - places.len() {
            return None;
        }
        let (line, indent) = (row.get("line")?, row.get("indent")?);
        if line.is_null() && indent.is_null() {
            places.extend(std::iter::repeat_n(None, count));
            continue;
        }
        let line = usize::try_from(line.as_u64()?).ok()?;
        let indent = usize::try_from(indent.as_u64()?)
            .ok()
            .filter(|&i| i <= 1024)?;
        places.extend((0..count).map(|k| Some((line + k, indent))));
    }
    if places.len() != tasks.len() {
        return None;
    }
    // Merge: kept lines fill the body until the next restored line's number.
    let mut out = String::with_capacity(kept.len() + 64 * tasks.len());
    let mut rest = kept.split_inclusive('\n');
    let mut next = 1;
    for (place, task) in places.iter().zip(tasks) {
        let Some((line, indent)) = *place else {
            continue;
        };
        if line < next {
            return None;
        }
        while next < line {
            out.push_str(rest.next()?);
            next += 1;
        }
        out.push_str(&render_line(task, indent));
        next += 1;
    }
    rest.for_each(|line| out.push_str(line));
    Some(out)
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
                    "add-toggle",
                    "Add the toggle",
                    "put it on the settings page",
                    "pending"
                ],
                [
                    "create-context",
                    "Create the context.",
                    "It holds both palettes.",
                    "completed"
                ],
                ["add-toggle-2", "Add the toggle", "again", "pending"],
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
        assert_eq!(
            rows,
            serde_json::json!([
                {"line": 3, "count": 2, "indent": 0},
                {"line": null, "count": 1, "indent": null},
                {"line": 6, "count": 1, "indent": 2},
                {"line": null, "count": 2, "indent": null},
            ])
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
            "rows for every task"
        );
        let run = |line: usize, count: usize| serde_json::json!({"line": line, "count": count, "indent": 0});
        let backwards = serde_json::json!([run(2, 1), run(1, 1)]);
        assert!(expand(&kept, &backwards, &tasks).is_none());
        let past_end = serde_json::json!([run(1, 1), run(9, 1)]);
        assert!(expand(&kept, &past_end, &tasks).is_none());
        let too_many = serde_json::json!([run(1, 3)]);
        assert!(expand(&kept, &too_many, &tasks).is_none());
    }

    #[test]
    fn a_body_without_task_lists_has_no_tasks() {
        assert!(tasks("# Title\n\n- a\n- b\n\n1. one\n").is_empty());
    }
}
