//! Writes `benches/results/token-efficiency.md`: exact token counts of every dataset in
//! every format.
//!
//! ```sh
//! cargo run --release -p toon-benches --bin token_report
//! cargo run --release -p toon-benches --bin token_report -- \
//!     --github-repos PATH --bytes 100000 --out FILE --dump-dir DIR --cursor-plans DIR \
//!     --planner-files DIR
//! ```
//!
//! `--dump-dir` also writes each generated dataset there as `<slug>.json`, to check the
//! figures with other tools. `--cursor-plans DIR` (or `$TOON_CURSOR_PLANS`) adds a
//! section on a folder of real Cursor plans: the prompt-form and plan-TOON targets.
//! `--planner-files DIR` (or `$TOON_PLANNER_FILES`) adds one on planners' own files
//! (`DIR/taskmaster/*.json`, `DIR/kiro/*.md`, `DIR/speckit/*.md`) and writes it to
//! `benches/results/planner-files.md` as well.
//!
//! `github-repos.json` is read from `--github-repos`, else `$TOON_GITHUB_REPOS`, else
//! `../shared/data/github-repos.json` beside the workspace; the run fails if it is
//! missing or if our figures differ from the official benchmark's.

use std::path::PathBuf;
use std::process::ExitCode;

use toon_benches::datasets::Dataset;
use toon_benches::plan_report;
use toon_benches::report::{self, Entry, GITHUB_REPOS_OFFICIAL};
use toon_tokens::{Bpe, Tokenizer, compare, thousands};

const COMMAND: &str = "cargo run --release -p toon-benches --bin token_report";
const USAGE: &str = "usage: token_report [--github-repos PATH] [--bytes N] [--out FILE] \
                     [--dump-dir DIR] [--cursor-plans DIR] [--planner-files DIR]";

struct Options {
    github_repos: PathBuf,
    target_bytes: usize,
    out: PathBuf,
    /// Where to also write each generated dataset as `<slug>.json` (pretty JSON), for
    /// checking the figures against other tools.
    dump_dir: Option<PathBuf>,
    /// A folder of real Cursor plans to measure the plan targets on (not committed).
    cursor_plans: Option<PathBuf>,
    /// A folder of planners' own files (`taskmaster/`, `kiro/`, `speckit/`), not committed.
    planner_files: Option<PathBuf>,
}

