//! Reading the markdown layout with pulldown-cmark events.

use std::ops::Range;

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use serde_json::{Map, Value};

use super::labels::{HEADING, STEP_LABELS, TASK_LABELS, key_for_label, label_safe};
use super::values::{ValueKind, parse_value};
use crate::dialects::workflow::tree::make_uniform;
use crate::problem::{Location, Problem};

/// A markdown plan read into the workflow tree, with where each part came from.
pub struct Markdown {
    /// The workflow tree.
    pub tree: Value,
    /// Warnings from reading (e.g. bullets outside any task).
    pub warnings: Vec<Problem>,
    /// `(path, line)` for every task, step and field read.
    lines: Vec<(String, usize)>,
}

impl Markdown {
    /// Turns a path-located problem into a line-located one.
    pub fn relocate(&self, mut p: Problem) -> Problem {
        if let Location::Path(path) = &p.location {
            let mut best: Option<(usize, usize)> = None;
            for (prefix, line) in &self.lines {
                let matches = path == prefix
                    || (path.starts_with(prefix.as_str())
                        && matches!(path.as_bytes().get(prefix.len()), Some(b'.' | b'[')));
                if matches && best.is_none_or(|(len, _)| prefix.len() > len) {
                    best = Some((prefix.len(), *line));
                }
            }
            p.location = match best {
                Some((_, line)) => Location::Line(line),
                None => Location::Line(1),
            };
        }
        p
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    None,
    Objective,
    Metadata,
    Tasks,
    Steps,
    Shared,
    Config,
    Extra,
    Unknown,
}

fn section_of(name: &str) -> Section {
    match name.trim().to_ascii_lowercase().as_str() {
        "objective" | "goal" => Section::Objective,
        "metadata" => Section::Metadata,
        "tasks" => Section::Tasks,
        "steps" => Section::Steps,
        "shared inputs" => Section::Shared,
        "workflow config" | "workflow configuration" => Section::Config,
        "extra fields" => Section::Extra,
        _ => Section::Unknown,
    }
}

/// How likely `text` is the workflow markdown layout (0 = not at all).
pub fn detect(text: &str) -> u8 {
    let t = text.trim_start_matches('\u{feff}');
    if t.starts_with("---") {
        return 0;
    }
    let mut in_tasks = false;
    let mut heading: Option<String> = None;
    let mut strong = false;
    let mut saw_tasks = false;
    for ev in Parser::new_ext(text, Options::empty()) {
        match ev {
            Event::Start(Tag::Heading { level, .. }) => {
                heading = Some(String::new());
                if level == HeadingLevel::H2 {
                    in_tasks = false;
                }
            }
            Event::End(TagEnd::Heading(level)) => {
                if let Some(h) = heading.take()
                    && level == HeadingLevel::H2
                    && h.trim().eq_ignore_ascii_case("tasks")
                {
                    in_tasks = true;
                    saw_tasks = true;
                }
            }
            Event::Text(t) if heading.is_some() => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t);
                }
            }
            Event::Start(Tag::Strong) => strong = true,
            Event::End(TagEnd::Strong) => strong = false,
            Event::Text(t) if strong && in_tasks && t.trim().trim_end_matches(':') == "ID" => {
                return 75;
            }
            _ => {}
        }
    }
    if saw_tasks { 30 } else { 0 }
}

/// Line numbers from byte offsets.
struct Lines(Vec<usize>);

impl Lines {
    fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines(starts)
    }

    fn line(&self, offset: usize) -> usize {
        match self.0.binary_search(&offset) {
            Ok(i) => i + 1,
            Err(i) => i,
        }
    }
}

/// One list item as read: its label, where the value starts, its whole range.
struct Item {
    label: Option<String>,
    value_start: Option<usize>,
    range: Range<usize>,
    strong_seen: bool,
    /// Text before the first `:` of an item without a bold label, and where the value
    /// after that colon starts.
    plain: String,
    plain_value: Option<usize>,
    any_text: bool,
}

struct Reader<'a> {
    text: &'a str,
    lines: Lines,
    out: Markdown,
    root: Map<String, Value>,
    meta: Map<String, Value>,
    tasks: Vec<Map<String, Value>>,
    steps: Vec<Map<String, Value>>,
    config: Map<String, Value>,
    notes: Vec<&'a str>,
}

/// Reads the markdown layout into a workflow tree.
pub fn from_markdown(text: &str) -> Markdown {
    let mut r = Reader {
        text,
        lines: Lines::new(text),
        out: Markdown {
            tree: Value::Null,
            warnings: Vec::new(),
            lines: Vec::new(),
        },
        root: Map::new(),
        meta: Map::new(),
        tasks: Vec::new(),
        steps: Vec::new(),
        config: Map::new(),
        notes: Vec::new(),
    };
    r.run();
    r.finish()
}

