//! Field tables: one description of each dialect object (its keys, value kinds,
//! required keys, known values, documentation and the model field each key fills).
//!
//! A dialect describes each of its objects once, as a [`Table`]; the table drives
//! - validation ([`check`]): missing required keys, values of the wrong kind, unknown
//!   values, with locations;
//! - the JSON Schema ([`schema::of`]), which therefore accepts and rejects what
//!   [`check`] does;
//! - reading and writing ([`slot::read`], [`slot::write`]): which model field a key
//!   fills and the order keys are written in.
//!
//! Unknown keys are allowed everywhere: a reader keeps them in the model's `extra`
//! map and a writer writes them back, so the schemas leave `additionalProperties`
//! open and the validators accept them.

pub(crate) mod fields;
pub(crate) mod fill;
pub mod schema;
pub mod slot;

use serde_json::{Map, Value};

use crate::problem::{PathBuf, Problem};
pub use slot::{GroupField, PlanField, TaskField, To};

/// One object of a dialect: its fields, in the order they are written.
#[derive(Debug)]
pub struct Table {
    /// Title of the JSON Schema (for the root object of a dialect).
    pub title: &'static str,
    /// What the object is, in words.
    pub doc: &'static str,
    /// Its fields.
    pub fields: &'static [Field],
}

/// One key of an object.
#[derive(Debug)]
pub struct Field {
    /// The key as written.
    pub key: &'static str,
    /// What its value must be.
    pub kind: Kind,
    /// Whether the key must be present (an explicit `null` counts as absent).
    pub required: bool,
    /// A further rule on the value.
    pub check: Check,
    /// The rule name under which a failed [`Check`] is reported.
    pub rule: &'static str,
    /// What it holds, in words.
    pub doc: &'static str,
    /// The model field it fills.
    pub to: To,
    /// Whether the value is a number of seconds (written `30s` in markdown).
    pub seconds: bool,
}

/// What kind of value a field must hold.
#[derive(Debug)]
pub enum Kind {
    /// A string.
    Str,
    /// A list of strings.
    Strings,
    /// A number.
    Number,
    /// An integer.
    Integer,
    /// A boolean.
    Bool,
    /// Any object.
    Object,
    /// A text: a string, or its lines as a list of strings (joined with line breaks;
    /// the plan model's TOON writes a multi-line text so, one line per item).
    Lines,
    /// A list of strings, or the number of them where their items are kept elsewhere
    /// (the plan model's flat form counts a task's list in its row and keeps the items
    /// in an edge table).
    StringsOrCount,
    /// A list of strings, the number of them (as [`Kind::StringsOrCount`]), or its items
    /// joined by `,` in one string (the plan model's flat form writes a task's
    /// `requirements` so, one cell of its row).
    StringsCountOrCell,
    /// An id: a number or a string (Task Master ids are either).
    Id,
    /// A list of ids, each a number or a string.
    Ids,
    /// Any value.
    Any,
    /// An object with fields of its own.
    Nested(&'static Table),
    /// A list of objects with fields of their own.
    Items(&'static Table),
}

/// A rule on a value beyond its kind.
#[derive(Debug)]
pub enum Check {
    /// None.
    None,
    /// One of the listed values (for a list of strings: each item is).
    OneOf(&'static [Choice]),
    /// One of the listed values is expected; another is kept as written and reported
    /// as a warning (an open vocabulary such as Cursor's todo statuses, which Cursor
    /// extends). The JSON Schema lists them as `examples`.
    Known(&'static [Choice]),
    /// Text that is not only white space.
    NonBlank,
    /// No whitespace and no ASCII punctuation but `_` and `-`, at least one character
    /// ([`SLUG_PATTERN`]): ids of any script.
    Slug,
    /// An integer of at least 1.
    Positive,
    /// A number of at least 0.
    NotNegative,
}

/// A known value of a field.
#[derive(Debug)]
pub struct Choice {
    /// The value.
    pub value: &'static str,
    /// What it means.
    pub doc: &'static str,
}

impl Field {
    /// A field whose failed [`Check`] is reported under `schema`.
    pub const fn new(key: &'static str, kind: Kind, required: bool, doc: &'static str) -> Self {
        Field {
            key,
            kind,
            required,
            check: Check::None,
            rule: "schema",
            doc,
            to: To::Extra,
            seconds: false,
        }
    }

    /// The same field, its value a number of seconds.
    pub const fn in_seconds(mut self) -> Self {
        self.seconds = true;
        self
    }

    /// The same field with a further rule on its value, reported under `rule`.
    pub const fn check(mut self, check: Check, rule: &'static str) -> Self {
        self.check = check;
        self.rule = rule;
        self
    }

    /// The same field, filling the model field `to`.
    pub const fn to(mut self, to: To) -> Self {
        self.to = to;
        self
    }

    /// The known values, when the field has a list of them.
    pub fn choices(&self) -> &'static [Choice] {
        match self.check {
            Check::OneOf(c) | Check::Known(c) => c,
            _ => &[],
        }
    }
}

impl Table {
    /// The field with this key.
    pub fn field(&self, key: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.key == key)
    }

    /// The key that fills the model field `to`.
    pub fn key_of(&self, to: To) -> &'static str {
        self.fields
            .iter()
            .find(|f| f.to == to)
            .map_or("", |f| f.key)
    }

    /// The key of the first list of objects it holds ("" when it holds none).
    pub const fn list_key(&self) -> &'static str {
        let mut i = 0;
        while i < self.fields.len() {
            if let Kind::Items(_) = self.fields[i].kind {
                return self.fields[i].key;
            }
            i += 1;
        }
        ""
    }
}

