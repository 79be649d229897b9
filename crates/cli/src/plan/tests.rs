//! `toon plan` as the CLI runs it: conversions of files and folders, validation exit
//! codes, summaries.

use super::*;
use toon_plan::folder::{output_name, plan_files};

fn testdata(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/plans")
        .join(rel)
}

fn convert_cmd(
    input: PathBuf,
    to: DialectId,
    format: Option<Format>,
    output: Option<PathBuf>,
) -> PlanCommand {
    PlanCommand::Convert {
        input,
        from: None,
        input_format: None,
        to,
        format,
        output,
        force: false,
        quiet: true,
        lean: false,
        sets: Vec::new(),
        json: false,
        model_output: false,
    }
}

#[test]
fn lean_leaves_the_body_out() {
    let dir = tempfile::tempdir().unwrap();
    let input = testdata("cursor/valid/dark-mode.plan.md");
    let [full, lean] = ["full.toon", "lean.toon"].map(|n| dir.path().join(n));
    for (out, lean_flag) in [(&full, false), (&lean, true)] {
        let mut cmd = convert_cmd(input.clone(), DialectId::PLAN, None, Some(out.clone()));
        if let PlanCommand::Convert { lean, .. } = &mut cmd {
            *lean = lean_flag;
        }
        assert_eq!(run(cmd), ExitCode::SUCCESS);
    }
    let full = std::fs::read_to_string(full).unwrap();
    let lean = std::fs::read_to_string(lean).unwrap();
    assert!(full.contains("\nbody[13]: "), "{full}");
    assert!(!lean.contains("body"), "{lean}");
    assert!(
        lean.contains("tasks[4]{id,description,status,dependencies}:"),
        "{lean}"
    );
}

#[test]
fn output_names_follow_the_target() {
    let p = Path::new("plans/auth.plan.md");
    assert_eq!(
        output_name(p, DialectId::PLAN, Format::Toon),
        "auth.plan.toon"
    );
    assert_eq!(
        output_name(Path::new("t/auth.plan.toon"), DialectId::CURSOR, Format::Md),
        "auth.plan.md"
    );
    // A name without `.plan` keeps its name.
    assert_eq!(
        output_name(Path::new("x-plan.toon"), DialectId::CURSOR, Format::Md),
        "x-plan.md"
    );
    assert_eq!(
        output_name(Path::new("x.json"), DialectId::WORKFLOW, Format::Md),
        "x.md"
    );
    let c = output_name(p, DialectId::COMPOSITE, Format::Yaml);
    assert!(c.starts_with("PLAN-") && c.ends_with(".yaml") && c.len() == "PLAN-.yaml".len() + 10);
}

#[test]
fn validate_exits_by_validity() {
    let ok = PlanCommand::Validate {
        files: vec![testdata("plandag/valid/checkout.json")],
        from: None,
        format: None,
        json: false,
        model_output: false,
    };
    assert_eq!(run(ok), ExitCode::SUCCESS);
    let bad = PlanCommand::Validate {
        files: vec![
            testdata("plandag/valid/checkout.json"),
            testdata("plandag/invalid/acyclic.json"),
        ],
        from: None,
        format: None,
        json: false,
        model_output: false,
    };
    assert_eq!(run(bad), ExitCode::FAILURE);
    let missing = PlanCommand::Validate {
        files: vec![testdata("nope.json")],
        from: None,
        format: None,
        json: false,
        model_output: false,
    };
    assert_eq!(run(missing), ExitCode::FAILURE);
}

#[test]
fn converts_a_file_atomically_and_refuses_invalid_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("checkout.toon");
    let cmd = convert_cmd(
        testdata("plandag/valid/checkout.json"),
        DialectId::PLAN,
        Some(Format::Toon),
        Some(out.clone()),
    );
    assert_eq!(run(cmd), ExitCode::SUCCESS);
    let text = std::fs::read_to_string(&out).unwrap();
    // Dependencies as one cell of each task's row.
    assert!(
        text.contains("parallel_group,dependencies}:") && !text.contains("deps["),
        "{text}"
    );
    let back = toon_plan::read(
        &text,
        &toon_plan::ReadOptions {
            file_name: Some(std::path::PathBuf::from(&out)),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(back.dialect, DialectId::PLAN);
    assert_eq!(back.plan.tasks.len(), 4);

    let refused = dir.path().join("refused.json");
    let cmd = convert_cmd(
        testdata("composite/invalid/no-cycles.yaml"),
        DialectId::PLAN,
        None,
        Some(refused.clone()),
    );
    assert_eq!(run(cmd), ExitCode::FAILURE);
    assert!(!refused.exists());
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1, "no temporary files left behind");
}

