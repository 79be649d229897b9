//! The peak-memory sections of the report.

use std::fmt::Write;

use super::{Report, kb, one_line, size};

pub(super) fn memory(md: &mut String, r: &Report) {
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

pub(super) fn decode_memory(md: &mut String, r: &Report) {
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

pub(super) fn encode_memory(md: &mut String, r: &Report) {
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
