//! Renders a [`Report`] as `benches/results/throughput.md`.

use std::fmt::Write;

use crate::common::checks::{self, Expect};
use crate::results::{Imp, Report, Row, Timings};

/// The command that regenerates the report.
pub const COMMAND: &str = "benches/run-throughput.sh";

/// A target on a speed ratio: `ours` against `other`, at least `at_least` where it
/// applies, or at least `elsewhere` on the other rows (`None`: no target there).
struct Target {
    title: &'static str,
    ours: Imp,
    other: Imp,
    at_least: f64,
    applies: fn(&Row) -> bool,
    elsewhere: Option<f64>,
}

const ALWAYS: fn(&Row) -> bool = |_| true;

impl Target {
    /// A target on every dataset.
    const fn every(title: &'static str, ours: Imp, other: Imp, at_least: f64) -> Self {
        Target {
            title,
            ours,
            other,
            at_least,
            applies: ALWAYS,
            elsewhere: None,
        }
    }
}

/// The decode targets: `toon → Value` ≥ serde_json → Value on every dataset and ≥ 1.5× on
/// tabular ones, ≥ 5× toon-format; typed decode ≥ serde_json typed on tabular datasets and
/// ≥ 0.7× elsewhere; `from_str::<serde_json::Value>` ≥ serde_json's parse. The TS reference
/// ratio is shown without one.
const DECODE_TARGETS: [Target; 5] = [
    Target {
        title: "Value vs serde_json → Value (≥ 1×; tabular ≥ 1.5×)",
        ours: Imp::OursValue,
        other: Imp::SerdeValue,
        at_least: 1.5,
        applies: Row::is_tabular,
        elsewhere: Some(1.0),
    },
    Target::every(
        "Value vs toon-format (≥ 5×)",
        Imp::OursValue,
        Imp::Peer,
        5.0,
    ),
    Target {
        title: "structs vs serde_json → structs (tabular ≥ 1×; else ≥ 0.7×)",
        ours: Imp::OursTyped,
        other: Imp::SerdeTyped,
        at_least: 1.0,
        applies: Row::is_tabular,
        elsewhere: Some(0.7),
    },
    Target::every(
        "`from_str::<serde_json::Value>` vs serde_json → Value (≥ 1×)",
        Imp::OursSerdeValue,
        Imp::SerdeValue,
        1.0,
    ),
    Target {
        title: "Value vs TS reference",
        ours: Imp::OursValue,
        other: Imp::Ts,
        at_least: 0.0,
        applies: |_| false,
        elsewhere: None,
    },
];

/// The encode targets: `encode_value` ≥ serde_json compact on every dataset, `to_string` of
/// typed structs and of a `serde_json::Value` ≥ 0.8× serde_json's compact `to_string` of
/// the same, and (no regression) ≥ 10× toon-format.
const ENCODE_TARGETS: [Target; 4] = [
    Target::every(
        "Value vs serde_json compact (≥ 1×)",
        Imp::OursValue,
        Imp::SerdeValue,
        1.0,
    ),
    Target::every(
        "structs vs serde_json structs (≥ 0.8×)",
        Imp::OursTyped,
        Imp::SerdeTyped,
        0.8,
    ),
    Target::every(
        "`to_string(&serde_json::Value)` vs serde_json compact (≥ 0.8×)",
        Imp::OursSerdeValue,
        Imp::SerdeValue,
        0.8,
    ),
    Target::every(
        "Value vs toon-format (≥ 10×)",
        Imp::OursValue,
        Imp::Peer,
        10.0,
    ),
];

