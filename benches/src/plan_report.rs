//! The plan section of the token report: every valid plan in `testdata/plans/` and
//! every plan example inside the seed documents, measured in each of its forms
//! (`toon_plan::forms`: source, JSON, the dialect as TOON, the plan model as TOON).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};
use toon_plan::forms::forms;
use toon_plan::{Format, Severity};
use toon_tokens::{Tokenizer, percent_change, thousands};

/// The form keys, in report column order, with their column titles.
pub const COLUMNS: [(&str, &str); 8] = [
    ("source", "source"),
    ("json_pretty", "JSON (pretty)"),
    ("json_compact", "JSON (compact)"),
    ("toon", "dialect TOON"),
    ("plan_json_compact", "plan model JSON (compact)"),
    ("plan_toon", "plan model TOON"),
    ("prompt", "prompt form"),
    ("plan_lean", "lean plan TOON (no body or layout)"),
];

/// One plan's figures.
#[derive(Clone, Debug)]
pub struct PlanEntry {
    /// Where it comes from (`testdata/plans/…` or `seed 002, block 1`).
    pub name: String,
    /// Its dialect and format, as `workflow md`.
    pub kind: String,
    /// Token count per form key (`None`: the form does not apply).
    pub tokens: Vec<Option<usize>>,
    /// Forms whose text does not read back to the same plan.
    pub lossy: Vec<&'static str>,
    /// A markdown body's tokens as markdown and as the plan model's TOON line
    /// `body[N]: …` (its lines: TOON has no multi-line strings).
    pub body: Option<(usize, usize)>,
}

/// Measures one plan text; `Ok(None)` when it is not a valid plan.
fn measure(
    name: String,
    text: &str,
    path: Option<&Path>,
    format: Option<Format>,
    tokenizer: &dyn Tokenizer,
) -> Result<Option<PlanEntry>, String> {
    let Ok(loaded) = toon_plan::read(
        text,
        &toon_plan::ReadOptions {
            format,
            file_name: path.map(std::path::PathBuf::from),
            ..Default::default()
        },
    ) else {
        return Ok(None);
    };
    if toon_plan::validate(&loaded)
        .iter()
        .any(|p| p.severity == Severity::Error)
    {
        return Ok(None);
    }
    let all = forms(&loaded, text).map_err(|e| format!("{name}: {e}"))?;
    let tokens = COLUMNS
        .iter()
        .map(|(key, _)| {
            all.iter()
                .find(|f| f.key == *key)
                .map(|f| tokenizer.count(&f.text))
        })
        .collect();
    let lossy = all
        .iter()
        .filter(|f| f.keeps_content == Some(false))
        .map(|f| f.key)
        .collect();
    let body = loaded
        .plan
        .body
        .as_deref()
        .filter(|_| loaded.format == Format::Md)
        .map(|b| {
            let lines = b.split('\n').map(|l| toon::Value::String(l.into()));
            let mut line = toon::Map::new();
            line.insert("body", toon::Value::Array(lines.collect()));
            let toon_line = toon::encode_value(&toon::Value::Object(line));
            (tokenizer.count(b), tokenizer.count(&toon_line))
        });
    Ok(Some(PlanEntry {
        name,
        kind: format!("{} {}", loaded.dialect, loaded.format),
        tokens,
        lossy,
        body,
    }))
}

/// The valid plans under `dir` (`<dialect>/valid/*`), in path order.
pub fn testdata_plans(dir: &Path, tokenizer: &dyn Tokenizer) -> Result<Vec<PlanEntry>, String> {
    let mut files: Vec<PathBuf> = Vec::new();
    let dialects = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for dialect in dialects.filter_map(Result::ok) {
        let valid = dialect.path().join("valid");
        if let Ok(entries) = std::fs::read_dir(&valid) {
            files.extend(entries.filter_map(Result::ok).map(|e| e.path()));
        }
    }
    files.sort();
    let root = dir.parent().and_then(Path::parent).unwrap_or(dir);
    let mut out = Vec::new();
    for path in files {
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let name = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        match measure(name, &text, Some(&path), None, tokenizer)? {
            Some(entry) => out.push(entry),
            None => return Err(format!("{}: not a valid plan", path.display())),
        }
    }
    Ok(out)
}

