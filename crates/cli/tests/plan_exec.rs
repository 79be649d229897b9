//! `toon plan schedule|graph|schema` as a user runs them, on the project's test plans
//! and on plans written to a temporary folder.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn toon(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_toon"))
        .args(args)
        .output()
        .expect("run toon")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 stdout")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("utf-8 stderr")
}

fn testdata(rel: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/plans")
        .join(rel)
        .to_string_lossy()
        .into_owned()
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write plan");
    p.to_string_lossy().into_owned()
}

#[test]
fn schedule_prints_waves_and_the_critical_path() {
    // schema → (api, pdf) → tests
    let o = toon(&[
        "plan",
        "schedule",
        &testdata("composite/valid/PLAN-k3v9q2m1xa.yaml"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(
        out,
        "composite plan, 4 tasks in 3 waves\n  wave 1 [stage-1, sequence]: schema\n  wave 2 [stage-2, parallel]: api, pdf\n  wave 3 [stage-3, sequence]: tests\ncritical path: schema → api → tests\nmakespan: unknown (no task has a duration; the critical path counts tasks)\n"
    );
}

#[test]
fn schedule_json_is_the_library_schedule() {
    let o = toon(&[
        "plan",
        "schedule",
        "--json",
        &testdata("tooldag/valid/birthdays.json"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(
        v["waves"][0]["tasks"],
        serde_json::json!(["einstein_birth", "curie_birth"])
    );
    assert_eq!(v["waves"][1]["tasks"], serde_json::json!(["gap-days"]));
    assert_eq!(v["tasks"][2]["stage"]["stageId"], "stage-2");
    assert_eq!(v["tasks"][2]["stage"]["stageMode"], "sequence");

    let o = toon(&[
        "plan",
        "schedule",
        &testdata("tooldag/valid/birthdays.json"),
    ]);
    assert!(
        stdout(&o).contains("references: gap-days ◄ einstein_birth.result, curie_birth.result\n"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn events_are_json_lines_with_failure_propagation_and_caps() {
    let file = testdata("tooldag/valid/birthdays.json");
    let o = toon(&[
        "plan",
        "schedule",
        &file,
        "--events",
        "--cap",
        "1",
        "--fail",
        "curie_birth",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let events: Vec<Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(events[0]["event"], "plan_created");
    assert_eq!(events[0]["cap"], 1);
    let completes: Vec<(String, String)> = events
        .iter()
        .filter(|e| e["event"] == "step_complete")
        .map(|e| {
            (
                e["step_id"].as_str().unwrap().to_owned(),
                e["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        completes,
        [
            ("einstein_birth", "complete"),
            ("curie_birth", "failed"),
            ("gap-days", "skipped")
        ]
        .map(|(a, b)| (a.to_owned(), b.to_owned()))
    );
    // Cap 1: the second search starts when the first completes.
    let starts: Vec<u64> = events
        .iter()
        .filter(|e| e["event"] == "step_start")
        .map(|e| e["at_ms"].as_u64().unwrap())
        .collect();
    assert_eq!(starts, [0, 1000]);
    assert!(
        events
            .iter()
            .any(|e| e["event"] == "error" && e["step_id"] == "curie_birth")
    );
    assert_eq!(events.last().unwrap()["event"], "operation");

    // A tool cap serialises the searches even under a larger global cap.
    let o = toon(&[
        "plan",
        "schedule",
        &file,
        "--events",
        "--tool-cap",
        "serper_web_search=1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let last: Value = serde_json::from_str(stdout(&o).lines().last().unwrap()).unwrap();
    assert_eq!(
        last["message"],
        "dry run finished at 3000 ms: 3 complete (at most 1 running at once)"
    );
}

#[test]
fn bad_options_and_plans_fail_with_a_message() {
    let file = testdata("tooldag/valid/birthdays.json");
    let o = toon(&["plan", "schedule", &file, "--events", "--cap", "0"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("at least 1"), "{}", stderr(&o));
    let o = toon(&["plan", "schedule", &file, "--events", "--fail", "nope"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no step \"nope\""), "{}", stderr(&o));
    let o = toon(&["plan", "schedule", &file, "--tool-cap", "web"]);
    assert_eq!(o.status.code(), Some(1), "a usage error");
    assert!(stderr(&o).contains("TOOL=N"), "{}", stderr(&o));

    let o = toon(&[
        "plan",
        "schedule",
        &testdata("tooldag/invalid/acyclic.json"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("cannot schedule: dependency cycle:"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).is_empty());
    let o = toon(&["plan", "graph", &testdata("nope.json")]);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn a_misplaced_parallel_group_fails_the_schedule() {
    let dir = tempfile::tempdir().expect("tempdir");
    let step = |id: &str, deps: &str, group: u32| {
        format!(
            r#"{{"step_id": "{id}", "depends_on": [{deps}], "parallel_group": {group}, "agent_type": "api_agent", "action": "extract", "target": "x", "capabilities_required": ["CAP_READ"]}}"#
        )
    };
    let text = format!(
        r#"{{"plan_id": "p", "intent": "i", "success_criteria": "s", "metadata": {{}}, "steps": [{}, {}]}}"#,
        step("a", "", 2),
        step("b", "\"a\"", 1)
    );
    let file = write(dir.path(), "p.json", &text);
    let o = toon(&["plan", "schedule", &file]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("b: error: \"b\" is in parallel group 1 but depends on \"a\" in parallel group 2, which runs later [group-order]"), "{out}");
    assert!(out.contains("a: hint:"), "{out}");
    // Said once: the view shows the finding, so stderr does not repeat it.
    assert!(!stderr(&o).contains("group-order"), "{}", stderr(&o));
    // A view without findings (the graph) still says it, on stderr.
    let g = toon(&["plan", "graph", &file]);
    assert_eq!(g.status.code(), Some(1));
    assert!(stderr(&g).contains("[group-order]"), "{}", stderr(&g));
    // `validate` rejects what `schedule` rejects.
    let v = toon(&["plan", "validate", &file]);
    assert_eq!(v.status.code(), Some(1), "{}", stderr(&v));
    assert!(
        stderr(&v).contains("task \"b\": error: \"b\" is in parallel group 1 but depends on \"a\" in parallel group 2, which runs later [group-order]"),
        "{}",
        stderr(&v)
    );
}

#[test]
fn graph_in_three_formats() {
    let file = testdata("composite/valid/PLAN-k3v9q2m1xa.yaml");
    let o = toon(&["plan", "graph", &file, "--format", "mermaid"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let m = stdout(&o);
    assert!(m.starts_with("flowchart TD\n"), "{m}");
    assert_eq!(m.matches(" --> ").count(), 4);
    assert_eq!(m.matches("subgraph wave").count(), 3);

    let o = toon(&["plan", "graph", &file, "--format", "dot"]);
    let d = stdout(&o);
    assert!(d.starts_with("digraph plan {"), "{d}");
    assert!(d.contains("\"schema\" -> \"api\" [style=bold];"), "{d}");

    let o = toon(&["plan", "graph", &file]);
    let t = stdout(&o);
    assert!(
        t.contains("wave 2  [api]*  ◄ schema\n        [pdf: PDF rendering]  ◄ schema\n"),
        "{t}"
    );
    assert!(
        t.ends_with("* critical path: schema → api → tests (3 tasks)\n"),
        "{t}"
    );

    let o = toon(&["plan", "graph", &file, "--format", "svg"]);
    assert_eq!(o.status.code(), Some(1));
    // A markdown workflow plan needs its input format named or detected; the graph
    // format flag does not clash with it.
    let o = toon(&[
        "plan",
        "graph",
        &testdata("workflow/valid/onboarding.md"),
        "--input-format",
        "md",
        "--format",
        "text",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn schema_for_every_dialect_is_json() {
    for d in [
        "cursor",
        "plandag",
        "composite",
        "workflow",
        "staged",
        "tooldag",
        "plan",
    ] {
        let o = toon(&["plan", "schema", d]);
        assert!(o.status.success(), "{d}: {}", stderr(&o));
        let v: Value = serde_json::from_str(&stdout(&o)).expect("json");
        assert_eq!(v["$schema"], "https://json-schema.org/draft/2020-12/schema");
    }
    let o = toon(&["plan", "schema", "tooldag"]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        v["required"],
        serde_json::json!(["dag"]),
        "the tool DAG's one key"
    );
    let o = toon(&["plan", "schema", "klingon"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("invalid value 'klingon'") && stderr(&o).contains("plandag"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn next_lists_the_ready_tasks_in_schedule_order() {
    let o = toon(&[
        "plan",
        "next",
        &testdata("taskmaster/valid/tagged-multi.json"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "1 of 7 tasks finished; 2 ready to start\n  feature-auth:1  Password hashing  (priority high, wave 1)\n  master:2  Add persistence  (priority high, wave 2)\n"
    );
    let o = toon(&[
        "plan",
        "next",
        "--json",
        &testdata("taskmaster/valid/legacy-basic.json"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["ready"][0]["id"], "2");
    assert_eq!(v["ready"][0]["wave"], 1);
    assert_eq!(
        (v["finished"].as_u64(), v["total"].as_u64()),
        (Some(1), Some(4))
    );
}

#[test]
fn next_of_a_plan_without_a_schedule_is_an_error() {
    let o = toon(&["plan", "next", &testdata("taskmaster/invalid/acyclic.json")]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("cannot tell what is ready: dependency cycle"),
        "{}",
        stderr(&o)
    );
}

/// A Task Master file is told by its path where its content does not tell.
#[test]
fn a_task_master_file_is_told_by_its_path() {
    let dir = std::env::temp_dir().join(format!("toon-next-{}", std::process::id()));
    let tasks = dir.join(".taskmaster").join("tasks");
    std::fs::create_dir_all(&tasks).unwrap();
    let p = write(
        &tasks,
        "tasks.json",
        "{\"tasks\": [{\"id\": 1, \"title\": \"A\", \"status\": \"pending\"}]}",
    );
    let o = toon(&["plan", "next", &p]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("  1  A  (wave 1)"), "{}", stdout(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A Spec Kit task list (`specs/<NNN-feature>/tasks.md`) is told by its path; what is
/// ready follows its order: phases one after another, `[P]` tasks together.
#[test]
fn a_spec_kit_file_is_told_by_its_path_and_runs_in_its_order() {
    let dir = std::env::temp_dir().join(format!("toon-next-speckit-{}", std::process::id()));
    let feature = dir.join("specs").join("003-exports");
    std::fs::create_dir_all(&feature).unwrap();
    // No `# Tasks:` heading and no phase: only the path says Spec Kit.
    let p = write(
        &feature,
        "tasks.md",
        "- [x] T001 Add the export module\n- [ ] T002 [P] Write the CSV writer\n- [ ] T003 [P] Write the JSON writer\n- [ ] T004 Add the export button\n",
    );
    let o = toon(&["plan", "next", "--json", &p]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let ready: Vec<&str> = v["ready"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(ready, ["T002", "T003"]);
    let o = toon(&["plan", "validate", &p]);
    assert!(stdout(&o).contains("speckit md, 4 tasks"), "{}", stdout(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}