/// The whole markdown document.
pub fn render(r: &Report) -> String {
    let mut md = String::new();
    header(&mut md, r);
    datasets(&mut md, r);
    let _ = writeln!(md, "## Decode\n");
    let _ = writeln!(
        md,
        "MB/s of TOON text (medians). Every decoder reads our encoder's output; serde_json \
         parses the same data as compact JSON (its MB/s are still per byte of TOON text, so \
         ratios are ratios of time). `toon → serde_json::Value` is \
         `toon::from_str::<serde_json::Value>`.\n"
    );
    speed_table(
        &mut md,
        r,
        |row| &row.decode,
        [
            "toon → Value",
            "toon → structs",
            "toon-format 0.7",
            "TS reference",
            "serde_json → Value",
            "serde_json → structs",
            "toon → serde_json::Value",
        ],
    );
    let _ = writeln!(
        md,
        "\nTargets (how many times faster ours is; tabular datasets: employees, analytics):\n"
    );
    target_table(&mut md, r, |row| &row.decode, &DECODE_TARGETS);
    to_json(&mut md, r);
    let _ = writeln!(md, "\n## Encode\n");
    let _ = writeln!(
        md,
        "MB/s of TOON text produced (medians): `toon::encode_value` on a pre-built value, \
         `toon::to_string` on typed structs, toon-format's `encode_object` on its own \
         `JsonValue`, the reference's `encode` on `JSON.parse` output, serde_json's \
         compact `to_string` of the same data, and `toon::to_string` of a \
         `serde_json::Value`.\n"
    );
    speed_table(
        &mut md,
        r,
        |row| &row.encode,
        [
            "toon Value →",
            "toon structs →",
            "toon-format 0.7",
            "TS reference",
            "serde_json Value →",
            "serde_json structs →",
            "toon serde_json::Value →",
        ],
    );
    let _ = writeln!(md, "\nTargets (how many times faster the first is):\n");
    target_table(&mut md, r, |row| &row.encode, &ENCODE_TARGETS);
    memory(&mut md, r);
    decode_memory(&mut md, r);
    encode_memory(&mut md, r);
    checks(&mut md, r);
    times(&mut md, r);
    notes(&mut md, r);
    md
}

fn header(md: &mut String, r: &Report) {
    let m = &r.machine;
    let _ = writeln!(md, "# Throughput and memory\n");
    let _ = writeln!(md, "Generated by `{COMMAND}`; do not edit by hand.\n");
    let _ = writeln!(md, "- Date: {}", m.date);
    let _ = writeln!(md, "- Machine: {} logical CPUs, {}", m.cpus, m.cpu);
    let _ = writeln!(
        md,
        "- Load average (1, 5, 15 min) before: {}; after: {}",
        r.load.0, r.load.1
    );
    let _ = writeln!(
        md,
        "- `GLIBC_TUNABLES={}` for every timed process",
        m.tunables
    );
    let _ = writeln!(
        md,
        "- {}; toon-format 0.7.0 (default features off)",
        m.rustc
    );
    match &r.node {
        Ok((node, toon)) => {
            let _ = writeln!(md, "- Node.js {node}, @toon-format/toon {toon}");
        }
        Err(why) => {
            let _ = writeln!(md, "- TypeScript reference not measured: {why}");
        }
    }
    let _ = writeln!(
        md,
        "- Each dataset at about {} of pretty JSON; each figure is the median of at least {} \
         timed runs and {:.1} s after one warm-up run (the time to free a result is not \
         counted in Rust; Node runs a full GC before each run, outside the timing)\n",
        size(r.target_bytes as u64),
        r.min_runs,
        r.budget_s
    );
}

fn datasets(md: &mut String, r: &Report) {
    let _ = writeln!(md, "## Datasets\n");
    let _ = writeln!(md, "| dataset | units | JSON (compact) | TOON |");
    let _ = writeln!(md, "| --- | ---: | ---: | ---: |");
    for row in &r.rows {
        let _ = writeln!(
            md,
            "| {} ({}) | {} {} | {} | {} |",
            row.dataset.slug(),
            row.dataset.title(),
            row.count,
            row.dataset.unit(),
            size(row.json_bytes),
            size(row.toon_bytes)
        );
    }
    let _ = writeln!(md);
}

