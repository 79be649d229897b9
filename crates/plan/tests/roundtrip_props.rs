//! Property tests: random plans → each dialect (every format) → back.
//!
//! 1. A plan holding only what a dialect holds comes back unchanged (empty report).
//! 2. For any plan, the plan read back equals the original once the fields named in
//!    the loss report are set aside: the report misses nothing.
//! 3. The YAML writer's output reads back as the same value.

use proptest::prelude::*;
use serde_json::{Map, Number, Value};
use toon_plan::{DialectId, Extra, Format, Group, LossReport, Plan, Task};

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z][a-zA-Z0-9 ]{0,10}",
        "[a-zA-Z0-9 _:#'\"\\-\\[\\]{}.,!?|>*&%@`éж日\n\t]{1,14}",
        Just("true".to_owned()),
        Just("12".to_owned()),
        Just("- item".to_owned()),
        Just("Phase 0: Setup".to_owned()),
        Just("null".to_owned()),
        Just("  leading and trailing  ".to_owned()),
        Just("line\r\nbreak".to_owned()),
        Just("---".to_owned()),
        Just("# not a heading".to_owned()),
        Just("~".to_owned()),
        Just("é\u{2028}\u{feff}x".to_owned()),
    ]
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-100_000i64..100_000).prop_map(Value::from),
        (-4000i32..4000).prop_map(|i| Value::Number(Number::from_f64(f64::from(i) / 8.0).unwrap())),
        text().prop_map(Value::String),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(2, 12, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec(("x[a-z_]{0,5}", inner), 0..4)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

fn non_null() -> impl Strategy<Value = Value> {
    value().prop_filter("not null", |v| !v.is_null())
}

fn extra() -> impl Strategy<Value = Extra> {
    prop::collection::vec(("x[a-zA-Z_]{0,6}", value()), 0..3)
        .prop_map(|kv| kv.into_iter().collect())
}

fn object() -> impl Strategy<Value = Extra> {
    prop::collection::vec(("x[a-z_]{0,6}", value()), 1..4).prop_map(|kv| kv.into_iter().collect())
}

fn list() -> impl Strategy<Value = Option<Vec<String>>> {
    prop::option::of(prop::collection::vec(text(), 0..3))
}

fn number(max: u32) -> impl Strategy<Value = Option<Number>> {
    prop::option::of((0..max).prop_map(Number::from))
}

#[derive(Debug, Clone)]
struct TaskParts {
    fields: Task,
    dep_picks: Option<Vec<usize>>,
    group_pick: Option<usize>,
}

fn task() -> impl Strategy<Value = TaskParts> {
    let a = (
        "[a-z0-9_. -]{0,6}",
        prop::option::of(text()),
        prop::option::of(text()),
        prop::option::of(prop_oneof![
            Just("pending".to_owned()),
            Just("completed".to_owned()),
            text()
        ]),
        prop::option::of(prop::collection::vec(0usize..8, 0..3)),
        prop::option::of(text()),
        prop::option::of(text()),
        list(),
    );
    let b = (
        prop::option::of(text()),
        prop::option::of(text()),
        prop::option::of(non_null()),
        list(),
        prop::option::of(text()),
        number(10_000_000),
        number(10),
        list(),
    );
    let c = (
        prop::option::of(text()),
        number(20),
        prop::option::of(0usize..4),
        prop::option::of(text()),
        extra(),
    );
    let d = (
        prop::option::of(text()),
        prop::option::of(text()),
        prop::option::of(text()),
        list(),
    );
    (a, b, c, d).prop_map(|(a, b, c, d)| TaskParts {
        fields: Task {
            id: a.0,
            title: a.1,
            description: a.2,
            status: a.3,
            dependencies: None,
            executor: a.5,
            tool: a.6,
            tools: a.7,
            action: b.0,
            target: b.1,
            params: b.2,
            capabilities: b.3,
            kind: b.4,
            timeout_ms: b.5,
            retries: b.6,
            outputs: b.7,
            expected_outcome: c.0,
            parallel_group: c.1.map(|n| Number::from(n.as_u64().unwrap_or(0) + 1)),
            group: None,
            branch: c.3,
            parent: None,
            priority: d.0,
            details: d.1,
            test_strategy: d.2,
            requirements: d.3,
            extra: c.4,
        },
        dep_picks: a.4,
        group_pick: c.2,
    })
}

fn group() -> impl Strategy<Value = Group> {
    (
        prop::option::of(text()),
        prop::option::of(text()),
        prop::option::of(prop_oneof![
            Just("parallel".to_owned()),
            Just("sequence".to_owned())
        ]),
        list(),
        prop::option::of(text()),
        list(),
        extra(),
    )
        .prop_map(
            |(name, description, mode, dependencies, executor, tools, extra)| Group {
                id: String::new(),
                name,
                description,
                mode,
                dependencies,
                executor,
                tools,
                extra,
            },
        )
}

fn plan() -> impl Strategy<Value = Plan> {
    let head = (
        prop::option::of(text()),
        prop::option::of(text()),
        prop::option::of(text()),
        prop::option::of(text()),
        prop::option::of(text()),
        list(),
        prop::option::of(object()),
        prop::option::of(non_null()),
    );
    let rest = (
        prop::option::of(object()),
        prop::option::of(prop_oneof![
            "[a-zA-Z0-9 #|\\-:\n]{1,40}",
            "(---\n|\r\n|# x\n|```\n|name: y\n|[a-z ]{0,5}){1,6}",
        ]),
        prop::collection::vec(group(), 0..3),
        prop::collection::vec(task(), 0..5),
        extra(),
    );
    (head, rest).prop_map(|(h, r)| {
        let groups: Vec<Group> =
            r.2.into_iter()
                .enumerate()
                .map(|(i, mut g)| {
                    g.id = format!("g{i}");
                    g
                })
                .collect();
        let ids: Vec<String> =
            r.3.iter()
                .enumerate()
                .map(|(i, t)| format!("t{i}{}", t.fields.id))
                .collect();
        let tasks =
            r.3.into_iter()
                .enumerate()
                .map(|(i, p)| {
                    let mut t = p.fields;
                    t.id = ids[i].clone();
                    // Dependencies on earlier tasks only, so plans stay acyclic.
                    t.dependencies = p.dep_picks.map(|picks| {
                        let mut d: Vec<String> = picks
                            .into_iter()
                            .filter(|&k| k < i)
                            .map(|k| ids[k].clone())
                            .collect();
                        d.dedup();
                        d
                    });
                    t.group = p
                        .group_pick
                        .and_then(|k| groups.get(k))
                        .map(|g| g.id.clone());
                    t
                })
                .collect();
        Plan {
            id: h.0,
            title: h.1,
            goal: h.2,
            success_criteria: h.3,
            rollback: h.4,
            constraints: h.5,
            metadata: h.6,
            shared_inputs: h.7,
            execution: r.0,
            body: r.1,
            groups,
            tasks,
            extra: r.4,
            layout: toon_plan::Layout::default(),
        }
    })
}

fn nonempty(v: &Option<Vec<String>>) -> Option<Vec<String>> {
    v.clone().filter(|l| !l.is_empty())
}

/// What a dialect holds of a plan (the projection its round trip must preserve).
fn project(p: &Plan, d: DialectId) -> Plan {
    let base = |t: &Task| Task {
        id: t.id.clone(),
        ..Task::default()
    };
    match d {
        DialectId::PLAN => p.clone(),
        DialectId::CURSOR => Plan {
            title: Some(p.title.clone().unwrap_or_else(|| "Plan".into())),
            goal: p.goal.clone(),
            // An empty body is no body in a file.
            body: p.body.clone().filter(|b| !b.is_empty()),
            extra: p.extra.clone(),
            tasks: p
                .tasks
                .iter()
                .map(|t| Task {
                    description: t.description.clone(),
                    status: t.status.clone(),
                    dependencies: t.dependencies.clone(),
                    extra: t.extra.clone(),
                    ..base(t)
                })
                .collect(),
            ..Plan::default()
        },
        DialectId::PLANDAG => Plan {
            id: p.id.clone(),
            goal: p.goal.clone(),
            success_criteria: p.success_criteria.clone(),
            rollback: p.rollback.clone(),
            metadata: p.metadata.clone(),
            extra: p.extra.clone(),
            tasks: p
                .tasks
                .iter()
                .map(|t| Task {
                    dependencies: nonempty(&t.dependencies),
                    parallel_group: t.parallel_group.clone(),
                    executor: t.executor.clone(),
                    action: t.action.clone(),
                    target: t.target.clone(),
                    params: t.params.clone(),
                    capabilities: nonempty(&t.capabilities),
                    expected_outcome: t.expected_outcome.clone(),
                    timeout_ms: t.timeout_ms.clone(),
                    extra: t.extra.clone(),
                    ..base(t)
                })
                .collect(),
            ..Plan::default()
        },
        DialectId::COMPOSITE => Plan {
            extra: p.extra.clone(),
            tasks: p
                .tasks
                .iter()
                .map(|t| Task {
                    title: t.title.clone(),
                    description: t.description.clone(),
                    branch: t.branch.clone(),
                    dependencies: t.dependencies.clone(),
                    extra: t.extra.clone(),
                    ..base(t)
                })
                .collect(),
            ..Plan::default()
        },
        DialectId::TOOLDAG => Plan {
            extra: p.extra.clone(),
            tasks: p
                .tasks
                .iter()
                .map(|t| Task {
                    tool: t.tool.clone(),
                    description: t.description.clone(),
                    dependencies: nonempty(&t.dependencies),
                    extra: t.extra.clone(),
                    ..base(t)
                })
                .collect(),
            ..Plan::default()
        },
        DialectId::WORKFLOW => Plan {
            title: p.title.clone(),
            goal: p.goal.clone(),
            metadata: p.metadata.clone(),
            shared_inputs: p.shared_inputs.clone(),
            execution: p.execution.clone(),
            extra: p.extra.clone(),
            // Uniform arrays: extra fields only where every item has them, so none.
            groups: p
                .groups
                .iter()
                .map(|g| Group {
                    id: g.id.clone(),
                    name: g.name.clone(),
                    description: g.description.clone(),
                    dependencies: g.dependencies.clone(),
                    executor: g.executor.clone(),
                    tools: g.tools.clone(),
                    ..Group::default()
                })
                .collect(),
            tasks: p
                .tasks
                .iter()
                .map(|t| Task {
                    title: t.title.clone(),
                    group: t.group.clone(),
                    action: t.action.clone(),
                    params: t.params.clone(),
                    kind: t.kind.clone(),
                    timeout_ms: t.timeout_ms.clone(),
                    dependencies: t.dependencies.clone(),
                    retries: t.retries.clone(),
                    ..base(t)
                })
                .collect(),
            ..Plan::default()
        },
        DialectId::STAGED => {
            let mut groups: Vec<Group> = p
                .groups
                .iter()
                .map(|g| Group {
                    id: g.id.clone(),
                    name: g.name.clone(),
                    mode: Some(g.mode.clone().unwrap_or_else(|| "parallel".into())),
                    extra: g.extra.clone(),
                    ..Group::default()
                })
                .collect();
            if groups.is_empty() && !p.tasks.is_empty() {
                groups.push(Group {
                    id: "g0".into(),
                    mode: Some("sequence".into()),
                    ..Group::default()
                });
            }
            let first = groups.first().map(|g| g.id.clone());
            let mut tasks: Vec<Task> = p
                .tasks
                .iter()
                .map(|t| Task {
                    title: t.title.clone(),
                    kind: t.kind.clone(),
                    executor: t.executor.clone(),
                    tools: t.tools.clone(),
                    dependencies: t.dependencies.clone(),
                    outputs: t.outputs.clone(),
                    group: t.group.clone().or_else(|| first.clone()),
                    extra: t.extra.clone(),
                    ..base(t)
                })
                .collect();
            let order = |t: &Task| groups.iter().position(|g| Some(&g.id) == t.group.as_ref());
            tasks.sort_by_key(order);
            Plan {
                id: p.id.clone(),
                goal: p.goal.clone(),
                constraints: p.constraints.clone(),
                extra: p.extra.clone(),
                groups,
                tasks,
                ..Plan::default()
            }
        }
        DialectId::TASKMASTER => Plan {
            metadata: p.metadata.clone(),
            extra: p.extra.clone(),
            tasks: p
                .tasks
                .iter()
                .map(|t| Task {
                    // Required texts: written `""` when missing, which reads as missing.
                    title: t.title.clone().filter(|s| !s.is_empty()),
                    status: t.status.clone().filter(|s| !s.is_empty()),
                    description: t.description.clone(),
                    details: t.details.clone(),
                    test_strategy: t.test_strategy.clone(),
                    priority: t.priority.clone(),
                    dependencies: t.dependencies.clone(),
                    extra: t.extra.clone(),
                    ..base(t)
                })
                .collect(),
            ..Plan::default()
        },
        DialectId::KIRO => {
            // A markdown task list: tasks numbered, one-line titles, one bullet a
            // detail line, lists of comma-free items, progress as a box.
            let line = |s: &str| s.replace(['\n', '\r'], " ").trim().to_owned();
            let number: std::collections::HashMap<&str, String> = p
                .tasks
                .iter()
                .enumerate()
                .map(|(i, t)| (t.id.as_str(), (i + 1).to_string()))
                .collect();
            let items = |l: &Option<Vec<String>>| {
                l.as_ref().map(|l| {
                    l.iter()
                        .map(|s| line(s).replace(',', " ").trim().to_owned())
                        .filter(|s| !s.is_empty() && !s.ends_with('_'))
                        .collect::<Vec<_>>()
                })
            };
            Plan {
                // A one-line title, even Kiro's own heading (written `# … #`).
                title: p.title.as_deref().map(line).filter(|s| !s.is_empty()),
                tasks: p
                    .tasks
                    .iter()
                    .enumerate()
                    .map(|(i, t)| Task {
                        id: (i + 1).to_string(),
                        title: Some(
                            t.title
                                .as_deref()
                                .map(line)
                                .filter(|s| !s.is_empty())
                                .unwrap_or_else(|| "task".into()),
                        ),
                        status: Some(
                            match t.status.as_deref() {
                                Some("completed" | "done") => "completed",
                                Some("in_progress" | "in-progress") => "in_progress",
                                _ => "pending",
                            }
                            .into(),
                        ),
                        details: t
                            .details
                            .as_deref()
                            .map(|d| {
                                d.lines()
                                    .map(|l| {
                                        l.trim()
                                            .trim_start_matches(['-', '*', '+', '_', '['])
                                            .trim()
                                    })
                                    .collect::<Vec<_>>()
                                    .join("\n")
                                    // Blank detail lines at the end are no bullets.
                                    .trim_end_matches('\n')
                                    .to_owned()
                            })
                            .filter(|d| !d.trim().is_empty()),
                        dependencies: t.dependencies.as_ref().map(|deps| {
                            deps.iter()
                                .filter_map(|d| number.get(d.as_str()).cloned())
                                .collect()
                        }),
                        requirements: items(&t.requirements),
                        ..Task::default()
                    })
                    .collect(),
                ..Plan::default()
            }
        }
        DialectId::SPECKIT => {
            // A markdown task list: tasks `T001`, … with one-line titles, progress as
            // a box, `[P]`, phases `phase-1`, … in order, the tasks of no phase first;
            // the order Spec Kit runs them in as dependencies.
            let line = |s: &str| s.replace(['\n', '\r'], " ").trim().to_owned();
            let groups: Vec<Group> = p
                .groups
                .iter()
                .enumerate()
                .map(|(k, g)| Group {
                    id: (k + 1).to_string(),
                    name: g.name.as_deref().map(line),
                    dependencies: k.checked_sub(1).map(|j| vec![(j + 1).to_string()]),
                    ..Group::default()
                })
                .collect();
            let phase_of = |g: &Option<String>| {
                let k = p.groups.iter().position(|x| Some(&x.id) == g.as_ref())?;
                Some((k + 1).to_string())
            };
            let mut tasks: Vec<Task> = p
                .tasks
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let mut extra = Extra::new();
                    if t.parallel_group.is_some() {
                        extra.insert("parallel".into(), Value::Bool(true));
                    }
                    let title = t.title.as_deref().map(line).unwrap_or_default();
                    Task {
                        id: format!("T{:03}", i + 1),
                        title: Some(format!("do {title}").trim().to_owned()),
                        status: Some(
                            match t.status.as_deref() {
                                Some("completed" | "done") => "completed",
                                Some("in_progress" | "in-progress") => "in_progress",
                                _ => "pending",
                            }
                            .into(),
                        ),
                        group: phase_of(&t.group),
                        extra,
                        ..Task::default()
                    }
                })
                .collect();
            let order = |t: &Task| {
                t.group
                    .as_ref()
                    .map(|g| 1 + groups.iter().position(|x| &x.id == g).unwrap_or(0))
            };
            tasks.sort_by_key(order);
            let mut state: std::collections::HashMap<
                Option<String>,
                (Option<String>, Vec<String>),
            > = Default::default();
            for t in &mut tasks {
                let (last, run) = state.entry(t.group.clone()).or_default();
                let deps: Vec<String> = if t.extra.contains_key("parallel") {
                    run.push(t.id.clone());
                    last.iter().cloned().collect()
                } else {
                    let deps = if run.is_empty() {
                        last.iter().cloned().collect()
                    } else {
                        std::mem::take(run)
                    };
                    *last = Some(t.id.clone());
                    deps
                };
                t.dependencies = (!deps.is_empty()).then_some(deps);
            }
            Plan {
                title: p.title.as_deref().map(line).filter(|s| !s.is_empty()),
                groups,
                tasks,
                ..Plan::default()
            }
        }
        other => panic!("no projection for the {other} dialect: add one here"),
    }
}

