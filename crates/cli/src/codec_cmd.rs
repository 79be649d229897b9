//! The default command: encode JSON to TOON or decode TOON to JSON.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{ArgAction, Args};
use toon::{DecodeOptions, Delimiter, EncodeOptions};

use crate::failure::Failure;
use crate::output;

/// Arguments of the encode/decode command: the reference CLI's flags, spelled as it
/// takes them. Every switch also takes a value after `=` (`--strict=false`; any value
/// but `false` means true) and a `--no-` form (`--no-strict`, rewritten to
/// `--strict=false` before parsing, see `crate::args`); `--delimiter=` and `--indent=`
/// with no value take the defaults.
#[derive(Args, Debug)]
pub struct CodecArgs {
    /// Input file; `-` or absent reads stdin. `.json` encodes, `.toon` decodes. A file
    /// named like a subcommand (`stats`, `plan`, `help`) is converted when it exists
    /// and nothing else follows; `./stats` always names the file.
    pub input: Option<PathBuf>,
    /// Output file, written as `> FILE` would once the whole conversion has succeeded
    /// (through links; owner, mode and hard links kept; an existing file survives any
    /// error); stdout if absent. On stdout, output up to 8 MiB is printed only if the
    /// whole conversion succeeds; larger decoded output streams as it is produced, so
    /// an error found later leaves it partial (the error goes to stderr, exit code 1).
    #[arg(short, long, value_name = "FILE", num_args = 0..=1)]
    pub output: Option<PathBuf>,
    /// Force encoding (JSON → TOON); wins over --decode.
    #[arg(short, long, value_name = "BOOL", num_args = 0..=1, require_equals = true,
          default_missing_value = "true", default_value = "false", value_parser = switch,
          action = ArgAction::Set, hide_default_value = true, hide_possible_values = true)]
    pub encode: bool,
    /// Force decoding (TOON → JSON).
    #[arg(short, long, value_name = "BOOL", num_args = 0..=1, require_equals = true,
          default_missing_value = "true", default_value = "false", value_parser = switch,
          action = ArgAction::Set, hide_default_value = true, hide_possible_values = true)]
    pub decode: bool,
    /// Delimiter for arrays and tables: `,` (default), a tab (or `tab`/`\t`), `|`.
    #[arg(long, value_name = "CHAR", default_value = ",", num_args = 0..=1,
          default_missing_value = ",", value_parser = parse_delimiter)]
    pub delimiter: Delimiter,
    /// Indentation: TOON indent size, and the JSON output indent when decoding (read
    /// as JavaScript's `parseInt` reads it: `4`, `2.5` is 2).
    #[arg(long, value_name = "N", default_value = "2", num_args = 0..=1,
          default_missing_value = "2", allow_negative_numbers = true, value_parser = parse_indent)]
    pub indent: usize,
    /// Strict decoding (the default); `--strict=false` or `--no-strict` is lenient:
    /// counts advisory, duplicate keys last-wins, loose indentation.
    #[arg(long, value_name = "BOOL", num_args = 0..=1, require_equals = true,
          default_missing_value = "true", default_value = "true", value_parser = switch,
          action = ArgAction::Set, hide_default_value = true, hide_possible_values = true)]
    pub strict: bool,
    /// Print exact token counts (o200k_base) of the JSON input and TOON output to stderr.
    #[arg(long, value_name = "BOOL", num_args = 0..=1, require_equals = true,
          default_missing_value = "true", default_value = "false", value_parser = switch,
          action = ArgAction::Set, hide_default_value = true, hide_possible_values = true)]
    pub stats: bool,
    /// Decode to JSON Lines: one compact JSON value per line, for each element of the
    /// root array, or of the array held by a root object's only key (`items[N]…:`).
    /// Decoding only.
    #[arg(long, value_name = "BOOL", num_args = 0..=1, require_equals = true,
          default_missing_value = "true", default_value = "false", value_parser = switch,
          action = ArgAction::Set, hide_default_value = true, hide_possible_values = true)]
    pub jsonl: bool,
    /// Deepest nesting accepted before an error.
    #[arg(long, value_name = "N", default_value_t = toon::DEFAULT_MAX_DEPTH)]
    pub max_depth: usize,
    /// On failure, also print the cause chain: the I/O error beneath, the decoder's
    /// error kind and position, the options in effect.
    #[arg(long, value_name = "BOOL", num_args = 0..=1, require_equals = true,
          default_missing_value = "true", default_value = "false", value_parser = switch,
          action = ArgAction::Set, hide_default_value = true, hide_possible_values = true)]
    pub verbose: bool,
}

