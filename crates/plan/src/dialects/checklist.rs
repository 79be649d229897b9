//! What the markdown task-list dialects (Kiro, Spec Kit) share: the checkbox line
//! (`- [x] …`), the status its box says, the box a status writes, and keeping a file
//! byte for byte (the lines where it differs from the canonical rendering, as a text
//! patch, applied while the file still says what the plan says).

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use crate::fidelity::text_patch;
use crate::model::Plan;
use crate::problem::{Location, Problem};

/// A checkbox list item: `- [ ] rest`, indented by `indent` columns (a tab counts 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CheckLine<'a> {
    /// Its indentation.
    pub indent: usize,
    /// The character in the box.
    pub mark: char,
    /// The text after `] ` (and after the `*` of an optional Kiro task, which
    /// [`CheckLine::optional`] tells).
    pub rest: &'a str,
    /// Whether the box is followed by `*` (a Kiro optional task).
    pub optional: bool,
}

/// The checkbox item a line holds, if any: `-`, `*` or `+`, a space, a box of one
/// character (` `, `x`, `X`, `-`, `~`), an optional `*`, a space.
pub(crate) fn check_line(line: &str) -> Option<CheckLine<'_>> {
    let trimmed = line.trim_start_matches([' ', '\t']);
    let lead = &line[..line.len() - trimmed.len()];
    let indent = lead.chars().map(|c| if c == '\t' { 4 } else { 1 }).sum();
    let rest = trimmed.strip_prefix(['-', '*', '+'])?.strip_prefix(' ')?;
    let rest = rest.strip_prefix('[')?;
    let mut chars = rest.chars();
    let mark = chars.next()?;
    if !matches!(mark, ' ' | 'x' | 'X' | '-' | '~') {
        return None;
    }
    let rest = chars.as_str().strip_prefix(']')?;
    let (optional, rest) = match rest.strip_prefix('*') {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let rest = rest.strip_prefix(' ')?;
    Some(CheckLine {
        indent,
        mark,
        rest: rest.trim_end_matches('\r'),
        optional,
    })
}

/// Task lines written again: a task list edited in an IDE may hold the same task twice
/// (`- [x] 2.5 Title`, further down `- [ ] 2.5 Title`). The first is the task; a later
/// line with the same id and title is left for the layout, with a warning.
#[derive(Default)]
pub(crate) struct Repeats<'a> {
    first: HashMap<(&'a str, &'a str), usize>,
}

impl<'a> Repeats<'a> {
    /// The line of the task's first writing when line `line` writes it again.
    pub fn again(&mut self, id: &'a str, title: &'a str, line: usize) -> Option<usize> {
        match self.first.entry((id, title)) {
            Entry::Occupied(e) => Some(*e.get()),
            Entry::Vacant(v) => {
                v.insert(line);
                None
            }
        }
    }
}

/// The ids a file's tasks (or phases) are read with: a task list extended by hand may
/// number a task (or a phase) again with another title (Spec Kit's `T034` in an "Added
/// Tasks" section and again in a later phase; Kiro's `3.` again under a later
/// heading). The first keeps its id; a later one is a task of its own, `T034-2` (then
/// `-3`, …, the first suffix no other is read with), and the file is written back with
/// the id as written (the layout's text patch). The same id with the same title is a
/// task written again ([`Repeats`]), not a task of its own.
#[derive(Default)]
pub(crate) struct OwnIds {
    /// Each id read so far, with the line it was first written at.
    taken: HashMap<String, usize>,
    /// Per id written again, the suffix to try next (so a file numbering one id again
    /// and again is read in linear time).
    next: HashMap<String, usize>,
}

impl OwnIds {
    /// The id of the item written as `id` at `line`, and the line of its first
    /// writing when `id` was written before.
    pub fn place(&mut self, id: &str, line: usize) -> (String, Option<usize>) {
        let Some(&first) = self.taken.get(id) else {
            self.taken.insert(id.to_owned(), line);
            return (id.to_owned(), None);
        };
        let k = self.next.entry(id.to_owned()).or_insert(2);
        loop {
            let candidate = format!("{id}-{k}");
            *k += 1;
            if let Entry::Vacant(v) = self.taken.entry(candidate) {
                let own = v.key().clone();
                v.insert(line);
                return (own, Some(first));
            }
        }
    }
}

/// The warning for a task numbered `id` again with another title at `line` (first at
/// `first`), read as a task of its own, `own` ([`OwnIds`]).
pub(crate) fn renumbered(id: &str, own: &str, line: usize, first: usize) -> Problem {
    Problem::warning(
        "unique-ids",
        Location::Line(line),
        format!(
            "task {id} is numbered again with another title (first at line {first}): it is \
             read as a task of its own, {own}"
        ),
    )
}

