//! Schedules of hand-made plans: placement findings, group dependencies, durations,
//! and the errors that name what is wrong.

mod exec_common;

use exec_common::*;
use serde_json::{Number, json};
use toon_plan::exec::{self, DryRunOptions, ExecError, FindingLevel};
use toon_plan::{Format, Group, Plan, Task};

fn grouped(tasks: &[(&str, u64, &[&str])]) -> Plan {
    let mut p = plan(&tasks.iter().map(|(id, _, d)| (*id, *d)).collect::<Vec<_>>());
    for (t, (_, g, _)) in p.tasks.iter_mut().zip(tasks) {
        t.parallel_group = Some(Number::from(*g));
    }
    p
}

fn findings(p: &Plan) -> Vec<(FindingLevel, &'static str, String)> {
    exec::schedule(p)
        .unwrap()
        .findings
        .into_iter()
        .map(|f| (f.level, f.rule, f.task))
        .collect()
}

#[test]
fn parallel_groups_against_dependencies() {
    let p = grouped(&[
        ("a", 1, &[]),
        ("b", 2, &["a"]),
        ("c", 3, &["a"]), // could run in group 2
        ("d", 1, &["b"]), // group 1 runs before b's group 2
        ("e", 2, &[]),    // no dependencies: could run in group 1
        ("f", 2, &["b"]), // runs alongside its dependency
    ]);
    let s = exec::schedule(&p).unwrap();
    let got: Vec<(FindingLevel, &str, &str)> = s
        .findings
        .iter()
        .map(|f| (f.level, f.rule, f.task.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (FindingLevel::Hint, "avoidable-wait", "c"),
            (FindingLevel::Error, "group-order", "d"),
            (FindingLevel::Hint, "avoidable-wait", "e"),
            (FindingLevel::Error, "group-order", "f"),
        ]
    );
    assert!(s.has_errors());
    let msg = |t: &str| {
        s.findings
            .iter()
            .find(|f| f.task == t)
            .unwrap()
            .message
            .clone()
    };
    assert!(
        msg("c").contains("it could run in parallel group 2"),
        "{}",
        msg("c")
    );
    assert!(
        msg("d").contains("depends on \"b\" in parallel group 2, which runs later"),
        "{}",
        msg("d")
    );
    assert!(msg("e").contains("it has no dependencies"), "{}", msg("e"));
    assert!(msg("f").contains("with \"b\""), "{}", msg("f"));
    // The waves ignore the declared groups: they follow the dependencies.
    assert_eq!(s.task("d").unwrap().wave, 2);
    assert_eq!(s.task("e").unwrap().wave, 0);
}

#[test]
fn stages_against_dependencies() {
    let doc = json!({"id": "p", "goal": "g", "stages": [
        {"id": "s1", "name": "One", "mode": "sequence", "steps": [
            {"id": "x", "title": "x", "intent": "research", "executor": "research"},
            {"id": "y", "title": "y", "intent": "research", "executor": "research"}]},
        {"id": "s2", "name": "Two", "mode": "parallel", "steps": [
            {"id": "z", "title": "z", "intent": "draft", "executor": "writer", "inputs": ["x"]}]},
        {"id": "s3", "name": "Three", "mode": "parallel", "steps": [
            {"id": "w", "title": "w", "intent": "draft", "executor": "writer", "inputs": ["x"]}]},
        {"id": "s4", "name": "Four", "mode": "sequence", "steps": [
            {"id": "p1", "title": "p1", "intent": "edit", "executor": "editor", "inputs": ["q1"]},
            {"id": "q1", "title": "q1", "intent": "edit", "executor": "editor", "inputs": ["z"]}]}
    ]});
    let p = load(&doc.to_string(), Format::Json).plan;
    assert_eq!(
        findings(&p),
        [
            // w waits for stage s2 but needs only x (stage s1).
            (FindingLevel::Hint, "avoidable-wait", "w".to_owned()),
            // p1 comes before its input q1 in a sequence stage.
            (FindingLevel::Error, "stage-order", "p1".to_owned()),
            // q1 needs only z (stage s2), so it could run in stage s3.
            (FindingLevel::Hint, "avoidable-wait", "q1".to_owned()),
            // x and y of sequence stage s1 do not depend on each other. (Stage s4 is
            // left to its error.)
            (FindingLevel::Hint, "avoidable-sequence", "y".to_owned()),
        ]
    );
}

