//! The execution view of the seed examples, every expected value worked out by hand
//! from the seed documents (read at test time, never copied).

mod exec_common;

use std::collections::HashMap;

use exec_common::*;
use serde_json::{Value, json};
use toon_plan::exec::{self, DryRunOptions, Event, Outcome, StepStatus};

fn waves(s: &toon_plan::Schedule) -> Vec<Vec<&str>> {
    s.waves
        .iter()
        .map(|w| w.tasks.iter().map(String::as_str).collect())
        .collect()
}

fn statuses(run: &toon_plan::DryRun) -> Vec<(&str, StepStatus)> {
    run.statuses.iter().map(|(k, v)| (k.as_str(), *v)).collect()
}

/// `(at_ms, event name, step id)` of the step events of a run.
fn step_events(run: &toon_plan::DryRun) -> Vec<(u64, &'static str, String)> {
    run.events
        .iter()
        .filter_map(|e| match e {
            Event::StepStart(s) => Some((s.at_ms, "start", s.step_id.clone())),
            Event::StepComplete(s) => Some((
                s.at_ms,
                match s.status {
                    StepStatus::Complete => "complete",
                    StepStatus::Failed => "failed",
                    StepStatus::Skipped => "skipped",
                    StepStatus::Start => "start?",
                },
                s.step_id.clone(),
            )),
            _ => None,
        })
        .collect()
}

#[test]
#[ignore = "needs the seed documents in ../shared/seeds: run with --include-ignored (.ci/run does)"]
fn seed_000_is_a_chain_with_timeouts() {
    let plan = seed_000();
    let s = exec::schedule(&plan).unwrap();
    // Each step depends on the one before: six waves of one step, in order.
    assert_eq!(
        waves(&s),
        [["1"], ["2"], ["3"], ["4"], ["5"], ["6"]].map(|w| w.to_vec())
    );
    // Only steps 1 and 2 have a timeout (30 000 and 10 000 ms); the others count 0.
    assert_eq!(s.makespan_ms, Some(40_000));
    assert_eq!(s.tasks_without_duration, 4);
    assert_eq!(s.critical_path, ["1", "2", "3", "4", "5", "6"]);
    assert_eq!(s.tasks[1].start_ms, Some(30_000));
    assert_eq!(s.tasks[1].finish_ms, Some(40_000));
    assert_eq!(
        s.tasks[0].duration_source,
        Some(exec::DurationSource::Timeout)
    );
    // metadata.estimated_duration_ms
    assert_eq!(s.plan_estimate_ms, Some(15_000));
    // parallel_group 1..6 agree with the dependencies: nothing to report.
    assert!(s.findings.is_empty(), "{:?}", s.findings);
    for (i, t) in s.tasks.iter().enumerate() {
        assert_eq!(t.stage.stage_id, format!("stage-{}", i + 1));
        assert_eq!(t.stage.stage_index, i);
        assert_eq!(t.stage.stage_mode, "sequence");
    }
}

#[test]
#[ignore = "needs the seed documents in ../shared/seeds: run with --include-ignored (.ci/run does)"]
fn seed_001_matches_its_execution_graph() {
    let plan = seed_001();
    let s = exec::schedule(&plan).unwrap();
    // The seed's "Parallel execution" list: setup-db; then setup-auth-utils; then
    // auth-api and auth-middleware in parallel; then auth-ui and tests.
    assert_eq!(
        waves(&s),
        vec![
            vec!["setup-db"],
            vec!["setup-auth-utils"],
            vec!["auth-api", "auth-middleware"],
            vec!["auth-ui", "tests"],
        ]
    );
    // No durations: the critical path counts tasks. Two chains of four tie
    // (…→ auth-ui and …→ tests); the first in plan order wins.
    assert_eq!(s.makespan_ms, None);
    assert_eq!(
        s.critical_path,
        ["setup-db", "setup-auth-utils", "auth-api", "auth-ui"]
    );
    let api = s.task("auth-api").unwrap();
    assert_eq!(api.stage.stage_id, "stage-3");
    assert_eq!(api.stage.stage_mode, "parallel");
    assert_eq!(api.waits_for, ["setup-db", "setup-auth-utils"]);
    assert!(!s.task("auth-middleware").unwrap().critical);

    // Dry run, 1 s per step: 4 waves, at most 2 at once.
    let run = exec::dry_run(&plan, &DryRunOptions::default()).unwrap();
    assert_eq!(run.finished_ms, 4000);
    assert_eq!(run.max_running, 2);
    let tests_start = step_events(&run)
        .into_iter()
        .find(|(_, k, id)| *k == "start" && id == "tests")
        .unwrap();
    assert_eq!(tests_start.0, 3000);
}