/// A switch's value, as the reference CLI reads it: `false` is false, anything else true.
fn switch(s: &str) -> Result<bool, String> {
    Ok(s != "false")
}

/// `,`, `|`, a tab (`tab`, `\t`); empty is the default `,`.
fn parse_delimiter(s: &str) -> Result<Delimiter, String> {
    if s.is_empty() {
        return Ok(Delimiter::Comma);
    }
    s.parse()
}

/// An indent as the reference reads it (`Number.parseInt(value || "2", 10)`): leading
/// white space, an optional sign, then the leading digits; no digits or a negative
/// value is an error.
fn parse_indent(s: &str) -> Result<usize, String> {
    if s.is_empty() {
        return Ok(2);
    }
    let invalid = || format!("Invalid indent value: {s}");
    let t = s.trim_start();
    let (negative, t) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return Err(invalid());
    }
    let n: u128 = t[..digits].parse().unwrap_or(u128::MAX);
    if negative && n > 0 {
        return Err(invalid());
    }
    usize::try_from(n).map_err(|_| invalid())
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Encode,
    Decode,
}

fn mode(args: &CodecArgs) -> Mode {
    if args.encode {
        return Mode::Encode;
    }
    if args.decode {
        return Mode::Decode;
    }
    let ext = args
        .input
        .as_ref()
        .and_then(|p| p.extension())
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("toon") => Mode::Decode,
        _ => Mode::Encode,
    }
}

fn source_name(args: &CodecArgs) -> String {
    output::input_name(args.input.as_deref())
}

/// Runs the command; prints errors to stderr and returns exit code 1 on failure.
pub fn run(args: CodecArgs) -> ExitCode {
    match convert(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            errln!("{}", failure.report(args.verbose));
            ExitCode::FAILURE
        }
    }
}

/// A TOON or JSON error of input `name`, with the options in effect as context.
fn codec_failure(name: &str, e: &toon::Error, what: String) -> Failure {
    Failure::new(format!("{name}: {e}"))
        .caused_by(e)
        .context(what)
}

fn convert(args: &CodecArgs) -> Result<(), Failure> {
    let name = source_name(args);
    let out = args.output.as_deref();
    // `-o` naming the input (through any link) is refused before anything is read.
    let inputs: Vec<&std::path::Path> = output::named_file(args.input.as_deref())
        .into_iter()
        .collect();
    let sink = output::Sink::open(out, &inputs)?;
    match mode(args) {
        Mode::Encode => {
            if args.jsonl {
                return Err(Failure::new(
                    "--jsonl applies to decoding (TOON → JSON) only",
                ));
            }
            let input = output::read_input(args.input.as_deref())?;
            let text = std::str::from_utf8(&input).map_err(|e| {
                let (line, column) = line_and_column(&input, e.valid_up_to());
                Failure::new(format!(
                    "{name}: line {line}, column {column}: input is not valid UTF-8 (byte {})",
                    e.valid_up_to()
                ))
                .caused_by(&e)
            })?;
            let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
            // Blank input is no JSON value: say so rather than where parsing stopped.
            if text.trim().is_empty() {
                let what = output::input_kind(args.input.as_deref());
                return Err(Failure::new(format!(
                    "{name}: the {what} is empty: there is no JSON value to encode"
                )));
            }
            // A compact tape of the JSON (strings borrowed from `text`), encoded as the
            // value tree would be: memory about twice the input, not nine times.
            let tape = toon::value::JsonTape::parse(text, args.max_depth).map_err(|e| {
                let what = format!("reading JSON (max depth {})", args.max_depth);
                codec_failure(&name, &e, what)
            })?;
            let options = EncodeOptions::default()
                .with_indent_size(args.indent)
                .with_delimiter(args.delimiter)
                .with_max_depth(args.max_depth);
            let encoding =
                |e: toon::Error| codec_failure(&name, &e, format!("encoding with {options:?}"));
            if !args.stats {
                output::emit_streaming(sink, |w| {
                    toon::to_writer_with(&mut *w, &tape, &options).map_err(encoding)?;
                    w.write_all(b"\n")
                        .map_err(|e| output::io_failure("write", &e))
                })?;
                announce("Encoded", args);
                return Ok(());
            }
            let toon_text = toon::to_string_with(&tape, &options).map_err(encoding)?;
            drop(tape);
            output::emit_with(sink, |w| {
                w.write_all(toon_text.as_bytes())
                    .and_then(|()| w.write_all(b"\n"))
                    .map_err(|e| output::io_failure("write", &e))
            })?;
            announce("Encoded", args);
            // Like the reference: the output first, then the counts (on stderr).
            crate::stats_cmd::print_encode_stats(text, &toon_text);
            Ok(())
        }
        Mode::Decode => {
            decode(args, &name, sink)?;
            announce("Decoded", args);
            Ok(())
        }
    }
}

