//! `toon plan instructions` and `--model-output` of `toon plan validate|convert`: what
//! a planner that has a model write plans calls. Every call into `toon_plan` of these
//! commands is in the first block below (the adapter), so that the library's API can
//! change in one place.

use std::path::Path;
use std::process::ExitCode;

use toon_plan::{DialectId, Format, ModelAnswer, Setting};

use crate::output;

// --- The adapter: the library calls of these commands. ---

/// The prompt block of a dialect.
pub(crate) fn instructions_of(dialect: DialectId) -> Result<toon_plan::Instructions, String> {
    toon_plan::instructions(dialect).map_err(|e| e.to_string())
}

/// A model's answer read as `dialect`.
pub(crate) fn read_answer(text: &str, dialect: DialectId) -> ModelAnswer {
    toon_plan::read_model_output(text, dialect)
}

/// The plan of an answer converted to `to`: the text and its format, the count of what
/// the target could not hold, and the target's own problems, one line each.
pub(crate) fn convert_answer(
    answer: &ModelAnswer,
    to: DialectId,
    format: Option<Format>,
    sets: &[Setting],
) -> Result<(String, Format, usize, Vec<String>), String> {
    let plan = answer.plan.as_ref().ok_or("the answer holds no plan")?;
    let options = toon_plan::ConvertOptions {
        format,
        set: sets.to_vec(),
        ..Default::default()
    };
    let conv = toon_plan::convert(plan, to, &options).map_err(|e| e.to_string())?;
    let report = conv.report;
    let problems = report
        .target_problems
        .iter()
        .map(ToString::to_string)
        .collect();
    Ok((conv.text, report.format, report.losses.len(), problems))
}

/// Exact o200k_base tokens of a text (`None` when the tokenizer cannot be loaded).
pub(crate) fn tokens(text: &str) -> Option<usize> {
    use toon_tokens::Tokenizer as _;
    toon_tokens::Bpe::o200k_base().ok().map(|t| t.count(text))
}

// --- The commands. ---

/// The arguments of `toon plan instructions`.
#[derive(clap::Args, Debug)]
pub struct InstructionsArgs {
    /// The dialect the model is to write.
    #[arg(long, value_name = "DIALECT", value_parser = super::dialect_parser())]
    to: DialectId,
    /// Print a JSON object: dialect, text, example and tokens.
    #[arg(long)]
    json: bool,
}

/// `toon plan instructions --to DIALECT`: the block on stdout, its tokens on stderr.
pub fn instructions(args: &InstructionsArgs) -> ExitCode {
    let ins = match instructions_of(args.to) {
        Ok(i) => i,
        Err(e) => {
            errln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let tokens = tokens(&ins.text);
    let out = if args.json {
        let mut v = serde_json::to_value(&ins).unwrap_or_default();
        v["tokens"] = tokens.into();
        let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
        s.push('\n');
        s
    } else {
        if let Some(n) = tokens {
            errln!("{} dialect: {n} tokens (o200k_base)", args.to);
        }
        ins.text
    };
    match output::emit(None, out.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            errln!("cannot write stdout: {}", output::describe_io(&e));
            ExitCode::FAILURE
        }
    }
}

/// Reads an answer file (`-` for stdin) as `dialect`, printing each problem on stderr
/// as `FILE:LOCATION: …`.
fn read_file_answer(path: &Path, dialect: DialectId) -> Result<ModelAnswer, ExitCode> {
    let input = (path != Path::new("-")).then_some(path);
    let bytes = output::read_input(input).map_err(|e| {
        errln!("{e}");
        ExitCode::FAILURE
    })?;
    let text = String::from_utf8_lossy(&bytes);
    let answer = read_answer(&text, dialect);
    let name = output::input_name(input);
    for line in &answer.lines {
        errln!("{name}: {line}");
    }
    Ok(answer)
}

/// `toon plan validate --model-output`: each file read as an answer; exit 1 on any
/// error. `json`: one record per file (the answer as read).
pub fn validate(files: &[std::path::PathBuf], dialect: Option<DialectId>, json: bool) -> ExitCode {
    let Some(dialect) = dialect else {
        errln!("error: --model-output needs the dialect the model was asked for: --from DIALECT");
        return ExitCode::FAILURE;
    };
    let mut ok = true;
    let mut records = Vec::new();
    for file in files {
        let Ok(answer) = read_file_answer(file, dialect) else {
            ok = false;
            continue;
        };
        ok &= answer.valid;
        if json {
            let mut v = serde_json::to_value(&answer).unwrap_or_default();
            v["file"] = output::input_name(Some(file)).into();
            records.push(v);
        } else if answer.valid {
            let tasks = answer.plan.as_ref().map_or(0, |p| p.tasks.len());
            errln!(
                "{}: ok ({dialect}, {tasks} tasks, from line {})",
                output::input_name(Some(file)),
                answer.first_line
            );
        }
    }
    if json {
        let v = if records.len() == 1 {
            records.remove(0)
        } else {
            records.into()
        };
        if let Err(e) = super::json::print(&v) {
            errln!("cannot write stdout: {}", output::describe_io(&e));
            return ExitCode::FAILURE;
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// What `toon plan convert --model-output` needs.
pub struct ConvertAnswer<'a> {
    /// The answer file (`-`: stdin).
    pub input: &'a Path,
    /// The dialect the model was asked for.
    pub from: Option<DialectId>,
    /// The dialect to write.
    pub to: DialectId,
    /// The format to write.
    pub format: Option<Format>,
    /// The output file; stdout when absent.
    pub output: Option<&'a Path>,
    /// Convert an answer with errors too.
    pub force: bool,
    /// Values the target needs.
    pub sets: &'a [Setting],
}

/// `toon plan convert --model-output`: the answer's plan converted; exit 1 when the
/// answer or the conversion has errors (written anyway with `force`).
pub fn convert(args: &ConvertAnswer<'_>) -> ExitCode {
    let Some(from) = args.from else {
        errln!("error: --model-output needs the dialect the model was asked for: --from DIALECT");
        return ExitCode::FAILURE;
    };
    let Ok(answer) = read_file_answer(args.input, from) else {
        return ExitCode::FAILURE;
    };
    if !answer.valid && !args.force {
        errln!("error: the answer has errors: nothing written (--force writes it anyway)");
        return ExitCode::FAILURE;
    }
    let (text, _, losses, problems) = match convert_answer(&answer, args.to, args.format, args.sets)
    {
        Ok(c) => c,
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    errln!(
        "{from} → {}: {losses} field(s) not carried over or filled in",
        args.to
    );
    for p in &problems {
        errln!("{}: {p}", args.to);
    }
    if !problems.is_empty() && !args.force {
        errln!(
            "the converted plan fails the {} rules: nothing written",
            args.to
        );
        return ExitCode::FAILURE;
    }
    if let Some(o) = args.output
        && args.input != Path::new("-")
        && o.canonicalize().ok() == args.input.canonicalize().ok()
    {
        errln!("{}: is the input: refusing to write over it", o.display());
        return ExitCode::FAILURE;
    }
    if let Err(e) = output::emit(args.output, text.as_bytes()) {
        errln!("cannot write output: {}", output::describe_io(&e));
        return ExitCode::FAILURE;
    }
    if answer.valid && problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
