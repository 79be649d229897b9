//! A small deterministic random number generator (SplitMix64) for the datasets.
//!
//! Written here rather than taken from a crate so the datasets can never change with a
//! dependency upgrade: the same seed gives the same data on every machine, forever.

/// SplitMix64 (Steele, Lea and Flood, 2014): a 64-bit state advanced by a fixed odd
/// constant and mixed by two multiply-xorshift rounds. Fast, tiny and statistically
/// good enough for test data; not for cryptography.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0), by multiply-and-shift.
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// A number in `lo..=hi` (`lo` when `hi < lo`).
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        if hi <= lo {
            return lo;
        }
        let span = hi.abs_diff(lo).saturating_add(1);
        lo.wrapping_add(self.below(span) as i64)
    }

    /// A float in `[0, 1)` with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// One item of a non-empty array, uniformly.
    pub fn pick<'a, T, const N: usize>(&mut self, items: &'a [T; N]) -> &'a T {
        self.pick_indexed(items).1
    }

    /// One item of a non-empty array, uniformly, with its index.
    pub fn pick_indexed<'a, T, const N: usize>(&mut self, items: &'a [T; N]) -> (usize, &'a T) {
        const { assert!(N > 0, "pick needs a non-empty array") };
        // `below(N)` is always less than N, so the index is in bounds.
        let i = self.below(N as u64) as usize;
        (i, &items[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_splitmix64_reference_sequence() {
        // First outputs of the reference C implementation for seed 0.
        let mut rng = Rng::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(rng.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn same_seed_same_sequence() {
        let (mut a, mut b) = (Rng::new(42), Rng::new(42));
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
    }

    #[test]
    fn ranges_stay_in_bounds_and_cover_them() {
        let mut rng = Rng::new(7);
        let mut seen = [false; 5];
        for _ in 0..1000 {
            let x = rng.range(-2, 2);
            assert!((-2..=2).contains(&x));
            seen[(x + 2) as usize] = true;
            let u = rng.unit();
            assert!((0.0..1.0).contains(&u));
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(rng.range(5, 5), 5);
        assert_eq!(rng.range(5, 1), 5);
        assert_eq!(rng.below(0), 0);
    }
}
