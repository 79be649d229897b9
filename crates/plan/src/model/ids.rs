//! Task ids made from titles: for tasks whose source has no ids (a Cursor body's task
//! list), and for a plan-model tasks table written without its `id` column because
//! every id is the one its title gives.

/// The ids tasks get from their titles, in order: a short id per title (its first three
/// words that are not `a`, `the`, `to`, …: `Add the toggle to settings` →
/// `add-toggle-settings`), `task-N` for a task with no words in its title, and `-2`, `-3`, … on repeats, so the ids are unique.
pub fn ids_from_titles<'a>(titles: impl IntoIterator<Item = Option<&'a str>>) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for (n, title) in titles.into_iter().enumerate() {
        let mut id = slug(title.unwrap_or(""));
        if id.is_empty() {
            id = format!("task-{}", n + 1);
        }
        let base = id.clone();
        let mut k = 2;
        while !seen.insert(id.clone()) {
            id = format!("{base}-{k}");
            k += 1;
        }
        out.push(id);
    }
    out
}

/// The id of a subtask: its task's id, a dot, its own id within that task (`3` and `2`
/// → `3.2`). Task Master's reader names subtasks so, and the plan model's flat form
/// writes a subtask by its task and this last part.
pub fn child_id(parent: &str, local: &str) -> String {
    format!("{parent}.{local}")
}

/// The part of `id` after its task's id and the dot ([`child_id`]'s `local`), if `id`
/// is a child id of `parent`.
pub fn child_local<'a>(id: &'a str, parent: &str) -> Option<&'a str> {
    id.strip_prefix(parent)?
        .strip_prefix('.')
        .filter(|l| !l.is_empty())
}

/// The prefix of the ids of group `group`'s tasks in a plan whose groups number their
/// tasks alike (Task Master's tags: `feature:3`), so that ids stay unique in the plan.
pub fn group_prefix(group: &str) -> String {
    format!("{group}:")
}

/// Words an id made from a title leaves out (unless the title has nothing else).
const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "it", "of", "on", "or", "the",
    "to", "with",
];

/// A short id from a title: its first three words that are not [`STOP_WORDS`], lower
/// case, joined by `-`: `Add the toggle to settings` → `add-toggle-settings`.
pub(crate) fn slug(title: &str) -> String {
    let lower = title.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let kept: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| !STOP_WORDS.contains(w))
        .collect();
    let chosen = if kept.is_empty() { &words } else { &kept };
    chosen.iter().take(3).copied().collect::<Vec<_>>().join("-")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_short_unique_and_never_empty() {
        let ids = ids_from_titles([
            Some("Add the toggle to settings page"),
            Some("Add toggle: settings"),
            Some("The"),
            Some("—"),
            None,
        ]);
        assert_eq!(
            ids,
            [
                "add-toggle-settings",
                "add-toggle-settings-2",
                "the",
                "task-4",
                "task-5"
            ]
        );
    }
}
