//! The line forms of a Spec Kit `tasks.md`: task lines (`- [x] T012 [P] [US1] Title`),
//! phase headings (`## Phase 3: Name`) and the feature heading (`# Tasks: Feature`).

use super::checklist::check_line;
use super::ids::task_id;
use super::{HEADING, PHASE_HEADING};

/// A task line's parts: `- [x] T012 [P] [US1] Title`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Row<'a> {
    pub(super) indent: usize,
    pub(super) mark: char,
    pub(super) id: &'a str,
    pub(super) parallel: bool,
    pub(super) story: Option<&'a str>,
    pub(super) title: &'a str,
}

/// A label `[US1]`, `[AUTH-US2]` at the start of `s`: its text and what follows.
fn label(s: &str) -> Option<(&str, &str)> {
    let inner = s.strip_prefix('[')?;
    let end = inner.find(']')?;
    let text = &inner[..end];
    let ok = !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    let rest = &inner[end + 1..];
    let rest = match rest.strip_prefix(' ') {
        Some(r) => r,
        None if rest.is_empty() => rest,
        None => return None,
    };
    ok.then_some((text, rest))
}

/// The task a line holds, if any: a checkbox at any indentation, a task id, `[P]`
/// and a story label (in either order), the title.
pub(super) fn task_line(line: &str) -> Option<Row<'_>> {
    let c = check_line(line)?;
    if c.optional {
        return None;
    }
    let (id, mut rest) = match c.rest.split_once(' ') {
        Some((id, rest)) => (id, rest),
        None => (c.rest, ""),
    };
    let id = task_id(id)?;
    let (mut parallel, mut story) = (false, None);
    for _ in 0..2 {
        match label(rest) {
            Some(("P", r)) if !parallel => {
                parallel = true;
                rest = r;
            }
            Some((s, r)) if s != "P" && story.is_none() => {
                story = Some(s);
                rest = r;
            }
            _ => break,
        }
    }
    Some(Row {
        indent: c.indent,
        mark: c.mark,
        id,
        parallel,
        story,
        title: rest,
    })
}

/// A phase heading `## Phase 3: Name`: its number and its name (`## Phase 3:`
/// without a name has none).
pub(super) fn phase(line: &str) -> Option<(&str, Option<&str>)> {
    let rest = line.trim_end_matches('\r').strip_prefix(PHASE_HEADING)?;
    let (number, after) = rest.split_once(':')?;
    let name = match after.strip_prefix(' ') {
        Some(name) => Some(name),
        None if after.is_empty() => None,
        None => return None,
    };
    let ok = !number.is_empty() && !number.contains(char::is_whitespace);
    ok.then_some((number, name))
}

/// The feature of a `# Tasks: Feature` heading.
pub(super) fn feature(line: &str) -> Option<&str> {
    let rest = line.trim_end_matches('\r').strip_prefix("# ")?;
    rest.strip_prefix(HEADING)?.strip_prefix(": ")
}
