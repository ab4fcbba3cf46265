//! Ports of the StatefulSet REST strategy test rows added upstream after the first port
//! (`pkg/registry/apps/statefulset/strategy_test.go`, repo kubernetes/kubernetes):
//! the newer rows of `TestDropStatefulSetDisabledFields` (minReadySeconds, percentages,
//! ordinals, gate transitions) and the `TestStatefulSetStrategy` subtests on maxUnavailable and
//! the PVC retention policy. The older rows are in `strategy_upstream_tests.rs`.

use crate::api::defaults::drop_stateful_set_disabled_fields;
use crate::api::{ApiError, Object, StatefulSet, Time};
use crate::features::FeatureGates;
use crate::store::apiserver::ApiServer;
use serde_json::{json, Value};

/// `makeStatefulSetWithMaxUnavailable(ss, maxUnavailable, forceRollingUpdate)` on top of
/// `generateStatefulSetWithMinReadySeconds(min_ready)` (`None`: the `nil` base, OrderedReady and
/// RollingUpdate). `max_unavailable` is the JSON value (`1`, `"20%"`).
fn set(min_ready: Option<i32>, max_unavailable: Option<Value>, force_rolling: bool) -> StatefulSet {
    let mut spec = match min_ready {
        Some(m) => json!({"minReadySeconds": m}),
        None => json!({"podManagementPolicy": "OrderedReady",
            "updateStrategy": {"type": "RollingUpdate"}}),
    };
    if max_unavailable.is_some() || force_rolling {
        let ru = match max_unavailable {
            Some(v) => json!({"maxUnavailable": v}),
            None => json!({}),
        };
        spec["updateStrategy"]["rollingUpdate"] = ru;
    }
    serde_json::from_value(json!({ "spec": spec })).expect("valid StatefulSet")
}

/// `makeStatefulSetWithStatefulSetOrdinals(createOrdinalsWithStart(start))`.
fn with_ordinals(start: i32) -> StatefulSet {
    serde_json::from_value(json!({
        "metadata": {"name": "ss", "namespace": "default"},
        "spec": {
            "ordinals": {"start": start},
            "selector": {"matchLabels": {"a": "b"}},
            "template": {"metadata": {"labels": {"a": "b"}}, "spec": {
                "restartPolicy": "Always", "dnsPolicy": "ClusterFirst",
                "containers": [{"name": "abc", "image": "image", "imagePullPolicy": "IfNotPresent"}]
            }},
            "updateStrategy": {"type": "RollingUpdate"},
            "podManagementPolicy": "OrderedReady"
        }
    }))
    .expect("valid StatefulSet")
}