#[test]
fn parallel_execution_off_is_a_hint_when_steps_could_overlap() {
    let doc = json!({
        "metadata": {"title": "t", "objective": "o"},
        "tasks": [{"id": "t1", "name": "n", "description": "d"}],
        "steps": [
            {"id": "s1", "task_id": "t1", "action": "a", "step_type": "ANALYSIS", "dependencies": []},
            {"id": "s2", "task_id": "t1", "action": "a", "step_type": "ANALYSIS", "dependencies": []}],
        "workflow_config": {"parallel_execution": false}
    });
    let p = load(&doc.to_string(), Format::Json).plan;
    let f = exec::schedule(&p).unwrap().findings;
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].rule, "parallel-disabled");
    assert_eq!(f[0].level, FindingLevel::Hint);
}

#[test]
fn group_dependencies_make_every_step_wait() {
    // Workflow tasks A (steps a1, a2 in sequence) and B (step b1, no step
    // dependencies) with B depending on A: b1 waits for a1 and a2.
    let mut p = plan(&[("a1", &[]), ("a2", &["a1"]), ("b1", &[]), ("c1", &[])]);
    for (t, g) in p.tasks.iter_mut().zip(["A", "A", "B", "C"]) {
        t.group = Some(g.to_owned());
    }
    p.groups = vec![
        Group {
            id: "A".into(),
            ..Group::default()
        },
        Group {
            id: "B".into(),
            dependencies: Some(vec!["A".into()]),
            ..Group::default()
        },
        Group {
            id: "C".into(),
            dependencies: Some(vec!["B".into()]),
            ..Group::default()
        },
    ];
    let s = exec::schedule(&p).unwrap();
    let wave = |id: &str| s.task(id).unwrap().wave;
    assert_eq!(
        (wave("a1"), wave("a2"), wave("b1"), wave("c1")),
        (0, 1, 2, 3)
    );
    let b1 = s.task("b1").unwrap();
    assert!(b1.waits_for.is_empty());
    assert_eq!(b1.waits_for_groups, ["A"]);
    assert_eq!(s.task("c1").unwrap().waits_for_groups, ["B"]);
    assert!(exec::render::text(&p, &s).contains("[b1]*  ◄ group A"));
    assert_eq!(s.critical_path, ["a1", "a2", "b1", "c1"]);
    let run = exec::dry_run(&p, &DryRunOptions::default()).unwrap();
    assert_eq!(run.finished_ms, 4000);
    // A group cycle is a cycle too.
    p.groups[0].dependencies = Some(vec!["C".into()]);
    let err = exec::schedule(&p).unwrap_err();
    assert!(matches!(err, ExecError::Cycle { .. }), "{err}");
    assert!(err.to_string().contains("group "), "{err}");
}

#[test]
fn durations_drive_the_critical_path() {
    // a (5 s) and b (10 s) both feed c (1 s): b is on the critical path.
    let mut p = plan(&[("a", &[]), ("b", &[]), ("c", &["a", "b"]), ("d", &[])]);
    let secs = [json!(5), json!(10.0), json!(1), json!(2.5)];
    for (t, s) in p.tasks.iter_mut().zip(secs) {
        t.extra.insert("estimated_time".into(), s);
    }
    let s = exec::schedule(&p).unwrap();
    assert_eq!(s.critical_path, ["b", "c"]);
    assert_eq!(s.makespan_ms, Some(11_000));
    let c = s.task("c").unwrap();
    assert_eq!((c.start_ms, c.finish_ms), (Some(10_000), Some(11_000)));
    assert_eq!(s.task("d").unwrap().duration_ms, Some(2500));
    // With a cap of 1 the run is sequential: 5 + 10 + 1 + 2.5 s.
    let run = exec::dry_run(
        &p,
        &DryRunOptions {
            cap: 1,
            ..DryRunOptions::default()
        },
    )
    .unwrap();
    assert_eq!(run.finished_ms, 18_500);
    assert_eq!(run.max_running, 1);
}

