//! Ports of upstream's pod (anti-)affinity and topology spread validation tests
//! (pkg/apis/core/validation/validation_test.go, Kubernetes 1.34): `TestValidateTopologySpreadConstraints`,
//! `TestValidateMatchLabelKeysInTopologySpread`, `TestValidateMatchLabelKeysAndMismatchLabelKeys`
//! and the podAffinity / podAntiAffinity rows of `TestValidatePod`. Upstream's field path in the
//! unit tables is `field`; the pod rows use `spec`.

use super::affinity::{
    mutate_topology_spread_constraints, validate_match_label_keys_and_mismatch_label_keys,
    validate_match_label_keys_in_topology_spread, validate_topology_spread_constraints,
    AffinityValidationOptions,
};
use super::pod::{validate_pod_create, validate_pod_update};
use crate::api::core::{Affinity, Container, Pod, PodSpec};
use crate::api::errors::FieldError;
use crate::api::meta::LabelSelector;
use crate::api::ObjectMeta;
use serde_json::{json, Value};
use std::sync::Arc;

fn strs(errs: &[FieldError]) -> Vec<String> {
    errs.iter().map(ToString::to_string).collect()
}

fn tsc(v: Value) -> Vec<String> {
    strs(&validate_topology_spread_constraints(
        Some(&v),
        "field",
        AffinityValidationOptions::default(),
    ))
}

const LABEL_VALUE_RULE: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const NAME_RULE: &str = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