fn speed_table(md: &mut String, r: &Report, pick: fn(&Row) -> &Timings, titles: [&str; 7]) {
    let _ = writeln!(md, "| dataset | {} |", titles.join(" | "));
    let _ = writeln!(md, "| --- |{}", " ---: |".repeat(titles.len()));
    for row in &r.rows {
        let cells: Vec<String> = Imp::ALL
            .iter()
            .map(|&imp| {
                row.mb_per_s(pick(row), imp)
                    .map_or("—".to_owned(), |v| format!("{v:.1}"))
            })
            .collect();
        let _ = writeln!(md, "| {} | {} |", row.dataset.slug(), cells.join(" | "));
    }
}

fn target_table(md: &mut String, r: &Report, pick: fn(&Row) -> &Timings, targets: &[Target]) {
    let titles: Vec<&str> = targets.iter().map(|t| t.title).collect();
    let _ = writeln!(md, "| dataset | {} |", titles.join(" | "));
    let _ = writeln!(md, "| --- |{}", " ---: |".repeat(targets.len()));
    for row in &r.rows {
        let cells: Vec<String> = targets
            .iter()
            .map(|t| {
                let goal = if (t.applies)(row) {
                    Some(t.at_least)
                } else {
                    t.elsewhere
                };
                match (row.speedup(pick(row), t.ours, t.other), goal) {
                    (None, _) => "—".to_owned(),
                    (Some(x), None) => format!("{x:.2}×"),
                    (Some(x), Some(goal)) if x >= goal => format!("{x:.2}× met"),
                    (Some(x), Some(_)) => format!("{x:.2}× **missed**"),
                }
            })
            .collect();
        let _ = writeln!(md, "| {} | {} |", row.dataset.slug(), cells.join(" | "));
    }
}

fn memory(md: &mut String, r: &Report) {
    let _ = writeln!(md, "\n## Peak memory encoding the ~10 MB tabular file\n");
    match r.memory_file {
        Some((count, bytes)) => {
            let _ = writeln!(
                md,
                "`employees` with {count} records ({} of compact JSON). Each implementation \
                 runs in a fresh process that reads the file, builds its value (the JSON \
                 text then freed) and encodes it; resident memory from `/proc/self/status` \
                 (`VmHWM`, reset before encoding via `/proc/self/clear_refs`). The target \
                 is encoding peak ≤ 1.5 × (value + output), the value measured as the \
                 resident memory it holds.\n",
                size(bytes)
            );
        }
        None => {
            let _ = writeln!(md, "Not measured: the file could not be prepared.\n");
            return;
        }
    }
    let _ = writeln!(
        md,
        "| implementation | peak RSS (whole process) | RSS holding the value | peak while encoding | output | encoding peak / (value + output) |"
    );
    let _ = writeln!(md, "| --- | ---: | ---: | ---: | ---: | ---: |");
    for m in &r.memory {
        match &m.sample {
            Ok(s) => {
                let ratio = s.encode_ratio().map_or("—".to_owned(), |x| {
                    let verdict = if !m.name.starts_with("ours") {
                        ""
                    } else if x <= 1.5 {
                        " met"
                    } else {
                        " **missed**"
                    };
                    format!("{x:.2}{verdict}")
                });
                let _ = writeln!(
                    md,
                    "| {} | {} | {} | {} | {} | {} |",
                    m.description,
                    kb(s.peak_kb()),
                    kb(s.held_kb),
                    kb(s.encode_peak_kb),
                    size(s.output_bytes),
                    ratio
                );
            }
            Err(why) => {
                let _ = writeln!(
                    md,
                    "| {} | not measured: {} | | | | |",
                    m.description,
                    one_line(why)
                );
            }
        }
    }
    match &r.node_peak_kb {
        Ok(peak) => {
            let _ = writeln!(
                md,
                "| TS reference: `encode(JSON.parse(text))` in Node.js | {} | | | | |",
                kb(*peak)
            );
        }
        Err(why) => {
            let _ = writeln!(
                md,
                "| TS reference | not measured: {} | | | | |",
                one_line(why)
            );
        }
    }
}