#[test]
#[ignore = "needs the seed documents in ../shared/seeds: run with --include-ignored (.ci/run does)"]
fn seed_001_failure_skips_dependents() {
    let plan = seed_001();
    let opts = DryRunOptions {
        outcomes: HashMap::from([("auth-api".to_owned(), Outcome::Fail("boom".into()))]),
        ..DryRunOptions::default()
    };
    let run = exec::dry_run(&plan, &opts).unwrap();
    // auth-ui and tests both wait for auth-api; auth-middleware does not.
    assert_eq!(
        statuses(&run),
        [
            ("setup-db", StepStatus::Complete),
            ("setup-auth-utils", StepStatus::Complete),
            ("auth-api", StepStatus::Failed),
            ("auth-middleware", StepStatus::Complete),
            ("auth-ui", StepStatus::Skipped),
            ("tests", StepStatus::Skipped),
        ]
    );
    // Seed 003 §6.3: `error` then `step_complete` with status failed.
    let pos_error = run
        .events
        .iter()
        .position(|e| matches!(e, Event::Error { step_id, message, .. } if step_id == "auth-api" && message == "boom"))
        .unwrap();
    assert!(
        matches!(&run.events[pos_error + 1], Event::StepComplete(s) if s.step_id == "auth-api" && s.status == StepStatus::Failed)
    );
    for e in &run.events {
        if let Event::StepComplete(s) = e
            && s.status == StepStatus::Skipped
        {
            assert_eq!(s.blocked_by.as_deref(), Some("auth-api"));
            assert_eq!(s.at_ms, 3000);
        }
    }
}

#[test]
#[ignore = "needs the seed documents in ../shared/seeds: run with --include-ignored (.ci/run does)"]
fn seed_002_workflows_use_step_timeouts() {
    let plans = seed_002();
    assert_eq!(plans.len(), 2);
    // The core structure: one step with a 30 s timeout.
    let s = exec::schedule(&plans[0]).unwrap();
    assert_eq!(waves(&s), vec![vec!["step_1"]]);
    assert_eq!(s.makespan_ms, Some(30_000));
    // The data validation plan: step_2 (120 s) after step_1 (60 s).
    let s = exec::schedule(&plans[1]).unwrap();
    assert_eq!(waves(&s), vec![vec!["step_1"], vec!["step_2"]]);
    assert_eq!(s.makespan_ms, Some(180_000));
    assert_eq!(s.critical_path, ["step_1", "step_2"]);
    // parallel_execution is false, but nothing could overlap anyway.
    assert!(s.findings.is_empty(), "{:?}", s.findings);
}

#[test]
#[ignore = "needs the seed documents in ../shared/seeds: run with --include-ignored (.ci/run does)"]
fn seed_003_stages_cap_and_events() {
    let plan = seed_003();
    let s = exec::schedule(&plan).unwrap();
    assert_eq!(
        waves(&s),
        vec![
            vec!["trends", "competitors", "interviews"],
            vec!["summary"],
            vec!["spec"],
            vec!["edit"],
        ]
    );
    // The declared stages (parallel research, then a sequence) fit the inputs.
    assert!(s.findings.is_empty(), "{:?}", s.findings);
    let t = s.task("trends").unwrap();
    assert_eq!(
        (
            t.stage.stage_id.as_str(),
            t.stage.stage_index,
            t.stage.stage_mode.as_str()
        ),
        ("stage-1", 0, "parallel")
    );
    let t = s.task("summary").unwrap();
    assert_eq!(
        (
            t.stage.stage_id.as_str(),
            t.stage.stage_index,
            t.stage.stage_mode.as_str()
        ),
        ("stage-2", 1, "sequence")
    );

    // Default cap 5: the three research steps run together.
    let run = exec::dry_run(&plan, &DryRunOptions::default()).unwrap();
    assert_eq!(run.max_running, 3);
    assert_eq!(run.finished_ms, 4000);
    // Cap 2: the third research step waits for a slot.
    let opts = DryRunOptions {
        cap: 2,
        ..DryRunOptions::default()
    };
    let run = exec::dry_run(&plan, &opts).unwrap();
    assert_eq!(run.max_running, 2);
    assert_eq!(run.finished_ms, 5000);
    let starts: Vec<(u64, String)> = step_events(&run)
        .into_iter()
        .filter(|(_, k, _)| *k == "start")
        .map(|(t, _, id)| (t, id))
        .collect();
    assert_eq!(
        starts,
        [
            (0, "trends"),
            (0, "competitors"),
            (1000, "interviews"),
            (2000, "summary"),
            (3000, "spec"),
            (4000, "edit")
        ]
        .map(|(t, id)| (t, id.to_owned()))
    );

    // §7: every step event carries step_id, stage_id, status and executor.
    let lines = exec::to_json_lines(&run.events);
    let events: Vec<Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(events.len(), run.events.len());
    assert_eq!(events[0]["event"], "plan_created");
    assert_eq!(events[0]["cap"], 2);
    let last = events.last().unwrap();
    assert_eq!(last["event"], "operation");
    for e in &events {
        if e["event"] == "step_start" || e["event"] == "step_complete" {
            for k in ["step_id", "stage_id", "status", "executor"] {
                assert!(e[k].is_string(), "{k} missing in {e}");
            }
        }
    }
    let spawned = events
        .iter()
        .filter(|e| e["event"] == "executor_spawned")
        .count();
    assert_eq!(spawned, 6);
    let summary_done = events
        .iter()
        .find(|e| e["event"] == "step_complete" && e["step_id"] == "summary")
        .unwrap();
    assert_eq!(
        summary_done,
        &json!({"event": "step_complete", "at_ms": 3000, "step_id": "summary",
                "stage_id": "stage-2", "status": "complete", "executor": "writer"})
    );

    // A failed research step blocks the whole synthesis sequence.
    let opts = DryRunOptions {
        outcomes: HashMap::from([("competitors".to_owned(), Outcome::Fail("no data".into()))]),
        ..DryRunOptions::default()
    };
    let run = exec::dry_run(&plan, &opts).unwrap();
    assert_eq!(
        statuses(&run),
        [
            ("trends", StepStatus::Complete),
            ("competitors", StepStatus::Failed),
            ("interviews", StepStatus::Complete),
            ("summary", StepStatus::Skipped),
            ("spec", StepStatus::Skipped),
            ("edit", StepStatus::Skipped),
        ]
    );
    assert_eq!(run.finished_ms, 1000);
}