// TestValidateTopologySpreadConstraints (all rows; the AllowInvalidTopologySpreadConstraintLabelSelector
// row uses the option directly).
#[test]
fn validate_topology_spread_constraints_table() {
    let c = |skew: i64, key: &str, when: &str| json!({"maxSkew": skew, "topologyKey": key, "whenUnsatisfiable": when});
    let with = |mut v: Value, k: &str, x: Value| {
        v[k] = x;
        v
    };
    let rows: Vec<(&str, Value, Vec<String>)> = vec![
        ("all required fields ok", json!([with(c(1, "k8s.io/zone", "DoNotSchedule"), "minDomains", json!(3))]), vec![]),
        ("missing MaxSkew", json!([{"topologyKey": "k8s.io/zone", "whenUnsatisfiable": "DoNotSchedule"}]),
            vec!["field[0].maxSkew: Invalid value: 0: must be greater than zero".into()]),
        ("negative MaxSkew", json!([c(-1, "k8s.io/zone", "DoNotSchedule")]),
            vec!["field[0].maxSkew: Invalid value: -1: must be greater than zero".into()]),
        ("can use MinDomains with ScheduleAnyway, when MinDomains = nil", json!([c(1, "k8s.io/zone", "ScheduleAnyway")]), vec![]),
        ("negative minDomains is invalid", json!([with(c(1, "k8s.io/zone", "DoNotSchedule"), "minDomains", json!(-1))]),
            vec!["field[0].minDomains: Invalid value: -1: must be greater than zero".into()]),
        ("cannot use non-nil MinDomains with ScheduleAnyway", json!([with(c(1, "k8s.io/zone", "ScheduleAnyway"), "minDomains", json!(10))]),
            vec!["field[0].minDomains: Invalid value: 10: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway".into()]),
        ("use negative MinDomains with ScheduleAnyway(invalid)", json!([with(c(1, "k8s.io/zone", "ScheduleAnyway"), "minDomains", json!(-1))]),
            vec![
                "field[0].minDomains: Invalid value: -1: must be greater than zero".into(),
                "field[0].minDomains: Invalid value: -1: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway".into(),
            ]),
        ("missing TopologyKey", json!([{"maxSkew": 1, "whenUnsatisfiable": "DoNotSchedule"}]),
            vec!["field[0].topologyKey: Required value: can not be empty".into()]),
        ("missing scheduling mode", json!([{"maxSkew": 1, "topologyKey": "k8s.io/zone"}]),
            vec!["field[0].whenUnsatisfiable: Unsupported value: \"\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\"".into()]),
        ("unsupported scheduling mode", json!([c(1, "k8s.io/zone", "N/A")]),
            vec!["field[0].whenUnsatisfiable: Unsupported value: \"N/A\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\"".into()]),
        ("multiple constraints ok with all required fields", json!([c(1, "k8s.io/zone", "DoNotSchedule"), c(2, "k8s.io/node", "ScheduleAnyway")]), vec![]),
        ("multiple constraints missing TopologyKey on partial ones", json!([
                c(1, "k8s.io/zone", "ScheduleAnyway"), {"maxSkew": 2, "whenUnsatisfiable": "DoNotSchedule"}]),
            vec!["field[1].topologyKey: Required value: can not be empty".into()]),
        ("duplicate constraints", json!([c(1, "k8s.io/zone", "DoNotSchedule"), c(2, "k8s.io/zone", "DoNotSchedule")]),
            vec!["field[0].{topologyKey, whenUnsatisfiable}: Duplicate value: \"{k8s.io/zone, DoNotSchedule}\"".into()]),
        ("supported policy name set on NodeAffinityPolicy and NodeTaintsPolicy",
            json!([with(with(c(1, "k8s.io/zone", "DoNotSchedule"), "nodeAffinityPolicy", json!("Honor")), "nodeTaintsPolicy", json!("Ignore"))]), vec![]),
        ("unsupported policy name set on NodeAffinityPolicy",
            json!([with(with(c(1, "k8s.io/zone", "DoNotSchedule"), "nodeAffinityPolicy", json!("Unknown")), "nodeTaintsPolicy", json!("Ignore"))]),
            vec!["field[0].nodeAffinityPolicy: Unsupported value: \"Unknown\": supported values: \"Honor\", \"Ignore\"".into()]),
        ("unsupported policy name set on NodeTaintsPolicy",
            json!([with(with(c(1, "k8s.io/zone", "DoNotSchedule"), "nodeAffinityPolicy", json!("Honor")), "nodeTaintsPolicy", json!("Unknown"))]),
            vec!["field[0].nodeTaintsPolicy: Unsupported value: \"Unknown\": supported values: \"Honor\", \"Ignore\"".into()]),
        ("key in MatchLabelKeys isn't correctly defined",
            json!([with(with(c(1, "k8s.io/zone", "DoNotSchedule"), "labelSelector", json!({"matchExpressions": [{"key": "foo", "operator": "NotIn", "values": ["value1", "value2"]}]})), "matchLabelKeys", json!(["/simple"]))]),
            vec!["field[0].matchLabelKeys[0]: Invalid value: \"/simple\": prefix part must be non-empty".into()]),
        // With the selector merge the duplicate is caught on the merged requirement; here the
        // user wrote the key twice in matchExpressions (the merge's result for a pod labelled
        // foo=value1), so the second one is reported at upstream's `field[0][0]`.
        ("key exists in both matchLabelKeys and labelSelector",
            json!([with(with(c(1, "k8s.io/zone", "DoNotSchedule"), "labelSelector", json!({"matchExpressions": [
                {"key": "foo", "operator": "In", "values": ["value1"]}, {"key": "foo", "operator": "In", "values": ["value1"]}]})), "matchLabelKeys", json!(["foo"]))]),
            vec!["field[0][0]: Invalid value: \"foo\": exists in both matchLabelKeys and labelSelector".into()]),
        ("key in MatchLabelKeys is forbidden to be specified when labelSelector is not set",
            json!([with(c(1, "k8s.io/zone", "DoNotSchedule"), "matchLabelKeys", json!(["foo"]))]),
            vec!["field[0].matchLabelKeys: Forbidden: must not be specified when labelSelector is not set".into()]),
        ("invalid matchLabels set on labelSelector when AllowInvalidTopologySpreadConstraintLabelSelector is false",
            json!([with(c(1, "k8s.io/zone", "DoNotSchedule"), "labelSelector", json!({"matchLabels": {"NoUppercaseOrSpecialCharsLike=Equals": "foo"}}))]),
            vec![format!("field[0].labelSelector.matchLabels: Invalid value: \"NoUppercaseOrSpecialCharsLike=Equals\": {NAME_RULE}")]),
        ("valid matchLabels set on labelSelector when AllowInvalidTopologySpreadConstraintLabelSelector is false",
            json!([with(c(1, "k8s.io/zone", "DoNotSchedule"), "labelSelector", json!({"matchLabels": {"foo": "bar"}}))]), vec![]),
    ];
    let n = rows.len();
    for (name, v, want) in rows {
        assert_eq!(tsc(v), want, "{name}");
    }
    assert_eq!(n, 21);
    // "invalid matchLabels set on labelSelector when AllowInvalidTopologySpreadConstraintLabelSelector is true"
    let v = json!([{"maxSkew": 1, "topologyKey": "k8s.io/zone", "whenUnsatisfiable": "DoNotSchedule",
        "labelSelector": {"matchLabels": {"NoUppercaseOrSpecialCharsLike=Equals": "foo"}}}]);
    let opts = AffinityValidationOptions {
        allow_invalid_topology_spread_constraint_label_selector: true,
        ..Default::default()
    };
    assert!(validate_topology_spread_constraints(Some(&v), "field", opts).is_empty());
}

