//! Number formatting shared by the `toon stats` table and the benchmark report.

/// `1234567` as `1,234,567`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The change from `baseline` to `size` in percent with one decimal: `-41.7%` for a
/// smaller size, `+5.0%` for a larger one, `0.0%` for equal.
pub fn percent_change(baseline: usize, size: usize) -> String {
    let saved = savings_percent(baseline, size);
    if size > baseline {
        format!("+{:.1}%", -saved)
    } else if size < baseline {
        format!("-{saved:.1}%")
    } else {
        "0.0%".to_owned()
    }
}

/// `1 token` or `n tokens`, with thousands separators (`1,260 tokens`).
pub fn tokens(n: usize) -> String {
    if n == 1 {
        "1 token".to_owned()
    } else {
        format!("{} tokens", thousands(n))
    }
}

/// How much smaller `size` is than `baseline`, in percent of `baseline` (negative when
/// larger); 0 for an empty baseline.
pub fn savings_percent(baseline: usize, size: usize) -> f64 {
    if baseline == 0 {
        return 0.0;
    }
    (baseline as f64 - size as f64) / baseline as f64 * 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_by_thousands() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(15337), "15,337");
        assert_eq!(thousands(1234567), "1,234,567");
    }

    #[test]
    fn percent_changes_carry_their_sign() {
        assert_eq!(percent_change(15337, 8937), "-41.7%");
        assert_eq!(percent_change(100, 105), "+5.0%");
        assert_eq!(percent_change(100, 100), "0.0%");
        assert_eq!(percent_change(0, 0), "0.0%");
    }
}