// Port of TestDropStatefulSetDisabledFields (pkg/registry/apps/statefulset/strategy_test.go),
// the rows of the newer table not in strategy_upstream_tests.rs: the whole set is compared, and
// the old set must never change.
#[test]
fn drop_stateful_set_disabled_fields_newer_rows() {
    let int = |n: i32| Some(json!(n));
    let pct = |s: &str| Some(json!(s));
    type Row = (
        &'static str,
        bool,
        StatefulSet,
        Option<StatefulSet>,
        StatefulSet,
    );
    let rows: Vec<Row> = vec![
        (
            "set minReadySeconds, no update",
            false,
            set(Some(10), None, false),
            Some(set(Some(20), None, false)),
            set(Some(10), None, false),
        ),
        (
            "set minReadySeconds, oldSS field set to nil",
            false,
            set(Some(10), None, false),
            None,
            set(Some(10), None, false),
        ),
        (
            "set minReadySeconds, oldSS field is set to 0",
            false,
            set(Some(10), None, false),
            Some(set(Some(0), None, false)),
            set(Some(10), None, false),
        ),
        (
            "pods ready but not available due to minReadySeconds with maxUnavailable",
            true,
            set(Some(30), int(1), false),
            Some(set(Some(30), int(1), false)),
            set(Some(30), int(1), false),
        ),
        (
            "MaxUnavailable not enabled, field used in new, not in old",
            false,
            set(None, int(3), false),
            None,
            set(None, None, true),
        ),
        (
            "MaxUnavailable enabled, percentage value in new",
            true,
            set(None, pct("20%"), false),
            None,
            set(None, pct("20%"), false),
        ),
        (
            "MaxUnavailable enabled, percentage value in old and new",
            true,
            set(None, pct("20%"), false),
            Some(set(None, pct("20%"), false)),
            set(None, pct("20%"), false),
        ),
        (
            "set ordinals, ordinals in use in new only",
            false,
            with_ordinals(2),
            None,
            with_ordinals(2),
        ),
        (
            "set ordinals, ordinals in use in both old and new",
            false,
            with_ordinals(2),
            Some(with_ordinals(1)),
            with_ordinals(2),
        ),
        (
            "minReadySeconds and maxUnavailable enabled",
            true,
            set(Some(15), int(2), false),
            Some(set(Some(15), int(2), false)),
            set(Some(15), int(2), false),
        ),
        (
            "zero minReadySeconds with maxUnavailable enabled",
            true,
            set(Some(0), int(1), false),
            Some(set(Some(0), int(1), false)),
            set(Some(0), int(1), false),
        ),
        (
            "minReadySeconds change with maxUnavailable enabled",
            true,
            set(Some(45), int(1), false),
            Some(set(Some(30), int(1), false)),
            set(Some(45), int(1), false),
        ),
        (
            "minReadySeconds disabled with maxUnavailable disabled",
            false,
            set(Some(30), int(2), false),
            Some(set(Some(30), None, false)),
            set(Some(30), None, true),
        ),
        (
            "transition from disabled to enabled maxUnavailable with minReadySeconds",
            true,
            set(Some(30), int(2), false),
            Some(set(Some(30), None, false)),
            set(Some(30), int(2), false),
        ),
    ];
    for (name, enabled, mut ss, old, want) in rows {
        let mut gates = FeatureGates::default();
        gates.set("MaxUnavailableStatefulSet", enabled);
        let old_before = old.clone();
        drop_stateful_set_disabled_fields(&mut ss, old.as_ref(), &gates);
        assert_eq!(old, old_before, "{name}: old statefulSet changed");
        assert_eq!(ss, want, "{name}: unexpected statefulSet spec");
    }
}

/// The StatefulSet of TestStatefulSetStrategy (`validPodTemplate`, selector a=b), named `name`,
/// with `spec` merged over OrderedReady / RollingUpdate.
fn strategy_set(name: &str, spec: Value) -> Object {
    let mut s = json!({
        "podManagementPolicy": "OrderedReady",
        "selector": {"matchLabels": {"a": "b"}},
        "template": {
            "metadata": {"labels": {"a": "b"}},
            "spec": {
                "restartPolicy": "Always",
                "dnsPolicy": "ClusterFirst",
                "terminationGracePeriodSeconds": 30,
                "containers": [{"name": "abc", "image": "image",
                    "imagePullPolicy": "IfNotPresent", "terminationMessagePolicy": "File"}]
            }
        },
        "updateStrategy": {"type": "RollingUpdate"}
    });
    if let (Value::Object(b), Value::Object(p)) = (&mut s, spec) {
        b.extend(p);
    }
    Object::from_value(json!({
        "apiVersion": "apps/v1", "kind": "StatefulSet",
        "metadata": {"name": name, "namespace": "default"},
        "spec": s
    }))
    .expect("valid object JSON")
}

fn rolling(max_unavailable: Value) -> Value {
    json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": max_unavailable}})
}

fn stored(api: &ApiServer, name: &str) -> StatefulSet {
    api.store
        .get::<StatefulSet>("default", name)
        .cloned()
        .expect("stored StatefulSet")
}

fn refused(r: Result<Object, ApiError>) -> bool {
    r.is_err_and(|e| !e.causes.is_empty())
}