fn sel(v: Value) -> LabelSelector {
    serde_json::from_value(v).unwrap()
}

fn keys(k: &[&str]) -> Vec<String> {
    k.iter().map(|s| s.to_string()).collect()
}

// TestValidateMatchLabelKeysInTopologySpread (the legacy rule, used without the selector merge).
#[test]
fn validate_match_label_keys_in_topology_spread_table() {
    let s = sel(
        json!({"matchLabels": {"foo": "bar"}, "matchExpressions": [{"key": "baz", "operator": "In", "values": ["v"]}]}),
    );
    let p = "field.matchLabelKeys";
    assert!(validate_match_label_keys_in_topology_spread(p, &keys(&["qux"]), Some(&s)).is_empty());
    assert!(validate_match_label_keys_in_topology_spread(p, &[], None).is_empty());
    assert_eq!(
        strs(&validate_match_label_keys_in_topology_spread(p, &keys(&["foo", "baz"]), Some(&s))),
        vec![
            "field.matchLabelKeys[0]: Invalid value: \"foo\": exists in both matchLabelKeys and labelSelector",
            "field.matchLabelKeys[1]: Invalid value: \"baz\": exists in both matchLabelKeys and labelSelector",
        ]
    );
    assert_eq!(
        strs(&validate_match_label_keys_in_topology_spread(
            p,
            &keys(&["/simple"]),
            None
        )),
        vec![
            "field.matchLabelKeys: Forbidden: must not be specified when labelSelector is not set",
            "field.matchLabelKeys[0]: Invalid value: \"/simple\": prefix part must be non-empty",
        ]
    );
}

// TestValidateMatchLabelKeysAndMismatchLabelKeys.
#[test]
fn validate_match_label_keys_and_mismatch_label_keys_table() {
    let merged = sel(json!({"matchExpressions": [
        {"key": "key", "operator": "In", "values": ["value1"]},
        {"key": "key2", "operator": "NotIn", "values": ["value2"]}]}));
    let f = |m: &[&str], mm: &[&str], s: Option<&LabelSelector>| {
        strs(&validate_match_label_keys_and_mismatch_label_keys(
            "field",
            &keys(m),
            &keys(mm),
            s,
        ))
    };
    // "matchLabelKeys and mismatchLabelKeys are valid" (the merged requirements pass).
    assert!(f(&["key"], &["key2"], Some(&merged)).is_empty());
    // "matchLabelKeys is not a valid label key"
    assert_eq!(
        f(&["/simple"], &[], Some(&merged)),
        vec!["field.matchLabelKeys[0]: Invalid value: \"/simple\": prefix part must be non-empty"]
    );
    // "mismatchLabelKeys is not a valid label key"
    assert_eq!(
        f(&[], &["/simple"], Some(&merged)),
        vec![
            "field.mismatchLabelKeys[0]: Invalid value: \"/simple\": prefix part must be non-empty"
        ]
    );
    // "matchLabelKeys and mismatchLabelKeys are specified without labelSelector"
    assert_eq!(
        f(&["key"], &["key2"], None),
        vec![
            "field.matchLabelKeys: Forbidden: must not be specified when labelSelector is not set",
            "field.mismatchLabelKeys: Forbidden: must not be specified when labelSelector is not set",
        ]
    );
    // "the same key is specified in both labelSelector and matchLabelKeys"
    let dup = sel(
        json!({"matchLabels": {"key": "value1"}, "matchExpressions": [{"key": "key", "operator": "In", "values": ["value1"]}]}),
    );
    assert_eq!(
        f(&["key"], &[], Some(&dup)),
        vec!["field[0]: Invalid value: \"key\": exists in both matchLabelKeys and labelSelector"]
    );
    // "the same key is specified in both labelSelector and mismatchLabelKeys" is allowed.
    let dup2 = sel(
        json!({"matchLabels": {"key": "value1"}, "matchExpressions": [{"key": "key", "operator": "NotIn", "values": ["value1"]}]}),
    );
    assert!(f(&[], &["key"], Some(&dup2)).is_empty());
    // "the same key is specified in both matchLabelKeys and mismatchLabelKeys"
    let both = sel(json!({"matchExpressions": [
        {"key": "samekey", "operator": "In", "values": ["value1"]},
        {"key": "samekey", "operator": "NotIn", "values": ["value1"]}]}));
    assert_eq!(
        f(&["samekey"], &["samekey"], Some(&both)),
        vec![
            "field[0]: Invalid value: \"samekey\": exists in both matchLabelKeys and labelSelector",
            "field.matchLabelKeys[0]: Invalid value: \"samekey\": exists in both matchLabelKeys and mismatchLabelKeys",
        ]
    );
}

