//! Seconds ↔ milliseconds for timeouts, exact for integers and round-tripping for
//! decimals.

use serde_json::Number;

/// Seconds (as written by a workflow plan) to milliseconds. Integers stay integers;
/// decimals become integers when they are whole milliseconds. `None` on overflow.
pub fn seconds_to_ms(seconds: &Number) -> Option<Number> {
    if let Some(i) = seconds.as_i64() {
        return i.checked_mul(1000).map(Number::from);
    }
    if let Some(u) = seconds.as_u64() {
        return u.checked_mul(1000).map(Number::from);
    }
    let f = seconds.as_f64()? * 1000.0;
    let rounded = f.round();
    if (f - rounded).abs() < 1e-6 && rounded.abs() < 9.0e15 {
        // Whole milliseconds: keep them exact.
        return Some(Number::from(rounded as i64));
    }
    Number::from_f64(f)
}

/// Milliseconds back to seconds: whole seconds stay integers, others become decimals.
pub fn ms_to_seconds(ms: &Number) -> Option<Number> {
    if let Some(i) = ms.as_i64() {
        if i % 1000 == 0 {
            return Some(Number::from(i / 1000));
        }
        return Number::from_f64(i as f64 / 1000.0);
    }
    if let Some(u) = ms.as_u64() {
        if u % 1000 == 0 {
            return Some(Number::from(u / 1000));
        }
        return Number::from_f64(u as f64 / 1000.0);
    }
    Number::from_f64(ms.as_f64()? / 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_and_decimal_seconds_round_trip() {
        for s in ["30", "0", "1.5", "0.001", "2.25"] {
            let n: Number = s.parse().unwrap();
            let back = ms_to_seconds(&seconds_to_ms(&n).unwrap()).unwrap();
            assert_eq!(back.to_string(), s);
        }
        let ms = seconds_to_ms(&"1.5".parse().unwrap()).unwrap();
        assert_eq!(ms.as_i64(), Some(1500));
    }
}
