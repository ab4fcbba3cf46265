//! Ports of `pkg/controller/deployment/util/deployment_util_test.go` and `hash_test.go`.
#![allow(clippy::type_complexity)]

use super::*;
use crate::api::{
    Container, DeploymentStrategy, LabelSelector, Labels, OwnerReference, ReplicaSetSpec,
    RollingUpdateDeployment,
};

fn labels(kv: &[(&str, &str)]) -> Labels {
    kv.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn t(min: i64, sec: i64) -> Time {
    // 2016-01-01T00:00:00Z + min:sec
    Time::from_unix_secs(1_451_606_400 + min * 60 + sec)
}

/// `generateDeployment(image)`.
fn generate_deployment(image: &str) -> Deployment {
    let pod_labels = labels(&[("name", image)]);
    let mut d = Deployment::default();
    d.metadata.name = image.into();
    d.spec.replicas = Some(1);
    d.spec.selector = Some(LabelSelector::from_labels(&pod_labels));
    d.spec.template_mut().metadata.labels = pod_labels.into();
    d.spec.template_mut().spec_mut().containers = vec![Container {
        name: image.into(),
        image: image.into(),
        ..Default::default()
    }];
    d.spec.template_mut().spec_mut().restart_policy = "Always".into();
    d.spec
        .template_mut()
        .spec_mut()
        .termination_grace_period_seconds = Some(30);
    d
}

/// `generateRS(deployment)`: a replica set with the deployment's template, 0 replicas.
fn generate_rs(d: &Deployment, name: &str, uid: &str) -> ReplicaSet {
    let template = d.spec.template.clone();
    ReplicaSet {
        metadata: ObjectMeta {
            name: name.into(),
            uid: uid.into(),
            labels: template.metadata.labels.clone(),
            owner_references: vec![OwnerReference {
                api_version: "apps/v1".into(),
                kind: "Deployment".into(),
                name: d.metadata.name.clone(),
                uid: d.metadata.uid.clone(),
                controller: Some(true),
                block_owner_deletion: None,
            }]
            .into(),
            ..Default::default()
        },
        spec: (ReplicaSetSpec {
            replicas: Some(0),
            selector: Some(LabelSelector::from_labels(&template.metadata.labels)),
            template,
            ..Default::default()
        })
        .into(),
        ..Default::default()
    }
}

fn with_hash(mut rs: ReplicaSet, hash: &str) -> ReplicaSet {
    rs.metadata
        .labels
        .insert(DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY.into(), hash.into());
    rs.spec
        .template_mut()
        .metadata
        .labels
        .insert(DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY.into(), hash.into());
    rs
}

fn rolling(d: &mut Deployment, surge: IntOrString, unavailable: IntOrString) {
    d.spec.strategy = DeploymentStrategy {
        type_: ROLLING_UPDATE.into(),
        rolling_update: Some(RollingUpdateDeployment {
            max_surge: Some(surge),
            max_unavailable: Some(unavailable),
        }),
    };
}

fn pod_template(
    name: &str,
    node: &str,
    annotations: &[(&str, &str)],
    lbls: &[(&str, &str)],
) -> PodTemplateSpec {
    let mut p = PodTemplateSpec::default();
    p.metadata.name = name.into();
    p.metadata.annotations = labels(annotations).into();
    p.metadata.labels = labels(lbls).into();
    p.spec_mut().node_name = node.into();
    p
}

/// Port of TestEqualIgnoreHash.
#[test]
fn test_equal_ignore_hash() {
    let h = DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY;
    let cases = [
        (
            "Same spec, same labels",
            pod_template("foo", "foo-node", &[], &[(h, "value-1"), ("something", "else")]),
            pod_template("foo", "foo-node", &[], &[(h, "value-1"), ("something", "else")]),
            true,
        ),
        (
            "Same spec, only pod-template-hash label value is different",
            pod_template("foo", "foo-node", &[], &[(h, "value-1"), ("something", "else")]),
            pod_template("foo", "foo-node", &[], &[(h, "value-2"), ("something", "else")]),
            true,
        ),
        (
            "Same spec, the former doesn't have pod-template-hash label",
            pod_template("foo", "foo-node", &[], &[("something", "else")]),
            pod_template("foo", "foo-node", &[], &[(h, "value-2"), ("something", "else")]),
            true,
        ),
        (
            "Same spec, the label is different, the former doesn't have pod-template-hash label, same number of labels",
            pod_template("foo", "foo-node", &[], &[("something", "else")]),
            pod_template("foo", "foo-node", &[], &[(h, "value-2")]),
            false,
        ),
        (
            "Same spec, the label is different, the latter doesn't have pod-template-hash label, same number of labels",
            pod_template("foo", "foo-node", &[], &[(h, "value-1")]),
            pod_template("foo", "foo-node", &[], &[("something", "else")]),
            false,
        ),
        (
            "Same spec, the label is different, and the pod-template-hash label value is the same",
            pod_template("foo", "foo-node", &[], &[(h, "value-1")]),
            pod_template("foo", "foo-node", &[], &[(h, "value-1"), ("something", "else")]),
            false,
        ),
        (
            "Different spec, same labels",
            pod_template("foo", "foo-node", &[("former", "value")], &[(h, "value-1"), ("something", "else")]),
            pod_template("foo", "foo-node", &[("latter", "value")], &[(h, "value-1"), ("something", "else")]),
            false,
        ),
        (
            "Different spec, different pod-template-hash label value",
            pod_template("foo-1", "foo-node", &[], &[(h, "value-1"), ("something", "else")]),
            pod_template("foo-2", "foo-node", &[], &[(h, "value-2"), ("something", "else")]),
            false,
        ),
        (
            "Different spec, the former doesn't have pod-template-hash label",
            pod_template("foo-1", "foo-node-1", &[], &[("something", "else")]),
            pod_template("foo-2", "foo-node-2", &[], &[(h, "value-2"), ("something", "else")]),
            false,
        ),
        (
            "Different spec, different labels",
            pod_template("foo", "foo-node-1", &[], &[("something", "else")]),
            pod_template("foo", "foo-node-2", &[], &[("nothing", "else")]),
            false,
        ),
    ];
    for (name, a, b, want) in cases {
        let (a0, b0) = (a.clone(), b.clone());
        assert_eq!(equal_ignore_hash(&a, &b), want, "{name}");
        assert_eq!(equal_ignore_hash(&b, &a), want, "{name} (reverse order)");
        // Inputs are not mutated.
        assert_eq!((a, b), (a0, b0), "{name}");
    }
}

/// Port of TestFindNewReplicaSet.
#[test]
fn test_find_new_replica_set() {
    let now = t(0, 0);
    let later = t(1, 0);
    let d = generate_deployment("nginx");
    let mut new_rs = with_hash(generate_rs(&d, "nginx-new", "uid-new"), "hash");
    new_rs.metadata.creation_timestamp = Some(later);
    let mut new_rs_dup = with_hash(generate_rs(&d, "nginx-dup", "uid-dup"), "different-hash");
    new_rs_dup.metadata.creation_timestamp = Some(now);
    let mut old_d = generate_deployment("nginx");
    old_d.spec.template_mut().spec_mut().containers[0].name = "nginx-old-1".into();
    let old_rs = generate_rs(&old_d, "nginx-old", "uid-old");

    let cases = [
        (
            "Get new ReplicaSet with the same template as Deployment spec but different pod-template-hash value",
            vec![new_rs.clone(), old_rs.clone()],
            Some("nginx-new"),
        ),
        (
            "Get the oldest new ReplicaSet when there are more than one ReplicaSet with the same template",
            vec![new_rs.clone(), old_rs.clone(), new_rs_dup.clone()],
            Some("nginx-dup"),
        ),
        ("Get nil new ReplicaSet", vec![old_rs.clone()], None),
    ];
    for (name, mut list, want) in cases {
        let got = find_new_replica_set(&d, &mut list).map(|rs| rs.metadata.name);
        assert_eq!(got.as_deref(), want, "{name}");
    }
}

/// Port of TestFindOldReplicaSets.
#[test]
fn test_find_old_replica_sets() {
    let d = generate_deployment("nginx");
    let mut new_rs = with_hash(generate_rs(&d, "nginx-new", "uid-new"), "hash");
    new_rs.spec.replicas = Some(1);
    new_rs.metadata.creation_timestamp = Some(t(1, 0));
    let mut new_rs_dup = with_hash(generate_rs(&d, "nginx-dup", "uid-dup"), "different-hash");
    new_rs_dup.metadata.creation_timestamp = Some(t(0, 0));
    let mut old_d = generate_deployment("nginx");
    old_d.spec.template_mut().spec_mut().containers[0].name = "nginx-old-1".into();
    let mut old_rs = generate_rs(&old_d, "nginx-old", "uid-old");
    old_rs.metadata.creation_timestamp = Some(t(-1, 0));

    let names = |v: &[ReplicaSet]| -> Vec<String> {
        let mut v = v.to_vec();
        v.sort_by(cmp_replica_sets_by_creation_timestamp);
        v.into_iter().map(|rs| rs.metadata.name).collect()
    };
    let cases: [(&str, Vec<ReplicaSet>, Vec<&str>, Vec<&str>); 4] = [
        (
            "Get old ReplicaSets",
            vec![new_rs.clone(), old_rs.clone()],
            vec!["nginx-old"],
            vec![],
        ),
        (
            "Get old ReplicaSets with no new ReplicaSet",
            vec![old_rs.clone()],
            vec!["nginx-old"],
            vec![],
        ),
        (
            "Get old ReplicaSets with two new ReplicaSets, only the oldest new ReplicaSet is seen as new ReplicaSet",
            vec![old_rs.clone(), new_rs.clone(), new_rs_dup.clone()],
            vec!["nginx-old", "nginx-new"],
            vec!["nginx-new"],
        ),
        (
            "Get empty old ReplicaSets",
            vec![new_rs.clone()],
            vec![],
            vec![],
        ),
    ];
    for (name, mut list, want_all, want_required) in cases {
        let (required, all) = find_old_replica_sets(&d, &mut list);
        assert_eq!(names(&all), want_all, "{name}");
        assert_eq!(names(&required), want_required, "{name}");
    }
}

/// Port of TestGetReplicaCountForReplicaSets (with the terminating-replicas rows of 1.33+).
#[test]
fn test_get_replica_count_for_replica_sets() {
    let mk = |name: &str, spec: i32, status: i32, term: Option<i32>, og: i64| {
        let mut rs = generate_rs(&generate_deployment(name), name, name);
        rs.spec.replicas = Some(spec);
        rs.status.replicas = status;
        rs.status.terminating_replicas = term;
        rs.status.observed_generation = og;
        rs
    };
    // Upstream sets rs1.Status.ObservedGeneration twice and never rs2's; rs2 still reports.
    let rs1 = mk("foo-rs", 1, 2, Some(3), 1);
    let rs2 = mk("bar-rs", 2, 3, Some(1), 0);
    let rs3 = mk("unsynced-rs", 3, 0, None, 0);
    let rs4 = mk("dropped-rs", 1, 1, None, 1);
    let cases = [
        ("scaling down rs1", vec![rs1.clone()], 1, 2, Some(3)),
        (
            "scaling down rs1 and rs2",
            vec![rs1.clone(), rs2.clone()],
            3,
            5,
            Some(4),
        ),
        ("scaling up rs3", vec![rs3.clone()], 3, 0, Some(0)),
        (
            "scaling down rs1 and rs2 and scaling up rs3",
            vec![rs1.clone(), rs2.clone(), rs3.clone()],
            6,
            5,
            Some(4),
        ),
        (
            "invalid/unknown terminating status for rs4",
            vec![rs4.clone()],
            1,
            1,
            None,
        ),
        (
            "invalid/unknown terminating status for rs4 with rs1, rs2 and rs3",
            vec![rs1, rs2, rs3, rs4],
            7,
            6,
            None,
        ),
    ];
    for (name, sets, count, actual, term) in cases {
        assert_eq!(get_replica_count_for_replica_sets(&sets), count, "{name}");
        assert_eq!(
            get_actual_replica_count_for_replica_sets(&sets),
            actual,
            "{name}"
        );
        assert_eq!(
            get_terminating_replica_count_for_replica_sets(&sets),
            term,
            "{name}"
        );
    }
}

/// Port of TestResolveFenceposts.
#[test]
fn test_resolve_fenceposts() {
    let s = |v: &str| Some(IntOrString::String(v.into()));
    let cases = [
        (s("0%"), s("0%"), 0, Some((0, 1))),
        (s("39%"), s("39%"), 10, Some((4, 3))),
        (s("oops"), s("39%"), 10, None),
        (s("55%"), s("urg"), 10, None),
        (None, s("39%"), 10, Some((0, 3))),
        (s("39%"), None, 10, Some((4, 0))),
        (None, None, 10, Some((0, 1))),
    ];
    for (i, (surge, unav, desired, want)) in cases.into_iter().enumerate() {
        let got = resolve_fenceposts(surge.as_ref(), unav.as_ref(), desired).ok();
        assert_eq!(got, want, "#{i}");
    }
    // ALGORITHMS.md §3.2 examples.
    let p = |v| IntOrString::String(v);
    assert_eq!(
        resolve_fenceposts(Some(&p("25%".into())), Some(&p("25%".into())), 10),
        Ok((3, 2))
    );
    assert_eq!(
        resolve_fenceposts(Some(&p("25%".into())), Some(&p("25%".into())), 1),
        Ok((1, 0))
    );
}

/// Port of TestNewRSNewReplicas.
#[test]
fn test_new_rs_new_replicas() {
    let cases = [
        (
            "can not scale up - to newRSReplicas",
            ROLLING_UPDATE,
            1,
            5,
            1,
            5,
        ),
        ("scale up - to depReplicas", ROLLING_UPDATE, 6, 2, 10, 6),
        ("recreate - to depReplicas", RECREATE, 3, 1, 1, 3),
    ];
    let mut d = generate_deployment("nginx");
    let mut new_rc = generate_rs(&d, "new", "new");
    let mut rs5 = generate_rs(&d, "rs5", "rs5");
    rs5.spec.replicas = Some(5);
    for (name, strategy, dep, new_replicas, surge, want) in cases {
        d.spec.replicas = Some(dep);
        rolling(&mut d, IntOrString::Int(surge), IntOrString::Int(1));
        d.spec.strategy.type_ = strategy.into();
        new_rc.spec.replicas = Some(new_replicas);
        let got = new_rs_new_replicas(&d, std::slice::from_ref(&rs5), &new_rc);
        assert_eq!(got, Ok(want), "{name}");
    }
    d.spec.strategy.type_ = "Canary".into();
    assert_eq!(
        new_rs_new_replicas(&d, &[], &new_rc),
        Err("deployment type Canary isn't supported".into())
    );
}

fn cond(type_: &str, status: &str, reason: &str) -> DeploymentCondition {
    DeploymentCondition {
        type_: type_.into(),
        status: status.into(),
        reason: reason.into(),
        ..Default::default()
    }
}

/// Ports of TestGetCondition, TestSetCondition and TestRemoveCondition.
#[test]
fn test_conditions() {
    let progressing = cond(DEPLOYMENT_PROGRESSING, CONDITION_FALSE, "ForSomeReason");
    let progressing2 = cond(DEPLOYMENT_PROGRESSING, CONDITION_TRUE, "BecauseItIs");
    let available = cond(DEPLOYMENT_AVAILABLE, CONDITION_TRUE, "AwesomeController");
    let status = || DeploymentStatus {
        conditions: vec![progressing.clone(), available.clone()],
        ..Default::default()
    };
    // TestGetCondition
    assert!(get_deployment_condition(&status(), DEPLOYMENT_AVAILABLE).is_some());
    assert!(get_deployment_condition(&status(), DEPLOYMENT_REPLICA_FAILURE).is_none());
    // TestSetCondition: set for the first time, simple set, overwrite.
    let mut s = DeploymentStatus::default();
    set_deployment_condition(&mut s, available.clone());
    assert_eq!(s.conditions, vec![available.clone()]);
    let mut s = DeploymentStatus {
        conditions: vec![progressing.clone()],
        ..Default::default()
    };
    set_deployment_condition(&mut s, available.clone());
    assert_eq!(s, status());
    let mut s = DeploymentStatus {
        conditions: vec![progressing.clone()],
        ..Default::default()
    };
    set_deployment_condition(&mut s, progressing2.clone());
    assert_eq!(s.conditions, vec![progressing2.clone()]);
    // TestRemoveCondition: from empty, simple remove, removes nothing.
    let mut s = DeploymentStatus::default();
    remove_deployment_condition(&mut s, DEPLOYMENT_PROGRESSING);
    assert_eq!(s, DeploymentStatus::default());
    let mut s = DeploymentStatus {
        conditions: vec![progressing.clone()],
        ..Default::default()
    };
    remove_deployment_condition(&mut s, DEPLOYMENT_PROGRESSING);
    assert!(s.conditions.is_empty());
    let mut s = status();
    remove_deployment_condition(&mut s, DEPLOYMENT_REPLICA_FAILURE);
    assert_eq!(s, status());
}

/// SetDeploymentCondition keeps lastTransitionTime when only the reason changes, and does nothing
/// when status and reason are unchanged.
#[test]
fn set_condition_transition_times() {
    let mut s = DeploymentStatus::default();
    set_deployment_condition(
        &mut s,
        new_deployment_condition(DEPLOYMENT_PROGRESSING, CONDITION_TRUE, "A", "a", t(0, 0)),
    );
    set_deployment_condition(
        &mut s,
        new_deployment_condition(
            DEPLOYMENT_PROGRESSING,
            CONDITION_TRUE,
            "A",
            "changed",
            t(1, 0),
        ),
    );
    assert_eq!(s.conditions[0].message, "a");
    set_deployment_condition(
        &mut s,
        new_deployment_condition(DEPLOYMENT_PROGRESSING, CONDITION_TRUE, "B", "b", t(2, 0)),
    );
    assert_eq!(s.conditions[0].last_transition_time, Some(t(0, 0)));
    assert_eq!(s.conditions[0].last_update_time, Some(t(2, 0)));
    set_deployment_condition(
        &mut s,
        new_deployment_condition(DEPLOYMENT_PROGRESSING, CONDITION_FALSE, "C", "c", t(3, 0)),
    );
    assert_eq!(s.conditions[0].last_transition_time, Some(t(3, 0)));
}

fn dep_for_status(
    desired: i32,
    current: i32,
    updated: i32,
    available: i32,
    max_unavailable: i32,
    surge: i32,
) -> Deployment {
    let mut d = Deployment::default();
    d.spec.replicas = Some(desired);
    rolling(
        &mut d,
        IntOrString::Int(surge),
        IntOrString::Int(max_unavailable),
    );
    d.status.replicas = current;
    d.status.updated_replicas = updated;
    d.status.available_replicas = available;
    d
}

/// Port of TestDeploymentComplete.
#[test]
fn test_deployment_complete() {
    let cases = [
        (
            "not complete: min but not all pods become available",
            dep_for_status(5, 5, 5, 4, 1, 0),
            false,
        ),
        (
            "not complete: min availability is not honored",
            dep_for_status(5, 5, 5, 3, 1, 0),
            false,
        ),
        ("complete", dep_for_status(5, 5, 5, 5, 0, 0), true),
        (
            "not complete: all pods are available but not updated",
            dep_for_status(5, 5, 4, 5, 0, 0),
            false,
        ),
        (
            "not complete: still running old pods",
            dep_for_status(1, 2, 1, 1, 0, 1),
            false,
        ),
        (
            "not complete: one replica deployment never comes up",
            dep_for_status(1, 1, 1, 0, 1, 1),
            false,
        ),
    ];
    for (name, d, want) in cases {
        assert_eq!(deployment_complete(&d, &d.status), want, "{name}");
    }
    // The status must be for the current generation.
    let mut d = dep_for_status(5, 5, 5, 5, 0, 0);
    d.metadata.generation = 2;
    d.status.observed_generation = 1;
    assert!(!deployment_complete(&d, &d.status));
}

/// Port of TestDeploymentProgressing.
#[test]
fn test_deployment_progressing() {
    let st = |current, updated, ready, available| DeploymentStatus {
        replicas: current,
        updated_replicas: updated,
        ready_replicas: ready,
        available_replicas: available,
        ..Default::default()
    };
    let dep = |s: DeploymentStatus| Deployment {
        status: s.into(),
        ..Default::default()
    };
    let cases = [
        (
            "progressing: updated pods",
            st(10, 4, 4, 4),
            st(10, 6, 4, 4),
            true,
        ),
        ("not progressing", st(10, 4, 4, 4), st(10, 4, 4, 4), false),
        (
            "progressing: old pods removed",
            st(10, 4, 6, 6),
            st(8, 4, 6, 6),
            true,
        ),
        (
            "not progressing: less new pods",
            st(10, 7, 3, 3),
            st(10, 6, 3, 3),
            false,
        ),
        (
            "progressing: less overall but more new pods",
            st(10, 4, 7, 7),
            st(8, 8, 5, 5),
            true,
        ),
        (
            "progressing: more ready pods",
            st(10, 10, 9, 8),
            st(10, 10, 10, 8),
            true,
        ),
        (
            "progressing: more available pods",
            st(10, 10, 10, 9),
            st(10, 10, 10, 10),
            true,
        ),
    ];
    for (name, old, new, want) in cases {
        assert_eq!(deployment_progressing(&dep(old), &new), want, "{name}");
    }
}

/// Port of TestDeploymentTimedOut.
#[test]
fn test_deployment_timed_out() {
    let dep = |reason: &str, pds: Option<i32>, from: Time| {
        let mut d = Deployment::default();
        d.spec.progress_deadline_seconds = pds;
        d.status.conditions = vec![DeploymentCondition {
            type_: DEPLOYMENT_PROGRESSING.into(),
            status: CONDITION_TRUE.into(),
            reason: reason.into(),
            last_update_time: Some(from),
            ..Default::default()
        }];
        d
    };
    let cases = [
        (
            "nil progressDeadlineSeconds specified - no timeout",
            dep("", None, t(1, 9)),
            t(1, 20),
            false,
        ),
        (
            "infinite progressDeadlineSeconds specified - no timeout",
            dep("", Some(MAX_INT32), t(1, 9)),
            t(1, 20),
            false,
        ),
        (
            "progressDeadlineSeconds: 10s, now - started => 00:01:20 - 00:01:09 => 11s",
            dep("", Some(10), t(1, 9)),
            t(1, 20),
            true,
        ),
        (
            "progressDeadlineSeconds: 10s, now - started => 00:01:20 - 00:01:11 => 9s",
            dep("", Some(10), t(1, 11)),
            t(1, 20),
            false,
        ),
        (
            "previous status was a complete deployment",
            dep(NEW_RS_AVAILABLE_REASON, None, Time::ZERO),
            t(1, 20),
            false,
        ),
        // Exactly at the deadline it has not timed out yet ("strictly before").
        (
            "exactly at the deadline",
            dep("", Some(10), t(1, 10)),
            t(1, 20),
            false,
        ),
        (
            "already timed out",
            dep(TIMED_OUT_REASON, Some(10), t(1, 19)),
            t(1, 20),
            true,
        ),
    ];
    for (name, d, now, want) in cases {
        assert_eq!(deployment_timed_out(&d, &d.status, now), want, "{name}");
    }
}

/// Port of TestMaxUnavailable.
#[test]
fn test_max_unavailable() {
    let dep = |replicas: i32, mu: IntOrString| {
        let mut d = Deployment::default();
        d.spec.replicas = Some(replicas);
        rolling(&mut d, IntOrString::Int(1), mu);
        d
    };
    let mut recreate = Deployment::default();
    recreate.spec.strategy.type_ = RECREATE.into();
    let cases = [
        (
            "maxUnavailable less than replicas",
            dep(10, IntOrString::Int(5)),
            5,
        ),
        (
            "maxUnavailable equal replicas",
            dep(10, IntOrString::Int(10)),
            10,
        ),
        (
            "maxUnavailable greater than replicas",
            dep(5, IntOrString::Int(10)),
            5,
        ),
        (
            "maxUnavailable with replicas is 0",
            dep(0, IntOrString::Int(10)),
            0,
        ),
        (
            "maxUnavailable with Recreate deployment strategy",
            recreate,
            0,
        ),
        (
            "maxUnavailable less than replicas with percents",
            dep(10, "50%".into()),
            5,
        ),
        (
            "maxUnavailable equal replicas with percents",
            dep(10, "100%".into()),
            10,
        ),
        (
            "maxUnavailable greater than replicas with percents",
            dep(5, "100%".into()),
            5,
        ),
    ];
    for (name, d, want) in cases {
        assert_eq!(max_unavailable(&d), want, "{name}");
    }
}

/// Port of TestMinAvailable.
#[test]
fn test_min_available() {
    let dep = |replicas: i32, mu: IntOrString| {
        let mut d = Deployment::default();
        d.spec.replicas = Some(replicas);
        rolling(&mut d, IntOrString::Int(1), mu);
        d
    };
    let mut recreate = Deployment::default();
    recreate.spec.replicas = Some(10);
    recreate.spec.strategy.type_ = RECREATE.into();
    let cases = [
        (
            "replicas greater than maxUnavailable",
            dep(10, IntOrString::Int(5)),
            5,
        ),
        (
            "replicas equal maxUnavailable",
            dep(10, IntOrString::Int(10)),
            0,
        ),
        (
            "replicas less than maxUnavailable",
            dep(5, IntOrString::Int(10)),
            0,
        ),
        ("replicas is 0", dep(0, IntOrString::Int(10)), 0),
        (
            "minAvailable with Recreate deployment strategy",
            recreate,
            0,
        ),
        (
            "replicas greater than maxUnavailable with percents",
            dep(10, "60%".into()),
            4,
        ),
        (
            "replicas equal maxUnavailable with percents",
            dep(10, "100%".into()),
            0,
        ),
        (
            "replicas less than maxUnavailable with percents",
            dep(5, "100%".into()),
            0,
        ),
    ];
    for (name, d, want) in cases {
        assert_eq!(min_available(&d), want, "{name}");
    }
}

/// Port of TestGetNonNegativeInt32FromAnnotation.
#[test]
fn test_get_non_negative_int32_from_annotation() {
    let cases: [(&str, &[(&str, &str)], Option<i32>, &str); 8] = [
        ("invalid empty", &[], None, ""),
        (
            "invalid",
            &[("test", "invalid"), ("foo", "2")],
            None,
            "invalid syntax",
        ),
        (
            "invalid negative ",
            &[("test", "-1"), ("foo", "2")],
            None,
            "invalid syntax",
        ),
        ("valid zero", &[("test", "0"), ("foo", "2")], Some(0), ""),
        ("valid", &[("test", "13"), ("foo", "2")], Some(13), ""),
        (
            "valid max",
            &[("test", "2147483647"), ("foo", "2")],
            Some(i32::MAX),
            "",
        ),
        (
            "invalid max out of range",
            &[("test", "2147483648"), ("foo", "2")],
            None,
            "out of range",
        ),
        (
            "invalid max out of range 2",
            &[("test", "4294967296"), ("foo", "2")],
            None,
            "out of range",
        ),
    ];
    for (name, ann, want, err) in cases {
        let meta = ObjectMeta {
            annotations: labels(ann).into(),
            ..Default::default()
        };
        match get_non_negative_int32_from_annotation(&meta, "test") {
            Ok(v) => {
                assert!(err.is_empty(), "{name}: expected error {err}");
                assert_eq!(v, want, "{name}");
            }
            Err(e) => {
                assert!(!err.is_empty() && e.contains(err), "{name}: {e}");
                assert_eq!(want, None, "{name}");
            }
        }
    }
}

/// Port of TestAnnotationUtils (SetNewReplicaSetAnnotations, SetReplicasAnnotations, IsSaturated).
#[test]
fn test_annotation_utils() {
    let mut d = generate_deployment("nginx");
    let mut rs = generate_rs(&d, "nginx-rs", "uid");
    d.metadata
        .annotations
        .insert(REVISION_ANNOTATION.into(), "1".into());

    // SetNewReplicaSetAnnotations: revisions 11 through 20 with a 5-character history limit.
    for i in 10..20 {
        let next = (i + 1).to_string();
        set_new_replica_set_annotations(&d, &mut rs, &next, true, 5);
        if i >= 12 {
            let expected = format!("{},{}", i - 1, i);
            assert_eq!(
                rs.metadata.annotations.get(REVISION_HISTORY_ANNOTATION),
                Some(&expected),
                "revision {next}"
            );
        }
        assert_eq!(
            rs.metadata.annotations.get(REVISION_ANNOTATION),
            Some(&next)
        );
    }

    // SetReplicasAnnotations
    assert!(set_replicas_annotations(&mut rs, 10, 11));
    assert_eq!(rs.metadata.annotations[DESIRED_REPLICAS_ANNOTATION], "10");
    assert_eq!(rs.metadata.annotations[MAX_REPLICAS_ANNOTATION], "11");
    assert!(!set_replicas_annotations(&mut rs, 10, 11));

    // IsSaturated
    rs.metadata
        .annotations
        .insert(DESIRED_REPLICAS_ANNOTATION.into(), "1".into());
    rs.status.available_replicas = 1;
    rs.spec.replicas = Some(1);
    assert!(is_saturated(&d, Some(&rs)));
    rs.status.available_replicas = 0;
    assert!(!is_saturated(&d, Some(&rs)));
    assert!(!is_saturated(&d, None));
}

/// SetNewReplicaSetAnnotations: what a brand-new RS gets, which deployment annotations are
/// copied, the 2000-character history limit, and an unparseable RS revision.
#[test]
fn new_replica_set_annotations_rules() {
    let mut d = generate_deployment("nginx");
    d.spec.replicas = Some(10);
    rolling(&mut d, "25%".into(), "25%".into());
    for (k, v) in [
        ("kubernetes.io/change-cause", "kubectl set image"),
        (LAST_APPLIED_CONFIG_ANNOTATION, "{}"),
        (REVISION_ANNOTATION, "7"),
        (DEPRECATED_ROLLBACK_TO, "2"),
    ] {
        d.metadata.annotations.insert(k.into(), v.into());
    }
    let mut rs = generate_rs(&d, "nginx-1", "uid");
    assert!(set_new_replica_set_annotations(
        &d, &mut rs, "3", false, 2000
    ));
    let want: BTreeMap<String, String> = [
        ("kubernetes.io/change-cause", "kubectl set image"),
        (REVISION_ANNOTATION, "3"),
        (DESIRED_REPLICAS_ANNOTATION, "10"),
        (MAX_REPLICAS_ANNOTATION, "13"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    assert_eq!(rs.metadata.annotations, want);
    // A lower revision does not replace a higher one.
    assert!(!set_new_replica_set_annotations(
        &d, &mut rs, "2", true, 2000
    ));
    assert_eq!(rs.metadata.annotations[REVISION_ANNOTATION], "3");

    // Long history: entries are dropped from the front to stay within the limit.
    let history: Vec<String> = (1..=530).map(|i| i.to_string()).collect();
    let history = history.join(",");
    // 2011 characters; with ",1000" 2016: "1," … "8," are dropped to get back to 2000.
    assert_eq!(history.len(), 2011);
    rs.metadata
        .annotations
        .insert(REVISION_HISTORY_ANNOTATION.into(), history.clone());
    rs.metadata
        .annotations
        .insert(REVISION_ANNOTATION.into(), "1000".into());
    set_new_replica_set_annotations(&d, &mut rs, "1001", true, 2000);
    let h = &rs.metadata.annotations[REVISION_HISTORY_ANNOTATION];
    assert_eq!(h.len(), 2000);
    assert!(h.starts_with("9,10,"), "{}", &h[..10]);
    assert!(h.ends_with(",529,530,1000"));

    // An unparseable revision on the RS stops everything but the annotation copy.
    let mut bad = generate_rs(&d, "bad", "bad");
    bad.metadata
        .annotations
        .insert(REVISION_ANNOTATION.into(), "x".into());
    assert!(!set_new_replica_set_annotations(
        &d, &mut bad, "9", false, 2000
    ));
    assert_eq!(bad.metadata.annotations[REVISION_ANNOTATION], "x");
}

/// Port of TestReplicasAnnotationsNeedUpdate.
#[test]
fn test_replicas_annotations_need_update() {
    let rs = |ann: &[(&str, &str)]| ReplicaSet {
        metadata: ObjectMeta {
            name: "hello".into(),
            namespace: "test".into(),
            annotations: labels(ann).into(),
            ..Default::default()
        },
        ..Default::default()
    };
    let cases = [
        ("test Annotations nil", rs(&[]), true),
        (
            "test desiredReplicas update",
            rs(&[
                (DESIRED_REPLICAS_ANNOTATION, "8"),
                (MAX_REPLICAS_ANNOTATION, "20"),
            ]),
            true,
        ),
        (
            "test maxReplicas update",
            rs(&[
                (DESIRED_REPLICAS_ANNOTATION, "10"),
                (MAX_REPLICAS_ANNOTATION, "16"),
            ]),
            true,
        ),
        (
            "test needn't update",
            rs(&[
                (DESIRED_REPLICAS_ANNOTATION, "10"),
                (MAX_REPLICAS_ANNOTATION, "20"),
            ]),
            false,
        ),
    ];
    for (name, rs, want) in cases {
        assert_eq!(
            replicas_annotations_need_update(&rs, 10, 20),
            want,
            "{name}"
        );
    }
}

/// Port of TestGetDeploymentsForReplicaSet.
#[test]
fn test_get_deployments_for_replica_set() {
    let deployments: Vec<Deployment> = (0..3)
        .map(|i| {
            let mut d = Deployment::default();
            d.metadata.name = format!("deployment-{i}");
            d.metadata.namespace = "test".into();
            d.spec.selector = Some(LabelSelector::from_labels(&labels(&[(
                "app",
                &format!("test-{i}"),
            )])));
            d
        })
        .collect();
    let rss: Vec<ReplicaSet> = (0..5)
        .map(|i| ReplicaSet {
            metadata: ObjectMeta {
                namespace: "test".into(),
                name: format!("test-replicaSet-{i}"),
                labels: labels(&[
                    ("app", &format!("test-{i}")),
                    ("label", &format!("label-{i}")),
                ])
                .into(),
                ..Default::default()
            },
            ..Default::default()
        })
        .collect();
    for (i, rs) in rss.iter().enumerate().take(3) {
        let got = get_deployments_for_replica_set(&deployments, rs).unwrap();
        let names: Vec<&str> = got.iter().map(|d| d.metadata.name.as_str()).collect();
        assert_eq!(names, vec![format!("deployment-{i}")]);
    }
    for (i, rs) in rss.iter().enumerate().skip(3) {
        assert_eq!(
            get_deployments_for_replica_set(&deployments, rs).unwrap_err(),
            format!("could not find deployments set for ReplicaSet test-replicaSet-{i} in namespace test with labels: map[app:test-{i} label:label-{i}]")
        );
    }
    let unlabeled = ReplicaSet {
        metadata: ObjectMeta {
            name: "x".into(),
            ..Default::default()
        },
        ..Default::default()
    };
    assert_eq!(
        get_deployments_for_replica_set(&deployments, &unlabeled).unwrap_err(),
        "no deployments found for ReplicaSet x because it has no labels"
    );
}

/// Port of TestGetReplicaSetFraction.
#[test]
fn test_get_replica_set_fraction() {
    let cases: [(&str, i32, i32, i32, i32, Option<&str>, i32); 9] = [
        ("empty deployment always scales to 0", 0, 0, 0, 10, None, -10),
        ("unsynced deployment does not scale when max-replicas annotation is missing (removed by a 3rd party)", 10, 0, 0, 5, None, 0),
        ("unsynced deployment does not scale when max-replicas annotation is incorrectly set to 0 (by a 3rd party)", 10, 0, 0, 5, Some("0"), 0),
        ("scale up by 1/5 should increase RS replicas by 1/5 when max-replicas annotation is missing (removed by a 3rd party)", 120, 100, 0, 50, None, 10),
        ("scale up by 1/5 should increase RS replicas by 1/5 when max-replicas annotation is incorrectly set to 0 (by a 3rd party)", 120, 100, 0, 50, Some("0"), 10),
        ("scale up by 1/5 should increase RS replicas by 1/5", 120, 0, 0, 50, Some("100"), 10),
        ("scale up with maxSurge by 1/5 should increase RS replicas approximately by 1/5", 120, 0, 10, 50, Some("110"), 9),
        ("scale down by 1/6 should decrease RS replicas by 1/6", 10, 0, 0, 6, Some("12"), -1),
        ("scale down with maxSurge by 1/6 should decrease RS replicas approximately by 1/6", 100, 0, 10, 50, Some("130"), -8),
    ];
    for (name, dr, dsr, surge, rsr, ann, want) in cases {
        let mut d = generate_deployment("nginx");
        d.status.replicas = dsr;
        d.spec.replicas = Some(dr);
        rolling(&mut d, IntOrString::Int(surge), IntOrString::Int(1));
        let mut rs = generate_rs(&d, "rs", "rs");
        rs.metadata.annotations = (ann
            .map(|a| labels(&[(MAX_REPLICAS_ANNOTATION, a)]))
            .unwrap_or_default())
        .into();
        rs.spec.replicas = Some(rsr);
        assert_eq!(get_replica_set_fraction(&rs, &d), want, "{name}");
    }
}

/// GetProportion: never more (up) or less (down) than what is left; zero-sized replica sets and
/// nothing-to-add return 0.
#[test]
fn get_proportion_bounds() {
    let mut d = generate_deployment("nginx");
    d.spec.replicas = Some(120);
    rolling(&mut d, IntOrString::Int(0), IntOrString::Int(1));
    let mut rs = generate_rs(&d, "rs", "rs");
    rs.spec.replicas = Some(50);
    rs.metadata.annotations = labels(&[(MAX_REPLICAS_ANNOTATION, "100")]).into();
    assert_eq!(get_proportion(Some(&rs), &d, 20, 0), 10);
    assert_eq!(get_proportion(Some(&rs), &d, 20, 15), 5);
    assert_eq!(get_proportion(Some(&rs), &d, 20, 20), 0);
    assert_eq!(get_proportion(None, &d, 20, 0), 0);
    d.spec.replicas = Some(80);
    assert_eq!(get_proportion(Some(&rs), &d, -20, 0), -10);
    assert_eq!(get_proportion(Some(&rs), &d, -20, -15), -5);
    rs.spec.replicas = Some(0);
    assert_eq!(get_proportion(Some(&rs), &d, -20, 0), 0);
}

#[test]
fn revisions() {
    let mk = |rev: Option<&str>| {
        let mut rs = ReplicaSet::default();
        if let Some(r) = rev {
            rs.metadata
                .annotations
                .insert(REVISION_ANNOTATION.into(), r.into());
        }
        rs
    };
    let rss = vec![
        mk(Some("3")),
        mk(Some("1")),
        mk(Some("x")),
        mk(Some("2")),
        mk(None),
    ];
    assert_eq!(max_revision(&rss), 3);
    assert_eq!(last_revision(&rss), 2);
    assert_eq!(last_revision(&[mk(Some("5"))]), 0);
    assert_eq!(revision(&mk(None).metadata), Ok(0));
    assert!(revision(&mk(Some("x")).metadata).is_err());
}

/// Port of TestPodTemplateSpecHash (hash_test.go): the hash is stable, depends on the template and
/// on the collision count, and only uses the safe alphabet.
#[test]
fn test_pod_template_spec_hash() {
    let d = generate_deployment("nginx");
    let h = compute_hash(&d.spec.template, None);
    assert_eq!(h, compute_hash(&d.spec.template.clone(), None));
    assert!(!h.is_empty() && h.len() <= 10);
    assert!(h.bytes().all(|b| crate::rng::NAME_ALPHABET.contains(&b)));
    let mut seen = std::collections::BTreeSet::new();
    for c in 0..1000 {
        assert!(
            seen.insert(compute_hash(&d.spec.template, Some(c))),
            "collision at {c}"
        );
    }
    let mut other = crate::api::PodTemplateSpec::clone(&d.spec.template);
    other.spec_mut().containers[0].image = "nginx:1.2".into();
    assert_ne!(compute_hash(&other, None), h);
    // SafeEncodeString maps each character: '0' (48) → alphabet[48 % 27 = 21].
    assert_eq!(safe_encode_string("0"), "4");
}

/// Port of TestComputeHash (pkg/controller/controller_utils_test.go; earlier
/// TestGetPodTemplateSpecHash in deployment/util/pod_util_test.go): for an empty template, the
/// collision count changes the hash, including nil against the largest count.
#[test]
fn test_compute_hash() {
    let template = crate::api::PodTemplateSpec::default();
    // (name, collisionCount, otherCollisionCount)
    for (name, count, other) in [
        ("simple", Some(1), Some(2)),
        ("using math.MaxInt64", None, Some(i32::MAX)),
    ] {
        assert_ne!(
            compute_hash(&template, count),
            compute_hash(&template, other),
            "{name}"
        );
    }
}

#[test]
fn replica_set_names() {
    assert_eq!(generate_replica_set_name("web", "5d9c7b"), "web-5d9c7b");
    // Upstream concatenates without truncating (sync.go getNewReplicaSet), even past the
    // 253-character limit of an object name.
    let long = "a".repeat(250);
    let name = generate_replica_set_name(&long, "abcdefghij");
    assert_eq!(name.len(), 261);
    assert_eq!(name, format!("{long}-abcdefghij"));
}

#[test]
fn find_active_or_latest_cases() {
    let mk = |name: &str, replicas: i32, ts: Time| {
        let mut rs = ReplicaSet::default();
        rs.metadata.name = name.into();
        rs.spec.replicas = Some(replicas);
        rs.metadata.creation_timestamp = Some(ts);
        rs
    };
    let new = mk("new", 0, t(2, 0));
    let mut olds = vec![mk("old1", 0, t(0, 0)), mk("old2", 0, t(1, 0))];
    // None active: the new one.
    assert_eq!(
        find_active_or_latest(Some(&new), &mut olds)
            .unwrap()
            .metadata
            .name,
        "new"
    );
    // None active and no new: the newest old one (sorted newest first in place).
    assert_eq!(
        find_active_or_latest(None, &mut olds)
            .unwrap()
            .metadata
            .name,
        "old2"
    );
    assert_eq!(olds[0].metadata.name, "old2");
    // One active.
    olds[1].spec.replicas = Some(3);
    assert_eq!(
        find_active_or_latest(Some(&new), &mut olds)
            .unwrap()
            .metadata
            .name,
        "old1"
    );
    // Two active: none.
    let new = mk("new", 1, t(2, 0));
    assert!(find_active_or_latest(Some(&new), &mut olds).is_none());
    assert!(find_active_or_latest(None, &mut []).is_none());
}

#[test]
fn sort_orders() {
    let mk = |name: &str, replicas: i32, ts: Time, rev: Option<&str>| {
        let mut rs = ReplicaSet::default();
        rs.metadata.name = name.into();
        rs.spec.replicas = Some(replicas);
        rs.metadata.creation_timestamp = Some(ts);
        if let Some(r) = rev {
            rs.metadata
                .annotations
                .insert(REVISION_ANNOTATION.into(), r.into());
        }
        rs
    };
    let mut v = vec![
        mk("b", 2, t(1, 0), Some("1")),
        mk("a", 2, t(1, 0), Some("3")),
        mk("c", 5, t(0, 0), None),
        mk("d", 2, t(2, 0), Some("2")),
    ];
    let names = |v: &[ReplicaSet]| {
        v.iter()
            .map(|r| r.metadata.name.clone())
            .collect::<Vec<_>>()
    };
    v.sort_by(cmp_replica_sets_by_creation_timestamp);
    assert_eq!(names(&v), ["c", "a", "b", "d"]);
    v.sort_by(cmp_replica_sets_by_size_newer);
    assert_eq!(names(&v), ["c", "d", "b", "a"]);
    v.sort_by(cmp_replica_sets_by_size_older);
    assert_eq!(names(&v), ["c", "a", "b", "d"]);
    v.sort_by(cmp_replica_sets_by_revision);
    assert_eq!(names(&v), ["c", "b", "d", "a"]);
}
