//! The encoder's replacer: a function that sees the root and every property and array
//! element before encoding, and keeps, drops or replaces it — the reference's
//! `replacer(key, value, path)` encode option (DELTA-4.4.md §3).
//!
//! Semantics, as in the reference: the replacer is called for the root (key `""`, empty
//! path), then for every property of an object (its key) and every element of an array
//! (its index as a string), parents before children, in document order. Dropping an
//! entry leaves it out (at the root, dropping means "no change"); a replacement is
//! encoded in place of the original, and the replacer is then called for the
//! replacement's own children, not the original's. Indices in keys and paths are the
//! original array's, even after earlier elements were dropped.
//!
//! Nothing is copied where the replacer keeps everything: the result borrows the
//! original value and only the containers on the way to a change are rebuilt. The walk
//! stops below `max_depth` levels, where the encoder stops with a depth error anyway.

use std::borrow::Cow;

use crate::stack::guarded;
use crate::{Map, Value};

/// What a replacer does with one entry.
#[derive(Clone, Debug, PartialEq)]
pub enum Replace {
    /// Encode the entry as it is (its children still go through the replacer).
    Keep,
    /// Leave the entry out (at the root: encode the root as it is).
    Drop,
    /// Encode this value instead.
    With(Value),
}

/// `None` drops the entry and `Some(v)` replaces it, as a JavaScript replacer returning
/// `undefined` or a value does.
impl From<Option<Value>> for Replace {
    fn from(v: Option<Value>) -> Replace {
        v.map_or(Replace::Drop, Replace::With)
    }
}

/// One step of the path from the root to a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathSegment<'a> {
    /// An object's key.
    Key(&'a str),
    /// An array's index.
    Index(usize),
}

/// Applies `replacer` to `root` and everything below it; see the [module](self) docs.
pub(crate) fn apply<'v, F, R>(root: &'v Value, max_depth: usize, mut replacer: F) -> Cow<'v, Value>
where
    F: FnMut(&str, &Value, &[PathSegment<'_>]) -> R,
    R: Into<Replace>,
{
    let mut walk = Walk {
        replacer: &mut replacer,
        path: Vec::new(),
        max_depth,
    };
    match walk.call("", root) {
        Replace::With(v) => Cow::Owned(walk.owned(v)),
        Replace::Keep | Replace::Drop => walk.borrowed(root),
    }
}

struct Walk<'f, F> {
    replacer: &'f mut F,
    /// Keys are owned: a path outlives no value, but replacements come and go.
    path: Vec<Segment>,
    max_depth: usize,
}

enum Segment {
    Key(String),
    Index(usize),
}

impl<F, R> Walk<'_, F>
where
    F: FnMut(&str, &Value, &[PathSegment<'_>]) -> R,
    R: Into<Replace>,
{
    fn call(&mut self, key: &str, value: &Value) -> Replace {
        let path: Vec<PathSegment<'_>> = self
            .path
            .iter()
            .map(|s| match s {
                Segment::Key(k) => PathSegment::Key(k),
                Segment::Index(i) => PathSegment::Index(*i),
            })
            .collect();
        (self.replacer)(key, value, &path).into()
    }

    /// The children of a borrowed value through the replacer; borrowed again when
    /// nothing below it changed.
    fn borrowed<'v>(&mut self, value: &'v Value) -> Cow<'v, Value> {
        if self.path.len() >= self.max_depth {
            return Cow::Borrowed(value);
        }
        guarded(|| match value {
            Value::Object(map) => {
                let mut changed = false;
                let mut out = Vec::with_capacity(map.len());
                for (key, child) in map {
                    self.path.push(Segment::Key(key.to_string()));
                    let entry = self.entry(key, child);
                    self.path.pop();
                    changed |= !matches!(entry, Some(Cow::Borrowed(_)));
                    out.push((key, entry));
                }
                if !changed {
                    return Cow::Borrowed(value);
                }
                let map: Map = out
                    .into_iter()
                    .filter_map(|(k, v)| Some((k.clone(), v?.into_owned())))
                    .collect();
                Cow::Owned(Value::Object(map))
            }
            Value::Array(items) => {
                let mut changed = false;
                let mut out = Vec::with_capacity(items.len());
                for (i, child) in items.iter().enumerate() {
                    self.path.push(Segment::Index(i));
                    let entry = self.entry(&i.to_string(), child);
                    self.path.pop();
                    changed |= !matches!(entry, Some(Cow::Borrowed(_)));
                    out.push(entry);
                }
                if !changed {
                    return Cow::Borrowed(value);
                }
                Cow::Owned(Value::Array(
                    out.into_iter().flatten().map(Cow::into_owned).collect(),
                ))
            }
            _ => Cow::Borrowed(value),
        })
    }

    /// One property or element: `None` when dropped.
    fn entry<'v>(&mut self, key: &str, child: &'v Value) -> Option<Cow<'v, Value>> {
        match self.call(key, child) {
            Replace::Drop => None,
            Replace::Keep => Some(self.borrowed(child)),
            Replace::With(v) => Some(Cow::Owned(self.owned(v))),
        }
    }

    /// The children of a replacement through the replacer, changed in place.
    fn owned(&mut self, value: Value) -> Value {
        if self.path.len() >= self.max_depth {
            return value;
        }
        guarded(|| match value {
            Value::Object(map) => {
                let mut out = Map::with_capacity(map.len());
                for (key, child) in map {
                    self.path.push(Segment::Key(key.to_string()));
                    let replaced = match self.call(&key, &child) {
                        Replace::Drop => None,
                        Replace::Keep => Some(self.owned(child)),
                        Replace::With(v) => Some(self.owned(v)),
                    };
                    self.path.pop();
                    if let Some(v) = replaced {
                        out.insert(key, v);
                    }
                }
                Value::Object(out)
            }
            Value::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, child) in items.into_iter().enumerate() {
                    self.path.push(Segment::Index(i));
                    let replaced = match self.call(&i.to_string(), &child) {
                        Replace::Drop => None,
                        Replace::Keep => Some(self.owned(child)),
                        Replace::With(v) => Some(self.owned(v)),
                    };
                    self.path.pop();
                    out.extend(replaced);
                }
                Value::Array(out)
            }
            other => other,
        })
    }
}
