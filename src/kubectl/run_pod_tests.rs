//! `kubectl run` against upstream's pkg/cmd/run/run_test.go and the `BasicPod` generator's
//! pkg/generate/versioned/run_test.go (staging/src/k8s.io/kubectl).

use super::super::execute;
use super::super::testutil::sim;
use super::basic_pod;
use crate::api::Pod;
use serde_json::json;

// Upstream: TestGeneratePod (pkg/generate/versioned/run_test.go): the basic pod (label
// `run: NAME`, `dnsPolicy: ClusterFirst`, `resources: {}`), a port, env, explicit labels, and
// the arguments as `args` or, with `--command`, as `command`.
#[test]
fn basic_pod_rows() {
    assert_eq!(
        basic_pod("foo", "someimage", &[], "Always", None, &[], &[], false),
        json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "foo", "labels": {"run": "foo"}},
            "spec": {"containers": [{"name": "foo", "image": "someimage", "resources": {}}],
                "dnsPolicy": "ClusterFirst", "restartPolicy": "Always"}})
    );
    let v = basic_pod(
        "foo",
        "someimage",
        &[("foo".into(), "bar".into()), ("baz".into(), "blah".into())],
        "Never",
        Some(80),
        &[("a".into(), "b".into())],
        &["bar".into(), "baz".into()],
        true,
    );
    assert_eq!(
        v["metadata"]["labels"],
        json!({"foo": "bar", "baz": "blah"})
    );
    let c = &v["spec"]["containers"][0];
    assert_eq!(c["ports"], json!([{"containerPort": 80}]));
    assert_eq!(c["env"], json!([{"name": "a", "value": "b"}]));
    assert_eq!(c["command"], json!(["bar", "baz"]));
    assert_eq!(v["spec"]["restartPolicy"], "Never");
    let v = basic_pod("foo", "i", &[], "Always", None, &[], &["x".into()], false);
    assert_eq!(v["spec"]["containers"][0]["args"], json!(["x"]));
}

// Upstream: TestRunArgsFollowDashRules / TestRunValidations (pkg/cmd/run/run_test.go): the
// name, the required image, the restart policy; the created pod.
#[test]
fn run_creates_a_pod_and_validates() {
    let mut sim = sim();
    assert_eq!(
        execute(
            &mut sim,
            "run tmp --image=busybox --restart=Never -- sleep 3600"
        )
        .unwrap(),
        "pod/tmp created"
    );
    let p = sim.api.store.get::<Pod>("default", "tmp").unwrap().clone();
    assert_eq!(
        p.metadata.labels.get("run").map(String::as_str),
        Some("tmp")
    );
    assert_eq!(p.spec.restart_policy, "Never");
    let v = serde_json::to_value(&p.spec.containers[0]).unwrap();
    assert_eq!(v["args"], json!(["sleep", "3600"]));
    assert_eq!(
        execute(&mut sim, "run tmp2").unwrap_err(),
        "error: required flag(s) \"image\" not set"
    );
    assert!(execute(&mut sim, "run --image=busybox")
        .unwrap_err()
        .starts_with("error: NAME is required for run"));
    assert_eq!(
        execute(&mut sim, "run tmp3 --image=busybox --restart=Sometimes").unwrap_err(),
        "error: invalid restart policy: Sometimes"
    );
    assert_eq!(
        execute(&mut sim, "run tmp --image=busybox").unwrap_err(),
        "Error from server (AlreadyExists): pods \"tmp\" already exists"
    );
    assert!(execute(&mut sim, "run tmp4 --image=busybox -it --rm")
        .unwrap_err()
        .contains("cannot attach"));
}
