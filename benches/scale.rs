//! Benchmarks for issue 2: `get_pods_to_delete` on 10,000 pods against a bare sort of the same
//! keys, and one ReplicaSet scaled 0 → 5,000 → 0 on 500 nodes (wall time, simulated/wall ratio).
//!
//! Run with `cargo bench --bench scale`. Prints one table; no timing is asserted in tests.

use kubeplay::api::{Duration, Object, Pod, PodCondition, Time};
use kubeplay::controllers::controller_utils::ScaleDownGates;
use kubeplay::controllers::replicaset::get_pods_to_delete;
use kubeplay::rng::Rng;
use kubeplay::scenario::Scenario;
use std::hint::black_box;
use std::time::Instant;

fn pods(n: usize, seed: u64) -> Vec<Pod> {
    let mut rng = Rng::new(seed);
    let base = Time(1_700_000_000_000);
    (0..n)
        .map(|i| {
            let created = base + Duration::from_secs(rng.below(86_400) as i64);
            let ready = created + Duration::from_secs(rng.below(600) as i64);
            let mut p = Pod::default();
            p.metadata.name = format!("web-{i:05}");
            p.metadata.namespace = "default".into();
            p.metadata.uid = rng.uuid();
            p.metadata.creation_timestamp = Some(created);
            p.spec.node_name = format!("node-{}", rng.below(500));
            p.status.phase = "Running".into();
            p.status.conditions.push(PodCondition {
                type_: "Ready".into(),
                status: "True".into(),
                last_transition_time: Some(ready),
                ..Default::default()
            });
            if rng.below(10) == 0 {
                p.metadata.annotations.insert(
                    "controller.kubernetes.io/pod-deletion-cost".into(),
                    (rng.below(200) as i64 - 100).to_string(),
                );
            }
            p
        })
        .collect()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn bench_get_pods_to_delete() -> (f64, f64) {
    let ps = pods(10_000, 1);
    let refs: Vec<&Pod> = ps.iter().collect();
    let now = Time(1_700_100_000_000);
    let mut ours = vec![];
    let mut bare = vec![];
    for _ in 0..15 {
        let t = Instant::now();
        black_box(get_pods_to_delete(
            &refs,
            &refs,
            5_000,
            now,
            ScaleDownGates::default(),
        ));
        ours.push(t.elapsed().as_secs_f64() * 1e3);
        // The bare sort: the same keys (node, phase, readiness, cost, rank, ready time,
        // restarts, creation, uid) precomputed into a tuple and sorted.
        let t = Instant::now();
        let mut keys: Vec<(bool, i32, bool, i32, i64, i64, String)> = refs
            .iter()
            .map(|p| {
                let cost = p
                    .metadata
                    .annotations
                    .get("controller.kubernetes.io/pod-deletion-cost")
                    .and_then(|c| c.parse().ok())
                    .unwrap_or(0);
                (
                    !p.spec.node_name.is_empty(),
                    2,
                    true,
                    cost,
                    -p.status.conditions[0]
                        .last_transition_time
                        .unwrap_or_default()
                        .0,
                    -p.metadata.creation_timestamp.unwrap_or_default().0,
                    p.metadata.uid.clone(),
                )
            })
            .collect();
        keys.sort();
        black_box(&keys);
        bare.push(t.elapsed().as_secs_f64() * 1e3);
    }
    (median(ours), median(bare))
}

fn bench_scale_cycle() -> (f64, f64, u64) {
    let scenario = r#"
apiVersion: kubeplay.dev/v1alpha1
kind: Scenario
seed: 1
nodes:
  - count: 500
    namePrefix: node-
objects:
  - apiVersion: apps/v1
    kind: ReplicaSet
    metadata: {name: big}
    spec:
      replicas: 0
      selector: {matchLabels: {app: big}}
      template:
        metadata: {labels: {app: big}}
        spec:
          containers: [{name: c, image: nginx}]
timeline:
  - at: 10s
    kubectl: scale rs big --replicas=5000
  - at: 5m
    kubectl: scale rs big --replicas=0
"#;
    let s = Scenario::parse(scenario).expect("scenario");
    let mut sim = s.build().expect("build");
    let t = Instant::now();
    let end = sim.start + Duration::from_mins(10);
    sim.run_until(end).expect("run");
    let wall = t.elapsed().as_secs_f64();
    let pods_left = sim.api.store.list::<Pod>(None).count();
    assert!(sim
        .api
        .store
        .list_kind("ReplicaSet", None)
        .any(|o| matches!(o, Object::ReplicaSet(_))));
    black_box(pods_left);
    (wall, 600.0 / wall, sim.syncs)
}

/// 200 Deployments × 50 replicas on 1,000 nodes, all updated at once: wall time for 10 simulated
/// minutes of rolling updates.
fn bench_rolling_deployments(nodes: usize, deps: usize) -> (f64, f64, usize) {
    let mut text = format!(
        "apiVersion: kubeplay.dev/v1alpha1\nkind: Scenario\nseed: 1\nnodes: [{{count: {nodes}, namePrefix: node-, capacity: {{pods: \"110\"}}}}]\nobjects:\n",
    );
    for i in 0..deps {
        text.push_str(&format!(
            "- apiVersion: apps/v1\n  kind: Deployment\n  metadata: {{name: app-{i}}}\n  spec:\n    replicas: 50\n    selector: {{matchLabels: {{app: app-{i}}}}}\n    template:\n      metadata: {{labels: {{app: app-{i}}}}}\n      spec: {{containers: [{{name: c, image: \"nginx:1.0\"}}]}}\n"
        ));
    }
    text.push_str("timeline:\n");
    for i in 0..deps {
        text.push_str(&format!(
            "- at: 60s\n  kubectl: set image deployment/app-{i} c=nginx:2.0\n"
        ));
    }
    let s = Scenario::parse(&text).expect("scenario");
    let mut sim = s.build().expect("build");
    let t0 = Instant::now();
    // Bring the 10,000 pods up first; the measured window is the rollout.
    sim.run_until(sim.start + Duration::from_secs(59))
        .expect("warm-up");
    eprintln!("warm-up {:.3}s syncs {}", t0.elapsed().as_secs_f64(), sim.syncs);
    let t = Instant::now();
    let end = sim.start + Duration::from_secs(59) + Duration::from_mins(10);
    sim.run_until(end).expect("run");
    let wall = t.elapsed().as_secs_f64();
    let updated = sim
        .api
        .store
        .list::<kubeplay::api::Deployment>(None)
        .filter(|d| d.status.updated_replicas == 50 && d.status.available_replicas == 50)
        .count();
    (wall, 600.0 / wall, updated)
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "rolling") {
        let n: usize = args[i + 1].parse().unwrap();
        let d: usize = args[i + 2].parse().unwrap();
        let (w, r, done) = bench_rolling_deployments(n, d);
        println!("rolling nodes={n} deps={d}: wall {w:.3}s ratio {r:.0}x done {done}");
        return;
    }
    let (ours, bare) = bench_get_pods_to_delete();
    let (wall, ratio, syncs) = bench_scale_cycle();
    let (dwall, dratio, done) = bench_rolling_deployments(1000, 200);
    println!("| figure | measured |");
    println!("|---|---|");
    println!("| getPodsToDelete, 10,000 pods, delete 5,000 (median of 15) | {ours:.2} ms |");
    println!("| bare sort of the same keys (median of 15) | {bare:.2} ms |");
    println!(
        "| ratio getPodsToDelete / bare sort | {:.2}x |",
        ours / bare
    );
    println!(
        "| RS 0 → 5,000 → 0 on 500 nodes, 10 simulated minutes: wall | {:.3} s |",
        wall
    );
    println!("| simulated / wall | {ratio:.0}x |");
    println!("| reconciles | {syncs} |");
    println!("| 200 Deployments × 50 replicas rolling on 1,000 nodes, 10 simulated minutes: wall | {dwall:.3} s |");
    println!("| simulated / wall | {dratio:.0}x |");
    println!("| Deployments fully rolled out at the end | {done} / 200 |");
}
