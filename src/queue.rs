//! Per-controller work queues: deduplicated keys, `AddAfter` delays and rate-limited retries
//! (client-go `workqueue`), all on the virtual clock.

use crate::api::{Duration, Time};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// `workqueue.NewTypedRateLimitingQueue` with `DefaultControllerRateLimiter`: the larger of a
/// per-item exponential back-off (5 ms doubling, capped at 1000 s) and an overall token bucket
/// (10 retries a second, bursts of 100) shared by every key of the queue.
#[derive(Clone, Debug, Default)]
pub struct WorkQueue {
    ready: VecDeque<String>,
    queued: BTreeSet<String>,
    /// (due time, sequence) → key; the sequence keeps equal times in insertion order.
    delayed: BTreeMap<(Time, u64), String>,
    /// key → earliest pending due time (a later AddAfter of the same key is dropped, as upstream).
    delayed_keys: BTreeMap<String, (Time, u64)>,
    failures: BTreeMap<String, u32>,
    seq: u64,
    /// The per-item exponential back-off's base and maximum delay when not the default
    /// controller rate limiter's ([`RATE_LIMIT_BASE`], [`RATE_LIMIT_MAX`]).
    rate_limit: Option<(Duration, Duration)>,
    /// The default limiter's token bucket: tokens left (negative when retries are booked ahead)
    /// and the time of the last reservation; `None` until the first rate-limited add (a full
    /// bucket).
    bucket: Option<(f64, Time)>,
}

/// `DefaultControllerRateLimiter`'s `BucketRateLimiter`: `rate.NewLimiter(rate.Limit(10), 100)`.
pub const BUCKET_QPS: f64 = 10.0;
/// The bucket's burst.
pub const BUCKET_BURST: f64 = 100.0;

/// `rate.Limiter.Reserve().Delay()` (golang.org/x/time/rate `reserveN` with `advance`) for a
/// bucket of [`BUCKET_QPS`] and [`BUCKET_BURST`] in state `bucket` at `now`: refills by the time
/// since the last reservation (capped at the burst), takes one token, and waits for the
/// shortfall when the count goes negative. Returns the new state and the delay.
pub fn bucket_reserve(bucket: Option<(f64, Time)>, now: Time) -> ((f64, Time), Duration) {
    let (tokens, last) = bucket.unwrap_or((0.0, Time(i64::MIN)));
    let elapsed_ms = if now < last {
        0
    } else {
        now.0.saturating_sub(last.0)
    };
    // `time.Duration.Seconds()`: whole seconds plus the nanosecond remainder.
    let secs = (elapsed_ms / 1000) as f64 + ((elapsed_ms % 1000) * 1_000_000) as f64 / 1e9;
    let tokens = (tokens + secs * BUCKET_QPS).min(BUCKET_BURST) - 1.0;
    let wait_ns = if tokens < 0.0 {
        ((-tokens / BUCKET_QPS) * 1e9) as i64
    } else {
        0
    };
    ((tokens, now), Duration(wait_ns / 1_000_000))
}

pub const RATE_LIMIT_BASE: Duration = Duration::from_millis(5);
pub const RATE_LIMIT_MAX: Duration = Duration::from_secs(1000);

impl WorkQueue {
    pub fn new() -> Self {
        Self::default()
    }

    /// A queue whose retries back off as `workqueue.NewTypedItemExponentialFailureRateLimiter(
    /// base, max)`: `base` doubling per failure of the key, capped at `max`.
    pub fn with_rate_limit(base: Duration, max: Duration) -> Self {
        WorkQueue {
            rate_limit: Some((base, max)),
            ..Self::default()
        }
    }

    /// `Add`: enqueue now unless already queued.
    pub fn add(&mut self, key: &str) {
        if !self.queued.contains(key) {
            self.add_owned(key.to_string());
        }
    }

    /// [`add`](Self::add) for a key the caller has already built.
    pub fn add_owned(&mut self, key: String) {
        if !self.queued.contains(&key) {
            self.ready.push_back(key.clone());
            self.queued.insert(key);
        }
    }

    /// [`add`](Self::add) of the key `prefix` + `rest` (watch handlers' `pod:ns/name`), built
    /// with one allocation rather than through `format!`.
    pub fn add_prefixed(&mut self, prefix: &str, rest: &str) {
        self.add_owned([prefix, rest].concat());
    }

    /// `AddAfter`: enqueue at `now + d` (immediately when `d <= 0`). If the key is already
    /// waiting for an earlier time, the later request is dropped; an earlier one replaces it.
    pub fn add_after(&mut self, key: &str, d: Duration, now: Time) {
        if d.0 <= 0 {
            self.add(key);
            return;
        }
        let due = now + d;
        if let Some(&(t, s)) = self.delayed_keys.get(key) {
            if t <= due {
                return;
            }
            self.delayed.remove(&(t, s));
        }
        self.seq += 1;
        self.delayed.insert((due, self.seq), key.to_string());
        self.delayed_keys.insert(key.to_string(), (due, self.seq));
    }