/// The warning for a task written again at `line`, first at `first`.
pub(crate) fn repeated(id: &str, line: usize, first: usize) -> Problem {
    Problem::warning(
        "repeated-task",
        Location::Line(line),
        format!("task {id:?} is written again (first at line {first}): it is read once"),
    )
}

/// A message naming nodes by their paths `[N]` (N a line) with them named by line.
pub(crate) fn lines_in(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find("at [") {
        let after = &rest[at + 4..];
        match after.find(']') {
            Some(end) if end > 0 && after[..end].bytes().all(|b| b.is_ascii_digit()) => {
                out.push_str(&rest[..at]);
                out.push_str("at line ");
                out.push_str(&after[..end]);
                rest = &after[end + 1..];
            }
            _ => {
                out.push_str(&rest[..at + 4]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Problems of nodes located as `[N]` (N the 1-based line) located at their lines.
pub(crate) fn at_lines(problems: Vec<Problem>) -> Vec<Problem> {
    problems
        .into_iter()
        .map(|mut p| {
            if let Location::Path(path) = &p.location
                && let Some(line) = path
                    .strip_prefix('[')
                    .and_then(|r| r.split(']').next())
                    .and_then(|n| n.parse().ok())
            {
                p.location = Location::Line(line);
            }
            p.message = lines_in(&p.message);
            p
        })
        .collect()
}

/// The label of a task's dependencies line (`_Depends on: 1, 2.1_`): Kiro and Spec
/// Kit run tasks in order and write none; a plan whose dependencies say otherwise
/// keeps them in this line, under the task.
pub(crate) const DEPENDS_ON: &str = "Depends on";

/// The items of a `_Label: a, b_` bullet (`- ` optional, indented or not).
pub(crate) fn labelled(line: &str, label: &str) -> Option<Vec<String>> {
    let t = line.trim_start();
    let t = t.strip_prefix("- ").unwrap_or(t).trim_end();
    let inner = t
        .strip_prefix('_')?
        .strip_prefix(label)?
        .strip_prefix(':')?
        .strip_suffix('_')?;
    Some(
        inner
            .split(',')
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .map(str::to_owned)
            .collect(),
    )
}

/// Whether `id` is one a markdown task list can write as a task's number with a
/// final `.` (`setup-db.`, `tag:3.`): letters, digits, `_`, `-`, `:` and `.` (the ids
/// of other dialects, kept when a plan is written as Kiro or Spec Kit).
pub(crate) fn is_id_like(id: &str) -> bool {
    !id.is_empty()
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b':'))
}

/// The status a box says: `pending`, `completed` (`x`, `X`), `in_progress` (`-`, `~`).
pub(crate) fn status_of(mark: char) -> &'static str {
    match mark {
        'x' | 'X' => "completed",
        '-' | '~' => "in_progress",
        _ => "pending",
    }
}

/// The box a status writes (the inverse of [`status_of`] on its statuses; Task
/// Master's `done` and `in-progress` alike).
pub(crate) fn mark_of(status: Option<&str>) -> char {
    match status {
        Some("completed" | "done") => 'x',
        Some("in_progress" | "in-progress") => '-',
        _ => ' ',
    }
}

/// Keeps in the plan's layout, under `key`, the lines where `text` differs from the
/// canonical rendering (`render`).
pub(crate) fn keep_text(plan: &mut Plan, key: &str, text: &str, render: fn(&Plan) -> String) {
    text_patch::keep(plan, key, text, |p| write(p, key, render, facts_of_none));
}

/// A reader that never confirms a text: used only while the patch is being made (the
/// patched text is the file itself then, and is checked by comparing it with it).
fn facts_of_none(_: &str) -> Option<Plan> {
    None
}

/// The plan written as its file: the canonical rendering with the kept lines put back,
/// when the result still reads (`read`) as the plan (its layout aside).
pub(crate) fn write(
    plan: &Plan,
    key: &str,
    render: fn(&Plan) -> String,
    read: fn(&str) -> Option<Plan>,
) -> String {
    text_patch::patched(plan, key, render(plan), |text| {
        let Some(mut back) = read(text) else {
            // While the patch is made, the text it gives is the file itself.
            return true;
        };
        let mut plan = plan.clone();
        back.layout = Default::default();
        plan.layout = Default::default();
        back.set_source_dialect(None);
        plan.set_source_dialect(None);
        back == plan
    })
}
