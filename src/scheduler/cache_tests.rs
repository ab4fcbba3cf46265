//! The scheduler cache's per-node entries kept current by `watch` (`update_node_cache`)
//! against entries rebuilt from the store (`CachedNode::from_store`), which is what the
//! scheduler used before: the two must agree after every change, so that decisions stay the
//! same. Upstream keeps its cache the same way (`cache.AddPod`/`UpdatePod`/`RemovePod` in
//! pkg/scheduler/backend/cache/cache.go add and remove one pod's contribution).

use super::*;
use crate::scenario::Scenario;
use serde_json::json;

/// Every entry of `cache` equals the entry rebuilt from `store` for its node.
fn assert_cache_exact(cache: &BTreeMap<String, CachedNode>, store: &Store, at: &str) {
    for (name, e) in cache {
        let node = store
            .get::<Node>("", name)
            .unwrap_or_else(|| panic!("{at}: cache entry for missing node {name}"));
        let want = CachedNode::from_store(node, store);
        assert_eq!(
            format!("{e:?}"),
            format!("{want:?}"),
            "{at}: cache entry for {name}"
        );
    }
}

fn node(name: &str, cpu: &str, gpus: Option<&str>) -> Node {
    let mut alloc = json!({"cpu": cpu, "memory": "8Gi", "pods": "110"});
    if let Some(g) = gpus {
        alloc["example.com/gpu"] = json!(g);
    }
    serde_json::from_value(json!({
        "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name}},
        "status": {"allocatable": alloc, "capacity": alloc},
    }))
    .expect("node")
}

fn pod(name: &str, node: &str, requests: serde_json::Value, host_port: Option<i64>) -> Pod {
    let mut port = json!({"containerPort": 80});
    if let Some(h) = host_port {
        port["hostPort"] = json!(h);
    }
    serde_json::from_value(json!({
        "metadata": {"name": name, "namespace": "default", "uid": format!("uid-{name}")},
        "spec": {
            "nodeName": node,
            "containers": [{"name": "c", "image": "nginx", "ports": [port],
                            "resources": {"requests": requests}}],
            "initContainers": [{"name": "i", "image": "busybox",
                                "resources": {"requests": {"cpu": "2"}}}],
        },
        "status": {"phase": "Pending"},
    }))
    .expect("pod")
}

/// Applies `change` to the store and to the cache, then compares the cache with the store.
fn apply(
    store: &mut Store,
    cache: &mut BTreeMap<String, CachedNode>,
    old: Option<Object>,
    new: Option<Object>,
    at: &str,
) {
    match &new {
        Some(o) => store.put(o.clone()),
        None => {
            if let Some(o) = &old {
                store.remove(&crate::store::ObjectRef::of(o));
            }
        }
    }
    store.take_changes();
    update_node_cache(cache, &Change::of(old, new));
    assert_cache_exact(cache, store, at);
}

#[test]
fn update_node_cache_tracks_adds_updates_and_removals() {
    let mut store = Store::new();
    let n1 = node("n1", "4", None);
    let n2 = node("n2", "8", Some("2"));
    store.put(n1.clone().into_object());
    store.put(n2.clone().into_object());
    let a = pod("a", "n1", json!({"cpu": "250m", "memory": "64Mi"}), None);
    store.put(a.clone().into_object());
    store.take_changes();
    let mut cache = BTreeMap::new();
    for n in [&n1, &n2] {
        cache.insert(n.metadata.name.clone(), CachedNode::from_store(n, &store));
    }

    // Bound pods (init container above the containers' sum, defaults for missing requests).
    let b_unbound = pod("b", "", json!({"memory": "1Gi"}), None);
    let b = pod("b", "n1", json!({"memory": "1Gi"}), None);
    apply(
        &mut store,
        &mut cache,
        None,
        Some(b_unbound.clone().into_object()),
        "b created",
    );
    apply(
        &mut store,
        &mut cache,
        Some(b_unbound.into_object()),
        Some(b.clone().into_object()),
        "b bound",
    );
    // A status update (same spec): nothing to change.
    let mut b_running = b.clone();
    b_running.status.phase = "Running".into();
    apply(
        &mut store,
        &mut cache,
        Some(b.clone().into_object()),
        Some(b_running.clone().into_object()),
        "b running",
    );
    // A spec change on the node (requests resized).
    let mut b_resized = b_running.clone();
    b_resized.spec_mut().containers[0]
        .resources
        .get_or_insert_with(Default::default)
        .requests
        .insert("cpu".into(), crate::api::Quantity("1500m".into()));
    apply(
        &mut store,
        &mut cache,
        Some(b_running.into_object()),
        Some(b_resized.clone().into_object()),
        "b resized",
    );
    // Terminal: no longer counted.
    let mut b_done = b_resized.clone();
    b_done.status.phase = "Succeeded".into();
    apply(
        &mut store,
        &mut cache,
        Some(b_resized.into_object()),
        Some(b_done.clone().into_object()),
        "b succeeded",
    );
    apply(
        &mut store,
        &mut cache,
        Some(b_done.into_object()),
        None,
        "b deleted",
    );

    // Scalar resources and host ports: added exactly, dropped (rebuilt later) on removal.
    let g = pod(
        "g",
        "n2",
        json!({"example.com/gpu": "1", "cpu": "1"}),
        Some(8080),
    );
    apply(
        &mut store,
        &mut cache,
        None,
        Some(g.clone().into_object()),
        "g added",
    );
    assert!(cache.contains_key("n2"));
    apply(
        &mut store,
        &mut cache,
        Some(g.into_object()),
        None,
        "g deleted",
    );
    assert!(!cache.contains_key("n2"), "entry dropped, not patched");
    cache.insert("n2".into(), CachedNode::from_store(&n2, &store));

    // A node update re-reads allocatable and labels, keeping the pods' aggregates.
    let mut n1b = n1.clone();
    n1b.status
        .allocatable
        .insert("cpu".into(), crate::api::Quantity("2".into()));
    n1b.metadata
        .labels
        .insert(LABEL_ZONE.into(), "zone-a".into());
    apply(
        &mut store,
        &mut cache,
        Some(n1.into_object()),
        Some(n1b.clone().into_object()),
        "n1 updated",
    );
    // Deleting a pod on a node without an entry, and deleting a node.
    apply(
        &mut store,
        &mut cache,
        Some(a.into_object()),
        None,
        "a deleted",
    );
    apply(
        &mut store,
        &mut cache,
        Some(n1b.into_object()),
        None,
        "n1 deleted",
    );
    assert!(!cache.contains_key("n1"));
}

