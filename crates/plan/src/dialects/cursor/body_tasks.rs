//! Tasks written as a GFM task list in the body of a Cursor plan without `todos` (half
//! of real plans): `- [ ] **Title** — detail` is a pending task, `- [x] …` a
//! completed one. The bold lead, or else the first sentence, is the title and the rest
//! the description. Items nested under others are tasks too; nesting does not make
//! dependencies (nothing in the file says it means that). Read with pulldown-cmark,
//! so task lists inside code blocks or block quotes' fences are not tasks.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

use crate::model::Task;

/// The tasks of a body's task lists, in document order, with unique ids made from
/// their titles.
pub fn tasks(body: &str) -> Vec<Task> {
    let mut out: Vec<(u64, Task)> = Vec::new();
    let mut markers = 0u64;
    // One entry per open list item: (checked, bold lead, text) of its own paragraph.
    let mut stack: Vec<Option<Item>> = Vec::new();
    for event in Parser::new_ext(body, Options::ENABLE_TASKLISTS) {
        match event {
            Event::Start(Tag::Item) => stack.push(None),
            Event::End(TagEnd::Item) => {
                if let Some(Some(item)) = stack.pop() {
                    out.push((item.order, item.into_task()));
                }
            }
            Event::TaskListMarker(checked) => {
                if let Some(top) = stack.last_mut() {
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
                if let Some(Some(item)) = stack.last_mut() {
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
            Event::Text(t) | Event::Code(t) => with_item(&mut stack, |i| i.text.push_str(&t)),
            Event::SoftBreak | Event::HardBreak => with_item(&mut stack, |i| i.text.push(' ')),
            _ => {}
        }
    }
    // Items end inner first: back to the order they start in, which the ids follow.
    out.sort_by_key(|(order, _)| *order);
    let mut out: Vec<Task> = out.into_iter().map(|(_, t)| t).collect();
    let mut seen = std::collections::HashSet::new();
    for (n, t) in out.iter_mut().enumerate() {
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

fn with_item(stack: &mut [Option<Item>], f: impl FnOnce(&mut Item)) {
    if let Some(Some(item)) = stack.last_mut()
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
    fn a_body_without_task_lists_has_no_tasks() {
        assert!(tasks("# Title\n\n- a\n- b\n\n1. one\n").is_empty());
    }
}
