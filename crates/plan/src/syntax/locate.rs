//! Where a path into a document's tree (`steps[3].depends_on[0]`, `["a b"].x`) is in
//! its source text: the line and column of the key that holds the value, or of the
//! value itself when an array holds it. Validation locates its problems by path; this
//! turns a path into the place an editor can jump to, for JSON, YAML and TOON alike.
//!
//! Each format's reader gives the document as a stream of structural events with
//! positions; one path tracker follows the stream and stops at the path.

use std::borrow::Cow;
use std::collections::HashMap;

use super::format::Format;
pub use crate::problem::Position;

/// One step of a path: an object key or an array index.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Step {
    Key(String),
    Index(usize),
}

/// A structural event of a document, with the position it starts at.
enum Mark<'a> {
    /// An object key.
    Key(Cow<'a, str>, Position),
    /// A value starts: a scalar, or a container that `Open` then describes.
    Value(Position),
    /// The value just started is an object (`true`) or an array.
    Open(bool),
    /// The innermost container ends.
    Close,
}

/// The position of `path` in `text`, written in `format`; `None` for markdown, for a
/// path the text does not hold, or for text that does not parse.
pub fn locate(text: &str, format: Format, path: &str) -> Option<Position> {
    locate_all(text, format, &[path])[0]
}

/// The positions of several paths, found in one reading of the text.
pub fn locate_all(text: &str, format: Format, paths: &[&str]) -> Vec<Option<Position>> {
    let steps: Vec<Option<Vec<Step>>> = paths.iter().map(|p| parse_path(p)).collect();
    let mut tracker = Tracker::new(steps.iter().flatten().cloned());
    if !tracker.targets.is_empty() {
        match format {
            Format::Json => json_marks(text, &mut |m| tracker.step(m)),
            Format::Yaml => yaml_marks(text, &mut |m| tracker.step(m)),
            Format::Toon => toon_marks(text, &mut |m| tracker.step(m)),
            // The front matter is TOON from line 2 on.
            Format::Prompt => {
                if let Ok((front, _)) = super::format::split_prompt(text) {
                    toon_marks(front, &mut |m| tracker.step(one_line_down(m)));
                }
            }
            Format::Md => {}
        }
    }
    steps
        .iter()
        .map(|s| tracker.targets.get(s.as_ref()?).copied().flatten())
        .collect()
}

/// A mark of text that starts one line further down.
fn one_line_down(mark: Mark<'_>) -> Mark<'_> {
    let down = |p: Position| Position {
        line: p.line + 1,
        ..p
    };
    match mark {
        Mark::Key(key, p) => Mark::Key(key, down(p)),
        Mark::Value(p) => Mark::Value(down(p)),
        other => other,
    }
}

/// `a.b[2]["c d"]` as steps; `None` for text that is not such a path.
fn parse_path(path: &str) -> Option<Vec<Step>> {
    let mut steps = Vec::new();
    let mut rest = path;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('[') {
            if after.starts_with('"') {
                // A quoted key: a JSON string, then `]`.
                let mut de = serde_json::Deserializer::from_str(after).into_iter::<String>();
                let key = de.next()?.ok()?;
                let used = de.byte_offset();
                rest = after[used..].strip_prefix(']')?;
                steps.push(Step::Key(key));
            } else {
                let end = after.find(']')?;
                steps.push(Step::Index(after[..end].parse().ok()?));
                rest = &after[end + 1..];
            }
        } else {
            let rest_key = rest.strip_prefix('.').unwrap_or(rest);
            let end = rest_key.find(['.', '[']).unwrap_or(rest_key.len());
            steps.push(Step::Key(rest_key[..end].to_owned()));
            rest = &rest_key[end..];
        }
    }
    Some(steps)
}

