//! A plan read while it is being written: TOON text fed in chunks (as a model streams
//! it) through the push decoder ([`toon::decode::PushDecoder`]), yielding each task as
//! soon as its item is complete and, for each task, the moment all its dependencies are
//! known tasks — so an executor can start the first wave while the model still writes
//! the rest.
//!
//! The task list is the dialect's own: the list its root table names
//! ([`Table::list_key`]), each item read through the item table as [`Dialect::read`](crate::Dialect::read)
//! reads it ([`slot::read_task`]). Dialects whose tasks do not sit in one list of the
//! root with a list of dependency ids in each task (staged stages, the plan model's
//! edge table, Spec Kit's order by position) cannot be streamed task by task.

use std::collections::{HashMap, HashSet, VecDeque};

use toon::decode::{Event, PushDecoder, ValueBuilder};
use toon::{DecodeOptions, Value};

use crate::dialects::DialectId;
use crate::model::Task;
use crate::problem::{ErrorKind, Location, PlanError};
use crate::table::{Kind, Table, TaskField, To, slot};

/// What a [`PlanStream`] yields.
#[derive(Clone, Debug, PartialEq)]
pub enum PlanEvent {
    /// A task whose item is complete.
    Task(Box<Task>),
    /// Every dependency of the task with this id is a task already yielded (right after
    /// its [`PlanEvent::Task`] when it has none, or when all of them are yielded): its
    /// place in the schedule is known.
    DependenciesKnown(String),
}

/// A plan of one dialect, written as TOON, read chunk by chunk.
///
/// ```
/// use toon_plan::DialectId;
/// use toon_plan::stream::{PlanEvent, PlanStream};
///
/// let mut s = PlanStream::new(DialectId::TOOLDAG)?;
/// let first = "dag[2]:\n  - id: a\n    tool: search\n    query: x\n    dependencies: []\n";
/// assert!(s.feed(first)?.is_empty(), "a's item may go on");
/// // `a` ends with the next item's line: yielded as soon as that line is complete.
/// let events = s.feed("  - id: b\n")?;
/// assert!(matches!(&events[0], PlanEvent::Task(t) if t.id == "a"));
/// assert_eq!(events[1], PlanEvent::DependenciesKnown("a".into()));
/// let rest = s.feed("    tool: calc\n    query: \"{{a.result}}\"\n    dependencies[1]: a\n")?;
/// assert!(rest.is_empty(), "b's item is complete only at its end");
/// let rest = s.close()?;
/// assert!(matches!(&rest[0], PlanEvent::Task(t) if t.id == "b"));
/// assert_eq!(rest[1], PlanEvent::DependenciesKnown("b".into()));
/// # Ok::<(), toon_plan::PlanError>(())
/// ```
pub struct PlanStream {
    decoder: PushDecoder,
    /// The key of the task list in the root object.
    list_key: &'static str,
    /// The table of a task item.
    item: &'static Table,
    /// Open containers (1: the root object, 2: the task list, 3: an item).
    depth: usize,
    /// The last key read in the root object.
    root_key: Option<String>,
    /// Whether the open array at depth 2 is the task list.
    in_list: bool,
    /// The item being read.
    building: Option<ValueBuilder>,
    /// Ids of the tasks yielded.
    seen: HashSet<String>,
    /// Tasks waiting for dependencies: id → ids not yet seen.
    waiting: HashMap<String, HashSet<String>>,
    out: VecDeque<PlanEvent>,
}

impl PlanStream {
    /// A stream of a plan in `dialect`, decoded leniently (non-strict TOON: declared
    /// lengths are advisory, as models miscount them).
    pub fn new(dialect: DialectId) -> Result<Self, PlanError> {
        let not_streamable = || {
            PlanError::new(
                ErrorKind::Unsupported,
                format!(
                    "the {dialect} dialect does not keep its tasks in one list with their \
                     dependencies: it cannot be read task by task"
                ),
            )
        };
        if dialect.dialect().orders_by_position() {
            return Err(not_streamable());
        }
        let root = dialect.dialect().table().ok_or_else(not_streamable)?;
        let list_key = root.list_key();
        let item = match root.field(list_key).map(|f| &f.kind) {
            Some(Kind::Items(item)) => item,
            _ => return Err(not_streamable()),
        };
        let deps = item.key_of(To::Task(TaskField::Dependencies));
        if !matches!(item.field(deps).map(|f| &f.kind), Some(Kind::Strings)) {
            return Err(not_streamable());
        }
        Ok(PlanStream {
            decoder: PushDecoder::new(&DecodeOptions::default().with_strict(false)),
            list_key,
            item,
            depth: 0,
            root_key: None,
            in_list: false,
            building: None,
            seen: HashSet::new(),
            waiting: HashMap::new(),
            out: VecDeque::new(),
        })
    }