impl Kind {
    fn accepts(&self, v: &Value) -> bool {
        match self {
            Kind::Str => v.is_string(),
            Kind::Strings => v.as_array().is_some_and(|a| a.iter().all(Value::is_string)),
            Kind::Number => v.is_number(),
            Kind::Integer => v.is_i64() || v.is_u64(),
            Kind::Bool => v.is_boolean(),
            Kind::Object | Kind::Nested(_) => v.is_object(),
            Kind::StringsOrCount => v.is_u64() || Kind::Strings.accepts(v),
            Kind::StringsCountOrCell => v.is_string() || Kind::StringsOrCount.accepts(v),
            Kind::Lines => v.is_string() || Kind::Strings.accepts(v),
            Kind::Items(_) => v.is_array(),
            Kind::Id => v.is_number() || v.is_string(),
            Kind::Ids => v
                .as_array()
                .is_some_and(|a| a.iter().all(|x| Kind::Id.accepts(x))),
            Kind::Any => true,
        }
    }

    fn describe(&self) -> &'static str {
        match self {
            Kind::Str => "a string",
            Kind::Strings => "a list of strings",
            Kind::Number => "a number",
            Kind::Integer => "an integer",
            Kind::Bool => "true or false",
            Kind::Object | Kind::Nested(_) => "an object",
            Kind::StringsOrCount => "a list of strings or a count",
            Kind::StringsCountOrCell => "a list of strings, a count or a string",
            Kind::Lines => "a string or a list of lines",
            Kind::Items(_) => "a list",
            Kind::Id => "a number or a string",
            Kind::Ids => "a list of numbers and strings",
            Kind::Any => "a value",
        }
    }
}

/// Whether `v` is one of the known values.
pub fn one_of(choices: &[Choice], v: &str) -> bool {
    choices.iter().any(|c| c.value == v)
}

/// The pattern of [`Check::Slug`], in the validator and in the JSON Schema alike: at
/// least one character, none of them whitespace, a control character or ASCII
/// punctuation other than `_` and `-` (letters and digits of any script pass). Written
/// with ASCII ranges only, so ECMA-262 (JSON Schema's), Python's and Rust's regexes read
/// it alike (`\w` is ASCII in ECMA-262 and differs between the others on marks).
pub const SLUG_PATTERN: &str = r"^[^\s\x00-\x1F\x7F!-,./:-@\[-^`{-~]+$";

