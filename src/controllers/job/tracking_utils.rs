//! Finalizer-removal expectations (`pkg/controller/job/tracking_utils.go`): the pod UIDs whose
//! `batch.kubernetes.io/job-tracking` finalizer removal a Job still waits to observe.

use std::collections::{BTreeMap, BTreeSet};

/// `uidTrackingExpectations`.
#[derive(Clone, Debug, Default)]
pub struct UidTrackingExpectations {
    store: BTreeMap<String, BTreeSet<String>>,
}

impl UidTrackingExpectations {
    pub fn new() -> Self {
        Self::default()
    }

    /// `getExpectedUIDs` (empty when none).
    pub fn get_expected_uids(&self, job_key: &str) -> BTreeSet<String> {
        self.store.get(job_key).cloned().unwrap_or_default()
    }

    /// `expectFinalizersRemoved`.
    pub fn expect_finalizers_removed(&mut self, job_key: &str, uids: &[String]) {
        self.store
            .entry(job_key.to_string())
            .or_default()
            .extend(uids.iter().cloned());
    }

    /// `finalizerRemovalObserved`.
    pub fn finalizer_removal_observed(&mut self, job_key: &str, uid: &str) {
        if let Some(s) = self.store.get_mut(job_key) {
            s.remove(uid);
        }
    }

    /// `deleteExpectations`.
    pub fn delete_expectations(&mut self, job_key: &str) {
        self.store.remove(job_key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Port of TestUIDTrackingExpectations (pkg/controller/job/tracking_utils_test.go), serialised.
    #[test]
    fn uid_tracking_expectations() {
        let mut e = UidTrackingExpectations::new();
        let uids: Vec<String> = (0..5).map(|i| format!("u{i}")).collect();
        e.expect_finalizers_removed("a", &uids[..3]);
        e.expect_finalizers_removed("a", &uids[3..]);
        e.expect_finalizers_removed("b", &uids[..1]);
        assert_eq!(e.get_expected_uids("a").len(), 5);
        for u in &uids {
            e.finalizer_removal_observed("a", u);
        }
        assert!(e.get_expected_uids("a").is_empty());
        assert_eq!(e.get_expected_uids("b").len(), 1);
        e.finalizer_removal_observed("b", "not-expected");
        assert_eq!(e.get_expected_uids("b").len(), 1);
        e.delete_expectations("b");
        assert!(e.get_expected_uids("b").is_empty());
    }
}
