//! Port of TestPodLevelResourcesDefaults (`pkg/api/testing/validate_pod_level_defaults_test.go`,
//! repo kubernetes/kubernetes): pod-level and container hugepages requests and limits, with the
//! PodLevelResources gate on (its 1.35 default). Upstream defaults and validates a Pod (step 1),
//! a Deployment's template (step 2) and a Pod made from the defaulted template (step 3), and
//! checks only whether validation fails. Here each object goes through kubeplay's API server
//! create (defaulting, admission, validation).

use kubeplay::api::Object;
use kubeplay::scenario::Scenario;
use kubeplay::sim::Simulation;
use serde_json::{json, Value};

fn sim() -> Simulation {
    Scenario::parse("apiVersion: kubeplay.dev/v1alpha1\nkind: Scenario\n")
        .unwrap()
        .build()
        .unwrap()
}

/// `makePod`'s spec: one container per resource requirements, pod-level resources if given.
fn pod_spec(pod: Option<&Value>, container: &Value) -> Value {
    let mut spec = json!({"containers": [{"name": "container-0", "image": "img",
        "imagePullPolicy": "Never", "terminationMessagePolicy": "File",
        "resources": container}]});
    if let Some(p) = pod {
        spec["resources"] = p.clone();
    }
    spec
}

fn create_pod(sim: &mut Simulation, name: &str, spec: Value) -> Result<(), String> {
    sim.api
        .create(
            Object::from_value(json!({"apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": name, "namespace": "test-ns"}, "spec": spec}))
            .unwrap(),
        )
        .map(|_| ())
        .map_err(|e| e.kubectl_message())
}

fn rl(cpu_mem: bool, extra: &[(&str, &str)]) -> Value {
    let mut m = serde_json::Map::new();
    if cpu_mem {
        m.insert("cpu".into(), json!("1"));
        m.insert("memory".into(), json!("100Mi"));
    }
    for (k, v) in extra {
        m.insert(k.to_string(), json!(v));
    }
    Value::Object(m)
}

fn req(limits: Value, requests: Value) -> Value {
    json!({"limits": limits, "requests": requests})
}

// Port of TestPodLevelResourcesDefaults (pkg/api/testing/validate_pod_level_defaults_test.go),
// all nine rows.
#[test]
fn pod_level_resources_defaults() {
    let hp2 = ("hugepages-2Mi", "2Mi");
    let hp2_10 = ("hugepages-2Mi", "10Mi");
    let hp1g = ("hugepages-1Gi", "1Gi");
    let plain = || rl(true, &[]);
    let rows: Vec<(&str, Option<Value>, Value, bool)> = vec![
        (
            "no pod-level resources, container hugepages-2Mi:R",
            None,
            req(plain(), rl(true, &[hp2])),
            true,
        ),
        (
            "no pod-level resources, container hugepages-2Mi:L",
            None,
            req(rl(true, &[hp2]), plain()),
            false,
        ),
        (
            "no pod-level resources, container hugepages-2Mi:R/L",
            None,
            req(rl(true, &[hp2]), rl(true, &[hp2])),
            false,
        ),
        (
            "no pod-level resources, container hugepages-2Mi:R/L hugepages-1Gi:R/L",
            None,
            req(rl(true, &[hp2, hp1g]), rl(true, &[hp2, hp1g])),
            false,
        ),
        (
            "pod-level resources hugepages-2Mi:R, container hugepages-2Mi:none",
            Some(req(plain(), rl(true, &[hp2_10]))),
            req(plain(), plain()),
            true,
        ),
        (
            "pod-level resources hugepages-2Mi:L, container hugepages-2Mi:L",
            Some(req(rl(true, &[hp2_10]), plain())),
            req(rl(true, &[hp2]), plain()),
            false,
        ),
        (
            "pod-level resources hugepages-2Mi:R/L, container hugepages-2Mi:R/L",
            Some(req(rl(true, &[hp2_10]), rl(true, &[hp2_10]))),
            req(rl(true, &[hp2]), rl(true, &[hp2])),
            false,
        ),
        (
            "pod-level resources hugepages-2Mi:R/L hugepages-1Gi:R/L, container hugepages-2Mi:R/L hugepages-1Gi:R/L",
            Some(req(rl(true, &[hp2_10, hp1g]), rl(true, &[hp2_10, hp1g]))),
            req(rl(true, &[hp2, hp1g]), rl(true, &[hp2, hp1g])),
            false,
        ),
        (
            "pod-level resources hugepages-2Mi:R, container hugepages-2Mi:L",
            Some(req(plain(), rl(true, &[hp2_10]))),
            req(rl(true, &[hp2]), plain()),
            true,
        ),
    ];
    for (name, pod, container, expect_err) in rows {
        let spec = pod_spec(pod.as_ref(), &container);
        // Step 1: the Pod.
        let mut s = sim();
        let step1 = create_pod(&mut s, "test-pod", spec.clone());
        assert_eq!(step1.is_err(), expect_err, "step 1, {name}: {step1:?}");
        // Step 2: the Deployment's template.
        let mut s = sim();
        let step2 = s.api.create(
            Object::from_value(json!({"apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": "test-deploy", "namespace": "test-ns"},
                "spec": {"selector": {"matchLabels": {"a": "b"}},
                    "template": {"metadata": {"labels": {"a": "b"}}, "spec": spec}}}))
            .unwrap(),
        );
        assert_eq!(
            step2.is_err(),
            expect_err,
            "step 2, {name}: {:?}",
            step2.as_ref().err().map(|e| e.kubectl_message())
        );
        // Step 3: a Pod with the defaulted template's spec.
        if let Ok(Object::Deployment(d)) = step2 {
            let template_spec = serde_json::to_value(&*d.spec.template.spec).unwrap();
            let step3 = create_pod(&mut s, "from-template", template_spec);
            assert!(step3.is_ok(), "step 3, {name}: {step3:?}");
        }
    }
}
