//! The section on planners' own files from public repositories (not committed): a
//! folder with `taskmaster/*.json` (`.taskmaster/tasks/tasks.json` files), `kiro/*.md`
//! (`.kiro/specs/<feature>/tasks.md`) and `speckit/*.md` (`specs/<NNN-feature>/tasks.md`),
//! each file measured in its forms ([`toon_plan::forms`]) against compact JSON (Task
//! Master) or its markdown source (Kiro, Spec Kit), with the targets of issue 27.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use toon_plan::forms::forms;
use toon_plan::{DialectId, Format, ReadOptions, Severity};
use toon_tokens::{Tokenizer, percent_change, thousands};

/// One file's figures.
struct Measured {
    name: String,
    /// Token count per form key (0 when the form does not apply).
    tokens: Vec<(&'static str, usize)>,
    /// Whether it reads without errors and comes back byte for byte from the plan model.
    round_trips: bool,
    /// Whether it validates without errors.
    valid: bool,
}

impl Measured {
    fn of(&self, key: &str) -> usize {
        self.tokens
            .iter()
            .find(|(k, _)| *k == key)
            .map_or(0, |(_, n)| *n)
    }

    /// The prompt form: the lean plan TOON, or the plan TOON of a plan with neither body
    /// nor layout (which has no lean form: it is already lean).
    fn prompt(&self) -> usize {
        match self.of("plan_lean") {
            0 => self.of("plan_toon"),
            n => n,
        }
    }
}

/// The files of one dialect's folder, sorted.
fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    out.sort();
    out
}

/// Measures one file of `dialect`, read as that dialect (as a user would name it or
/// as its path would tell).
fn measure(path: &Path, dialect: DialectId, tokenizer: &dyn Tokenizer) -> Result<Measured, String> {
    let name = path
        .file_stem()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let options = ReadOptions {
        dialect: Some(dialect),
        format: Some(dialect.dialect().natural_format()),
        ..Default::default()
    };
    let loaded = toon_plan::read(&text, &options).map_err(|e| format!("{name}: {e}"))?;
    let valid = !toon_plan::validate(&loaded)
        .iter()
        .any(|p| p.severity == Severity::Error);
    let all = forms(&loaded, &text).map_err(|e| format!("{name}: {e}"))?;
    let tokens = all
        .iter()
        .map(|f| (f.key, tokenizer.count(&f.text)))
        .collect();
    let via = toon_plan::convert(
        &loaded.plan,
        DialectId::PLAN,
        &toon_plan::ConvertOptions {
            format: Some(Format::Toon),
            ..Default::default()
        },
    )
    .map_err(|e| format!("{name}: {e}"))?;
    let back = toon_plan::read(&via.text, &ReadOptions::dialect(DialectId::PLAN))
        .and_then(|l| toon_plan::convert(&l.plan, dialect, &toon_plan::ConvertOptions::default()))
        .map(|c| c.text == text)
        .unwrap_or(false);
    Ok(Measured {
        name,
        tokens,
        round_trips: back,
        valid,
    })
}

