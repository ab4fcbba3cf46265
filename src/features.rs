//! Feature gates with the defaults of the Kubernetes release kubeplay targets (1.35, the newest
//! upstream `pkg/features/kube_features.go` in the reference index).

use std::collections::BTreeMap;

/// Every gate kubeplay reads, with its default in the targeted release.
pub const DEFAULTS: &[(&str, bool)] = &[
    ("PodDeletionCost", true),
    ("LogarithmicScaleDown", true),
    // Beta and on by default since 1.35 (alpha, off, in 1.33–1.34).
    ("DeploymentReplicaSetTerminatingReplicas", true),
    ("DeploymentPodReplacementPolicy", false),
    ("JobBackoffLimitPerIndex", true),
    ("JobPodReplacementPolicy", true),
    ("JobManagedBy", true),
    ("JobSuccessPolicy", true),
    ("PodIndexLabel", true),
    ("StatefulSetStartOrdinal", true),
    ("StatefulSetAutoDeletePVC", true),
    ("CronJobsScheduledAnnotation", true),
    // Beta and on in 1.35.0, then turned back off in the 1.35 patch releases (a regression: pods
    // of a never-available revision were not replaced), so off here too.
    ("MaxUnavailableStatefulSet", false),
    // Beta and on by default since 1.34.2 and 1.35 (kubernetes#135017): a StatefulSet revision
    // that differs from the set only by serialization or defaulting is reused.
    ("StatefulSetSemanticRevisionComparison", true),
    // Beta and on by default since 1.35.
    ("HPAConfigurableTolerance", true),
    // Alpha since 1.16 and still off by default in 1.35: `minReplicas: 0` is refused.
    ("HPAScaleToZero", false),
    // Beta and on by default since 1.27 (kube-apiserver: matchLabelKeys is kept and validated).
    ("MatchLabelKeysInPodTopologySpread", true),
    // Beta and on by default since 1.34 (kube-apiserver merges matchLabelKeys into the
    // constraint's labelSelector at pod creation).
    ("MatchLabelKeysInPodTopologySpreadSelectorMerge", true),
    // Beta and on by default since 1.34 (pod-level `spec.resources`).
    ("PodLevelResources", true),
];

/// The gates of one scenario: defaults overridden by the scenario's `featureGates`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FeatureGates {
    overrides: BTreeMap<String, bool>,
}

impl FeatureGates {
    /// # Errors
    /// `unrecognized feature gate: X`, as kube-controller-manager says.
    pub fn from_map(m: &BTreeMap<String, bool>) -> Result<Self, String> {
        for k in m.keys() {
            if !DEFAULTS.iter().any(|(n, _)| n == k) {
                return Err(format!("unrecognized feature gate: {k}"));
            }
        }
        Ok(FeatureGates {
            overrides: m.clone(),
        })
    }

    pub fn enabled(&self, gate: &str) -> bool {
        self.overrides.get(gate).copied().unwrap_or_else(|| {
            DEFAULTS
                .iter()
                .find(|(n, _)| *n == gate)
                .is_some_and(|(_, d)| *d)
        })
    }

    pub fn set(&mut self, gate: &str, on: bool) {
        self.overrides.insert(gate.into(), on);
    }
}
