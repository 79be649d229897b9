//! The one number formatter: numbers as JavaScript's `String(n)` prints them, which is
//! how TOON (spec §2, canonical numbers) and the reference's JSON output write them.
//!
//! Integers are plain decimal; a finite float is the shortest text that reads back
//! as the same `f64`, with JavaScript's switch to exponent form (`1e+21`, `1e-7`,
//! `0.000001`); `-0` is `0`. The token fast paths write a decoded number straight
//! from its text when that text is already what the formatter would write.

/// The text of a finite `f64`, written in `buf` (or `"0"` for either zero).
pub(crate) fn f64_str(buf: &mut ryu_js::Buffer, f: f64) -> &str {
    debug_assert!(f.is_finite(), "only finite numbers have a JavaScript text");
    if f == 0.0 { "0" } else { buf.format_finite(f) }
}

/// Appends a finite `f64` as JavaScript prints it.
#[inline]
pub(crate) fn push_f64(out: &mut String, f: f64) {
    if !push_short_decimal(out, f) {
        out.push_str(f64_str(&mut ryu_js::Buffer::new(), f));
    }
}

/// At most this many fraction digits on the fast path of [`push_short_decimal`].
const FRACTION_DIGITS: u32 = 4;
const FRACTION_SCALE: f64 = 10_000.0;

/// The fast path of [`push_f64`] for the common floats with at most four fraction
/// digits and magnitude below 2^51 / 10^4 (prices, ratios, measurements), and whole
/// numbers below 2^51: appends the value as `int.frac` (or `int`) and returns true,
/// or returns false having written nothing.
///
/// With `m = round(|f|·10^4)` and `m / 10^4 == |f|` (both operands exact, so the
/// division is the correctly rounded value of the decimal `m·10^-4`), that decimal
/// reads back as `f`, and it is the only four-digit decimal that does (two would
/// differ by `10^-4`, more than an ulp of `f` while `m < 2^51`). A decimal with
/// `k < 4` fraction digits that reads back as `f` is also a four-digit one (pad it
/// with zeros), so it is `m` with its trailing zeros cut: the shortest round-trip
/// text has `4 - (trailing zeros of m)` fraction digits, and if `m` does not read
/// back no decimal of at most four fraction digits does. JavaScript prints such
/// values in plain notation (magnitudes between 1e-6 and 1e21).
#[inline]
fn push_short_decimal(out: &mut String, f: f64) -> bool {
    const LIMIT: f64 = (1u64 << 51) as f64;
    let a = f.abs();
    let scaled = a * FRACTION_SCALE;
    if !(a > 0.0 && scaled < LIMIT) {
        // Whole numbers below 2^51 are their digits.
        if (1.0..LIMIT).contains(&a) && a.trunc() == a {
            if f < 0.0 {
                out.push('-');
            }
            push_int(out, a as u64);
            return true;
        }
        return false;
    }
    let m = scaled.round();
    if m / FRACTION_SCALE != a {
        return false;
    }
    // `m` is a whole number below 2^51, so the conversion is exact.
    let mut m = m as u64;
    let mut digits = FRACTION_DIGITS;
    while digits > 0 && m.is_multiple_of(10) {
        m /= 10;
        digits -= 1;
    }
    if f < 0.0 {
        out.push('-');
    }
    let divisor = 10u64.pow(digits);
    push_int(out, m / divisor);
    if digits > 0 {
        let mut buf = itoa::Buffer::new();
        let frac = buf.format(m % divisor + divisor);
        // `frac` is `1` followed by exactly `digits` digits, leading zeros kept.
        out.push('.');
        out.push_str(&frac[1..]);
    }
    true
}

/// Appends an integer in plain decimal.
pub(crate) fn push_int<I: itoa::Integer>(out: &mut String, i: I) {
    out.push_str(itoa::Buffer::new().format(i));
}

/// The `f64` nearest to the shortest decimal that reads back as `v`, so `0.1f32`
/// becomes `0.1` rather than `0.10000000149011612`, as JavaScript sees an `f32`
/// written out. NaN and infinities stay as they are.
pub(crate) fn f32_to_f64(v: f32) -> f64 {
    if !v.is_finite() {
        return f64::from(v);
    }
    let shortest = ryu_js::Buffer::new().format_finite(v).parse::<f64>();
    shortest.unwrap_or(f64::from(v))
}

