//! Regression rows of upstream PR #139457 (kubernetes/kubernetes#139428, "Fix job controller
//! reporting active=0 during pod creation backoff", in the 1.35 patch releases via #139751),
//! in the shape of TestControllerSyncJob's table: while the pod-failure back-off defers the
//! replacement pods, status.active keeps counting the running pods (it read 0 before, below
//! status.ready).

use super::*;

// Upstream: PR #139457 adds regression tests for both back-off paths; their bodies are not in the
// stored sources, so this row (global back-off path) follows the PR's description in the shape of
// TestControllerSyncJob's "too few active pods and active back-off": one running ready pod, one
// replacement deferred by an active back-off. The per-index path is not covered here.
#[test]
fn active_kept_while_back_off_defers_creation() {
    run(
        "too few active pods and active back-off, with a running ready pod",
        Row {
            parallelism: 2,
            completions: 5,
            backoff_limit: 6,
            backoff_record: Some((1, true)),
            active: 1,
            ready: 1,
            creations: 0,
            exp_active: 1,
            exp_ready: Some(1),
            ..Default::default()
        },
    );
}
