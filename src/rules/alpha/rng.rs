//! The match's random numbers: `SplitMix64`, small, fast and plain data (it
//! is saved with the match, so a match in progress serialises whole).

use serde::{Deserialize, Serialize};

/// A seeded generator (`SplitMix64`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Rng64(u64);

impl Rng64 {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng64 {
        Rng64(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// Shuffles a slice in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut r = Rng64::new(7);
        let mut seen = [0u32; 5];
        for _ in 0..1000 {
            seen[r.below(5)] += 1;
        }
        assert!(seen.iter().all(|&c| c > 150), "{seen:?}");
        assert_eq!(r.below(0), 0);
    }

    #[test]
    fn the_same_seed_gives_the_same_shuffle() {
        let (mut a, mut b) = (Rng64::new(3), Rng64::new(3));
        let (mut x, mut y): (Vec<u32>, Vec<u32>) = ((0..32).collect(), (0..32).collect());
        a.shuffle(&mut x);
        b.shuffle(&mut y);
        assert_eq!(x, y);
        assert_ne!(x, (0..32).collect::<Vec<_>>());
    }
}