#[test]
fn a_conversion_the_target_would_reject_needs_force() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("dark-mode.json");
    let input = testdata("cursor/valid/dark-mode.plan.md");
    // A Cursor plan has no `tool` for a tool DAG: refused, nothing written.
    let cmd = convert_cmd(input.clone(), DialectId::TOOLDAG, None, Some(out.clone()));
    assert_eq!(run(cmd), ExitCode::FAILURE);
    assert!(!out.exists());
    // With --force it is written (exit status still 1), and it is what the tool
    // DAG validator rejects for exactly the reason printed.
    let forced = PlanCommand::Convert {
        input,
        from: None,
        input_format: None,
        to: DialectId::TOOLDAG,
        format: None,
        output: Some(out.clone()),
        force: true,
        quiet: true,
        lean: false,
        sets: Vec::new(),
        json: false,
        model_output: false,
    };
    assert_eq!(run(forced), ExitCode::FAILURE);
    let text = std::fs::read_to_string(&out).unwrap();
    let back = toon_plan::read(
        &text,
        &toon_plan::ReadOptions {
            file_name: Some(std::path::PathBuf::from(&out)),
            ..Default::default()
        },
    )
    .unwrap();
    let errors: Vec<_> = toon_plan::validate(&back)
        .into_iter()
        .filter(|p| p.severity == Severity::Error)
        .map(|p| p.location.to_string())
        .collect();
    assert_eq!(
        errors,
        ["dag[0].tool", "dag[1].tool", "dag[2].tool", "dag[3].tool"]
    );
    // A target that holds everything the source needs still converts at once.
    let cmd = convert_cmd(
        testdata("plandag/valid/checkout.json"),
        DialectId::CURSOR,
        None,
        Some(dir.path().join("checkout.plan.md")),
    );
    assert_eq!(run(cmd), ExitCode::SUCCESS);
}

#[test]
fn a_folder_of_cursor_plans_goes_to_toon_and_back_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let toon_dir = dir.path().join("toon");
    let back_dir = dir.path().join("back");
    let src = testdata("cursor/messy");
    let cmd = convert_cmd(
        src.clone(),
        DialectId::PLAN,
        Some(Format::Toon),
        Some(toon_dir.clone()),
    );
    assert_eq!(run(cmd), ExitCode::SUCCESS);
    let cmd = convert_cmd(toon_dir, DialectId::CURSOR, None, Some(back_dir.clone()));
    assert_eq!(run(cmd), ExitCode::SUCCESS);
    let files = plan_files(&src).unwrap();
    assert!(files.len() >= 12);
    for f in files {
        let name = f.file_name().unwrap();
        let back = std::fs::read(back_dir.join(name)).unwrap();
        assert_eq!(back, std::fs::read(&f).unwrap(), "{}", f.display());
    }
}

#[test]
fn a_file_into_a_folder_gets_a_composite_name() {
    let dir = tempfile::tempdir().unwrap();
    let cmd = convert_cmd(
        testdata("tooldag/valid/birthdays.json"),
        DialectId::COMPOSITE,
        None,
        Some(dir.path().to_path_buf()),
    );
    assert_eq!(run(cmd), ExitCode::SUCCESS);
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 1);
    assert!(names[0].starts_with("PLAN-") && names[0].ends_with(".yaml"));
    let text = std::fs::read_to_string(dir.path().join(&names[0])).unwrap();
    let back = toon_plan::read(
        &text,
        &toon_plan::ReadOptions {
            file_name: Some(std::path::PathBuf::from(Path::new(&names[0]))),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(back.dialect, DialectId::COMPOSITE);
    assert_eq!(back.plan.tasks.len(), 3);
}

#[test]
fn a_folder_needs_an_output_folder() {
    let cmd = convert_cmd(testdata("cursor/valid"), DialectId::PLAN, None, None);
    assert_eq!(run(cmd), ExitCode::FAILURE);
}

#[test]
fn show_summarises() {
    let cmd = PlanCommand::Show {
        file: testdata("cursor/valid/dark-mode.plan.md"),
        from: None,
        format: None,
        json: false,
    };
    assert_eq!(run(cmd), ExitCode::SUCCESS);
    let cmd = PlanCommand::Show {
        file: testdata("cursor/invalid/acyclic.plan.md"),
        from: None,
        format: None,
        json: false,
    };
    assert_eq!(run(cmd), ExitCode::FAILURE);
}
