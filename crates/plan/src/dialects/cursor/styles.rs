//! Scalar styles of a front matter head: which lines of the canonical head the original
//! writes in another YAML scalar style (plain where the canonical head quotes, double-
//! or single-quoted where it writes plain). Kept in the layout as line numbers per
//! style ([`HEAD_STYLES`]), so a restyled line costs its number, not its text again:
//! the text patch ([`super::HEAD_PATCH`]) then holds only what no style explains. A
//! list of plain scalars the original writes as one flow line (`audience: [agent,
//! human]`) where the canonical head writes a block list is the style `flow`, kept as
//! the number of the list's key line.

use serde_json::{Map, Value};

use crate::syntax::yaml::{self, ScalarStyle};

/// Layout key: canonical head lines written in another scalar style, as
/// `{"plain": [line, …], "double": […], "single": […], "flow": […]}` (1-based line
/// numbers of the canonical head; a `flow` line is the key line of a block list).
pub const HEAD_STYLES: &str = "cursor.head_styles";

/// The styles, by layout name.
const STYLES: [(&str, ScalarStyle); 3] = [
    ("plain", ScalarStyle::Plain),
    ("double", ScalarStyle::Double),
    ("single", ScalarStyle::Single),
];

/// The lines of `canonical` that `original` writes in another scalar style, found
/// where a run of changed lines has as many lines on both sides (the hunks of
/// [`crate::fidelity::text_patch::diff`]). Empty when no line is restyled.
pub fn find(canonical: &str, original: &str) -> Map<String, Value> {
    let lines: Vec<&str> = canonical.split_inclusive('\n').collect();
    let mut found: Vec<Vec<Value>> = vec![Vec::new(); STYLES.len()];
    let mut flows: Vec<Value> = Vec::new();
    let restyled = |number: usize, written: &str| {
        let line = lines.get(number.checked_sub(1)?)?;
        STYLES
            .iter()
            .position(|(_, style)| yaml::restyle_line(line, *style).as_deref() == Some(written))
    };
    for hunk in crate::fidelity::text_patch::diff(canonical, original) {
        let was: Vec<&str> = hunk.text.split_inclusive('\n').collect();
        if was.len() == hunk.cut {
            for (offset, written) in was.into_iter().enumerate() {
                let number = hunk.line + offset;
                if let Some(i) = restyled(number, written) {
                    found[i].push(Value::from(number));
                }
            }
            continue;
        }
        // Fewer lines written than canonical: block lists written as flow lines, the
        // other lines restyled one for one; kept only when that explains the whole hunk.
        let (mut i, mut j) = (0, 0);
        let mut here: Vec<(Option<usize>, usize)> = Vec::new();
        while i < hunk.cut && j < was.len() {
            let number = hunk.line + i;
            match flow_line(&lines, number - 1) {
                Some((flow, n)) if i + n <= hunk.cut && flow == was[j] => {
                    here.push((None, number));
                    i += n;
                }
                _ => match restyled(number, was[j]) {
                    Some(style) => {
                        here.push((Some(style), number));
                        i += 1;
                    }
                    None => break,
                },
            }
            j += 1;
        }
        if i == hunk.cut && j == was.len() {
            for (style, number) in here {
                match style {
                    Some(s) => found[s].push(Value::from(number)),
                    None => flows.push(Value::from(number)),
                }
            }
        }
    }
    let mut out: Map<String, Value> = STYLES
        .iter()
        .zip(found)
        .filter(|(_, numbers)| !numbers.is_empty())
        .map(|((name, _), numbers)| ((*name).to_owned(), Value::Array(numbers)))
        .collect();
    if !flows.is_empty() {
        out.insert(FLOW.to_owned(), Value::Array(flows));
    }
    out
}

/// The style name of a block list written as one flow line.
const FLOW: &str = "flow";

