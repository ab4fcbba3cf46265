//! Stable sorting through one shared instantiation of the standard library's sort.
//!
//! `slice::sort_by` is generic over the element type *and* the comparator, so every call site
//! with its own closure gets its own copy of driftsort (several KB of wasm each). These helpers
//! sort a vector of positions with a `dyn` comparator instead — one copy of the sort for the
//! whole crate — and then move the elements into place. A stable sort's result is determined by
//! the comparator alone (for a comparator that is a total preorder, which every caller's is), so
//! the order is exactly what `sort_by` gives.

use std::cmp::Ordering;
use std::collections::BTreeMap;

/// `v.sort_by(cmp)`, with the same (stable) result.
pub fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let mut order: Vec<usize> = (0..v.len()).collect();
    {
        let items: &[T] = v;
        sort_positions(&mut order, &mut |a, b| cmp(&items[a], &items[b]));
    }
    permute(v, &mut order);
}

/// `v.sort_by_key(key)`, with the same (stable) result.
pub fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// `v.sort()`, with the same (stable) result.
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// `items.into_iter().collect::<BTreeMap<_, _>>()` by inserting one pair after the other: the
/// same map (a later pair's value replaces an earlier one's), without the sort and bulk build
/// that `FromIterator` instantiates for every key and value type.
pub fn btree_map<K: Ord, V>(items: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    let mut map = BTreeMap::new();
    for (k, v) in items {
        map.insert(k, v);
    }
    map
}

/// `.collect::<BTreeMap<_, _>>()` as a method: [`btree_map`].
pub trait CollectBTreeMap<K: Ord, V>: Iterator<Item = (K, V)> + Sized {
    fn collect_btree_map(self) -> BTreeMap<K, V> {
        btree_map(self)
    }
}

impl<K: Ord, V, I: Iterator<Item = (K, V)>> CollectBTreeMap<K, V> for I {}

#[inline(never)]
fn sort_positions(order: &mut [usize], cmp: &mut dyn FnMut(usize, usize) -> Ordering) {
    order.sort_by(|&a, &b| cmp(a, b));
}

/// Rearranges `v` so that position `i` holds the element that was at `order[i]`, by following
/// the permutation's cycles with swaps (`order` is left as the identity).
fn permute<T>(v: &mut [T], order: &mut [usize]) {
    for start in 0..order.len() {
        let mut at = start;
        loop {
            let from = order[at];
            order[at] = at;
            if from == start || from == at {
                break;
            }
            v.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::unnecessary_sort_by)] // the point is to compare with `slice::sort_by`
    fn matches_slice_sort_by_on_ties_and_permutations() {
        let mut seed = 7u64;
        for n in 0..60 {
            let mut a: Vec<(u8, usize)> = (0..n)
                .map(|i| {
                    seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    (((seed >> 33) % 5) as u8, i)
                })
                .collect();
            let mut b = a.clone();
            a.sort_by(|x, y| x.0.cmp(&y.0));
            sort_by(&mut b, |x, y| x.0.cmp(&y.0));
            assert_eq!(a, b);
            let mut c = b.clone();
            c.reverse();
            let mut d = c.clone();
            c.sort_by_key(|x| x.0);
            sort_by_key(&mut d, |x| x.0);
            assert_eq!(c, d);
            let mut e: Vec<String> = d.iter().map(|x| format!("{}{}", x.0, x.1 % 3)).collect();
            let mut f = e.clone();
            e.sort();
            sort(&mut f);
            assert_eq!(e, f);
            let pairs: Vec<(u8, usize)> = d.clone();
            assert_eq!(
                btree_map(pairs.clone()),
                pairs.into_iter().collect::<BTreeMap<_, _>>()
            );
        }
    }
}
