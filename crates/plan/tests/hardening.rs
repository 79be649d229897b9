//! Hostile plans: nesting far beyond any parser's limit in every format, broken TOON
//! counts, huge declared lengths, and very long dependency chains. Each must load into
//! a plan or fail with a clean error; validation and conversion must never overflow
//! the stack.

use toon_plan::{DialectId, Format, Plan, Task};

const DEEP: usize = 100_000;

fn load(text: &str, dialect: Option<DialectId>, format: Option<Format>) -> Option<String> {
    match toon_plan::read(
        text,
        &toon_plan::ReadOptions {
            dialect,
            format,
            ..Default::default()
        },
    ) {
        Ok(l) => {
            // Whatever loads must validate and convert without trouble.
            let _ = toon_plan::validate(&l);
            for to in DialectId::all() {
                if let Err(e) = toon_plan::convert(
                    &l.plan,
                    to,
                    &toon_plan::ConvertOptions {
                        ..Default::default()
                    },
                ) {
                    // Only a reader's nesting limit may refuse what another accepted.
                    let m = e.to_string();
                    assert!(
                        ["budget breached", "recursion limit", "deeper than"]
                            .iter()
                            .any(|k| m.contains(k)),
                        "→ {to}: {m}"
                    );
                }
            }
            None
        }
        Err(e) => Some(e.to_string()),
    }
}

#[test]
fn a_100_000_level_document_fails_cleanly_in_every_format() {
    let json = format!("{{\"dag\": {}{}}}", "[".repeat(DEEP), "]".repeat(DEEP));
    let yaml = format!("dag: {}{}\n", "[".repeat(DEEP), "]".repeat(DEEP));
    let toon = format!(
        "dag[1]{{{}c{}:\n  1",
        "b{".repeat(DEEP),
        "}".repeat(DEEP + 1)
    );
    for (text, format) in [
        (&json, Format::Json),
        (&yaml, Format::Yaml),
        (&toon, Format::Toon),
    ] {
        for dialect in [None, Some(DialectId::TOOLDAG), Some(DialectId::PLAN)] {
            let e = load(text, dialect, Some(format));
            assert!(
                e.is_some(),
                "{format} {dialect:?} loaded a 100,000-deep plan"
            );
        }
    }
    // Sniffed, too.
    assert!(load(&json, None, None).is_some());
}

#[test]
fn deep_front_matter_in_a_cursor_plan_is_kept_or_refused_never_a_crash() {
    let flow = format!(
        "---\nname: x\ntodos: {}{}\n---\n\nbody\n",
        "[".repeat(DEEP),
        "]".repeat(DEEP)
    );
    let mut block = String::from("---\nname: x\nextra:\n");
    for i in 1..3000 {
        block.push_str(&" ".repeat(i));
        block.push_str("k:\n");
    }
    block.push_str("---\n\nbody\n");
    for text in [&flow, &block] {
        let _ = load(text, Some(DialectId::CURSOR), Some(Format::Md));
        let _ = load(text, None, None);
    }
}

#[test]
fn a_toon_plan_with_a_wrong_count_is_a_clean_error_with_its_line() {
    // Planners write `tasks[19]` over 20 rows.
    let mut text = String::from("dag[2]{id,tool,query,dependencies}:\n");
    for i in 0..3 {
        text.push_str(&format!("  t{i},search,q{i},\"\"\n"));
    }
    let e = toon_plan::read(
        &text,
        &toon_plan::ReadOptions {
            format: Some(Format::Toon),
            ..Default::default()
        },
    )
    .expect_err("count");
    let msg = e.to_string();
    assert!(
        msg.starts_with("line 4, column 3: invalid TOON: Expected 2 tabular rows"),
        "{msg}"
    );
    // The message, then the source line with a caret (as `toon -d` shows it).
    assert_eq!(msg.lines().count(), 4, "{msg}");
    assert!(msg.ends_with("\n  |   ^"), "{msg}");
    // A huge declared count does not allocate.
    let huge = "dag[4000000000]{id,tool,query}:\n  a,search,q\n";
    assert!(
        toon_plan::read(
            huge,
            &toon_plan::ReadOptions {
                format: Some(Format::Toon),
                ..Default::default()
            }
        )
        .is_err()
    );
}