    /// `AddRateLimited`: back off exponentially per key; with the default limiter, also wait
    /// for the queue's token bucket (`MaxOfRateLimiter` asks both, so both count the retry).
    pub fn add_rate_limited(&mut self, key: &str, now: Time) {
        let n = self.failures.entry(key.to_string()).or_insert(0);
        let exp = (*n).min(40);
        *n += 1;
        let (base, max) = self.rate_limit.unwrap_or((RATE_LIMIT_BASE, RATE_LIMIT_MAX));
        let mut delay = base.0.saturating_mul(1i64 << exp).min(max.0);
        if self.rate_limit.is_none() {
            let (state, wait) = bucket_reserve(self.bucket, now);
            self.bucket = Some(state);
            delay = delay.max(wait.0);
        }
        self.add_after(key, Duration(delay), now);
    }

    /// `Forget`: reset the key's back-off.
    pub fn forget(&mut self, key: &str) {
        self.failures.remove(key);
    }

    /// `NumRequeues`.
    pub fn num_requeues(&self, key: &str) -> u32 {
        self.failures.get(key).copied().unwrap_or(0)
    }

    /// Moves delayed keys due at or before `now` to the ready queue.
    pub fn promote_due(&mut self, now: Time) {
        while let Some((&(t, s), _)) = self.delayed.iter().next() {
            if t > now {
                break;
            }
            let key = self.delayed.remove(&(t, s)).expect("present");
            self.delayed_keys.remove(&key);
            self.add_owned(key);
        }
    }

    /// The next key to process.
    pub fn pop(&mut self) -> Option<String> {
        let k = self.ready.pop_front()?;
        self.queued.remove(&k);
        Some(k)
    }

    /// The ready keys in the order [`pop`](Self::pop) would return them.
    pub fn ready_keys(&self) -> impl Iterator<Item = &str> {
        self.ready.iter().map(String::as_str)
    }

    /// Whether `key` is in the ready queue (not only waiting for a delay).
    pub fn is_ready(&self, key: &str) -> bool {
        self.queued.contains(key)
    }

    /// Takes the `i`-th ready key out of turn (a queue with its own ordering, such as the
    /// scheduler's PrioritySort).
    pub fn pop_at(&mut self, i: usize) -> Option<String> {
        let k = self.ready.remove(i)?;
        self.queued.remove(&k);
        Some(k)
    }

    pub fn has_ready(&self) -> bool {
        !self.ready.is_empty()
    }

    /// When the earliest delayed key falls due.
    pub fn next_due(&self) -> Option<Time> {
        self.delayed.keys().next().map(|(t, _)| *t)
    }

    pub fn len(&self) -> usize {
        self.ready.len() + self.delayed.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Drops everything (a controller restart loses its queue) but the rate limiter's settings.
    pub fn clear(&mut self) {
        *self = WorkQueue {
            rate_limit: self.rate_limit,
            ..WorkQueue::default()
        };
    }
}

#[cfg(test)]
mod rate_limit_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ready_keys_can_be_taken_out_of_turn() {
        let mut q = WorkQueue::new();
        q.add("a");
        q.add("b");
        q.add_after("c", Duration::from_secs(1), Time(0));
        assert!(q.is_ready("a") && q.is_ready("b"));
        assert!(!q.is_ready("c"), "a delayed key is not ready");
        assert_eq!(q.ready_keys().collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(q.pop_at(1).as_deref(), Some("b"));
        assert!(!q.is_ready("b"));
        q.add("b");
        assert_eq!(
            q.ready_keys().collect::<Vec<_>>(),
            ["a", "b"],
            "re-added at the back"
        );
        assert_eq!(q.pop_at(5), None);
    }

    #[test]
    fn dedup_and_delays() {
        let t0 = Time(0);
        let mut q = WorkQueue::new();
        q.add("a");
        q.add("a");
        q.add("b");
        assert_eq!(q.pop().as_deref(), Some("a"));
        assert_eq!(q.pop().as_deref(), Some("b"));
        assert_eq!(q.pop(), None);
        q.add_after("c", Duration::from_secs(10), t0);
        q.add_after("c", Duration::from_secs(20), t0);
        assert_eq!(q.next_due(), Some(Time(10_000)));
        q.add_after("c", Duration::from_secs(5), t0);
        assert_eq!(q.next_due(), Some(Time(5_000)));
        q.promote_due(Time(4_999));
        assert!(!q.has_ready());
        q.promote_due(Time(5_000));
        assert_eq!(q.pop().as_deref(), Some("c"));
        assert_eq!(q.next_due(), None);
    }

    /// client-go TestItemExponentialFailureRateLimiter: 5ms, 10ms, 20ms, ... reset by Forget.
    #[test]
    fn exponential_backoff() {
        let mut q = WorkQueue::new();
        q.add_rate_limited("k", Time(0));
        assert_eq!(q.next_due(), Some(Time(5)));
        q.promote_due(Time(5));
        q.pop();
        q.add_rate_limited("k", Time(5));
        assert_eq!(q.next_due(), Some(Time(15)));
        assert_eq!(q.num_requeues("k"), 2);
        q.forget("k");
        assert_eq!(q.num_requeues("k"), 0);
        for _ in 0..60 {
            q.add_rate_limited("x", Time(0));
        }
        q.promote_due(Time(0));
    }
}