fn to_json(md: &mut String, r: &Report) {
    let _ = writeln!(md, "\n## Decode to JSON text\n");
    let _ = writeln!(
        md,
        "MB/s of TOON text (medians), compact JSON written to `io::sink()` without building \
         a tree: `toon::decode::to_json_writer` on the whole text (lines borrowed from it), and \
         `toon::decode::reader_to_json_writer` reading the same bytes through `io::BufRead` \
         one line at a time (the streaming decoder `toon -d` uses, whose memory does not \
         grow with the input; see below). `toon → Value` repeated for scale.\n"
    );
    let _ = writeln!(
        md,
        "| dataset | toon → Value | whole text → JSON | stream → JSON | stream / whole text |"
    );
    let _ = writeln!(md, "| --- | ---: | ---: | ---: | ---: |");
    for row in &r.rows {
        let mb = |t: Option<crate::measure::Timing>| {
            t.map_or("—".to_owned(), |t| {
                format!("{:.1}", t.mb_per_s(row.toon_bytes))
            })
        };
        let ratio = match row.to_json {
            [Some(whole), Some(stream)] if stream.median.as_secs_f64() > 0.0 => format!(
                "{:.2}×",
                whole.median.as_secs_f64() / stream.median.as_secs_f64()
            ),
            _ => "—".to_owned(),
        };
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} |",
            row.dataset.slug(),
            row.mb_per_s(&row.decode, Imp::OursValue)
                .map_or("—".to_owned(), |v| format!("{v:.1}")),
            mb(row.to_json[0]),
            mb(row.to_json[1]),
            ratio
        );
    }
}

fn decode_memory(md: &mut String, r: &Report) {
    let _ = writeln!(
        md,
        "\n## Peak memory decoding a large TOON file to a JSON file\n"
    );
    let _ = writeln!(
        md,
        "Each way runs in a fresh process that decodes the file into a JSON file (through a \
         `BufWriter`); the figure is the peak resident memory (`VmHWM`) minus the resident \
         memory before opening the file. Ways: {}.\n",
        crate::decode_memory::WAYS
            .iter()
            .map(|(name, what)| format!("**{name}**: {what}"))
            .collect::<Vec<_>>()
            .join("; ")
    );
    let names: Vec<&str> = crate::decode_memory::WAYS.iter().map(|w| w.0).collect();
    let _ = writeln!(md, "| file | TOON | JSON | {} |", names.join(" | "));
    let _ = writeln!(md, "| --- | ---: | ---: |{}", " ---: |".repeat(names.len()));
    for row in &r.decode_memory {
        let cells: Vec<String> = row
            .samples
            .iter()
            .map(|s| match s {
                Ok(s) => kb(s.used_kb()),
                Err(why) => format!("not measured: {}", one_line(why)),
            })
            .collect();
        let json = row
            .samples
            .iter()
            .find_map(|s| s.as_ref().ok().map(|s| size(s.output_bytes)))
            .unwrap_or_else(|| "—".to_owned());
        let _ = writeln!(
            md,
            "| {} | {} | {json} | {} |",
            row.label,
            size(row.toon_bytes),
            cells.join(" | ")
        );
    }
    let _ = writeln!(
        md,
        "\nTarget: whole-text decode peak memory (**tree**) ≤ serde_json's for the same data:"
    );
    let way = |name: &str| crate::decode_memory::WAYS.iter().position(|w| w.0 == name);
    let (Some(tree), Some(serde)) = (way("tree"), way("serde_json")) else {
        return;
    };
    for row in &r.decode_memory {
        let verdict = match (&row.samples[tree], &row.samples[serde]) {
            (Ok(t), Ok(s)) => {
                let ratio = t.used_kb() as f64 / s.used_kb().max(1) as f64;
                let met = if t.used_kb() <= s.used_kb() {
                    "met"
                } else {
                    "**missed**"
                };
                format!("{ratio:.2}× serde_json's peak — {met}")
            }
            _ => "not measured".to_owned(),
        };
        let _ = writeln!(md, "- {}: {verdict}", row.label);
    }
}

