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
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&self.next_u64().to_be_bytes());
        bytes[8..].copy_from_slice(&self.next_u64().to_be_bytes());
        bytes[6] = (bytes[6] & 0x0f) | 0x40; // version 4
        bytes[8] = (bytes[8] & 0x3f) | 0x80; // RFC 4122 variant
        let mut s = String::with_capacity(36);
        for (i, b) in bytes.iter().enumerate() {
            if matches!(i, 4 | 6 | 8 | 10) {
                s.push('-');
            }
            s.push(char::from(HEX[usize::from(b >> 4)]));
            s.push(char::from(HEX[usize::from(b & 0x0f)]));
        }
        s
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

    /// The uuid is the 16 random bytes in hex, grouped 8-4-4-4-12, with the version nibble 4
    /// and the RFC 4122 variant bits — the same text as formatting each byte with `{:02x}`.
    #[test]
    fn uuid_matches_byte_formatting() {
        for seed in [0, 1, 7, 42, u64::MAX] {
            let mut r = Rng::new(seed);
            let mut q = r.clone();
            let (a, b) = (q.next_u64(), q.next_u64());
            let mut bytes: Vec<u8> = a.to_be_bytes().into_iter().chain(b.to_be_bytes()).collect();
            bytes[6] = (bytes[6] & 0x0f) | 0x40;
            bytes[8] = (bytes[8] & 0x3f) | 0x80;
            let hex: String = bytes.iter().map(|x| format!("{x:02x}")).collect();
            let want = format!(
                "{}-{}-{}-{}-{}",
                &hex[0..8],
                &hex[8..12],
                &hex[12..16],
                &hex[16..20],
                &hex[20..32]
            );
            assert_eq!(r.uuid(), want);
        }
    }
}