// Port of TestStatefulSetStrategy (pkg/registry/apps/statefulset/strategy_test.go), subtest
// "StatefulSet maxUnavailable field validations on creation and update" (gate on): negative,
// over-100% and malformed values are refused, a positive integer and a percentage are stored,
// a change of maxUnavailable is a valid update, and maxUnavailable with OnDelete is refused.
#[test]
fn stateful_set_strategy_max_unavailable_validations() {
    let mut gates = FeatureGates::default();
    gates.set("MaxUnavailableStatefulSet", true);
    let mut api = ApiServer::with_gates(1, Time(0), gates);
    let parallel = |u: Value| json!({"podManagementPolicy": "Parallel", "updateStrategy": u});
    assert!(
        refused(api.create(strategy_set(
            "test-negative-int",
            parallel(rolling(json!(-1)))
        ))),
        "expected failure when MaxUnavailable is negative integer"
    );
    assert!(
        refused(api.create(strategy_set(
            "test-invalid-percent",
            json!({"updateStrategy": rolling(json!("150%"))})
        ))),
        "expected failure when MaxUnavailable percentage > 100%"
    );
    assert!(
        refused(api.create(strategy_set(
            "test-invalid-string",
            parallel(rolling(json!("invalid")))
        ))),
        "expected failure when MaxUnavailable has invalid string format"
    );
    api.create(strategy_set(
        "test-valid-int",
        json!({"updateStrategy": rolling(json!(2))}),
    ))
    .expect("valid positive integer MaxUnavailable");
    api.create(strategy_set(
        "test-valid-percent",
        parallel(rolling(json!("25%"))),
    ))
    .expect("valid percentage MaxUnavailable");

    let mut v = serde_json::to_value(stored(&api, "test-valid-percent")).unwrap();
    v["spec"]["updateStrategy"]["rollingUpdate"]["maxUnavailable"] = json!("50%");
    api.update(Object::from_value(v).unwrap())
        .expect("updating MaxUnavailable should be allowed on a statefulset");
    let ru = stored(&api, "test-valid-percent")
        .spec
        .update_strategy
        .rolling_update
        .clone()
        .expect("rollingUpdate");
    assert_eq!(
        serde_json::to_value(ru.max_unavailable).unwrap(),
        json!("50%")
    );

    let on_delete = json!({"type": "OnDelete", "rollingUpdate": {"maxUnavailable": 1}});
    assert!(
        refused(api.create(strategy_set(
            "test-ondelete",
            json!({"updateStrategy": on_delete})
        ))),
        "expected failure when MaxUnavailable is used with OnDelete strategy"
    );
}

// Port of TestStatefulSetStrategy (pkg/registry/apps/statefulset/strategy_test.go), subtest
// "StatefulSet maxUnavailable feature gate disabled behavior": with the gate off (kubeplay's
// 1.35 default) the field is dropped on create and the set is valid.
#[test]
fn stateful_set_strategy_max_unavailable_gate_disabled() {
    let mut api = ApiServer::new(1, Time(0));
    assert!(!api.gates.enabled("MaxUnavailableStatefulSet"));
    api.create(strategy_set(
        "test-feature-disabled",
        json!({"podManagementPolicy": "Parallel", "updateStrategy": rolling(json!(2))}),
    ))
    .expect("unexpected error validating StatefulSet when MaxUnavailable is dropped");
    let s = stored(&api, "test-feature-disabled");
    assert!(
        s.spec
            .update_strategy
            .rolling_update
            .as_ref()
            .is_none_or(|ru| ru.max_unavailable.is_none()),
        "expected MaxUnavailable to be dropped when feature gate is disabled"
    );
}

// Port of TestStatefulSetStrategy (pkg/registry/apps/statefulset/strategy_test.go), subtest
// "when StatefulSetAutoDeletePVC feature gate is disabled, PersistentVolumeClaimRetentionPolicy
// should not be updated" (which runs with the gate on, its 1.35 default): a valid policy is kept
// on create, and an update with a valid policy is allowed.
#[test]
fn stateful_set_strategy_pvc_retention_policy_kept() {
    let mut api = ApiServer::new(1, Time(0));
    let policy = json!({"persistentVolumeClaimRetentionPolicy":
        {"whenDeleted": "Retain", "whenScaled": "Delete"}});
    api.create(strategy_set("abc", policy))
        .expect("unexpected failure with PersistentVolumeClaimRetentionPolicy");
    let p = stored(&api, "abc")
        .spec
        .persistent_volume_claim_retention_policy
        .clone()
        .expect("policy");
    assert_eq!(
        (p.when_deleted.as_str(), p.when_scaled.as_str()),
        ("Retain", "Delete")
    );
    let v = serde_json::to_value(stored(&api, "abc")).unwrap();
    api.update(Object::from_value(v).unwrap())
        .expect("updates to PersistentVolumeClaimRetentionPolicy should be allowed");
}