/// Fenced code blocks of a markdown text whose info string is `json`, `yaml` or `toon`,
/// with their format.
pub fn plan_blocks(markdown: &str) -> Vec<(Format, String)> {
    let mut out = Vec::new();
    let mut current: Option<(Format, String)> = None;
    for event in Parser::new(markdown) {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                current = info.split_whitespace().next().and_then(|lang| {
                    match lang.to_ascii_lowercase().as_str() {
                        "json" => Some((Format::Json, String::new())),
                        "yaml" | "yml" => Some((Format::Yaml, String::new())),
                        "toon" => Some((Format::Toon, String::new())),
                        _ => None,
                    }
                });
            }
            Event::Text(text) => {
                if let Some((_, body)) = current.as_mut() {
                    body.push_str(&text);
                }
            }
            Event::End(TagEnd::CodeBlock) => out.extend(current.take()),
            _ => {}
        }
    }
    out
}

/// Every code block of the seed documents in `dir` that is a valid plan.
pub fn seed_plans(dir: &Path, tokenizer: &dyn Tokenizer) -> Result<Vec<PlanEntry>, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let seed = path
            .file_name()
            .map(|n| n.to_string_lossy().chars().take(3).collect::<String>())
            .unwrap_or_default();
        for (i, (format, block)) in plan_blocks(&text).into_iter().enumerate() {
            let name = format!("seed {seed}, code block {}", i + 1);
            out.extend(measure(name, &block, None, Some(format), tokenizer)?);
        }
    }
    Ok(out)
}

/// The plan section as markdown: one table, a total row, and notes.
pub fn markdown(entries: &[PlanEntry], tokenizer: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "## Plans\n");
    let _ = writeln!(
        out,
        "Every valid plan in `testdata/plans/` and every plan example in the seed documents \
         (`shared/seeds/`), in its own source, written in its dialect as JSON, in its \
         dialect as TOON (plain TOON of that JSON: any TOON decoder reads back the JSON) \
         and as the plan model in compact JSON and in TOON (tasks and groups as tables, \
         dependency lists as edge tables; `toon plan stats FILE` prints the same for one \
         file). Exact `{tokenizer}` tokens; percentages against the source.\n"
    );
    let mut header = String::from("| plan | dialect |");
    let mut rule = String::from("| --- | --- |");
    for (_, title) in COLUMNS {
        let _ = write!(header, " {title} |");
        rule.push_str(" ---: |");
    }
    let _ = writeln!(out, "{header}\n{rule}");
    let mut totals = [0usize; COLUMNS.len()];
    // The sources of the plans that have each column, for a fair percentage.
    let mut sources = [0usize; COLUMNS.len()];
    let mut complete = [true; COLUMNS.len()];
    for e in entries {
        let source = e.tokens.first().copied().flatten().unwrap_or(0);
        let mut row = format!("| {} | {} |", e.name, e.kind);
        for (i, t) in e.tokens.iter().enumerate() {
            match t {
                Some(n) => {
                    totals[i] += n;
                    sources[i] += source;
                    if i == 0 {
                        let _ = write!(row, " {} |", thousands(*n));
                    } else {
                        let _ =
                            write!(row, " {} ({}) |", thousands(*n), percent_change(source, *n));
                    }
                }
                None => {
                    complete[i] = false;
                    row.push_str(" – |");
                }
            }
        }
        let _ = writeln!(out, "{row}");
    }
    let mut total = String::from("| **Total** | |");
    for (i, n) in totals.iter().enumerate() {
        let mark = if complete[i] { "" } else { "¹" };
        if i == 0 {
            let _ = write!(total, " **{}** |", thousands(*n));
        } else {
            let _ = write!(
                total,
                " **{} ({})**{mark} |",
                thousands(*n),
                percent_change(sources[i], *n)
            );
        }
    }
    let _ = writeln!(out, "{total}\n");
    let _ = writeln!(
        out,
        "¹ Plans in the plan model's own dialect have no separate plan model column, and only \
         plans with a markdown body or a layout have a lean form (the plan model without \
         the body and without the layout that writes the source back byte for byte, for \
         prompts: `toon plan convert --lean`; not lossless by design); their totals compare \
         with the sources of the plans that have them. \"Reads back to the same plan\" \
         means the same content: a dialect's JSON or TOON form has no place for the layout \
         of a markdown source.\n"
    );
    let lossy: Vec<String> = entries
        .iter()
        .filter(|e| !e.lossy.is_empty())
        .map(|e| format!("{} ({})", e.name, e.lossy.join(", ")))
        .collect();
    out.push_str(&targets(entries));
    if lossy.is_empty() {
        let _ = writeln!(
            out,
            "Every form of every plan above reads back to the same plan (no loss)."
        );
    } else {
        let _ = writeln!(
            out,
            "Forms that do not read back to the same plan: {}.",
            lossy.join("; ")
        );
    }
    out
}