/// A plan whose tasks form one long chain: task i depends on task i-1.
fn chain(n: usize) -> Plan {
    let tasks = (0..n)
        .map(|i| Task {
            id: format!("t{i}"),
            title: Some(format!("step {i}")),
            description: Some(format!("do step {i}")),
            tool: Some("search".into()),
            dependencies: Some(if i == 0 {
                vec![]
            } else {
                vec![format!("t{}", i - 1)]
            }),
            ..Task::default()
        })
        .collect();
    Plan {
        title: Some("chain".into()),
        goal: Some("a long chain".into()),
        tasks,
        ..Plan::default()
    }
}

#[test]
fn a_5_000_task_dependency_chain_validates_and_converts_everywhere() {
    let plan = chain(5_000);
    for to in DialectId::all() {
        let conv = toon_plan::convert(
            &plan,
            to,
            &toon_plan::ConvertOptions {
                ..Default::default()
            },
        )
        .expect("converts");
        let back = toon_plan::read(
            &conv.text,
            &toon_plan::ReadOptions {
                dialect: Some(to),
                format: Some(conv.report.format),
                ..Default::default()
            },
        )
        .expect("loads");
        assert_eq!(back.plan.tasks.len(), 5_000, "{to}");
        let _ = toon_plan::validate(&back);
    }
    // And a cycle through all of them is found, not a stack overflow.
    let mut cyclic = chain(5_000);
    cyclic.tasks[0].dependencies = Some(vec!["t4999".into()]);
    let conv = toon_plan::convert(
        &cyclic,
        DialectId::TOOLDAG,
        &toon_plan::ConvertOptions::default(),
    )
    .expect("converts");
    let back = toon_plan::read(&conv.text, &toon_plan::ReadOptions::default()).expect("loads");
    let problems = toon_plan::validate(&back);
    assert!(
        problems.iter().any(|p| p.to_string().contains("cycle")),
        "{problems:?}"
    );
}

#[test]
fn a_2_mb_line_in_every_format_loads() {
    let long = "x".repeat(2 << 20);
    let json = format!(
        "{{\"dag\": [{{\"id\": \"a\", \"tool\": \"t\", \"query\": \"{long}\", \"dependencies\": []}}]}}"
    );
    let md = format!("---\nname: {long}\ntodos:\n  - id: a\n    content: {long}\n---\n\n{long}\n");
    for (text, format) in [(&json, Format::Json), (&md, Format::Md)] {
        let l = toon_plan::read(
            text,
            &toon_plan::ReadOptions {
                format: Some(format),
                ..Default::default()
            },
        )
        .expect("loads");
        let out = toon_plan::convert(
            &l.plan,
            DialectId::PLAN,
            &toon_plan::ConvertOptions {
                format: Some(Format::Toon),
                ..Default::default()
            },
        )
        .expect("ok");
        assert!(out.report.is_lossless(), "{}", out.report);
        assert!(out.text.len() > 2 << 20);
    }
}

