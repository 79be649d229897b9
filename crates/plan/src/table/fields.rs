//! Reading tree objects into model fields (tolerantly: a value of an unexpected type
//! is left for the `extra` map, never dropped) and writing them back.

use std::collections::HashSet;

use serde_json::{Map, Number, Value};

use crate::model::Extra;

/// Takes named fields out of a JSON object; what is not taken becomes `extra`.
pub struct Fields<'a> {
    map: &'a Map<String, Value>,
    taken: HashSet<&'a str>,
}

impl<'a> Fields<'a> {
    /// Starts reading an object.
    pub fn new(map: &'a Map<String, Value>) -> Self {
        Fields {
            map,
            taken: HashSet::new(),
        }
    }

    fn get(&mut self, key: &'a str) -> Option<&'a Value> {
        let v = self.map.get(key)?;
        if v.is_null() {
            // An explicit null is the same as absent.
            self.taken.insert(key);
            return None;
        }
        Some(v)
    }

    /// A string field.
    pub fn str(&mut self, key: &'a str) -> Option<String> {
        let v = self.get(key)?.as_str()?.to_owned();
        self.taken.insert(key);
        Some(v)
    }

    /// A text field: a string, or its lines as a list of strings joined with `\n`.
    pub fn text(&mut self, key: &'a str) -> Option<String> {
        let v = match self.get(key)? {
            Value::String(s) => s.clone(),
            Value::Array(lines) => {
                let lines: Option<Vec<&str>> = lines.iter().map(Value::as_str).collect();
                lines?.join("\n")
            }
            _ => return None,
        };
        self.taken.insert(key);
        Some(v)
    }

    /// A required string field: the empty string a writer puts for a missing value
    /// reads back as `None`.
    pub fn required_str(&mut self, key: &'a str) -> Option<String> {
        match self.get(key)? {
            Value::String(s) if s.is_empty() => {
                self.taken.insert(key);
                None
            }
            Value::String(s) => {
                self.taken.insert(key);
                Some(s.clone())
            }
            _ => None,
        }
    }

    /// A list of strings.
    pub fn strings(&mut self, key: &'a str) -> Option<Vec<String>> {
        let arr = self.get(key)?.as_array()?;
        let list: Option<Vec<String>> = arr.iter().map(|x| x.as_str().map(str::to_owned)).collect();
        let list = list?;
        self.taken.insert(key);
        Some(list)
    }

    /// A required list of strings: the empty list a writer puts for a missing value
    /// reads back as `None`.
    pub fn required_strings(&mut self, key: &'a str) -> Option<Vec<String>> {
        self.strings(key).filter(|l| !l.is_empty())
    }

    /// A number.
    pub fn number(&mut self, key: &'a str) -> Option<Number> {
        let n = self.get(key)?.as_number()?.clone();
        self.taken.insert(key);
        Some(n)
    }

    /// Any value.
    pub fn value(&mut self, key: &'a str) -> Option<Value> {
        let v = self.get(key)?.clone();
        self.taken.insert(key);
        Some(v)
    }

    /// An object.
    pub fn object(&mut self, key: &'a str) -> Option<Extra> {
        let m = self.get(key)?.as_object()?;
        let out = m.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        self.taken.insert(key);
        Some(out)
    }

    /// An array (for callers that read the items themselves).
    pub fn array(&mut self, key: &'a str) -> Option<&'a Vec<Value>> {
        let a = self.get(key)?.as_array()?;
        self.taken.insert(key);
        Some(a)
    }

    /// Everything not taken, in source order.
    pub fn extra(self) -> Extra {
        self.map
            .iter()
            .filter(|(k, _)| !self.taken.contains(k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }
}

/// Builds a JSON object field by field, skipping `None`s.
#[derive(Default)]
pub struct Out {
    map: Map<String, Value>,
}

impl Out {
    /// An empty object.
    pub fn new() -> Self {
        Out::default()
    }

    /// A string if present.
    pub fn str(&mut self, key: &str, v: &Option<String>) -> &mut Self {
        if let Some(s) = v {
            self.map.insert(key.to_owned(), Value::String(s.clone()));
        }
        self
    }

    /// A required string: the empty string when missing.
    pub fn required_str(&mut self, key: &str, v: &Option<String>) -> &mut Self {
        let s = v.clone().unwrap_or_default();
        self.map.insert(key.to_owned(), Value::String(s));
        self
    }

    /// A list of strings if present.
    pub fn strings(&mut self, key: &str, v: &Option<Vec<String>>) -> &mut Self {
        if let Some(list) = v {
            self.map.insert(key.to_owned(), strings(list));
        }
        self
    }

    /// A required list of strings: empty when missing.
    pub fn required_strings(&mut self, key: &str, v: &Option<Vec<String>>) -> &mut Self {
        let list = v.clone().unwrap_or_default();
        self.map.insert(key.to_owned(), strings(&list));
        self
    }

    /// A number if present.
    pub fn number(&mut self, key: &str, v: &Option<Number>) -> &mut Self {
        if let Some(n) = v {
            self.map.insert(key.to_owned(), Value::Number(n.clone()));
        }
        self
    }

    /// Any value if present.
    pub fn value(&mut self, key: &str, v: Option<Value>) -> &mut Self {
        if let Some(v) = v {
            self.map.insert(key.to_owned(), v);
        }
        self
    }

    /// An object if present.
    pub fn object(&mut self, key: &str, v: &Option<Extra>) -> &mut Self {
        if let Some(m) = v {
            self.map.insert(key.to_owned(), object(m));
        }
        self
    }

    /// The extra fields, except the dialect's own keys (`reserved`) and keys already
    /// written: those cannot be held and show up in the loss report.
    pub fn extra(&mut self, extra: &Extra, reserved: &[&str]) -> &mut Self {
        for (k, v) in extra {
            if !self.map.contains_key(k) && !reserved.contains(&k.as_str()) {
                self.map.insert(k.clone(), v.clone());
            }
        }
        self
    }

    /// The object.
    pub fn build(&mut self) -> Value {
        Value::Object(std::mem::take(&mut self.map))
    }
}

/// A JSON array of strings.
pub fn strings(list: &[String]) -> Value {
    Value::Array(list.iter().cloned().map(Value::String).collect())
}

/// An extra map as a JSON object.
pub fn object(m: &Extra) -> Value {
    Value::Object(m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
}

/// Key under which a list item that is not an object is kept, in a task with an empty id.
pub const OPAQUE_KEY: &str = "$item";

/// A task standing for a list item that is not an object, so it is not lost.
pub fn opaque_task(item: &Value) -> crate::model::Task {
    let mut t = crate::model::Task::default();
    t.extra.insert(OPAQUE_KEY.to_owned(), item.clone());
    t
}

/// The original item when `task` stands for one that was not an object.
pub fn opaque_value(task: &crate::model::Task) -> Option<Value> {
    if task.id.is_empty() && task.extra.len() == 1 {
        return task.extra.get(OPAQUE_KEY).cloned();
    }
    None
}
