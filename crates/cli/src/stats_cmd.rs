//! `toon stats` and `toon --stats`: exact token counts (o200k_base).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use toon_tokens::{
    Bpe, Comparison, Format, Tokenizer, compare, percent_change, savings_percent, thousands, tokens,
};

use crate::output;

/// Arguments of `toon stats`.
#[derive(clap::Args, Debug)]
pub struct StatsArgs {
    /// A JSON or TOON file (`-` or absent for stdin).
    pub input: Option<PathBuf>,
    /// Print the figures as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `toon stats`, printing its own errors to stderr.
pub fn run(args: StatsArgs) -> ExitCode {
    let result = Bpe::o200k_base()
        .map_err(|e| format!("cannot count tokens: {e}"))
        .and_then(|bpe| stats(&args, &bpe));
    match result {
        Ok(out) => match crate::output::emit(None, format!("{out}\n").as_bytes()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                errln!(
                    "error: cannot write stdout: {}",
                    crate::output::describe_io(&e)
                );
                ExitCode::FAILURE
            }
        },
        Err(msg) => {
            errln!("error: {msg}");
            ExitCode::FAILURE
        }
    }
}

/// Prints the `--stats` summary of an encode to stderr: `json_text` is the input
/// JSON as given, `toon_text` the encoded output.
pub fn print_encode_stats(json_text: &str, toon_text: &str) {
    match Bpe::o200k_base() {
        Ok(bpe) => errout!("{}", encode_stats(json_text, toon_text, &bpe)),
        Err(e) => errln!("error: cannot count tokens: {e}"),
    }
}

/// The two `--stats` lines, shaped like the reference CLI's estimate lines but exact.
fn encode_stats(json_text: &str, toon_text: &str, tokenizer: &dyn Tokenizer) -> String {
    let json = tokenizer.count(json_text);
    let toon = tokenizer.count(toon_text);
    let percent = savings_percent(json, toon);
    let mut out = format!(
        "● Token counts ({}): {} (JSON) → {} (TOON)\n",
        tokenizer.name(),
        json,
        toon
    );
    if toon <= json {
        let _ = writeln!(out, "✔ Saved {} (-{percent:.1}%)", tokens(json - toon));
    } else {
        let _ = writeln!(
            out,
            "● TOON costs {} more (+{:.1}%)",
            tokens(toon - json),
            -percent
        );
    }
    out
}

/// How the input is to be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum InputKind {
    Json,
    Toon,
    /// No telling extension: JSON if it parses as JSON, else TOON.
    Sniff,
}

fn input_kind(path: Option<&Path>) -> InputKind {
    let ext = path
        .and_then(Path::extension)
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("json") => InputKind::Json,
        Some("toon") => InputKind::Toon,
        _ => InputKind::Sniff,
    }
}

/// Computes the figures for `args` and renders them as a table or JSON.
fn stats(args: &StatsArgs, tokenizer: &dyn Tokenizer) -> Result<String, String> {
    let name = output::input_name(args.input.as_deref());
    if output::named_file(args.input.as_deref()).is_none()
        && std::io::IsTerminal::is_terminal(&std::io::stdin())
    {
        return Err(
            "no input: give a JSON or TOON file, or pipe one in (`toon ./stats` converts a file named stats)"
                .to_owned(),
        );
    }
    let bytes = output::read_input(args.input.as_deref())?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|e| format!("{name}: not valid UTF-8 (byte {})", e.valid_up_to()))?;
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let value =
        parse(text, input_kind(args.input.as_deref())).map_err(|e| format!("{name}: {e}"))?;
    let sizes = compare(&value, tokenizer).map_err(|e| format!("{name}: {e}"))?;
    if args.json {
        serde_json::to_string_pretty(&sizes.to_json()).map_err(|e| e.to_string())
    } else {
        Ok(table(&name, &sizes))
    }
}

fn parse(text: &str, kind: InputKind) -> Result<toon::Value, String> {
    let json = |t: &str| toon::value::from_json_str(t, toon::DEFAULT_MAX_DEPTH);
    let toon = |t: &str| toon::decode_value(t);
    match kind {
        InputKind::Json => json(text).map_err(|e| e.to_string()),
        InputKind::Toon => toon(text).map_err(|e| format!("invalid TOON: {e}")),
        // TOON quotes keys and strings holding `{`, so text opening with one is JSON.
        InputKind::Sniff if text.trim_start().starts_with('{') => {
            json(text).map_err(|e| e.to_string())
        }
        InputKind::Sniff => match json(text) {
            Ok(v) => Ok(v),
            Err(json_err) => toon(text).map_err(|toon_err| {
                // Report the error of the format the text most looks like.
                if text.trim_start().starts_with(['[', '"']) {
                    json_err.to_string()
                } else {
                    format!("neither JSON nor TOON; as TOON: {toon_err}")
                }
            }),
        },
    }
}

