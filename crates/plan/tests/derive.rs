//! One test per row of the mapping table (`docs/plan-mapping.md`): each target field a
//! conversion fills in, with the kind (derived, defaulted, set) and rule the loss
//! report gives it, and the fields no rule can fill.

use toon_plan::{Change, DialectId, Format, Loss, Plan, Setting, Task};

fn task(id: &str, deps: &[&str]) -> Task {
    Task {
        id: id.to_owned(),
        dependencies: Some(deps.iter().map(|d| (*d).to_owned()).collect()),
        ..Task::default()
    }
}

fn plan(tasks: Vec<Task>) -> Plan {
    Plan {
        tasks,
        ..Plan::default()
    }
}

/// Converts, reads the JSON back, and returns the target tree and the report.
fn convert(
    p: &Plan,
    from: DialectId,
    to: DialectId,
    sets: &[&str],
) -> (serde_json::Value, Vec<Loss>, usize) {
    let sets: Vec<Setting> = sets.iter().map(|s| s.parse().unwrap()).collect();
    let mut p = p.clone();
    p.set_source_dialect(Some(from));
    let c = toon_plan::convert(
        &p,
        to,
        &toon_plan::ConvertOptions {
            format: Some(Format::Json),
            set: sets.to_vec(),
            ..Default::default()
        },
    )
    .unwrap();
    let tree = serde_json::from_str(&c.text).unwrap();
    (tree, c.report.losses.clone(), c.report.target_errors())
}

fn entry<'a>(losses: &'a [Loss], owner: &str, field: &str) -> &'a Loss {
    losses
        .iter()
        .find(|l| l.owner == owner && l.field == field)
        .unwrap_or_else(|| panic!("no report entry for {owner} {field}: {losses:#?}"))
}

