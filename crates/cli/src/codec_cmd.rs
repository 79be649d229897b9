//! The default command: encode JSON to TOON or decode TOON to JSON.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use toon::{DecodeOptions, Delimiter, EncodeOptions};

use crate::failure::Failure;
use crate::output;

/// Arguments of the encode/decode command (the reference CLI's flags).
#[derive(Args, Debug)]
pub struct CodecArgs {
    /// Input file; `-` or absent reads stdin. `.json` encodes, `.toon` decodes.
    pub input: Option<PathBuf>,
    /// Output file (written atomically: an existing file survives any error); stdout if
    /// absent. On stdout, output up to 8 MiB is printed only if the whole conversion
    /// succeeds; larger decoded output streams as it is produced, so an error found
    /// later leaves it partial (the error goes to stderr, exit code 1).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Force encoding (JSON → TOON); wins over --decode.
    #[arg(short, long)]
    pub encode: bool,
    /// Force decoding (TOON → JSON).
    #[arg(short, long)]
    pub decode: bool,
    /// Delimiter for arrays and tables: `,` (default), a tab (or `tab`/`\t`), `|`.
    #[arg(long, value_name = "CHAR", default_value = ",", value_parser = parse_delimiter)]
    pub delimiter: Delimiter,
    /// Indentation: TOON indent size, and the JSON output indent when decoding.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub indent: usize,
    /// Strict decoding (the default).
    #[arg(long, overrides_with = "no_strict")]
    pub strict: bool,
    /// Lenient decoding: counts advisory, duplicate keys last-wins, loose indentation.
    #[arg(long = "no-strict")]
    pub no_strict: bool,
    /// Print exact token counts (o200k_base) of the JSON input and TOON output to stderr.
    #[arg(long)]
    pub stats: bool,
    /// Decode to JSON Lines: one compact JSON value per line, for each element of the
    /// root array, or of the array held by a root object's only key (`items[N]…:`).
    /// Decoding only.
    #[arg(long)]
    pub jsonl: bool,
    /// Deepest nesting accepted before an error.
    #[arg(long, value_name = "N", default_value_t = toon::DEFAULT_MAX_DEPTH)]
    pub max_depth: usize,
    /// On failure, also print the cause chain: the I/O error beneath, the decoder's
    /// error kind and position, the options in effect.
    #[arg(long)]
    pub verbose: bool,
}

fn parse_delimiter(s: &str) -> Result<Delimiter, String> {
    s.parse()
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
    match mode(args) {
        Mode::Encode => {
            if args.jsonl {
                return Err(Failure::new(
                    "--jsonl applies to decoding (TOON → JSON) only",
                ));
            }
            let input = output::read_input(args.input.as_deref())?;
            let text = std::str::from_utf8(&input).map_err(|e| {
                Failure::new(format!(
                    "{name}: input is not valid UTF-8 (byte {})",
                    e.valid_up_to()
                ))
                .caused_by(&e)
            })?;
            let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
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
                return output::emit_streaming(out, |w| {
                    toon::to_writer_with(&mut *w, &tape, &options).map_err(encoding)?;
                    w.write_all(b"\n")
                        .map_err(|e| output::io_failure("write", &e))
                });
            }
            let toon_text = toon::to_string_with(&tape, &options).map_err(encoding)?;
            drop(tape);
            output::emit_with(out, |w| {
                w.write_all(toon_text.as_bytes())
                    .and_then(|()| w.write_all(b"\n"))
                    .map_err(|e| output::io_failure("write", &e))
            })?;
            // Like the reference: the output first, then the counts (on stderr).
            crate::stats_cmd::print_encode_stats(text, &toon_text);
            Ok(())
        }
        Mode::Decode => {
            // Up to `whole_text_limit()` bytes of input, decoding reads the whole text and
            // runs the decoder over it (lines borrowed, not copied: the fastest path); a
            // larger input runs the same decoder over the reader, so memory stays bounded by that limit, the longest line and the
            // nesting depth (strict mode; in non-strict mode, where repeated keys resolve
            // last-write-wins, the decoded document — with --jsonl one record — is held
            // as a value). --jsonl always streams. `--stats` has no decode figures (as
            // in the reference CLI) and reads nothing more.
            let options = DecodeOptions::default()
                .with_indent_size(args.indent)
                .with_strict(!args.no_strict)
                .with_max_depth(args.max_depth);
            let fail = |e: toon::Error, how: &str| {
                codec_failure(&name, &e, format!("decoding {how} with {options:?}"))
            };
            let mut input = output::open_input(args.input.as_deref())?;
            if args.jsonl {
                return output::emit_streaming(out, |w| {
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
            .map_err(|e| output::io_failure(&name, &e))?;
            if head.len() as u64 <= limit {
                let text = toon::decode::text_from_bytes(&head, options.strict)
                    .map_err(|e| fail(e, "the whole text"))?;
                return output::emit_streaming(out, |w| {
                    toon::decode::to_json_writer(&text, &options, &mut *w, args.indent)
                        .map_err(|e| fail(e, "the whole text"))?;
                    w.write_all(b"\n")
                        .map_err(|e| output::io_failure("write", &e))
                });
            }
            let reader = io::Read::chain(io::Cursor::new(head), input);
            output::emit_streaming(out, |w| {
                toon::decode::reader_to_json_writer(reader, &options, &mut *w, args.indent)
                    .map_err(|e| fail(e, "streamed"))?;
                w.write_all(b"\n")
                    .map_err(|e| output::io_failure("write", &e))
            })
        }
    }
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