/// The block list whose key line is `lines[at]` (a top-level `key:` followed by
/// `  - item` lines of plain or quoted scalars) as one flow line, `key: [item, …]`,
/// and the number of lines it stands for; `None` for anything else.
fn flow_line(lines: &[&str], at: usize) -> Option<(String, usize)> {
    let key = lines.get(at)?.strip_suffix(":\n")?;
    if key.is_empty() || key.starts_with([' ', '-', '#']) {
        return None;
    }
    let mut items = Vec::new();
    for line in &lines[at + 1..] {
        let Some(item) = line.strip_prefix("  - ") else {
            break;
        };
        let item = item.strip_suffix('\n')?;
        let flow_safe = !item.is_empty()
            && !item.contains([',', '[', ']', '{', '}', '#'])
            && !item.contains(": ")
            && !item.ends_with(':');
        if !flow_safe {
            return None;
        }
        items.push(item);
    }
    let next = lines.get(at + 1 + items.len());
    if items.is_empty() || next.is_some_and(|l| l.starts_with(' ')) {
        return None;
    }
    Some((format!("{key}: [{}]\n", items.join(", ")), 1 + items.len()))
}

/// `canonical` with the lines `styles` names written in their style; `None` when the
/// value is not a styles map or names a line that has no scalar of that style.
pub fn apply(canonical: &str, styles: &Value) -> Option<String> {
    let styles = styles.as_object()?;
    let mut lines: Vec<String> = canonical.split_inclusive('\n').map(str::to_owned).collect();
    let mut flows: Vec<usize> = Vec::new();
    for (name, numbers) in styles {
        for number in numbers.as_array()? {
            let index = usize::try_from(number.as_u64()?).ok()?.checked_sub(1)?;
            if name == FLOW {
                flows.push(index);
                continue;
            }
            let (_, style) = STYLES.iter().find(|(n, _)| n == name)?;
            let line = lines.get_mut(index)?;
            *line = yaml::restyle_line(line, *style)?;
        }
    }
    // Last first, so the numbers of the lists above stay as they were.
    flows.sort_unstable();
    flows.dedup();
    for index in flows.into_iter().rev() {
        let view: Vec<&str> = lines.iter().map(String::as_str).collect();
        let (flow, n) = flow_line(&view, index)?;
        lines.splice(index..index + n, [flow]);
    }
    Some(lines.concat())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restyled_lines_are_kept_as_numbers_and_written_again() {
        let canonical =
            "---\nname: \"a: b\"\noverview: x\ntodos:\n  - id: t\n    content: Build it\n---\n";
        let original =
            "---\nname: a: b\noverview: 'x'\ntodos:\n  - id: t\n    content: \"Build it\"\n---\n";
        let styles = find(canonical, original);
        assert_eq!(
            Value::Object(styles.clone()),
            serde_json::json!({"plain": [2], "double": [6], "single": [3]})
        );
        assert_eq!(
            apply(canonical, &Value::Object(styles)).as_deref(),
            Some(original)
        );
    }

    #[test]
    fn lines_no_style_explains_are_left_to_the_patch() {
        let canonical = "---\nname: x\n---\n";
        assert!(find(canonical, "---\nname: y\n---\n").is_empty());
        assert!(find(canonical, "---\nname: x # note\n---\n").is_empty());
        // A styles map that names a line without a scalar, or another shape, is refused.
        assert_eq!(apply(canonical, &serde_json::json!({"plain": [1]})), None);
        assert_eq!(apply(canonical, &serde_json::json!({"bold": [2]})), None);
        assert_eq!(apply(canonical, &serde_json::json!([2])), None);
        assert_eq!(apply(canonical, &serde_json::json!({"plain": [9]})), None);
        assert_eq!(apply(canonical, &serde_json::json!({"flow": [2]})), None);
    }

    #[test]
    fn block_lists_written_as_flow_lines_are_kept_as_their_key_lines() {
        let canonical = "---\nstatus: backlog\naudience:\n  - agent\n  - human\n\
                         last_reviewed: \"2026-04-25T17:30:00Z\"\nrelated:\n  - a\n---\n";
        let original = "---\nstatus: backlog\naudience: [agent, human]\n\
                        last_reviewed: 2026-04-25T17:30:00Z\nrelated:\n  - a\n---\n";
        let styles = find(canonical, original);
        assert_eq!(
            Value::Object(styles.clone()),
            serde_json::json!({"plain": [6], "flow": [3]})
        );
        assert_eq!(
            apply(canonical, &Value::Object(styles)).as_deref(),
            Some(original)
        );
        // Lists of objects, or of items a flow line would read otherwise, are not.
        let objects = "---\ntodos:\n  - id: a\n---\n";
        assert!(find(objects, "---\ntodos: [id: a]\n---\n").is_empty());
        let commas = "---\nk:\n  - a, b\n---\n";
        assert!(find(commas, "---\nk: [a, b]\n---\n").is_empty());
    }
}