fn formats(d: DialectId) -> Vec<Format> {
    Format::ALL
        .into_iter()
        .filter(|f| d.dialect().supports(*f))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn what_a_dialect_holds_comes_back(p in plan()) {
        for d in DialectId::all() {
            // What the dialect holds, taken as read from it: written back as it is.
            let mut held = project(&p, d);
            held.set_source_dialect(Some(d));
            for f in formats(d) {
                let conv = toon_plan::convert(&held, d, &toon_plan::ConvertOptions { format: Some(f), ..Default::default() }).unwrap();
                prop_assert!(
                    conv.report.is_lossless(),
                    "{} {}: {}\n{}", d, f, conv.report, conv.text
                );
            }
        }
    }

    #[test]
    fn the_report_names_every_difference(p in plan()) {
        for d in DialectId::all() {
            for f in formats(d) {
                let conv = toon_plan::convert(&p, d, &toon_plan::ConvertOptions { format: Some(f), ..Default::default() }).unwrap();
                let back = toon_plan::read(&conv.text, &toon_plan::ReadOptions { dialect: Some(d), format: Some(f), ..Default::default() }).unwrap().plan;
                // Set the reported fields aside on both sides; the rest is equal.
                let mut a = serde_json::to_value(&p).unwrap();
                let mut b = serde_json::to_value(&back).unwrap();
                for l in &conv.report.losses {
                    for v in [&mut a, &mut b] {
                        forget(v, &l.owner, &l.field);
                    }
                }
                prop_assert!(
                    toon_plan::conversion::loss::same_value(&a, &b),
                    "{} {}: unreported difference\n{}\n{}", d, f, a, b
                );
                // Converting back into the plan model: empty report iff equal.
                let again = LossReport::between(&p, &back);
                prop_assert_eq!(again.is_empty(), conv.report.is_lossless());
            }
        }
    }

    #[test]
    fn any_text_is_a_cursor_file_byte_for_byte(
        text in "(\u{feff})?(---\r?\n|<!--\n)?((name|overview|todos|  - id|    status|    content|isProject)(: )?|[a-z0-9 ]{0,6}|: |- |\\[|\\]|\"|'|#|\t|\r\n|\n|---\n|-->|é|日){0,30}"
    ) {
        let l = toon_plan::read(&text, &toon_plan::ReadOptions { dialect: Some(DialectId::CURSOR), format: Some(Format::Md), ..Default::default() }).unwrap();
        let _ = toon_plan::validate(&l);
        let out = toon_plan::convert(&l.plan, DialectId::CURSOR, &toon_plan::ConvertOptions { format: Some(Format::Md), ..Default::default() }).map(|c| c.text).unwrap();
        prop_assert_eq!(&out, &text);
        for f in [Format::Toon, Format::Json, Format::Yaml] {
            let conv = toon_plan::convert(&l.plan, DialectId::PLAN, &toon_plan::ConvertOptions { format: Some(f), ..Default::default() }).unwrap();
            prop_assert!(conv.report.is_lossless(), "{}", conv.report);
            let back = toon_plan::read(&conv.text, &toon_plan::ReadOptions { dialect: Some(DialectId::PLAN), format: Some(f), ..Default::default() }).unwrap();
            let again = toon_plan::convert(&back.plan, DialectId::CURSOR, &toon_plan::ConvertOptions { ..Default::default() }).map(|c| c.text).unwrap();
            prop_assert_eq!(&again, &text);
        }
    }

    #[test]
    fn no_input_panics(text in "[\\[\\]{}\"':,# \n\r\t-]{0,20}|(---\n|## Tasks\n|### Task 1: x\n|- \\*\\*ID\\*\\*: a\n|dag:\n|  - id: b\n|\\{\"steps\": \\[\\{\\}\\]\\}){0,8}") {
        for d in DialectId::all() {
            for f in Format::ALL {
                if let Ok(l) = toon_plan::read(&text, &toon_plan::ReadOptions { dialect: Some(d), format: Some(f), ..Default::default() }) {
                    let _ = toon_plan::validate(&l);
                    for to in DialectId::all() {
                        let _ = toon_plan::convert(&l.plan, to, &toon_plan::ConvertOptions { ..Default::default() });
                    }
                }
            }
        }
        let _ = toon_plan::read(&text, &toon_plan::ReadOptions::default());
    }

    #[test]
    fn toon_of_a_tree_is_plain_toon(
        lists in prop::collection::vec(
            prop::collection::vec(prop::collection::vec(("x[a-c]", value()), 0..4), 1..4),
            1..3,
        ),
        ids in any::<bool>(),
    ) {
        let mut top = Map::new();
        for (li, items) in lists.into_iter().enumerate() {
            let rows: Vec<Value> = items
                .into_iter()
                .enumerate()
                .map(|(i, kv)| {
                    let mut o: Map<String, Value> = Map::new();
                    if ids || i > 0 {
                        o.insert("id".into(), Value::String(format!("r{i}")));
                    }
                    o.extend(kv);
                    Value::Object(o)
                })
                .collect();
            top.insert(format!("list{li}"), Value::Array(rows));
        }
        let tree = Value::Object(top);
        let text = toon_plan::syntax::format::write_tree(&tree, Format::Toon).unwrap();
        // Any conformant decoder reads back exactly the tree: no layout of our own.
        prop_assert_eq!(toon::decode_value(&text).unwrap(), toon::Value::from(tree.clone()));
        let back = toon_plan::Document::parse(&text, Format::Toon).unwrap();
        prop_assert!(toon_plan::conversion::loss::same_value(back.tree().unwrap(), &tree), "{}", text);
    }

    #[test]
    fn yaml_writer_reads_back(v in value()) {
        let text = toon_plan::syntax::yaml::to_string(&v);
        let back = toon_plan::syntax::yaml::parse(&text).unwrap();
        prop_assert!(toon_plan::conversion::loss::same_value(&v, &back), "{}\n{:?}", text, back);
    }
}

