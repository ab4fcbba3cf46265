//! "Explain scale-down": which pods a ReplicaSet would delete, in order, and which of the 8
//! rules of `ActivePodsWithRanks` put each pod before the next one.
//!
//! The explanation is computed by the very functions the controller uses
//! ([`get_pods_ranked_by_related_pods_on_same_node`], [`ActivePodsWithRanks::decide`]), so it
//! cannot drift from the behaviour it explains.

use super::replica_set::{
    get_indirectly_related_pods, get_pods_ranked_by_related_pods_on_same_node, OwnerKind,
    BURST_REPLICAS,
};
use crate::api::{human_duration, resolve_kind, ApiError, Pod, Time};
use crate::controllers::controller_utils::{
    filter_active_pods, is_pod_active, label_selector_as_selector, log2_bucket,
    ActivePodsWithRanks, RankKey, RuleMode, ScaleDownGates, POD_DELETION_COST_ANNOTATION,
    RANK_RULE_NAMES,
};
use crate::store::Store;
use serde::Serialize;
use std::fmt::Write as _;

/// One pod of the explanation, in deletion order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExplainedPod {
    /// 1-based position in the deletion order.
    pub position: usize,
    pub name: String,
    pub uid: String,
    /// `""` when unscheduled.
    pub node: String,
    pub phase: String,
    pub ready: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ready_since: Option<Time>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created: Option<Time>,
    /// The cost rule 4 compares (invalid or missing annotation: 0).
    pub deletion_cost: i32,
    /// The annotation as written, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deletion_cost_annotation: Option<String>,
    /// Active related pods on the same node (rule 5).
    pub rank: i32,
    pub restarts: i32,
    pub sidecar_restarts: i32,
    /// Whether this pod would be deleted.
    pub delete: bool,
}

/// Why pod `first` comes before pod `second` (adjacent in the deletion order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PairExplanation {
    pub first: String,
    pub second: String,
    /// 1–8, or 0 when no rule distinguishes the pods (they keep their input order).
    pub rule: u8,
    pub rule_name: String,
    pub mode: RuleMode,
    /// The values compared, e.g. `-5 < 0`.
    pub detail: String,
    /// False only when `less(second, first)` holds even so — possible because the rules are
    /// not transitive (a log2-bucket UID tie can contradict rule 7 across three pods).
    pub consistent: bool,
    /// `rule 4 pod-deletion-cost: -5 < 0`.
    pub text: String,
}

/// The scale-down of one ReplicaSet to a hypothetical replica count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScaleDownExplanation {
    /// `ReplicaSet default/web`, when explained from a store.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    pub now: Time,
    pub gates: ScaleDownGates,
    pub active_pods: usize,
    pub replicas: i32,
    /// `min(active − replicas, burstReplicas)`, or 0.
    pub delete_count: usize,
    /// More pods are surplus than one sync deletes (`burstReplicas` = 500).
    pub burst_limited: bool,
    /// Whether the pods were sorted: upstream skips sorting when every pod goes.
    pub sorted: bool,
    pub pods: Vec<ExplainedPod>,
    /// One entry per adjacent pair of `pods`.
    pub comparisons: Vec<PairExplanation>,
}

fn age(t: Time, now: Time) -> String {
    if t.is_zero() {
        "zero time".into()
    } else if t > now {
        format!("{} from now", human_duration(t - now))
    } else {
        format!("{} ago", human_duration(now - t))
    }
}

