//! Full-table ports of pkg/controller/daemon/util/daemonset_util_test.go.

use super::util::*;
use crate::api::{Affinity, Pod, PodTemplateSpec};
use serde_json::json;

fn affinity(v: serde_json::Value) -> Affinity {
    serde_json::from_value(v).expect("valid Affinity JSON")
}

fn required(terms: serde_json::Value) -> serde_json::Value {
    json!({"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}})
}

fn name_in(values: &[&str]) -> serde_json::Value {
    json!({"matchFields": [{"key": "metadata.name", "operator": "In", "values": values}]})
}

// upstream: TestReplaceDaemonSetPodNodeNameNodeAffinity
// (pkg/controller/daemon/util/daemonset_util_test.go), every row.
#[test]
fn replace_daemon_set_pod_node_name_node_affinity_upstream_table() {
    let host1 = required(json!([name_in(&["host_1"])]));
    let preferred = json!([{"preference": {"matchExpressions": [
        {"key": "kubernetes.io/hostname", "operator": "In", "values": ["host_1"]}]}}]);
    let mut preferred_and_required = host1.clone();
    preferred_and_required["nodeAffinity"]["preferredDuringSchedulingIgnoredDuringExecution"] =
        preferred.clone();
    // (affinity, hostname, expected)
    let tests: Vec<(Option<serde_json::Value>, &str, serde_json::Value)> = vec![
        (None, "host_1", host1.clone()),
        (
            Some(required(json!([{"matchExpressions": [
                {"key": "kubernetes.io/hostname", "operator": "In", "values": ["host_1"]}]}]))),
            "host_1",
            host1.clone(),
        ),
        (
            Some(
                json!({"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": preferred}}),
            ),
            "host_1",
            preferred_and_required,
        ),
        (
            Some(required(json!([name_in(&["host_1", "host_2"])]))),
            "host_1",
            host1.clone(),
        ),
        (None, "host_1", host1.clone()),
        (
            Some(required(json!([
                {"matchExpressions": [{"key": "hostname", "operator": "In", "values": ["host_1"]}]},
                name_in(&["host_2"])
            ]))),
            "host_1",
            host1.clone(),
        ),
        (
            Some(required(json!([{"matchFields": [
                {"key": "metadata.name", "operator": "NotIn", "values": ["host_2"]}]}]))),
            "host_1",
            host1.clone(),
        ),
        (
            // Only metadata.name is a valid matchFields key in 1.11; another key is replaced too.
            Some(required(json!([{"matchFields": [
                {"key": "metadata.foo", "operator": "In", "values": ["bar"]}]}]))),
            "host_1",
            host1,
        ),
    ];
    for (i, (a, host, expected)) in tests.into_iter().enumerate() {
        let got = replace_daemon_set_pod_node_name_node_affinity(a.map(affinity), host);
        assert_eq!(got, affinity(expected), "case {i}");
    }
}

// upstream: TestIsPodUpdated (pkg/controller/daemon/util/daemonset_util_test.go), every row.
#[test]
fn is_pod_updated_upstream_table() {
    let template_generation = Some(12345);
    let bad_generation = Some(12350);
    let hash = "55555";
    let pod = |labels: Option<serde_json::Value>| -> Pod {
        let mut v = json!({"metadata": {"name": "pod1", "namespace": "default"},
            "spec": {"nodeName": "node1", "containers": [{"image": "foo/bar"}]}});
        if let Some(l) = labels {
            v["metadata"]["labels"] = l;
        }
        serde_json::from_value(v).expect("valid Pod JSON")
    };
    let labels = json!({"pod-template-generation": "12345", "controller-revision-hash": hash});
    let labels_no_hash = json!({"pod-template-generation": "12345"});
    let other_hash = format!("{hash}123");
    let tests = [
        (
            "templateGeneration and hash both match",
            template_generation,
            pod(Some(labels.clone())),
            hash,
            true,
        ),
        (
            "templateGeneration matches, hash doesn't",
            template_generation,
            pod(Some(labels.clone())),
            other_hash.as_str(),
            true,
        ),
        (
            "templateGeneration matches, no hash label, has hash",
            template_generation,
            pod(Some(labels_no_hash.clone())),
            hash,
            true,
        ),
        (
            "templateGeneration matches, no hash label, no hash",
            template_generation,
            pod(Some(labels_no_hash)),
            "",
            true,
        ),
        (
            "templateGeneration matches, has hash label, no hash",
            template_generation,
            pod(Some(labels.clone())),
            "",
            true,
        ),
        (
            "templateGeneration doesn't match, hash does",
            bad_generation,
            pod(Some(labels.clone())),
            hash,
            true,
        ),
        (
            "templateGeneration and hash don't match",
            bad_generation,
            pod(Some(labels)),
            other_hash.as_str(),
            false,
        ),
        (
            "empty labels, no hash",
            template_generation,
            pod(Some(json!({}))),
            "",
            false,
        ),
        (
            "empty labels",
            template_generation,
            pod(Some(json!({}))),
            hash,
            false,
        ),
        ("no labels", template_generation, pod(None), hash, false),
    ];
    for (name, generation, pod, hash, want) in tests {
        assert_eq!(
            is_pod_updated(&pod, hash, generation),
            want,
            "{name}: IsPodUpdated returned wrong value"
        );
    }
}

// upstream: TestCreatePodTemplate (pkg/controller/daemon/util/daemonset_util_test.go).
#[test]
fn create_pod_template_upstream_table() {
    for (generation, hash, expect_unique_label) in [(1, "", false), (2, "3242341807", true)] {
        let t = create_pod_template(&PodTemplateSpec::default(), Some(generation), hash);
        assert_eq!(
            t.metadata
                .labels
                .get(DAEMON_SET_TEMPLATE_GENERATION_KEY)
                .map(String::as_str),
            Some(generation.to_string().as_str())
        );
        let got = t.metadata.labels.get(DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY);
        if expect_unique_label {
            assert_eq!(got.map(String::as_str), Some(hash));
        } else {
            assert_eq!(got, None);
        }
    }
}
