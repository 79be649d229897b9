//! Collecting events into [`Value`]s.

use std::io::BufRead;

use super::grammar::header::Field;
use super::grammar::machine::Driver;
use super::grammar::scanner::Line;
use super::grammar::sink::{RowCache, Sink, Walk, row_events, walk};
use super::grammar::slot::primitive_inline;
use super::input::LineInput;
use super::{Event, EventReader};
use crate::value::Key;
use crate::{DecodeOptions, Error, ErrorKind, Map, Result, Value};

/// Builds [`Value`]s from [`Event`]s: feed it events with [`ValueBuilder::push`] and it
/// hands back each complete top-level value.
///
/// A repeated key (non-strict mode) keeps its first position and takes the last value,
/// as [`decode_value_with`](crate::decode_value_with) and the reference's
/// `buildValueFromEvents` do.
///
/// ```
/// use toon::decode::{Event, ValueBuilder};
/// let mut b = ValueBuilder::new();
/// assert_eq!(b.push(Event::StartArray { len: 1 })?, None);
/// assert_eq!(b.push(Event::Primitive(toon::Value::from(7)))?, None);
/// assert_eq!(b.push(Event::EndArray)?, Some(toon::toon!([7])));
/// # Ok::<(), toon::Error>(())
/// ```
#[derive(Default)]
pub struct ValueBuilder {
    stack: Vec<Partial>,
    /// The keys of each object are known to differ (the strict state machine rejected
    /// repeats): append without looking for the key first.
    unique_keys: bool,
}

/// An open container.
enum Partial {
    Array(Vec<Value>),
    Object(Map, Option<Key>),
}

fn misplaced(what: &str) -> Error {
    Error::new(
        ErrorKind::Data,
        format!("unexpected {what} in the event stream"),
    )
}

impl ValueBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        ValueBuilder::default()
    }

    /// True while a container is open.
    pub fn is_building(&self) -> bool {
        !self.stack.is_empty()
    }

    /// Takes one event; returns the value it completes at the top level, if any.
    /// Events out of order (an end without a start, a value in an object without a
    /// key) are a [`ErrorKind::Data`] error.
    pub fn push(&mut self, event: Event) -> Result<Option<Value>> {
        let done = match event {
            Event::StartObject => {
                self.stack.push(Partial::Object(Map::new(), None));
                return Ok(None);
            }
            Event::StartArray { len } => {
                self.stack
                    .push(Partial::Array(Vec::with_capacity(len.min(1024))));
                return Ok(None);
            }
            Event::Key(k) => match self.stack.last_mut() {
                Some(Partial::Object(_, pending @ None)) => {
                    *pending = Some(Key::from(k));
                    return Ok(None);
                }
                _ => return Err(misplaced("key")),
            },
            Event::EndObject => match self.stack.pop() {
                Some(Partial::Object(m, None)) => Value::Object(m),
                _ => return Err(misplaced("end of object")),
            },
            Event::EndArray => match self.stack.pop() {
                Some(Partial::Array(v)) => Value::Array(v),
                _ => return Err(misplaced("end of array")),
            },
            Event::Primitive(v) => v,
        };
        self.complete(done)
    }

    /// Puts a complete value into the open container (or hands it back at the top).
    #[inline]
    fn complete(&mut self, done: Value) -> Result<Option<Value>> {
        match self.stack.last_mut() {
            None => Ok(Some(done)),
            Some(Partial::Array(items)) => {
                items.push(done);
                Ok(None)
            }
            Some(Partial::Object(map, pending)) => match pending.take() {
                Some(k) if self.unique_keys => {
                    map.push_unique(k, done);
                    Ok(None)
                }
                Some(k) => {
                    map.insert(k, done);
                    Ok(None)
                }
                None => Err(misplaced("value without a key")),
            },
        }
    }
}

/// The state machine's sink building a [`Value`]: the open containers as a stack, each
/// value put straight into the innermost one (the machine's calls are well formed:
/// a key before each value in an object, every container closed once), the first
/// complete value kept.
#[derive(Default)]
pub(super) struct ValueSink {
    /// The open containers, innermost last.
    stack: Vec<Partial>,
    /// The keys of each object are known to differ (the strict state machine rejected
    /// repeats): append without looking for the key first.
    unique_keys: bool,
    result: Option<Value>,
    /// Per nesting level, the capacity for the next object opened there: the size of
    /// the last one closed there, or an eighth less than the hint before when that was
    /// more (objects in a list tend to have the same keys, some a few more: room for
    /// those saves growing the entries), at most [`SIZE_HINT_CAP`].
    sizes: Vec<usize>,
}