/// The targets for planners' own files: Task Master files as plan model TOON (tasks
/// and subtasks as one table, dependencies as edges, the file's layout included)
/// below the file as compact JSON on every file and ≤ 0.93× in total; Kiro and Spec
/// Kit files in their prompt form (lean plan TOON) below the markdown source.
fn planner_targets(entries: &[PlanEntry]) -> String {
    let at = |e: &PlanEntry, key: &str| e.tokens.get(column(key)).copied().flatten();
    let verdict = |met: bool| if met { "met" } else { "**missed**" };
    let mut out = String::new();
    let of = |dialect: &str| -> Vec<&PlanEntry> {
        entries
            .iter()
            .filter(|e| e.kind.split(' ').next() == Some(dialect))
            .collect()
    };
    let tm: Vec<(usize, usize)> = of("taskmaster")
        .into_iter()
        .filter_map(|e| Some((at(e, "plan_toon")?, at(e, "json_compact")?)))
        .collect();
    if !tm.is_empty() {
        let below = tm.iter().filter(|(toon, json)| toon < json).count();
        let toon: usize = tm.iter().map(|t| t.0).sum();
        let json: usize = tm.iter().map(|t| t.1).sum();
        let _ = writeln!(
            out,
            "- Task Master files, plan model TOON below the file as compact JSON: {below} of {} — {}; in total ≤ 0.93×: {} against {} tokens, {:.3}× — {}.",
            tm.len(),
            verdict(below == tm.len()),
            thousands(toon),
            thousands(json),
            toon as f64 / json.max(1) as f64,
            verdict(toon * 100 <= json * 93),
        );
    }
    for (dialect, name) in [("kiro", "Kiro"), ("speckit", "Spec Kit")] {
        let md: Vec<(usize, usize)> = of(dialect)
            .into_iter()
            // A plan with neither body nor layout has no lean form: its plan TOON is it.
            .filter_map(|e| {
                let prompt = at(e, "plan_lean").or_else(|| at(e, "plan_toon"))?;
                Some((prompt, at(e, "source")?))
            })
            .collect();
        if md.is_empty() {
            continue;
        }
        let below = md.iter().filter(|(lean, src)| lean < src).count();
        let lean: usize = md.iter().map(|t| t.0).sum();
        let src: usize = md.iter().map(|t| t.1).sum();
        let _ = writeln!(
            out,
            "- {name} files, the prompt form (lean plan TOON) below the markdown source: {below} of {} — {}; {} against {} tokens in total ({}).",
            md.len(),
            verdict(below == md.len()),
            thousands(lean),
            thousands(src),
            percent_change(src, lean),
        );
    }
    out
}

