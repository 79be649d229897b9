//! Damaged variants of test inputs, deterministic per seed, and the harness that runs a
//! differential check over an input in both modes and over a case with its variants.

use toon::DecodeOptions;
use toon_conformance::{Case, Category};

/// A differential check of one input under some options.
pub type Check = fn(&[u8], &DecodeOptions) -> Result<(), String>;

/// `check` in strict and non-strict mode, with `indent`.
pub fn in_both_modes(check: Check, bytes: &[u8], indent: usize) -> Result<(), String> {
    for strict in [true, false] {
        let options = DecodeOptions::default()
            .with_strict(strict)
            .with_indent_size(indent);
        check(bytes, &options).map_err(|e| format!("strict={strict} indent={indent}: {e}"))?;
    }
    Ok(())
}

/// `check` on a conformance case's TOON text with the case's options, in both modes,
/// and on `n` damaged variants of it (seeded by the text's length plus `salt`).
pub fn case_and_variants(check: Check, case: &Case, salt: u64, n: usize) -> Result<(), String> {
    let text = match case.category {
        Category::Decode => case.toon_input(),
        Category::Encode => case.expected_toon(),
    };
    let indent = case.options.indent.unwrap_or(2).max(1);
    let mut options = DecodeOptions::default().with_indent_size(indent);
    if let Some(s) = case.options.strict {
        options.strict = s;
    }
    check(text.as_bytes(), &options)?;
    in_both_modes(check, text.as_bytes(), indent)?;
    for v in variants(text.as_bytes(), text.len() as u64 + salt, n) {
        in_both_modes(check, &v, indent)
            .map_err(|e| format!("variant {:?}: {e}", String::from_utf8_lossy(&v)))?;
    }
    Ok(())
}

/// A small deterministic generator for damage.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self, bound: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        if bound == 0 {
            0
        } else {
            ((self.0 >> 33) as usize) % bound
        }
    }
}

/// Damaged variants of `bytes`: truncations, deleted and duplicated lines, shifted
/// indentation, blank lines, tabs, invalid UTF-8, swapped bytes.
pub fn variants(bytes: &[u8], seed: u64, n: usize) -> Vec<Vec<u8>> {
    let mut rng = Lcg(seed);
    let mut out = Vec::new();
    let lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    for _ in 0..n {
        let mut v: Vec<u8>;
        match rng.next(9) {
            0 => v = bytes[..rng.next(bytes.len() + 1)].to_vec(),
            1..=4 => {
                let mut ls: Vec<Vec<u8>> = lines.iter().map(|l| l.to_vec()).collect();
                if ls.is_empty() {
                    continue;
                }
                let i = rng.next(ls.len());
                match rng.next(6) {
                    0 => {
                        ls.remove(i);
                    }
                    1 => {
                        let l = ls[i].clone();
                        ls.insert(i, l);
                    }
                    2 => {
                        ls[i].splice(0..0, *b"  ");
                    }
                    3 => ls.insert(i, Vec::new()),
                    4 => {
                        ls[i].splice(0..0, *b"\t");
                    }
                    _ => {
                        let n = ls[i].iter().take_while(|&&b| b == b' ').count();
                        let k = n.min(rng.next(3) + 1);
                        ls[i].drain(..k);
                    }
                }
                v = ls.join(&b'\n');
            }
            5 => {
                v = bytes.to_vec();
                let at = rng.next(v.len() + 1);
                v.insert(at, [0xff, 0xc3, b'"', b',', b':', b'-'][rng.next(6)]);
            }
            6 => {
                v = bytes.to_vec();
                if !v.is_empty() {
                    let at = rng.next(v.len());
                    v.remove(at);
                }
            }
            7 => {
                v = bytes.to_vec();
                if v.len() > 1 {
                    let at = rng.next(v.len() - 1);
                    v.swap(at, at + 1);
                }
            }
            _ => {
                v = bytes.to_vec();
                let at = rng.next(v.len() + 1);
                let s: &[u8] = [
                    &b"[2]"[..],
                    b"{a,b}",
                    b"- ",
                    b"\r\n",
                    b"\n\n",
                    b"\xef\xbb\xbf",
                ][rng.next(6)];
                v.splice(at..at, s.iter().copied());
            }
        }
        out.push(v);
    }
    out
}
