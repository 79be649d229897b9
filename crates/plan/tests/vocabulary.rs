//! The vocabulary enums name exactly the values the dialects' field tables list.

use toon_plan::dialects::{cursor, staged, workflow};
use toon_plan::{StageMode, Status, StepKind};

fn texts<T: ToString>(all: &[T]) -> Vec<String> {
    all.iter().map(ToString::to_string).collect()
}

fn choices(c: &[toon_plan::table::Choice]) -> Vec<String> {
    c.iter().map(|c| c.value.to_owned()).collect()
}

#[test]
fn the_enums_are_the_tables_vocabularies() {
    assert_eq!(texts(Status::ALL), choices(cursor::STATUSES));
    assert_eq!(texts(StageMode::ALL), choices(staged::MODES));
    let mut kinds = choices(staged::INTENTS);
    kinds.extend(choices(workflow::STEP_TYPES));
    assert_eq!(texts(StepKind::ALL), kinds);
    // Text outside the vocabulary is kept.
    assert_eq!(Status::from_text("blocked").as_str(), "blocked");
    assert_eq!(StepKind::from_text("analysis"), StepKind::Analysis);
    assert_eq!(StepKind::from_text("ANALYSIS"), StepKind::WorkflowAnalysis);
    assert_eq!(
        serde_json::to_value(Status::InProgress).unwrap(),
        "in_progress"
    );
}