/// A section on a folder of real Cursor plans (`*.md`, read from public repositories and
/// not committed): the two token targets of the plan model's lean forms, each met or
/// missed. The prompt form (TOON front matter, the markdown body as written) below the
/// markdown in total and never more than +1% on a file; the plan model's TOON within
/// +2% of the markdown in total and no larger than its compact JSON on any file.
pub fn corpus_section(dir: &Path, tokenizer: &dyn Tokenizer) -> Result<String, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    files.sort();
    let (mut source, mut toon, mut prompt, mut json) = (0usize, 0usize, 0usize, 0usize);
    let mut prompt_over = Vec::new();
    let mut toon_over_json = Vec::new();
    let mut lossy = Vec::new();
    let mut worst_toon = (0usize, 1usize, String::new());
    for path in &files {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let options = toon_plan::ReadOptions {
            format: Some(Format::Md),
            dialect: Some(toon_plan::DialectId::CURSOR),
            ..Default::default()
        };
        let loaded = toon_plan::read(&text, &options).map_err(|e| format!("{name}: {e}"))?;
        let all = forms(&loaded, &text).map_err(|e| format!("{name}: {e}"))?;
        let form = |key: &str| all.iter().find(|f| f.key == key);
        let count = |key: &str| form(key).map(|f| tokenizer.count(&f.text)).unwrap_or(0);
        let (s, t, p, j) = (
            count("source"),
            count("plan_toon"),
            count("prompt"),
            count("plan_json_compact"),
        );
        for key in ["plan_toon", "prompt"] {
            if form(key).is_some_and(|f| f.lossless != Some(true)) {
                lossy.push(format!("{name} ({key})"));
            }
        }
        if p * 100 > s * 101 {
            prompt_over.push(format!("{name} ({})", percent_change(s, p)));
        }
        if t > j {
            toon_over_json.push(name.clone());
        }
        if t * worst_toon.1 > worst_toon.0 * s {
            worst_toon = (t, s, name.clone());
        }
        source += s;
        toon += t;
        prompt += p;
        json += j;
    }
    let verdict = |met: bool| if met { "met" } else { "**missed**" };
    let mut out = format!(
        "## Real Cursor plans\n\n{} `.cursor/plans/*.plan.md` files from public repositories \
         (read through the search tools, not committed; regenerate this section with \
         `--cursor-plans DIR`), {} `{}` tokens as markdown.\n\n",
        files.len(),
        thousands(source),
        tokenizer.name()
    );
    let _ = writeln!(
        out,
        "| form | tokens | vs markdown |\n| --- | ---: | ---: |\n| markdown source | {} | – |\n\
         | prompt form | {} | {} |\n| plan model TOON | {} | {} |\n\
         | plan model JSON (compact) | {} | {} |\n",
        thousands(source),
        thousands(prompt),
        percent_change(source, prompt),
        thousands(toon),
        percent_change(source, toon),
        thousands(json),
        percent_change(source, json),
    );
    let _ = writeln!(
        out,
        "- Prompt form below the markdown in total and never more than +1% on a file: {} in \
         total, {} of {} files within +1% — {}{}.",
        percent_change(source, prompt),
        files.len() - prompt_over.len(),
        files.len(),
        verdict(prompt < source && prompt_over.is_empty()),
        if prompt_over.is_empty() {
            String::new()
        } else {
            format!(
                " (over: {}; what they pay for: every prompt form opens with the `---`, \
                 `schema: toon-plan/1` and `---` lines that mark it (9 tokens), more than 1% \
                 of a file under 900 tokens that has no front matter of its own; a front \
                 matter of keys of its own costs what TOON quotes (a timestamp, text with \
                 `: `) beside the same YAML unquoted, and the layout numbers of the lines \
                 the file writes in another style)",
                prompt_over.join(", ")
            )
        }
    );
    let _ = writeln!(
        out,
        "- Lossless plan model TOON ≤ +2% in total and ≤ its compact JSON on every file: {} \
         in total (worst file {}, {}), {} of {} files ≤ compact JSON — {}. The body is most \
         of a plan's tokens and TOON has no multi-line string: written as its lines it \
         still pays for each blank line (`,\"\"`: two tokens where the markdown's line \
         break costs none of its own) and quotes every line holding `,` or `: ` or \
         starting with `-`; the front matter as TOON costs less than its YAML.",
        percent_change(source, toon),
        worst_toon.2,
        percent_change(worst_toon.1, worst_toon.0),
        files.len() - toon_over_json.len(),
        files.len(),
        verdict(toon * 100 <= source * 102 && toon_over_json.is_empty()),
    );
    if !lossy.is_empty() {
        let _ = writeln!(out, "- Not lossless: {}.", lossy.join(", "));
    }
    Ok(out)
}

