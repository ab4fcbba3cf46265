//! A scenario's `featureGates` reach kube-apiserver: the pod strategy's matchLabelKeys handling
//! (`MatchLabelKeysInPodTopologySpread`, `MatchLabelKeysInPodTopologySpreadSelectorMerge`) and
//! the HPA strategy's `HPAConfigurableTolerance` / `HPAScaleToZero` change what the API server
//! answers, with upstream's messages.

use crate::scenario::Scenario;
use crate::sim::{Simulation, TimelineAction};
use serde_json::{json, Value};

/// A simulation of a scenario with these `featureGates:` lines (YAML, indented by two).
fn sim_with(gates: &str) -> Simulation {
    let text = format!(
        "apiVersion: kubeplay.dev/v1alpha1\nkind: Scenario\nmetadata:\n  name: gates\nfeatureGates:\n{gates}\n"
    );
    let text = if gates.is_empty() {
        text.replace("featureGates:\n\n", "")
    } else {
        text
    };
    Scenario::parse(&text)
        .expect("scenario parses")
        .build()
        .expect("scenario builds")
}

/// `kubectl apply -f -` with this manifest: (ok, output).
fn apply(sim: &mut Simulation, manifest: &Value) -> (bool, String) {
    let yaml = serde_json::to_string(manifest).expect("manifest renders");
    sim.apply_action(TimelineAction::KubectlWithInput("apply -f -".into(), yaml));
    let last = sim.log.last().expect("kubectl logged");
    (last.ok, last.output.trim_end().to_string())
}

fn stored(sim: &Simulation, kind: &str, name: &str) -> Value {
    let o = sim
        .api
        .store
        .all()
        .find(|o| o.kind() == kind && o.meta().name == name)
        .expect("stored");
    serde_json::to_value(o).expect("renders")
}

fn spread_pod(selector: Value) -> Value {
    json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "p", "labels": {"app": "web", "key": "value1"}},
        "spec": {"containers": [{"name": "c", "image": "nginx"}],
            "topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "zone",
                "whenUnsatisfiable": "DoNotSchedule", "labelSelector": selector,
                "matchLabelKeys": ["key"]}]}})
}

// MatchLabelKeysInPodTopologySpreadSelectorMerge on (the 1.35 default): matchLabelKeys is merged
// into the selector at creation (`mutateTopologySpreadConstraints`) and the merged selector is
// checked by `validateMatchLabelKeysAndMismatchLabelKeys` (reported at upstream's `[0][0]`).
// Off: no merge, and the legacy `validateMatchLabelKeysInTopologySpread` reports the key at
// `matchLabelKeys[0]`.
#[test]
fn selector_merge_gate_changes_merge_and_validation() {
    let dup = json!({"matchLabels": {"key": "value1"}});
    let mut on = sim_with("");
    let (ok, out) = apply(&mut on, &spread_pod(dup.clone()));
    assert!(!ok);
    assert_eq!(
        out,
        "The Pod \"p\" is invalid: spec.topologySpreadConstraints[0][0]: Invalid value: \"key\": exists in both matchLabelKeys and labelSelector"
    );
    let mut off = sim_with("  MatchLabelKeysInPodTopologySpreadSelectorMerge: false");
    let (ok, out) = apply(&mut off, &spread_pod(dup));
    assert!(!ok);
    assert_eq!(
        out,
        "The Pod \"p\" is invalid: spec.topologySpreadConstraints[0].matchLabelKeys[0]: Invalid value: \"key\": exists in both matchLabelKeys and labelSelector"
    );

    // A valid pod: merged with the gate on, left alone with it off.
    let sel = json!({"matchLabels": {"app": "web"}});
    let (ok, _) = apply(&mut on, &spread_pod(sel.clone()));
    assert!(ok);
    assert_eq!(
        stored(&on, "Pod", "p")["spec"]["topologySpreadConstraints"][0]["labelSelector"],
        json!({"matchLabels": {"app": "web"}, "matchExpressions": [{"key": "key", "operator": "In", "values": ["value1"]}]})
    );
    let (ok, _) = apply(&mut off, &spread_pod(sel.clone()));
    assert!(ok);
    let c = &stored(&off, "Pod", "p")["spec"]["topologySpreadConstraints"][0];
    assert_eq!(c["labelSelector"], sel);
    assert_eq!(c["matchLabelKeys"], json!(["key"]));
}