/// Decodes TOON to JSON (or JSON Lines).
fn decode(args: &CodecArgs, name: &str, sink: output::Sink) -> Result<(), Failure> {
    // Up to `whole_text_limit()` bytes of input, decoding reads the whole text and
    // runs the decoder over it (lines borrowed, not copied: the fastest path); a
    // larger input runs the same decoder over the reader, so memory stays bounded by that limit, the longest line and the
    // nesting depth (strict mode; in non-strict mode, where repeated keys resolve
    // last-write-wins, the decoded document — with --jsonl one record — is held
    // as a value). --jsonl always streams. `--stats` has no decode figures (as
    // in the reference CLI) and reads nothing more.
    let options = DecodeOptions::default()
        .with_indent_size(args.indent)
        .with_strict(args.strict)
        .with_max_depth(args.max_depth);
    let fail = |e: toon::Error, how: &str| {
        codec_failure(name, &e, format!("decoding {how} with {options:?}"))
    };
    let mut input = output::open_input(args.input.as_deref())?;
    if args.jsonl {
        return output::emit_streaming(sink, |w| {
            toon::decode::reader_to_json_lines(input, &options, &mut *w)
                .map(|_| ())
                .map_err(|e| fail(e, "to JSON Lines, streamed"))
        });
    }
    let limit = whole_text_limit();
    let mut head = Vec::new();
    io::Read::read_to_end(
        &mut io::Read::take(&mut input, limit.saturating_add(1)),
        &mut head,
    )
    .map_err(|e| output::io_failure(name, &e))?;
    if head.len() as u64 <= limit {
        let text = toon::decode::text_from_bytes(&head, options.strict)
            .map_err(|e| fail(e, "the whole text"))?;
        return output::emit_streaming(sink, |w| {
            toon::decode::to_json_writer(&text, &options, &mut *w, args.indent)
                .map_err(|e| fail(e, "the whole text"))?;
            w.write_all(b"\n")
                .map_err(|e| output::io_failure("write", &e))
        });
    }
    let reader = io::Read::chain(io::Cursor::new(head), input);
    output::emit_streaming(sink, |w| {
        toon::decode::reader_to_json_writer(reader, &options, &mut *w, args.indent)
            .map_err(|e| fail(e, "streamed"))?;
        w.write_all(b"\n")
            .map_err(|e| output::io_failure("write", &e))
    })
}

/// The reference CLI's line on stderr after writing a file: `✔ Encoded `a.json` → `a.toon``.
fn announce(done: &str, args: &CodecArgs) {
    if let Some(out) = output::named_file(args.output.as_deref()) {
        // As the reference names them: relative, without `./`.
        let input = match output::named_file(args.input.as_deref()) {
            Some(p) => p
                .components()
                .filter(|c| *c != std::path::Component::CurDir)
                .collect::<std::path::PathBuf>()
                .display()
                .to_string(),
            _ => "stdin".to_owned(),
        };
        errln!("✔ {done} `{input}` → `{}`", out.display());
    }
}

/// The 1-based line and column (in characters) of byte `offset` of `bytes`.
fn line_and_column(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset.min(bytes.len())];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let column = 1 + String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count();
    (line, column)
}

/// Inputs up to this many bytes are decoded as one text (faster); larger ones stream.
/// `TOON_WHOLE_TEXT_LIMIT` (bytes) overrides it; `0` streams every input.
const WHOLE_TEXT_LIMIT: u64 = 8 * 1024 * 1024;

fn whole_text_limit() -> u64 {
    std::env::var("TOON_WHOLE_TEXT_LIMIT")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(WHOLE_TEXT_LIMIT)
}
