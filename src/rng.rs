//! The seeded random source: SplitMix64, the only randomness in the simulation.

/// A small, fast, seedable PRNG (SplitMix64). Same seed → same sequence on every platform.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

/// Kubernetes' `utilrand` alphabet for generated names (no vowels, no confusable characters).
pub const NAME_ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        // Lemire's multiply-shift; the tiny bias is irrelevant here and keeps it deterministic.
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// Uniform in `[0, 1)`.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// `utilrand.String(n)`: the random suffix of generated names.
    pub fn name_suffix(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| NAME_ALPHABET[self.below(NAME_ALPHABET.len() as u64) as usize] as char)
            .collect()
    }

    /// A version-4 UUID string, as the API server assigns to `metadata.uid`.
    pub fn uuid(&mut self) -> String {
        let a = self.next_u64();
        let b = self.next_u64();
        let bytes: Vec<u8> = a.to_be_bytes().into_iter().chain(b.to_be_bytes()).collect();
        let mut h: Vec<String> = bytes.iter().map(|x| format!("{x:02x}")).collect();
        h[6] = format!("4{}", &h[6][1..]);
        let v = (bytes[8] & 0x3f) | 0x80;
        h[8] = format!("{v:02x}");
        let s = h.concat();
        format!(
            "{}-{}-{}-{}-{}",
            &s[0..8],
            &s[8..12],
            &s[12..16],
            &s[16..20],
            &s[20..32]
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_well_formed() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        assert_eq!(a.uuid(), b.uuid());
        assert_eq!(a.name_suffix(5), b.name_suffix(5));
        let u = Rng::new(1).uuid();
        assert_eq!(u.len(), 36);
        assert_eq!(&u[14..15], "4");
        let s = Rng::new(3).name_suffix(5);
        assert!(s.bytes().all(|c| NAME_ALPHABET.contains(&c)));
        assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
    }
}