/// The values a verdict of `decide(a, b)` compared, as text.
fn describe(
    a: &RankKey,
    ra: i32,
    b: &RankKey,
    rb: i32,
    rule: u8,
    mode: RuleMode,
    now: Time,
) -> (String, String) {
    let name = RANK_RULE_NAMES[rule as usize].to_string();
    let phase = |k: &RankKey| {
        if k.phase.is_empty() {
            format!("\"\" ({})", k.phase_ordinal)
        } else {
            format!("{} ({})", k.phase, k.phase_ordinal)
        }
    };
    let times = |what: &str, ta: Time, tb: Time| -> (String, String) {
        match mode {
            RuleMode::LogBucket => (
                format!("{name} (log2 bucket)"),
                format!(
                    "bucket {} < {} ({what} {} vs {})",
                    log2_bucket(ta, now),
                    log2_bucket(tb, now),
                    age(ta, now),
                    age(tb, now)
                ),
            ),
            RuleMode::UidTie => (
                format!("{name} (log2 bucket)"),
                format!(
                    "bucket {} for both ({what} {} vs {}), tie: uid {} < {}",
                    log2_bucket(ta, now),
                    age(ta, now),
                    age(tb, now),
                    a.uid,
                    b.uid
                ),
            ),
            _ => (
                name.clone(),
                format!("{what} {} before {}", age(ta, now), age(tb, now)),
            ),
        }
    };
    match rule {
        1 => (name, format!("unscheduled < scheduled on {}", b.node)),
        2 => (name, format!("{} < {}", phase(a), phase(b))),
        3 => (name, "not ready < ready".into()),
        4 => (name, format!("{} < {}", a.deletion_cost, b.deletion_cost)),
        5 => (name, format!("{ra} > {rb}")),
        6 => times("ready", a.ready_time, b.ready_time),
        7 => {
            if a.restarts.0 != b.restarts.0 {
                (name, format!("{} > {}", a.restarts.0, b.restarts.0))
            } else {
                (name, format!("sidecar {} > {}", a.restarts.1, b.restarts.1))
            }
        }
        8 => times("created", a.created, b.created),
        _ => (
            name,
            "no rule distinguishes them: input (name) order kept".into(),
        ),
    }
}

fn explain_pair(ranked: &ActivePodsWithRanks, i: usize, j: usize) -> PairExplanation {
    let (a, b) = (ranked.key(i), ranked.key(j));
    let forward = ranked.decide(i, j);
    let backward = ranked.decide(j, i);
    // When `less(i, j)` is false, say why `j` is not before `i` instead.
    let (rule, mode, consistent, flip) = if forward.less || !backward.less {
        (forward.rule, forward.mode, true, false)
    } else {
        (backward.rule, backward.mode, false, true)
    };
    let (rule_name, detail) = if flip {
        let (n, d) = describe(b, ranked.rank[j], a, ranked.rank[i], rule, mode, ranked.now);
        (
            n,
            format!("{d} (yet sorted after: the rules are not transitive here)"),
        )
    } else {
        describe(a, ranked.rank[i], b, ranked.rank[j], rule, mode, ranked.now)
    };
    let text = if rule == 0 {
        format!("tie: {detail}")
    } else {
        format!("rule {rule} {rule_name}: {detail}")
    };
    PairExplanation {
        first: a.name.clone(),
        second: b.name.clone(),
        rule,
        rule_name,
        mode,
        detail,
        consistent,
        text,
    }
}