/// The column index of a form key.
fn column(key: &str) -> usize {
    COLUMNS.iter().position(|(k, _)| *k == key).unwrap_or(0)
}

/// The token targets for plans, each with its figure and whether it is met: plan-model
/// TOON of the Cursor plans within +5% of their markdown in total (with what the
/// bodies' escaping costs); on every Cursor plan, the plan model's TOON no larger than
/// its compact JSON (and how many of all plans); on every seed example, the
/// dialect's TOON no larger than the dialect's compact JSON.
fn targets(entries: &[PlanEntry]) -> String {
    let at = |e: &PlanEntry, key: &str| e.tokens.get(column(key)).copied().flatten();
    let verdict = |met: bool| if met { "met" } else { "**missed**" };
    let mut out = String::from("Targets:\n\n");
    let cursor: Vec<(usize, usize)> = entries
        .iter()
        .filter(|e| e.kind.starts_with("cursor "))
        .filter_map(|e| Some((at(e, "source")?, at(e, "plan_toon")?)))
        .collect();
    if !cursor.is_empty() {
        let source: usize = cursor.iter().map(|c| c.0).sum();
        let model: usize = cursor.iter().map(|c| c.1).sum();
        let (md, lines) = entries
            .iter()
            .filter(|e| e.kind.starts_with("cursor "))
            .filter_map(|e| e.body)
            .fold((0, 0), |(a, b), (m, t)| (a + m, b + t));
        let _ = writeln!(
            out,
            "- Cursor plans, plan model TOON against the markdown source, in total (≤ +5%): \
             {} against {} tokens, {} — {}. Of that, the bodies cost {} tokens as markdown \
             and {} as the plan model's lists of lines ({} on the sources by itself); everything \
             else is {} against {} ({}).",
            thousands(model),
            thousands(source),
            percent_change(source, model),
            verdict(model * 100 <= source * 105),
            thousands(md),
            thousands(lines),
            percent_change(source, source + lines - md.min(lines)),
            thousands(model.saturating_sub(lines)),
            thousands(source.saturating_sub(md)),
            percent_change(source.saturating_sub(md), model.saturating_sub(lines)),
        );
    }
    out.push_str(&planner_targets(entries));
    let pairs: Vec<(&PlanEntry, usize, usize)> = entries
        .iter()
        .filter_map(|e| Some((e, at(e, "plan_toon")?, at(e, "plan_json_compact")?)))
        .collect();
    let over: Vec<&str> = pairs
        .iter()
        .filter(|(_, toon, json)| toon > json)
        .map(|(e, ..)| e.name.as_str())
        .collect();
    let is_cursor = |e: &PlanEntry| e.kind.starts_with("cursor ");
    let cursor_pairs = pairs.iter().filter(|(e, ..)| is_cursor(e)).count();
    let cursor_over = pairs
        .iter()
        .filter(|(e, toon, json)| is_cursor(e) && toon > json)
        .count();
    let _ = writeln!(
        out,
        "- Plan model TOON ≤ plan model compact JSON, on every Cursor plan: {} of {} — {}; \
         on every plan: {} of {}{}.",
        cursor_pairs - cursor_over,
        cursor_pairs,
        verdict(cursor_over == 0),
        pairs.len() - over.len(),
        pairs.len(),
        if over.is_empty() {
            String::new()
        } else {
            format!(" (over: {})", over.join(", "))
        }
    );
    let seeds: Vec<(&PlanEntry, usize, usize)> = entries
        .iter()
        .filter(|e| e.name.starts_with("seed "))
        .filter_map(|e| Some((e, at(e, "toon")?, at(e, "json_compact")?)))
        .collect();
    if !seeds.is_empty() {
        let within = seeds.iter().filter(|(_, toon, json)| toon <= json).count();
        let toon: usize = seeds.iter().map(|s| s.1).sum();
        let json: usize = seeds.iter().map(|s| s.2).sum();
        let _ = writeln!(
            out,
            "- Every seed example, dialect TOON ≤ the dialect's compact JSON: {within} of {} \
             ({} against {} tokens in total) — {}. The dialect's JSON is fixed by the \
             dialect and its TOON must decode to exactly that JSON, so only the encoding \
             can differ: nested, non-uniform objects (PlanDAG steps with `depends_on` \
             lists and `params` objects) cost a newline and an indentation token per \
             field in TOON, where compact JSON's `\",\"` and `\":\"` are single tokens.",
            seeds.len(),
            thousands(toon),
            thousands(json),
            verdict(within == seeds.len())
        );
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Words;
    impl Tokenizer for Words {
        fn name(&self) -> &'static str {
            "words"
        }
        fn count(&self, text: &str) -> usize {
            text.split_whitespace().count()
        }
    }

    #[test]
    fn plan_blocks_keep_json_yaml_and_toon_blocks_only() {
        let md =
            "text\n\n```json\n{\"a\": 1}\n```\n\n```ts\nlet x = 1;\n```\n\n```yaml\na: 1\n```\n";
        let blocks = plan_blocks(md);
        assert_eq!(
            blocks,
            vec![
                (Format::Json, "{\"a\": 1}\n".to_owned()),
                (Format::Yaml, "a: 1\n".to_owned())
            ]
        );
    }

    #[test]
    fn measure_counts_each_form_and_skips_non_plans() -> Result<(), String> {
        let text = r#"{"dag": [{"id": "a", "tool": "t", "query": "q", "dependencies": []}]}"#;
        let entry = measure("x".into(), text, None, None, &Words)?.ok_or("not measured")?;
        assert_eq!(entry.kind, "tooldag json");
        assert_eq!(entry.tokens[0], Some(text.split_whitespace().count()));
        assert_eq!(entry.tokens[2], Some(1), "compact JSON is one word");
        // A tool DAG has no markdown body, so no lean form; every other form is there.
        assert!(entry.tokens[..7].iter().all(Option::is_some));
        assert_eq!(entry.tokens[7], None);
        assert!(entry.lossy.is_empty());
        assert!(measure("y".into(), "{\"a\": 1}", None, None, &Words)?.is_none());
        Ok(())
    }

    #[test]
    fn markdown_totals_the_columns() {
        let entries = vec![
            PlanEntry {
                name: "p1".into(),
                kind: "tooldag json".into(),
                tokens: vec![
                    Some(10),
                    Some(20),
                    Some(5),
                    Some(6),
                    Some(8),
                    Some(7),
                    Some(9),
                    None,
                ],
                lossy: vec![],
                body: None,
            },
            PlanEntry {
                name: "p2".into(),
                kind: "plan json".into(),
                tokens: vec![
                    Some(30),
                    Some(40),
                    Some(15),
                    Some(14),
                    None,
                    None,
                    Some(29),
                    None,
                ],
                lossy: vec!["toon"],
                body: None,
            },
        ];
        let md = markdown(&entries, "words");
        assert!(
            md.contains("| **Total** | | **40** | **60 (+50.0%)** |"),
            "{md}"
        );
        assert!(
            md.contains("on every Cursor plan: 0 of 0 — met; on every plan: 1 of 1."),
            "{md}"
        );
        assert!(
            !md.contains("Cursor plans"),
            "no Cursor plan, no Cursor target: {md}"
        );
        // A column only some plans have compares with those plans' sources (p1: 10).
        assert!(md.contains("**7 (-30.0%)**¹ |"), "{md}");
        assert!(
            md.contains("Forms that do not read back to the same plan: p2 (toon)."),
            "{md}"
        );
    }
}
