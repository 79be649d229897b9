//! Scalar styles of a front matter head: which lines of the canonical head the original
//! writes in another YAML scalar style (plain where the canonical head quotes, double-
//! or single-quoted where it writes plain). Kept in the layout as line numbers per
//! style ([`HEAD_STYLES`]), so a restyled line costs its number, not its text again:
//! the text patch ([`super::HEAD_PATCH`]) then holds only what no style explains.

use serde_json::{Map, Value};

use crate::syntax::yaml::{self, ScalarStyle};

/// Layout key: canonical head lines written in another scalar style, as
/// `{"plain": [line, …], "double": […], "single": […]}` (1-based line numbers of the
/// canonical head).
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
    for hunk in crate::fidelity::text_patch::diff(canonical, original) {
        let was: Vec<&str> = hunk.text.split_inclusive('\n').collect();
        if was.len() != hunk.cut {
            continue;
        }
        for (offset, written) in was.into_iter().enumerate() {
            let number = hunk.line + offset;
            let Some(line) = lines.get(number - 1) else {
                continue;
            };
            if let Some(i) = STYLES
                .iter()
                .position(|(_, style)| yaml::restyle_line(line, *style).as_deref() == Some(written))
            {
                found[i].push(Value::from(number));
            }
        }
    }
    STYLES
        .iter()
        .zip(found)
        .filter(|(_, numbers)| !numbers.is_empty())
        .map(|((name, _), numbers)| ((*name).to_owned(), Value::Array(numbers)))
        .collect()
}

/// `canonical` with the lines `styles` names written in their style; `None` when the
/// value is not a styles map or names a line that has no scalar of that style.
pub fn apply(canonical: &str, styles: &Value) -> Option<String> {
    let styles = styles.as_object()?;
    let mut lines: Vec<String> = canonical.split_inclusive('\n').map(str::to_owned).collect();
    for (name, numbers) in styles {
        let (_, style) = STYLES.iter().find(|(n, _)| n == name)?;
        for number in numbers.as_array()? {
            let index = usize::try_from(number.as_u64()?).ok()?.checked_sub(1)?;
            let line = lines.get_mut(index)?;
            *line = yaml::restyle_line(line, *style)?;
        }
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
    }
}
