//! The simulated world outside the API: which nodes' kubelets are up, and the kubelet's timings
//! and fault rules from the scenario.

use crate::api::{Duration, Pod, Quantity};
use crate::sort::CollectBTreeMap as _;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Kubelet behaviour for a scenario (`kubelet:` in the scenario file).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KubeletConfig {
    /// Time to pull an image before the container can start.
    #[serde(default = "default_pull", with = "duration_serde")]
    pub image_pull: Duration,
    /// Time from image pulled to container running.
    #[serde(default = "default_start", with = "duration_serde")]
    pub container_start: Duration,
    /// Time from running to Ready (a readiness probe's initial delay).
    #[serde(default, with = "duration_serde")]
    pub readiness: Duration,
    /// Time a container takes to stop after SIGTERM when the pod is deleted (capped by the
    /// pod's grace period; a rule with `ignoreSigterm` makes it take the whole grace period).
    #[serde(default = "default_stop", with = "duration_serde")]
    pub container_stop: Duration,
    /// How long an init container runs before it exits 0.
    #[serde(default = "default_init_run", with = "duration_serde")]
    pub init_container_run: Duration,
    /// Capacity the kubelet reports for a node registered without any (`cpu`, `memory`, `pods`).
    #[serde(default = "default_node_capacity")]
    pub node_capacity: BTreeMap<String, Quantity>,
    /// Pods whose status the kubelet leaves exactly as written (besides the
    /// `kubeplay.dev/frozen: "true"` annotation). An empty match (`{}`) freezes every pod.
    #[serde(default)]
    pub frozen: Vec<PodMatch>,
    /// Fault rules, first match wins.
    #[serde(default)]
    pub rules: Vec<FaultRule>,
}

fn default_stop() -> Duration {
    Duration::from_secs(1)
}
fn default_init_run() -> Duration {
    Duration::from_secs(1)
}
/// What a kind worker node reports on a laptop, roughly: 4 cores, 16 GiB, kubelet's default
/// `maxPods` of 110.
pub fn default_node_capacity() -> BTreeMap<String, Quantity> {
    [("cpu", "4"), ("memory", "16Gi"), ("pods", "110")]
        .into_iter()
        .map(|(k, v)| (k.to_string(), Quantity(v.to_string())))
        .collect_btree_map()
}

fn default_pull() -> Duration {
    Duration::from_secs(1)
}
fn default_start() -> Duration {
    Duration::from_secs(1)
}

impl Default for KubeletConfig {
    fn default() -> Self {
        KubeletConfig {
            image_pull: default_pull(),
            container_start: default_start(),
            readiness: Duration::ZERO,
            container_stop: default_stop(),
            init_container_run: default_init_run(),
            node_capacity: default_node_capacity(),
            frozen: vec![],
            rules: vec![],
        }
    }
}

/// Which pods a fault rule applies to (all given conditions must hold).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PodMatch {
    /// A label selector in kubectl syntax (`app=web,tier!=db`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// Pod name prefix.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name_prefix: Option<String>,
    /// Any container image equal to this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    /// Node the pod runs on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
    /// Exactly this pod (by `metadata.uid`): how an imported cluster freezes its own pods
    /// while pods created afterwards run normally.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uid: Option<String>,
}

impl PodMatch {
    pub fn matches(&self, p: &Pod) -> bool {
        if let Some(sel) = &self.selector {
            match crate::api::Selector::parse(sel) {
                Ok(s) if s.matches(&p.metadata.labels) => {}
                _ => return false,
            }
        }
        if let Some(pref) = &self.name_prefix {
            if !p.metadata.name.starts_with(pref.as_str()) {
                return false;
            }
        }
        if let Some(img) = &self.image {
            if !p.spec.containers.iter().any(|c| &c.image == img) {
                return false;
            }
        }
        if let Some(n) = &self.node {
            if &p.spec.node_name != n {
                return false;
            }
        }
        if let Some(u) = &self.uid {
            if &p.metadata.uid != u {
                return false;
            }
        }
        true
    }
}

