//! `kubectl create deployment` against upstream's pkg/cmd/create/create_deployment_test.go
//! (staging/src/k8s.io/kubectl): the generated object, the required image, and the
//! multiple-images-with-command check, run through the command.

use super::super::execute;
use super::super::testutil::sim;
use super::container_name_for_image;
use crate::api::{Deployment, Pod};

fn stored(sim: &crate::sim::Simulation, name: &str) -> Deployment {
    sim.api
        .store
        .get::<Deployment>("default", name)
        .unwrap()
        .clone()
}

// Upstream: TestCreateDeployment / TestCreateDeploymentWithPort / TestCreateDeploymentWithReplicas
// (create_deployment_test.go): `app: NAME` labels and selector, one container named after the
// image, `replicas` 1 unless given, the port on the first container.
#[test]
fn create_deployment_builds_upstreams_object() {
    // A scenario's default cluster (nodes and controllers), so the Deployment runs.
    let mut sim = super::super::e2e_workloads::cluster();
    let out = execute(&mut sim, "create deployment web --image=nginx:1.27").unwrap();
    assert_eq!(out, "deployment.apps/web created");
    let d = stored(&sim, "web");
    assert_eq!(d.spec.replicas, Some(1));
    assert_eq!(
        d.metadata.labels.get("app").map(String::as_str),
        Some("web")
    );
    let sel = d.spec.selector.as_ref().unwrap();
    assert_eq!(
        sel.match_labels
            .as_ref()
            .unwrap()
            .get("app")
            .map(String::as_str),
        Some("web")
    );
    let t = &d.spec.template;
    assert_eq!(
        t.metadata.labels.get("app").map(String::as_str),
        Some("web")
    );
    let c = &t.spec.containers;
    assert_eq!(c.len(), 1);
    assert_eq!(
        (c[0].name.as_str(), c[0].image.as_str()),
        ("nginx", "nginx:1.27")
    );

    execute(
        &mut sim,
        "create deployment api --image=registry.k8s.io/pause:3.10 --replicas=3 --port=8080",
    )
    .unwrap();
    let d = stored(&sim, "api");
    assert_eq!(d.spec.replicas, Some(3));
    let c = &d.spec.template.spec.containers[0];
    assert_eq!(c.name, "pause");
    let ports = serde_json::to_value(c).unwrap()["ports"].clone();
    assert_eq!(
        ports,
        serde_json::json!([{"containerPort": 8080, "protocol": "TCP"}])
    );

    // The controllers run it: three pods after a while.
    let until = sim.api.now + crate::api::time::Duration::from_secs(60);
    sim.run_until(until).unwrap();
    let pods = sim
        .api
        .store
        .list::<Pod>(Some("default"))
        .filter(|p| p.metadata.labels.get("app").map(String::as_str) == Some("api"))
        .count();
    assert_eq!(pods, 3);
}

// Upstream: the required `--image` flag (`cmd.MarkFlagRequired("image")`) and `Validate`'s
// "cannot specify multiple --image options and command".
#[test]
fn create_deployment_errors() {
    let mut sim = sim();
    assert_eq!(
        execute(&mut sim, "create deployment web").unwrap_err(),
        "error: required flag(s) \"image\" not set"
    );
    assert_eq!(
        execute(
            &mut sim,
            "create deployment web --image=a --image=b -- sleep 1"
        )
        .unwrap_err(),
        "error: cannot specify multiple --image options and command"
    );
    assert!(execute(&mut sim, "create deployment --image=a")
        .unwrap_err()
        .starts_with("error: exactly one NAME is required, got 0"));
    // Two images: two containers, the command on none.
    execute(&mut sim, "create deployment two --image=nginx,busybox").unwrap();
    let names: Vec<String> = stored(&sim, "two")
        .spec
        .template
        .spec
        .containers
        .iter()
        .map(|c| c.name.clone())
        .collect();
    assert_eq!(names, ["nginx", "busybox"]);
    // Already there: the server's AlreadyExists, wrapped as kubectl wraps it.
    assert_eq!(
        execute(&mut sim, "create deployment two --image=nginx").unwrap_err(),
        "error: failed to create deployment: deployments.apps \"two\" already exists"
    );
}

// Upstream: buildPodSpec / sanitizeAndUniquify.
#[test]
fn container_names_from_images() {
    assert_eq!(container_name_for_image("nginx", "x"), "nginx");
    assert_eq!(container_name_for_image("nginx:1.27", "x"), "nginx");
    assert_eq!(
        container_name_for_image("registry.k8s.io/pause:3.10", "x"),
        "pause"
    );
    assert_eq!(
        container_name_for_image("busybox@sha256:abc", "x"),
        "busybox"
    );
    assert_eq!(
        container_name_for_image("my_app.v2:1", "abcde"),
        "my-app-v2-abcde"
    );
}
