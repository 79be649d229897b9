//! The markdown file form of a Cursor plan: front matter and body read from the text,
//! the head kept byte for byte through the layout ([`HEAD_PATCH`], [`HEAD_STYLES`],
//! [`KEY_ORDER`], or the whole [`HEAD`]) while it states the plan's facts, and written
//! back.

use serde_json::Value;

use super::{
    BODY_TASKS, BOM, CRLF, HEAD, HEAD_PATCH, HEAD_STYLES, KEY_ORDER, TODOS, front_matter, no_tasks,
    split, styles,
};
use crate::dialects::Read;
use crate::fidelity::{text_patch, toon_numbers};
use crate::model::Plan;
use crate::problem::{Location, Problem};
use crate::syntax::body_tasks;

/// Reads a Cursor markdown file. Never fails: whatever is not front matter is body.
pub fn read_markdown(text: &str) -> Read {
    let s = split::split(text);
    let mut plan = Plan::default();
    let mut warnings = Vec::new();
    let mut todos_given = false;
    let mut written_keys: Vec<String> = Vec::new();
    if let Some(fm) = &s.front_matter {
        let parsed = front_matter::parse(fm, s.front_matter_line);
        warnings = parsed.warnings;
        todos_given = parsed.map.contains_key(TODOS);
        written_keys = parsed.map.keys().cloned().collect();
        front_matter::to_plan(&parsed.map, &mut plan);
    }
    if s.unclosed {
        warnings.push(Problem::error(
            "front-matter",
            Location::Line(1),
            "front matter opens here but no `---` line closes it, so none of it is read \
             (no name, no todos)",
        ));
    }
    if !s.body.is_empty() {
        plan.body = Some(s.body.to_string());
    }
    adopt_body_tasks(&mut plan, todos_given);
    warnings.extend(no_tasks(&plan));
    if s.crlf {
        plan.layout.entries.insert(CRLF.into(), Value::Bool(true));
    }
    if s.bom {
        plan.layout.entries.insert(BOM.into(), Value::Bool(true));
    }
    if write_markdown(&plan) != text {
        if let Some(order) = front_matter::key_order(&written_keys, &front_plan(&plan)) {
            plan.layout.entries.insert(KEY_ORDER.into(), order);
        }
        let mut canonical = front_matter::render_head(&front_plan(&plan));
        let restyled = styles::find(&canonical, &s.head);
        if !restyled.is_empty() {
            let restyled = Value::Object(restyled);
            canonical = styles::apply(&canonical, &restyled).unwrap_or(canonical);
            plan.layout.entries.insert(HEAD_STYLES.into(), restyled);
        }
        let hunks = text_patch::diff(&canonical, &s.head);
        if !hunks.is_empty() {
            plan.layout
                .entries
                .insert(HEAD_PATCH.into(), text_patch::to_value(&hunks));
        }
        if write_markdown(&plan) != text {
            plan.layout.entries.shift_remove(HEAD_PATCH);
            plan.layout.entries.shift_remove(HEAD_STYLES);
            plan.layout.entries.shift_remove(KEY_ORDER);
            plan.layout
                .entries
                .insert(HEAD.into(), Value::String(s.head.clone()));
        }
    }
    Read { plan, warnings }
}

/// A plan without a `todos` list, or with an empty one, takes its tasks from the body's
/// task list (or numbered headings), marked in the layout so that writing it back leaves
/// them in the body. A front matter without `todos` is marked even when the body gives
/// no task: its tasks are the body's, none, and its head has no `todos` line.
/// `todos_given` says whether the front matter has a `todos` key.
pub(super) fn adopt_body_tasks(plan: &mut Plan, todos_given: bool) {
    if !plan.tasks.is_empty() || plan.extra.contains_key(TODOS) {
        plan.layout.entries.shift_remove(BODY_TASKS);
        return;
    }
    let tasks = plan
        .body
        .as_deref()
        .map(body_tasks::tasks)
        .unwrap_or_default();
    if !tasks.is_empty() || !todos_given {
        plan.tasks = tasks;
        plan.layout
            .entries
            .insert(BODY_TASKS.into(), Value::Bool(true));
    }
}

/// The plan as its front matter sees it: without the tasks when they are (still) the
/// body's task list, the same tasks by id in the same order. What a task list cannot
/// say (a status other than done or not, dependencies) is the conversion report's to
/// tell; moving every task into `todos` would take them out of their sections.
pub(super) fn front_plan(plan: &Plan) -> std::borrow::Cow<'_, Plan> {
    let in_body = plan.layout.entries.get(BODY_TASKS) == Some(&Value::Bool(true))
        && plan
            .body
            .as_deref()
            .map(body_tasks::tasks)
            .unwrap_or_default()
            .iter()
            .map(|t| &t.id)
            .eq(plan.tasks.iter().map(|t| &t.id));
    if in_body {
        let mut p = plan.clone();
        p.tasks.clear();
        std::borrow::Cow::Owned(p)
    } else {
        std::borrow::Cow::Borrowed(plan)
    }
}

/// Whether a head states exactly the front-matter facts (title, goal, tasks, other
/// keys) of `front`, numbers compared in TOON form.
fn states_front(head: &str, front: &Plan) -> bool {
    let s = split::split(head);
    let mut facts = Plan::default();
    if let Some(fm) = &s.front_matter {
        front_matter::to_plan(&front_matter::parse(fm, 1).map, &mut facts);
    }
    let same = |facts: &Plan, front: &Plan| {
        facts.title == front.title
            && facts.goal == front.goal
            && facts.tasks == front.tasks
            && facts.extra == front.extra
    };
    same(&facts, front) || same(&toon_numbers::plan(&facts), &toon_numbers::plan(front))
}

/// Writes a plan as a Cursor markdown file.
pub fn write_markdown(plan: &Plan) -> String {
    let front = front_plan(plan);
    let canonical = front_matter::render_head(&front);
    let layout = &plan.layout.entries;
    let kept = match layout.get(HEAD) {
        Some(Value::String(h)) => Some(h.clone()),
        _ => {
            let restyled = match layout.get(HEAD_STYLES) {
                Some(styles) => styles::apply(&canonical, styles),
                None => Some(canonical.clone()),
            };
            match layout.get(HEAD_PATCH) {
                Some(patch) => text_patch::from_value(patch)
                    .zip(restyled)
                    .and_then(|(hunks, base)| text_patch::apply(&base, &hunks)),
                None => restyled.filter(|_| layout.contains_key(HEAD_STYLES)),
            }
        }
    };
    // A kept head is written only while it still says what the plan says.
    let head = match kept {
        Some(h) if states_front(&h, &front) => h,
        _ => canonical,
    };
    let mut text = head;
    if let Some(b) = &plan.body {
        text.push_str(b);
    }
    if plan.layout.entries.get(CRLF) == Some(&Value::Bool(true)) {
        text = text.replace('\n', "\r\n");
    }
    if plan.layout.entries.get(BOM) == Some(&Value::Bool(true)) {
        text.insert(0, '\u{feff}');
    }
    text
}