/// What happens to matching pods.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FaultRule {
    #[serde(rename = "match", default)]
    pub match_: PodMatch,
    /// `ErrImagePull` then `ImagePullBackOff`, forever.
    #[serde(default)]
    pub image_pull_error: bool,
    /// The container exits with `exitCode` after `runFor`; with restartPolicy Always/OnFailure it
    /// is restarted with back-off (10 s doubling to 5 min: CrashLoopBackOff).
    #[serde(default, with = "opt_duration_serde")]
    pub run_for: Option<Duration>,
    #[serde(default)]
    pub exit_code: i32,
    /// Never passes its readiness probe.
    #[serde(default)]
    pub never_ready: bool,
    /// Overrides the readiness delay for matching pods.
    #[serde(default, with = "opt_duration_serde")]
    pub ready_after: Option<Duration>,
    /// The container ignores SIGTERM: deleting the pod takes the whole grace period and the
    /// container is killed (exit code 137).
    #[serde(default)]
    pub ignore_sigterm: bool,
    /// The rule applies to at most this many pods: the first matching pods the kubelet runs
    /// claim it; later matching pods fall through to the next rules ("the first two attempts
    /// fail, then the work succeeds").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_pods: Option<u32>,
}

impl KubeletConfig {
    /// The first fault rule matching the pod, if any (ignoring `maxPods`; see
    /// [`World::claim_rule`]).
    pub fn rule_for(&self, p: &Pod) -> Option<&FaultRule> {
        self.rules.iter().find(|r| r.match_.matches(p))
    }

    /// Whether the kubelet must leave this pod's status alone: the `kubeplay.dev/frozen`
    /// annotation or a `frozen` match.
    pub fn is_frozen(&self, p: &Pod) -> bool {
        p.metadata
            .annotations
            .get(FROZEN_ANNOTATION)
            .is_some_and(|v| v == "true")
            || self.frozen.iter().any(|m| m.matches(p))
    }
}

/// Annotation that freezes a pod's status (the kubelet never writes it).
pub const FROZEN_ANNOTATION: &str = "kubeplay.dev/frozen";

/// The state of the world that is not in the API.
#[derive(Clone, Debug, Default)]
pub struct World {
    /// Nodes whose kubelet is down (no heartbeats, no pod updates), with when it went down.
    pub nodes_down: BTreeMap<String, crate::api::Time>,
    /// Shared: the kubelet takes a cheap handle on every sync.
    pub kubelet: std::sync::Arc<KubeletConfig>,
    /// Fault rule index → uids of the pods that claimed it (rules with `maxPods`).
    pub rule_claims: BTreeMap<usize, std::collections::BTreeSet<String>>,
    /// The scenario's synthetic load (the metrics source of the HPA).
    pub load: crate::scenario::load::LoadModel,
}

impl World {
    /// The index of the fault rule that applies to the pod: the first matching rule that has
    /// room left under its `maxPods` (or already counts this pod). A pod keeps its rule.
    pub fn claim_rule(&mut self, p: &Pod) -> Option<usize> {
        for (i, r) in self.kubelet.rules.iter().enumerate() {
            if !r.match_.matches(p) {
                continue;
            }
            let Some(max) = r.max_pods else {
                return Some(i);
            };
            let claims = self.rule_claims.entry(i).or_default();
            if claims.contains(&p.metadata.uid) {
                return Some(i);
            }
            if (claims.len() as u32) < max {
                claims.insert(p.metadata.uid.clone());
                return Some(i);
            }
        }
        None
    }
}

/// Durations in scenario files: `90s`, `1m30s`, or a number of seconds.
pub mod duration_serde {
    use crate::api::Duration;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&d.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        let s = match v {
            serde_json::Value::String(s) => s,
            serde_json::Value::Number(n) => n.to_string(),
            other => {
                return Err(serde::de::Error::custom(format!(
                    "invalid duration {other}"
                )))
            }
        };
        Duration::parse(&s).map_err(serde::de::Error::custom)
    }
}

/// Optional durations in scenario files.
pub mod opt_duration_serde {
    use crate::api::Duration;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(d: &Option<Duration>, s: S) -> Result<S::Ok, S::Error> {
        match d {
            Some(d) => super::duration_serde::serialize(d, s),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
        super::duration_serde::deserialize(d).map(Some)
    }
}
