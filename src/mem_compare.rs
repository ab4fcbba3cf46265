//! A word-at-a-time `memcmp` for the WebAssembly build (the builtin one compares byte by byte).
//!
//! String ordering and equality — store keys, B-tree lookups by name, label comparisons — end in
//! `memcmp`. On `wasm32-unknown-unknown` the symbol comes from `compiler_builtins`, a weak
//! definition that loops over single bytes; this module gives the page a strong definition that
//! compares eight bytes at a time. Natively the C library's vectorised `memcmp` stays in use;
//! [`compare_bytes`] (the algorithm) is tested natively against slice ordering.

/// `memcmp` on two equally long byte strings: negative, zero or positive as the first differing
/// byte of `a` is smaller than, absent from, or larger than that of `b`.
///
/// Concrete example: `compare_bytes(b"default/web-1", b"default/web-2") < 0`; the first eight
/// bytes are compared as one word, the rest byte by byte after the first differing word.
pub fn compare_bytes(a: &[u8], b: &[u8]) -> i32 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut i = 0;
    while i + 8 <= n {
        let x = u64::from_le_bytes([
            a[i],
            a[i + 1],
            a[i + 2],
            a[i + 3],
            a[i + 4],
            a[i + 5],
            a[i + 6],
            a[i + 7],
        ]);
        let y = u64::from_le_bytes([
            b[i],
            b[i + 1],
            b[i + 2],
            b[i + 3],
            b[i + 4],
            b[i + 5],
            b[i + 6],
            b[i + 7],
        ]);
        if x != y {
            // Little-endian: the lowest differing bit belongs to the first differing byte.
            let k = i + ((x ^ y).trailing_zeros() / 8) as usize;
            return i32::from(a[k]) - i32::from(b[k]);
        }
        i += 8;
    }
    while i < n {
        if a[i] != b[i] {
            return i32::from(a[i]) - i32::from(b[i]);
        }
        i += 1;
    }
    0
}

/// The page's `memcmp` (overrides `compiler_builtins`' weak byte loop).
///
/// # Safety
/// As C's `memcmp`: `s1` and `s2` point to at least `n` readable bytes.
#[cfg(target_arch = "wasm32")]
#[allow(unsafe_code)]
#[no_mangle]
pub unsafe extern "C" fn memcmp(s1: *const u8, s2: *const u8, n: usize) -> i32 {
    if n == 0 {
        return 0;
    }
    // SAFETY: the caller guarantees `n` readable bytes at each pointer.
    let (a, b) = unsafe {
        (
            std::slice::from_raw_parts(s1, n),
            std::slice::from_raw_parts(s2, n),
        )
    };
    compare_bytes(a, b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Ordering;

    fn sign(x: i32) -> Ordering {
        x.cmp(&0)
    }

    #[test]
    fn agrees_with_slice_ordering_on_random_and_prefix_sharing_inputs() {
        let mut rng = crate::rng::Rng::new(11);
        for _ in 0..20_000 {
            let r = rng.next_u64();
            let n = (r % 40) as usize;
            let a: Vec<u8> = (0..n).map(|_| (rng.next_u64() % 4) as u8 + b'a').collect();
            let mut b = a.clone();
            if n > 0 && r % 3 != 0 {
                let k = (rng.next_u64() as usize) % n;
                b[k] = (rng.next_u64() % 256) as u8;
            }
            assert_eq!(sign(compare_bytes(&a, &b)), a.cmp(&b), "{a:?} vs {b:?}");
        }
    }

    #[test]
    fn returns_the_difference_of_the_first_differing_bytes() {
        assert_eq!(compare_bytes(b"default/web-1", b"default/web-2"), -1);
        assert_eq!(compare_bytes(b"kube-system/a", b"default/zzzzz"), 7);
        assert_eq!(compare_bytes(b"\xffabcdefgh", b"\x00abcdefgh"), 255);
        assert_eq!(compare_bytes(b"same-prefix-0123", b"same-prefix-0123"), 0);
        assert_eq!(compare_bytes(b"", b""), 0);
    }
}