#[test]
fn errors_name_the_tasks() {
    let e = exec::schedule(&plan(&[
        ("a", &["c"]),
        ("b", &["a"]),
        ("c", &["b"]),
        ("d", &[]),
    ]))
    .unwrap_err();
    let ExecError::Cycle { tasks } = &e else {
        panic!("{e}")
    };
    let mut sorted = tasks.clone();
    sorted.sort();
    assert_eq!(sorted, ["a", "b", "c"]);
    assert!(e.to_string().starts_with("dependency cycle: "), "{e}");

    let e = exec::schedule(&plan(&[("a", &["nope"])])).unwrap_err();
    assert_eq!(
        e.to_string(),
        "task \"a\" depends on \"nope\", which is not in the plan"
    );
    let e = exec::schedule(&plan(&[("a", &[]), ("a", &[])])).unwrap_err();
    assert_eq!(e, ExecError::DuplicateId { id: "a".into() });
    let e = exec::schedule(&plan(&[("", &[])])).unwrap_err();
    assert_eq!(e, ExecError::EmptyId { index: 0 });
    let e = exec::schedule(&plan(&[("a", &["a"])])).unwrap_err();
    assert_eq!(e.to_string(), "dependency cycle: a → a");

    let p = plan(&[("a", &[])]);
    let e = exec::dry_run(
        &p,
        &DryRunOptions {
            cap: 0,
            ..DryRunOptions::default()
        },
    )
    .unwrap_err();
    assert!(e.to_string().contains("at least 1"), "{e}");
    let opts = DryRunOptions {
        outcomes: [("zz".to_owned(), exec::Outcome::Succeed)].into(),
        ..DryRunOptions::default()
    };
    assert_eq!(
        exec::dry_run(&p, &opts).unwrap_err().to_string(),
        "no step \"zz\" in the plan"
    );
    let opts = DryRunOptions {
        tool_caps: [("web".to_owned(), 0)].into(),
        ..DryRunOptions::default()
    };
    assert!(exec::dry_run(&p, &opts).is_err());
}

#[test]
fn empty_plan_has_an_empty_schedule() {
    let s = exec::schedule(&Plan::default()).unwrap();
    assert!(s.waves.is_empty() && s.critical_path.is_empty());
    assert_eq!(s.makespan_ms, None);
    let run = exec::dry_run(&Plan::default(), &DryRunOptions::default()).unwrap();
    assert_eq!(run.events.len(), 2, "plan_created and the summary");
}

#[test]
fn long_chains_do_not_recurse() {
    let n = 20_000;
    let ids: Vec<String> = (0..n).map(|i| format!("t{i}")).collect();
    let tasks: Vec<Task> = (0..n)
        .map(|i| Task {
            id: ids[i].clone(),
            // Listed last-first: each depends on the next in the list.
            dependencies: Some(if i + 1 < n {
                vec![ids[i + 1].clone()]
            } else {
                vec![]
            }),
            ..Task::default()
        })
        .collect();
    let p = Plan {
        tasks,
        ..Plan::default()
    };
    let s = exec::schedule(&p).unwrap();
    assert_eq!(s.waves.len(), n);
    assert_eq!(s.critical_path.len(), n);
    let run = exec::dry_run(&p, &DryRunOptions::default()).unwrap();
    assert_eq!(run.finished_ms, n as u64 * 1000);
    let text = exec::render::text(&p, &s);
    assert_eq!(text.lines().filter(|l| l.starts_with("wave ")).count(), n);
}

#[test]
fn many_steps_behind_one_tool_cap_do_not_slow_the_run_down() {
    // Steps waiting for a saturated tool are parked, not looked at again on every
    // event: this run is near-linear (it took minutes when it was quadratic).
    let n = 5_000;
    let p = Plan {
        tasks: (0..n)
            .map(|i| Task {
                id: format!("t{i}"),
                tool: Some(if i % 2 == 0 { "web" } else { "calc" }.into()),
                ..Task::default()
            })
            .collect(),
        ..Plan::default()
    };
    let opts = DryRunOptions {
        cap: 3,
        tool_caps: [("web".to_owned(), 1), ("calc".to_owned(), 1)].into(),
        ..DryRunOptions::default()
    };
    let run = exec::dry_run(&p, &opts).unwrap();
    // One web and one calc step at a time: 2 500 seconds.
    assert_eq!(run.max_running, 2);
    assert_eq!(run.finished_ms, 2_500_000);
}

