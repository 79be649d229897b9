//! Short pieces appended to the output without a call to `memcpy`.
//!
//! `String::push_str` copies a slice of variable length, which compiles to a call
//! to the C library's `memcpy`; for the keys, short strings and numbers that make up
//! most of a TOON line, the call costs more than the copy. A piece of at most
//! 16 bytes is dispatched on its length to a copy of that constant length
//! (a few moves); longer pieces go through `push_str`.

/// Appends `s` to `out` (as `out.push_str(s)`).
#[inline]
pub(crate) fn push_short(out: &mut String, s: &str) {
    // Each arm copies a slice of constant length (`s.len()` is that length), so the
    // copy is a few moves; slicing at the length cannot fail.
    macro_rules! by_length {
        ($($n:literal)*) => {
            match s.len() {
                $($n => out.push_str(&s[..$n]),)*
                _ => out.push_str(s),
            }
        };
    }
    by_length!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_length_is_copied_whole() {
        let text = "aé€𝄞bcdefghijklmnopqrstuvwxyz0123456789";
        let mut expected = String::from("x");
        let mut out = String::from("x");
        for (start, _) in text.char_indices() {
            for (end, _) in text[start..].char_indices().skip(1) {
                let piece = &text[start..start + end];
                push_short(&mut out, piece);
                expected.push_str(piece);
            }
            push_short(&mut out, &text[start..]);
            expected.push_str(&text[start..]);
        }
        push_short(&mut out, "");
        assert_eq!(out, expected);
        assert!(text.len() > 16);
    }
}
