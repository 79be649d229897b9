//! The prompt form of a Kiro task list (the plan model as lean TOON, `toon plan convert
//! --lean`, the `plan_lean` row of `toon plan stats`) costs fewer o200k_base tokens than
//! its markdown: each task's requirements are one cell of its row (`"1.1,2.3"`), not a
//! row of an edge table per requirement, which cost more than the `_Requirements: …_`
//! line.

use std::path::{Path, PathBuf};

use toon_plan::forms::forms;
use toon_plan::{DialectId, Format, ReadOptions};
use toon_tokens::{Bpe, Tokenizer};

/// The valid Kiro examples under `testdata/plans/kiro/valid`, in name order.
fn kiro_examples() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/plans/kiro/valid");
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("the Kiro testdata folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    out.sort();
    out
}

#[test]
fn the_kiro_prompt_form_is_below_the_markdown() {
    let bpe = Bpe::o200k_base().expect("the o200k_base tables");
    let (mut source_total, mut prompt_total) = (0, 0);
    let mut with_requirements = 0;
    for path in kiro_examples() {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(&path).expect("readable");
        let options = ReadOptions {
            dialect: Some(DialectId::KIRO),
            format: Some(Format::Md),
            ..ReadOptions::default()
        };
        let loaded = toon_plan::read(&text, &options).expect("a Kiro plan");
        let all = forms(&loaded, &text).expect("its forms");
        let form = |key: &str| all.iter().find(|f| f.key == key).map(|f| f.text.as_str());
        // A plan with neither body nor layout has no lean form: its plan TOON is it.
        let prompt = form("plan_lean")
            .or_else(|| form("plan_toon"))
            .expect("a prompt form");
        // Requirements are cells of the task rows: no edge table repeats the task ids.
        assert!(!prompt.contains("\nrequirements["), "{name}:\n{prompt}");
        if loaded.plan.tasks.iter().any(|t| t.requirements.is_some()) {
            with_requirements += 1;
            // A column of the tasks or the subtasks table (a flag column may follow it).
            let column = |l: &str| {
                l.ends_with("}:") && (l.contains(",requirements,") || l.contains(",requirements}"))
            };
            assert!(
                prompt.lines().any(column),
                "{name}: no requirements column\n{prompt}"
            );
        }
        // It reads back as the plan model, with the tasks as read from the markdown.
        let back = toon_plan::read(prompt, &ReadOptions::default()).expect("reads back");
        assert_eq!(back.dialect, DialectId::PLAN, "{name}");
        assert_eq!(back.plan.tasks, loaded.plan.tasks, "{name}");
        let (source, lean) = (bpe.count(&text), bpe.count(prompt));
        // Every example that spends at least a few requirement lines is below its source;
        // the smallest (a handful of tasks) pay the fixed schema, title and table header
        // lines, which only the totals below hold to account.
        if source >= 250 {
            assert!(lean < source, "{name}: {lean} tokens against {source}");
        }
        source_total += source;
        prompt_total += lean;
    }
    assert!(with_requirements >= 5, "{with_requirements} examples");
    // 1,749 against 1,833 tokens when this was written (-4.6%; on 33 real Kiro files
    // -13%); with each requirement a row of an edge table the prompt forms cost more than
    // the markdown (+13% on the first six examples).
    assert!(
        prompt_total * 100 <= source_total * 97,
        "prompt forms {prompt_total} tokens against {source_total} as markdown"
    );
}
