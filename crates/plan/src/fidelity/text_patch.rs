//! Text that a dialect's canonical rendering does not reproduce, kept as the few
//! lines where it differs: line hunks against the canonical text.
//!
//! A plan's facts are stored once, as structured fields. When the original text is
//! written in another style (other quoting, flow lists, comments, spacing, value
//! styles), a dialect keeps only the differing lines in the plan's `layout` and
//! applies them when it writes the same facts again — so files come back byte for
//! byte and nothing is stored twice (Cursor front matter, workflow markdown).
//!
//! A patch is an array of hunks `{line, cut, text}` (a table in TOON): starting at
//! `line` (1-based) of the canonical text, `cut` lines are replaced by `text`, the
//! original lines with their line breaks. Hunks are in order and do not overlap.

use serde_json::{Map, Value};
use std::time::{Duration, Instant};

use similar::{Algorithm, DiffOp, capture_diff_slices_deadline};

/// How long a diff may look for the fewest changed lines. Past it the diff is coarser
/// (larger hunks) but still exact, so a huge, thoroughly restyled text costs a bounded
/// time instead of the quadratic worst case.
const DIFF_TIME: Duration = Duration::from_millis(100);

/// One replaced run of lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hunk {
    /// The first canonical line replaced, 1-based (one past the last line to append).
    pub line: usize,
    /// How many canonical lines are replaced.
    pub cut: usize,
    /// The original text that takes their place (whole lines, line breaks included).
    pub text: String,
}

/// The hunks that turn `canonical` into `original`, line by line: the fewest changed
/// lines, or within a bounded time a close approximation (always exact when applied).
pub fn diff(canonical: &str, original: &str) -> Vec<Hunk> {
    let old_lines = lines(canonical);
    let new_lines = lines(original);
    let deadline = Instant::now() + DIFF_TIME;
    let ops =
        capture_diff_slices_deadline(Algorithm::Myers, &old_lines, &new_lines, Some(deadline));
    let mut hunks: Vec<Hunk> = Vec::new();
    // Positions come from walking the operations in order: an operation's own indices
    // are not always the ones its place in the script implies (an insert after an
    // equal run can carry the index from before it).
    let (mut old, mut new) = (0usize, 0usize);
    for op in ops {
        let (old_len, new_len) = match op {
            DiffOp::Equal { len, .. } => {
                old += len;
                new += len;
                continue;
            }
            DiffOp::Delete { old_len, .. } => (old_len, 0),
            DiffOp::Insert { new_len, .. } => (0, new_len),
            DiffOp::Replace {
                old_len, new_len, ..
            } => (old_len, new_len),
        };
        let text: String = new_lines[new..new + new_len].concat();
        match hunks.last_mut() {
            // Adjacent operations (a delete then an insert) make one hunk.
            Some(h) if h.line - 1 + h.cut == old => {
                h.cut += old_len;
                h.text.push_str(&text);
            }
            _ => hunks.push(Hunk {
                line: old + 1,
                cut: old_len,
                text,
            }),
        }
        old += old_len;
        new += new_len;
    }
    hunks
}

/// `canonical` with the hunks applied, or `None` when they do not fit it (out of
/// range, overlapping or out of order).
pub fn apply(canonical: &str, hunks: &[Hunk]) -> Option<String> {
    let lines = lines(canonical);
    let mut out = String::with_capacity(canonical.len());
    let mut next = 0;
    for h in hunks {
        let start = h.line.checked_sub(1)?;
        let end = start.checked_add(h.cut)?;
        if start < next || end > lines.len() {
            return None;
        }
        out.extend(lines[next..start].iter().copied());
        out.push_str(&h.text);
        next = end;
    }
    out.extend(lines[next..].iter().copied());
    Some(out)
}

/// The lines of a text, each with its `\n` (the last one may have none); a `\r`
/// stays inside its line, so CRLF and lone CR survive as text.
fn lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