/// `podtest.MakePod` (as in core_ports_tests.rs), labelled `key=value1`, `key2=value2`.
fn make_pod(affinity: Value) -> Pod {
    let mut c = Container {
        name: "ctr".into(),
        image: "image".into(),
        ..Default::default()
    };
    c.extra
        .insert("imagePullPolicy".into(), json!("IfNotPresent"));
    c.extra
        .insert("terminationMessagePolicy".into(), json!("File"));
    let mut spec = PodSpec {
        containers: vec![c],
        restart_policy: "Always".into(),
        termination_grace_period_seconds: Some(30),
        ..Default::default()
    };
    spec.extra.insert("dnsPolicy".into(), json!("ClusterFirst"));
    let mut a = Affinity::default();
    if let Value::Object(m) = affinity {
        a.extra = m;
    }
    spec.affinity = Some(a);
    Pod {
        metadata: ObjectMeta {
            name: "123".into(),
            namespace: "ns".into(),
            labels: [("key", "value1"), ("key2", "value2")]
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            ..Default::default()
        },
        spec: Arc::new(spec),
        ..Default::default()
    }
}

fn aggregate(errs: Vec<FieldError>) -> String {
    let msgs: Vec<String> = super::dedupe(errs).iter().map(|e| e.to_string()).collect();
    match msgs.len() {
        1 => msgs[0].clone(),
        _ => format!("[{}]", msgs.join(", ")),
    }
}

fn term(sel: Value, topology_key: &str) -> Value {
    json!({"labelSelector": sel, "namespaces": ["ns"], "topologyKey": topology_key})
}

fn expr(key: &str, op: &str, values: &[&str]) -> Value {
    json!({"matchExpressions": [{"key": key, "operator": op, "values": values}]})
}

