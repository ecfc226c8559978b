//! The one seeded generator of the generated traffic (SplitMix64): the bench's
//! transcripts and the SDK spellings draw from it, so the same seed gives the
//! same bytes on every machine.

/// A small, fast, reproducible generator (SplitMix64).
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (`bound` > 0).
    pub fn below(&mut self, bound: u64) -> u64 {
        self.next_u64() % bound.max(1)
    }

    /// A length between `low` and `high`, log-uniformly distributed.
    pub fn log_uniform(&mut self, low: u64, high: u64) -> u64 {
        let (low, high) = (low.max(1) as f64, high.max(low.max(1)) as f64);
        let unit = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        (low * (high / low).powf(unit)).round() as u64
    }

    /// One of `items`, each as likely.
    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}
