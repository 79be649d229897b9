//! Primitive tokens (spec §4) as [`Value`]s, exactly as the serde deserializer reads
//! them into a `Value`: integers exact at any size, floats finite (`-0` as `0`), other tokens text.

use std::borrow::Cow;

use super::tokens::{NumericKind, TokResult, numeric_kind, quoted_str};
use crate::{Number, Value};

/// The value of a trimmed primitive token.
pub(crate) fn parse_primitive(token: &str) -> TokResult<Value> {
    if token.is_empty() {
        return Ok(Value::String(String::new()));
    }
    if token.as_bytes()[0] == b'"' {
        return Ok(Value::String(match quoted_str(token)? {
            Cow::Borrowed(s) => s.to_owned(),
            Cow::Owned(s) => s,
        }));
    }
    match token {
        "true" => return Ok(Value::Bool(true)),
        "false" => return Ok(Value::Bool(false)),
        "null" => return Ok(Value::Null),
        _ => {}
    }
    Ok(match numeric_kind(token) {
        Some(NumericKind::Int) => {
            if let Ok(u) = token.parse::<u64>() {
                Value::Number(Number::from(u))
            } else if let Ok(i) = token.parse::<i64>() {
                Value::Number(Number::from(i))
            } else {
                // Beyond 64 bits: canonical digits (the grammar forbids leading zeros).
                match Number::from_integer_str(token) {
                    Some(n) => Value::Number(n),
                    None => Value::String(token.to_owned()),
                }
            }
        }
        Some(NumericKind::Float) => match token.parse::<f64>() {
            Ok(f) if f.is_finite() => {
                let f = if f == 0.0 { 0.0 } else { f };
                match Number::from_f64(f) {
                    Some(n) => Value::Number(n),
                    None => Value::String(token.to_owned()),
                }
            }
            _ => Value::String(token.to_owned()),
        },
        None => Value::String(token.to_owned()),
    })
}