/// Removes a reported field (or whole task/group, or order) from a serialised plan.
fn forget(v: &mut Value, owner: &str, field: &str) {
    let Some(obj) = v.as_object_mut() else { return };
    if field.ends_with("(order)") {
        let key = if field.starts_with("group") {
            "groups"
        } else {
            "tasks"
        };
        if let Some(Value::Array(items)) = obj.get_mut(key) {
            items.sort_by_key(|i| i.get("id").map(|x| x.to_string()));
        }
        return;
    }
    let target: Option<&mut Map<String, Value>> = match owner.split_once(' ') {
        Some((kind @ ("task" | "group"), id)) => {
            let key = if kind == "task" { "tasks" } else { "groups" };
            match obj.get_mut(key) {
                Some(Value::Array(items)) => {
                    if field == "(whole)" {
                        items.retain(|i| i.get("id").and_then(Value::as_str) != Some(id));
                        if items.is_empty() {
                            obj.shift_remove(key);
                        }
                        return;
                    }
                    items
                        .iter_mut()
                        .find(|i| i.get("id").and_then(Value::as_str) == Some(id))
                        .and_then(Value::as_object_mut)
                }
                _ => None,
            }
        }
        _ => Some(obj),
    };
    let Some(m) = target else { return };
    match field.split_once('.') {
        Some((outer @ ("extra" | "layout"), inner)) => {
            if let Some(Value::Object(x)) = m.get_mut(outer) {
                x.shift_remove(inner);
                if x.is_empty() {
                    m.shift_remove(outer);
                }
            }
        }
        _ => {
            m.shift_remove(field);
        }
    }
}