/// The layout value of a patch: an array of `{line, cut, text}` objects.
pub fn to_value(hunks: &[Hunk]) -> Value {
    Value::Array(
        hunks
            .iter()
            .map(|h| {
                let mut m = Map::new();
                m.insert("line".into(), Value::from(h.line));
                m.insert("cut".into(), Value::from(h.cut));
                m.insert("text".into(), Value::String(h.text.clone()));
                Value::Object(m)
            })
            .collect(),
    )
}

/// The patch a layout value holds, or `None` when it is not one.
pub fn from_value(value: &Value) -> Option<Vec<Hunk>> {
    value
        .as_array()?
        .iter()
        .map(|h| {
            let o = h.as_object()?;
            if o.len() != 3 {
                return None;
            }
            let count = |k: &str| o.get(k)?.as_u64().and_then(|n| usize::try_from(n).ok());
            Some(Hunk {
                line: count("line")?,
                cut: count("cut")?,
                text: o.get("text")?.as_str()?.to_owned(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const CANONICAL: &str = "---\nname: x\ntodos: []\n---\n";

    #[test]
    fn a_dropped_line_is_one_hunk_with_no_text() {
        let original = "---\nname: x\n---\n";
        let hunks = diff(CANONICAL, original);
        assert_eq!(
            hunks,
            vec![Hunk {
                line: 3,
                cut: 1,
                text: String::new()
            }]
        );
        assert_eq!(apply(CANONICAL, &hunks).as_deref(), Some(original));
    }

    #[test]
    fn a_restyled_line_is_replaced_and_the_rest_kept() {
        let original = "---\nname: 'x'\ntodos: []\n---\n";
        let hunks = diff(CANONICAL, original);
        assert_eq!(hunks.len(), 1);
        assert_eq!((hunks[0].line, hunks[0].cut), (2, 1));
        assert_eq!(hunks[0].text, "name: 'x'\n");
    }

    #[test]
    fn hunks_that_do_not_fit_are_refused() {
        let far = Hunk {
            line: 9,
            cut: 1,
            text: String::new(),
        };
        assert_eq!(apply(CANONICAL, &[far]), None);
        let a = Hunk {
            line: 3,
            cut: 1,
            text: String::new(),
        };
        let b = Hunk {
            line: 2,
            cut: 1,
            text: String::new(),
        };
        assert_eq!(apply(CANONICAL, &[a, b]), None, "out of order");
        let zero = Hunk {
            line: 0,
            cut: 0,
            text: String::new(),
        };
        assert_eq!(apply(CANONICAL, &[zero]), None, "lines are 1-based");
    }

    #[test]
    fn the_layout_value_reads_back_and_rejects_other_shapes() {
        let hunks = diff(CANONICAL, "---\nname: y\nextra: 1\n---\n");
        assert_eq!(from_value(&to_value(&hunks)), Some(hunks));
        assert_eq!(from_value(&serde_json::json!("text")), None);
        assert_eq!(
            from_value(&serde_json::json!([{"line": 1, "cut": -1, "text": ""}])),
            None
        );
        assert_eq!(
            from_value(&serde_json::json!([{"line": 1, "cut": 0, "text": "", "x": 1}])),
            None
        );
    }

    #[test]
    fn an_insert_after_an_equal_run_lands_after_it() {
        // The diff library reports this insert with the index from before the equal
        // line; the hunk must still go after it.
        let hunks = diff("\r\n\n", "\na\n\n");
        assert_eq!(apply("\r\n\n", &hunks).as_deref(), Some("\na\n\n"));
    }

    proptest! {
        #[test]
        fn applying_the_diff_gives_the_original(
            canonical in "([a-c:' ]{0,4}(\n|\r\n|\r)?){0,8}",
            original in "([a-c:' ]{0,4}(\n|\r\n|\r)?){0,8}",
        ) {
            let hunks = diff(&canonical, &original);
            prop_assert_eq!(apply(&canonical, &hunks), Some(original.clone()));
            prop_assert_eq!(from_value(&to_value(&hunks)), Some(hunks));
        }
    }
}