fn parse_args() -> Result<Options, String> {
    let mut options = Options {
        github_repos: report::default_github_repos_path(),
        target_bytes: 100_000,
        out: report::workspace_root().join("benches/results/token-efficiency.md"),
        dump_dir: None,
        cursor_plans: std::env::var_os("TOON_CURSOR_PLANS").map(PathBuf::from),
        planner_files: std::env::var_os("TOON_PLANNER_FILES").map(PathBuf::from),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value\n{USAGE}"));
        match arg.as_str() {
            "--github-repos" => options.github_repos = value("--github-repos")?.into(),
            "--out" => options.out = value("--out")?.into(),
            "--dump-dir" => options.dump_dir = Some(value("--dump-dir")?.into()),
            "--cursor-plans" => options.cursor_plans = Some(value("--cursor-plans")?.into()),
            "--planner-files" => options.planner_files = Some(value("--planner-files")?.into()),
            "--bytes" => {
                options.target_bytes = value("--bytes")?
                    .parse()
                    .map_err(|e| format!("--bytes: {e}\n{USAGE}"))?;
            }
            "-h" | "--help" => return Err(USAGE.to_owned()),
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    Ok(options)
}

fn run() -> Result<PathBuf, String> {
    let options = parse_args()?;
    let bpe = Bpe::o200k_base().map_err(|e| e.to_string())?;
    let mut entries = Vec::new();

    let repos = report::load_github_repos(&options.github_repos)
        .map_err(|e| format!("{e}\n(pass --github-repos PATH or set TOON_GITHUB_REPOS)"))?;
    let sizes = compare(&repos, &bpe).map_err(|e| e.to_string())?;
    let ours = (
        sizes.json_pretty.tokens,
        sizes.json_compact.tokens,
        sizes.toon.tokens,
    );
    if ours != GITHUB_REPOS_OFFICIAL {
        return Err(format!(
            "github-repos figures differ from the official benchmark: ours {ours:?}, \
             official {GITHUB_REPOS_OFFICIAL:?} (pretty, compact, TOON)"
        ));
    }
    entries.push(Entry {
        title: "GitHub repositories (official benchmark data)".to_owned(),
        description: format!(
            "The 100 most-starred repositories from the official TOON benchmark \
             (`shared/data/github-repos.json`), wrapped as `{{\"repositories\": [...]}}`. \
             Our counts equal the official figures: {} tokens pretty JSON, {} compact, {} TOON.",
            thousands(GITHUB_REPOS_OFFICIAL.0),
            thousands(GITHUB_REPOS_OFFICIAL.1),
            thousands(GITHUB_REPOS_OFFICIAL.2)
        ),
        sizes,
    });

    for dataset in Dataset::ALL {
        let (count, value) = dataset.sized(options.target_bytes);
        let sizes = compare(&value, &bpe).map_err(|e| format!("{}: {e}", dataset.slug()))?;
        if let Some(dir) = &options.dump_dir {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            let path = dir.join(format!("{}.json", dataset.slug()));
            std::fs::write(&path, toon::value::to_json_string(&value, 2))
                .map_err(|e| format!("{}: {e}", path.display()))?;
        }
        entries.push(Entry {
            title: dataset.title().to_owned(),
            description: format!(
                "`datasets::{}({count})`: {} {}, {} bytes of pretty JSON.",
                dataset.slug(),
                thousands(count),
                dataset.unit(),
                thousands(sizes.json_pretty.bytes)
            ),
            sizes,
        });
    }

    let mut markdown = report::markdown(&entries, bpe.name(), COMMAND);
    let root = report::workspace_root();
    let mut plans = plan_report::testdata_plans(&root.join("testdata/plans"), &bpe)?;
    let seeds = root.join("../shared/seeds");
    if seeds.is_dir() {
        plans.extend(plan_report::seed_plans(&seeds, &bpe)?);
    } else {
        eprintln!(
            "token_report: no seed documents at {}; plan section without them",
            seeds.display()
        );
    }
    markdown.push('\n');
    markdown.push_str(&plan_report::markdown(&plans, bpe.name()));
    match &options.cursor_plans {
        Some(dir) => {
            markdown.push('\n');
            markdown.push_str(&plan_report::corpus_section(dir, &bpe)?);
        }
        None => eprintln!(
            "token_report: no --cursor-plans DIR (or $TOON_CURSOR_PLANS); no section on real \
             Cursor plans"
        ),
    }
    match &options.planner_files {
        Some(dir) => match toon_benches::planner_files::section(dir, &bpe)? {
            Some(section) => {
                markdown.push('\n');
                markdown.push_str(&section);
                let path = root.join("benches/results/planner-files.md");
                let page = format!(
                    "# Planners' own files: Task Master, Kiro and Spec Kit on real repositories\n\n\
                     Written by `{COMMAND} -- --planner-files DIR` (also a section of \
                     `token-efficiency.md`).\n\n{}",
                    section.trim_start_matches("## Real planner files\n\n")
                );
                std::fs::write(&path, page).map_err(|e| format!("{}: {e}", path.display()))?;
            }
            None => eprintln!(
                "token_report: no taskmaster/, kiro/ or speckit/ files in {}",
                dir.display()
            ),
        },
        None => eprintln!(
            "token_report: no --planner-files DIR (or $TOON_PLANNER_FILES); no section on real \
             planner files"
        ),
    }
    if let Some(dir) = options.out.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(&options.out, markdown)
        .map_err(|e| format!("{}: {e}", options.out.display()))?;
    Ok(options.out)
}

fn main() -> ExitCode {
    match run() {
        Ok(path) => {
            eprintln!("wrote {}", path.display());
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("token_report: {msg}");
            ExitCode::FAILURE
        }
    }
}
