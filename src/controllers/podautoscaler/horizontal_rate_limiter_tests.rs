//! Ports of `pkg/controller/podautoscaler/rate_limiters_test.go` for the default HPA limiter:
//! `enqueueHPA` adds the key rate limited with `NewDefaultHPARateLimiter(resyncPeriod)`, whose
//! `When(item)` is the resync period for every item. (The per-item interval overrides of that
//! file belong to a later release and are not modelled.)

use super::*;

const NOW: Time = Time(1_000_000_000);

/// Enqueues `keys` on a controller with the given resync period; returns when each becomes due.
fn due_times(sync_period: Duration, keys: &[&str]) -> Vec<(String, Time)> {
    let mut hc = HorizontalController::new();
    hc.sync_period = sync_period;
    let mut out = vec![];
    for key in keys {
        let mut q = WorkQueue::new();
        hc.enqueue_hpa(key, &mut q, NOW);
        assert!(!q.has_ready(), "{key} must wait for its interval");
        q.promote_due(NOW + sync_period - Duration::from_millis(1));
        assert!(!q.has_ready(), "{key} is not due before the interval");
        out.push((key.to_string(), q.next_due().unwrap()));
        q.promote_due(NOW + sync_period);
        assert_eq!(q.pop().as_deref(), Some(*key));
    }
    out
}

// Port of TestNewDefaultHPARateLimiter (rate_limiters_test.go): with a 15 s resync period,
// `When("any")` is 15 s.
#[test]
fn default_hpa_rate_limiter_waits_the_resync_period() {
    assert_eq!(
        due_times(Duration::from_secs(15), &["any"]),
        vec![("any".to_string(), NOW + Duration::from_secs(15))]
    );
    // The controller's default resync period is upstream's `--horizontal-pod-autoscaler-sync-period`
    // default, 15 s.
    assert_eq!(
        HorizontalController::new().sync_period,
        Duration::from_secs(15)
    );
}

// Port of TestPerItemIntervalRateLimiter_DefaultInterval (rate_limiters_test.go): every item
// waits the default interval (10 s).
#[test]
fn every_item_waits_the_default_interval() {
    assert_eq!(
        due_times(Duration::from_secs(10), &["item-a", "item-b"]),
        vec![
            ("item-a".to_string(), NOW + Duration::from_secs(10)),
            ("item-b".to_string(), NOW + Duration::from_secs(10)),
        ]
    );
}
