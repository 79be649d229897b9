//! One codec operation on one dataset, for instruction-level profiling with callgrind,
//! which counts instructions and so gives stable figures on a noisy machine:
//!
//! ```sh
//! cargo bench -p toon-benches --bench profile_codec --no-run
//! valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*profiled*' \
//!     target/release/deps/profile_codec-HASH decode employees 100000
//! callgrind_annotate --inclusive=yes callgrind.out.PID | head -60
//! ```
//!
//! Arguments: `encode | encode-typed | encode-typed-value | encode-serde-value | decode |
//! decode-typed | decode-typed-reader | decode-serde-value | decode-json | decode-stream |
//! decode-stream-value | json-decode | json-typed | json-encode | json-encode-typed |
//! toonformat-decode`, a dataset slug, and the
//! target size in bytes of pretty JSON (default 100000).
//! `json-decode`, `json-typed` and `json-encode` are serde_json on the same data as
//! compact JSON (to a `serde_json::Value`, to the typed structs, and `to_string` of a
//! `serde_json::Value`): the peer the decode and encode targets compare against;
//! `json-encode-typed` is serde_json's compact `to_string` of the typed structs.
//! `toonformat-decode` is the `toon-format` 0.7 crate's decode of the same TOON text
//! (its parser, to a `serde_json::Value`, as the throughput report times it): the peer
//! of `decode`'s ≥ 5× target.
//! `encode-serde-value` is `toon::to_string(&serde_json::Value)` and
//! `decode-serde-value` `toon::from_str::<serde_json::Value>`.
//! `encode-typed` is `toon::to_string` on the typed structs (written directly);
//! `encode-typed-value` is the older route through a whole `Value` (`to_value`, then
//! `encode_value`). `decode-json` is `toon::decode::to_json_writer` (whole text, no
//! tree) and `decode-stream` `toon::decode::reader_to_json_writer` (from a reader), both
//! into `io::sink()`; `decode-stream-value` is `toon::decode::reader_to_value` (from a
//! reader, to a `Value`). `decode-typed` is `toon::from_str::<T>` on the typed structs
//! (the serde deserializer over the text), `decode-typed-reader` `toon::from_reader::<T>`
//! (the same over a reader). Only the operation itself runs inside the `profiled`
//! function; preparing the data does not. Without arguments (as under a plain
//! `cargo bench`) it prints this usage and exits.

mod common;

use std::hint::black_box;
use std::process::ExitCode;

use common::prepared::Prepared;
use common::typed::{Typed, TypedFn, with_typed};
use toon_benches::datasets::Dataset;

const USAGE: &str = "usage: profile_codec \
(encode|encode-typed|encode-typed-value|encode-serde-value|decode|decode-typed|\
decode-typed-reader|decode-serde-value|decode-json|decode-stream|decode-stream-value|\
json-decode|json-typed|json-encode|json-encode-typed|toonformat-decode) DATASET [BYTES]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if args.is_empty() {
        eprintln!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let operation = args.first().ok_or("missing operation")?.as_str();
    let slug = args.get(1).ok_or("missing dataset")?;
    let dataset = Dataset::ALL
        .into_iter()
        .find(|d| d.slug() == slug)
        .ok_or_else(|| format!("unknown dataset {slug:?}"))?;
    let bytes = match args.get(2) {
        Some(text) => text.parse().map_err(|e| format!("bytes: {e}"))?,
        None => 100_000,
    };
    let p = Prepared::new(dataset, bytes)?;
    let produced = match operation {
        "encode" => profiled(|| toon::encode_value(&p.value)).len(),
        "decode" => profiled(|| toon::decode_value(&p.toon_text)).map_or(0, |_| 1),
        "decode-json" => profiled(|| {
            let options = toon::DecodeOptions::default();
            toon::decode::to_json_writer(&p.toon_text, &options, std::io::sink(), 0)
        })
        .map_or(0, |()| 1),
        "decode-stream" => profiled(|| {
            let options = toon::DecodeOptions::default();
            toon::decode::reader_to_json_writer(
                p.toon_text.as_bytes(),
                &options,
                std::io::sink(),
                0,
            )
        })
        .map_or(0, |()| 1),
        "decode-stream-value" => profiled(|| {
            let options = toon::DecodeOptions::default();
            toon::decode::reader_to_value(p.toon_text.as_bytes(), &options)
        })
        .map_or(0, |_| 1),
        "decode-serde-value" => {
            profiled(|| toon::from_str::<serde_json::Value>(&p.toon_text)).map_or(0, |_| 1)
        }
        "encode-serde-value" => profiled(|| toon::to_string(&p.json)).map_or(0, |s| s.len()),
        "json-decode" => {
            profiled(|| serde_json::from_str::<serde_json::Value>(&p.json_text)).map_or(0, |_| 1)
        }
        "json-encode" => profiled(|| serde_json::to_string(&p.json)).map_or(0, |s| s.len()),
        "toonformat-decode" => profiled(|| common::peer::decode(&p.toon_text)).map_or(0, |_| 1),
        "encode-typed"
        | "encode-typed-value"
        | "decode-typed"
        | "decode-typed-reader"
        | "json-typed"
        | "json-encode-typed" => with_typed(
            dataset,
            TypedOp {
                p: &p,
                decode: operation.starts_with("decode-typed"),
                reader: operation == "decode-typed-reader",
                via_value: operation == "encode-typed-value",
                json: operation == "json-typed",
                json_encode: operation == "json-encode-typed",
            },
        )?,
        other => return Err(format!("unknown operation {other:?}")),
    };
    eprintln!(
        "{operation} {slug}: {} bytes of TOON, result {produced}",
        p.toon_text.len()
    );
    Ok(())
}

/// The operation being profiled; callgrind collects only inside this function (so
/// freeing the result, done by the caller, is not counted).
#[inline(never)]
fn profiled<O>(work: impl FnOnce() -> O) -> O {
    black_box(work())
}

/// The typed operations, generic over the dataset's root type.
struct TypedOp<'a> {
    p: &'a Prepared,
    decode: bool,
    /// Decode from a reader (`from_reader`).
    reader: bool,
    /// Encode through a whole `Value` (the route before the direct serializer).
    via_value: bool,
    /// serde_json reading the same data as compact JSON into the typed structs.
    json: bool,
    /// serde_json writing the typed structs as compact JSON.
    json_encode: bool,
}

impl TypedFn for TypedOp<'_> {
    type Output = Result<usize, String>;

    fn call<T: Typed>(self) -> Self::Output {
        let p = self.p;
        if self.json {
            let read = || serde_json::from_str::<T>(&p.json_text);
            return Ok(profiled(read).map_or(0, |_| 1));
        }
        if self.reader {
            let read = || toon::from_reader::<_, T>(p.toon_text.as_bytes());
            return Ok(profiled(read).map_or(0, |_| 1));
        }
        if self.decode {
            Ok(profiled(|| toon::from_str::<T>(&p.toon_text)).map_or(0, |_| 1))
        } else {
            let typed: T = serde_json::from_str(&p.json_text).map_err(|e| e.to_string())?;
            if self.json_encode {
                return Ok(profiled(|| serde_json::to_string(&typed)).map_or(0, |s| s.len()));
            }
            if self.via_value {
                let encode = || toon::to_value(&typed).map(|v| toon::encode_value(&v));
                return Ok(profiled(encode).map_or(0, |s| s.len()));
            }
            Ok(profiled(|| toon::to_string(&typed)).map_or(0, |s| s.len()))
        }
    }
}