/// Whether `s` matches [`SLUG_PATTERN`].
pub(crate) fn is_slug(s: &str) -> bool {
    static SLUG: std::sync::LazyLock<Option<regex::Regex>> =
        std::sync::LazyLock::new(|| regex::Regex::new(SLUG_PATTERN).ok());
    SLUG.as_ref().is_some_and(|r| r.is_match(s))
}

/// Checks an object against its table, and the objects nested in it against theirs:
/// every missing required key, value of the wrong kind and value a [`Check`] rejects.
/// Keys the table does not name are allowed.
pub fn check(obj: &Map<String, Value>, path: &PathBuf, table: &Table) -> Vec<Problem> {
    let mut out = Vec::new();
    for field in table.fields {
        let key = field.key;
        let v = match obj.get(key) {
            None | Some(Value::Null) => {
                if field.required {
                    out.push(Problem::error(
                        "schema",
                        path.loc(),
                        format!("missing required field `{key}`"),
                    ));
                }
                continue;
            }
            Some(v) => v,
        };
        let at = path.key(key);
        if !field.kind.accepts(v) {
            out.push(Problem::error(
                "schema",
                at.loc(),
                format!("`{key}` must be {}", field.kind.describe()),
            ));
            continue;
        }
        match (&field.kind, v) {
            (Kind::Nested(inner), Value::Object(o)) => out.extend(check(o, &at, inner)),
            (Kind::Items(inner), Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    match item.as_object() {
                        Some(o) => out.extend(check(o, &at.index(i), inner)),
                        None => out.push(Problem::error(
                            "schema",
                            at.index(i).loc(),
                            format!("each item of `{key}` must be an object"),
                        )),
                    }
                }
            }
            (_, Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    out.extend(check_value(field, item, &at.index(i)));
                }
            }
            _ => out.extend(check_value(field, v, &at)),
        }
    }
    out
}

/// The [`Check`] of a field on one value (an item, for a list).
fn check_value(field: &Field, v: &Value, at: &PathBuf) -> Option<Problem> {
    let key = field.key;
    let message = match (&field.check, v) {
        (Check::OneOf(choices) | Check::Known(choices), Value::String(s))
            if !one_of(choices, s) =>
        {
            let known: Vec<&str> = choices.iter().map(|c| c.value).collect();
            let message = format!("unknown {key} {s:?} (known: {})", known.join(", "));
            if matches!(field.check, Check::Known(_)) {
                return Some(Problem::warning(
                    field.rule,
                    at.loc(),
                    format!("{message}; kept as written"),
                ));
            }
            message
        }
        (Check::NonBlank, Value::String(s)) if s.trim().is_empty() => {
            format!("`{key}` must not be empty")
        }
        (Check::Slug, Value::String(s)) if !is_slug(s) => {
            format!("{key} {s:?} may not hold spaces or punctuation other than `_` and `-`")
        }
        (Check::Positive, Value::Number(n)) if !matches!(n.as_u64(), Some(n) if n > 0) => {
            format!("`{key}` must be a positive integer, not {n}")
        }
        (Check::NotNegative, Value::Number(n)) if n.as_f64().is_some_and(|x| x < 0.0) => {
            format!("`{key}` must not be negative, not {n}")
        }
        _ => return None,
    };
    Some(Problem::error(field.rule, at.loc(), message))
}

/// The rules [`check`] reports for a table and the tables nested in it: the rules
/// the JSON Schema stands for.
pub fn rules(table: &Table) -> Vec<&'static str> {
    let mut out = vec!["schema"];
    let mut stack = vec![table];
    while let Some(t) = stack.pop() {
        for f in t.fields {
            if !out.contains(&f.rule) {
                out.push(f.rule);
            }
            if let Kind::Nested(inner) | Kind::Items(inner) = f.kind {
                stack.push(inner);
            }
        }
    }
    out
}