#[test]
#[ignore = "needs the seed documents in ../shared/seeds: run with --include-ignored (.ci/run does)"]
fn seed_004_references_and_parallel_searches() {
    let plans = seed_004();
    assert_eq!(plans.len(), 2);
    let s = exec::schedule(&plans[0]).unwrap();
    assert_eq!(waves(&s), vec![vec!["task1"], vec!["task2"]]);
    let refs = exec::references(&plans[0]);
    assert_eq!(refs.len(), 1);
    assert_eq!(
        (
            refs[0].in_task.as_str(),
            refs[0].task.as_str(),
            refs[0].field.as_str()
        ),
        ("task2", "task1", "result")
    );

    let plan = &plans[1];
    let s = exec::schedule(plan).unwrap();
    assert_eq!(
        waves(&s),
        vec![
            vec!["find_emperor_wu_age", "find_caesar_age"],
            vec!["calculate_difference"]
        ]
    );
    let refs = exec::references(plan);
    let pairs: Vec<(&str, &str)> = refs
        .iter()
        .map(|r| (r.task.as_str(), r.text.as_str()))
        .collect();
    assert_eq!(
        pairs,
        [
            ("find_emperor_wu_age", "{{find_emperor_wu_age.result}}"),
            ("find_caesar_age", "{{find_caesar_age.result}}")
        ]
    );
    let query = plan
        .task("calculate_difference")
        .unwrap()
        .description
        .as_deref()
        .unwrap();
    let mut results = HashMap::from([
        ("find_emperor_wu_age".to_owned(), json!({"result": "70"})),
        ("find_caesar_age".to_owned(), json!("55")),
    ]);
    assert_eq!(
        exec::resolve(query, &results).unwrap(),
        "Calculate the difference between 70 and 55"
    );
    results.remove("find_caesar_age");
    let err = exec::resolve(query, &results).unwrap_err();
    assert!(err.to_string().contains("\"find_caesar_age\""), "{err}");

    // One web search at a time: the searches run one after the other, and the
    // calculator's query receives both results.
    let opts = DryRunOptions {
        tool_caps: [("serper_web_search".to_owned(), 1)].into(),
        results: HashMap::from([
            ("find_emperor_wu_age".to_owned(), json!("70")),
            ("find_caesar_age".to_owned(), json!("55")),
        ]),
        ..DryRunOptions::default()
    };
    let run = exec::dry_run(plan, &opts).unwrap();
    assert_eq!(run.max_running, 1);
    assert_eq!(run.finished_ms, 3000);
    let call = run
        .events
        .iter()
        .find_map(|e| match e {
            Event::ToolCall {
                step_id,
                query,
                at_ms,
                ..
            } if step_id == "calculate_difference" => Some((*at_ms, query.clone())),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        call,
        (
            2000,
            Some("Calculate the difference between 70 and 55".to_owned())
        )
    );
}

#[test]
#[ignore = "needs the seed documents in ../shared/seeds: run with --include-ignored (.ci/run does)"]
fn a_reference_to_a_missing_field_fails_the_step_in_a_dry_run() {
    let plan = &seed_004()[1];
    let opts = DryRunOptions {
        results: HashMap::from([("find_caesar_age".to_owned(), json!({"answer": 55}))]),
        ..DryRunOptions::default()
    };
    let run = exec::dry_run(plan, &opts).unwrap();
    assert_eq!(run.statuses["calculate_difference"], StepStatus::Failed);
    let msg = run
        .events
        .iter()
        .find_map(|e| match e {
            Event::Error { message, .. } => Some(message.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        msg,
        "query: {{find_caesar_age.result}}: the result of task \"find_caesar_age\" has no field \"result\""
    );
}