/// Explains how a ReplicaSet with `active_pods` (and the `related_pods` of every ReplicaSet
/// sharing its controller owner) would scale down to `replicas` at `now`: the pods in deletion
/// order, the ones that would be deleted marked, and for each adjacent pair the deciding rule.
/// Pure: no store, no clock.
pub fn explain_scale_down(
    active_pods: &[&Pod],
    related_pods: &[&Pod],
    replicas: i32,
    now: Time,
    gates: ScaleDownGates,
) -> ScaleDownExplanation {
    let surplus = active_pods.len() as i64 - i64::from(replicas);
    let delete_count = if surplus > 0 {
        (surplus as usize).min(BURST_REPLICAS)
    } else {
        0
    };
    let mut ranked =
        get_pods_ranked_by_related_pods_on_same_node(active_pods, related_pods, now, gates);
    // As getPodsToDelete: no sorting when every pod goes.
    let sorted = delete_count < active_pods.len();
    if sorted {
        ranked.sort();
    }
    let pods = (0..ranked.len())
        .map(|i| {
            let p = ranked.pods[i];
            let k = ranked.key(i);
            ExplainedPod {
                position: i + 1,
                name: k.name.clone(),
                uid: k.uid.clone(),
                node: k.node.clone(),
                phase: k.phase.clone(),
                ready: k.ready,
                ready_since: (!k.ready_time.is_zero()).then_some(k.ready_time),
                created: p.metadata.creation_timestamp,
                deletion_cost: k.deletion_cost,
                deletion_cost_annotation: p
                    .metadata
                    .annotations
                    .get(POD_DELETION_COST_ANNOTATION)
                    .cloned(),
                rank: ranked.rank[i],
                restarts: k.restarts.0,
                sidecar_restarts: k.restarts.1,
                delete: i < delete_count,
            }
        })
        .collect();
    let comparisons = (1..ranked.len())
        .map(|i| explain_pair(&ranked, i - 1, i))
        .collect();
    ScaleDownExplanation {
        owner: None,
        now,
        gates,
        active_pods: active_pods.len(),
        replicas,
        delete_count,
        burst_limited: surplus > BURST_REPLICAS as i64,
        sorted,
        pods,
        comparisons,
    }
}

impl ScaleDownExplanation {
    /// A plain-text rendering for the CLI.
    pub fn render_text(&self) -> String {
        let mut out = String::new();
        let onoff = |b: bool| if b { "on" } else { "off" };
        let who = self.owner.clone().unwrap_or_else(|| "ReplicaSet".into());
        let _ = writeln!(
            out,
            "{who}: {} active pods, scale to {} -> delete {}{}",
            self.active_pods,
            self.replicas,
            self.delete_count,
            if self.burst_limited {
                format!(" (burstReplicas: at most {BURST_REPLICAS} per sync)")
            } else {
                String::new()
            }
        );
        let _ = writeln!(
            out,
            "now {}; PodDeletionCost {}, LogarithmicScaleDown {}",
            self.now,
            onoff(self.gates.pod_deletion_cost),
            onoff(self.gates.logarithmic_scale_down)
        );
        if !self.sorted {
            let _ = writeln!(
                out,
                "every pod is deleted, so the pods are not sorted (as upstream)"
            );
        } else if self.delete_count == 0 {
            let _ = writeln!(out, "no pod is deleted; this is the order they would go in");
        }
        let headers = [
            "#",
            "POD",
            "NODE",
            "PHASE",
            "READY",
            "COST",
            "RANK",
            "RESTARTS",
            "READY SINCE",
            "CREATED",
            "",
        ];
        let mut rows: Vec<Vec<String>> = vec![headers.iter().map(|s| s.to_string()).collect()];
        for p in &self.pods {
            rows.push(vec![
                p.position.to_string(),
                p.name.clone(),
                if p.node.is_empty() {
                    "<none>".into()
                } else {
                    p.node.clone()
                },
                if p.phase.is_empty() {
                    "\"\"".into()
                } else {
                    p.phase.clone()
                },
                p.ready.to_string(),
                match &p.deletion_cost_annotation {
                    Some(a) if a.parse::<i64>().ok() != Some(i64::from(p.deletion_cost)) => {
                        format!("{} ({a:?} invalid)", p.deletion_cost)
                    }
                    _ => p.deletion_cost.to_string(),
                },
                p.rank.to_string(),
                if p.sidecar_restarts > 0 {
                    format!("{}+{} sidecar", p.restarts, p.sidecar_restarts)
                } else {
                    p.restarts.to_string()
                },
                p.ready_since.map_or("-".into(), |t| age(t, self.now)),
                p.created.map_or("-".into(), |t| age(t, self.now)),
                if p.delete {
                    "DELETE".into()
                } else {
                    String::new()
                },
            ]);
        }
        let widths: Vec<usize> = (0..headers.len())
            .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
            .collect();
        for (i, r) in rows.iter().enumerate() {
            let line: Vec<String> = r
                .iter()
                .zip(&widths)
                .map(|(cell, w)| format!("{cell:<w$}"))
                .collect();
            let _ = writeln!(out, "{}", line.join("  ").trim_end());
            if i >= 1 {
                if let Some(c) = self.comparisons.get(i - 1) {
                    let _ = writeln!(out, "      before {}: {}", c.second, c.text);
                }
            }
        }
        out
    }
}