/// Heading text from its source: `## Name ##` → `Name`; setext: the first line.
fn heading_text(src: &str) -> String {
    let line = src.lines().next().unwrap_or("").trim();
    if line.starts_with('#') {
        let t = line.trim_start_matches('#');
        let t = t.strip_prefix(' ').unwrap_or(t);
        let t = t.trim_end();
        let stripped = t.trim_end_matches('#');
        if stripped.len() < t.len() && (stripped.is_empty() || stripped.ends_with(' ')) {
            return stripped.trim_end().to_owned();
        }
        return t.to_owned();
    }
    line.to_owned()
}

/// `Task 3: Name` → `Name` (also for `Step`).
fn strip_numbered(heading: &str, word: &str) -> String {
    let h = heading.trim();
    if let Some(rest) = h.strip_prefix(word) {
        let rest = rest.trim_start();
        let digits = rest.trim_start_matches(|c: char| c.is_ascii_digit());
        if digits.len() < rest.len() {
            if let Some(after) = digits.strip_prefix(':') {
                return after.strip_prefix(' ').unwrap_or(after).to_owned();
            }
            if digits.is_empty() {
                return String::new();
            }
        }
    }
    h.to_owned()
}

impl<'a> Reader<'a> {
    fn run(&mut self) {
        let text = self.text;
        let events: Vec<(Event<'a>, Range<usize>)> = Parser::new_ext(text, Options::empty())
            .into_offset_iter()
            .collect();
        // Headings first: they cut the document into sections.
        let headings: Vec<(HeadingLevel, Range<usize>)> = events
            .iter()
            .filter_map(|(e, r)| match e {
                Event::Start(Tag::Heading { level, .. }) => Some((*level, r.clone())),
                _ => None,
            })
            .collect();
        // The title is a first-level heading before any second-level one; text before
        // the first section (other than the title) is the preamble.
        let first_h2 = headings.iter().position(|(l, _)| *l == HeadingLevel::H2);
        let title_at = headings
            .iter()
            .position(|(l, _)| *l == HeadingLevel::H1)
            .filter(|&i| first_h2.is_none_or(|h| i < h));
        let sections_start = first_h2.map(|i| headings[i].1.start).unwrap_or(text.len());
        let mut preamble = String::new();
        match title_at.map(|i| headings[i].1.clone()) {
            Some(r) if r.end <= sections_start => {
                preamble.push_str(&text[..r.start]);
                preamble.push_str(&text[r.end..sections_start]);
            }
            _ => preamble.push_str(&text[..sections_start]),
        }
        let preamble = preamble.trim();
        if !preamble.is_empty() {
            self.root
                .insert("preamble".into(), Value::String(preamble.to_owned()));
        }
        let mut section = Section::None;
        let mut h_index = 0usize;
        let mut item_depth = 0usize;
        let mut item: Option<Item> = None;
        let mut code: Option<String> = None;
        let mut in_heading = false;
        for (ev, range) in events {
            match ev {
                Event::Start(Tag::Heading { level, .. }) => {
                    in_heading = true;
                    let name = heading_text(&text[range.clone()]);
                    let line = self.lines.line(range.start);
                    let this = h_index;
                    let next_heading_start = headings
                        .iter()
                        .skip(h_index + 1)
                        .find(|(l, _)| *l <= HeadingLevel::H2)
                        .map(|(_, r)| r.start)
                        .unwrap_or(text.len());
                    h_index += 1;
                    if Some(this) == title_at {
                        self.meta.insert("title".into(), Value::String(name));
                        self.out.lines.push(("metadata.title".into(), line));
                        continue;
                    }
                    if range.start < sections_start {
                        // Part of the preamble.
                        continue;
                    }
                    match level {
                        HeadingLevel::H1 | HeadingLevel::H2 => {
                            section = section_of(&name);
                            if section == Section::Unknown
                                || (section == Section::Objective
                                    && self.meta.contains_key("objective"))
                            {
                                section = Section::Unknown;
                                self.notes.push(&text[range.start..next_heading_start]);
                            }
                            if section == Section::Objective {
                                let body = text[range.end..next_heading_start].trim();
                                self.meta
                                    .insert("objective".into(), Value::String(body.to_owned()));
                                self.out.lines.push(("metadata.objective".into(), line));
                            }
                        }
                        _ => match section {
                            Section::Tasks => {
                                let mut m = Map::new();
                                m.insert(
                                    HEADING.into(),
                                    Value::String(strip_numbered(&name, "Task")),
                                );
                                self.out
                                    .lines
                                    .push((format!("tasks[{}]", self.tasks.len()), line));
                                self.tasks.push(m);
                            }
                            Section::Steps => {
                                let mut m = Map::new();
                                m.insert(
                                    HEADING.into(),
                                    Value::String(strip_numbered(&name, "Step")),
                                );
                                self.out
                                    .lines
                                    .push((format!("steps[{}]", self.steps.len()), line));
                                self.steps.push(m);
                            }
                            _ => {}
                        },
                    }
                }
                Event::End(TagEnd::Heading(_)) => in_heading = false,
                Event::Start(Tag::Item) => {
                    item_depth += 1;
                    if item_depth == 1 {
                        item = Some(Item {
                            label: None,
                            value_start: None,
                            range: range.clone(),
                            strong_seen: false,
                            plain: String::new(),
                            plain_value: None,
                            any_text: false,
                        });
                    }
                }
                Event::End(TagEnd::Item) => {
                    if item_depth == 1
                        && let Some(it) = item.take()
                    {
                        self.item(section, it);
                    }
                    item_depth = item_depth.saturating_sub(1);
                }
                Event::Start(Tag::Strong) if item_depth == 1 => {
                    if let Some(it) = item.as_mut()
                        && !it.strong_seen
                        && !it.any_text
                    {
                        it.strong_seen = true;
                        it.label = Some(String::new());
                    }
                }
                Event::End(TagEnd::Strong) if item_depth == 1 => {
                    if let Some(it) = item.as_mut()
                        && it.value_start.is_none()
                        && it.label.is_some()
                    {
                        it.value_start = Some(range.end);
                    }
                }
                Event::Text(t) | Event::Code(t) if item_depth == 1 => {
                    let is_text = !text[range.clone()].starts_with('`');
                    if let Some(it) = item.as_mut() {
                        if it.label.is_some() && it.value_start.is_none() {
                            if let Some(l) = it.label.as_mut() {
                                l.push_str(&t);
                            }
                        } else if it.label.is_none() && it.plain_value.is_none() {
                            it.any_text = true;
                            match t.find(':').filter(|_| is_text) {
                                Some(colon) => {
                                    it.plain.push_str(&t[..colon]);
                                    // Where the value starts in the source.
                                    let src = &text[range.clone()];
                                    let at =
                                        src.find(':').map_or(range.end, |c| range.start + c + 1);
                                    it.plain_value = Some(at);
                                }
                                None => it.plain.push_str(&t),
                            }
                        }
                    }
                }
                Event::Start(Tag::CodeBlock(_)) if item_depth == 0 && !in_heading => {
                    code = Some(String::new());
                }
                Event::Text(t) if code.is_some() => {
                    if let Some(c) = code.as_mut() {
                        c.push_str(&t);
                    }
                }
                Event::End(TagEnd::CodeBlock) => {
                    if let Some(c) = code.take()
                        && section == Section::Shared
                    {
                        let line = self.lines.line(range.start);
                        let v = serde_json::from_str::<Value>(&c)
                            .unwrap_or_else(|_| Value::String(c.trim_end().to_owned()));
                        self.root.insert("shared_inputs".into(), v);
                        self.out.lines.push(("shared_inputs".into(), line));
                    }
                }
                Event::Start(Tag::Paragraph) if item_depth == 0 && section == Section::Shared => {
                    let p = text[range.clone()].trim();
                    let line = self.lines.line(range.start);
                    if !(p.starts_with('(') && p.ends_with(')')) {
                        let v = serde_json::from_str::<Value>(p)
                            .unwrap_or_else(|_| Value::String(p.to_owned()));
                        self.root.insert("shared_inputs".into(), v);
                        self.out.lines.push(("shared_inputs".into(), line));
                    }
                }
                _ => {}
            }
        }
    }

    fn item(&mut self, section: Section, it: Item) {
        let text = self.text;
        let line = self.lines.line(it.range.start);
        // The value: exact source text after the label (and its colon).
        let (label, value) = match (&it.label, it.value_start) {
            (Some(label), Some(start)) => {
                let raw = &text[start.min(it.range.end)..it.range.end];
                let raw = raw.trim_start();
                let raw = raw.strip_prefix(':').unwrap_or(raw);
                (
                    label.trim().trim_end_matches(':').to_owned(),
                    raw.trim().to_owned(),
                )
            }
            _ => match it.plain_value {
                Some(start) => (
                    it.plain.trim().to_owned(),
                    text[start.min(it.range.end)..it.range.end]
                        .trim()
                        .to_owned(),
                ),
                None => (String::new(), String::new()),
            },
        };
        if label.is_empty() {
            if section != Section::Unknown {
                self.out.warnings.push(Problem::warning(
                    "layout",
                    Location::Line(line),
                    "list item without a `**Label**: value` form ignored",
                ));
            }
            return;
        }
        if !label_safe(&label) {
            // Markup in a label is lost in reading, so it could not be written back.
            if section != Section::Unknown {
                self.out.warnings.push(Problem::warning(
                    "layout",
                    Location::Line(line),
                    format!("list item label {label:?} is not plain text; item ignored"),
                ));
            }
            return;
        }
        match section {
            Section::Tasks | Section::Steps => {
                let tasks = section == Section::Tasks;
                let table = if tasks { &TASK_LABELS } else { &STEP_LABELS };
                let (key, kind) = key_for_label(&label, table);
                let list = if tasks {
                    &mut self.tasks
                } else {
                    &mut self.steps
                };
                if list.is_empty() {
                    list.push(Map::new());
                }
                let idx = list.len() - 1;
                let v = parse_value(&value, kind);
                if let Some(m) = list.last_mut() {
                    m.insert(key.clone(), v);
                }
                let base = if tasks { "tasks" } else { "steps" };
                self.out.lines.push((format!("{base}[{idx}].{key}"), line));
            }
            // `- key: value` bullets: the keys as written (they are data, not labels).
            Section::Shared => {
                let v = parse_value(&value, ValueKind::Any);
                let shared = self
                    .root
                    .entry("shared_inputs")
                    .or_insert_with(|| Value::Object(Map::new()));
                if let Value::Object(m) = shared {
                    m.insert(label.clone(), v);
                    self.out
                        .lines
                        .push((format!("shared_inputs.{label}"), line));
                }
            }
            Section::Config | Section::Metadata | Section::Extra => {
                let key = if label.contains(' ') {
                    label.to_ascii_lowercase().replace(' ', "_")
                } else {
                    label
                };
                let v = parse_value(&value, ValueKind::Any);
                let (map, base) = match section {
                    Section::Config => (&mut self.config, "workflow_config."),
                    Section::Metadata => (&mut self.meta, "metadata."),
                    _ => (&mut self.root, ""),
                };
                map.insert(key.clone(), v);
                self.out.lines.push((format!("{base}{key}"), line));
            }
            _ => {}
        }
    }

    fn finish(mut self) -> Markdown {
        let mut tree = Map::new();
        if !self.meta.is_empty() {
            tree.insert(
                "metadata".into(),
                Value::Object(std::mem::take(&mut self.meta)),
            );
        }
        // A `Name` bullet wins over the heading. A step heading equal to the action
        // or id (or empty) is the writer's default, not a name.
        let mut steps: Vec<Value> = self
            .steps
            .drain(..)
            .map(|mut s| {
                let heading = s.shift_remove(HEADING);
                if !s.contains_key("name")
                    && let Some(h) = heading
                    && h != ""
                    && Some(&h) != s.get("action")
                    && Some(&h) != s.get("id")
                {
                    s.insert("name".into(), h);
                }
                Value::Object(s)
            })
            .collect();
        let mut tasks: Vec<Value> = self
            .tasks
            .drain(..)
            .map(|mut t| {
                let heading = t.shift_remove(HEADING);
                if !t.contains_key("name")
                    && let Some(h) = heading
                {
                    t.insert("name".into(), h);
                }
                Value::Object(t)
            })
            .collect();
        // A bullet a task or step leaves out is a field it holds as `null`: the tree
        // has uniform arrays, as seed 002's Markdown → JSON step gives them.
        make_uniform(&mut tasks);
        make_uniform(&mut steps);
        tree.insert("tasks".into(), Value::Array(tasks));
        tree.insert("steps".into(), Value::Array(steps));
        if let Some(v) = self.root.shift_remove("shared_inputs") {
            tree.insert("shared_inputs".into(), v);
        }
        if !self.config.is_empty() {
            tree.insert(
                "workflow_config".into(),
                Value::Object(std::mem::take(&mut self.config)),
            );
        }
        for (k, v) in std::mem::take(&mut self.root) {
            tree.insert(k, v);
        }
        if !self.notes.is_empty() {
            let notes: String = self.notes.concat();
            tree.insert("notes".into(), Value::String(notes.trim_end().to_owned()));
        }
        self.out.tree = Value::Object(tree);
        self.out
    }
}
