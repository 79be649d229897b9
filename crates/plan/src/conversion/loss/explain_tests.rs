//! `LossReport::explain` against the straightforward algorithm it replaces (a search
//! of the fills per entry, one `Vec::insert` per empty-text fill: quadratic), on
//! generated reports whose entries are in their documented order (plan, groups, tasks).

use proptest::prelude::*;
use serde_json::Value;

use super::{Change, Loss, LossReport};
use crate::table::fill::{EMPTY_TEXT, Fill, FillKind};

/// The algorithm `explain` must agree with.
fn explain_slowly(report: &mut LossReport, fills: &[Fill]) {
    for l in &mut report.losses {
        if !matches!(l.change, Change::Added | Change::Changed) {
            continue;
        }
        if let Some(f) = fills
            .iter()
            .find(|f| f.owner == l.owner && f.field == l.field)
        {
            l.change = match f.kind {
                FillKind::Derived => Change::Derived,
                FillKind::Defaulted => Change::Defaulted,
                FillKind::Set => Change::Set,
            };
            l.rule = Some(f.rule);
        }
    }
    let rank = |owner: &str| match owner {
        "plan" => 0,
        o if o.starts_with("group ") => 1,
        _ => 2,
    };
    for f in fills.iter().filter(|f| f.rule == EMPTY_TEXT) {
        if report
            .losses
            .iter()
            .any(|l| l.owner == f.owner && l.field == f.field)
        {
            continue;
        }
        let at = match report.losses.iter().rposition(|l| l.owner == f.owner) {
            Some(i) => i + 1,
            None => report
                .losses
                .iter()
                .position(|l| rank(&l.owner) > rank(&f.owner))
                .unwrap_or(report.losses.len()),
        };
        report.losses.insert(
            at,
            Loss {
                owner: f.owner.clone(),
                field: f.field.to_owned(),
                change: Change::Defaulted,
                before: None,
                after: Some(Value::String(String::new())),
                rule: Some(f.rule),
            },
        );
    }
}

const OWNERS: [&str; 7] = [
    "plan", "group a", "group b", "task x", "task y", "task z", "task w",
];
const FIELDS: [&str; 4] = ["title", "target", "tool", "kind"];
const CHANGES: [Change; 4] = [
    Change::Dropped,
    Change::Changed,
    Change::Added,
    Change::Derived,
];

fn rank_of(owner: usize) -> usize {
    match owner {
        0 => 0,
        1 | 2 => 1,
        _ => 2,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn explain_agrees_with_the_straightforward_algorithm(
        mut entries in prop::collection::vec((0..OWNERS.len(), 0..FIELDS.len(), 0..CHANGES.len()), 0..12),
        fills in prop::collection::vec((0..OWNERS.len(), 0..FIELDS.len(), 0..3usize, any::<bool>()), 0..12),
    ) {
        // Entries in the report's order: plan, then groups, then tasks.
        entries.sort_by_key(|(o, _, _)| rank_of(*o));
        let losses: Vec<Loss> = entries
            .iter()
            .map(|&(o, f, c)| Loss {
                owner: OWNERS[o].to_owned(),
                field: FIELDS[f].to_owned(),
                change: CHANGES[c],
                before: None,
                after: None,
                rule: None,
            })
            .collect();
        let fills: Vec<Fill> = fills
            .iter()
            .map(|&(o, f, k, empty)| Fill {
                owner: OWNERS[o].to_owned(),
                field: FIELDS[f],
                kind: [FillKind::Derived, FillKind::Defaulted, FillKind::Set][k],
                rule: if empty { EMPTY_TEXT } else { "a rule" },
            })
            .collect();
        let mut fast = LossReport { losses: losses.clone() };
        fast.explain(&fills);
        let mut slow = LossReport { losses };
        explain_slowly(&mut slow, &fills);
        prop_assert_eq!(fast, slow);
    }
}