/// Target: JSON → TOON peak memory at most this many times the JSON text.
const ENCODE_MEMORY_TARGET: f64 = 3.0;

fn encode_memory(md: &mut String, r: &Report) {
    let _ = writeln!(
        md,
        "\n## Peak memory encoding a large JSON file to a TOON file\n"
    );
    let _ = writeln!(
        md,
        "The same files, the other way: each way runs in a fresh process that reads the JSON \
         file whole and encodes it into a TOON file (through a `BufWriter`); the figure is the \
         peak resident memory minus the resident memory before opening the file. Ways: {}.\n",
        crate::decode_memory::ENCODE_WAYS
            .iter()
            .map(|(name, what)| format!("**{name}**: {what}"))
            .collect::<Vec<_>>()
            .join("; ")
    );
    let names: Vec<&str> = crate::decode_memory::ENCODE_WAYS
        .iter()
        .map(|w| w.0)
        .collect();
    let _ = writeln!(
        md,
        "| file | JSON | {} | {} |",
        names.join(" | "),
        names
            .iter()
            .map(|n| format!("{n} / JSON"))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    let _ = writeln!(md, "| --- | ---: |{}", " ---: |".repeat(2 * names.len()));
    for row in &r.decode_memory {
        let json = row.json_bytes.max(1) as f64;
        let cells: Vec<String> = row
            .encode_samples
            .iter()
            .map(|s| match s {
                Ok(s) => kb(s.used_kb()),
                Err(why) => format!("not measured: {}", one_line(why)),
            })
            .collect();
        let ratios: Vec<String> = row
            .encode_samples
            .iter()
            .map(|s| match s {
                Ok(s) => format!("{:.2}×", s.used_kb() as f64 * 1024.0 / json),
                Err(_) => "—".to_owned(),
            })
            .collect();
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} |",
            row.label,
            size(row.json_bytes),
            cells.join(" | "),
            ratios.join(" | ")
        );
    }
    let _ = writeln!(
        md,
        "\nTarget: JSON → TOON as the CLI does it (**json-tape**) at most \
         {ENCODE_MEMORY_TARGET}× the JSON text:"
    );
    let Some(tape) = crate::decode_memory::ENCODE_WAYS
        .iter()
        .position(|w| w.0 == "json-tape")
    else {
        return;
    };
    for row in &r.decode_memory {
        let verdict = match &row.encode_samples[tape] {
            Ok(s) => {
                let ratio = s.used_kb() as f64 * 1024.0 / row.json_bytes.max(1) as f64;
                let met = if ratio <= ENCODE_MEMORY_TARGET {
                    "met"
                } else {
                    "**missed**"
                };
                format!("{ratio:.2}× the JSON text — {met}")
            }
            Err(_) => "not measured".to_owned(),
        };
        let _ = writeln!(md, "- {}: {verdict}", row.label);
    }
}

