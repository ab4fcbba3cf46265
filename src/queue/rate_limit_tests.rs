//! Ports of client-go's `ItemExponentialFailureRateLimiter` tests
//! (`staging/src/k8s.io/client-go/util/workqueue/default_rate_limiters_test.go`) against
//! [`WorkQueue::with_rate_limit`], the limiter the Job controller's queues use.

use super::*;

/// `limiter.When(key)`: the delay of the next `AddRateLimited` of `key` (the key is taken out of
/// the queue again so that the next call is not merged with this one).
fn when(q: &mut WorkQueue, key: &str) -> Duration {
    q.add_rate_limited(key, Time(0));
    let due = q.next_due().expect("requeued with a delay");
    q.promote_due(due);
    assert_eq!(q.pop().as_deref(), Some(key));
    due - Time(0)
}

// Port of TestItemExponentialFailureRateLimiter: per-key doubling from the base delay, counted
// per key, reset by Forget.
#[test]
fn item_exponential_failure_rate_limiter() {
    let mut q = WorkQueue::with_rate_limit(Duration::from_millis(1), Duration::from_secs(1));
    for want in [1, 2, 4, 8, 16] {
        assert_eq!(when(&mut q, "one"), Duration::from_millis(want));
    }
    assert_eq!(q.num_requeues("one"), 5);
    assert_eq!(when(&mut q, "two"), Duration::from_millis(1));
    assert_eq!(when(&mut q, "two"), Duration::from_millis(2));
    assert_eq!(q.num_requeues("two"), 2);
    q.forget("one");
    assert_eq!(q.num_requeues("one"), 0);
    assert_eq!(when(&mut q, "one"), Duration::from_millis(1));
}

// Port of TestItemExponentialFailureRateLimiterOverFlow: the delay saturates at the maximum
// however many failures a key has had.
#[test]
fn item_exponential_failure_rate_limiter_overflow() {
    let mut q = WorkQueue::with_rate_limit(Duration::from_millis(1), Duration::from_secs(1000));
    for _ in 0..5 {
        when(&mut q, "one");
    }
    assert_eq!(when(&mut q, "one"), Duration::from_millis(32));
    for _ in 0..1000 {
        when(&mut q, "overflow1");
    }
    assert_eq!(when(&mut q, "overflow1"), Duration::from_secs(1000));

    let mut q =
        WorkQueue::with_rate_limit(Duration::from_secs(60), Duration::from_secs(1000 * 3600));
    for _ in 0..2 {
        when(&mut q, "two");
    }
    assert_eq!(when(&mut q, "two"), Duration::from_secs(4 * 60));
    for _ in 0..1000 {
        when(&mut q, "overflow2");
    }
    assert_eq!(when(&mut q, "overflow2"), Duration::from_secs(1000 * 3600));
}

// The Job controller's queues (`DefaultJobApiBackOff`, `MaxJobApiBackOff`): 1 s doubling, capped
// at a minute; a controller restart (`clear`) keeps the limiter.
#[test]
fn job_api_back_off_limiter_survives_clear() {
    let mut q = WorkQueue::with_rate_limit(Duration::from_secs(1), Duration::from_secs(60));
    for want in [1, 2, 4, 8, 16, 32, 60, 60] {
        assert_eq!(when(&mut q, "default/job"), Duration::from_secs(want));
    }
    q.clear();
    assert_eq!(q.num_requeues("default/job"), 0);
    assert_eq!(when(&mut q, "default/job"), Duration::from_secs(1));
}

/// The delay of an `AddRateLimited` of `key` at `now` (taken out of the queue again afterwards).
fn when_at(q: &mut WorkQueue, key: &str, now: Time) -> Duration {
    q.add_rate_limited(key, now);
    let due = q.next_due().expect("requeued with a delay");
    q.promote_due(due);
    assert_eq!(q.pop().as_deref(), Some(key));
    due - now
}

// DefaultControllerRateLimiter (client-go `default_rate_limiters.go`): `MaxOfRateLimiter` of
// the per-item exponential limiter and `BucketRateLimiter{rate.NewLimiter(10, 100)}`. The first
// 100 retries of the queue at one instant only wait their own 5 ms; after the burst each further
// retry books the next token, 100 ms apart.
#[test]
fn default_controller_rate_limiter_bucket_after_the_burst() {
    let mut q = WorkQueue::new();
    for i in 0..100 {
        assert_eq!(
            when_at(&mut q, &format!("k{i}"), Time(0)),
            Duration::from_millis(5)
        );
    }
    assert_eq!(when_at(&mut q, "k100", Time(0)), Duration::from_millis(100));
    assert_eq!(when_at(&mut q, "k101", Time(0)), Duration::from_millis(200));
    // One second later ten tokens came back: two pay the debt, the next retry has a token.
    for i in 0..8 {
        let got = when_at(&mut q, &format!("later{i}"), Time(1000));
        assert_eq!(got, Duration::from_millis(5), "retry {i} one second later");
    }
    assert_eq!(
        when_at(&mut q, "later8", Time(1000)),
        Duration::from_millis(100)
    );
    // A key's own back-off still wins when it is longer than the bucket's wait.
    let mut q = WorkQueue::new();
    let mut last = Duration::ZERO;
    for _ in 0..12 {
        last = when_at(&mut q, "same", Time(0));
    }
    assert_eq!(last, Duration::from_millis(5 << 11));
}

// `rate.Limiter.reserveN`/`advance`: partial refills count, the bucket never holds more than
// its burst, and a restart (`clear`) starts with a full bucket again.
#[test]
fn bucket_reserve_refills_fractionally_and_caps_at_the_burst() {
    let (state, wait) = bucket_reserve(Some((-1.0, Time(0))), Time(50));
    assert_eq!(state, (-1.5, Time(50)));
    assert_eq!(wait, Duration::from_millis(150));
    let (state, wait) = bucket_reserve(Some((-1.0, Time(0))), Time(3_600_000));
    assert_eq!((state.0, wait), (BUCKET_BURST - 1.0, Duration::ZERO));
    let mut q = WorkQueue::new();
    for i in 0..101 {
        when_at(&mut q, &format!("k{i}"), Time(0));
    }
    q.clear();
    assert_eq!(when_at(&mut q, "again", Time(0)), Duration::from_millis(5));
}

// Queues with their own limiter (the Job controller's) have no bucket.
#[test]
fn custom_limiter_queues_have_no_bucket() {
    let mut q = WorkQueue::with_rate_limit(Duration::from_secs(1), Duration::from_secs(60));
    for i in 0..150 {
        assert_eq!(
            when_at(&mut q, &format!("j{i}"), Time(0)),
            Duration::from_secs(1)
        );
    }
}