/// Follows the events of a document, knowing the path of each value as it starts.
struct Tracker {
    /// The paths looked for, with where each was found.
    targets: HashMap<Vec<Step>, Option<Position>>,
    /// How many of them are still to find.
    missing: usize,
    /// The open containers: for an object, the key of its current value; for an
    /// array, the index of its current element (`None` before the first).
    open: Vec<Open>,
    /// The path to the value about to start (the open containers' current steps).
    path: Vec<Step>,
    /// The position of the key just read, for the value that follows it.
    key_at: Option<Position>,
}

enum Open {
    Object,
    Array(Option<usize>),
}

impl Tracker {
    fn new(targets: impl Iterator<Item = Vec<Step>>) -> Self {
        let targets: HashMap<_, _> = targets.map(|t| (t, None)).collect();
        Tracker {
            missing: targets.len(),
            targets,
            open: Vec::new(),
            path: Vec::new(),
            key_at: None,
        }
    }

    /// Takes one event; false once every path is found (the reader may stop).
    fn step(&mut self, mark: Mark<'_>) -> bool {
        match mark {
            Mark::Key(key, at) => {
                self.path.truncate(self.open.len() - 1);
                self.path.push(Step::Key(key.into_owned()));
                self.key_at = Some(at);
            }
            Mark::Value(at) => {
                if let Some(Open::Array(i)) = self.open.last_mut() {
                    let next = i.map_or(0, |i| i + 1);
                    *i = Some(next);
                    self.path.truncate(self.open.len() - 1);
                    self.path.push(Step::Index(next));
                }
                let at = self.key_at.take().unwrap_or(at);
                if let Some(slot @ None) = self.targets.get_mut(&self.path) {
                    *slot = Some(at);
                    self.missing -= 1;
                    return self.missing > 0;
                }
            }
            Mark::Open(object) => self.open.push(if object {
                Open::Object
            } else {
                Open::Array(None)
            }),
            Mark::Close => {
                self.open.pop();
                self.path.truncate(self.open.len());
            }
        }
        true
    }
}

