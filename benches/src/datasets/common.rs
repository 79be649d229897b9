//! Pieces several datasets share: people, emails, money.

use serde_json::Value;

use crate::rng::Rng;
use crate::words::{DOMAINS, FIRST_NAMES, LAST_NAMES};

/// A person's full name.
pub fn full_name(rng: &mut Rng) -> String {
    format!("{} {}", rng.pick(&FIRST_NAMES), rng.pick(&LAST_NAMES))
}

/// An email address derived from `name` and a number that keeps it unique.
pub fn email(rng: &mut Rng, name: &str, n: usize) -> String {
    let local: String = name
        .chars()
        .filter_map(|c| match c {
            ' ' | '-' => Some('.'),
            c if c.is_ascii_alphabetic() => Some(c.to_ascii_lowercase()),
            _ => None,
        })
        .collect();
    format!("{local}{n}@{}", rng.pick(&DOMAINS))
}

/// An amount of money in cents as a JSON number with at most two decimals.
pub fn money(cents: i64) -> Value {
    Value::from(cents as f64 / 100.0)
}

/// A phone number in E.164 form.
pub fn phone(rng: &mut Rng) -> String {
    format!("+1{:03}{:07}", rng.range(201, 989), rng.range(0, 9_999_999))
}
