//! A size-class front end for the WebAssembly build's allocator: small blocks from free lists.
//!
//! The simulation allocates and frees hundreds of thousands of small blocks (names, labels,
//! conditions, object versions) per simulated hour. `dlmalloc`, the Rust default on
//! `wasm32-unknown-unknown`, does binning, splitting and coalescing on every call; this front end
//! serves blocks of up to [`MAX_SMALL`] bytes from one free list per 16-byte size class instead,
//! carving new blocks out of 64 KiB chunks taken from the backing allocator, and hands larger or
//! over-aligned requests straight to the backing allocator. Freed small blocks stay on their
//! class's list (memory is not returned to the backing allocator), which suits a simulation
//! whose working set is steady.
//!
//! It is not thread-safe: it is installed as the global allocator only on `wasm32` (one thread);
//! natively the tests exercise a private instance from a single thread.

#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout};
use std::cell::UnsafeCell;
use std::ptr;

/// Size-class granularity and the alignment every small block has.
pub const GRANULE: usize = 16;
/// The largest request served from the free lists; larger ones go to the backing allocator.
pub const MAX_SMALL: usize = 512;
const CLASSES: usize = MAX_SMALL / GRANULE;
/// Bytes taken from the backing allocator at a time for new small blocks.
pub const CHUNK: usize = 64 * 1024;

/// The size class of a small request (`None` for a large or over-aligned one).
///
/// Concrete example: sizes 1–16 → class 0 (16-byte blocks), 17–32 → class 1, 512 → class 31,
/// 513 → `None`.
#[inline(always)]
pub fn size_class(layout: Layout) -> Option<usize> {
    if layout.size() > MAX_SMALL || layout.align() > GRANULE {
        return None;
    }
    Some(layout.size().max(1).div_ceil(GRANULE) - 1)
}

struct State {
    /// Head of each class's free list; a free block stores the next block's address.
    free: [*mut u8; CLASSES],
    /// The unused rest of the current chunk.
    bump: *mut u8,
    end: *mut u8,
}

/// The allocator: small blocks from per-class free lists, the rest from `A`.
pub struct SizeClassAlloc<A> {
    backing: A,
    state: UnsafeCell<State>,
}

// SAFETY: only ever used from one thread: the global instance exists only on wasm32 without
// threads, and tests use private instances from the test's own thread.
unsafe impl<A: Sync> Sync for SizeClassAlloc<A> {}

impl<A> SizeClassAlloc<A> {
    /// A front end over `backing`.
    pub const fn new(backing: A) -> Self {
        SizeClassAlloc {
            backing,
            state: UnsafeCell::new(State {
                free: [ptr::null_mut(); CLASSES],
                bump: ptr::null_mut(),
                end: ptr::null_mut(),
            }),
        }
    }
}

impl<A: GlobalAlloc> SizeClassAlloc<A> {
    /// A block of class `c`: popped from its free list, else carved from the current chunk.
    #[inline(always)]
    unsafe fn alloc_small(&self, c: usize) -> *mut u8 {
        // SAFETY: single-threaded (see the `Sync` impl); no reference to the state outlives
        // this call.
        let st = unsafe { &mut *self.state.get() };
        let head = st.free[c];
        if !head.is_null() {
            // SAFETY: a free block holds the address of the next one in its first word.
            st.free[c] = unsafe { head.cast::<*mut u8>().read() };
            return head;
        }
        let size = (c + 1) * GRANULE;
        if (st.end as usize) - (st.bump as usize) < size {
            // SAFETY: CHUNK and GRANULE make a valid, non-zero layout.
            let chunk = unsafe {
                self.backing
                    .alloc(Layout::from_size_align_unchecked(CHUNK, GRANULE))
            };
            if chunk.is_null() {
                return chunk;
            }
            st.bump = chunk;
            // SAFETY: within (one past the end of) the chunk just allocated.
            st.end = unsafe { chunk.add(CHUNK) };
        }
        let p = st.bump;
        // SAFETY: at least `size` bytes remain in the chunk (checked above).
        st.bump = unsafe { p.add(size) };
        p
    }

    #[inline(always)]
    unsafe fn dealloc_small(&self, p: *mut u8, c: usize) {
        // SAFETY: single-threaded (see the `Sync` impl).
        let st = unsafe { &mut *self.state.get() };
        // SAFETY: `p` is a block of at least GRANULE bytes, aligned to GRANULE, no longer in use.
        unsafe { p.cast::<*mut u8>().write(st.free[c]) };
        st.free[c] = p;
    }
}