/// The largest capacity a previous object's size gives the next.
const SIZE_HINT_CAP: usize = 64;

impl ValueSink {
    /// A sink for the state machine under `options`: in strict mode it has rejected
    /// repeated keys, so objects are appended to without a search.
    fn new(options: &DecodeOptions) -> Self {
        ValueSink {
            unique_keys: options.strict,
            ..ValueSink::default()
        }
    }

    #[inline]
    fn pending_key(&mut self, key: Key) {
        if let Some(Partial::Object(_, pending)) = self.stack.last_mut() {
            *pending = Some(key);
        }
    }

    /// Puts `key: value` into the innermost open object.
    #[inline]
    fn put_entry(&mut self, key: Key, value: Value) {
        if let Some(Partial::Object(map, _)) = self.stack.last_mut() {
            if self.unique_keys {
                map.push_unique(key, value);
            } else {
                map.insert(key, value);
            }
        }
    }

    /// Puts a complete value into the innermost open container under its pending key,
    /// or keeps it as the result at the top level.
    #[inline]
    fn complete(&mut self, done: Value) {
        match self.stack.last_mut() {
            Some(Partial::Array(items)) => items.push(done),
            Some(Partial::Object(map, pending)) => {
                if let Some(key) = pending.take() {
                    if self.unique_keys {
                        map.push_unique(key, done);
                    } else {
                        map.insert(key, done);
                    }
                }
            }
            None => {
                if self.result.is_none() {
                    self.result = Some(done);
                }
            }
        }
    }
}