impl std::fmt::Display for ScaleDownExplanation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render_text())
    }
}

/// Explains the scale-down of the ReplicaSet or ReplicationController `kind namespace/name`
/// (`kind` as kubectl accepts it: `rs`, `replicaset`, `rc`, ...) to `replicas`. The active pods
/// are those the controller would claim; the related pods those of every owner sharing its
/// controller.
///
/// # Errors
/// NotFound for a missing owner; BadRequest for another kind or an invalid selector.
pub fn explain_scale_down_in_store(
    store: &Store,
    kind: &str,
    namespace: &str,
    name: &str,
    replicas: i32,
    now: Time,
    gates: ScaleDownGates,
) -> Result<ScaleDownExplanation, ApiError> {
    let owner_kind = match resolve_kind(kind) {
        Some("ReplicaSet") => OwnerKind::ReplicaSet,
        Some("ReplicationController") => OwnerKind::ReplicationController,
        _ => {
            return Err(ApiError::bad_request(format!(
                "explain-scale-down works on ReplicaSets and ReplicationControllers, not {kind:?}"
            )))
        }
    };
    let Some((_, rs)) = owner_kind.get(store, namespace, name) else {
        let resource = match owner_kind {
            OwnerKind::ReplicaSet => "replicasets.apps",
            OwnerKind::ReplicationController => "replicationcontrollers",
        };
        return Err(ApiError::not_found(resource, name));
    };
    let selector = label_selector_as_selector(rs.spec.selector.as_ref())
        .map_err(|e| ApiError::bad_request(format!("invalid selector: {e}")))?;
    let all: Vec<&Pod> = store.list::<Pod>(Some(&rs.metadata.namespace)).collect();
    // The pods claimPods would return (without adopting or releasing anything).
    let active: Vec<&Pod> = filter_active_pods(all)
        .into_iter()
        .filter(|p| {
            if !selector.matches(&p.metadata.labels) {
                return false;
            }
            match p.metadata.controller_ref() {
                Some(r) => r.uid == rs.metadata.uid,
                None => rs.metadata.deletion_timestamp.is_none() && is_pod_active(p),
            }
        })
        .collect();
    let related = get_indirectly_related_pods(owner_kind, store, &rs);
    let related_refs: Vec<&Pod> = related.iter().collect();
    let mut e = explain_scale_down(&active, &related_refs, replicas, now, gates);
    e.owner = Some(format!("{} {}", owner_kind.kind(), rs.metadata.key()));
    Ok(e)
}

/// [`explain_scale_down_in_store`] as a method on [`Store`].
pub trait ExplainScaleDown {
    /// # Errors
    /// See [`explain_scale_down_in_store`].
    fn explain_scale_down(
        &self,
        kind: &str,
        namespace: &str,
        name: &str,
        replicas: i32,
        now: Time,
        gates: ScaleDownGates,
    ) -> Result<ScaleDownExplanation, ApiError>;
}

impl ExplainScaleDown for Store {
    fn explain_scale_down(
        &self,
        kind: &str,
        namespace: &str,
        name: &str,
        replicas: i32,
        now: Time,
        gates: ScaleDownGates,
    ) -> Result<ScaleDownExplanation, ApiError> {
        explain_scale_down_in_store(self, kind, namespace, name, replicas, now, gates)
    }
}