    /// Feeds the next chunk of the text; returns what it completes.
    pub fn feed(&mut self, chunk: impl AsRef<[u8]>) -> Result<Vec<PlanEvent>, PlanError> {
        let events = self.decoder.feed(chunk).map_err(syntax)?;
        self.take(events)
    }

    /// Declares the end of the text; returns the last events, or the error of an
    /// incomplete document. Tasks still waiting for dependencies that never came are
    /// not an error here: validation reports unknown dependencies.
    pub fn close(&mut self) -> Result<Vec<PlanEvent>, PlanError> {
        let events = self.decoder.close().map_err(syntax)?;
        self.take(events)
    }

    /// Ids of yielded tasks whose dependencies are not all known yet.
    pub fn waiting(&self) -> impl Iterator<Item = &str> {
        self.waiting.keys().map(String::as_str)
    }

    fn take(&mut self, events: Vec<Event>) -> Result<Vec<PlanEvent>, PlanError> {
        for event in events {
            self.event(event)?;
        }
        Ok(self.out.drain(..).collect())
    }

    fn event(&mut self, event: Event) -> Result<(), PlanError> {
        if let Some(builder) = &mut self.building {
            let done = builder.push(event).map_err(syntax)?;
            if let Some(item) = done {
                self.building = None;
                self.depth -= 1;
                self.task(item);
            }
            return Ok(());
        }
        match event {
            Event::StartObject | Event::StartArray { .. } => {
                self.depth += 1;
                if self.depth == 2 {
                    self.in_list = matches!(event, Event::StartArray { .. })
                        && self.root_key.as_deref() == Some(self.list_key);
                }
                if self.depth == 3 && self.in_list {
                    let mut builder = ValueBuilder::new();
                    builder.push(event).map_err(syntax)?;
                    self.building = Some(builder);
                }
            }
            Event::EndObject | Event::EndArray => self.depth = self.depth.saturating_sub(1),
            Event::Key(k) if self.depth == 1 => self.root_key = Some(k),
            Event::Primitive(v) if self.depth == 2 && self.in_list => {
                self.task(v);
            }
            Event::Key(_) | Event::Primitive(_) => {}
        }
        Ok(())
    }

    /// A complete item of the task list.
    fn task(&mut self, item: Value) {
        let task = slot::read_task(self.item, &serde_json::Value::from(item));
        let id = task.id.clone();
        let missing: HashSet<String> = task
            .dependencies
            .iter()
            .flatten()
            .filter(|d| !self.seen.contains(*d))
            .cloned()
            .collect();
        self.out.push_back(PlanEvent::Task(Box::new(task)));
        self.seen.insert(id.clone());
        let mut known: Vec<String> = Vec::new();
        for (waiter, missing) in &mut self.waiting {
            if missing.remove(&id) && missing.is_empty() {
                known.push(waiter.clone());
            }
        }
        known.sort();
        if missing.is_empty() {
            self.out.push_back(PlanEvent::DependenciesKnown(id));
        } else {
            self.waiting.insert(id, missing);
        }
        for waiter in known {
            self.waiting.remove(&waiter);
            self.out.push_back(PlanEvent::DependenciesKnown(waiter));
        }
    }
}

/// A TOON syntax error as a plan error at its line and column.
fn syntax(e: toon::Error) -> PlanError {
    match e.line() {
        Some(line) => PlanError::new(ErrorKind::Syntax, e.message().to_owned())
            .at(Location::Line(line))
            .with_column(e.column()),
        None => PlanError::new(ErrorKind::Syntax, e.message().to_owned()),
    }
}
