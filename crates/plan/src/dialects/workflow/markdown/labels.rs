//! Field labels of the layout (`**ID**`, `**Agent**`, …) and what a heading or section
//! can carry exactly.

use super::values::ValueKind;
use crate::dialects::workflow::tree::{STEP, TASK};
use crate::table::{Kind, Table};

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
                && !(!t.is_empty() && (t.chars().all(|c| c == '-') || t.chars().all(|c| c == '=')))
        })
}

/// The markdown layout of a workflow task or step: its bullets' labels, in the order
/// they are written, each with the key of the field (in the dialect's field table) it
/// holds. The field table says how its value reads and is written.
pub(super) struct Layout {
    /// The field table of the item.
    pub table: &'static Table,
    /// `(label, key)` in bullet order.
    pub labels: &'static [(&'static str, &'static str)],
}

/// A workflow task's bullets (the order of seed 002's markdown example).
pub(super) const TASK_LABELS: Layout = Layout {
    table: &TASK,
    labels: &[
        ("ID", "id"),
        ("Description", "description"),
        ("Agent", "agent_type"),
        ("Steps", "steps"),
        ("Dependencies", "dependencies"),
        ("Tools", "tools_required"),
        ("Estimated Time", "estimated_time"),
        ("Name", "name"),
    ],
};

/// A workflow step's bullets.
pub(super) const STEP_LABELS: Layout = Layout {
    table: &STEP,
    labels: &[
        ("ID", "id"),
        ("Task", "task_id"),
        ("Action", "action"),
        ("Type", "step_type"),
        ("Parameters", "parameters"),
        ("Timeout", "timeout"),
        ("Dependencies", "dependencies"),
        ("Retries", "retry_count"),
        ("Name", "name"),
    ],
};

impl Layout {
    /// The keys of the labelled fields, in bullet order.
    pub fn keys(&self) -> impl Iterator<Item = &'static str> {
        self.labels.iter().map(|(_, k)| *k)
    }

    /// How the value of the field `key` reads and is written, from its field table: a
    /// string as text, a list of strings as a list, seconds as `30s`, anything else as
    /// JSON.
    fn kind(&self, key: &str) -> ValueKind {
        match self.table.field(key) {
            Some(f) if f.seconds => ValueKind::Seconds,
            Some(f) => match f.kind {
                Kind::Str => ValueKind::Text,
                Kind::Strings => ValueKind::List,
                _ => ValueKind::Any,
            },
            None => ValueKind::Any,
        }
    }
}

/// The key a bullet label stands for, and how its value reads: a label of the layout,
/// or a workflow task's or step's key written with spaces (`Agent Type` for
/// `agent_type`, `Task ID` even under a task, its value then read as text), else the
/// label itself (a field the layout does not name, its value read as JSON).
pub(super) fn key_for_label(label: &str, layout: &Layout) -> (String, ValueKind) {
    let lower = label.trim().to_ascii_lowercase();
    if let Some((_, k)) = layout
        .labels
        .iter()
        .find(|(l, _)| l.eq_ignore_ascii_case(&lower))
    {
        return ((*k).to_owned(), layout.kind(k));
    }
    let spelled = |key: &str| key.replace('_', " ") == lower;
    let by_key = TASK
        .fields
        .iter()
        .chain(STEP.fields)
        .find(|f| f.key.contains('_') && spelled(f.key));
    if let Some(f) = by_key {
        let kind = if layout.table.field(f.key).is_some() {
            layout.kind(f.key)
        } else {
            ValueKind::Text
        };
        return (f.key.to_owned(), kind);
    }
    (label.trim().to_owned(), ValueKind::Any)
}

/// The label a key is written under, and how its value is written.
pub(super) fn label_for_key(key: &str, layout: &Layout) -> (String, ValueKind) {
    match layout.labels.iter().find(|(_, k)| *k == key) {
        Some((l, k)) => ((*l).to_owned(), layout.kind(k)),
        None => (key.to_owned(), ValueKind::Any),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_label_names_a_field_of_its_table() {
        for layout in [&TASK_LABELS, &STEP_LABELS] {
            for (label, key) in layout.labels {
                assert!(layout.table.field(key).is_some(), "{label} → {key}");
            }
            for f in layout.table.fields {
                assert!(layout.keys().any(|k| k == f.key), "{} has no label", f.key);
            }
        }
        assert_eq!(key_for_label("agent type", &TASK_LABELS).0, "agent_type");
        assert_eq!(key_for_label("Task ID", &TASK_LABELS).0, "task_id");
        assert!(matches!(
            key_for_label("Timeout", &STEP_LABELS).1,
            ValueKind::Seconds
        ));
        assert!(matches!(
            key_for_label("Retries", &STEP_LABELS).1,
            ValueKind::Any
        ));
        assert!(matches!(
            key_for_label("Steps", &TASK_LABELS).1,
            ValueKind::List
        ));
    }

    #[test]
    fn a_setext_underline_of_any_length_is_not_section_text() {
        // "a\n-" and "a\n=" are headings in CommonMark: the line under a paragraph
        // needs only one `-` or `=`.
        for text in ["a\n-", "a\n=", "a\n---", "a\n  ==  "] {
            assert!(!section_safe(text), "{text:?}");
        }
        assert!(section_safe("a\n- b"));
        assert!(section_safe("a -\nb ="));
    }
}
