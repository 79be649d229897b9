//! Plans organised as numbered headings rather than a checklist (`## 1. Schema`,
//! `## Step 3: Deploy`): the headings of a body outside code blocks, the numbered ones
//! that are its tasks, and the first H1 that is its title.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

use super::Start;
use crate::model::Task;

/// The tasks of a plan organised as numbered headings rather than a checklist: the
/// headings below the title (H2 to H6) that are numbered (`## 1. Schema`, `### 2)
/// API`) or a word and a number (`## Step 3: Deploy`, `### Task 2 — Docs`, `##
/// Directive 4`), at the level that has the most of them. Each is a task titled by
/// the heading's text after its number (the whole heading when nothing follows); the
/// body stays as written. Nothing says a heading's task waits for another's, so none
/// does.
pub fn heading_tasks(body: &str) -> Vec<Task> {
    heading_located(body)
        .0
        .into_iter()
        .map(|(t, _)| t)
        .collect()
}

/// A heading of a body: where it starts, its level (1 to 6) and its text.
pub(super) type Heading = (Start, usize, String);

/// The headings of a body, outside code blocks, in order.
pub(super) fn headings(body: &str) -> Vec<Heading> {
    let mut out: Vec<Heading> = Vec::new();
    let mut open: Option<Heading> = None;
    for (event, range) in Parser::new_ext(body, Options::empty()).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                open = Some((range.start, level as usize, String::new()))
            }
            Event::End(TagEnd::Heading(_)) => out.extend(open.take()),
            Event::Text(t) | Event::Code(t) => {
                if let Some((_, _, text)) = &mut open {
                    text.push_str(&t);
                }
            }
            _ => {}
        }
    }
    out
}

/// [`heading_tasks`], each with where its heading starts, and the level of those
/// headings (0 when there are none).
pub(super) fn heading_located(body: &str) -> (Vec<(Task, Start)>, usize) {
    let numbered: Vec<(Start, usize, String)> = headings(body)
        .into_iter()
        .filter(|(_, level, _)| *level >= 2)
        .filter_map(|(at, level, text)| numbered_title(text.trim()).map(|t| (at, level, t)))
        .collect();
    let mut counts = [0usize; 7];
    for (_, level, _) in &numbered {
        counts[*level] += 1;
    }
    // The level with the most numbered headings; of equal ones, the higher.
    let Some(level) = (2..=6)
        .rev()
        .max_by_key(|&l| counts[l])
        .filter(|&l| counts[l] > 0)
    else {
        return (Vec::new(), 0);
    };
    let found: Vec<(Start, String)> = numbered
        .into_iter()
        .filter(|(_, l, _)| *l == level)
        .map(|(at, _, t)| (at, t))
        .collect();
    let ids = crate::model::ids_from_titles(found.iter().map(|(_, t)| Some(t.as_str())));
    let tasks = found
        .into_iter()
        .zip(ids)
        .map(|((at, title), id)| {
            let task = Task {
                id,
                title: Some(title),
                ..Task::default()
            };
            (task, at)
        })
        .collect();
    (tasks, level)
}

/// The text of a body's first H1 heading (`# Add dark mode`), outside code blocks: the
/// title of a plan that has no `name`.
pub fn body_title(body: &str) -> Option<String> {
    let mut text: Option<String> = None;
    for event in Parser::new_ext(body, Options::empty()) {
        match event {
            Event::Start(Tag::Heading {
                level: pulldown_cmark::HeadingLevel::H1,
                ..
            }) => text = Some(String::new()),
            Event::End(TagEnd::Heading(pulldown_cmark::HeadingLevel::H1)) => {
                if let Some(t) = text.take().map(|t| t.trim().to_owned())
                    && !t.is_empty()
                {
                    return Some(t);
                }
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some(text) = &mut text {
                    text.push_str(&t);
                }
            }
            _ => {}
        }
    }
    None
}

/// The title of a numbered heading: the text after `1.`, `1)`, `Step 1:`, `Task 2 —`,
/// … (the heading itself when nothing follows); `None` when it is not numbered.
fn numbered_title(heading: &str) -> Option<String> {
    let digits = |s: &str| s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = match digits(heading) {
        0 => {
            // One word, then a number: `Step 3`, `Directive 12`.
            let (word, after) = heading.split_once(' ')?;
            if word.is_empty() || !word.chars().all(char::is_alphabetic) {
                return None;
            }
            let after = after.trim_start();
            let n = digits(after);
            if n == 0 {
                return None;
            }
            &after[n..]
        }
        n => {
            let rest = &heading[n..];
            // A bare number followed by text needs its `.` or `)`: `2024 roadmap` is not one.
            if !rest.is_empty() && !rest.starts_with(['.', ')', ':']) {
                return None;
            }
            rest
        }
    };
    // Further numbering (`1.2`) and the separator before the title.
    let title = rest
        .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.')
        .trim_start_matches(|c: char| c.is_whitespace() || ".):—–-".contains(c))
        .trim();
    Some(if title.is_empty() {
        heading.to_owned()
    } else {
        title.to_owned()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::body_tasks::tasks;

    #[test]
    fn the_first_h1_outside_code_is_the_title() {
        let body = "```\n# not this\n```\n\nIntro.\n\n# Add `dark` mode\n\n# Second\n";
        assert_eq!(body_title(body).as_deref(), Some("Add dark mode"));
        assert_eq!(body_title("## Only H2\n"), None);
    }
    #[test]
    fn numbered_headings_are_tasks_when_there_is_no_task_list() {
        let body = "# Migrate billing\n\n## Context\n\nWhy.\n\n## Step 1: Add the schema\n\n\
                    Text.\n\n### 1.1 Detail, not a step\n\n## Step 2 — Backfill\n\n\
                    ## Directive 3\n\n```\n## Step 9: in a code block\n```\n";
        let got: Vec<(String, String)> = tasks(body)
            .into_iter()
            .map(|t| (t.id, t.title.unwrap_or_default()))
            .collect();
        let want = [
            ("add-schema", "Add the schema"),
            ("backfill", "Backfill"),
            ("directive-3", "Directive 3"),
        ];
        assert_eq!(got, want.map(|(a, b)| (a.to_owned(), b.to_owned())));
        // A task list wins over headings.
        assert_eq!(tasks("## Step 1: A\n\n- [ ] B\n").len(), 1);
        let t = tasks("### Task 1\n### Task 2) Docs\n## 3. Ship\n");
        let titles: Vec<_> = t.iter().map(|t| t.title.as_deref().unwrap()).collect();
        assert_eq!(titles, ["Task 1", "Docs"]);
    }
}
