//! The decoding state machine feeding a builder of another language's values (the
//! Python package builds Python objects with it): the same grammar and errors as every
//! other consumer, with each primitive handed over classified and with its text as
//! written, and each table row's keys numbered by their place in the table's header.

use std::borrow::Cow;

use super::grammar::header::Field;
use super::grammar::machine::Driver;
use super::grammar::scanner::Line;
use super::grammar::sink::{RowCache, Sink, row_events};
use super::grammar::slot::tok;
use super::grammar::tokens::{Num, number, quoted_str};
use crate::{DecodeOptions, Result, Value};

/// A primitive token (spec §4), classified.
#[derive(Debug)]
pub enum Scalar<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A string: a quoted token unescaped, or an unquoted token that is not a
    /// keyword or a number.
    Str(Cow<'a, str>),
    /// An integer literal: its value when it fits `i64`, and its text as written.
    Int(Option<i64>, &'a str),
    /// An integer literal in `(i64::MAX, u64::MAX]`, and its text.
    U64(u64, &'a str),
    /// A literal with a fraction or exponent: the nearest `f64` (infinite beyond the
    /// `f64` range, `-0` kept), and its text as written.
    Float(f64, &'a str),
}

/// A consumer of a document's values in document order.
pub trait Builder {
    /// An object opens; `fields` is its number of keys when the decoder knows it (a
    /// table row).
    fn start_object(&mut self, fields: Option<usize>);
    /// The innermost open object closes.
    fn end_object(&mut self);
    /// An array opens, with the length its header declares (advisory in non-strict mode).
    fn start_array(&mut self, len: usize);
    /// The innermost open array closes.
    fn end_array(&mut self);
    /// The key of the next value in the innermost open object.
    fn key(&mut self, key: &str);
    /// The key of the next cell of a flat table row: field `field` of table `table` (a
    /// number that stays the same for every row of a table, and for the next table with
    /// the same field list). Defaults to [`Builder::key`].
    fn table_key(&mut self, table: usize, field: usize, key: &str) {
        let _ = (table, field);
        self.key(key);
    }
    /// A primitive value; an `Err` message becomes the decoder's error at the token.
    fn scalar(&mut self, value: Scalar<'_>) -> std::result::Result<(), String>;
    /// True once the builder has failed on its own: the decoder stops after the line.
    fn failed(&self) -> bool;
}

/// Decodes `text` with `options` into `builder`. `Ok` also when the builder stopped the
/// decoder ([`Builder::failed`]).
pub fn build_text<B: Builder>(text: &str, options: &DecodeOptions, builder: &mut B) -> Result<()> {
    let mut driver = Driver::over_text(
        text,
        options,
        Adapter {
            b: builder,
            tables: 0,
        },
    );
    while driver.step()? {
        if driver.sink_ref().b.failed() {
            break;
        }
    }
    Ok(())
}

/// The state machine's sink over a [`Builder`].
struct Adapter<'b, B> {
    b: &'b mut B,
    /// Tables numbered so far.
    tables: usize,
}

impl<B: Builder> Sink for Adapter<'_, B> {
    fn start_object(&mut self) {
        self.b.start_object(None);
    }
    fn start_object_sized(&mut self, fields: usize) {
        self.b.start_object(Some(fields));
    }
    fn end_object(&mut self) {
        self.b.end_object();
    }
    fn start_array(&mut self, len: usize) {
        self.b.start_array(len);
    }
    fn end_array(&mut self) {
        self.b.end_array();
    }
    fn key(&mut self, key: &str) {
        self.b.key(key);
    }
    fn value(&mut self, v: Value) {
        // The machine hands every primitive over as a token; kept for completeness.
        let _ = match v {
            Value::Null => self.b.scalar(Scalar::Null),
            Value::Bool(b) => self.b.scalar(Scalar::Bool(b)),
            Value::String(s) => self.b.scalar(Scalar::Str(Cow::Owned(s))),
            Value::Number(n) => self.b.scalar(classify(&n.to_string())),
            Value::Array(_) | Value::Object(_) => Ok(()),
        };
    }
    fn token(&mut self, line: &Line<'_>, token: &str) -> Result<()> {
        let scalar = if token.as_bytes().first() == Some(&b'"') {
            Scalar::Str(quoted_str(token).map_err(|e| tok(line, token, e))?)
        } else {
            classify(token)
        };
        self.b
            .scalar(scalar)
            .map_err(|msg| line.error_at(token, 0, msg))
    }
    fn row(
        &mut self,
        cache: &mut RowCache,
        fields: &[Field<'_>],
        cells: &[&str],
        line: &Line<'_>,
    ) -> Result<()> {
        if fields.iter().any(|f| f.children.is_some()) {
            return row_events(self, fields, cells, line);
        }
        if cache.id == 0 {
            self.tables += 1;
            cache.id = self.tables;
        }
        self.b.start_object(Some(fields.len()));
        for (i, f) in fields.iter().enumerate() {
            self.b.table_key(cache.id, i, &f.name);
            self.token(line, cells.get(i).copied().unwrap_or(""))?;
        }
        self.b.end_object();
        Ok(())
    }
}

/// An unquoted token, classified.
fn classify(token: &str) -> Scalar<'_> {
    match token {
        "true" => return Scalar::Bool(true),
        "false" => return Scalar::Bool(false),
        "null" => return Scalar::Null,
        _ => {}
    }
    match number(token) {
        Some(Num::U64(u)) => match i64::try_from(u) {
            Ok(i) => Scalar::Int(Some(i), token),
            Err(_) => Scalar::U64(u, token),
        },
        Some(Num::I64(i)) => Scalar::Int(Some(i), token),
        Some(Num::BigInt) => Scalar::Int(None, token),
        Some(Num::F64(f)) => Scalar::Float(f, token),
        None => Scalar::Str(Cow::Borrowed(token)),
    }
}