/// The JSON text's events. Stops early when `sink` says so, or at text that is not
/// JSON (the document was parsed before, so that is only a path not found).
fn json_marks(text: &str, sink: &mut dyn FnMut(Mark<'_>) -> bool) {
    let mut at = Cursor::new(text);
    let mut expect_key = Vec::new();
    while let Some(c) = at.skip_space() {
        let pos = at.position();
        let go = match c {
            '{' | '[' => {
                at.bump();
                expect_key.push(c == '{');
                let in_object = c == '{';
                sink(Mark::Value(pos)) && sink(Mark::Open(in_object))
            }
            '}' | ']' => {
                at.bump();
                expect_key.pop();
                sink(Mark::Close)
            }
            ',' | ':' => {
                at.bump();
                true
            }
            '"' => {
                let Some(s) = at.string() else { return };
                // A string right after `{` or `,` inside an object is a key.
                let is_key = expect_key.last() == Some(&true) && at.skip_space() == Some(':');
                if is_key {
                    sink(Mark::Key(Cow::Owned(s), pos))
                } else {
                    sink(Mark::Value(pos))
                }
            }
            _ => {
                at.scalar();
                sink(Mark::Value(pos))
            }
        };
        if !go {
            return;
        }
    }
}

/// A reading position in a text, counting lines and columns.
struct Cursor<'a> {
    rest: std::str::Chars<'a>,
    line: usize,
    column: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Self {
        Cursor {
            rest: text.strip_prefix('\u{feff}').unwrap_or(text).chars(),
            line: 1,
            column: 1,
        }
    }

    fn position(&self) -> Position {
        Position {
            line: self.line,
            column: self.column,
        }
    }

    fn peek(&self) -> Option<char> {
        self.rest.clone().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.rest.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    /// Skips white space; the next character.
    fn skip_space(&mut self) -> Option<char> {
        while let Some(c) = self.peek() {
            if !c.is_whitespace() {
                return Some(c);
            }
            self.bump();
        }
        None
    }

    /// Reads a JSON string (at its opening quote) and returns its value.
    fn string(&mut self) -> Option<String> {
        let start = self.rest.as_str();
        self.bump();
        let mut len = 1;
        loop {
            let c = self.bump()?;
            len += c.len_utf8();
            match c {
                '"' => break,
                '\\' => len += self.bump()?.len_utf8(),
                _ => {}
            }
        }
        serde_json::from_str(&start[..len]).ok()
    }

    /// Skips a number or literal.
    fn scalar(&mut self) {
        while let Some(c) = self.peek() {
            if c.is_whitespace() || matches!(c, ',' | '}' | ']' | ':') {
                break;
            }
            self.bump();
        }
    }
}

/// The YAML text's events, from the parser `serde-saphyr` reads with.
fn yaml_marks(text: &str, sink: &mut dyn FnMut(Mark<'_>) -> bool) {
    use granit_parser::{Event, Parser};
    // For each open container: an object, and whether its next scalar is a key.
    let mut open: Vec<(bool, bool)> = Vec::new();
    for item in Parser::new_from_str(text) {
        let Ok((event, span)) = item else { return };
        let pos = Position {
            line: span.start.line(),
            column: span.start.col() + 1,
        };
        let key_turn = matches!(open.last(), Some((true, true)));
        let is_scalar = matches!(event, Event::Scalar(..) | Event::Alias(..));
        let is_end = matches!(event, Event::MappingEnd | Event::SequenceEnd);
        let go = match event {
            Event::Scalar(value, ..) if key_turn => sink(Mark::Key(value, pos)),
            Event::Scalar(..) | Event::Alias(..) => sink(Mark::Value(pos)),
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                let object = matches!(event, Event::MappingStart(..));
                let go = sink(Mark::Value(pos)) && sink(Mark::Open(object));
                if let Some(top) = open.last_mut() {
                    top.1 = top.0;
                }
                open.push((object, object));
                if !go {
                    return;
                }
                continue;
            }
            Event::MappingEnd | Event::SequenceEnd => {
                open.pop();
                sink(Mark::Close)
            }
            _ => true,
        };
        if !go {
            return;
        }
        // After a key comes its value; after a value, the next key.
        if is_scalar
            && let Some(top) = open.last_mut()
            && top.0
        {
            top.1 = !key_turn;
        } else if is_end && let Some(top) = open.last_mut() {
            top.1 = top.0;
        }
    }
}

/// The TOON text's events, from the `toon` crate's streaming decoder: a key or value
/// is placed at the first character of the line it is read on (a field of a table row
/// at the row's start).
fn toon_marks(text: &str, sink: &mut dyn FnMut(Mark<'_>) -> bool) {
    use toon::decode::{Event, EventReader};
    let lines: Vec<&str> = text.lines().collect();
    // Not strict: a model's answer is read leniently, and the text parsed before.
    let options = toon::DecodeOptions::default().with_strict(false);
    let mut reader = EventReader::new(text.as_bytes(), &options);
    while let Some(Ok(event)) = reader.next() {
        let line = reader.line_number().max(1);
        let text_line = lines.get(line - 1).copied().unwrap_or("");
        let indent = text_line.chars().take_while(|c| *c == ' ').count();
        let pos = Position {
            line,
            column: indent + 1,
        };
        let go = match event {
            // The first field of a list item stands after the item's `- `.
            Event::Key(key) if text_line[indent..].starts_with("- ") => {
                let after_dash = Position {
                    column: pos.column + 2,
                    ..pos
                };
                sink(Mark::Key(Cow::Owned(key), after_dash))
            }
            Event::Key(key) => sink(Mark::Key(Cow::Owned(key), pos)),
            Event::Primitive(_) => sink(Mark::Value(pos)),
            Event::StartObject => sink(Mark::Value(pos)) && sink(Mark::Open(true)),
            Event::StartArray { .. } => sink(Mark::Value(pos)) && sink(Mark::Open(false)),
            Event::EndObject | Event::EndArray => sink(Mark::Close),
        };
        if !go {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, format: Format, path: &str) -> Option<(usize, usize)> {
        locate(text, format, path).map(|p| (p.line, p.column))
    }

    #[test]
    fn paths_parse_into_keys_and_indexes() {
        assert_eq!(
            parse_path(r#"steps[3]["a b"].x"#),
            Some(vec![
                Step::Key("steps".into()),
                Step::Index(3),
                Step::Key("a b".into()),
                Step::Key("x".into()),
            ])
        );
        assert_eq!(parse_path(""), Some(vec![]));
        assert_eq!(parse_path("a[x]"), None);
    }

    #[test]
    fn json_keys_and_elements() {
        let text = "{\n  \"steps\": [\n    {\"id\": \"a\"},\n    {\"id\": \"b\", \"deps\": [\"a\", \"z\"]}\n  ]\n}\n";
        assert_eq!(at(text, Format::Json, "steps"), Some((2, 3)));
        assert_eq!(at(text, Format::Json, "steps[0]"), Some((3, 5)));
        assert_eq!(at(text, Format::Json, "steps[1].id"), Some((4, 6)));
        assert_eq!(at(text, Format::Json, "steps[1].deps[1]"), Some((4, 31)));
        assert_eq!(at(text, Format::Json, "steps[2]"), None);
        assert_eq!(at(text, Format::Json, "nope"), None);
    }

    #[test]
    fn json_strings_with_escapes_and_colons_are_values() {
        let text = r#"{"a": "x\":y", "b": {"c": 1}}"#;
        assert_eq!(at(text, Format::Json, "b.c"), Some((1, 22)));
    }

    #[test]
    fn yaml_keys_and_elements() {
        let text = "name: P\nsteps:\n  - id: a\n  - id: b\n    deps: [a, z]\n";
        assert_eq!(at(text, Format::Yaml, "name"), Some((1, 1)));
        assert_eq!(at(text, Format::Yaml, "steps[1].id"), Some((4, 5)));
        assert_eq!(at(text, Format::Yaml, "steps[1].deps"), Some((5, 5)));
        assert_eq!(at(text, Format::Yaml, "steps[1].deps[1]"), Some((5, 15)));
        assert_eq!(at(text, Format::Yaml, "steps[1].name"), None);
    }

    #[test]
    fn yaml_nested_mappings_turn_back_to_keys() {
        let text = "a:\n  b: 1\nc: 2\n";
        assert_eq!(at(text, Format::Yaml, "c"), Some((3, 1)));
    }

    #[test]
    fn toon_keys_rows_and_fields() {
        let text = "name: P\nsteps[2]{id,tool}:\n  a,x\n  b,y\nmeta:\n  k: 1\n";
        assert_eq!(at(text, Format::Toon, "name"), Some((1, 1)));
        assert_eq!(at(text, Format::Toon, "steps[1]"), Some((4, 3)));
        assert_eq!(at(text, Format::Toon, "steps[1].tool"), Some((4, 3)));
        assert_eq!(at(text, Format::Toon, "meta.k"), Some((6, 3)));
        // The prompt form: the same TOON as front matter, one line down.
        let prompt = format!("---\n{text}\n---\n# Body\n");
        assert_eq!(at(&prompt, Format::Prompt, "name"), Some((2, 1)));
        assert_eq!(at(&prompt, Format::Prompt, "steps[1].tool"), Some((5, 3)));
        assert_eq!(at(&prompt, Format::Prompt, "body"), None);
    }

    #[test]
    fn several_paths_in_one_reading() {
        let text = "{\"a\": [1, 2], \"b\": {\"c\": 3}}";
        let found = locate_all(text, Format::Json, &["b.c", "x", "a[1]", "a[", "b.c"]);
        let cols: Vec<_> = found.iter().map(|p| p.map(|p| p.column)).collect();
        assert_eq!(cols, [Some(21), None, Some(11), None, Some(21)]);
    }

    #[test]
    fn markdown_has_no_paths() {
        assert_eq!(at("# x", Format::Md, "a"), None);
    }
}
