//! Primitive tokens (spec §4) as [`Value`]s, exactly as the serde deserializer reads
//! them into a `Value`: integers exact at any size, floats finite (`-0` as `0`), other tokens text.

use std::borrow::Cow;

use super::tokens::{Num, TokResult, number, quoted_str};
use crate::{Number, Value};

/// The value of a trimmed primitive token.
#[inline]
pub(crate) fn parse_primitive(token: &str) -> TokResult<Value> {
    let Some(&first) = token.as_bytes().first() else {
        return Ok(Value::String(String::new()));
    };
    // Only `-` and digits start a number, only `t`, `f`, `n` a literal: other
    // unquoted text is a string without trying either.
    if !matches!(first, b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n') {
        return Ok(Value::String(token.to_owned()));
    }
    if first == b'"' {
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
    Ok(match number(token) {
        Some(Num::U64(u)) => Value::Number(Number::from(u)),
        Some(Num::I64(i)) => Value::Number(Number::from(i)),
        // Beyond 64 bits: canonical digits (the grammar forbids leading zeros).
        Some(Num::BigInt) => match Number::from_integer_str(token) {
            Some(n) => Value::Number(n),
            None => Value::String(token.to_owned()),
        },
        Some(Num::F64(f)) => {
            let f = if f == 0.0 { 0.0 } else { f };
            match Number::from_f64(f) {
                Some(n) => Value::Number(n),
                None => Value::String(token.to_owned()),
            }
        }
        None => Value::String(token.to_owned()),
    })
}
