//! Cutting a Cursor plan file into its head (front matter with its fences) and body,
//! after taking note of a byte-order mark and CRLF line endings.

/// A Cursor file taken apart. `head + body` (with line endings and BOM put back) is
/// the original text.
#[derive(Debug, PartialEq, Eq)]
pub struct Split<'a> {
    /// The file started with a byte-order mark.
    pub bom: bool,
    /// Every line ended with CRLF, and the text below uses LF.
    pub crlf: bool,
    /// Everything before the body: `---\n…\n---\n`, an HTML comment holding the front
    /// matter, or empty.
    pub head: String,
    /// The YAML inside the head.
    pub front_matter: Option<String>,
    /// The line (1-based, in the file) where the front matter's YAML starts.
    pub front_matter_line: usize,
    /// The markdown body.
    pub body: std::borrow::Cow<'a, str>,
    /// The head is an HTML comment, not `---` fences.
    pub comment: bool,
    /// The file opens front matter with a `---` line that no later `---` (or `...`)
    /// line closes: nothing of it is read as front matter.
    pub unclosed: bool,
}

/// Normalises line endings when they are all CRLF; otherwise leaves the text alone.
pub fn normalise(text: &str) -> (bool, bool, std::borrow::Cow<'_, str>) {
    let (bom, text) = match text.strip_prefix('\u{feff}') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let lf = text.bytes().filter(|&b| b == b'\n').count();
    let crlf = text.matches("\r\n").count();
    if crlf > 0 && crlf == lf {
        (
            bom,
            true,
            std::borrow::Cow::Owned(text.replace("\r\n", "\n")),
        )
    } else {
        (bom, false, std::borrow::Cow::Borrowed(text))
    }
}

/// Finds the front matter of a (normalised) Cursor file.
pub fn split(text: &str) -> Split<'_> {
    let (bom, crlf, text) = normalise(text);
    let (head, fm, comment) = find_head(&text);
    let head_len = head.len();
    let unclosed = head_len == 0 && fence_line(&text).is_some();
    let head = head.to_owned();
    let front_matter = fm.map(str::to_owned);
    let body = match text {
        std::borrow::Cow::Borrowed(t) => std::borrow::Cow::Borrowed(&t[head_len..]),
        std::borrow::Cow::Owned(t) => std::borrow::Cow::Owned(t[head_len..].to_owned()),
    };
    Split {
        bom,
        crlf,
        head,
        front_matter,
        front_matter_line: if comment { 1 } else { 2 },
        unclosed,
        body,
        comment,
    }
}

/// `(head, yaml inside it, is comment)`.
fn find_head(text: &str) -> (&str, Option<&str>, bool) {
    if let Some(rest) = fence_line(text) {
        let start = text.len() - rest.len();
        let mut pos = start;
        for line in rest.split_inclusive('\n') {
            let bare = line
                .trim_end_matches('\n')
                .trim_end_matches('\r')
                .trim_end();
            if bare == "---" || bare == "..." {
                let end = pos + line.len();
                return (&text[..end], Some(&text[start..pos]), false);
            }
            pos += line.len();
        }
        return ("", None, false);
    }
    // The closing `-->` is searched after the opening `<!--` (in `<!-->` they overlap).
    if let Some(after) = text.strip_prefix("<!--")
        && let Some(close) = after.find("-->").map(|i| i + 4)
    {
        let inner = &text[4..close];
        let mut end = close + 3;
        if text[end..].starts_with('\n') {
            end += 1;
        }
        if looks_like_front_matter(inner) {
            return (&text[..end], Some(inner), true);
        }
    }
    ("", None, false)
}

/// After a first line that is exactly `---`, the rest of the text.
fn fence_line(text: &str) -> Option<&str> {
    let rest = text.strip_prefix("---")?;
    let rest = rest.trim_start_matches([' ', '\t']);
    rest.strip_prefix('\n')
        .or_else(|| rest.strip_prefix("\r\n"))
}

/// An HTML comment holds front matter when it has `name:`, `overview:` or `todos:`
/// keys at the start of a line.
fn looks_like_front_matter(inner: &str) -> bool {
    inner.lines().any(|l| {
        ["name:", "overview:", "todos:"]
            .iter()
            .any(|k| l.starts_with(k))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_fenced_front_matter() {
        let s = split("---\nname: x\n---\n# Body\n");
        assert_eq!(s.head, "---\nname: x\n---\n");
        assert_eq!(s.front_matter.as_deref(), Some("name: x\n"));
        assert_eq!(s.body, "# Body\n");
    }

    #[test]
    fn unclosed_fence_is_body() {
        let s = split("---\nname: x\n# Body");
        assert_eq!(s.head, "");
        assert_eq!(s.body, "---\nname: x\n# Body");
    }

    #[test]
    fn crlf_and_bom_are_noted() {
        let s = split("\u{feff}---\r\nname: x\r\n---\r\nb\r\n");
        assert!(s.bom && s.crlf);
        assert_eq!(s.body, "b\n");
        let mixed = split("a\r\nb\n");
        assert!(!mixed.crlf);
        assert_eq!(mixed.body, "a\r\nb\n");
    }

    #[test]
    fn comment_with_keys_is_front_matter() {
        let s = split("<!--\nname: x\ntodos: []\n-->\nbody");
        assert!(s.comment);
        assert_eq!(s.front_matter.as_deref(), Some("\nname: x\ntodos: []\n"));
        assert_eq!(s.body, "body");
        let plain = split("<!-- just a note -->\nbody");
        assert_eq!(plain.head, "");
    }
}
