//! `kubectl set resources` / `set image` against upstream's pkg/cmd/set/set_resources_test.go and
//! set_image_test.go (repo
//! kubernetes/kubernetes, staging/src/k8s.io/kubectl), run through the command.

use super::testutil::sim;
use super::{execute, execute_with_input};
use crate::api::Object;
use serde_json::json;

fn put(sim: &mut crate::sim::Simulation, v: serde_json::Value) {
    sim.api.create(Object::from_value(v).unwrap()).unwrap();
}

fn template(init: bool) -> serde_json::Value {
    let mut spec = json!({"containers": [{"name": "redis", "image": "redis"}]});
    if init {
        spec["initContainers"] = json!([{"name": "init", "image": "redis"}]);
    }
    json!({"metadata": {"labels": {"app": "redis"}}, "spec": spec})
}

// Upstream: TestSetResourcesRemote (pkg/cmd/set/set_resources_test.go), its "set image batchv1
// Job" row: `UpdatePodSpecForObject` (polymorphichelpers/updatepodspec.go) edits a Job's pod
// template, and a CronJob's job template (its `*batchv1.CronJob` case).
#[test]
fn set_resources_on_jobs_and_cron_jobs() {
    let mut sim = sim();
    put(
        &mut sim,
        json!({"apiVersion": "batch/v1", "kind": "Job",
            "metadata": {"name": "nginx", "namespace": "default"},
            "spec": {"template": {"spec": {"containers": [{"name": "nginx", "image": "nginx"}],
                "restartPolicy": "Never"}}}}),
    );
    put(
        &mut sim,
        json!({"apiVersion": "batch/v1", "kind": "CronJob",
            "metadata": {"name": "nginx", "namespace": "default"},
            "spec": {"schedule": "* * * * *", "jobTemplate": {"spec": {"template": {"spec": {
                "containers": [{"name": "nginx", "image": "nginx"}], "restartPolicy": "Never"}}}}}}),
    );
    let out = execute(
        &mut sim,
        "set resources job nginx --limits=cpu=200m,memory=512Mi --dry-run=client -o yaml",
    )
    .unwrap();
    assert!(out.contains("cpu: 200m"), "{out}");
    assert_eq!(
        execute(
            &mut sim,
            "set resources cronjob nginx --limits=cpu=200m,memory=512Mi"
        ),
        Ok("cronjob.batch/nginx resource requirements updated".into())
    );
    let cj = sim
        .api
        .store
        .get::<crate::api::CronJob>("default", "nginx")
        .unwrap()
        .clone();
    let r = cj.spec.job_template.spec.template.spec.containers[0]
        .resources
        .clone()
        .unwrap();
    assert_eq!(r.limits["cpu"].0, "200m");
}

// Upstream: TestSetResourcesRemoteWithSpecificContainers (pkg/cmd/set/set_resources_test.go):
// a Deployment with init container "init" and container "redis"; `-c` selects "*" (2
// containers), "red*" (1) and "redis" (1).
#[test]
fn set_resources_with_specific_containers() {
    for (selector, expected) in [("*", 2), ("red*", 1), ("redis", 1)] {
        let mut sim = sim();
        put(
            &mut sim,
            json!({"apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": "redis", "namespace": "default"},
                "spec": {"selector": {"matchLabels": {"app": "redis"}}, "template": template(true)}}),
        );
        let out = execute(
            &mut sim,
            &format!("set resources deployments redis -c '{selector}' --limits=cpu=200m,memory=512Mi -o yaml"),
        )
        .unwrap();
        assert_eq!(
            out.matches("cpu: 200m").count(),
            expected,
            "{selector}: {out}"
        );
    }
}

/// testdata/set/multi-resource-yaml.yaml: ReplicationControllers first-rc and second-rc.
fn multi_resource_yaml() -> String {
    let rc = |name: &str| {
        format!("apiVersion: v1\nkind: ReplicationController\nmetadata:\n  name: {name}\nspec:\n  replicas: 1\n  selector:\n    app: mock\n  template:\n    metadata:\n      labels:\n        app: mock\n    spec:\n      containers:\n      - name: mock-container\n        image: registry.k8s.io/pause:3.5\n")
    };
    format!("{}---\n{}", rc("first-rc"), rc("second-rc"))
}

// Upstream: TestSetMultiResourcesImageLocal (pkg/cmd/set/set_image_test.go): `*=thingy`
// on testdata/set/multi-resource-yaml.yaml with --local -o name.
#[test]
fn set_image_local_multi_resource() {
    let mut sim = sim();
    assert_eq!(
        execute_with_input(
            &mut sim,
            "set image -f - --local *=thingy -o name",
            Some(&multi_resource_yaml()),
        ),
        Ok("replicationcontroller/first-rc\nreplicationcontroller/second-rc".into())
    );
}

// Upstream: TestSetMultiResourcesLimitsLocal (pkg/cmd/set/set_resources_test.go) with
// testdata/set/multi-resource-yaml.yaml: `--local -o name` prints each object.
#[test]
fn set_resources_local_multi_resource() {
    let yaml = multi_resource_yaml();
    let mut sim = sim();
    assert_eq!(
        execute_with_input(
            &mut sim,
            "set resources -f - --local --limits=cpu=200m,memory=512Mi --requests=cpu=200m,memory=512Mi -o name",
            Some(&yaml),
        ),
        Ok("replicationcontroller/first-rc\nreplicationcontroller/second-rc".into())
    );
}

