//! The example plans in `testdata/plans/<dialect>/`: valid ones read, validate and
//! convert; each invalid one breaks exactly the rule it is named after; messy Cursor
//! files come back byte for byte.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use toon_plan::{DialectId, Format, Location, LossReport, Severity};

mod exec_common;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/plans")
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    out.sort();
    out
}

fn stem(p: &Path) -> String {
    let name = p.file_name().unwrap().to_string_lossy().into_owned();
    name.split('.').next().unwrap().to_owned()
}

fn load(p: &Path) -> toon_plan::Loaded {
    let text = std::fs::read_to_string(p).unwrap();
    toon_plan::read(
        &text,
        &toon_plan::ReadOptions {
            file_name: Some(std::path::PathBuf::from(p)),
            ..Default::default()
        },
    )
    .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Each problem's severity, rule and location.
fn told_where(told: &[toon_plan::Problem]) -> Vec<(Severity, &str, &Location)> {
    told.iter()
        .map(|p| (p.severity, p.rule, &p.location))
        .collect()
}

fn errors(l: &toon_plan::Loaded) -> Vec<toon_plan::Problem> {
    toon_plan::validate(l)
        .into_iter()
        .filter(|p| p.severity == Severity::Error)
        .collect()
}

/// Converting to every dialect and format works; an empty report means the plan
/// comes back unchanged.
fn converts_everywhere(l: &toon_plan::Loaded, name: &str) {
    for to in DialectId::all() {
        for fmt in Format::ALL {
            if !to.dialect().supports(fmt) {
                continue;
            }
            // Taken as a plan of the target's dialect, it is written as it is (nothing
            // filled in), so the report is exactly the difference read back.
            let mut as_is = l.plan.clone();
            as_is.set_source_dialect(Some(to));
            let conv = toon_plan::convert(
                &as_is,
                to,
                &toon_plan::ConvertOptions {
                    format: Some(fmt),
                    ..Default::default()
                },
            )
            .unwrap_or_else(|e| panic!("{name} → {to} {fmt}: {e}"));
            let back = toon_plan::read(
                &conv.text,
                &toon_plan::ReadOptions {
                    dialect: Some(to),
                    format: Some(fmt),
                    ..Default::default()
                },
            )
            .unwrap_or_else(|e| {
                panic!("{name} → {to} {fmt} does not read back: {e}\n{}", conv.text)
            });
            let diff = LossReport::between(&l.plan, &back.plan);
            assert_eq!(diff.losses, conv.report.losses, "{name} → {to} {fmt}");
            // `problems` is the target's own verdict on the text.
            assert_eq!(
                conv.report.target_problems,
                to.dialect().validate(&back.document),
                "{name} → {to} {fmt}"
            );
            // Back into its own dialect, a valid plan stays valid.
            if to == l.dialect && errors(l).is_empty() {
                assert_eq!(
                    conv.report.target_errors(),
                    0,
                    "{name} → {to} {fmt}: {:?}",
                    conv.report.target_problems
                );
            }
        }
    }
    for fmt in [Format::Json, Format::Yaml, Format::Toon] {
        let conv = toon_plan::convert(
            &l.plan,
            DialectId::PLAN,
            &toon_plan::ConvertOptions {
                format: Some(fmt),
                ..Default::default()
            },
        )
        .unwrap();
        assert!(
            conv.report.is_lossless(),
            "{name} → plan {fmt}: {}",
            conv.report
        );
    }
    let same = toon_plan::convert(
        &l.plan,
        l.dialect,
        &toon_plan::ConvertOptions {
            format: Some(l.format),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(
        same.report.is_lossless(),
        "{name} → itself: {}",
        same.report
    );
}

fn expected_rules(dialect: &str) -> &'static [&'static str] {
    match dialect {
        "cursor" => &["acyclic", "known-dependencies", "unique-ids"],
        "plandag" => &[
            "acyclic",
            "positive-groups",
            "reachable",
            "unique-ids",
            "valid-actions",
            "valid-capabilities",
        ],
        "composite" => &[
            "no-cycles",
            "non-empty-prompt",
            "unique-ids",
            "valid-references",
        ],
        "workflow" => &[
            "acyclic",
            "uniform-steps",
            "uniform-tasks",
            "unique-step-ids",
            "unique-task-ids",
            "valid-step-deps",
            "valid-step-type",
            "valid-task-deps",
            "valid-task-ref",
        ],
        "staged" => &[
            "acyclic",
            "known-executors",
            "known-inputs",
            "known-intents",
            "stage-modes",
            "stage-order",
            "unique-ids",
        ],
        "tooldag" => &[
            "acyclic",
            "id-format",
            "known-dependencies",
            "references",
            "unique-ids",
        ],
        "taskmaster" => &["acyclic", "known-dependencies", "schema", "unique-ids"],
        "kiro" => &["acyclic", "known-dependencies", "unique-ids"],
        "speckit" => &["acyclic", "known-dependencies", "unique-ids"],
        _ => &[],
    }
}

#[test]
fn valid_examples_validate_and_convert() {
    let mut seen = 0;
    for d in DialectId::all() {
        let dir = root().join(d.name()).join("valid");
        for p in files(&dir) {
            let l = load(&p);
            assert_eq!(l.dialect, d, "{}", p.display());
            let errs = errors(&l);
            assert!(errs.is_empty(), "{}: {errs:#?}", p.display());
            converts_everywhere(&l, &p.display().to_string());
            exec_common::assert_plain_toon(&l.plan, &p.display().to_string());
            exec_common::assert_converts_everywhere_and_back(&l.plan, d, &p.display().to_string());
            seen += 1;
        }
    }
    assert!(seen >= 8);
}

#[test]
fn json_and_yaml_examples_write_back_the_same_value() {
    for d in DialectId::all() {
        for p in files(&root().join(d.name()).join("valid")) {
            let l = load(&p);
            if l.format == Format::Md {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            let out = toon_plan::convert(
                &l.plan,
                d,
                &toon_plan::ConvertOptions {
                    format: Some(l.format),
                    ..Default::default()
                },
            )
            .map(|c| c.text)
            .unwrap();
            let a = toon_plan::Document::parse(&text, l.format).unwrap();
            let b = toon_plan::Document::parse(&out, l.format).unwrap();
            assert!(
                toon_plan::conversion::loss::same_value(a.tree().unwrap(), b.tree().unwrap()),
                "{}:\n{out}",
                p.display()
            );
        }
    }
}

#[test]
fn each_invalid_example_breaks_exactly_its_rule() {
    for d in DialectId::all() {
        let dir = root().join(d.name()).join("invalid");
        if !dir.is_dir() {
            continue;
        }
        let mut rules = BTreeSet::new();
        for p in files(&dir) {
            let l = load(&p);
            assert_eq!(l.dialect, d, "{}", p.display());
            let rule = stem(&p);
            let errs = errors(&l);
            assert!(!errs.is_empty(), "{}: no error", p.display());
            for e in &errs {
                assert_eq!(e.rule, rule, "{}: {e}", p.display());
                match (&e.location, l.format) {
                    (Location::Line(n), Format::Md) => assert!(*n >= 1),
                    (Location::Path(path), f) if f != Format::Md => {
                        assert!(!path.is_empty(), "{e}")
                    }
                    (loc, f) => panic!("{}: {f} problem located at {loc:?}", p.display()),
                }
            }
            rules.insert(rule);
        }
        let expected: BTreeSet<String> = expected_rules(d.name())
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert!(
            expected.is_subset(&rules),
            "{d}: rules without an invalid example: {:?}",
            expected.difference(&rules).collect::<Vec<_>>()
        );
    }
}

#[test]
fn problems_point_at_the_right_place() {
    let md = load(&root().join("workflow/invalid/valid-step-type.md"));
    let errs = errors(&md);
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].location, Location::Line(27), "{}", errs[0]);
    let json = load(&root().join("plandag/invalid/valid-capabilities.json"));
    assert_eq!(
        errors(&json)[0].location,
        Location::Path("steps[3].capabilities_required[3]".into())
    );
    // An unknown status is kept as written and told as a warning where it stands.
    let cursor = load(&root().join("cursor/valid/unknown-status.plan.md"));
    let told = toon_plan::validate(&cursor);
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!(
        (told[0].severity, told[0].rule, &told[0].location),
        (Severity::Warning, "known-statuses", &Location::Line(10))
    );
    assert_eq!(
        cursor.plan.task("b").unwrap().status.as_deref(),
        Some("blocked")
    );
    let cycle = load(&root().join("cursor/invalid/acyclic.plan.md"));
    assert!(
        errors(&cycle)[0].message.contains("a → c → b → a")
            || errors(&cycle)[0].message.contains("→")
    );
    let dep = load(&root().join("workflow/invalid/valid-step-deps.json"));
    assert_eq!(
        errors(&dep)[0].location,
        Location::Path("steps[1].dependencies[0]".into())
    );
}

fn messy() -> Vec<PathBuf> {
    files(&root().join("cursor/messy"))
}

/// cursor → cursor, and cursor → plan or cursor (json, yaml, toon) → cursor, give the
/// file back byte for byte, the intermediate documents detected as what they are.
fn round_trips_exactly(name: &str, bytes: &str) {
    round_trips_exactly_as(name, bytes, DialectId::CURSOR)
}

/// A file of `dialect` → itself, and → plan or itself (json, yaml, toon) → itself,
/// gives the file back byte for byte, the intermediate documents detected as what they
/// are.
fn round_trips_exactly_as(name: &str, bytes: &str, dialect: DialectId) {
    let l = toon_plan::read(
        bytes,
        &toon_plan::ReadOptions {
            file_name: Some(std::path::PathBuf::from(Path::new(name))),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(l.dialect, dialect, "{name}");
    let errs = errors(&l);
    assert!(errs.is_empty(), "{name}: {errs:#?}");
    let out = toon_plan::convert(&l.plan, dialect, &toon_plan::ConvertOptions::default())
        .map(|c| c.text)
        .unwrap();
    assert!(
        out == bytes,
        "{name}: {dialect} → {dialect} changed the file:\n{out:?}\n{bytes:?}"
    );
    for fmt in [Format::Toon, Format::Json, Format::Yaml] {
        for via in [DialectId::PLAN, dialect] {
            // A dialect whose file is JSON (Task Master) keeps its file's layout in the
            // plan model; its own TOON and YAML are the file's content only.
            if via == dialect && dialect.dialect().natural_format() != Format::Md {
                continue;
            }
            let conv = toon_plan::convert(
                &l.plan,
                via,
                &toon_plan::ConvertOptions {
                    format: Some(fmt),
                    ..Default::default()
                },
            )
            .unwrap();
            assert!(
                conv.report.is_lossless(),
                "{name} → {via} {fmt}: {}",
                conv.report
            );
            // Read back without naming the dialect: what we write is detected as it.
            let back = toon_plan::read(
                &conv.text,
                &toon_plan::ReadOptions {
                    format: Some(fmt),
                    ..Default::default()
                },
            )
            .unwrap_or_else(|e| panic!("{name} → {via} {fmt}: {e}"));
            assert_eq!(back.dialect, via, "{name} → {via} {fmt}");
            let again = toon_plan::convert(
                &back.plan,
                dialect,
                &toon_plan::ConvertOptions {
                    ..Default::default()
                },
            )
            .map(|c| c.text)
            .unwrap();
            assert!(again == bytes, "{name} → {via} {fmt} → {dialect} differs");
        }
    }
}

#[test]
fn messy_cursor_files_come_back_byte_for_byte() {
    let all = messy();
    assert!(all.len() >= 12);
    for p in all {
        let bytes = std::fs::read_to_string(&p).unwrap();
        round_trips_exactly(&p.display().to_string(), &bytes);
    }
}

/// The example files of the dialects read from planners' own files come back byte for
/// byte, through the plan model and their own dialect in every format.
#[test]
fn planner_files_come_back_byte_for_byte() {
    for (dialect, at_least) in [
        (DialectId::TASKMASTER, 10),
        (DialectId::KIRO, 5),
        (DialectId::SPECKIT, 5),
    ] {
        let all = files(&root().join(dialect.name()).join("valid"));
        assert!(all.len() >= at_least, "{dialect}: {} examples", all.len());
        for p in all {
            let bytes = std::fs::read_to_string(&p).unwrap();
            round_trips_exactly_as(&p.display().to_string(), &bytes, dialect);
        }
    }
}

/// A tree with a text `body` and no keys but Cursor's (and `layout`) is a Cursor plan,
/// as the Cursor JSON of a file without front matter is; a key of no Cursor plan, or a
/// `body` that is not text, leaves the dialect untold; other dialects still win.
#[test]
fn a_cursor_tree_with_only_a_body_is_detected_as_cursor() {
    let detect = |text: &str, fmt: Format| {
        toon_plan::read(
            text,
            &toon_plan::ReadOptions {
                format: Some(fmt),
                ..Default::default()
            },
        )
    };
    for (text, fmt) in [
        (r#"{"body": "- [ ] Ship it\n"}"#, Format::Json),
        (
            r##"{"body": "# Plan\n", "layout": {"crlf": true}}"##,
            Format::Json,
        ),
        ("body: \"# Plan\\n\"\n", Format::Yaml),
        ("body: \"# Plan\\n\"\n", Format::Toon),
    ] {
        let l = detect(text, fmt).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(l.dialect, DialectId::CURSOR, "{text}");
        assert!(l.plan.body.is_some(), "{text}");
    }
    // A text body with front-matter keys of its own is a Cursor plan too.
    let own = detect(r#"{"body": "x", "owner": "me"}"#, Format::Json).unwrap();
    assert_eq!(own.dialect, DialectId::CURSOR);
    assert_eq!(own.plan.extra.get("owner"), Some(&serde_json::json!("me")));
    for text in [r#"{"body": 5}"#, r#"{"layout": {}}"#] {
        let e = detect(text, Format::Json).map(|l| l.dialect);
        assert!(e.is_err(), "{text}: {e:?}");
    }
    let model = r#"{"schema": "toon-plan/1", "body": "x", "tasks": []}"#;
    let l = detect(model, Format::Json).unwrap();
    assert_eq!(l.dialect, DialectId::PLAN);
}

fn read(name: &str) -> toon_plan::Loaded {
    load(&root().join("cursor/messy").join(name))
}

#[test]
fn invalid_yaml_is_read_tolerantly_with_a_warning() {
    let l = read("invalid-yaml.plan.md");
    assert_eq!(l.warnings.len(), 1);
    assert_eq!(l.warnings[0].severity, Severity::Warning);
    assert_eq!(l.warnings[0].rule, "front-matter");
    let t = &l.plan.tasks;
    assert_eq!(t.len(), 3);
    assert_eq!(
        t[0].description.as_deref(),
        Some("Phase 0: Setup the CI runners")
    );
    assert_eq!(
        t[2].description.as_deref(),
        Some("Phase 2: Deploy - canary first: 5% then 100%")
    );
    assert_eq!(
        t[2].dependencies.as_deref(),
        Some(&["phase-1".to_owned()][..])
    );
    assert_eq!(
        l.plan.goal.as_deref(),
        Some("Ship the release pipeline in phases: setup, build, deploy")
    );
    assert_eq!(l.plan.extra["isProject"], serde_json::json!(false));
    // Converted elsewhere, the text is intact.
    let out = toon_plan::convert(
        &l.plan,
        DialectId::COMPOSITE,
        &toon_plan::ConvertOptions::default(),
    )
    .unwrap();
    assert!(
        out.text
            .contains("prompt: \"Phase 0: Setup the CI runners\""),
        "{}",
        out.text
    );
}

#[test]
fn quirks_read_as_a_user_expects() {
    let l = read("name-as-list.plan.md");
    assert_eq!(l.plan.title.as_deref(), Some("Migrate auth to OAuth"));
    assert_eq!(l.plan.tasks.len(), 2);

    let l = read("empty-name-overview.plan.md");
    assert_eq!(l.plan.title, None);
    assert!(l.plan.tasks.is_empty());
    assert_eq!(
        l.plan.body.as_deref(),
        Some("\n# Notes\n\nNothing planned yet.\n")
    );

    let l = read("empty-strings.plan.md");
    assert_eq!(l.plan.title.as_deref(), Some(""));
    assert_eq!(l.plan.goal.as_deref(), Some(""));
    assert_eq!(l.plan.extra["isProject"], serde_json::json!(true));

    let l = read("no-front-matter.plan.md");
    assert!(l.plan.tasks.is_empty() && l.plan.title.is_none());
    assert!(
        l.plan
            .body
            .as_deref()
            .unwrap()
            .starts_with("# Refactor the billing module")
    );

    let l = read("html-comment.plan.md");
    assert!(
        l.plan
            .body
            .as_deref()
            .unwrap()
            .starts_with("<!-- generated")
    );

    let l = read("front-matter-in-comment.plan.md");
    assert_eq!(l.plan.title.as_deref(), Some("Comment-wrapped plan"));
    assert_eq!(l.plan.tasks[0].id, "one");

    let l = read("crlf.plan.md");
    assert_eq!(
        l.plan.tasks[1].dependencies.as_deref(),
        Some(&["a".to_owned()][..])
    );
    assert!(!l.plan.body.as_deref().unwrap().contains('\r'));

    let l = read("no-final-newline.plan.md");
    assert!(l.plan.body.as_deref().unwrap().ends_with("without newline"));

    let l = read("bom.plan.md");
    assert_eq!(l.plan.title.as_deref(), Some("Starts with a BOM"));

    let l = read("tab-indent.plan.md");
    assert_eq!(l.warnings.len(), 1, "{:?}", l.warnings);
    assert_eq!(
        l.plan.tasks[0].description.as_deref(),
        Some("Indented with a tab")
    );

    let l = read("non-english.plan.md");
    assert_eq!(l.plan.title.as_deref(), Some("Миграция базы данных"));
    assert_eq!(l.plan.tasks[1].id, "複製");
    assert_eq!(
        l.plan.tasks[2].description.as_deref(),
        Some("切换流量: 先 5%，再 100%")
    );

    let l = read("unknown-keys.plan.md");
    let keys: Vec<&str> = l.plan.extra.keys().map(String::as_str).collect();
    assert_eq!(keys, ["priority", "isProject", "tags"]);
    assert_eq!(l.plan.tasks[0].extra["estimate"], serde_json::json!("2h"));

    let l = read("large-body.plan.md");
    assert_eq!(l.plan.tasks.len(), 3);
    assert!(l.plan.body.as_deref().unwrap().contains("```mermaid"));
    assert!(
        l.plan
            .body
            .as_deref()
            .unwrap()
            .contains("name: not front matter")
    );
}

#[test]
fn very_large_bodies_survive() {
    let base = std::fs::read_to_string(root().join("cursor/messy/large-body.plan.md")).unwrap();
    let (head, body) = base.split_at(base.find("\n# ").unwrap() + 1);
    let mut text = head.to_owned();
    while text.chars().count() < 150_000 {
        text.push_str(body);
    }
    round_trips_exactly("large.plan.md", &text);
    let crlf = text.replace('\n', "\r\n");
    round_trips_exactly("large-crlf.plan.md", &crlf);
}

#[test]
fn valid_cursor_plans_are_canonical() {
    // A file in the form Cursor writes needs no layout hints: nothing but the facts.
    let l = load(&root().join("cursor/valid/dark-mode.plan.md"));
    assert!(l.plan.layout.is_empty(), "{:?}", l.plan.layout);
    assert_eq!(l.plan.tasks.len(), 4);
    let toon = toon_plan::convert(
        &l.plan,
        DialectId::PLAN,
        &toon_plan::ConvertOptions {
            format: Some(Format::Toon),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(
        toon.text
            .contains("tasks[4]{id,description,status,dependencies}:"),
        "{}",
        toon.text
    );
    // Dependencies are one cell of the row.
    assert!(toon.text.contains(",pending,toggle\n"), "{}", toon.text);
    assert!(!toon.text.contains("deps["), "{}", toon.text);
}

/// A plan read from the plan model, written as a Cursor markdown file.
fn model_to_cursor_md(plan: &toon_plan::Plan) -> toon_plan::Conversion {
    toon_plan::convert(
        plan,
        DialectId::CURSOR,
        &toon_plan::ConvertOptions {
            format: Some(Format::Md),
            ..Default::default()
        },
    )
    .unwrap()
}

#[test]
fn a_cursor_plan_with_its_todos_in_the_body_has_tasks_and_round_trips() {
    let p = root().join("cursor/valid/checklist.plan.md");
    let text = std::fs::read_to_string(&p).unwrap();
    let l = load(&p);
    let titles: Vec<_> = l
        .plan
        .tasks
        .iter()
        .map(|t| t.title.as_deref().unwrap_or(""))
        .collect();
    assert_eq!(
        titles,
        [
            "Index titles",
            "Search endpoint",
            "Search box",
            "Debounce typing to 200 ms",
            "Write the docs."
        ]
    );
    assert_eq!(l.plan.tasks[0].status.as_deref(), Some("completed"));
    // Through the plan model as TOON and back: the same bytes, no `todos` added.
    let model = toon_plan::convert(
        &l.plan,
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
    let md = model_to_cursor_md(&back.plan);
    assert_eq!(md.text, text);
    // The model holds each task once: its body leaves out the lines the table restores.
    for line in text.lines().filter(|l| l.trim_start().starts_with("- [")) {
        let escaped = serde_json::to_string(line).unwrap();
        let inner = &escaped[1..escaped.len() - 1];
        assert!(
            !model.text.contains(inner),
            "{line:?} is stored twice:\n{}",
            model.text
        );
    }
    assert!(
        model
            .text
            .contains("layout:\n  cursor.tasks_at: 8\n  cursor.nested[1]: debounce-typing-200\n"),
        "{}",
        model.text
    );
    // Nothing derivable is stored: the ids are the ones the titles give, and the rows
    // already say the tasks are the body's task list.
    assert!(
        model.text.contains("tasks[5]{title,description,status}:\n")
            && !model.text.contains("cursor.body_tasks"),
        "{}",
        model.text
    );
    assert_eq!(back.plan, l.plan);
    // Once another table names the tasks, the ids are written out.
    let mut linked = l.plan.clone();
    linked.tasks[1].dependencies = Some(vec!["index-titles".into()]);
    let linked_model = toon_plan::convert(
        &linked,
        DialectId::PLAN,
        &toon_plan::ConvertOptions {
            format: Some(Format::Toon),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(
        linked_model
            .text
            .contains("tasks[5]{title,description,status,dependencies}:\n")
            && linked_model.text.contains(",index-titles\n")
            && !linked_model.text.contains("deps["),
        "{}",
        linked_model.text
    );
    let again = toon_plan::read(
        &linked_model.text,
        &toon_plan::ReadOptions {
            format: Some(Format::Toon),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(again.plan, linked);
    // A nested task past the last one (a hand edit): a warning, and the tasks are
    // still all there (a Cursor file then lists them as `todos`).
    let damaged = model.text.replace(
        "cursor.nested[1]: debounce-typing-200",
        "cursor.nested[1]: 6",
    );
    let back = toon_plan::read(
        &damaged,
        &toon_plan::ReadOptions {
            format: Some(Format::Toon),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(back.plan.tasks.len(), 5);
    let problems = toon_plan::validate(&back);
    assert!(
        problems
            .iter()
            .any(|p| !p.is_error() && p.message.contains("cannot be put back")),
        "{problems:?}"
    );
    let md = model_to_cursor_md(&back.plan);
    assert!(
        md.text.contains("todos:\n  - id: index-titles"),
        "{}",
        md.text
    );
    // Converted to another dialect, the tasks are real tasks with their titles.
    let sets = ["executor=writer".parse().unwrap()];
    let staged = toon_plan::convert(
        &l.plan,
        DialectId::STAGED,
        &toon_plan::ConvertOptions {
            format: Some(Format::Json),
            set: sets.to_vec(),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(staged.report.target_errors(), 0);
    assert!(
        staged.text.contains("\"title\": \"Search endpoint\""),
        "{}",
        staged.text
    );
}

#[test]
fn workflow_shared_inputs_as_bullets_are_read_and_written_back() {
    let p = root().join("workflow/valid/onboarding.md");
    let text = std::fs::read_to_string(&p).unwrap().replace(
        "## Shared Inputs\n(Optional shared data)\n",
        "## Shared Inputs\n- dataset: events.csv\n- window_days: 30\n- dry run: true\n",
    );
    let l = toon_plan::read(
        &text,
        &toon_plan::ReadOptions {
            file_name: Some(std::path::PathBuf::from(&p)),
            ..Default::default()
        },
    )
    .unwrap();
    let shared = l.plan.shared_inputs.clone().expect("shared inputs read");
    assert_eq!(
        shared,
        serde_json::json!({"dataset": "events.csv", "window_days": 30, "dry run": true})
    );
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    let md = toon_plan::convert(
        &l.plan,
        DialectId::WORKFLOW,
        &toon_plan::ConvertOptions {
            format: Some(Format::Md),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(
        md.text.contains(
            "## Shared Inputs\n- dataset: events.csv\n- window_days: 30\n- dry run: true\n"
        ),
        "{}",
        md.text
    );
    assert!(md.report.is_lossless(), "{:?}", md.report);
    // Nested data stays a JSON code block, read back the same.
    let mut nested = l.plan.clone();
    nested.shared_inputs = Some(serde_json::json!({"columns": ["a", "b"]}));
    let md = toon_plan::convert(
        &nested,
        DialectId::WORKFLOW,
        &toon_plan::ConvertOptions {
            format: Some(Format::Md),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(md.text.contains("```json"), "{}", md.text);
    assert!(md.report.is_lossless(), "{:?}", md.report);
}

#[test]
fn kiro_tasks_read_with_parents_requirements_and_progress() {
    let l = load(&root().join("kiro/valid/offline-sync.md"));
    assert_eq!(l.dialect, DialectId::KIRO);
    let t = |id: &str| l.plan.task(id).unwrap_or_else(|| panic!("no task {id}"));
    // `# Implementation Plan` is Kiro's own heading, not a title.
    assert_eq!(l.plan.title, None);
    assert_eq!(t("2.2").parent.as_deref(), Some("2"));
    assert_eq!(t("2.2").status.as_deref(), Some("in_progress"));
    assert_eq!(t("1.1").status.as_deref(), Some("completed"));
    assert_eq!(
        t("3.1").requirements.as_deref(),
        Some(&["3.1".to_owned(), "3.2".to_owned()][..])
    );
    assert_eq!(
        t("1.1").details.as_deref(),
        Some("Version the schema so later migrations can run")
    );
    // A task written twice (as Kiro leaves it) is one task, the first, with a warning.
    let l = load(&root().join("kiro/valid/repeated-task.md"));
    assert_eq!(l.plan.tasks.len(), 5);
    assert_eq!(
        l.plan.task("2").unwrap().status.as_deref(),
        Some("completed")
    );
    let told = toon_plan::validate(&l);
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!(
        (told[0].severity, told[0].rule, &told[0].location),
        (Severity::Warning, "repeated-task", &Location::Line(11))
    );
    // A number used again with another title (tasks added by hand) is a task of its
    // own, as Spec Kit reads it, with a warning where it stands; its subtasks are under
    // it. The same number and title again is the task written again.
    let added = load(&root().join("kiro/valid/added-tasks.md"));
    let ids: Vec<&str> = added.plan.tasks.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["1", "2", "2.1", "2.2", "3", "2-2", "2-2.1"]);
    let share = added.plan.task("2-2.1").unwrap();
    assert_eq!(share.parent.as_deref(), Some("2-2"));
    assert_eq!(share.title.as_deref(), Some("Add the share link endpoint"));
    assert_eq!(
        added.plan.task("2.1").unwrap().title.as_deref(),
        Some("Add POST /searches")
    );
    let told = toon_plan::validate(&added);
    assert_eq!(
        told_where(&told),
        [
            (Severity::Warning, "unique-ids", &Location::Line(18)),
            (Severity::Warning, "repeated-task", &Location::Line(22)),
        ]
    );
    assert!(told[0].message.contains("first at line 7"), "{}", told[0]);
    assert!(told[0].message.contains("2-2"), "{}", told[0]);
    // Written back as Kiro, the file comes back byte for byte; written canonically
    // (no layout), it reads back as the same tasks.
    let same = toon_plan::convert(
        &added.plan,
        DialectId::KIRO,
        &toon_plan::ConvertOptions::default(),
    )
    .unwrap();
    let text = std::fs::read_to_string(root().join("kiro/valid/added-tasks.md")).unwrap();
    assert_eq!(same.text, text);
    let lean = toon_plan::convert(
        &added.plan,
        DialectId::KIRO,
        &toon_plan::ConvertOptions {
            lean: true,
            ..Default::default()
        },
    )
    .unwrap();
    let back = toon_plan::read(
        &lean.text,
        &toon_plan::ReadOptions::dialect(DialectId::KIRO),
    )
    .unwrap();
    assert_eq!(
        back.plan.tasks,
        toon_plan::conversion::lean(&added.plan).tasks
    );
    let l = load(&root().join("kiro/valid/image-upload.md"));
    assert_eq!(l.plan.task("2.2").unwrap().extra["optional"], true);
    assert_eq!(l.plan.task("4").unwrap().extra["optional"], true);
    // What is ready: the first tasks, and the subtask of the second.
    let next = toon_plan::next(&l.plan).unwrap();
    let ids: Vec<&str> = next.ready.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["1", "2.1", "2.2", "3", "4", "5"]);
}

/// A plan titled `Implementation Plan` (Kiro's own heading, which reads as no title)
/// keeps its title through Kiro, in markdown and as a tree, and on to other dialects.
#[test]
fn a_plan_titled_as_kiros_heading_keeps_its_title_through_kiro() {
    let text = "---\nname: Implementation Plan\ntodos:\n  - id: a\n    content: Build\n    status: pending\n---\n";
    let cursor =
        toon_plan::read(text, &toon_plan::ReadOptions::dialect(DialectId::CURSOR)).unwrap();
    assert_eq!(cursor.plan.title.as_deref(), Some("Implementation Plan"));
    for format in [Format::Md, Format::Json, Format::Yaml, Format::Toon] {
        let options = toon_plan::ConvertOptions {
            format: Some(format),
            ..Default::default()
        };
        let kiro = toon_plan::convert(&cursor.plan, DialectId::KIRO, &options).unwrap();
        assert!(
            !kiro.report.dropped().any(|l| l.owner == "plan"),
            "{format}: {}",
            kiro.report
        );
        let read = toon_plan::ReadOptions {
            format: Some(format),
            ..toon_plan::ReadOptions::dialect(DialectId::KIRO)
        };
        let back = toon_plan::read(&kiro.text, &read).unwrap();
        assert_eq!(
            back.plan.title.as_deref(),
            Some("Implementation Plan"),
            "{format}: {}",
            kiro.text
        );
        let again = toon_plan::convert(&back.plan, DialectId::CURSOR, &Default::default()).unwrap();
        assert!(
            again.text.contains("name: Implementation Plan\n"),
            "{}",
            again.text
        );
    }
    let md = toon_plan::convert(&cursor.plan, DialectId::KIRO, &Default::default()).unwrap();
    assert!(
        md.text.starts_with("# Implementation Plan #\n"),
        "{}",
        md.text
    );
    // Kiro's own heading is still no title, and a closing sequence is no part of one.
    let kiro = toon_plan::ReadOptions::dialect(DialectId::KIRO);
    let plain = toon_plan::read("# Implementation Plan\n\n- [ ] 1. Build\n", &kiro).unwrap();
    assert_eq!(plain.plan.title, None);
    let closed = toon_plan::read("# Ship it ##\n\n- [ ] 1. Build\n", &kiro).unwrap();
    assert_eq!(closed.plan.title.as_deref(), Some("Ship it"));
    // A title that ends as a closing sequence would is written so that it reads back.
    let sharp = toon_plan::Plan {
        title: Some("Port to C #".into()),
        ..closed.plan.clone()
    };
    let out = toon_plan::convert(
        &toon_plan::conversion::lean(&sharp),
        DialectId::KIRO,
        &Default::default(),
    )
    .unwrap();
    let back = toon_plan::read(&out.text, &kiro).unwrap();
    assert_eq!(
        back.plan.title.as_deref(),
        Some("Port to C #"),
        "{}",
        out.text
    );
}

#[test]
fn spec_kit_tasks_read_with_phases_stories_and_parallel_runs() {
    let l = load(&root().join("speckit/valid/avatar-upload.md"));
    assert_eq!(l.dialect, DialectId::SPECKIT);
    let t = |id: &str| l.plan.task(id).unwrap_or_else(|| panic!("no task {id}"));
    let deps = |id: &str| t(id).dependencies.clone().unwrap_or_default();
    assert_eq!(l.plan.title.as_deref(), Some("Profile Avatar Upload"));
    let phases: Vec<(&str, &str)> = l
        .plan
        .groups
        .iter()
        .map(|g| (g.id.as_str(), g.name.as_deref().unwrap_or("")))
        .collect();
    assert_eq!(phases.len(), 5);
    assert_eq!(
        phases[2],
        ("3", "User Story 1 - Upload an avatar (Priority: P1) 🎯 MVP")
    );
    // Phases run in order.
    assert_eq!(
        l.plan.group("3").unwrap().dependencies.as_deref(),
        Some(&["2".to_owned()][..])
    );
    assert_eq!(l.plan.group("1").unwrap().dependencies, None);
    assert_eq!(t("T007").group.as_deref(), Some("3"));
    assert_eq!(t("T007").extra["story"], "US1");
    assert_eq!(t("T007").extra["parallel"], true);
    assert_eq!(t("T004").status.as_deref(), Some("completed"));
    assert_eq!(t("T006").status.as_deref(), Some("pending"));
    // In a phase: a task after the one before it; a run of [P] tasks together after
    // the task before the run; the next task after the whole run.
    assert!(deps("T001").is_empty());
    assert_eq!(deps("T002"), ["T001"]);
    assert_eq!(deps("T003"), ["T001"]);
    assert!(deps("T007").is_empty() && deps("T008").is_empty());
    assert_eq!(deps("T009"), ["T007", "T008"]);
    assert_eq!(deps("T010"), ["T009"]);
    // The schedule runs it so: phases one after another, [P] runs side by side.
    let s = toon_plan::schedule(&l.plan).unwrap();
    let wave = |id: &str| s.task(id).unwrap().wave;
    assert_eq!(wave("T002"), wave("T003"));
    assert_eq!(wave("T007"), wave("T008"));
    assert!(wave("T004") > wave("T003"));
    assert!(wave("T007") > wave("T006"));
    assert!(wave("T009") > wave("T008"));
    assert_eq!(wave("T012"), wave("T013"));
    assert!(wave("T012") > wave("T011"));
    // Ready: what is pending with everything before it done.
    let next = toon_plan::next(&l.plan).unwrap();
    let ids: Vec<&str> = next.ready.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["T006"]);
    // `[US1] [P]` reads as `[P] [US1]`; a letter after the number is part of the id.
    let l = load(&root().join("speckit/valid/rate-limits.md"));
    let t = |id: &str| l.plan.task(id).unwrap_or_else(|| panic!("no task {id}"));
    assert_eq!(t("T003").extra["parallel"], true);
    assert_eq!(t("T003").extra["story"], "US1");
    assert_eq!(
        t("T003").title.as_deref(),
        Some("Table test for the token bucket in internal/ratelimit/bucket_test.go")
    );
    assert_eq!(
        t("T006").dependencies.as_deref(),
        Some(&["T005a".to_owned()][..])
    );
    // Checkbox lines without a task id are notes, not tasks.
    let l = load(&root().join("speckit/valid/search-no-phases.md"));
    assert_eq!(l.plan.tasks.len(), 4);
    assert!(l.plan.groups.is_empty());
    assert_eq!(
        l.plan.task("T004").unwrap().dependencies.as_deref(),
        Some(&["T002".to_owned(), "T003".to_owned()][..])
    );
    // A task id used again with another title (tasks added by hand) is a task of its
    // own, with a warning where it stands; the order runs through it.
    let added = load(&root().join("speckit/valid/added-tasks.md"));
    let ids: Vec<&str> = added.plan.tasks.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "T001", "T002", "T005", "T006", "T003", "T004", "T005-2", "T006-2", "T007"
        ]
    );
    let t005 = added.plan.task("T005-2").unwrap();
    assert_eq!(t005.group.as_deref(), Some("2"));
    assert_eq!(t005.dependencies.as_deref(), Some(&["T004".to_owned()][..]));
    assert_eq!(
        added.plan.task("T007").unwrap().dependencies.as_deref(),
        Some(&["T006-2".to_owned()][..])
    );
    let told = toon_plan::validate(&added);
    assert_eq!(
        told_where(&told),
        [
            (Severity::Warning, "unique-ids", &Location::Line(34)),
            (Severity::Warning, "unique-ids", &Location::Line(42)),
        ]
    );
    assert!(told[0].message.contains("first at line 21"), "{}", told[0]);
    let dep = load(&root().join("speckit/invalid/known-dependencies.md"));
    assert_eq!(errors(&dep)[0].location, Location::Line(10));
    assert!(
        errors(&dep)[0].message.contains("T009"),
        "{}",
        errors(&dep)[0]
    );
    // Phases numbered alike are phases of their own, in order, with a warning.
    let again = load(&root().join("speckit/valid/renumbered-phases.md"));
    let phases: Vec<&str> = again.plan.groups.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(phases, ["1", "2", "2-2"]);
    let told = toon_plan::validate(&again);
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!(
        (told[0].severity, told[0].rule, &told[0].location),
        (Severity::Warning, "unique-phases", &Location::Line(11))
    );
}

#[test]
fn task_master_files_read_as_a_user_expects() {
    let l = load(&root().join("taskmaster/valid/dotted-deps.json"));
    assert_eq!(l.dialect, DialectId::TASKMASTER);
    let t = |id: &str| l.plan.task(id).unwrap_or_else(|| panic!("no task {id}"));
    // A sibling number, a dotted string and a task number, each an edge.
    assert_eq!(
        t("2.3").dependencies.as_deref(),
        Some(&["2.2".to_owned(), "2.1".to_owned()][..])
    );
    assert_eq!(
        t("3").dependencies.as_deref(),
        Some(&["1.2".to_owned(), "2".to_owned()][..])
    );
    assert_eq!(t("3.1").parent.as_deref(), Some("3"));
    assert_eq!(
        t("1").test_strategy.as_deref(),
        Some("Validate the sample events.")
    );
    let l = load(&root().join("taskmaster/valid/sub-subtasks.json"));
    let t = |id: &str| l.plan.task(id).unwrap_or_else(|| panic!("no task {id}"));
    assert_eq!(t("1.2.2.1").parent.as_deref(), Some("1.2.2"));
    assert_eq!(
        t("1.2.2").dependencies.as_deref(),
        Some(&["1.2.1".to_owned(), "1.1.2".to_owned()][..])
    );
    let l = load(&root().join("taskmaster/valid/tagged-multi.json"));
    let groups: Vec<&str> = l.plan.groups.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(groups, ["master", "feature-auth"]);
    assert_eq!(
        l.plan
            .task("feature-auth:2.2")
            .unwrap()
            .dependencies
            .as_deref(),
        Some(&["feature-auth:2.1".to_owned()][..])
    );
    let l = load(&root().join("taskmaster/valid/odd-ids.json"));
    assert_eq!(
        l.plan.task("30").unwrap().dependencies.as_deref(),
        Some(&["29.1".to_owned(), "setup-sync".to_owned()][..])
    );
    // The plan model's TOON is tables: tasks, each with its dependencies in one cell (a
    // single one in plain digits a bare number: `every_task_has` says the column holds
    // lists, not counts).
    let toon = toon_plan::convert(
        &load(&root().join("taskmaster/valid/legacy-basic.json")).plan,
        DialectId::PLAN,
        &toon_plan::ConvertOptions {
            format: Some(Format::Toon),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(
        toon.text.contains(
            "every_task_has[1]: dependencies\ntasks[4]{id,title,description,status,priority,details,test_strategy,dependencies}:"
        ),
        "{}",
        toon.text
    );
    assert!(
        toon.text
            .contains(",Table-driven tests for each rule kind.,1\n"),
        "{}",
        toon.text
    );
    assert!(
        toon.text
            .contains(",Smoke test runs all three on the sample data.,\"1,2,3\"\n"),
        "{}",
        toon.text
    );
}

/// A problem found at a path of a JSON, YAML or TOON plan points at that path in the
/// text: the line holds the path's last key at the column (or, for an array item, the
/// item starts there), in every invalid plan and in each plan rewritten in every
/// tree format.
#[test]
fn problems_at_a_path_point_into_the_text() {
    let mut placed = 0;
    for dialect_dir in files_and_dirs(&root()) {
        let invalid = dialect_dir.join("invalid");
        if !invalid.is_dir() {
            continue;
        }
        for p in files(&invalid) {
            let l = load(&p);
            let mut texts = vec![(l.format, std::fs::read_to_string(&p).unwrap())];
            for format in [Format::Json, Format::Yaml, Format::Toon] {
                if format != l.format
                    && let toon_plan::Document::Tree(tree) = &l.document
                    && let Ok(t) = toon_plan::syntax::format::write_tree(tree, format)
                {
                    texts.push((format, t));
                }
            }
            for (format, text) in texts {
                if format == Format::Md {
                    continue;
                }
                let options = toon_plan::ReadOptions {
                    dialect: Some(l.dialect),
                    format: Some(format),
                    file_name: None,
                };
                let again = toon_plan::read(&text, &options).unwrap();
                for problem in toon_plan::validate(&again) {
                    let Location::Path(path) = &problem.location else {
                        continue;
                    };
                    if path.is_empty() {
                        continue;
                    }
                    let at = problem.position.unwrap_or_else(|| {
                        panic!("{} as {format}: {problem} has no position", p.display())
                    });
                    let line = text.lines().nth(at.line - 1).unwrap();
                    let from: String = line.chars().skip(at.column - 1).collect();
                    let last = path
                        .rsplit(['.', '['])
                        .next()
                        .unwrap()
                        .trim_end_matches(']');
                    let key = last.trim_matches('"');
                    let names_key =
                        from.starts_with(key) || from.starts_with(&format!("\"{key}\""));
                    // A TOON table row holds its fields' values, not their keys.
                    let is_row = format == Format::Toon && !line.contains(&format!("{key}:"));
                    let ok = if last.parse::<usize>().is_ok() || is_row {
                        // An item or a row: its text starts there (after a list dash,
                        // an opening bracket or a comma, or a TOON header's colon).
                        let before: String = line.chars().take(at.column - 1).collect();
                        let prev = before.trim_end().chars().last();
                        matches!(prev, None | Some('-' | '[' | ',' | ':'))
                            && !from.trim().is_empty()
                    } else {
                        names_key
                    };
                    assert!(ok, "{} as {format}: {problem}: {line:?}", p.display());
                    placed += 1;
                }
            }
        }
    }
    assert!(placed > 20, "only {placed} problems placed");
}

fn files_and_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    out.sort();
    out
}

/// A Task Master file of several tags with subtasks writes the plan model's TOON with
/// ids local to their tag and task (no quoted tag-qualified id anywhere, a subtasks
/// table keyed by task and number, bare numbers in the edge tables), reads back as the
/// same plan, writes the file back byte for byte, and converts to every dialect.
#[test]
fn task_master_plan_toon_has_local_ids_and_round_trips() {
    let path = root().join("taskmaster/valid/tagged-local-ids.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let l = load(&path);
    assert!(
        l.plan.task("master:2.3.1").is_some(),
        "model ids stay whole"
    );
    let toon = plan_toon(&l.plan);
    // The tables (the maps keyed by id and the layout come after them).
    let tables = toon.split("\ntask_extra:").next().unwrap();
    let tables = tables.split("\nlayout:").next().unwrap();
    for tag in ["master", "feature-cache"] {
        for d in 0..10 {
            assert!(
                !tables.contains(&format!("\"{tag}:{d}")),
                "{tag}:{d} in\n{toon}"
            );
        }
    }
    assert!(
        toon.contains("subtasks[9]{task,id,title,description,status,details,test_strategy,dependencies}:\n  1,1,Create the workspace,"),
        "{toon}"
    );
    // Dependencies as one cell of each row, by ids within the tag; a subtask's
    // siblings by number.
    assert!(!toon.contains("deps["), "{toon}");
    assert!(toon.contains(",Unit tests.,\"2,1.2\"\n"), "{toon}");
    assert!(
        toon.contains("\n  2,3,Report errors with lines,Report errors with lines.,pending,Do report errors with lines.,Check by hand.,\"1,2\"\n"),
        "{toon}"
    );
    let back = toon_plan::read(&toon, &toon_plan::ReadOptions::dialect(DialectId::PLAN)).unwrap();
    assert_eq!(back.plan, l.plan);
    let file = toon_plan::convert(&back.plan, DialectId::TASKMASTER, &Default::default()).unwrap();
    assert_eq!(file.text, text);
    for to in DialectId::all() {
        let out = toon_plan::convert(&back.plan, to, &Default::default());
        assert!(out.is_ok(), "{to}: {:?}", out.err());
    }
}

/// A Task Master file whose tasks carry lists of their own (`modules`, a subtask's
/// `files`): each list is one cell of its row, the columns named in `list_columns`;
/// a row whose list a cell cannot hold (an item with a comma or a space at an end)
/// keeps its extra fields in `task_extra`. The plan model's JSON (the same tree) and
/// TOON read back as the plan, and the file comes back byte for byte.
#[test]
fn task_master_list_fields_are_cells_of_declared_list_columns() {
    let path = root().join("taskmaster/valid/list-extras.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let l = load(&path);
    let convert = |format| {
        let options = toon_plan::ConvertOptions {
            format: Some(format),
            ..Default::default()
        };
        toon_plan::convert(&l.plan, DialectId::PLAN, &options)
            .unwrap()
            .text
    };
    let toon = convert(Format::Toon);
    assert!(
        toon.contains("\nlist_columns[3]: dependencies,modules,files\ntasks[5]{"),
        "{toon}"
    );
    assert!(
        toon.contains(",high,10,database,foundation\n")
            && toon.contains(",12,\"integrations,messaging\",core\n"),
        "{toon}"
    );
    assert!(
        toon.contains(",2,\"main.py,app/__init__.py,app/api/__init__.py\"\n")
            && toon.contains(",Fixtures for local runs,pending,\"Nothing yet: the fixtures come with the admin API\",1,\"\"\n"),
        "{toon}"
    );
    // The rows whose lists cannot be cells.
    let extra = toon.split("\ntask_extra:\n").nth(1).unwrap();
    assert!(
        extra.contains("files[1]: \"app/services/status, receipts.py\"")
            && extra.contains("modules[2]: api,\" admin\""),
        "{toon}"
    );
    for format in [Format::Toon, Format::Json] {
        let out = convert(format);
        let back =
            toon_plan::read(&out, &toon_plan::ReadOptions::dialect(DialectId::PLAN)).unwrap();
        assert_eq!(back.plan, l.plan, "{format}");
        let file =
            toon_plan::convert(&back.plan, DialectId::TASKMASTER, &Default::default()).unwrap();
        assert_eq!(file.text, text, "{format}");
    }
    // Without the declaration the cells are text.
    let undeclared = toon.replace("list_columns[3]: dependencies,modules,files\n", "");
    let back = toon_plan::read(
        &undeclared,
        &toon_plan::ReadOptions::dialect(DialectId::PLAN),
    )
    .unwrap();
    let task = back.plan.task("2").unwrap();
    assert_eq!(
        task.extra.get("modules"),
        Some(&serde_json::json!("database"))
    );
}

/// A plan as the plan model's TOON.
fn plan_toon(plan: &toon_plan::Plan) -> String {
    let options = toon_plan::ConvertOptions {
        format: Some(Format::Toon),
        ..Default::default()
    };
    toon_plan::convert(plan, DialectId::PLAN, &options)
        .unwrap()
        .text
}

/// A dependency list written in the file's minority form (a sibling's number where
/// most subtasks write dotted ids) is kept once, in the layout's dependency forms, and
/// written back from there: the text patch holds nothing for it.
#[test]
fn a_minority_dependency_form_is_kept_once() {
    let sub = |id: u32, deps: &str| {
        format!(
            "{{\n          \"id\": {id},\n          \"title\": \"Step {id}\",\n          \"dependencies\": [{deps}],\n          \"status\": \"pending\"\n        }}"
        )
    };
    let subs = [
        sub(1, ""),
        sub(2, "\n            \"1.1\"\n          "),
        sub(3, "\n            \"1.2\"\n          "),
        sub(4, "\n            2\n          "),
    ]
    .join(",\n        ");
    let text = format!(
        "{{\n  \"tasks\": [\n    {{\n      \"id\": 1,\n      \"title\": \"Build\",\n      \"dependencies\": [],\n      \"status\": \"pending\",\n      \"subtasks\": [\n        {subs}\n      ]\n    }}\n  ]\n}}\n"
    );
    let l = toon_plan::read(
        &text,
        &toon_plan::ReadOptions::dialect(DialectId::TASKMASTER),
    )
    .unwrap();
    assert_eq!(
        l.plan.task("1.4").unwrap().dependencies.as_deref(),
        Some(&["1.2".to_owned()][..])
    );
    let toon = plan_toon(&l.plan);
    assert!(toon.contains("taskmaster.dotted_siblings: true"), "{toon}");
    assert!(toon.contains("\"1.4\"[1]: 2"), "{toon}");
    assert!(!toon.contains("taskmaster.patch"), "{toon}");
    let file = toon_plan::convert(&l.plan, DialectId::TASKMASTER, &Default::default()).unwrap();
    assert_eq!(file.text, text);
}

/// A file whose tasks write their ids in plain digits as strings (`"id": "3"`) says so
/// once in the layout rather than once per task; its subtasks' ids, written so too,
/// are kept one by one.
#[test]
fn string_task_ids_are_one_layout_flag() {
    let path = root().join("taskmaster/valid/string-ids.json");
    let l = load(&path);
    let toon = plan_toon(&l.plan);
    assert!(toon.contains("\n  taskmaster.string_ids: true\n"), "{toon}");
    let ids = toon.split("taskmaster.ids:\n").nth(1).unwrap();
    let ids: Vec<&str> = ids.lines().take_while(|l| l.starts_with("    ")).collect();
    assert_eq!(ids, ["    \"1.1\": \"1\"", "    \"1.2\": \"2\""], "{toon}");
    let file = toon_plan::convert(&l.plan, DialectId::TASKMASTER, &Default::default()).unwrap();
    assert_eq!(file.text, std::fs::read_to_string(&path).unwrap());
}

/// A Task Master file that writes `null` for the texts a task lacks, and its subtasks'
/// ids as dotted strings (`"1.2"`): the plan keeps the nulls as a style (no text patch),
/// the plan model's TOON writes those ids as plain numbers, and the file comes back
/// byte for byte; any decoder reads the TOON as the plan model's JSON.
#[test]
fn task_master_nulls_and_dotted_subtask_ids_cost_no_patch_and_no_quotes() {
    let sub = |id: &str, title: &str| {
        serde_json::json!({"id": id, "title": title, "description": "d", "details": null,
            "testStrategy": null, "dependencies": [], "status": "pending"})
    };
    let file = serde_json::json!({"master": {"tasks": [
        {"id": 1, "title": "Set up", "description": "d", "details": null,
         "testStrategy": "run it", "priority": "high", "dependencies": [], "status": "done",
         "subtasks": [sub("1.1", "Create the app"), sub("1.2", "Add the venv")]},
        {"id": 2, "title": "Ship", "description": "d", "details": "tag it",
         "testStrategy": null, "priority": "low", "dependencies": [1], "status": "pending",
         "subtasks": []}
    ]}});
    let text = serde_json::to_string_pretty(&file).unwrap() + "\n";
    let l = toon_plan::read(
        &text,
        &toon_plan::ReadOptions::dialect(DialectId::TASKMASTER),
    )
    .unwrap();
    // A null text is no text.
    assert_eq!(l.plan.task("1").unwrap().details, None);
    assert!(!l.plan.task("1").unwrap().extra.contains_key("details"));
    let kept: Vec<&str> = l.plan.layout.names().collect();
    assert!(!l.plan.layout.contains("taskmaster.patch"), "{kept:?}");
    let toon = toon_plan::convert(
        &l.plan,
        DialectId::PLAN,
        &toon_plan::ConvertOptions {
            format: Some(Format::Toon),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(toon.report.is_lossless(), "{}", toon.report);
    assert!(toon.text.contains("\n  1,1.1,"), "{}", toon.text);
    assert!(!toon.text.contains("\"1.1\""), "{}", toon.text);
    let json = toon_plan::convert(
        &l.plan,
        DialectId::PLAN,
        &toon_plan::ConvertOptions {
            format: Some(Format::Json),
            ..Default::default()
        },
    )
    .unwrap();
    let decoded = serde_json::Value::from(toon::decode_value(&toon.text).unwrap());
    let as_json: serde_json::Value = serde_json::from_str(&json.text).unwrap();
    assert_eq!(decoded, as_json);
    let back = toon_plan::read(
        &toon.text,
        &toon_plan::ReadOptions {
            format: Some(Format::Toon),
            ..toon_plan::ReadOptions::dialect(DialectId::PLAN)
        },
    )
    .unwrap();
    let again = toon_plan::convert(&back.plan, DialectId::TASKMASTER, &Default::default()).unwrap();
    assert_eq!(again.text, text);
}
