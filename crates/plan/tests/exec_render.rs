//! Snapshots of the pictures (reviewed by hand against the seeds' own drawings: seed
//! 001's execution graph, seed 000's parallel groups, seed 004's two searches feeding
//! the calculator), plus escaping of ids that would break the formats.

mod exec_common;

use exec_common::*;
use toon_plan::exec::{self, render};
use toon_plan::{Plan, Task};

#[test]
#[ignore = "needs the seed documents in ../shared/seeds: run with --include-ignored (.ci/run does)"]
fn seed_001_pictures() {
    let plan = seed_001();
    let s = exec::schedule(&plan).unwrap();
    insta::assert_snapshot!("seed_001_text", render::text(&plan, &s));
    insta::assert_snapshot!("seed_001_mermaid", render::mermaid(&plan, &s));
    insta::assert_snapshot!("seed_001_dot", render::dot(&plan, &s));
}

#[test]
#[ignore = "needs the seed documents in ../shared/seeds: run with --include-ignored (.ci/run does)"]
fn seed_000_text_shows_durations() {
    let plan = seed_000();
    let s = exec::schedule(&plan).unwrap();
    insta::assert_snapshot!("seed_000_text", render::text(&plan, &s));
}

#[test]
#[ignore = "needs the seed documents in ../shared/seeds: run with --include-ignored (.ci/run does)"]
fn seed_004_mermaid() {
    let plan = &seed_004()[1];
    let s = exec::schedule(plan).unwrap();
    insta::assert_snapshot!("seed_004_mermaid", render::mermaid(plan, &s));
}

#[test]
fn awkward_ids_are_escaped() {
    let plan = Plan {
        tasks: vec![
            Task {
                id: "say \"hi\"".into(),
                title: Some("a <b> #1\nsecond line".into()),
                ..Task::default()
            },
            Task {
                id: "back\\slash".into(),
                dependencies: Some(vec!["say \"hi\"".into()]),
                ..Task::default()
            },
        ],
        ..Plan::default()
    };
    let s = exec::schedule(&plan).unwrap();
    insta::assert_snapshot!("escaped_mermaid", render::mermaid(&plan, &s));
    insta::assert_snapshot!("escaped_dot", render::dot(&plan, &s));
}

#[test]
fn waits_on_whole_groups_are_drawn_from_their_members() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/plans/workflow/valid/report.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let plan = toon_plan::read(
        &text,
        &toon_plan::ReadOptions {
            file_name: Some(std::path::PathBuf::from(&path)),
            ..Default::default()
        },
    )
    .unwrap()
    .plan;
    let s = exec::schedule(&plan).unwrap();
    // `analyse` and `chart` wait for group `prepare` (load, clean); `analyse` already
    // depends on `clean` directly, so only `load` adds a group edge there.
    let mermaid = render::mermaid(&plan, &s);
    assert!(mermaid.contains("  t0 -.-> t2\n"), "{mermaid}");
    assert!(!mermaid.contains("  t1 -.-> t2\n"), "{mermaid}");
    insta::assert_snapshot!("workflow_groups_mermaid", mermaid);
    insta::assert_snapshot!("workflow_groups_dot", render::dot(&plan, &s));
}
