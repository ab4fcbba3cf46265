//! The DeploymentReplicaSetTerminatingReplicas rows of TestCalculateStatus
//! (pkg/controller/replicaset/replica_set_utils_test.go).

use super::replica_set_utils::calculate_status;
use crate::api::{
    LabelSelector, Labels, OwnerReference, Pod, PodCondition, ReplicaSet, ReplicaSetStatus, Time,
};

fn labels(pairs: &[(&str, &str)]) -> Labels {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// `newReplicaSet(replicas, selectorMap)` of replica_set_test.go.
fn new_replica_set(replicas: i32, selector: Labels) -> ReplicaSet {
    let mut rs = ReplicaSet::default();
    rs.metadata.name = "foobar".into();
    rs.metadata.namespace = "default".into();
    rs.metadata.uid = "rs-uid".into();
    rs.spec.replicas = Some(replicas);
    rs.spec.selector = Some(LabelSelector::from_labels(&selector));
    rs.spec.template_mut().metadata.labels =
        (labels(&[("name", "foo"), ("type", "production")])).into();
    rs
}

/// `newPod(name, rs, v1.PodRunning, nil, true)`: a Running, Ready pod with the selector's labels.
fn running_pod(name: &str, rs: &ReplicaSet) -> Pod {
    let mut p = Pod::default();
    p.metadata.name = name.into();
    p.metadata.namespace = rs.metadata.namespace.clone();
    p.metadata.labels = (rs
        .spec
        .selector
        .as_ref()
        .and_then(|s| s.match_labels.clone())
        .unwrap_or_default())
    .into();
    p.metadata.owner_references = (vec![OwnerReference {
        api_version: "apps/v1".into(),
        kind: "ReplicaSet".into(),
        name: rs.metadata.name.clone(),
        uid: rs.metadata.uid.clone(),
        controller: Some(true),
        block_owner_deletion: None,
    }])
    .into();
    p.status.phase = "Running".into();
    p.status.conditions = vec![PodCondition {
        type_: "Ready".into(),
        status: "True".into(),
        ..Default::default()
    }];
    p
}

fn now() -> Time {
    Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap()
}

/// `asTerminating`: a deletion timestamp.
fn terminating(mut p: Pod) -> Pod {
    p.metadata.deletion_timestamp = Some(now());
    p
}

// upstream: TestCalculateStatus (pkg/controller/replicaset/replica_set_utils_test.go), the rows
// with terminating pods and the gate column. kubeplay's calculate_status takes the terminating
// pods only when the gate is on (None otherwise), as upstream's syncReplicaSet passes them.
#[test]
#[allow(clippy::type_complexity)]
fn calculate_status_terminating_rows() {
    let fully = new_replica_set(2, labels(&[("name", "foo"), ("type", "production")]));
    let status = |replicas: i32, terminating: Option<i32>| ReplicaSetStatus {
        replicas,
        fully_labeled_replicas: replicas,
        ready_replicas: replicas,
        available_replicas: replicas,
        terminating_replicas: terminating,
        ..Default::default()
    };
    let two = [running_pod("pod1", &fully), running_pod("pod2", &fully)];
    let two_refs: Vec<&Pod> = two.iter().collect();
    let one = [running_pod("pod1", &fully)];
    let one_refs: Vec<&Pod> = one.iter().collect();
    let one_terminating = [terminating(running_pod("pod2", &fully))];
    let two_terminating = [
        terminating(running_pod("pod2", &fully)),
        terminating(running_pod("pod3", &fully)),
    ];
    let t1: Vec<&Pod> = one_terminating.iter().collect();
    let t2: Vec<&Pod> = two_terminating.iter().collect();
    // (name, gate enabled, active, terminating, expected)
    let cases: Vec<(&str, bool, &[&Pod], &[&Pod], ReplicaSetStatus)> = vec![
        (
            "2 fully labelled pods",
            false,
            &two_refs,
            &[],
            status(2, None),
        ),
        (
            "2 fully labelled pods with DeploymentPodReplacementPolicy",
            true,
            &two_refs,
            &[],
            status(2, Some(0)),
        ),
        (
            "1 fully labelled pod and 1 terminating without DeploymentPodReplacementPolicy",
            false,
            &one_refs,
            &t1,
            status(1, None),
        ),
        (
            "1 fully labelled pods and 2 terminating with DeploymentPodReplacementPolicy",
            true,
            &one_refs,
            &t2,
            status(1, Some(2)),
        ),
    ];
    for (name, gate, active, term, want) in cases {
        let got = calculate_status(&fully, active, gate.then_some(term), None, now());
        assert_eq!(got, want, "{name}");
    }
}