// TestValidatePod, podAffinity / podAntiAffinity error rows (the pod is validated as created:
// `PrepareForCreate`'s matchLabelKeys merge is applied first, as the API server does).
#[test]
fn validate_pod_affinity_error_rows() {
    let rows: Vec<(&str, Value, String)> = vec![
        ("invalid labelSelector in PodAffinity",
            json!({"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                term(expr("key2", "In", &["value1", "value2", "{{.bad-value.}}"]), "zone")]}}),
            format!("spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].values[2]: Invalid value: \"{{{{.bad-value.}}}}\": {LABEL_VALUE_RULE}")),
        ("invalid hard pod affinity, empty topologyKey is not allowed for hard pod affinity",
            json!({"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                term(expr("key2", "In", &["value1", "value2"]), "")]}}),
            "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty".into()),
        ("invalid hard pod anti-affinity, empty topologyKey is not allowed for hard pod anti-affinity",
            json!({"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                term(expr("key2", "In", &["value1", "value2"]), "")]}}),
            "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty".into()),
        ("invalid soft pod affinity, empty topologyKey is not allowed for soft pod affinity",
            json!({"podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 10, "podAffinityTerm": term(expr("key2", "NotIn", &["value1", "value2"]), "")}]}}),
            "spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey: Required value: can not be empty".into()),
        ("invalid soft pod anti-affinity, empty topologyKey is not allowed for soft pod anti-affinity",
            json!({"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 10, "podAffinityTerm": term(expr("key2", "In", &["value1", "value2"]), "")}]}}),
            "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey: Required value: can not be empty".into()),
        ("invalid weight in preferredDuringSchedulingIgnoredDuringExecution in podAffinity annotations, weight should be in range 1-100",
            json!({"podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 109, "podAffinityTerm": term(expr("key2", "NotIn", &["value1", "value2"]), "region")}]}}),
            "spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 109: must be in the range 1-100".into()),
        ("invalid labelSelector in preferredDuringSchedulingIgnoredDuringExecution in podaffinity annotations, values should be empty if the operator is Exists",
            json!({"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 10, "podAffinityTerm": term(expr("key2", "Exists", &["value1", "value2"]), "region")}]}}),
            "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.labelSelector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'".into()),
        ("invalid namespaceSelector in preferredDuringSchedulingIgnoredDuringExecution in podaffinity, In operator must include Values",
            json!({"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 10, "podAffinityTerm": {"namespaceSelector": {"matchExpressions": [{"key": "key2", "operator": "In"}]},
                    "namespaces": ["ns"], "topologyKey": "region"}}]}}),
            "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.namespaceSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'".into()),
        ("invalid namespaceSelector in preferredDuringSchedulingIgnoredDuringExecution in podaffinity, Exists operator can not have values",
            json!({"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 10, "podAffinityTerm": {"namespaceSelector": {"matchExpressions": [{"key": "key2", "operator": "Exists", "values": ["value1", "value2"]}]},
                    "namespaces": ["ns"], "topologyKey": "region"}}]}}),
            "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.namespaceSelector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'".into()),
        ("invalid name space in preferredDuringSchedulingIgnoredDuringExecution in podaffinity annotations, namespace should be valid",
            json!({"podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 10, "podAffinityTerm": {"labelSelector": expr("key2", "Exists", &[]), "namespaces": ["INVALID_NAMESPACE"], "topologyKey": "region"}}]}}),
            "spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.namespace: Invalid value: \"INVALID_NAMESPACE\": a lowercase RFC 1123 label must consist of".into()),
        ("invalid hard pod affinity, key in MatchLabelKeys isn't correctly defined",
            json!({"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                {"labelSelector": expr("key", "In", &["value1"]), "topologyKey": "k8s.io/zone", "matchLabelKeys": ["/simple"]}]}}),
            "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].matchLabelKeys[0]: Invalid value: \"/simple\": prefix part must be non-empty".into()),
        ("invalid soft pod affinity, key in MismatchLabelKeys isn't correctly defined",
            json!({"podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 10, "podAffinityTerm": {"labelSelector": expr("key", "In", &["value1"]), "topologyKey": "k8s.io/zone", "mismatchLabelKeys": ["/simple"]}}]}}),
            "spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.mismatchLabelKeys[0]: Invalid value: \"/simple\": prefix part must be non-empty".into()),
        ("invalid hard pod anti-affinity, key exists in both matchLabelKeys and labelSelector",
            json!({"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                {"labelSelector": expr("key", "In", &["value1"]), "topologyKey": "k8s.io/zone", "matchLabelKeys": ["key"]}]}}),
            "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0][0]: Invalid value: \"key\": exists in both matchLabelKeys and labelSelector".into()),
        ("invalid soft pod anti-affinity, key exists in both matchLabelKeys and mismatchLabelKeys",
            json!({"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 10, "podAffinityTerm": {"labelSelector": expr("key", "In", &["value1"]), "topologyKey": "k8s.io/zone",
                    "matchLabelKeys": ["samekey"], "mismatchLabelKeys": ["samekey"]}}]}}),
            "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.matchLabelKeys[0]: Invalid value: \"samekey\": exists in both matchLabelKeys and mismatchLabelKeys".into()),
        ("invalid hard pod affinity, matchLabelKeys without labelSelector",
            json!({"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                {"topologyKey": "k8s.io/zone", "matchLabelKeys": ["key"]}]}}),
            "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].matchLabelKeys: Forbidden: must not be specified when labelSelector is not set".into()),
    ];
    let n = rows.len();
    for (name, aff, want) in rows {
        let mut obj = crate::api::object::Object::Pod(make_pod(aff));
        crate::api::defaults::prepare_for_create(&mut obj);
        let crate::api::object::Object::Pod(pod) = obj else {
            unreachable!()
        };
        let got = aggregate(validate_pod_create(&pod));
        assert!(got.contains(&want), "{name}: want {want:?} in {got:?}");
    }
    assert_eq!(n, 15);
}

// TestValidatePod, podAffinity / podAntiAffinity success rows, and the matchLabelKeys rows
// after the creation merge (the merged `In`/`NotIn` requirements must be accepted).
#[test]
fn validate_pod_affinity_success_rows() {
    let rows: Vec<(&str, Value)> = vec![
        (
            "populate pod affinity",
            json!({"podAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": [term(expr("key2", "In", &["value1", "value2"]), "zone")],
            "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 10, "podAffinityTerm": term(expr("key2", "NotIn", &["value1", "value2"]), "region")}]}}),
        ),
        (
            "populate pod anti-affinity",
            json!({"podAntiAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": [term(expr("key2", "Exists", &[]), "zone")],
            "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 10, "podAffinityTerm": term(expr("key2", "DoesNotExist", &[]), "region")}]}}),
        ),
        (
            "populate pod affinity with namespaceSelector",
            json!({"podAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": [{"labelSelector": expr("key2", "In", &["value1"]),
                "namespaceSelector": expr("key", "In", &["value1"]), "topologyKey": "zone"}]}}),
        ),
        (
            "MatchLabelKeys/MismatchLabelKeys in required PodAffinity",
            json!({"podAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": [{"labelSelector": expr("key", "In", &["value1"]),
                "topologyKey": "k8s.io/zone", "matchLabelKeys": ["key2"], "mismatchLabelKeys": ["key3"]}]}}),
        ),
        (
            "MatchLabelKeys/MismatchLabelKeys in preferred PodAntiAffinity",
            json!({"podAntiAffinity": {
            "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 10, "podAffinityTerm": {"labelSelector": expr("key", "In", &["value1"]),
                "topologyKey": "k8s.io/zone", "matchLabelKeys": ["key2"], "mismatchLabelKeys": ["key"]}}]}}),
        ),
    ];
    for (name, aff) in rows {
        let mut obj = crate::api::object::Object::Pod(make_pod(aff));
        crate::api::defaults::prepare_for_create(&mut obj);
        let crate::api::object::Object::Pod(pod) = obj else {
            unreachable!()
        };
        assert_eq!(
            strs(&validate_pod_create(&pod)),
            Vec::<String>::new(),
            "{name}"
        );
    }
}

// The topology spread selector merge at creation: the merged requirement passes validation,
// a key the user also wrote in the selector is caught at upstream's path.
#[test]
fn topology_spread_match_label_keys_merge_and_validation() {
    let mut pod = make_pod(json!({}));
    pod.spec_mut().affinity = None;
    pod.spec_mut().extra.insert(
        "topologySpreadConstraints".into(),
        json!([{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
            "labelSelector": {"matchLabels": {"app": "web"}}, "matchLabelKeys": ["key", "absent"]}]),
    );
    let mut obj = crate::api::object::Object::Pod(pod.clone());
    crate::api::defaults::prepare_for_create(&mut obj);
    let crate::api::object::Object::Pod(merged) = obj else {
        unreachable!()
    };
    assert_eq!(
        merged.spec.extra["topologySpreadConstraints"][0]["labelSelector"],
        json!({"matchLabels": {"app": "web"}, "matchExpressions": [{"key": "key", "operator": "In", "values": ["value1"]}]})
    );
    assert!(validate_pod_create(&merged).is_empty());
    // The key also in matchLabels: reported once merged.
    let mut extra = pod.spec.extra.clone();
    extra["topologySpreadConstraints"][0]["labelSelector"] =
        json!({"matchLabels": {"key": "value1"}});
    mutate_topology_spread_constraints(&mut extra, &pod.metadata.labels, &Default::default());
    pod.spec_mut().extra = extra;
    assert_eq!(
        strs(&validate_pod_create(&pod)),
        vec!["spec.topologySpreadConstraints[0][0]: Invalid value: \"key\": exists in both matchLabelKeys and labelSelector"]
    );
}

// Malformed shapes are field errors, never panics.
#[test]
fn wrong_json_types_are_field_errors() {
    let pod = make_pod(
        json!({"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": "nope", "topologyKey": 3, "namespaces": [1]}, 7],
        "preferredDuringSchedulingIgnoredDuringExecution": {"weight": "x"}}, "podAntiAffinity": []}),
    );
    let errs = strs(&validate_pod_create(&pod));
    assert!(errs.iter().any(|e| e.starts_with("spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector: Invalid value")), "{errs:?}");
    assert!(
        errs.iter()
            .any(|e| e.starts_with("spec.affinity.podAntiAffinity: Invalid value")),
        "{errs:?}"
    );
    for bad in [
        json!("x"),
        json!([1, {"maxSkew": "a", "minDomains": 1.5, "labelSelector": {"matchLabels": 3}, "matchLabelKeys": "k"}]),
    ] {
        let errs = validate_topology_spread_constraints(
            Some(&bad),
            "spec.topologySpreadConstraints",
            AffinityValidationOptions::default(),
        );
        assert!(!errs.is_empty());
    }
}

// An update keeps an affinity selector value the old pod already had
// (AllowInvalidLabelValueInSelector); a new pod with it is rejected.
#[test]
fn invalid_selector_value_is_kept_on_update() {
    let old = make_pod(
        json!({"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        term(expr("key2", "In", &["{{.bad-value.}}"]), "zone")]}}),
    );
    assert!(!validate_pod_create(&old).is_empty());
    let mut new = old.clone();
    new.metadata.labels.insert("x".into(), "y".into());
    new.spec = Arc::new((*old.spec).clone());
    new.spec_mut().extra.insert("x-touch".into(), json!(null));
    assert!(validate_pod_update(&new, &old)
        .iter()
        .all(|e| !e.to_string().contains("labelSelector")));
}

// TestValidatePod, preferred node affinity rows (validateNodeAffinity →
// ValidatePreferredSchedulingTerms).
#[test]
fn validate_preferred_node_affinity_rows() {
    let with_preferred = |v: Value| {
        let mut p = make_pod(json!({}));
        let mut a = Affinity::default();
        let mut na = crate::api::core::NodeAffinity::default();
        na.extra
            .insert("preferredDuringSchedulingIgnoredDuringExecution".into(), v);
        a.node_affinity = Some(na);
        p.spec_mut().affinity = Some(a);
        p
    };
    let path = "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution";
    // "invalid preferredSchedulingTerm in node affinity, weight should be in range 1-100"
    let p = with_preferred(json!([{"weight": 199, "preference": {"matchExpressions": [
        {"key": "foo", "operator": "In", "values": ["bar"]}]}}]));
    assert_eq!(
        strs(&validate_pod_create(&p)),
        vec![format!(
            "{path}[0].weight: Invalid value: 199: must be in the range 1-100"
        )]
    );
    // "invalid requiredDuringSchedulingIgnoredDuringExecution node selector, key and operator"
    // (the same checks on a preferred term's preference).
    let p = with_preferred(json!([{"weight": 10, "preference": {"matchExpressions": [
        {"key": "key1", "operator": "Exists", "values": ["x"]}]}}]));
    assert_eq!(
        strs(&validate_pod_create(&p)),
        vec![format!(
            "{path}[0].preference.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"
        )]
    );
    // "serialized node affinity requirements, II": an empty preference is valid.
    let p = with_preferred(json!([{"weight": 10, "preference": {"matchExpressions": []}}]));
    assert!(validate_pod_create(&p).is_empty());
    // Wrong shapes are field errors.
    let p = with_preferred(json!({"weight": 10}));
    assert_eq!(
        strs(&validate_pod_create(&p)),
        vec![format!(
            "{path}: Invalid value: {{\"weight\":10}}: must be a list"
        )]
    );
}
