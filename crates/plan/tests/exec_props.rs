//! Properties of schedules and dry runs on random plans: every wave depends only on
//! earlier waves, the critical path is a real chain, and a simulated run never
//! exceeds its caps, starts a step only after its dependencies completed, and skips
//! exactly the steps behind a failure.

use std::collections::{BTreeMap, HashMap, HashSet};

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use serde_json::json;
use toon_plan::exec::{self, DryRunOptions, Event, ExecError, Outcome, StepStatus};
use toon_plan::{Plan, Task};

/// A random DAG: task `i` may depend on any task before it in generation order; the
/// plan lists them shuffled, so plan order is not a topological order.
#[derive(Clone, Debug)]
struct Spec {
    deps: Vec<Vec<usize>>,
    durations: Vec<Option<u64>>,
    tools: Vec<Option<&'static str>>,
    order: Vec<usize>,
}

fn spec() -> impl Strategy<Value = Spec> {
    (0usize..24).prop_flat_map(|n| {
        let deps = (0..n)
            .map(|i| proptest::collection::vec(any::<bool>(), i))
            .collect::<Vec<_>>();
        (
            deps,
            proptest::collection::vec(proptest::option::of(0u64..5000), n),
            proptest::collection::vec(
                prop_oneof![Just(None), Just(Some("web")), Just(Some("calc"))],
                n,
            ),
            Just((0..n).collect::<Vec<_>>()).prop_shuffle(),
        )
            .prop_map(|(mask, durations, tools, order)| Spec {
                deps: mask
                    .into_iter()
                    .map(|m| {
                        m.iter()
                            .enumerate()
                            .filter(|(_, b)| **b)
                            .map(|(j, _)| j)
                            .collect()
                    })
                    .collect(),
                durations,
                tools,
                order,
            })
    })
}

fn name(i: usize) -> String {
    format!("t{i}")
}

fn build(s: &Spec) -> Plan {
    let tasks = s
        .order
        .iter()
        .map(|&i| {
            let mut t = Task {
                id: name(i),
                dependencies: Some(s.deps[i].iter().map(|&d| name(d)).collect()),
                tool: s.tools[i].map(str::to_owned),
                ..Task::default()
            };
            if let Some(ms) = s.durations[i] {
                t.extra.insert("estimated_duration_ms".into(), json!(ms));
            }
            t
        })
        .collect();
    Plan {
        tasks,
        ..Plan::default()
    }
}

