//! Field labels of the layout (`**ID**`, `**Agent**`, …) and what a heading or section
//! can carry exactly.

use super::values::ValueKind;

/// Temporary key for the name a heading gives, until the item's bullets are read.
pub(super) const HEADING: &str = "\u{0}heading";

/// Whether a heading can carry `s` exactly.
pub(super) fn heading_safe(s: &str) -> bool {
    !s.is_empty()
        && s.trim() == s
        && !s.contains(['\n', '\r'])
        && !s.starts_with('#')
        && !s.ends_with('#')
}

/// Whether `**label**` reads back as exactly `label`: no markdown syntax (emphasis,
/// code, links, escapes, entities, HTML), no control characters, no surrounding space,
/// no trailing colon; `_` only after a letter or digit (and other `_`).
pub(super) fn label_safe(s: &str) -> bool {
    let chars: Vec<char> = s.chars().collect();
    !s.is_empty()
        && s.trim() == s
        && !s.ends_with(':')
        && chars.iter().enumerate().all(|(i, &c)| match c {
            '*' | '`' | '\\' | '[' | ']' | '<' | '>' | '&' | '~' => false,
            // A run of `_` after a letter or digit cannot open emphasis (CommonMark
            // §6.2).
            '_' => chars[..i]
                .iter()
                .rev()
                .find(|&&c| c != '_')
                .is_some_and(|c| c.is_alphanumeric()),
            c => !c.is_control(),
        })
}

/// Whether a section body can carry `s` exactly (it is read back trimmed, up to the
/// next heading).
pub(super) fn section_safe(s: &str) -> bool {
    s.trim() == s
        && !s.contains('\r')
        && s.lines().all(|l| {
            let t = l.trim();
            !t.starts_with('#')
                && !t.starts_with("```")
                && !t.starts_with("~~~")
                && !(t.len() >= 2 && (t.chars().all(|c| c == '-') || t.chars().all(|c| c == '=')))
        })
}

pub(super) const TASK_LABELS: &[(&str, &str, ValueKind)] = &[
    ("ID", "id", ValueKind::Text),
    ("Description", "description", ValueKind::Text),
    ("Agent", "agent_type", ValueKind::Text),
    ("Steps", "steps", ValueKind::List),
    ("Dependencies", "dependencies", ValueKind::List),
    ("Tools", "tools_required", ValueKind::List),
    ("Estimated Time", "estimated_time", ValueKind::Seconds),
    ("Name", "name", ValueKind::Text),
];
pub(super) const STEP_LABELS: &[(&str, &str, ValueKind)] = &[
    ("ID", "id", ValueKind::Text),
    ("Task", "task_id", ValueKind::Text),
    ("Action", "action", ValueKind::Text),
    ("Type", "step_type", ValueKind::Text),
    ("Parameters", "parameters", ValueKind::Any),
    ("Timeout", "timeout", ValueKind::Seconds),
    ("Dependencies", "dependencies", ValueKind::List),
    ("Retries", "retry_count", ValueKind::Any),
    ("Name", "name", ValueKind::Text),
];
pub(super) const LABEL_ALIASES: &[(&str, &str)] = &[
    ("agent type", "agent_type"),
    ("tools required", "tools_required"),
    ("step type", "step_type"),
    ("retry count", "retry_count"),
    ("task id", "task_id"),
    ("name", "name"),
];

pub(super) fn key_for_label(label: &str, table: &[(&str, &str, ValueKind)]) -> (String, ValueKind) {
    let lower = label.trim().to_ascii_lowercase();
    for (l, k, kind) in table {
        if l.eq_ignore_ascii_case(&lower) {
            return ((*k).to_owned(), *kind);
        }
    }
    for (alias, k) in LABEL_ALIASES {
        if *alias == lower {
            let kind = table
                .iter()
                .find(|(_, key, _)| key == k)
                .map(|(_, _, kind)| *kind)
                .unwrap_or(ValueKind::Text);
            return ((*k).to_owned(), kind);
        }
    }
    (label.trim().to_owned(), ValueKind::Any)
}

pub(super) fn label_for_key(key: &str, table: &[(&str, &str, ValueKind)]) -> (String, ValueKind) {
    for (l, k, kind) in table {
        if *k == key {
            return ((*l).to_owned(), *kind);
        }
    }
    (key.to_owned(), ValueKind::Any)
}