// MatchLabelKeysInPodTopologySpread off: `dropDisabledMatchLabelKeysFieldInTopologySpread` drops
// the field on create (so neither rule reports it), and keeps it on update when the stored pod
// already uses it (Upstream: Test_dropDisabledMatchLabelKeysFieldInTopologySpread).
#[test]
fn match_label_keys_gate_off_drops_the_field() {
    let mut off = sim_with("  MatchLabelKeysInPodTopologySpread: false");
    let (ok, out) = apply(
        &mut off,
        &spread_pod(json!({"matchLabels": {"key": "value1"}})),
    );
    assert!(ok, "{out}");
    let c = &stored(&off, "Pod", "p")["spec"]["topologySpreadConstraints"][0];
    assert!(c.get("matchLabelKeys").is_none(), "{c}");
    assert_eq!(
        c["labelSelector"],
        json!({"matchLabels": {"key": "value1"}})
    );

    // In use by the stored object: kept on update.
    use crate::api::validation::affinity::drop_disabled_match_label_keys_in_topology_spread;
    let gates = off.api.gates.clone();
    let with_keys = spread_pod(json!({"matchLabels": {"app": "web"}}));
    let extra = with_keys["spec"].as_object().expect("spec").clone();
    let mut new = extra.clone();
    drop_disabled_match_label_keys_in_topology_spread(&mut new, Some(&extra), &gates);
    assert_eq!(new, extra);
    let mut new = extra.clone();
    drop_disabled_match_label_keys_in_topology_spread(&mut new, None, &gates);
    assert!(new["topologySpreadConstraints"][0]
        .get("matchLabelKeys")
        .is_none());
}

fn hpa(min_replicas: i64, tolerance: Option<&str>, metrics: Value) -> Value {
    let mut rules = json!({"policies": [{"type": "Pods", "value": 1, "periodSeconds": 1800}]});
    if let Some(t) = tolerance {
        rules["tolerance"] = json!(t);
    }
    json!({"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
        "metadata": {"name": "h"},
        "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"},
            "minReplicas": min_replicas, "maxReplicas": 5, "metrics": metrics,
            "behavior": {"scaleUp": rules}}})
}

fn cpu() -> Value {
    json!([{"type": "Resource", "resource": {"name": "cpu",
        "target": {"type": "Utilization", "averageUtilization": 70}}}])
}

// HPAScaleToZero (alpha, off in 1.35): `minReplicas: 0` is refused; turned on in the scenario,
// the API server accepts 0 and asks for an Object or External metric instead.
#[test]
fn scale_to_zero_gate_changes_the_answer() {
    let external = json!([{"type": "External", "external": {"metric": {"name": "queue"},
        "target": {"type": "AverageValue", "averageValue": "10"}}}]);
    let mut off = sim_with("");
    let (ok, out) = apply(&mut off, &hpa(0, None, external.clone()));
    assert!(!ok);
    assert_eq!(
        out,
        "The HorizontalPodAutoscaler \"h\" is invalid: spec.minReplicas: Invalid value: 0: must be greater than or equal to 1"
    );
    let mut on = sim_with("  HPAScaleToZero: true");
    let (ok, out) = apply(&mut on, &hpa(0, None, cpu()));
    assert!(!ok);
    assert_eq!(
        out,
        "The HorizontalPodAutoscaler \"h\" is invalid: spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas"
    );
    let (ok, out) = apply(&mut on, &hpa(0, None, external));
    assert!(ok, "{out}");
}