/// The section, or `None` when the folder holds none of the three dialects' files.
pub fn section(dir: &Path, tokenizer: &dyn Tokenizer) -> Result<Option<String>, String> {
    let verdict = |met: bool| if met { "met" } else { "**missed**" };
    let mut out = String::new();
    let tm = files(&dir.join("taskmaster"), "json")
        .iter()
        .map(|p| measure(p, DialectId::TASKMASTER, tokenizer))
        .collect::<Result<Vec<_>, _>>()?;
    if !tm.is_empty() {
        let _ = writeln!(
            out,
            "### Task Master (`.taskmaster/tasks/tasks.json`)\n\n{} files. Columns: the file as \
             committed (pretty JSON); compact JSON; the file as TOON (`toon -e tasks.json`); the \
             plan model as TOON (with the layout that writes the file back byte for byte); the \
             same without the layout (`toon plan convert --lean`).\n",
            tm.len()
        );
        let _ = writeln!(
            out,
            "| file | source | compact JSON | file as TOON | plan model TOON | lean plan TOON | plan TOON ÷ compact JSON | byte for byte |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
        );
        let mut sum = [0usize; 5];
        for m in &tm {
            let row = [
                m.of("source"),
                m.of("json_compact"),
                m.of("toon"),
                m.of("plan_toon"),
                m.of("plan_lean"),
            ];
            for (s, v) in sum.iter_mut().zip(row) {
                *s += v;
            }
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {:.3} | {} |",
                m.name,
                thousands(row[0]),
                thousands(row[1]),
                thousands(row[2]),
                thousands(row[3]),
                thousands(row[4]),
                row[3] as f64 / row[1].max(1) as f64,
                if m.round_trips && m.valid {
                    "yes"
                } else {
                    "no"
                },
            );
        }
        let _ = writeln!(
            out,
            "| **Total** | **{}** | **{}** | **{}** | **{}** | **{}** | **{:.3}** | |\n",
            thousands(sum[0]),
            thousands(sum[1]),
            thousands(sum[2]),
            thousands(sum[3]),
            thousands(sum[4]),
            sum[3] as f64 / sum[1].max(1) as f64,
        );
        let below = tm
            .iter()
            .filter(|m| m.of("plan_toon") < m.of("json_compact"))
            .count();
        let _ = writeln!(
            out,
            "- Plan model TOON below compact JSON on every file: {below} of {} — {}; ≤ 0.93× in \
             total: {:.3}× — {}.\n- Read, valid and written back byte for byte through the plan \
             model's TOON: {} of {}.\n",
            tm.len(),
            verdict(below == tm.len()),
            sum[3] as f64 / sum[1].max(1) as f64,
            verdict(sum[3] * 100 <= sum[1] * 93),
            tm.iter().filter(|m| m.round_trips && m.valid).count(),
            tm.len(),
        );
        out.push_str(
            "The plan model's TOON of these files: tasks without a parent in the tasks table \
             and subtasks in a table of their own, by their task and own number, with ids \
             local to their tag (each tag's `id_prefix` given once on its group row) so the id, \
             task and dependency columns hold bare numbers; extra fields a third of a table's \
             rows have as its columns, lists among them (`files`, `modules`) as one cell \
             each, the items joined by `,` (the columns named in `list_columns`); \
             `dependencies`, which every task has, named once (`every_task_has`) rather than \
             counted on every row; each task's dependencies as one cell of its row \
             (`\"2,1.2\"`, a subtask's siblings by number, a single one in plain digits a \
             bare number; edge rows only where a cell cannot say them); each key order the \
             layout keeps given once with the ids of the tasks that use it; a subtask id \
             written as a dotted string (`\"1.1\"` under task 1) as the number `1.1`; the \
             `null` a file writes for a task's missing `details` or `testStrategy` as one \
             style flag. Where it still pays more than compact JSON: fields fewer than a \
             third of the rows have stay in the `task_extra` map keyed by whole id; and the \
             layout keeps each dependency list and id written in a minority form (once: the \
             text patch holds only what the layout cannot say).\n\n",
        );
    }
    for (dialect, title) in [
        (DialectId::KIRO, "Kiro (`.kiro/specs/<feature>/tasks.md`)"),
        (
            DialectId::SPECKIT,
            "Spec Kit (`specs/<NNN-feature>/tasks.md`)",
        ),
    ] {
        let md = files(&dir.join(dialect.name()), "md")
            .iter()
            .map(|p| measure(p, dialect, tokenizer))
            .collect::<Result<Vec<_>, _>>()?;
        if md.is_empty() {
            continue;
        }
        let total = |key: &str| md.iter().map(|m| m.of(key)).sum::<usize>();
        let (source, lean, prompt, toon, json) = (
            total("source"),
            md.iter().map(Measured::prompt).sum::<usize>(),
            total("prompt"),
            total("plan_toon"),
            total("plan_json_compact"),
        );
        let _ = writeln!(
            out,
            "### {title}\n\n{} files, {} tokens as markdown.\n\n| form | tokens | vs markdown |\n| --- | ---: | ---: |\n| markdown source | {} | – |\n| prompt form (lean plan TOON) | {} | {} |\n| prompt form with the markdown layout | {} | {} |\n| plan model TOON | {} | {} |\n| plan model JSON (compact) | {} | {} |\n",
            md.len(),
            thousands(source),
            thousands(source),
            thousands(lean),
            percent_change(source, lean),
            thousands(prompt),
            percent_change(source, prompt),
            thousands(toon),
            percent_change(source, toon),
            thousands(json),
            percent_change(source, json),
        );
        let over: Vec<String> = md
            .iter()
            .filter(|m| m.prompt() >= m.of("source"))
            .map(|m| {
                format!(
                    "{} ({})",
                    m.name,
                    percent_change(m.of("source"), m.prompt())
                )
            })
            .collect();
        let failing: Vec<&str> = md
            .iter()
            .filter(|m| !(m.round_trips && m.valid))
            .map(|m| m.name.as_str())
            .collect();
        let _ = writeln!(
            out,
            "- Prompt form below the markdown source: {} of {} files, {} in total — {}{}.\n- Read, valid and written back byte for byte through the plan model's TOON: {} of {}{}.\n",
            md.len() - over.len(),
            md.len(),
            percent_change(source, lean),
            verdict(over.is_empty()),
            if over.is_empty() {
                String::new()
            } else {
                format!(" (over: {})", over.join(", "))
            },
            md.len() - failing.len(),
            md.len(),
            if failing.is_empty() {
                String::new()
            } else {
                format!(" (not: {})", failing.join(", "))
            },
        );
    }
    if out.is_empty() {
        return Ok(None);
    }
    Ok(Some(format!(
        "## Real planner files\n\nPlanners' own files from public repositories (read through \
         the search tools, not committed; regenerate this section with `--planner-files DIR` or \
         `$TOON_PLANNER_FILES`, a folder with `taskmaster/`, `kiro/` and `speckit/`). Exact `{}` \
         tokens of each form (`toon plan stats FILE` prints the same for one file).\n\n{out}",
        tokenizer.name()
    )))
}