// SAFETY: small blocks are GRANULE-aligned and at least as large as requested; every other
// request is forwarded to the backing allocator with its own layout.
unsafe impl<A: GlobalAlloc> GlobalAlloc for SizeClassAlloc<A> {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        match size_class(layout) {
            // SAFETY: forwarded contract.
            Some(c) => unsafe { self.alloc_small(c) },
            None => unsafe { self.backing.alloc(layout) },
        }
    }

    #[inline]
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        match size_class(layout) {
            // SAFETY: `p` came from `alloc` with the same layout, hence the same class.
            Some(c) => unsafe { self.dealloc_small(p, c) },
            None => unsafe { self.backing.dealloc(p, layout) },
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        match size_class(layout) {
            Some(c) => {
                // SAFETY: a fresh block of at least `layout.size()` bytes (or null).
                let p = unsafe { self.alloc_small(c) };
                if !p.is_null() {
                    unsafe { ptr::write_bytes(p, 0, layout.size()) };
                }
                p
            }
            None => unsafe { self.backing.alloc_zeroed(layout) },
        }
    }

    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY (whole body): the caller guarantees `p` was allocated with `layout` and that
        // `new_size` with `layout.align()` is a valid layout.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        match (size_class(layout), size_class(new_layout)) {
            (Some(a), Some(b)) if a == b => p,
            (None, None) => unsafe { self.backing.realloc(p, layout, new_size) },
            _ => {
                let q = unsafe { self.alloc(new_layout) };
                if !q.is_null() {
                    unsafe {
                        ptr::copy_nonoverlapping(p, q, layout.size().min(new_size));
                        self.dealloc(p, layout);
                    }
                }
                q
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::alloc::System;

    #[test]
    fn size_classes_round_up_to_the_granule() {
        let l = |s, a| Layout::from_size_align(s, a).unwrap();
        assert_eq!(size_class(l(0, 1)), Some(0));
        assert_eq!(size_class(l(1, 1)), Some(0));
        assert_eq!(size_class(l(16, 8)), Some(0));
        assert_eq!(size_class(l(17, 8)), Some(1));
        assert_eq!(size_class(l(512, 16)), Some(CLASSES - 1));
        assert_eq!(size_class(l(513, 1)), None);
        assert_eq!(
            size_class(l(8, 32)),
            None,
            "over-aligned requests go to the backing"
        );
    }

    /// A seeded stress run: blocks of random sizes are allocated, filled with a pattern, grown
    /// or shrunk, and freed in random order; every live block keeps its contents, is aligned,
    /// and no two live blocks overlap.
    #[test]
    fn random_alloc_realloc_free_keeps_blocks_intact_and_disjoint() {
        let a = SizeClassAlloc::new(System);
        let mut rng = crate::rng::Rng::new(7);
        let mut live: Vec<(*mut u8, Layout, u8)> = vec![];
        for step in 0..20_000u32 {
            let r = rng.next_u64();
            if live.is_empty() || r % 3 != 0 {
                let size = match r % 10 {
                    0 => 513 + (r as usize >> 8) % 3000,
                    _ => (r as usize >> 8) % 300,
                };
                let align = [1, 8, 16, 32][(r >> 40) as usize % 4];
                let layout = Layout::from_size_align(size.max(1), align).unwrap();
                let p = unsafe { a.alloc(layout) };
                assert!(!p.is_null());
                assert_eq!(p as usize % align, 0);
                let tag = step as u8;
                unsafe { ptr::write_bytes(p, tag, layout.size()) };
                live.push((p, layout, tag));
            } else {
                let i = (r as usize >> 8) % live.len();
                let (p, layout, tag) = live.swap_remove(i);
                for k in 0..layout.size() {
                    assert_eq!(unsafe { *p.add(k) }, tag, "block contents changed");
                }
                if r % 2 == 0 {
                    let new_size = 1 + (r as usize >> 20) % 1200;
                    let q = unsafe { a.realloc(p, layout, new_size) };
                    assert!(!q.is_null());
                    let keep = layout.size().min(new_size);
                    for k in 0..keep {
                        assert_eq!(unsafe { *q.add(k) }, tag, "realloc lost contents");
                    }
                    let nl = Layout::from_size_align(new_size, layout.align()).unwrap();
                    unsafe { ptr::write_bytes(q, tag, new_size) };
                    live.push((q, nl, tag));
                } else {
                    unsafe { a.dealloc(p, layout) };
                }
            }
            if step % 1000 == 0 {
                let mut spans: Vec<(usize, usize)> = live
                    .iter()
                    .map(|(p, l, _)| (*p as usize, *p as usize + l.size()))
                    .collect();
                spans.sort_unstable();
                for w in spans.windows(2) {
                    assert!(w[0].1 <= w[1].0, "live blocks overlap");
                }
            }
        }
        for (p, layout, _) in live {
            unsafe { a.dealloc(p, layout) };
        }
    }

    #[test]
    fn freed_small_blocks_are_reused_before_new_memory() {
        let a = SizeClassAlloc::new(System);
        let l = Layout::from_size_align(24, 8).unwrap();
        let p = unsafe { a.alloc(l) };
        let q = unsafe { a.alloc(l) };
        unsafe { a.dealloc(p, l) };
        let r = unsafe { a.alloc(l) };
        assert_eq!(r, p, "the class's free list is used first");
        let z = unsafe { a.alloc_zeroed(l) };
        assert!((0..24).all(|k| unsafe { *z.add(k) } == 0));
        unsafe {
            a.dealloc(q, l);
            a.dealloc(r, l);
            a.dealloc(z, l);
        }
    }
}