#[test]
fn plandag_parallel_group_is_the_schedule_wave_and_metadata_defaults() {
    let p = plan(vec![task("a", &[]), task("b", &["a"]), task("c", &[])]);
    let (tree, losses, _) = convert(
        &p,
        DialectId::CURSOR,
        DialectId::PLANDAG,
        &["action=extract", "agent_type=api_agent"],
    );
    let groups: Vec<u64> = tree["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["parallel_group"].as_u64().unwrap())
        .collect();
    assert_eq!(groups, [1, 2, 1]);
    let l = entry(&losses, "task b", "parallel_group");
    assert_eq!((l.change, l.rule), (Change::Derived, Some("schedule wave")));
    assert_eq!(entry(&losses, "plan", "metadata").change, Change::Defaulted);
    assert_eq!(entry(&losses, "task a", "action").change, Change::Set);
}

/// PlanDAG keeps only its own capabilities: a list with others is changed, to `[]`
/// when none is left (the step holds `capabilities_required: []`), never dropped.
#[test]
fn plandag_capabilities_outside_its_set_are_reported_changed() {
    let caps = |t: &mut Task, c: &[&str]| {
        t.capabilities = Some(c.iter().map(|s| (*s).to_owned()).collect());
    };
    let (mut a, mut b, mut c) = (task("a", &[]), task("b", &[]), task("c", &[]));
    caps(&mut a, &["deploy"]);
    caps(&mut b, &["deploy", "CAP_READ"]);
    caps(&mut c, &["CAP_READ"]);
    let (tree, losses, _) = convert(
        &plan(vec![a, b, c]),
        DialectId::PLAN,
        DialectId::PLANDAG,
        &["action=extract", "agent_type=api_agent"],
    );
    let written: Vec<&serde_json::Value> = tree["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["capabilities_required"])
        .collect();
    assert_eq!(
        written,
        [
            &serde_json::json!([]),
            &serde_json::json!(["CAP_READ"]),
            &serde_json::json!(["CAP_READ"])
        ]
    );
    for (owner, after) in [
        ("task a", serde_json::json!([])),
        ("task b", serde_json::json!(["CAP_READ"])),
    ] {
        let l = entry(&losses, owner, "capabilities");
        assert_eq!(l.change, Change::Changed, "{owner}: {l}");
        assert_eq!(l.after.as_ref(), Some(&after), "{owner}: {l}");
    }
    assert!(
        !losses
            .iter()
            .any(|l| l.owner == "task c" && l.field == "capabilities"),
        "{losses:#?}"
    );
}

#[test]
fn plandag_action_and_agent_type_have_no_sensible_value() {
    let p = plan(vec![task("a", &[])]);
    let (_, _, errors) = convert(&p, DialectId::CURSOR, DialectId::PLANDAG, &[]);
    assert!(
        errors >= 2,
        "action and agent_type must be refused, not invented"
    );
}

#[test]
fn tooldag_tool_is_the_first_of_tools_else_refused() {
    let mut t = task("a", &[]);
    t.tools = Some(vec!["web_search".into(), "calc".into()]);
    t.title = Some("Find it".into());
    let (tree, losses, errors) =
        convert(&plan(vec![t]), DialectId::STAGED, DialectId::TOOLDAG, &[]);
    assert_eq!(errors, 0);
    assert_eq!(tree["dag"][0]["tool"], "web_search");
    assert_eq!(
        entry(&losses, "task a", "tool").rule,
        Some("first of tools")
    );
    // The query is the task's words: its title here.
    assert_eq!(tree["dag"][0]["query"], "Find it");
    let (_, _, errors) = convert(
        &plan(vec![task("b", &[])]),
        DialectId::CURSOR,
        DialectId::TOOLDAG,
        &[],
    );
    assert!(errors > 0);
    let (tree, _, errors) = convert(
        &plan(vec![task("b", &[])]),
        DialectId::CURSOR,
        DialectId::TOOLDAG,
        &["b.tool=calc", "query=2+2"],
    );
    assert_eq!((errors, tree["dag"][0]["tool"].as_str()), (0, Some("calc")));
}

#[test]
fn cursor_content_comes_from_the_title_and_status_defaults_to_pending() {
    let mut t = task("a", &[]);
    t.title = Some("Write the spec".into());
    let (tree, losses, _) = convert(&plan(vec![t]), DialectId::STAGED, DialectId::CURSOR, &[]);
    let todo = &tree["todos"][0];
    assert_eq!(
        (todo["content"].as_str(), todo["status"].as_str()),
        (Some("Write the spec"), Some("pending"))
    );
    assert_eq!(entry(&losses, "task a", "status").change, Change::Defaulted);
}

#[test]
fn composite_prompt_comes_from_the_action_and_target() {
    let mut t = task("open", &[]);
    t.action = Some("navigate".into());
    t.target = Some("https://shop.example".into());
    let (tree, losses, errors) = convert(
        &plan(vec![t]),
        DialectId::PLANDAG,
        DialectId::COMPOSITE,
        &[],
    );
    assert_eq!(errors, 0);
    assert_eq!(tree["tasks"][0]["prompt"], "navigate https://shop.example");
    assert_eq!(
        entry(&losses, "task open", "description").rule,
        Some("from the action and target")
    );
}

#[test]
fn staged_executor_is_tooling_for_tool_calls_and_intent_follows_the_step_type() {
    let mut a = task("a", &[]);
    a.tool = Some("calc".into());
    a.kind = Some("ANALYSIS".into());
    let mut b = task("b", &["a"]);
    b.tool = Some("search".into());
    let (tree, losses, errors) = convert(
        &plan(vec![a, b]),
        DialectId::TOOLDAG,
        DialectId::STAGED,
        &[],
    );
    assert_eq!(errors, 0, "{tree}");
    let steps: Vec<&serde_json::Value> = tree["stages"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["steps"].as_array().unwrap())
        .collect();
    assert!(steps.iter().all(|s| s["executor"] == "tooling"));
    assert_eq!(steps[1]["tools"], serde_json::json!(["search"]));
    assert_eq!(
        entry(&losses, "task b", "tools").rule,
        Some("the tool it calls")
    );
    assert_eq!(steps[0]["intent"], "analysis");
    assert_eq!(entry(&losses, "task a", "kind").change, Change::Derived);
    assert_eq!(entry(&losses, "task b", "kind").change, Change::Defaulted);
    // Stages follow the waves: b waits for a.
    assert_eq!(tree["stages"].as_array().unwrap().len(), 2);
}

#[test]
fn staged_executor_without_a_tool_needs_a_value() {
    let (_, _, errors) = convert(
        &plan(vec![task("a", &[])]),
        DialectId::CURSOR,
        DialectId::STAGED,
        &[],
    );
    assert!(errors > 0);
    let (_, _, errors) = convert(
        &plan(vec![task("a", &[])]),
        DialectId::CURSOR,
        DialectId::STAGED,
        &["executor=writer"],
    );
    assert_eq!(errors, 0);
}

#[test]
fn workflow_gets_a_step_type_one_task_and_a_title() {
    let mut a = task("a", &[]);
    a.kind = Some("review".into());
    let p = Plan {
        id: Some("p-1".into()),
        ..plan(vec![a, task("b", &["a"])])
    };
    let (tree, losses, errors) = convert(&p, DialectId::STAGED, DialectId::WORKFLOW, &[]);
    assert_eq!(errors, 0, "{tree}");
    assert_eq!(tree["steps"][0]["step_type"], "CONDITION_CHECK");
    assert_eq!(tree["steps"][1]["step_type"], "AGENT_EXECUTION");
    assert_eq!(tree["tasks"].as_array().unwrap().len(), 1);
    assert_eq!(tree["steps"][1]["task_id"], tree["tasks"][0]["id"]);
    assert_eq!(tree["metadata"]["title"], "p-1");
    assert_eq!(
        entry(&losses, "plan", "title").rule,
        Some("from the plan id")
    );
    assert_eq!(entry(&losses, "task b", "kind").change, Change::Defaulted);
}

#[test]
fn a_plan_written_in_its_own_dialect_gets_nothing_filled() {
    let p = plan(vec![task("a", &[])]);
    let c =
        toon_plan::convert(&p, DialectId::CURSOR, &toon_plan::ConvertOptions::default()).unwrap();
    assert!(c.report.is_lossless(), "{:#?}", c.report);
    assert!(!c.text.contains("status"));
}

#[test]
fn a_setting_for_a_missing_task_is_an_error() {
    let p = plan(vec![task("a", &[])]);
    let sets = ["zzz.tool=x".parse().unwrap()];
    let e = toon_plan::convert(
        &p,
        DialectId::TOOLDAG,
        &toon_plan::ConvertOptions {
            set: sets.to_vec(),
            ..Default::default()
        },
    )
    .unwrap_err();
    assert!(e.to_string().contains("no task \"zzz\""), "{e}");
}

#[test]
fn staged_titles_come_from_the_words() {
    let mut t = task("a", &[]);
    t.description = Some("Albert Einstein date of birth".into());
    t.tool = Some("search".into());
    let (tree, losses, errors) =
        convert(&plan(vec![t]), DialectId::TOOLDAG, DialectId::STAGED, &[]);
    assert_eq!(errors, 0);
    assert_eq!(
        tree["stages"][0]["steps"][0]["title"],
        "Albert Einstein date of birth"
    );
    assert_eq!(
        entry(&losses, "task a", "title").rule,
        Some("from the description")
    );
}

#[test]
fn plan_id_and_goal_come_from_the_title() {
    let mut t = task("a", &[]);
    t.tool = Some("search".into());
    let titled = Plan {
        title: Some("Add the dark mode".into()),
        ..plan(vec![t])
    };
    for (to, id_key, goal_key, sets) in [
        (DialectId::STAGED, "id", "goal", &[][..]),
        (
            DialectId::PLANDAG,
            "plan_id",
            "intent",
            &["action=extract", "agent_type=api_agent"][..],
        ),
    ] {
        let (tree, losses, errors) = convert(&titled, DialectId::CURSOR, to, sets);
        assert_eq!(errors, 0, "{tree}");
        assert_eq!(tree[id_key], "add-dark-mode", "{to}");
        assert_eq!(tree[goal_key], "Add the dark mode", "{to}");
        let id = entry(&losses, "plan", "id");
        assert_eq!(
            (id.change, id.rule),
            (Change::Derived, Some("from the title"))
        );
        assert_eq!(entry(&losses, "plan", "goal").rule, Some("from the title"));
    }
    // No title: the id comes from the goal, which is kept.
    let goal_only = Plan {
        title: None,
        goal: Some("Ship it".into()),
        ..titled.clone()
    };
    let (tree, losses, _) = convert(&goal_only, DialectId::CURSOR, DialectId::STAGED, &[]);
    assert_eq!(
        (&tree["id"], &tree["goal"]),
        (&"ship".into(), &"Ship it".into())
    );
    assert_eq!(entry(&losses, "plan", "id").rule, Some("from the goal"));
    // The plan's own id and goal are kept.
    let own = Plan {
        id: Some("p-7".into()),
        goal: Some("Mine".into()),
        ..titled
    };
    let (tree, losses, _) = convert(&own, DialectId::CURSOR, DialectId::STAGED, &[]);
    assert_eq!(
        (&tree["id"], &tree["goal"]),
        (&"p-7".into(), &"Mine".into())
    );
    assert!(!losses.iter().any(|l| l.owner == "plan" && l.field == "id"));
}

#[test]
fn required_text_without_a_value_is_written_empty_and_reported() {
    let p = Plan {
        title: Some("T".into()),
        ..plan(vec![task("a", &[])])
    };
    let (tree, losses, errors) = convert(
        &p,
        DialectId::CURSOR,
        DialectId::PLANDAG,
        &["action=extract", "agent_type=api_agent"],
    );
    assert_eq!(errors, 0, "{tree}");
    assert_eq!(tree["success_criteria"], "");
    assert_eq!(tree["steps"][0]["target"], "");
    for (owner, field) in [("plan", "success_criteria"), ("task a", "target")] {
        let l = entry(&losses, owner, field);
        assert_eq!(l.change, Change::Defaulted, "{l}");
        assert_eq!(l.after, Some(serde_json::json!("")));
        assert!(
            l.to_string()
                .ends_with("defaulted: \"\" (empty: the plan has no value for it)"),
            "{l}"
        );
    }
    // Beside its owner's other entries: the plan's first, then task a's.
    let owners: Vec<&str> = losses.iter().map(|l| l.owner.as_str()).collect();
    let first_task = owners.iter().position(|o| *o != "plan").unwrap();
    assert!(
        owners[first_task..].iter().all(|o| *o == "task a"),
        "{owners:?}"
    );
    // A target given a value reports nothing empty.
    let mut aimed = p.clone();
    aimed.tasks[0].target = Some("https://example.com".into());
    let (_, losses, _) = convert(
        &aimed,
        DialectId::CURSOR,
        DialectId::PLANDAG,
        &["action=extract", "agent_type=api_agent"],
    );
    assert!(!losses.iter().any(|l| l.field == "target"), "{losses:#?}");
}

#[test]
fn a_source_group_becomes_a_stage_with_a_derived_mode() {
    let mut a = task("a", &[]);
    let mut b = task("b", &["a"]);
    for t in [&mut a, &mut b] {
        t.group = Some("g".into());
        t.tool = Some("search".into());
    }
    let p = Plan {
        groups: vec![toon_plan::Group {
            id: "g".into(),
            ..Default::default()
        }],
        ..plan(vec![a, b])
    };
    let (tree, losses, errors) = convert(&p, DialectId::WORKFLOW, DialectId::STAGED, &[]);
    assert_eq!(errors, 0, "{tree}");
    assert_eq!(tree["stages"][0]["mode"], "sequence");
    let l = entry(&losses, "group g", "mode");
    assert_eq!(l.change, Change::Derived);
}

#[test]
fn workflow_task_description_is_the_plan_goal() {
    let p = Plan {
        title: Some("T".into()),
        goal: Some("Do the thing".into()),
        ..plan(vec![task("a", &[])])
    };
    let (tree, _, errors) = convert(&p, DialectId::CURSOR, DialectId::WORKFLOW, &[]);
    assert_eq!(errors, 0, "{tree}");
    assert_eq!(tree["tasks"][0]["description"], "Do the thing");
}

#[test]
fn a_setting_the_target_does_not_know_is_an_error() {
    let p = plan(vec![task("a", &[])]);
    for set in ["agent_type=browser", "a.agent_type=browser"] {
        let sets = [set.parse().unwrap()];
        let e = toon_plan::convert(
            &p,
            DialectId::PLANDAG,
            &toon_plan::ConvertOptions {
                set: sets.to_vec(),
                ..Default::default()
            },
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .contains("plandag does not know \"browser\" (one of: browser_agent, api_agent)"),
            "{e}"
        );
    }
}

#[test]
fn cursor_status_is_not_invented_for_a_plan_model_source() {
    // A Cursor todo without a status, through the plan model as TOON and back: the same
    // bytes, with nothing filled.
    let md = "---\nname: No status\ntodos:\n  - id: a\n    content: Do the thing\n---\n";
    let loaded = toon_plan::read(
        md,
        &toon_plan::ReadOptions {
            dialect: Some(DialectId::CURSOR),
            format: Some(Format::Md),
            ..Default::default()
        },
    )
    .unwrap();
    let model = toon_plan::convert(
        &loaded.plan,
        DialectId::PLAN,
        &toon_plan::ConvertOptions {
            format: Some(Format::Toon),
            ..Default::default()
        },
    )
    .unwrap();
    let back = toon_plan::read(
        &model.text,
        &toon_plan::ReadOptions {
            format: Some(Format::Toon),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(back.dialect, DialectId::PLAN);
    let c = toon_plan::convert(
        &back.plan,
        DialectId::CURSOR,
        &toon_plan::ConvertOptions {
            format: Some(Format::Md),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(c.text, md);
    assert!(c.report.is_lossless(), "{:#?}", c.report);
    // From a dialect without statuses, `pending` as before.
    let mut t = task("a", &[]);
    t.title = Some("Do the thing".into());
    let (tree, losses, _) = convert(&plan(vec![t]), DialectId::STAGED, DialectId::CURSOR, &[]);
    assert_eq!(tree["todos"][0]["status"], "pending");
    assert_eq!(entry(&losses, "task a", "status").change, Change::Defaulted);
}

#[test]
fn a_setting_that_would_go_nowhere_is_an_error() {
    let p = plan(vec![task("a", &[])]);
    for (to, set, says) in [
        (
            DialectId::CURSOR,
            "tool=web",
            "cursor has no field for a task's tool",
        ),
        (DialectId::TOOLDAG, "tool=", "give a value after `=`"),
        (DialectId::TOOLDAG, "tool= ", "give a value after `=`"),
        (
            DialectId::PLANDAG,
            "parallel_group=0",
            "not a positive integer",
        ),
    ] {
        let sets = [set.parse().unwrap()];
        let e = toon_plan::convert(
            &p,
            to,
            &toon_plan::ConvertOptions {
                set: sets.to_vec(),
                ..Default::default()
            },
        )
        .unwrap_err();
        assert!(e.to_string().contains(says), "{set}: {e}");
    }
    // The plan model holds every field.
    let sets = ["tool=web".parse().unwrap()];
    let c = toon_plan::convert(
        &p,
        DialectId::PLAN,
        &toon_plan::ConvertOptions {
            set: sets.to_vec(),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(c.text.contains("web"), "{}", c.text);
}

#[test]
fn staged_titles_come_from_the_action_without_words() {
    let mut t = task("load", &[]);
    t.action = Some("load_csv".into());
    t.tool = Some("pandas".into());
    let (tree, losses, errors) =
        convert(&plan(vec![t]), DialectId::WORKFLOW, DialectId::STAGED, &[]);
    assert_eq!(errors, 0, "{tree}");
    assert_eq!(tree["stages"][0]["steps"][0]["title"], "load_csv");
    assert_eq!(
        entry(&losses, "task load", "title").rule,
        Some("from the action and target")
    );
}

#[test]
fn ids_of_any_script_convert_to_a_tool_dag() {
    let mut t = task("резервная-копия", &[]);
    t.description = Some("Сделать копию".into());
    let mut u = task("復元", &["резервная-копия"]);
    u.description = Some("戻す".into());
    let (tree, _, errors) = convert(
        &plan(vec![t, u]),
        DialectId::CURSOR,
        DialectId::TOOLDAG,
        &["tool=web_search"],
    );
    assert_eq!(errors, 0, "{tree}");
    assert_eq!(tree["dag"][1]["dependencies"][0], "резервная-копия");
    // Combining marks are part of an id too.
    for good in ["हिन्दी", "cafe\u{301}"] {
        let mut t = task(good, &[]);
        t.description = Some("q".into());
        let (_, _, errors) = convert(
            &plan(vec![t]),
            DialectId::CURSOR,
            DialectId::TOOLDAG,
            &["tool=t"],
        );
        assert_eq!(errors, 0, "{good}");
    }
    // Spaces and other punctuation are not ids: each becomes `_`, the dependencies
    // follow, and the report says the id was derived.
    for (bad, id) in [("two words", "two_words"), ("a.b", "a_b"), ("x!", "x_")] {
        let mut t = task(bad, &[]);
        t.description = Some("q".into());
        let mut after = task("after", &[bad]);
        after.description = Some("r".into());
        let (tree, losses, errors) = convert(
            &plan(vec![t, after]),
            DialectId::CURSOR,
            DialectId::TOOLDAG,
            &["tool=t"],
        );
        assert_eq!(errors, 0, "{bad}");
        assert_eq!(tree["dag"][0]["id"], id, "{bad}");
        assert_eq!(tree["dag"][1]["dependencies"][0], id, "{bad}");
        // The task under its new id is a task the plan did not have.
        let added = format!("task {id}");
        assert!(
            losses
                .iter()
                .any(|l| l.owner == added && l.change == toon_plan::Change::Added),
            "{bad}: {losses:?}"
        );
    }
}

#[test]
fn workflow_step_names_and_plandag_outcomes_hold_the_todo_text() {
    let mut t = task("toggle", &[]);
    t.description = Some("Add the toggle to the settings page".into());
    let p = plan(vec![t]);
    let (tree, losses, errors) = convert(&p, DialectId::CURSOR, DialectId::WORKFLOW, &[]);
    assert_eq!(errors, 0);
    assert_eq!(
        tree["steps"][0]["name"],
        "Add the toggle to the settings page"
    );
    assert_eq!(
        entry(&losses, "task toggle", "title").rule,
        Some("from the description")
    );
    let (tree, losses, _) = convert(
        &p,
        DialectId::CURSOR,
        DialectId::PLANDAG,
        &["action=extract", "agent_type=api_agent"],
    );
    assert_eq!(
        tree["steps"][0]["expected_outcome"],
        "Add the toggle to the settings page"
    );
    assert_eq!(
        entry(&losses, "task toggle", "expected_outcome").change,
        Change::Derived
    );
    // Read back, the outcome is the todo's content again, not the action set above.
    let back = toon_plan::read(&tree.to_string(), &toon_plan::ReadOptions::default()).unwrap();
    let (tree, _, _) = convert(&back.plan, DialectId::PLANDAG, DialectId::CURSOR, &[]);
    assert_eq!(
        tree["todos"][0]["content"],
        "Add the toggle to the settings page"
    );
}

#[test]
fn a_setting_replaces_an_action_after_the_words_are_taken_from_it() {
    let mut t = task("dedupe", &[]);
    t.action = Some("dedupe".into());
    let (tree, _, _) = convert(
        &plan(vec![t]),
        DialectId::WORKFLOW,
        DialectId::PLANDAG,
        &["action=extract", "agent_type=api_agent"],
    );
    let step = &tree["steps"][0];
    assert_eq!(
        (step["action"].as_str(), step["expected_outcome"].as_str()),
        (Some("extract"), Some("dedupe"))
    );
}

#[test]
fn a_plan_without_a_name_takes_its_body_heading_as_title_and_numbered_headings_as_tasks() {
    let text = "# Move sessions to Redis\n\nWhy.\n\n## Step 1: Add the client\n\n## Step 2: Write sessions\n";
    let loaded = toon_plan::read(text, &toon_plan::ReadOptions::default()).unwrap();
    let titles: Vec<_> = loaded
        .plan
        .tasks
        .iter()
        .map(|t| t.title.as_deref().unwrap())
        .collect();
    assert_eq!(titles, ["Add the client", "Write sessions"]);
    let (tree, losses, _) = convert(&loaded.plan, DialectId::CURSOR, DialectId::WORKFLOW, &[]);
    assert_eq!(tree["metadata"]["title"], "Move sessions to Redis");
    assert_eq!(tree["steps"][1]["name"], "Write sessions");
    assert_eq!(
        entry(&losses, "plan", "title").rule,
        Some("from the body's first heading")
    );
    let (tree, _, _) = convert(
        &loaded.plan,
        DialectId::CURSOR,
        DialectId::STAGED,
        &["executor=writer"],
    );
    assert_eq!(
        (tree["id"].as_str(), tree["goal"].as_str()),
        (Some("move-sessions-redis"), Some("Move sessions to Redis"))
    );
    // Back to Cursor, the heading stays in the body and no `name` is added.
    let (tree, _, _) = convert(&loaded.plan, DialectId::PLAN, DialectId::CURSOR, &[]);
    assert!(tree.get("name").is_none(), "{tree}");
}

#[test]
fn a_plan_without_tasks_reads_with_a_warning() {
    let loaded = toon_plan::read(
        "# Notes\n\nJust prose.\n",
        &toon_plan::ReadOptions::default(),
    )
    .unwrap();
    assert!(loaded.plan.tasks.is_empty());
    let told: Vec<_> = loaded
        .warnings
        .iter()
        .map(|p| (p.severity, p.rule))
        .collect();
    assert_eq!(told, [(toon_plan::Severity::Warning, "no-tasks")]);
}

#[test]
fn an_empty_todos_list_without_body_tasks_reads_with_a_warning() {
    let loaded = toon_plan::read(
        "---\nname: Notes\ntodos: []\n---\n# Notes\n\nJust prose.\n",
        &toon_plan::ReadOptions::default(),
    )
    .unwrap();
    assert!(loaded.plan.tasks.is_empty());
    assert!(
        loaded.warnings.iter().any(|p| p.rule == "no-tasks"),
        "{:?}",
        loaded.warnings
    );
    // A body that gives tasks: no warning.
    let loaded = toon_plan::read(
        "---\nname: Notes\ntodos: []\n---\n## 1. Write\n\n## 2. Ship\n",
        &toon_plan::ReadOptions::default(),
    )
    .unwrap();
    assert_eq!(loaded.plan.tasks.len(), 2);
    assert!(loaded.warnings.iter().all(|p| p.rule != "no-tasks"));
}

#[test]
fn the_body_sections_of_body_tasks_become_stages_and_workflow_tasks() {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/plans/cursor/valid/phased-checklist.plan.md");
    let text = std::fs::read_to_string(path).unwrap();
    let loaded = toon_plan::read(&text, &toon_plan::ReadOptions::default()).unwrap();
    let (tree, losses, _) = convert(
        &loaded.plan,
        DialectId::CURSOR,
        DialectId::STAGED,
        &["executor=writer"],
    );
    let stages: Vec<(String, String, Vec<String>)> = tree["stages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let steps = s["steps"].as_array().unwrap().iter();
            (
                s["id"].as_str().unwrap().to_owned(),
                s["name"].as_str().unwrap().to_owned(),
                steps
                    .map(|t| t["id"].as_str().unwrap().to_owned())
                    .collect(),
            )
        })
        .collect();
    let want = [
        (
            "phase-1-data",
            "Phase 1: Data",
            &["invoice-query", "currency-rounding", "rounding-tests"][..],
        ),
        (
            "phase-2-export",
            "Phase 2: Export",
            &["csv-writer", "upload"][..],
        ),
        (
            "phase-3-rollout",
            "Phase 3: Rollout",
            &["announce-finance-channel"][..],
        ),
    ];
    let want: Vec<(String, String, Vec<String>)> = want
        .iter()
        .map(|(i, n, s)| {
            (
                (*i).into(),
                (*n).into(),
                s.iter().map(|x| (*x).into()).collect(),
            )
        })
        .collect();
    assert_eq!(stages, want);
    assert_eq!(
        entry(&losses, "task upload", "group").rule,
        Some("the body's section it is in")
    );
    let (tree, _, _) = convert(&loaded.plan, DialectId::CURSOR, DialectId::WORKFLOW, &[]);
    let names: Vec<&str> = tree["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["Phase 1: Data", "Phase 2: Export", "Phase 3: Rollout"]
    );
    // Numbered headings under `##` sections: the sections are the groups.
    let text =
        "# Migrate\n\n## Backend\n\n### 1. Schema\n\n### 2. API\n\n## Frontend\n\n### 3. Page\n";
    let loaded = toon_plan::read(text, &toon_plan::ReadOptions::default()).unwrap();
    let (tree, _, _) = convert(
        &loaded.plan,
        DialectId::CURSOR,
        DialectId::STAGED,
        &["executor=writer"],
    );
    let sizes: Vec<(&str, usize)> = tree["stages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap(),
                s["steps"].as_array().unwrap().len(),
            )
        })
        .collect();
    assert_eq!(sizes, [("Backend", 2), ("Frontend", 1)]);
    // A plan with todos in front matter gets no groups from its body.
    let text = "---\nname: T\ntodos:\n  - id: a\n    content: A\n---\n## Section\n\nText.\n";
    let loaded = toon_plan::read(text, &toon_plan::ReadOptions::default()).unwrap();
    let (tree, _, _) = convert(
        &loaded.plan,
        DialectId::CURSOR,
        DialectId::STAGED,
        &["executor=writer"],
    );
    assert_ne!(tree["stages"][0]["name"], "Section", "{tree}");
}

#[test]
fn a_plan_without_id_title_or_goal_takes_its_source_name_as_id() {
    let mut t = task("a", &[]);
    t.title = Some("Do it".into());
    let mut p = plan(vec![t]);
    p.set_source_dialect(Some(DialectId::CURSOR));
    let options = |name: Option<&str>| toon_plan::ConvertOptions {
        format: Some(Format::Json),
        set: vec!["executor=writer".parse().unwrap()],
        source_name: name.map(str::to_owned),
        ..Default::default()
    };
    let c = toon_plan::convert(&p, DialectId::STAGED, &options(Some("ship-notes"))).unwrap();
    let tree: serde_json::Value = serde_json::from_str(&c.text).unwrap();
    assert_eq!(tree["id"], "ship-notes");
    assert_eq!(
        entry(&c.report.losses, "plan", "id").rule,
        Some("from the source's name")
    );
    // Without a name the id is written empty, and reported so.
    let c = toon_plan::convert(&p, DialectId::STAGED, &options(None)).unwrap();
    let tree: serde_json::Value = serde_json::from_str(&c.text).unwrap();
    assert_eq!(tree["id"], "");
    // A title gives the id before the name does.
    p.title = Some("Release notes".into());
    let c = toon_plan::convert(&p, DialectId::STAGED, &options(Some("ship-notes"))).unwrap();
    let tree: serde_json::Value = serde_json::from_str(&c.text).unwrap();
    assert_eq!(tree["id"], "release-notes");
}
