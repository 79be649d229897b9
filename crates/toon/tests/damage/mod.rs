//! Damaged variants of test inputs, deterministic per seed.

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