/// Fuzz find (markdown_plan): a workflow markdown item whose label holds markup,
/// `- *\x01t*Timeout**: 120s`, was read as the key `\x01tTimeout**`, which the writer
/// cannot put back inside `**…**`; converting the plan to itself lost the field. Such
/// items are now ignored with a warning, like other items without a plain label.
#[test]
fn markup_in_a_workflow_markdown_label_is_ignored_with_a_warning() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/plans/workflow/valid/onboarding.md"
    );
    let valid = std::fs::read_to_string(path).expect("read");
    for odd in [
        "- *\u{1}t*Timeout**: 120s\nries: 2",
        "- **a**b**: 1",
        "- **_x_**: 1",
        "- **`code`**: 1",
        "- **a\\*b**: 1",
        "- **[link](x)**: 1",
        "- **Note:**: x",
    ] {
        let text = valid.replace(
            "- **Timeout**: 120s",
            &format!("- **Timeout**: 120s\n{odd}"),
        );
        let l = toon_plan::read(
            &text,
            &toon_plan::ReadOptions {
                dialect: Some(DialectId::WORKFLOW),
                format: Some(Format::Md),
                ..Default::default()
            },
        )
        .expect("loads");
        let same = toon_plan::convert(
            &l.plan,
            DialectId::WORKFLOW,
            &toon_plan::ConvertOptions {
                format: Some(Format::Md),
                ..Default::default()
            },
        )
        .expect("converts");
        assert!(same.report.is_lossless(), "{odd}: {}", same.report);
    }
    let text = valid.replace(
        "- **Timeout**: 120s",
        "- **Timeout**: 120s\n- *\u{1}t*Timeout**: 120s",
    );
    let l = toon_plan::read(
        &text,
        &toon_plan::ReadOptions {
            dialect: Some(DialectId::WORKFLOW),
            format: Some(Format::Md),
            ..Default::default()
        },
    )
    .expect("loads");
    let problems = toon_plan::validate(&l);
    assert!(
        problems
            .iter()
            .any(|p| p.to_string().contains("not plain text")),
        "{problems:?}"
    );
    // Plain labels with inner underscores and spaces still read.
    let text = valid.replace(
        "- **Timeout**: 120s",
        "- **Timeout**: 120s\n- **retry_after**: 5\n- **Owner Team**: data",
    );
    let l = toon_plan::read(
        &text,
        &toon_plan::ReadOptions {
            dialect: Some(DialectId::WORKFLOW),
            format: Some(Format::Md),
            ..Default::default()
        },
    )
    .expect("loads");
    let same = toon_plan::convert(
        &l.plan,
        DialectId::WORKFLOW,
        &toon_plan::ConvertOptions {
            format: Some(Format::Md),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(same.report.is_lossless(), "{}", same.report);
    assert!(same.text.contains("retry_after"), "{}", same.text);
}

/// Fuzz find (model_plan): a 376-character key of control characters is 1,500
/// characters once quoted with escapes, beyond YAML's 1024-character limit for an
/// implicit key, so the YAML written for it did not parse back. Long keys are now
/// written as explicit `? key` entries.
#[test]
fn keys_too_long_for_an_implicit_yaml_key_round_trip() {
    let controls: String = "\u{0}\u{5}\u{7}\u{e}".repeat(94);
    for key in [
        controls,
        "k".repeat(5000),
        format!("{}: x", "é".repeat(1100)),
    ] {
        let mut extra = toon_plan::Extra::new();
        extra.insert(
            key.clone(),
            serde_json::json!({"a": [1, {"b": key.clone()}]}),
        );
        let mut task = Task {
            id: "t".into(),
            ..Task::default()
        };
        task.extra.insert(key.clone(), serde_json::json!("v"));
        let plan = Plan {
            extra,
            tasks: vec![task],
            ..Plan::default()
        };
        for to in [DialectId::PLAN, DialectId::COMPOSITE, DialectId::STAGED] {
            let conv = toon_plan::convert(
                &plan,
                to,
                &toon_plan::ConvertOptions {
                    format: Some(Format::Yaml),
                    ..Default::default()
                },
            )
            .unwrap_or_else(|e| panic!("{to}: {e}"));
            if to == DialectId::PLAN {
                assert!(conv.report.is_lossless(), "{}", conv.report);
            }
        }
    }
}

/// Fuzz find (staged_plan, through dialect detection): a document starting `<!-->`
/// sliced the text with its comment's end before its start and panicked.
#[test]
fn an_html_comment_whose_end_overlaps_its_start_is_not_a_panic() {
    for text in [
        "<!-->_:\t\"w ta\nss\"confie\"s\"-",
        "<!-->",
        "<!--->",
        "<!---->\nname: x\n",
        "<!--\nname: x\n-->\n# body\n",
    ] {
        for (dialect, format) in [
            (None, None),
            (Some(DialectId::CURSOR), Some(Format::Md)),
            (None, Some(Format::Md)),
        ] {
            let _ = load(text, dialect, format);
        }
    }
    let l = toon_plan::read(
        "<!--\nname: x\ntodos: []\n-->\n# body\n",
        &toon_plan::ReadOptions {
            dialect: Some(DialectId::CURSOR),
            format: Some(Format::Md),
            ..Default::default()
        },
    )
    .expect("front matter in a comment");
    assert_eq!(l.plan.title.as_deref(), Some("x"));
}

/// Fuzz find (tooldag_plan): U+FFFF (and U+FFFE) are not printable in YAML, but the
/// YAML writer wrote them raw, so the plan's YAML did not read back.
#[test]
fn noncharacters_are_escaped_in_yaml() {
    for s in ["\u{ffff}", "a\u{fffe}b", "---3\u{ffff}\u{ffff}"] {
        let mut extra = toon_plan::Extra::new();
        extra.insert(s.to_owned(), serde_json::json!([s]));
        let plan = Plan {
            title: Some(s.to_owned()),
            extra,
            tasks: vec![Task {
                id: s.to_owned(),
                description: Some(s.to_owned()),
                ..Task::default()
            }],
            ..Plan::default()
        };
        for to in [DialectId::PLAN, DialectId::CURSOR, DialectId::COMPOSITE] {
            let conv = toon_plan::convert(
                &plan,
                to,
                &toon_plan::ConvertOptions {
                    format: Some(Format::Yaml),
                    ..Default::default()
                },
            )
            .unwrap_or_else(|e| panic!("{to}: {e}"));
            if to == DialectId::PLAN {
                assert!(conv.report.is_lossless(), "{}", conv.report);
            }
        }
        let md = toon_plan::convert(
            &plan,
            DialectId::CURSOR,
            &toon_plan::ConvertOptions {
                format: Some(Format::Md),
                ..Default::default()
            },
        )
        .expect("md");
        assert!(
            toon_plan::read(
                &md.text,
                &toon_plan::ReadOptions {
                    dialect: Some(DialectId::CURSOR),
                    ..Default::default()
                }
            )
            .is_ok()
        );
    }
}

/// Fuzz find (cursor_plan): front matter read tolerantly kept a todo key `<<`, which
/// the YAML writer wrote plain, where YAML reads it as a merge key and fails.
#[test]
fn a_merge_key_lookalike_is_quoted_in_yaml() {
    let mut task = Task {
        id: "a".into(),
        ..Task::default()
    };
    task.extra.insert("<<".into(), serde_json::json!("b"));
    let mut extra = toon_plan::Extra::new();
    extra.insert("<<".into(), serde_json::json!({"<<": 1}));
    let plan = Plan {
        extra,
        tasks: vec![task],
        ..Plan::default()
    };
    for to in [DialectId::PLAN, DialectId::COMPOSITE, DialectId::CURSOR] {
        let conv = toon_plan::convert(
            &plan,
            to,
            &toon_plan::ConvertOptions {
                format: Some(Format::Yaml),
                ..Default::default()
            },
        )
        .unwrap_or_else(|e| panic!("{to}: {e}"));
        if to == DialectId::PLAN {
            assert!(conv.report.is_lossless(), "{}", conv.report);
        }
    }
}

/// A huge head that is restyled throughout (here: not even valid YAML) is kept as a
/// patch found within a bounded time, and the file still comes back byte for byte.
#[test]
fn a_huge_restyled_head_comes_back_byte_for_byte() {
    let mut text = String::from("---\n");
    for i in 0..5000 {
        text.push_str(&format!("k{i}: [a, b: c\n"));
    }
    text.push_str("---\nbody\n");
    let l = toon_plan::read(
        &text,
        &toon_plan::ReadOptions {
            dialect: Some(DialectId::CURSOR),
            format: Some(Format::Md),
            ..Default::default()
        },
    )
    .expect("loads");
    assert!(l.plan.layout.contains("cursor.head_patch"));
    let back = toon_plan::convert(
        &l.plan,
        DialectId::CURSOR,
        &toon_plan::ConvertOptions {
            format: Some(Format::Md),
            ..Default::default()
        },
    )
    .map(|c| c.text)
    .expect("writes");
    assert!(back == text, "the head did not come back");
}

/// An empty (or blank) document of a format without a dialect of its own says that it
/// is empty, not that its dialect is unknown; a blank markdown file is an empty Cursor
/// plan by its name.
#[test]
fn an_empty_document_says_it_is_empty() {
    for (text, format) in [
        ("", Format::Toon),
        ("", Format::Md),
        ("\n\n", Format::Md),
        ("  \n", Format::Yaml),
        ("\n", Format::Toon),
    ] {
        let e = toon_plan::read(
            text,
            &toon_plan::ReadOptions {
                format: Some(format),
                ..Default::default()
            },
        )
        .unwrap_err();
        assert!(
            e.to_string().contains("the document is empty"),
            "{format}: {e}"
        );
    }
    let e = toon_plan::read(
        "name: x\n",
        &toon_plan::ReadOptions {
            format: Some(Format::Yaml),
            ..Default::default()
        },
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("cannot tell which plan dialect"),
        "{e}"
    );
    let path = std::path::Path::new("x.plan.md");
    let l = toon_plan::read(
        "",
        &toon_plan::ReadOptions {
            file_name: Some(std::path::PathBuf::from(path)),
            ..Default::default()
        },
    )
    .expect("an empty Cursor plan");
    assert_eq!(l.dialect, DialectId::CURSOR);
}

/// Front matter whose closing `---` is missing is an error at the line that opens it,
/// not a plan with no todos that validates.
#[test]
fn front_matter_that_never_closes_is_an_error_where_it_opens() {
    let read = |text: &str| {
        let options = toon_plan::ReadOptions {
            dialect: Some(DialectId::CURSOR),
            ..Default::default()
        };
        toon_plan::read(text, &options).expect("the text reads as markdown")
    };
    let text = "---\nname: Ship it\ntodos:\n  - id: a\n    content: Do it\n    status: pending\n";
    let problems = toon_plan::validate(&read(text));
    let error = problems
        .iter()
        .find(|p| p.is_error())
        .expect("an error is reported");
    assert_eq!(error.location, toon_plan::Location::Line(1));
    assert!(error.message.contains("no `---` line closes it"), "{error}");
    // Closed, the same front matter reads with its todo and no error.
    let loaded = read(&format!("{text}---\n"));
    assert!(!toon_plan::validate(&loaded).iter().any(|p| p.is_error()));
    assert_eq!(loaded.plan.tasks.len(), 1);
}

/// Blank text is no plan in any format, with or without a dialect or a file name,
/// and says so (not a JSON or YAML syntax error, not an empty TOON object); blank
/// markdown of a known dialect is an empty plan.
#[test]
fn blank_text_is_an_empty_document_in_every_format() {
    use toon_plan::{ErrorKind, ReadOptions};
    for text in ["", " \n\t\n", "\u{feff}"] {
        for format in [
            Some(Format::Json),
            Some(Format::Yaml),
            Some(Format::Toon),
            Some(Format::Prompt),
            Some(Format::Md),
            None,
        ] {
            for (dialect, file) in [
                (None, None),
                (Some(DialectId::PLANDAG), None),
                (None, Some("plan.json")),
                (None, Some(".taskmaster/tasks/tasks.json")),
            ] {
                if format == Some(Format::Md) && (dialect.is_some() || file.is_some()) {
                    continue;
                }
                let options = ReadOptions {
                    dialect,
                    format,
                    file_name: file.map(Into::into),
                };
                let e = toon_plan::read(text, &options).expect_err("blank text");
                assert_eq!(
                    e.kind,
                    ErrorKind::Empty,
                    "{format:?} {dialect:?} {file:?}: {e}"
                );
                assert_eq!(
                    e.to_string(),
                    "the document is empty: there is no plan in it"
                );
            }
        }
    }
    let blank_cursor = ReadOptions {
        file_name: Some("x.plan.md".into()),
        ..Default::default()
    };
    assert!(
        toon_plan::read("", &blank_cursor)
            .unwrap()
            .plan
            .tasks
            .is_empty()
    );
    let cursor = ReadOptions::dialect(DialectId::CURSOR);
    assert!(
        toon_plan::read("\n", &cursor)
            .unwrap()
            .plan
            .tasks
            .is_empty()
    );
}

/// A JSON syntax error gives its line and column once, before the message.
#[test]
fn json_errors_put_line_and_column_together() {
    let options = toon_plan::ReadOptions::dialect(DialectId::PLANDAG);
    let e = toon_plan::read("{\n  \"steps\": [1, 2", &options).expect_err("truncated");
    assert_eq!(
        e.to_string(),
        "line 2, column 16: invalid JSON: EOF while parsing a list"
    );
    assert_eq!(
        (e.location, e.column),
        (toon_plan::Location::Line(2), Some(16))
    );
}
