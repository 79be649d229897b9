//! The section on where each missed target's time goes.

use std::fmt::Write;

use super::{Report, one_line, size};
use crate::profiles::Counted;

/// For each target missed: the ratio in time, the instruction counts of both sides and
/// ours' costliest functions.
pub(super) fn missed(md: &mut String, r: &Report) {
    let _ = writeln!(md, "\n## Where the missed targets' time goes\n");
    let profiles = match &r.profiles {
        Err(why) => {
            let _ = writeln!(md, "Profiles {why}.");
            return;
        }
        Ok(p) if p.is_empty() => {
            let _ = writeln!(md, "No target is missed.");
            return;
        }
        Ok(p) => p,
    };
    let _ = writeln!(
        md,
        "For each target missed above: the instructions of ours and of the implementation \
         it is compared with, counted by callgrind inside the same operation of \
         `profile_codec` on the same dataset at {} of pretty JSON (`benches/callgrind-where.sh \
         OPERATION DATASET`; independent of the machine's load), their ratio (the other's \
         count over ours, to set beside the ratio in time), and the functions where ours \
         spends the most (self cost; the copies of a generic function summed). What was \
         tried against them, and what is left, is in `decode-profile.md` and \
         `encode-core-profile.md`.",
        size(r.profile_bytes as u64)
    );
    for p in profiles {
        let m = &p.miss;
        let _ = writeln!(
            md,
            "\n### {} on {}: {} ({:.2}× in time, goal {}×)\n",
            m.direction.word(),
            m.dataset,
            m.target.title,
            m.ratio,
            m.goal
        );
        let line = |c: &Result<Counted, String>| match c {
            Ok(c) => format!("`{}` {:.2} M instructions", c.operation, c.millions),
            Err(why) => format!("not counted ({})", one_line(why)),
        };
        let _ = write!(
            md,
            "Ours: {}; {}: {}",
            line(&p.ours),
            m.target.other.label(),
            line(&p.other)
        );
        match (&p.ours, &p.other) {
            (Ok(o), Ok(t)) if o.millions > 0.0 => {
                let _ = writeln!(md, "; {:.2}× by instructions.", t.millions / o.millions);
            }
            _ => {
                let _ = writeln!(md, ".");
            }
        }
        if let Ok(o) = &p.ours
            && !o.top.is_empty()
        {
            let _ = writeln!(md, "\n| self (M) | share | function (ours) |");
            let _ = writeln!(md, "| ---: | ---: | --- |");
            for row in &o.top {
                let _ = writeln!(md, "{row}");
            }
        }
    }
}
