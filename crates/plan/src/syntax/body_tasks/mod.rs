//! Tasks written as a GFM task list in the body of a Cursor plan without `todos` (half
//! of real plans): `- [ ] **Title** — detail` is a pending task, `- [x] …` a
//! completed one. The bold lead, or else the first sentence, is the title and the rest
//! the description. Items nested under others are tasks too; nesting does not make
//! dependencies (nothing in the file says it means that). Read with pulldown-cmark,
//! so task lists inside code blocks or block quotes' fences are not tasks. A body
//! without a task list gives its numbered headings as tasks instead.
//!
//! The task lists are read in [`mod@list`], the headings in [`mod@headings`]; a task
//! line that the list writes back exactly can be left out of a stored body and restored
//! from its task ([`mod@compact`]).
//!
//! It knows markdown and the model only, below the dialects: the Cursor dialect reads
//! and writes with it, and the plan model's document compacts and expands with it.

mod compact;
mod headings;
mod list;

use crate::model::Task;

pub use compact::{LAYOUT_KEYS, compact, expand, leaves_out_every_line};
pub use headings::body_title;
use headings::{Heading, heading_located, heading_tasks, headings};
use list::located;

/// The tasks of a body's task lists, in document order, with unique ids made from
/// their titles; a body without a task list gives its numbered headings instead
/// ([`heading_tasks`]).
pub fn tasks(body: &str) -> Vec<Task> {
    let listed: Vec<Task> = located(body).into_iter().map(|(t, _)| t).collect();
    if listed.is_empty() {
        heading_tasks(body)
    } else {
        listed
    }
}

/// For each of [`tasks`], the text of the heading of the section it is in: the nearest
/// heading before it below the title (H2 to H6), and above its own level for a task
/// that is a numbered heading; `None` for a task before any such heading. The sections
/// a dialect with groups makes groups of.
pub fn task_sections(body: &str) -> Vec<Option<String>> {
    let listed = located(body);
    let (starts, own_level): (Vec<Start>, usize) = if listed.is_empty() {
        let (found, level) = heading_located(body);
        (found.into_iter().map(|(_, at)| at).collect(), level)
    } else {
        (listed.into_iter().map(|(_, at)| at).collect(), 7)
    };
    let sections: Vec<Heading> = headings(body)
        .into_iter()
        .filter(|(_, level, text)| (2..own_level).contains(level) && !text.trim().is_empty())
        .collect();
    starts
        .into_iter()
        .map(|at| {
            let k = sections.partition_point(|(h, ..)| *h < at);
            k.checked_sub(1).map(|k| sections[k].2.trim().to_owned())
        })
        .collect()
}

/// Where a task's item starts: the byte offset of its list marker.
type Start = usize;

/// Layout key: the tasks are the body's task list (the front matter has no `todos`).
pub const BODY_TASKS: &str = "cursor.body_tasks";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_task_is_in_the_section_of_the_heading_above_it() {
        let body = "# Plan\n\n- [ ] Before any section\n\n## Phase 1: Data\n\n- [ ] A\n  - [ ] B\n\n\
                    ## Phase 2\n\nText.\n\n### Detail\n\n- [ ] C\n";
        let got = task_sections(body);
        assert_eq!(
            got,
            [
                None,
                Some("Phase 1: Data".into()),
                Some("Phase 1: Data".into()),
                Some("Detail".into())
            ]
        );
        assert_eq!(got.len(), tasks(body).len());
        // Numbered headings: the section is a heading above their level.
        let headed =
            "# T\n\n## Backend\n\n### 1. Schema\n\n### 2. API\n\n## Frontend\n\n### 3. Page\n";
        assert_eq!(
            task_sections(headed),
            [
                Some("Backend".into()),
                Some("Backend".into()),
                Some("Frontend".into())
            ]
        );
        assert_eq!(task_sections("## 1. One\n## 2. Two\n"), [None, None]);
    }
    #[test]
    fn a_body_without_task_lists_has_no_tasks() {
        assert!(tasks("# Title\n\n- a\n- b\n\n1. one\n").is_empty());
        assert!(tasks("# Title\n\n## Context\n\n## 2024 roadmap\n").is_empty());
    }
}