/// The images of a ReplicaSet's (init) containers, by name.
fn rs_images(sim: &crate::sim::Simulation) -> Vec<(String, String)> {
    let rs = sim
        .api
        .store
        .get::<crate::api::ReplicaSet>("default", "nginx")
        .unwrap()
        .clone();
    let spec = &rs.spec.template.spec;
    spec.init_containers
        .iter()
        .chain(&spec.containers)
        .map(|c| (c.name.clone(), c.image.clone()))
        .collect()
}

// Upstream: TestSetImageRemote (pkg/cmd/set/set_image_test.go), its "set image batchv1
// CronJob" row: `cronjob nginx *=thingy` sets the job template's containers and init containers.
#[test]
fn set_image_on_a_cron_job() {
    let mut sim = sim();
    put(
        &mut sim,
        json!({"apiVersion": "batch/v1", "kind": "CronJob",
            "metadata": {"name": "nginx", "namespace": "default"},
            "spec": {"schedule": "* * * * *", "jobTemplate": {"spec": {"template": {"spec": {
                "containers": [{"name": "nginx", "image": "nginx"}],
                "initContainers": [{"name": "busybox", "image": "busybox"}],
                "restartPolicy": "Never"}}}}}}),
    );
    assert_eq!(
        execute(&mut sim, "set image cronjob nginx *=thingy"),
        Ok("cronjob.batch/nginx image updated".into())
    );
    let cj = sim
        .api
        .store
        .get::<crate::api::CronJob>("default", "nginx")
        .unwrap()
        .clone();
    let spec = &cj.spec.job_template.spec.template.spec;
    assert_eq!(spec.containers[0].image, "thingy");
    assert_eq!(spec.init_containers[0].image, "thingy");
}

// Upstream: TestSetImageRemoteWithSpecificContainers (pkg/cmd/set/set_image_test.go): "set
// container image only" and "set initContainer image only": `nginx=thingy` changes the
// container named nginx, whichever list it is in, and not busybox.
#[test]
fn set_image_with_specific_containers() {
    for (containers, init) in [("nginx", "busybox"), ("busybox", "nginx")] {
        let mut sim = sim();
        put(
            &mut sim,
            json!({"apiVersion": "apps/v1", "kind": "ReplicaSet",
                "metadata": {"name": "nginx", "namespace": "default"},
                "spec": {"selector": {"matchLabels": {"app": "nginx"}}, "template": {
                    "metadata": {"labels": {"app": "nginx"}},
                    "spec": {"containers": [{"name": containers, "image": containers}],
                        "initContainers": [{"name": init, "image": init}]}}}}),
        );
        assert_eq!(
            execute(&mut sim, "set image replicaset nginx nginx=thingy"),
            Ok("replicaset.apps/nginx image updated".into())
        );
        let want = |n: &str| {
            let image = if n == "nginx" { "thingy" } else { n };
            (n.to_string(), image.to_string())
        };
        assert_eq!(rs_images(&sim), [want(init), want(containers)]);
    }
}

/// testdata/controller.yaml (comments dropped): the `cassandra` ReplicationController.
pub(super) const CONTROLLER_YAML: &str = "apiVersion: v1
kind: ReplicationController
metadata:
  name: cassandra
spec:
  replicas: 2
  template:
    metadata:
      labels:
        app: cassandra
    spec:
      containers:
        - command:
            - /run.sh
          resources:
            limits:
              cpu: 0.5
          env:
            - name: MAX_HEAP_SIZE
              value: 512M
            - name: HEAP_NEWSIZE
              value: 100M
            - name: CASSANDRA_SEED_PROVIDER
              value: \"io.k8s.cassandra.KubernetesSeedProvider\"
            - name: POD_NAMESPACE
              valueFrom:
                fieldRef:
                  fieldPath: metadata.namespace
            - name: POD_IP
              valueFrom:
                fieldRef:
                  fieldPath: status.podIP
          image: gcr.io/google-samples/cassandra:v13
          name: cassandra
          ports:
            - containerPort: 7000
              name: intra-node
            - containerPort: 7001
              name: tls-intra-node
            - containerPort: 7199
              name: jmx
            - containerPort: 9042
              name: cql
          volumeMounts:
            - mountPath: /cassandra_data
              name: data
      volumes:
        - name: data
          emptyDir: {}
";

// Upstream: TestResourcesLocal (pkg/cmd/set/set_resources_test.go): testdata/controller.yaml
// with --local, limits and requests cpu=200m,memory=512Mi, -o name.
#[test]
fn set_resources_local() {
    let mut sim = sim();
    let out = execute_with_input(
        &mut sim,
        "set resources -f - --local --limits=cpu=200m,memory=512Mi --requests=cpu=200m,memory=512Mi -o name",
        Some(CONTROLLER_YAML),
    )
    .unwrap();
    assert!(out.contains("replicationcontroller/cassandra"), "{out}");
}
