//! `kubectl rollout undo` of StatefulSets against upstream's
//! pkg/polymorphichelpers/rollback_test.go (repo kubernetes/kubernetes,
//! staging/src/k8s.io/kubectl), through the controllers' ControllerRevisions.

use super::e2e_workloads::{cluster, run};
use super::execute_with_input;
use crate::api::{Duration, StatefulSet};
use serde_json::{json, Value};

fn sts(template: Value) -> String {
    json!({"apiVersion": "apps/v1", "kind": "StatefulSet",
        "metadata": {"name": "web", "namespace": "default"},
        "spec": {"serviceName": "web", "replicas": 1,
            "selector": {"matchLabels": {"app": "web"}}, "template": template}})
    .to_string()
}

fn container(name: &str) -> Value {
    json!({"name": name, "image": "nginx"})
}

// Upstream: TestStatefulSetApplyRevision (pkg/polymorphichelpers/rollback_test.go), cases
// "test_less" and "test_more": rolling back to a revision replaces the whole pod template
// (getStatefulSetPatch's `"$patch": "replace"`), dropping what the revision lacks
// (annotations, init containers, volumes, node selector) and restoring what it has.
#[test]
fn stateful_set_apply_revision() {
    let labels = json!({"app": "web"});
    let cases = [
        (
            "test_less",
            json!({"metadata": {"labels": labels, "annotations": {"version": "v3"}},
                "spec": {"initContainers": [container("i0")], "containers": [container("c0")],
                    "volumes": [{"name": "v0", "emptyDir": {}}], "nodeSelector": {"1dsa": "n0"}}}),
            json!({"metadata": {"labels": labels},
                "spec": {"containers": [container("c1")], "initContainers": []}}),
        ),
        (
            "test_more",
            json!({"metadata": {"labels": labels},
                "spec": {"initContainers": [container("i0")], "containers": [container("c0")]}}),
            json!({"metadata": {"labels": labels, "annotations": {"version": "v3"}},
                "spec": {"initContainers": [container("i1")], "containers": [container("c1")],
                    "volumes": [{"name": "v1", "emptyDir": {}}]}}),
        ),
    ];
    for (name, source, expected) in cases {
        let mut sim = cluster();
        // Revision 1 holds the expected template; the source is the current one.
        for t in [&expected, &source] {
            execute_with_input(&mut sim, "apply -f -", Some(&sts(t.clone()))).unwrap();
            sim.run_for(Duration::from_secs(10)).unwrap();
        }
        assert_eq!(
            run(&mut sim, "rollout undo sts/web --to-revision=1"),
            "statefulset.apps/web rolled back",
            "{name}"
        );
        let got = sim
            .api
            .store
            .get::<StatefulSet>("default", "web")
            .unwrap()
            .clone();
        let t = &got.spec.template;
        let names = |cs: &[crate::api::Container]| -> Vec<String> {
            cs.iter().map(|c| c.name.clone()).collect()
        };
        let want_spec = &expected["spec"];
        let want_names = |k: &str| -> Vec<String> {
            want_spec[k]
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(|c| c["name"].as_str().unwrap().to_string())
                        .collect()
                })
                .unwrap_or_default()
        };
        assert_eq!(
            names(&t.spec.containers),
            want_names("containers"),
            "{name}"
        );
        assert_eq!(
            names(&t.spec.init_containers),
            want_names("initContainers"),
            "{name}"
        );
        let volumes: Vec<String> = serde_json::to_value(&t.spec).unwrap()["volumes"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|v| v["name"].as_str().unwrap().to_string())
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(volumes, want_names("volumes"), "{name}");
        let selector = serde_json::to_value(&t.spec).unwrap()["nodeSelector"].clone();
        assert_eq!(selector, want_spec["nodeSelector"], "{name}");
        let annotations = serde_json::to_value(&t.metadata.annotations).unwrap();
        let want_annotations = expected["metadata"]
            .get("annotations")
            .cloned()
            .unwrap_or(json!({}));
        assert_eq!(annotations, want_annotations, "{name}");
    }
}