/// A busy cluster: rolling updates, scale-down, deletes, completions, a node failure (taints,
/// evictions), host ports, extended resources, init containers and sidecars, unschedulable
/// pods. The scheduler compares its cache with the store before every use.
const BUSY: &str = r#"
apiVersion: kubeplay.dev/v1alpha1
kind: Scenario
seed: 11
nodes:
  - {count: 8, namePrefix: a-, labels: {topology.kubernetes.io/zone: zone-a}, capacity: {cpu: "2", memory: 4Gi, pods: "10"}}
  - {count: 8, namePrefix: b-, labels: {topology.kubernetes.io/zone: zone-b}, capacity: {cpu: "2", memory: 4Gi, pods: "10"}}
  - {count: 2, namePrefix: gpu-, labels: {example.com/gpu: "yes"}, capacity: {cpu: "4", memory: 8Gi, pods: "10", example.com/gpu: "2"}}
kubelet:
  rules:
    - match: {selector: "job-name=batch"}
      runFor: 20s
      exitCode: 0
objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 30
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec:
          topologySpreadConstraints:
          - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}
          initContainers:
          - {name: init, image: busybox, resources: {requests: {cpu: 300m}}}
          - {name: side, image: envoy, restartPolicy: Always, resources: {requests: {memory: 64Mi}}}
          containers: [{name: c, image: "nginx:1.0", resources: {requests: {cpu: 200m, memory: 128Mi}}}]
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: ports}
    spec:
      replicas: 12
      selector: {matchLabels: {app: ports}}
      template:
        metadata: {labels: {app: ports}}
        spec:
          containers: [{name: c, image: "nginx:1.0", ports: [{containerPort: 80, hostPort: 8080}], resources: {requests: {cpu: 100m}}}]
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: gpu}
    spec:
      replicas: 3
      selector: {matchLabels: {app: gpu}}
      template:
        metadata: {labels: {app: gpu}}
        spec:
          nodeSelector: {example.com/gpu: "yes"}
          containers: [{name: c, image: "cuda:1.0", resources: {requests: {cpu: 500m, example.com/gpu: "1"}, limits: {example.com/gpu: "1"}}}]
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: fill}
    spec:
      replicas: 60
      selector: {matchLabels: {app: fill}}
      template:
        metadata: {labels: {app: fill}}
        spec:
          containers: [{name: c, image: "nginx:1.0"}]
  - apiVersion: batch/v1
    kind: Job
    metadata: {name: batch}
    spec:
      completions: 12
      parallelism: 4
      template:
        spec:
          restartPolicy: Never
          containers: [{name: c, image: busybox, resources: {requests: {cpu: 250m}}}]
timeline:
- at: 40s
  kubectl: set image deployment/web c=nginx:2.0
- at: 40s
  kubectl: set image deployment/ports c=nginx:2.0
- at: 50s
  kubectl: set image deployment/gpu c=cuda:2.0
- at: 1m
  nodeFail: a-3
- at: 1m30s
  kubectl: scale deployment/fill --replicas=90
- at: 2m
  kubectl: delete deployment ports
- at: 3m
  kubectl: scale deployment/fill --replicas=20
- at: 7m
  nodeRecover: a-3
duration: 9m
"#;

#[test]
fn cached_entries_equal_rebuilt_ones_through_a_busy_run() {
    VERIFY_NODE_CACHE.with(|v| v.set(true));
    let mut sim = Scenario::parse(BUSY)
        .expect("scenario")
        .build()
        .expect("build");
    let end = sim.start + crate::api::Duration::from_mins(9);
    let result = sim.run_until(end);
    VERIFY_NODE_CACHE.with(|v| v.set(false));
    result.expect("run");
    let checks = NODE_CACHE_CHECKS.with(|c| c.get());
    assert!(checks > 100, "the cache was compared {checks} times");
    let sched = sim.controller::<Scheduler>().expect("scheduler");
    assert!(!sched.node_cache.is_empty());
    assert_cache_exact(&sched.node_cache, &sim.api.store, "end");
}

/// Called by the scheduler's `sync` (tests only) before it uses the cache.
pub(super) fn verify_node_cache(cache: &BTreeMap<String, CachedNode>, store: &Store) {
    NODE_CACHE_CHECKS.with(|c| c.set(c.get() + 1));
    assert_cache_exact(cache, store, "scheduler sync");
}

thread_local! {
    /// Turns on [`verify_node_cache`] in the scheduler's `sync`.
    pub(super) static VERIFY_NODE_CACHE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    static NODE_CACHE_CHECKS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}
