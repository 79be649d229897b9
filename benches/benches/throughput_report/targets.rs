//! The speed targets of the performance issue: which ratio of two implementations must
//! reach what, on which datasets, and which targets a report misses.

use crate::results::{Imp, Report, Row, Timings};

/// A target on a speed ratio: `ours` against `other`, at least `at_least` where it
/// applies, or at least `elsewhere` on the other rows (`None`: no target there).
pub struct Target {
    /// The column title.
    pub title: &'static str,
    /// Ours, the faster one wanted.
    pub ours: Imp,
    /// The implementation compared with.
    pub other: Imp,
    /// The ratio wanted where `applies`.
    pub at_least: f64,
    /// The datasets `at_least` is wanted on.
    pub applies: fn(&Row) -> bool,
    /// The ratio wanted on the other datasets, if any.
    pub elsewhere: Option<f64>,
}

const ALWAYS: fn(&Row) -> bool = |_| true;

impl Target {
    /// A target on every dataset.
    const fn every(title: &'static str, ours: Imp, other: Imp, at_least: f64) -> Self {
        Target {
            title,
            ours,
            other,
            at_least,
            applies: ALWAYS,
            elsewhere: None,
        }
    }

    /// The ratio wanted on `row`'s dataset, if any.
    pub fn goal(&self, row: &Row) -> Option<f64> {
        if (self.applies)(row) {
            Some(self.at_least)
        } else {
            self.elsewhere
        }
    }
}

/// The decode targets: `toon → Value` ≥ serde_json → Value on every dataset and ≥ 1.5× on
/// tabular ones, ≥ 5× toon-format; typed decode ≥ serde_json typed on tabular datasets and
/// ≥ 0.7× elsewhere; `from_str::<serde_json::Value>` ≥ serde_json's parse. The TS reference
/// ratio is shown without one.
pub const DECODE_TARGETS: [Target; 5] = [
    Target {
        title: "Value vs serde_json → Value (≥ 1×; tabular ≥ 1.5×)",
        ours: Imp::OursValue,
        other: Imp::SerdeValue,
        at_least: 1.5,
        applies: Row::is_tabular,
        elsewhere: Some(1.0),
    },
    Target::every(
        "Value vs toon-format (≥ 5×)",
        Imp::OursValue,
        Imp::Peer,
        5.0,
    ),
    Target {
        title: "structs vs serde_json → structs (tabular ≥ 1×; else ≥ 0.7×)",
        ours: Imp::OursTyped,
        other: Imp::SerdeTyped,
        at_least: 1.0,
        applies: Row::is_tabular,
        elsewhere: Some(0.7),
    },
    Target::every(
        "`from_str::<serde_json::Value>` vs serde_json → Value (≥ 1×)",
        Imp::OursSerdeValue,
        Imp::SerdeValue,
        1.0,
    ),
    Target {
        title: "Value vs TS reference",
        ours: Imp::OursValue,
        other: Imp::Ts,
        at_least: 0.0,
        applies: |_| false,
        elsewhere: None,
    },
];

/// The encode targets: `encode_value` ≥ serde_json compact on every dataset, `to_string` of
/// typed structs and of a `serde_json::Value` ≥ 0.8× serde_json's compact `to_string` of
/// the same, and (no regression) ≥ 10× toon-format.
pub const ENCODE_TARGETS: [Target; 4] = [
    Target::every(
        "Value vs serde_json compact (≥ 1×)",
        Imp::OursValue,
        Imp::SerdeValue,
        1.0,
    ),
    Target::every(
        "structs vs serde_json structs (≥ 0.8×)",
        Imp::OursTyped,
        Imp::SerdeTyped,
        0.8,
    ),
    Target::every(
        "`to_string(&serde_json::Value)` vs serde_json compact (≥ 0.8×)",
        Imp::OursSerdeValue,
        Imp::SerdeValue,
        0.8,
    ),
    Target::every(
        "Value vs toon-format (≥ 10×)",
        Imp::OursValue,
        Imp::Peer,
        10.0,
    ),
];

/// Which way a target measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// TOON (or JSON) text to a value.
    Decode,
    /// A value to TOON (or JSON) text.
    Encode,
}

impl Direction {
    /// The word used in headings.
    pub fn word(self) -> &'static str {
        match self {
            Direction::Decode => "decode",
            Direction::Encode => "encode",
        }
    }

    /// The targets of this direction and the timings they read.
    pub fn targets(self) -> (&'static [Target], fn(&Row) -> &Timings) {
        match self {
            Direction::Decode => (&DECODE_TARGETS, |row| &row.decode),
            Direction::Encode => (&ENCODE_TARGETS, |row| &row.encode),
        }
    }
}

/// A target missed on one dataset.
pub struct Miss {
    /// Decode or encode.
    pub direction: Direction,
    /// The target missed.
    pub target: &'static Target,
    /// The dataset's slug (as `profile_codec` and `callgrind-table.sh` name it).
    pub dataset: &'static str,
    /// The ratio measured in time.
    pub ratio: f64,
    /// The ratio wanted.
    pub goal: f64,
}

/// Every target the report's timings miss, decode first, in table order.
pub fn misses(r: &Report) -> Vec<Miss> {
    let mut out = Vec::new();
    for direction in [Direction::Decode, Direction::Encode] {
        let (targets, pick) = direction.targets();
        for target in targets {
            for row in &r.rows {
                let (Some(ratio), Some(goal)) = (
                    row.speedup(pick(row), target.ours, target.other),
                    target.goal(row),
                ) else {
                    continue;
                };
                if ratio < goal {
                    out.push(Miss {
                        direction,
                        target,
                        dataset: row.dataset.slug(),
                        ratio,
                        goal,
                    });
                }
            }
        }
    }
    out
}