/// Generation index of a task id.
fn gen_index(id: &str) -> usize {
    id[1..].parse().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn waves_depend_only_on_earlier_waves(s in spec()) {
        let plan = build(&s);
        let sched = exec::schedule(&plan).unwrap();
        let wave: HashMap<usize, usize> =
            sched.tasks.iter().map(|t| (gen_index(&t.id), t.wave)).collect();
        prop_assert_eq!(wave.len(), s.deps.len());
        for (i, deps) in s.deps.iter().enumerate() {
            for d in deps {
                prop_assert!(wave[d] < wave[&i], "t{} in wave {} depends on t{} in wave {}", i, wave[&i], d, wave[d]);
            }
            // And no later than needed: right after its latest dependency.
            let need = deps.iter().map(|d| wave[d] + 1).max().unwrap_or(0);
            prop_assert_eq!(wave[&i], need);
        }
        // The waves list every task once, in the wave the task says.
        let mut seen = HashSet::new();
        for w in &sched.waves {
            prop_assert!(!w.tasks.is_empty());
            for id in &w.tasks {
                prop_assert!(seen.insert(id.clone()));
                prop_assert_eq!(sched.task(id).unwrap().wave, w.index);
            }
        }
        prop_assert_eq!(seen.len(), s.deps.len());
    }

    #[test]
    fn the_critical_path_is_the_longest_chain(s in spec()) {
        let plan = build(&s);
        let sched = exec::schedule(&plan).unwrap();
        let path: Vec<usize> = sched.critical_path.iter().map(|id| gen_index(id)).collect();
        prop_assert_eq!(path.is_empty(), s.deps.is_empty());
        for w in path.windows(2) {
            prop_assert!(s.deps[w[1]].contains(&w[0]), "t{} does not depend on t{}", w[1], w[0]);
        }
        if let Some(first) = path.first() {
            prop_assert!(s.deps[*first].is_empty(), "the path starts at a root");
        }
        let timed = s.durations.iter().any(Option::is_some);
        if timed {
            let total: u64 = path.iter().map(|&i| s.durations[i].unwrap_or(0)).sum();
            prop_assert_eq!(sched.makespan_ms, Some(total));
            // Longest: no task finishes later, and each finish is its longest chain.
            let mut finish = vec![0u64; s.deps.len()];
            for i in 0..s.deps.len() {
                let start = s.deps[i].iter().map(|&d| finish[d]).max().unwrap_or(0);
                finish[i] = start + s.durations[i].unwrap_or(0);
            }
            prop_assert_eq!(Some(total), finish.iter().copied().max());
        } else {
            prop_assert_eq!(sched.makespan_ms, None);
            prop_assert_eq!(path.len(), sched.waves.len());
        }
    }

    #[test]
    fn a_dry_run_keeps_caps_order_and_failure_propagation(
        s in spec(),
        cap in 1usize..6,
        web_cap in proptest::option::of(1usize..3),
        fail_mask in proptest::collection::vec(proptest::bool::weighted(0.2), 24),
    ) {
        let plan = build(&s);
        let n = s.deps.len();
        let failing: HashSet<usize> = (0..n).filter(|&i| fail_mask[i]).collect();
        let mut tool_caps = BTreeMap::new();
        if let Some(c) = web_cap {
            tool_caps.insert("web".to_owned(), c);
        }
        let opts = DryRunOptions {
            cap,
            tool_caps,
            outcomes: failing.iter().map(|&i| (name(i), Outcome::Fail("x".into()))).collect(),
            ..DryRunOptions::default()
        };
        let run = exec::dry_run(&plan, &opts).unwrap();
        let mut running: HashSet<usize> = HashSet::new();
        let mut web = 0usize;
        let mut done: HashMap<usize, StepStatus> = HashMap::new();
        let mut last_time = 0u64;
        let mut max_seen = 0;
        for e in &run.events {
            prop_assert!(e.at_ms() >= last_time, "time goes forward");
            last_time = e.at_ms();
            match e {
                Event::StepStart(st) => {
                    let i = gen_index(&st.step_id);
                    for d in &s.deps[i] {
                        prop_assert_eq!(done.get(d), Some(&StepStatus::Complete), "t{} started before t{} completed", i, d);
                    }
                    prop_assert!(running.insert(i));
                    if s.tools[i] == Some("web") {
                        web += 1;
                    }
                    prop_assert!(running.len() <= cap, "{} running, cap {}", running.len(), cap);
                    if let Some(c) = web_cap {
                        prop_assert!(web <= c, "{} web steps, cap {}", web, c);
                    }
                    max_seen = max_seen.max(running.len());
                }
                Event::StepComplete(st) => {
                    let i = gen_index(&st.step_id);
                    prop_assert!(!done.contains_key(&i), "t{} completed twice", i);
                    if st.status == StepStatus::Skipped {
                        prop_assert!(!running.contains(&i), "a skipped step never ran");
                    } else {
                        prop_assert!(running.remove(&i));
                        if s.tools[i] == Some("web") {
                            web -= 1;
                        }
                    }
                    done.insert(i, st.status);
                }
                _ => {}
            }
        }
        prop_assert!(running.is_empty());
        prop_assert_eq!(done.len(), n);
        prop_assert_eq!(run.max_running, max_seen);
        // Skipped exactly when a dependency did not complete; failed when asked to.
        for i in 0..n {
            let blocked = s.deps[i].iter().any(|d| done[d] != StepStatus::Complete);
            let want = if blocked {
                StepStatus::Skipped
            } else if failing.contains(&i) {
                StepStatus::Failed
            } else {
                StepStatus::Complete
            };
            prop_assert_eq!(done[&i], want, "t{}", i);
            prop_assert_eq!(run.statuses[&name(i)], want);
        }
    }

    #[test]
    fn without_limits_a_dry_run_takes_the_makespan(s in spec()) {
        let mut s = s;
        for d in &mut s.durations {
            d.get_or_insert(250);
        }
        let plan = build(&s);
        let sched = exec::schedule(&plan).unwrap();
        let opts = DryRunOptions { cap: s.deps.len().max(1), ..DryRunOptions::default() };
        let run = exec::dry_run(&plan, &opts).unwrap();
        prop_assert_eq!(Some(run.finished_ms), sched.makespan_ms.or(Some(0)));
        // With a cap of 1 it takes the sum of all durations.
        let opts = DryRunOptions { cap: 1, ..DryRunOptions::default() };
        let run = exec::dry_run(&plan, &opts).unwrap();
        let total: u64 = s.durations.iter().flatten().sum();
        prop_assert_eq!(run.finished_ms, total);
        prop_assert!(run.max_running <= 1);
    }

    #[test]
    fn a_back_edge_is_a_cycle_naming_its_tasks(s in spec(), pick in any::<proptest::sample::Index>()) {
        let edges: Vec<(usize, usize)> = s
            .deps
            .iter()
            .enumerate()
            .flat_map(|(i, ds)| ds.iter().map(move |&d| (i, d)))
            .collect();
        prop_assume!(!edges.is_empty());
        let (i, d) = edges[pick.index(edges.len())];
        let mut s = s;
        s.deps[d].push(i);
        match exec::schedule(&build(&s)) {
            Err(ExecError::Cycle { tasks }) => {
                prop_assert!(!tasks.is_empty());
                // Every named task is on a cycle: it reaches itself.
                for t in &tasks {
                    let start = gen_index(t);
                    let mut stack = s.deps[start].clone();
                    let mut seen = HashSet::new();
                    let mut found = false;
                    while let Some(x) = stack.pop() {
                        if x == start { found = true; break; }
                        if seen.insert(x) { stack.extend(s.deps[x].iter().copied()); }
                    }
                    prop_assert!(found, "{} is not on a cycle", t);
                }
            }
            other => prop_assert!(false, "expected a cycle, got {:?}", other.map(|_| ())),
        }
    }

    #[test]
    fn reference_scanning_agrees_with_the_tool_dag_validator(text in "[a-z{}. ]{0,40}") {
        let ours: Vec<(&str, &str)> = exec::scan(&text).into_iter().map(|(_, id, f)| (id, f)).collect();
        prop_assert_eq!(ours, toon_plan::dialects::tooldag::references(&text));
        // Resolving with a stand-in for every reference leaves no `{{…}}` behind.
        let all_named = exec::scan(&text).iter().all(|(_, _, f)| !f.is_empty());
        if all_named {
            let out = exec::resolve_with(&text, |id, f| Ok(format!("<{id}:{f}>"))).unwrap();
            prop_assert_eq!(exec::scan(&out).len(), 0);
        }
    }
}

#[test]
fn renders_every_random_plan_without_panicking() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    for _ in 0..100 {
        let s = spec().new_tree(&mut runner).unwrap().current();
        let plan = build(&s);
        let sched = exec::schedule(&plan).unwrap();
        let m = exec::render::mermaid(&plan, &sched);
        let d = exec::render::dot(&plan, &sched);
        let t = exec::render::text(&plan, &sched);
        let edges: usize = s.deps.iter().map(Vec::len).sum();
        assert_eq!(m.matches(" --> ").count(), edges);
        assert_eq!(d.matches(" -> ").count(), edges);
        assert_eq!(
            t.lines().filter(|l| l.starts_with("wave ")).count(),
            sched.waves.len()
        );
    }
}
