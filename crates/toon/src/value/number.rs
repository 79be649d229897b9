//! Numbers of the JSON data model, keeping integers exact.

use std::fmt;

/// A JSON number.
///
/// TOON (spec §4) lets an implementation choose how to hold numbers. toonkit keeps
/// integers exact: any integer literal is held as `i64`/`u64` when it fits and as its
/// canonical decimal digits otherwise, so `123456789012345678901234567890` survives a
/// round trip unchanged. Numbers with a fraction or an exponent are `f64`.
///
/// Equality is numeric: `Number::from(1000)` equals `Number::from(1000.0)`, because the
/// JSON data model has one number type and TOON writes both as `1000`.
#[derive(Clone, Debug)]
pub struct Number(pub(crate) N);

#[derive(Clone, Debug)]
pub(crate) enum N {
    /// A non-negative integer.
    PosInt(u64),
    /// A negative integer.
    NegInt(i64),
    /// A finite float (never NaN or infinite).
    Float(f64),
    /// An integer outside the 64-bit range, as canonical decimal digits with an
    /// optional leading `-` (no leading zeros, never `-0`).
    Big(Box<str>),
}

impl Number {
    /// Makes a number from a float; `None` for NaN and infinities, which JSON cannot hold.
    pub fn from_f64(f: f64) -> Option<Number> {
        f.is_finite().then_some(Number(N::Float(f)))
    }

    /// Makes an integer from decimal digits of any length (optional leading `-`).
    ///
    /// Returns `None` if `digits` is not an integer literal. Leading zeros are accepted
    /// and removed.
    pub fn from_integer_str(digits: &str) -> Option<Number> {
        let (neg, body) = match digits.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, digits),
        };
        if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let body = body.trim_start_matches('0');
        if body.is_empty() {
            return Some(Number(N::PosInt(0)));
        }
        if neg {
            if let Ok(v) = format!("-{body}").parse::<i64>() {
                return Some(Number(N::NegInt(v)));
            }
            Some(Number(N::Big(format!("-{body}").into_boxed_str())))
        } else if let Ok(v) = body.parse::<u64>() {
            Some(Number(N::PosInt(v)))
        } else {
            Some(Number(N::Big(body.into())))
        }
    }

    /// True if this number is an integer held exactly (not a float).
    pub fn is_integer(&self) -> bool {
        !matches!(self.0, N::Float(_))
    }

    /// True if the number is a float (it had a fraction or exponent, or came from `f64`).
    pub fn is_f64(&self) -> bool {
        matches!(self.0, N::Float(_))
    }

    /// The value as `i64`, if it is an integer that fits.
    pub fn as_i64(&self) -> Option<i64> {
        match self.0 {
            N::PosInt(u) => i64::try_from(u).ok(),
            N::NegInt(i) => Some(i),
            _ => None,
        }
    }

    /// The value as `u64`, if it is a non-negative integer that fits.
    pub fn as_u64(&self) -> Option<u64> {
        match self.0 {
            N::PosInt(u) => Some(u),
            _ => None,
        }
    }

    /// The value as `f64` (integers beyond 2^53 are rounded).
    pub fn as_f64(&self) -> f64 {
        match &self.0 {
            N::PosInt(u) => *u as f64,
            N::NegInt(i) => *i as f64,
            N::Float(f) => *f,
            N::Big(s) => s.parse::<f64>().unwrap_or(f64::NAN),
        }
    }

    /// The digits of an integer too large for 64 bits, if this is one.
    pub fn as_big_integer_str(&self) -> Option<&str> {
        match &self.0 {
            N::Big(s) => Some(s),
            _ => None,
        }
    }

    /// Writes the number as TOON (and JavaScript) prints it: integers in plain decimal,
    /// floats in the shortest round-trip form of JavaScript's `String(n)`
    /// (`1e+21`, `1e-7`, `0.000001`), `-0` as `0`.
    pub fn write_canonical(&self, out: &mut String) {
        match &self.0 {
            N::PosInt(u) => crate::js_number::push_int(out, *u),
            N::NegInt(i) => crate::js_number::push_int(out, *i),
            N::Float(f) => crate::js_number::push_f64(out, *f),
            N::Big(s) => out.push_str(s),
        }
    }
}

impl PartialEq for Number {
    /// Numeric equality. Between an integer and a float the integer is compared as the
    /// `f64` it reads as, the way JavaScript (and so the reference) sees both: the float
    /// `9.223372036854776e18` prints as `9223372036854776000` and that integer equals it.
    fn eq(&self, other: &Number) -> bool {
        match (&self.0, &other.0) {
            (N::PosInt(a), N::PosInt(b)) => a == b,
            (N::NegInt(a), N::NegInt(b)) => a == b,
            (N::Big(a), N::Big(b)) => a == b,
            (N::Float(a), N::Float(b)) => a == b,
            (N::Float(f), _) => *f == other.as_f64(),
            (_, N::Float(f)) => self.as_f64() == *f,
            _ => false,
        }
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        self.write_canonical(&mut s);
        f.write_str(&s)
    }
}

macro_rules! from_unsigned {
    ($($t:ty),*) => {$(
        impl From<$t> for Number {
            fn from(v: $t) -> Number { Number(N::PosInt(v as u64)) }
        }
    )*};
}
macro_rules! from_signed {
    ($($t:ty),*) => {$(
        impl From<$t> for Number {
            fn from(v: $t) -> Number {
                if v < 0 { Number(N::NegInt(v as i64)) } else { Number(N::PosInt(v as u64)) }
            }
        }
    )*};
}
from_unsigned!(u8, u16, u32, u64, usize);
from_signed!(i8, i16, i32, i64, isize);

impl From<i128> for Number {
    fn from(v: i128) -> Number {
        if let Ok(u) = u64::try_from(v) {
            Number(N::PosInt(u))
        } else if let Ok(i) = i64::try_from(v) {
            Number(N::NegInt(i))
        } else {
            Number(N::Big(v.to_string().into_boxed_str()))
        }
    }
}

impl From<u128> for Number {
    fn from(v: u128) -> Number {
        match u64::try_from(v) {
            Ok(u) => Number(N::PosInt(u)),
            Err(_) => Number(N::Big(v.to_string().into_boxed_str())),
        }
    }
}