/// The human-readable table of `toon stats`.
fn table(name: &str, sizes: &Comparison) -> String {
    let mut out = format!("{name} — exact {} token counts\n\n", sizes.tokenizer);
    let _ = writeln!(
        out,
        "{:<15} {:>12} {:>12} {:>16}",
        "format", "bytes", "tokens", "vs pretty JSON"
    );
    for format in Format::ALL {
        let row = match sizes.get(format) {
            None => format!(
                "{:<15} {:>12} {:>12} {:>16}",
                format.label(),
                "-",
                "-",
                "not flat"
            ),
            Some(size) => {
                let change = match format {
                    Format::JsonPretty => "baseline".to_owned(),
                    _ => percent_change(sizes.json_pretty.tokens, size.tokens),
                };
                format!(
                    "{:<15} {:>12} {:>12} {:>16}",
                    format.label(),
                    thousands(size.bytes),
                    thousands(size.tokens),
                    change
                )
            }
        };
        let _ = writeln!(out, "{}", row.trim_end());
    }
    let _ = write!(out, "\nadvice: {}", sizes.advice());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One token per whitespace-separated word: simple enough to check by hand.
    struct Words;

    impl Tokenizer for Words {
        fn name(&self) -> &'static str {
            "words"
        }
        fn count(&self, text: &str) -> usize {
            text.split_whitespace().count()
        }
    }

    fn args_for(file: &Path, json: bool) -> StatsArgs {
        StatsArgs {
            input: Some(file.to_path_buf()),
            json,
        }
    }

    fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> Result<PathBuf, String> {
        let path = dir.path().join(name);
        std::fs::write(&path, text).map_err(|e| e.to_string())?;
        Ok(path)
    }

    #[test]
    fn encode_stats_report_savings_and_costs() {
        assert_eq!(
            encode_stats("a b c d", "a b c", &Words),
            "● Token counts (words): 4 (JSON) → 3 (TOON)\n✔ Saved 1 token (-25.0%)\n"
        );
        assert_eq!(
            encode_stats("a b", "a b c", &Words),
            "● Token counts (words): 2 (JSON) → 3 (TOON)\n● TOON costs 1 token more (+50.0%)\n"
        );
    }

    #[test]
    fn input_kind_follows_the_extension() {
        assert_eq!(input_kind(Some(Path::new("a.JSON"))), InputKind::Json);
        assert_eq!(input_kind(Some(Path::new("a.toon"))), InputKind::Toon);
        assert_eq!(input_kind(Some(Path::new("a.txt"))), InputKind::Sniff);
        assert_eq!(input_kind(None), InputKind::Sniff);
    }

    #[test]
    fn sniffing_accepts_json_and_toon() -> Result<(), String> {
        let from_json = parse(r#"{"a": [1, 2]}"#, InputKind::Sniff)?;
        let from_toon = parse("a[2]: 1,2", InputKind::Sniff)?;
        assert_eq!(from_json, from_toon);
        Ok(())
    }

    #[test]
    fn errors_name_the_format() {
        let json_err = parse("{\"a\": }", InputKind::Sniff)
            .err()
            .unwrap_or_default();
        assert!(json_err.contains("Invalid JSON"), "{json_err}");
        let toon_err = parse("a[3]: 1,2", InputKind::Sniff)
            .err()
            .unwrap_or_default();
        assert!(toon_err.starts_with("neither JSON nor TOON"), "{toon_err}");
        let forced = parse("a: 1", InputKind::Json).err().unwrap_or_default();
        assert!(forced.contains("Invalid JSON"), "{forced}");
    }

    #[test]
    fn json_output_has_the_stable_keys() -> Result<(), String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let file = write(
            &dir,
            "rows.json",
            r#"[{"id": 1, "name": "Ada"}, {"id": 2, "name": "Bob"}]"#,
        )?;
        let out = stats(&args_for(&file, true), &Words)?;
        let v: serde_json::Value = serde_json::from_str(&out).map_err(|e| e.to_string())?;
        for key in [
            "json_pretty",
            "json_compact",
            "yaml",
            "toon",
            "toon_tab",
            "toon_pipe",
            "csv",
        ] {
            assert!(
                v[key]["bytes"].as_u64().is_some_and(|b| b > 0),
                "{key} in {out}"
            );
            assert!(v[key]["tokens"].is_u64(), "{key} in {out}");
        }
        assert_eq!(v["tokenizer"], "words");
        // Pretty JSON of two rows of two fields: `[ { "id": 1, "name": "Ada" }, { ... } ]`.
        assert_eq!(v["json_pretty"]["tokens"], 14);
        Ok(())
    }

    #[test]
    fn csv_is_null_for_nested_toon_input() -> Result<(), String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let file = write(
            &dir,
            "cfg.toon",
            "server:\n  host: example.org\n  ports[2]: 80,443",
        )?;
        let out = stats(&args_for(&file, true), &Words)?;
        let v: serde_json::Value = serde_json::from_str(&out).map_err(|e| e.to_string())?;
        assert!(v["csv"].is_null(), "{out}");
        Ok(())
    }

    #[test]
    fn table_lists_every_format_and_advice() -> Result<(), String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let file = write(&dir, "cfg.json", r#"{"server": {"host": "example.org"}}"#)?;
        let out = stats(&args_for(&file, false), &Words)?;
        for format in Format::ALL {
            assert!(
                out.lines().any(|l| l.starts_with(format.label())),
                "{format} in {out}"
            );
        }
        assert!(out.contains("baseline"), "{out}");
        assert!(
            out.lines()
                .any(|l| l.starts_with("CSV") && l.ends_with("not flat")),
            "{out}"
        );
        assert!(
            out.lines()
                .last()
                .is_some_and(|l| l.starts_with("advice: ")),
            "{out}"
        );
        Ok(())
    }

    #[test]
    fn bad_input_is_an_error_naming_the_file() -> Result<(), String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let file = write(&dir, "bad.json", "{\"a\": tru}")?;
        let err = stats(&args_for(&file, false), &Words)
            .err()
            .unwrap_or_default();
        assert!(
            err.contains("bad.json") && err.contains("Invalid JSON"),
            "{err}"
        );
        let missing = dir.path().join("missing.json");
        let err = stats(&args_for(&missing, false), &Words)
            .err()
            .unwrap_or_default();
        assert!(err.contains("missing.json"), "{err}");
        Ok(())
    }
}