#[test]
fn references_in_params_and_targets_are_listed() {
    let mut p = plan(&[("a", &[]), ("b", &["a"])]);
    p.tasks[1].target = Some("https://x/{{a.url}}".into());
    p.tasks[1].params = Some(json!({"q": ["x", {"deep": "{{a.result}} and {{ a.more }}"}]}));
    let refs = exec::references(&p);
    let got: Vec<(&str, &str, &str)> = refs
        .iter()
        .map(|r| (r.in_field.as_str(), r.task.as_str(), r.field.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("target", "a", "url"),
            ("params.q[1].deep", "a", "result"),
            ("params.q[1].deep", "a", "more")
        ]
    );
}

#[test]
fn parallel_execution_false_runs_one_step_at_a_time() {
    // a → c, b independent: with parallelism, a and b share wave 1.
    let mut p = plan(&[("a", &[]), ("b", &[]), ("c", &["a"])]);
    for (t, ms) in p.tasks.iter_mut().zip([10_000u64, 20_000, 5_000]) {
        t.timeout_ms = Some(Number::from(ms));
    }
    let parallel = exec::schedule(&p).unwrap();
    assert_eq!(parallel.waves.len(), 2);
    assert_eq!(parallel.makespan_ms, Some(20_000));
    let mut config = toon_plan::Extra::new();
    config.insert("parallel_execution".into(), json!(false));
    p.execution = Some(config);
    let s = exec::schedule(&p).unwrap();
    let waves: Vec<Vec<String>> = s.waves.iter().map(|w| w.tasks.clone()).collect();
    assert_eq!(waves, [["a"], ["b"], ["c"]]);
    assert_eq!(s.makespan_ms, Some(35_000));
    assert_eq!(s.task("c").unwrap().start_ms, Some(30_000));
    // The dry run runs them one at a time too, finishing when the schedule says.
    let run = exec::dry_run(&p, &DryRunOptions::default()).unwrap();
    assert_eq!(run.max_running, 1);
    assert_eq!(run.finished_ms, 35_000);
    // Converted to staged, a derived stage holding independent steps runs them in
    // sequence.
    let staged = toon_plan::convert(
        &p,
        toon_plan::DialectId::STAGED,
        &toon_plan::ConvertOptions {
            format: Some(Format::Json),
            set: ["executor=writer".parse().unwrap()].to_vec(),
            ..Default::default()
        },
    )
    .unwrap();
    let tree: serde_json::Value = serde_json::from_str(&staged.text).unwrap();
    let modes: Vec<&str> = tree["stages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["mode"].as_str().unwrap())
        .collect();
    assert!(modes.iter().all(|m| *m == "sequence"), "{modes:?}");
    // The real dependencies are still the ones reported.
    assert_eq!(s.task("b").unwrap().waits_for, Vec::<String>::new());
    assert!(
        s.findings
            .iter()
            .any(|f| f.rule == "parallel-disabled" && f.message.contains("one at a time")),
        "{:?}",
        s.findings
    );
}

/// What `schedule` refuses, `validate` reports: here each rule of the workflow
/// dialect holds (step and task dependencies are each acyclic), but task `t1` waits
/// for task `t2` while `t2`'s step waits for `t1`'s step, a cycle through groups.
#[test]
fn validate_reports_what_schedule_refuses() {
    let text = json!({
        "metadata": {"title": "Cycle", "objective": "Cross groups"},
        "tasks": [
            {"id": "t1", "name": "One", "description": "d", "dependencies": ["t2"]},
            {"id": "t2", "name": "Two", "description": "d", "dependencies": []}
        ],
        "steps": [
            {"id": "s1", "task_id": "t1", "action": "a", "step_type": "ANALYSIS", "dependencies": []},
            {"id": "s2", "task_id": "t2", "action": "a", "step_type": "ANALYSIS", "dependencies": ["s1"]}
        ]
    })
    .to_string();
    let loaded = load(&text, Format::Json);
    let own = loaded.dialect.dialect().validate(&loaded.document);
    assert!(!own.iter().any(|p| p.is_error()), "{own:?}");
    let err = exec::schedule(&loaded.plan).unwrap_err();
    let problems = toon_plan::validate(&loaded);
    let found: Vec<_> = problems
        .iter()
        .filter(|p| p.is_error())
        .map(|p| (p.rule, p.message.clone()))
        .collect();
    assert_eq!(found, vec![("schedulable", err.to_string())]);
}