impl Sink for ValueSink {
    #[inline]
    fn start_object(&mut self) {
        let hint = self.sizes.get(self.stack.len()).copied().unwrap_or(0);
        self.stack
            .push(Partial::Object(Map::with_capacity(hint), None));
    }
    #[inline]
    fn start_object_sized(&mut self, fields: usize) {
        self.stack
            .push(Partial::Object(Map::with_capacity(fields), None));
    }
    #[inline]
    fn end_object(&mut self) {
        if let Some(Partial::Object(m, _)) = self.stack.pop() {
            let level = self.stack.len();
            if self.sizes.len() <= level {
                self.sizes.resize(level + 1, 0);
            }
            let hint = &mut self.sizes[level];
            *hint = m.len().max(*hint - *hint / 8).min(SIZE_HINT_CAP);
            self.complete(Value::Object(m));
        }
    }
    fn start_array(&mut self, len: usize) {
        self.stack
            .push(Partial::Array(Vec::with_capacity(len.min(1024))));
    }
    fn end_array(&mut self) {
        if let Some(Partial::Array(v)) = self.stack.pop() {
            self.complete(Value::Array(v));
        }
    }
    #[inline]
    fn key(&mut self, key: &str) {
        self.pending_key(Key::from(key));
    }
    fn key_owned(&mut self, key: String) {
        self.pending_key(Key::from(key));
    }
    #[inline]
    fn value(&mut self, v: Value) {
        self.complete(v);
    }
    /// The entry goes into the open object at once, without passing through the
    /// pending key.
    #[inline]
    fn field(&mut self, line: &Line<'_>, key: &str, token: &str) -> Result<()> {
        let value = primitive_inline(line, token)?;
        self.put_entry(Key::from(key), value);
        Ok(())
    }
    /// Rows are built over the table's shape (its keys copied, not hashed, nor
    /// searched for): the same map as inserting the keys one by one.
    fn row(
        &mut self,
        cache: &mut RowCache,
        fields: &[Field<'_>],
        cells: &[&str],
        line: &Line<'_>,
    ) -> Result<()> {
        if cache.first_use(fields) && cache.simple {
            cache.shape = shape_of(fields);
        }
        let Some(shape) = &cache.shape else {
            return row_events(self, fields, cells, line);
        };
        let map = row_of(shape, &mut cells.iter(), line)?;
        self.complete(Value::Object(map));
        Ok(())
    }
}

/// The row object of `fields` with `null` leaves; `None` if a name repeats.
fn shape_of(fields: &[Field<'_>]) -> Option<Map> {
    let mut open: Vec<(Map, &str, usize)> = Vec::new();
    let mut map = Map::new();
    let mut count = 0;
    let mut ok = true;
    walk(fields, |step| match step {
        Walk::Leaf(f) => {
            map.insert(&*f.name, Value::Null);
            count += 1;
        }
        Walk::Open(f) => {
            open.push((std::mem::take(&mut map), &*f.name, count + 1));
            count = 0;
        }
        Walk::Close => {
            if let Some((outer, name, outer_count)) = open.pop() {
                ok &= map.len() == count;
                let inner = std::mem::replace(&mut map, outer);
                map.insert(name, Value::Object(inner));
                count = outer_count;
            }
        }
    });
    (ok && map.len() == count).then_some(map)
}

/// The row object over `shape`: its keys in order, each leaf read from the next cell,
/// depth first (groups nest at most a few levels: see [`RowCache::first_use`]). The
/// shape's keys differ, so the entries are appended without a search.
fn row_of(shape: &Map, cells: &mut std::slice::Iter<'_, &str>, line: &Line<'_>) -> Result<Map> {
    let mut entries = Vec::with_capacity(shape.len());
    for (key, leaf) in shape {
        let value = if let Value::Object(group) = leaf {
            Value::Object(row_of(group, cells, line)?)
        } else {
            primitive_inline(line, cells.next().copied().unwrap_or(""))?
        };
        entries.push((key.clone(), value));
    }
    Ok(Map::from_unique_entries(entries))
}

impl<R: BufRead> EventReader<R> {
    /// Reads the next complete value from the events: the whole document when called
    /// first; called after a container's start (or a key), the next element (or the
    /// key's value), which is how to take a huge root array one element at a time.
    /// At the end of the container that is a [`ErrorKind::Data`] error; `None` after
    /// the document.
    pub fn next_value(&mut self) -> Result<Option<Value>> {
        let mut builder = ValueBuilder::new();
        while let Some(event) = self.next_event()? {
            if let Some(v) = builder.push(event)? {
                return Ok(Some(v));
            }
        }
        if builder.is_building() {
            return Err(misplaced("end of events"));
        }
        Ok(None)
    }
}

/// Decodes the TOON document in `reader` into a [`Value`], through the event reader:
/// the same value (or error) as [`decode_value_with`](crate::decode_value_with) gives,
/// without holding the text in memory.
///
/// ```
/// let v = toon::decode::reader_to_value("a[2]: 1,x".as_bytes(), &toon::DecodeOptions::default())?;
/// assert_eq!(v, toon::toon!({"a": [1, "x"]}));
/// # Ok::<(), toon::Error>(())
/// ```
pub fn reader_to_value<R: BufRead>(reader: R, options: &DecodeOptions) -> Result<Value> {
    build(Driver::over_reader(
        reader,
        options,
        ValueSink::new(options),
    ))
}

/// Decodes the TOON document `text` into a [`Value`]: the state machine over the
/// text's borrowed lines, building the value from its steps.
pub(crate) fn text_to_value(text: &str, options: &DecodeOptions) -> Result<Value> {
    build(Driver::over_text(text, options, ValueSink::new(options)))
}

/// Runs `driver` to the end (for the end-of-document checks too) and takes its value.
fn build<I: LineInput>(mut driver: Driver<I, ValueSink>) -> Result<Value> {
    while driver.step()? {}
    Ok(driver.into_sink().result.unwrap_or(Value::Null))
}

#[cfg(test)]
mod tests {
    use crate::{Map, Value, decode_value};

    /// A table row is the same map as inserting its keys one by one, also when it has
    /// more keys than a map searches linearly (its index is built) and a field group.
    #[test]
    fn wide_rows_with_groups_equal_maps_built_by_insertion() {
        let names: Vec<String> = (0..30).map(|i| format!("f{i}")).collect();
        let header = format!("rows[2]{{{},g{{x,y}}}}:", names.join(","));
        let row = |r: usize| {
            let cells: Vec<String> = (0..30).map(|i| (r * 100 + i).to_string()).collect();
            format!("  {},x{r},\"y\"", cells.join(","))
        };
        let text = format!("{header}\n{}\n{}", row(0), row(1));
        let value = decode_value(&text).expect("valid table");
        let rows = value["rows"].as_array().expect("an array");
        assert_eq!(rows.len(), 2);
        for (r, got) in rows.iter().enumerate() {
            let mut want = Map::new();
            for (i, name) in names.iter().enumerate() {
                want.insert(name.as_str(), Value::from(r * 100 + i));
            }
            let mut group = Map::new();
            group.insert("x", Value::from(format!("x{r}")));
            group.insert("y", Value::from("y"));
            want.insert("g", Value::Object(group));
            let got = got.as_object().expect("an object");
            assert_eq!(got, &want);
            for (i, (key, value)) in want.iter().enumerate() {
                assert_eq!(got.get_index_of(key), Some(i), "{key}");
                assert_eq!(got.get(key), Some(value), "{key}");
            }
        }
    }

    /// The sink puts `key: primitive` fields straight into the open object; the value
    /// equals the one the public event path builds ([`EventReader`] into
    /// [`ValueBuilder`]), strict and non-strict, also where a repeated key (non-strict)
    /// keeps its first position and takes the last value.
    #[test]
    fn fields_equal_the_event_path_with_repeated_keys() {
        use crate::DecodeOptions;
        use crate::decode::{EventReader, ValueBuilder};
        let texts = [
            "a: 1\nb: x\na: 3\nc:\n  d: true\n  d: null\n  e: \"q\"\nb: 2",
            "items[3]:\n  - id: 1\n    id: 2\n    n: a\n  - k: v\n  - x: 1\n    y:\n      z: 0\n      z: 9",
            "t[2]{a,b}:\n  1,2\n  3,4\nt: 5\nu: -0.5",
        ];
        for text in texts {
            for strict in [false, true] {
                let options = DecodeOptions::default().with_strict(strict);
                let direct = crate::decode_value_with(text, &options);
                let mut builder = ValueBuilder::new();
                let mut events = EventReader::new(text.as_bytes(), &options);
                let via_events: crate::Result<Value> = (|| {
                    while let Some(event) = events.next_event()? {
                        if let Some(v) = builder.push(event)? {
                            return Ok(v);
                        }
                    }
                    Ok(Value::Null)
                })();
                match (&direct, &via_events) {
                    (Ok(a), Ok(b)) => {
                        assert_eq!(a, b, "{text:?} strict {strict}");
                        let order = |v: &Value| crate::value::to_json_string(v, 0);
                        assert_eq!(order(a), order(b), "key order, {text:?}");
                    }
                    (Err(a), Err(b)) => assert_eq!(a.message(), b.message(), "{text:?}"),
                    _ => panic!("{text:?} strict {strict}: {direct:?} vs {via_events:?}"),
                }
                if !strict {
                    assert!(direct.is_ok(), "{text:?} decodes leniently");
                }
            }
        }
        let lenient = DecodeOptions::default().with_strict(false);
        let v = crate::decode_value_with("a: 1\nb: x\na: 3", &lenient).expect("lenient");
        let keys: Vec<&str> = v
            .as_object()
            .expect("object")
            .keys()
            .map(|k| k.as_str())
            .collect();
        assert_eq!(keys, ["a", "b"]);
        assert_eq!(v["a"], Value::from(3));
        assert!(
            crate::decode_value("a: 1\na: 3").is_err(),
            "strict rejects the repeat"
        );
    }

    /// Sibling objects of changing sizes (the size hint of one level carried from one
    /// to the next) keep exactly their own keys, in order.
    #[test]
    fn siblings_of_changing_sizes_keep_their_own_keys() {
        let text = "items[4]:\n  - a: 1\n    b: 2\n    c: 3\n  - a: 4\n  - a: 5\n    b: 6\n    c: 7\n    d: 8\n  - z: 9\n";
        let value = decode_value(text).expect("valid list");
        let keys: Vec<Vec<&str>> = value["items"]
            .as_array()
            .expect("an array")
            .iter()
            .map(|o| {
                o.as_object()
                    .expect("an object")
                    .keys()
                    .map(|k| k.as_str())
                    .collect()
            })
            .collect();
        assert_eq!(
            keys,
            [
                vec!["a", "b", "c"],
                vec!["a"],
                vec!["a", "b", "c", "d"],
                vec!["z"]
            ]
        );
        assert_eq!(value["items"][2]["d"], Value::from(8));
    }
}