// HPAConfigurableTolerance off: the strategy's `dropDisabledFields` clears the tolerance on
// create (Upstream: TestPrepareForCreateConfigurableToleranceDisabled); on by default it is kept
// (TestPrepareForCreateConfigurableToleranceEnabled).
#[test]
fn configurable_tolerance_gate_off_drops_the_field() {
    let mut on = sim_with("");
    let (ok, out) = apply(&mut on, &hpa(1, Some("0.05"), cpu()));
    assert!(ok, "{out}");
    assert!(
        stored(&on, "HorizontalPodAutoscaler", "h")["spec"]["behavior"]["scaleUp"]
            .get("tolerance")
            .is_some()
    );
    let mut off = sim_with("  HPAConfigurableTolerance: false");
    let (ok, out) = apply(&mut off, &hpa(1, Some("0.05"), cpu()));
    assert!(ok, "{out}");
    let h = stored(&off, "HorizontalPodAutoscaler", "h");
    assert!(
        h["spec"]["behavior"]["scaleUp"].get("tolerance").is_none(),
        "{h}"
    );
    // A negative tolerance is dropped before validation could refuse it.
    let (ok, out) = apply(&mut off, &hpa(1, Some("-0.5"), cpu()));
    assert!(ok, "{out}");
    let (ok, out) = apply(&mut on, &hpa(1, Some("-0.5"), cpu()));
    assert!(!ok);
    assert_eq!(
        out,
        "The HorizontalPodAutoscaler \"h\" is invalid: spec.behavior.scaleUp.tolerance: Invalid value: \"-0.5\": must be greater or equal to zero"
    );
}

// PodLevelResources (beta, on by default since 1.34): `spec.resources` is kept; off, the pod
// strategy's `dropDisabledPodLevelResources` drops it on create.
#[test]
fn pod_level_resources_gate() {
    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
        "spec": {"resources": {"requests": {"cpu": "800m"}},
            "containers": [{"name": "c", "image": "nginx"}]}});
    let mut on = sim_with("");
    let (ok, out) = apply(&mut on, &pod);
    assert!(ok, "{out}");
    assert_eq!(
        stored(&on, "Pod", "p")["spec"]["resources"],
        json!({"requests": {"cpu": "800m"}})
    );
    let mut off = sim_with("  PodLevelResources: false");
    let (ok, out) = apply(&mut off, &pod);
    assert!(ok, "{out}");
    assert!(stored(&off, "Pod", "p")["spec"].get("resources").is_none());
}

// Pod-level requests and limits are validated as quantities, with requests ≤ limits
// (`validatePodResourceRequirements`' quantity and limit rules, as for a container).
#[test]
fn pod_level_resources_are_validated() {
    let mut sim = sim_with("");
    let pod = |resources: Value| {
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
            "spec": {"resources": resources, "containers": [{"name": "c", "image": "nginx"}]}})
    };
    let (ok, out) = apply(&mut sim, &pod(json!({"requests": {"cpu": "abc"}})));
    assert!(!ok);
    assert!(
        out.contains("spec.resources.requests[cpu]: Invalid value: \"abc\": quantities must match the regular expression"),
        "{out}"
    );
    let (ok, out) = apply(
        &mut sim,
        &pod(json!({"requests": {"cpu": "2"}, "limits": {"cpu": "1"}})),
    );
    assert!(!ok);
    assert!(
        out.contains("spec.resources.requests: Invalid value: \"2\": must be less than or equal to cpu limit of 1"),
        "{out}"
    );
}