fn checks(md: &mut String, r: &Report) {
    let _ = writeln!(md, "\n## Agreement checks\n");
    let total: usize = r
        .rows
        .iter()
        .map(|row| {
            row.checks
                .iter()
                .filter(|c| c.expect == Expect::Agree)
                .count()
                + row.node_checks.map_or(0, |_| 2)
        })
        .sum();
    let failures = r.failures();
    if failures == 0 {
        let _ = writeln!(
            md,
            "All {total} must-agree checks passed: on every dataset our decoder reads our TOON \
             back to the same value; `toon::from_str` gives the structs serde_json gives from \
             the JSON; `toon::to_string` of the structs equals `encode_value`; toon-format \
             decodes our TOON to the same JSON; and, where Node ran, the TS reference encodes \
             the JSON to our TOON byte for byte and decodes it to the same JSON.\n"
        );
    } else {
        let _ = writeln!(
            md,
            "**{failures} of {total} must-agree checks failed**; the figures above may not compare like with like.\n"
        );
    }
    for row in &r.rows {
        for check in &row.checks {
            if let Err(detail) = &check.outcome {
                let kind = if check.expect == Expect::Agree {
                    "**FAILED**"
                } else {
                    "differs (allowed)"
                };
                let _ = writeln!(
                    md,
                    "- {}: {} — {kind}: {}",
                    row.dataset.slug(),
                    check.name,
                    truncate(detail)
                );
            }
        }
        if let Some((encode, decode)) = row.node_checks {
            if !encode {
                let _ = writeln!(
                    md,
                    "- {}: TS reference encoding differs from our TOON — **FAILED**",
                    row.dataset.slug()
                );
            }
            if !decode {
                let _ = writeln!(
                    md,
                    "- {}: TS reference decoding differs from the JSON — **FAILED**",
                    row.dataset.slug()
                );
            }
        }
        for note in &row.notes {
            let _ = writeln!(md, "- {}: {}", row.dataset.slug(), one_line(note));
        }
    }
}

fn times(md: &mut String, r: &Report) {
    let _ = writeln!(md, "\n## Medians in milliseconds (timed runs)\n");
    let _ = writeln!(
        md,
        "| dataset | operation | {} |",
        Imp::ALL.map(Imp::label).join(" | ")
    );
    let _ = writeln!(md, "| --- | --- |{}", " ---: |".repeat(Imp::ALL.len()));
    for row in &r.rows {
        for (operation, timings) in [("decode", &row.decode), ("encode", &row.encode)] {
            let cells: Vec<String> = timings
                .iter()
                .map(|t| {
                    t.map_or("—".to_owned(), |t| {
                        format!("{:.2} ({})", t.median.as_secs_f64() * 1000.0, t.runs)
                    })
                })
                .collect();
            let _ = writeln!(
                md,
                "| {} | {operation} | {} |",
                row.dataset.slug(),
                cells.join(" | ")
            );
        }
    }
}

fn notes(md: &mut String, r: &Report) {
    let _ = writeln!(md, "\n## Notes\n");
    let identical = r
        .rows
        .iter()
        .filter(|row| {
            row.checks
                .iter()
                .any(|c| c.name == checks::PEER_IDENTICAL && c.outcome.is_ok())
        })
        .count();
    let _ = writeln!(
        md,
        "- toon-format 0.7 follows a later spec draft than the reference 4.4 (keyed tables, \
         nested field groups); on these datasets its TOON equals ours byte for byte on \
         {identical} of {}. Its encode MB/s are per byte of our TOON either way.",
        r.rows.len()
    );
    let _ = writeln!(
        md,
        "- serde_json is built with `float_roundtrip` here (the toon crate and toon-format \
         both enable it), which makes its float parsing exact but slower than its default.\n\
         - The machine may be shared with other work: when the load average above is not \
         near zero, the figures are noisy and the report should be regenerated on a quiet \
         machine.\n\
         - Where a target above is missed, the profiles say where the time goes, in \
         instructions counted by callgrind (`benches/callgrind-table.sh`, independent of the \
         machine's load): `encode-core-profile.md` for `to_string` of structs and of a \
         `serde_json::Value`, `decode-profile.md` for the decoders."
    );
}

/// `1.23 MB` / `456.7 KB` / `12 B` in powers of 1000.
fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1_000_000 => format!("{:.2} MB", b as f64 / 1e6),
        b if b >= 1_000 => format!("{:.1} KB", b as f64 / 1e3),
        b => format!("{b} B"),
    }
}

fn kb(kb: u64) -> String {
    format!("{:.1} MB", kb as f64 * 1024.0 / 1e6)
}

fn one_line(text: &str) -> String {
    text.replace(['\n', '|'], " ")
}

fn truncate(text: &str) -> String {
    let line = one_line(text);
    match line.char_indices().nth(300) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line,
    }
}