/// Fast path for an integer token of the grammar (no leading zeros): appends it
/// as it is when it is canonical and fits 64 bits, as [`push_int`] would write
/// its value; false (nothing written) for `-0` and tokens that may not fit.
pub(crate) fn push_int_token(out: &mut String, token: &str) -> bool {
    if token.len() > 18 || token == "-0" {
        return false;
    }
    out.push_str(token);
    true
}

/// Fast path for a float token of the grammar (a fraction or an exponent):
/// appends its value as [`push_f64`] writes it; false (nothing written) when the
/// token does not read as a finite `f64`.
pub(crate) fn push_float_token(out: &mut String, token: &str) -> bool {
    match token.parse::<f64>() {
        Ok(f) if f.is_finite() => {
            push_f64(out, f);
            true
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(x: f64) -> String {
        let mut s = String::new();
        push_f64(&mut s, x);
        s
    }

    #[test]
    fn floats_print_as_javascript_does() {
        assert_eq!(f(0.0), "0");
        assert_eq!(f(-0.0), "0");
        assert_eq!(f(1.5), "1.5");
        assert_eq!(f(-2.0), "-2");
        assert_eq!(f(1e21), "1e+21");
        assert_eq!(f(1e20), "100000000000000000000");
        assert_eq!(f(1e-7), "1e-7");
        assert_eq!(f(0.000001), "0.000001");
        assert_eq!(f(f64::MAX), "1.7976931348623157e+308");
        assert_eq!(f(5e-324), "5e-324");
        assert_eq!(f(f32_to_f64(0.1f32)), "0.1");
        assert!(f32_to_f64(f32::NAN).is_nan());
    }

    /// The short-decimal fast path writes exactly what the shortest round-trip
    /// formatter writes, on decimals it takes and on arbitrary bit patterns.
    #[test]
    fn short_decimals_agree_with_the_formatter() {
        let slow = |x: f64| f64_str(&mut ryu_js::Buffer::new(), x).to_owned();
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut taken = 0;
        let mut check = |x: f64| {
            let mut fast = String::new();
            if push_short_decimal(&mut fast, x) {
                taken += 1;
                assert_eq!(fast, slow(x), "{x:e}");
            } else {
                assert!(fast.is_empty(), "{x:e}");
            }
        };
        for _ in 0..200_000 {
            let r = next();
            let k = (r % 7) as i32;
            let m = (next() >> (r % 64)) as f64;
            let x = m / 10f64.powi(k);
            check(x);
            check(-x);
            check(f64::from_bits(next()));
        }
        for x in [
            0.1,
            0.2,
            0.3,
            1.005,
            2.675,
            1e-4,
            1.5e-4,
            9.9995,
            0.0001,
            123456.7891,
            2251799813685247.0,
            2251799813685248.0,
            225179981368524.7,
            4503599627370495.5,
            1e15,
            999999999999999.9,
            0.30000000000000004,
        ] {
            check(x);
            check(-x);
        }
        assert!(taken > 100_000, "the fast path took only {taken} values");
    }

    /// Each fast path writes exactly what the formatter writes for the value the
    /// token decodes to, or declines.
    #[test]
    fn token_fast_paths_agree_with_the_formatter() {
        let tokens = [
            "0",
            "-0",
            "7",
            "-7",
            "42",
            "123456789012345678",
            "999999999999999999",
            "1234567890123456789",
            "-123456789012345678",
            "18446744073709551616",
            "1.0",
            "-0.0",
            "0.5",
            "1.50",
            "1e3",
            "1E+3",
            "-1.25e+2",
            "1e21",
            "1e-7",
            "0.000001",
            "2.5e-8",
            "1e400",
            "-1e400",
            "1e-400",
            "3.14159265358979323846",
        ];
        for token in tokens {
            let mut fast = String::new();
            let took = if token.contains(['.', 'e', 'E']) {
                push_float_token(&mut fast, token)
            } else {
                push_int_token(&mut fast, token)
            };
            let value = crate::decode_value(token).expect("a number");
            match value.as_number() {
                Some(n) => {
                    let mut slow = String::new();
                    n.write_canonical(&mut slow);
                    if took {
                        assert_eq!(fast, slow, "token {token}");
                    } else {
                        assert!(fast.is_empty(), "token {token}");
                    }
                }
                None => assert!(!took, "{token} decodes to {value:?}"),
            }
        }
        // Plain tokens up to 18 digits are always taken.
        assert!(push_int_token(&mut String::new(), "999999999999999999"));
    }
}