// GetValidationOptionsFromPodSpecAndMeta on update: with the merge gate on,
// OldPodViolatesMatchLabelKeysValidation (hasInvalidTopologySpreadConstrainMatchLabelKeys); with
// it off, OldPodViolatesLegacyMatchLabelKeysValidation
// (hasLegacyInvalidTopologySpreadConstrainMatchLabelKeys); with MatchLabelKeysInPodTopologySpread
// off, neither.
#[test]
fn update_options_follow_the_gates() {
    use crate::api::validation::pod::affinity_options_for_update;
    use crate::features::FeatureGates;
    // `key` is in matchLabelKeys and once in matchExpressions (what the merge writes): the
    // merged rule accepts it, the legacy rule does not.
    let pod: crate::api::Pod = serde_json::from_value(spread_pod(json!({"matchExpressions": [
        {"key": "key", "operator": "In", "values": ["value1"]}]})))
    .expect("pod decodes");
    let on = FeatureGates::default();
    let o = affinity_options_for_update(&pod.spec, &on);
    assert!(o.allow_match_label_keys_in_pod_topology_spread_selector_merge);
    assert!(!o.old_pod_violates_match_label_keys_validation);
    assert!(!o.old_pod_violates_legacy_match_label_keys_validation);
    let mut merge_off = FeatureGates::default();
    merge_off.set("MatchLabelKeysInPodTopologySpreadSelectorMerge", false);
    let o = affinity_options_for_update(&pod.spec, &merge_off);
    assert!(!o.old_pod_violates_match_label_keys_validation);
    assert!(o.old_pod_violates_legacy_match_label_keys_validation);
    let mut off = FeatureGates::default();
    off.set("MatchLabelKeysInPodTopologySpread", false);
    let o = affinity_options_for_update(&pod.spec, &off);
    assert!(!o.allow_match_label_keys_in_pod_topology_spread);
    assert!(!o.old_pod_violates_legacy_match_label_keys_validation);
    // With the merge gate off the stored pod stays updatable (an image change, so the spec is
    // validated again), although the same spec is refused on create.
    let mut obj = crate::api::object::Object::Pod(pod);
    crate::api::defaults::default_object(&mut obj);
    let crate::api::object::Object::Pod(mut old) = obj else {
        unreachable!()
    };
    old.metadata.namespace = "default".into();
    old.metadata.resource_version = "1".into();
    let mut new = old.clone();
    new.spec_mut().containers[0].image = "nginx:2".into();
    assert_eq!(
        crate::api::validation::pod::validate_pod_update_gated(&new, &old, &merge_off),
        vec![]
    );
    let errs: Vec<String> =
        crate::api::validation::pod::validate_pod_create_gated(&new, &merge_off)
            .iter()
            .map(ToString::to_string)
            .collect();
    assert_eq!(
        errs,
        vec!["spec.topologySpreadConstraints[0].matchLabelKeys[0]: Invalid value: \"key\": exists in both matchLabelKeys and labelSelector"]
    );
}

// DropDisabledTemplateFields: a workload's pod template loses `spec.resources` and topology
// spread `matchLabelKeys` with their gates off, as a pod does; with the gates on both are kept.
#[test]
fn template_fields_follow_the_gates() {
    let deploy = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"},
        "spec": {"selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}},
                "spec": {"resources": {"requests": {"cpu": "1"}},
                    "topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "zone",
                        "whenUnsatisfiable": "DoNotSchedule",
                        "labelSelector": {"matchLabels": {"app": "web"}},
                        "matchLabelKeys": ["pod-template-hash"]}],
                    "containers": [{"name": "c", "image": "nginx"}]}}}});
    let mut on = sim_with("");
    let (ok, out) = apply(&mut on, &deploy);
    assert!(ok, "{out}");
    let spec = &stored(&on, "Deployment", "d")["spec"]["template"]["spec"];
    assert_eq!(spec["resources"], json!({"requests": {"cpu": "1"}}));
    assert_eq!(
        spec["topologySpreadConstraints"][0]["matchLabelKeys"],
        json!(["pod-template-hash"])
    );
    let mut off =
        sim_with("  PodLevelResources: false\n  MatchLabelKeysInPodTopologySpread: false");
    let (ok, out) = apply(&mut off, &deploy);
    assert!(ok, "{out}");
    let spec = &stored(&off, "Deployment", "d")["spec"]["template"]["spec"];
    assert!(spec.get("resources").is_none(), "{spec}");
    assert!(
        spec["topologySpreadConstraints"][0]
            .get("matchLabelKeys")
            .is_none(),
        "{spec}"
    );
}
