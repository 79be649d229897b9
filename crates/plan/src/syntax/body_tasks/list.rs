//! The GFM task lists of a body: each item with a task marker is a task (`- [ ]`
//! pending, `- [x]` completed), titled by its bold lead or first sentence; and the
//! task-list line that writes a task back ([`render_line`]).

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

use super::Start;
use crate::model::Task;

/// [`tasks`](super::tasks), each with the byte offset where its list item starts.
pub(super) fn located(body: &str) -> Vec<(Task, Start)> {
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
    use crate::syntax::body_tasks::tasks;

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
}
