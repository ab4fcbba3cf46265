//! Ports of upstream core/kubelet test tables kubeplay had not ported yet (repo
//! kubernetes/kubernetes, 1.35 behaviour and feature-gate defaults). Every test names the
//! upstream test and file it ports; row names follow upstream's.

use kubeplay::api::validation::affinity::has_invalid_topology_spread_constraint_label_selector;
use kubeplay::api::validation::pod::{
    affinity_options_for_update, has_invalid_label_value_in_required_node_affinity,
};
use kubeplay::api::{Duration, Object, Pod, PodSpec, Time};
use kubeplay::features::FeatureGates;
use kubeplay::kubelet_status::{pod_condition_by_kubelet, BackoffPolicy};
use kubeplay::store::apiserver::{ApiServer, DeleteOptions};
use serde_json::{json, Value};

fn now() -> Time {
    Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap()
}

// ---------------------------------------------------------------------------------------------
// pkg/kubelet/types/pod_status_test.go
// ---------------------------------------------------------------------------------------------

/// Port of `TestPodConditionByKubelet` (pkg/kubelet/types/pod_status_test.go), with
/// PodReadyToStartContainersCondition on (its 1.35 default).
#[test]
fn pod_condition_by_kubelet_table() {
    for t in [
        "PodScheduled",
        "Ready",
        "Initialized",
        "ContainersReady",
        "PodReadyToStartContainers",
    ] {
        assert!(pod_condition_by_kubelet(t), "{t} is owned by the kubelet");
    }
    // `v1.PodReasonUnschedulable` is a reason, not a condition the kubelet owns.
    for t in ["abcd", "Unschedulable"] {
        assert!(
            !pod_condition_by_kubelet(t),
            "{t} is not owned by the kubelet"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// pkg/registry/core/pod/strategy_test.go
// ---------------------------------------------------------------------------------------------

fn load_pod(api: &mut ApiServer, spec: Value, status: Value) {
    let mut spec = spec;
    spec["containers"] = json!([{"name": "ctr", "image": "image"}]);
    let p: Pod = serde_json::from_value(json!({
        "metadata": {"name": "foo", "namespace": "default"},
        "spec": spec,
        "status": status,
    }))
    .expect("pod decodes");
    api.load(Object::Pod(p)).expect("pod loads");
}

/// Port of `TestCheckGracefulDelete` (pkg/registry/core/pod/strategy_test.go): the grace period
/// `Strategy.CheckGracefulDelete` writes into the delete options, observed as the deleted pod's
/// `deletionGracePeriodSeconds`.
#[test]
fn check_graceful_delete() {
    let default_grace_period = 30;
    let rows: [(&str, Value, Value, Option<i64>, i64); 6] = [
        (
            "in pending phase with has node name",
            json!({"nodeName": "something"}),
            json!({"phase": "Pending"}),
            Some(default_grace_period),
            default_grace_period,
        ),
        (
            "in failed phase with has node name",
            json!({"nodeName": "something"}),
            json!({"phase": "Failed"}),
            Some(default_grace_period),
            0,
        ),
        (
            "in failed phase",
            json!({}),
            json!({"phase": "Pending"}),
            Some(default_grace_period),
            0,
        ),
        (
            "in succeeded phase",
            json!({}),
            json!({"phase": "Succeeded"}),
            Some(default_grace_period),
            0,
        ),
        (
            "no phase",
            json!({}),
            json!({}),
            Some(default_grace_period),
            0,
        ),
        (
            "has negative grace period",
            json!({"nodeName": "something", "terminationGracePeriodSeconds": -1}),
            json!({}),
            None,
            1,
        ),
    ];
    for (name, spec, status, delete_grace, want) in rows {
        let mut api = ApiServer::new(1, now());
        load_pod(&mut api, spec, status);
        let opts = DeleteOptions {
            grace_period_seconds: delete_grace,
            ..Default::default()
        };
        let got = api.delete("Pod", "default", "foo", &opts).expect(name);
        assert_eq!(
            got.meta().deletion_grace_period_seconds,
            Some(want),
            "{name}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// pkg/api/pod/util_test.go: GetValidationOptionsFromPodSpecAndMeta
// ---------------------------------------------------------------------------------------------

fn pod_spec(v: Value) -> PodSpec {
    serde_json::from_value(v).expect("pod spec decodes")
}

/// Port of `TestValidateInvalidLabelValueInNodeSelectorOption` (pkg/api/pod/util_test.go):
/// `AllowInvalidLabelValueInRequiredNodeAffinity` is set on update when the old spec's required
/// node affinity already holds an invalid label value. On create there is no old spec, which
/// kubeplay represents as the empty spec.
#[test]
fn validate_invalid_label_value_in_node_selector_option() {
    let required = |values: Value| {
        pod_spec(json!({"affinity": {"nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                {"matchExpressions": [{"key": "foo", "operator": "In", "values": values}]}
            ]}
        }}}))
    };
    let rows = [
        ("Create", pod_spec(json!({})), false),
        ("UpdateInvalidLabelSelector", required(json!(["-1"])), true),
        ("UpdateValidLabelSelector", required(json!(["bar"])), false),
        (
            "UpdateEmptyLabelSelector",
            pod_spec(json!({"affinity": {"nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": []}
            }}})),
            false,
        ),
    ];
    for (name, old, want) in rows {
        assert_eq!(
            has_invalid_label_value_in_required_node_affinity(&old),
            want,
            "{name}"
        );
    }
}

/// Port of `TestValidateTopologySpreadConstraintLabelSelectorOption`
/// (pkg/api/pod/util_test.go): `AllowInvalidTopologySpreadConstraintLabelSelector` is set on
/// update when the old spec's topology spread constraints already hold an invalid selector.
#[test]
fn validate_topology_spread_constraint_label_selector_option() {
    let with_selector =
        |sel: Value| pod_spec(json!({"topologySpreadConstraints": [{"labelSelector": sel}]}));
    let rows = [
        ("Create", pod_spec(json!({})), false),
        (
            "UpdateInvalidLabelSelector",
            with_selector(json!({"matchLabels": {"NoUppercaseOrSpecialCharsLike=Equals": "foo"}})),
            true,
        ),
        (
            "UpdateValidLabelSelector",
            with_selector(json!({"matchLabels": {"foo": "foo"}})),
            false,
        ),
        (
            "UpdateEmptyLabelSelector",
            with_selector(Value::Null),
            false,
        ),
    ];
    for (name, old, want) in rows {
        assert_eq!(
            has_invalid_topology_spread_constraint_label_selector(
                old.extra.get("topologySpreadConstraints")
            ),
            want,
            "{name}"
        );
        // The same option, as the update path computes it.
        assert_eq!(
            affinity_options_for_update(&old, &FeatureGates::default())
                .allow_invalid_topology_spread_constraint_label_selector,
            want,
            "{name} (affinity_options_for_update)"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// staging/src/k8s.io/client-go/util/flowcontrol/backoff_test.go
// ---------------------------------------------------------------------------------------------

/// `NewFakeBackOff(step, max, clock)` (no jitter; an entry expires 2 × max after its last
/// update).
fn fake_backoff(step: i64, max: i64) -> BackoffPolicy {
    BackoffPolicy {
        initial: Duration::from_secs(step),
        max: Duration::from_secs(max),
        reset_after: Duration::from_secs(2 * max),
    }
}

fn at(secs: i64) -> Time {
    now() + Duration::from_secs(secs)
}

/// Port of `TestBackoffHighWaterMark` (client-go util/flowcontrol/backoff_test.go; the test
/// was once spelled `TestBackoffHightWaterMark`): at the cap, a `Next` max + step later (less
/// than 2 × max) keeps the period at the cap.
#[test]
fn backoff_high_water_mark() {
    let b = fake_backoff(1, 5);
    let (mut e, mut t) = (None, 0);
    for _ in 0..=5 {
        t += 1;
        e = Some(b.next(e, at(t), at(t)));
    }
    t += 5 + 1;
    assert_eq!(b.next(e, at(t), at(t)).0, Duration::from_secs(5));
}

/// Port of `TestBackoffGC` (client-go util/flowcontrol/backoff_test.go). kubeplay keeps the
/// entries with the pods instead of garbage-collecting a map, so the GC is observed through
/// `hasExpired`: max + step after the last update the entry is kept (it still doubles, capped),
/// 2 × (max + step) after it is gone (it starts over at the initial period).
#[test]
fn backoff_gc() {
    let b = fake_backoff(1, 5);
    let (mut e, mut t) = (None, 0);
    for _ in 0..=5 {
        t += 1;
        e = Some(b.next(e, at(t), at(t)));
    }
    let last_update = t;
    let kept = last_update + 5 + 1;
    assert_eq!(b.next(e, at(kept), at(kept)).0, Duration::from_secs(5));
    assert!(
        !b.is_in_backoff_since_update(e, at(kept)),
        "past its period"
    );
    let gone = kept + 5 + 1;
    assert_eq!(b.next(e, at(gone), at(gone)).0, Duration::from_secs(1));
}

// ---------------------------------------------------------------------------------------------
// pkg/apis/core/validation/validation_test.go
// ---------------------------------------------------------------------------------------------

/// Port of `TestValidateNonSpecialIP`.
#[test]
fn validate_non_special_ip() {
    use kubeplay::api::validation::ip::validate_non_special_ip;
    for (desc, ip) in [
        ("ipv4", "10.1.2.3"),
        ("ipv4 class E", "244.1.2.3"),
        ("ipv6", "2000::1"),
    ] {
        let errs = validate_non_special_ip(ip, "ip");
        assert!(
            errs.is_empty(),
            "{desc}: ValidateNonSpecialIP({ip:?}) = {errs:?}"
        );
    }
    for (desc, ip) in [
        ("ipv4 unspecified", "0.0.0.0"),
        ("ipv6 unspecified", "::0"),
        ("ipv4 localhost", "127.0.0.0"),
        ("ipv4 localhost", "127.255.255.255"),
        ("ipv6 localhost", "::1"),
        ("ipv6 link local", "fe80::"),
        ("ipv6 local multicast", "ff02::"),
    ] {
        let errs = validate_non_special_ip(ip, "ip");
        assert!(
            !errs.is_empty(),
            "{desc}: ValidateNonSpecialIP({ip:?}) = nil"
        );
    }
}
