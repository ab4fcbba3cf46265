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
