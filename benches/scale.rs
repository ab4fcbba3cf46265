//! Native engine benchmarks (the Performance issue): the scale workload (1,000 nodes, 10,000
//! pods, 200 Deployments rolling at once), per-step cost growth from 1k to 100k pods, and
//! `get_pods_to_delete` on 10,000 pods against a bare sort of the same keys.
//!
//! Run with `cargo bench --bench scale`. Prints a table (figure, target, measured, pass/fail)
//! and writes the same rows as JSON to `<target dir>/bench-native.json` (or to the path in
//! `KUBEPLAY_BENCH_JSON`). No timing is asserted in tests. Options after `--`:
//! `--quick` (growth up to 10k pods only), `rolling NODES DEPLOYMENTS` (one rolling run, for
//! profiling), `delete` (the getPodsToDelete row only), `week` (the CronJob week row only).

use kubeplay::api::{Deployment, Duration, Pod, PodCondition, Time};
use kubeplay::controllers::controller_utils::ScaleDownGates;
use kubeplay::controllers::replicaset::get_pods_to_delete;
use kubeplay::rng::Rng;
use kubeplay::scenario::Scenario;
use kubeplay::sim::Simulation;
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
            p.spec_mut().node_name = format!("node-{}", rng.below(500));
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

/// Median wall times (ms) of `get_pods_to_delete` (10,000 pods, delete 5,000) and of a bare
/// sort of the same keys.
fn bench_get_pods_to_delete() -> (f64, f64) {
    let ps = pods(10_000, 1);
    let refs: Vec<&Pod> = ps.iter().collect();
    let now = Time(1_700_100_000_000);
    let mut ours = vec![];
    let mut bare = vec![];
    for _ in 0..21 {
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
        // creation, uid) precomputed into a tuple and sorted.
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

/// A scenario: `nodes` nodes (room for `pods_per_node` pods each) and `deployments`
/// Deployments of `replicas` pods, all updated to a new image at `update_at` (if any).
fn scenario(
    nodes: usize,
    pods_per_node: usize,
    deployments: usize,
    replicas: usize,
    update_at: Option<&str>,
) -> Simulation {
    let mut text = format!(
        "apiVersion: kubeplay.dev/v1alpha1\nkind: Scenario\nseed: 1\nnodes: [{{count: {nodes}, namePrefix: node-, capacity: {{pods: \"{pods_per_node}\"}}}}]\nobjects:\n",
    );
    for i in 0..deployments {
        text.push_str(&format!(
            "- apiVersion: apps/v1\n  kind: Deployment\n  metadata: {{name: app-{i}}}\n  spec:\n    replicas: {replicas}\n    selector: {{matchLabels: {{app: app-{i}}}}}\n    template:\n      metadata: {{labels: {{app: app-{i}}}}}\n      spec: {{containers: [{{name: c, image: \"nginx:1.0\"}}]}}\n"
        ));
    }
    if let Some(at) = update_at {
        text.push_str("timeline:\n");
        for i in 0..deployments {
            text.push_str(&format!(
                "- at: {at}\n  kubectl: set image deployment/app-{i} c=nginx:2.0\n"
            ));
        }
    }
    Scenario::parse(&text)
        .expect("scenario")
        .build()
        .expect("build")
}

/// The CronJob timeline's "fast-forward a week": the built-in `cronjob-hello` (every minute,
/// so 10,080 Jobs with their pods, events and history cleanup) run for 168 simulated hours.
/// Wall seconds, and the number of Jobs created (from the trace).
fn bench_cronjob_week() -> (f64, usize) {
    let text = kubeplay::scenario::builtin::get("cronjob-hello").expect("built-in cronjob-hello");
    let mut sim = Scenario::parse(text)
        .expect("scenario")
        .build()
        .expect("build");
    let t = Instant::now();
    sim.run_until(sim.start + Duration::from_mins(168 * 60))
        .expect("run");
    let wall = t.elapsed().as_secs_f64();
    let jobs = sim
        .api
        .events
        .iter()
        .filter(|e| e.reason == "SuccessfulCreate" && e.kind == "CronJob")
        .count();
    (wall, jobs)
}

struct Rolling {
    warmup_wall: f64,
    wall: f64,
    syncs: u64,
    done: usize,
}

/// `deployments` × 50 replicas on `nodes` nodes, all updated at once at 60 s: wall time for the
/// 10 simulated minutes of rolling updates that follow (the bring-up before is reported apart).
fn bench_rolling_deployments(nodes: usize, deployments: usize) -> Rolling {
    let mut sim = scenario(nodes, 110, deployments, 50, Some("60s"));
    let t0 = Instant::now();
    // Bring the pods up first; the measured window is the rollout.
    sim.run_until(sim.start + Duration::from_secs(59))
        .expect("warm-up");
    let warmup_wall = t0.elapsed().as_secs_f64();
    let syncs0 = sim.syncs;
    let t = Instant::now();
    let end = sim.start + Duration::from_secs(59) + Duration::from_mins(10);
    sim.run_until(end).expect("run");
    let wall = t.elapsed().as_secs_f64();
    let done = sim
        .api
        .store
        .list::<Deployment>(None)
        .filter(|d| d.status.updated_replicas == 50 && d.status.available_replicas == 50)
        .count();
    Rolling {
        warmup_wall,
        wall,
        syncs: sim.syncs - syncs0,
        done,
    }
}

struct Growth {
    pods: usize,
    wall: f64,
    syncs: u64,
    running: usize,
}

impl Growth {
    fn us_per_step(&self) -> f64 {
        self.wall * 1e6 / self.syncs.max(1) as f64
    }
}

/// `pods` pods (Deployments of 50) brought up on 1,000 nodes for `seconds` simulated seconds:
/// the wall time per reconcile.
fn bench_growth(pods: usize, seconds: i64) -> Growth {
    let per_node = (pods / 1000 + 10).max(110);
    let mut sim = scenario(1000, per_node, pods / 50, 50, None);
    let t = Instant::now();
    sim.run_until(sim.start + Duration::from_secs(seconds))
        .expect("run");
    let wall = t.elapsed().as_secs_f64();
    let running = sim
        .api
        .store
        .list::<Pod>(None)
        .filter(|p| p.status.phase == "Running")
        .count();
    Growth {
        pods,
        wall,
        syncs: sim.syncs,
        running,
    }
}

struct Row {
    figure: String,
    target: String,
    measured: String,
    value: f64,
    pass: Option<bool>,
}

fn row(figure: &str, target: &str, measured: String, value: f64, pass: Option<bool>) -> Row {
    Row {
        figure: figure.into(),
        target: target.into(),
        measured,
        value,
        pass,
    }
}

fn json_string(s: &str) -> String {
    serde_json::Value::String(s.into()).to_string()
}

fn write_json(rows: &[Row]) {
    let path = std::env::var("KUBEPLAY_BENCH_JSON").ok().or_else(|| {
        // <target>/release/deps/scale-<hash>
        let exe = std::env::current_exe().ok()?;
        let target = exe.ancestors().nth(3)?;
        Some(
            target
                .join("bench-native.json")
                .to_string_lossy()
                .into_owned(),
        )
    });
    let Some(path) = path else { return };
    let items: Vec<String> = rows
        .iter()
        .map(|r| {
            format!(
                "{{\"figure\":{},\"target\":{},\"measured\":{},\"value\":{},\"pass\":{}}}",
                json_string(&r.figure),
                json_string(&r.target),
                json_string(&r.measured),
                if r.value.is_finite() { r.value } else { 0.0 },
                match r.pass {
                    Some(b) => b.to_string(),
                    None => "null".into(),
                }
            )
        })
        .collect();
    let text = format!("{{\"rows\":[\n{}\n]}}\n", items.join(",\n"));
    match std::fs::write(&path, text) {
        Ok(()) => eprintln!("wrote {path}"),
        Err(e) => eprintln!("could not write {path}: {e}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--list") {
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "rolling") {
        let n: usize = args.get(i + 1).and_then(|s| s.parse().ok()).unwrap_or(1000);
        let d: usize = args.get(i + 2).and_then(|s| s.parse().ok()).unwrap_or(200);
        let r = bench_rolling_deployments(n, d);
        println!(
            "rolling nodes={n} deployments={d}: bring-up {:.3} s, rollout {:.3} s ({:.0}x), {} reconciles, {} done",
            r.warmup_wall,
            r.wall,
            600.0 / r.wall,
            r.syncs,
            r.done
        );
        return;
    }
    if args.iter().any(|a| a == "week") {
        let (wall, jobs) = bench_cronjob_week();
        println!("cronjob-hello week: {wall:.3} s, {jobs} Jobs");
        return;
    }
    if args.iter().any(|a| a == "delete") {
        let (ours, bare) = bench_get_pods_to_delete();
        println!(
            "getPodsToDelete {ours:.2} ms, bare sort {bare:.2} ms, ratio {:.2}x",
            ours / bare
        );
        return;
    }
    let quick = args.iter().any(|a| a == "--quick");
    let mut rows = vec![];

    let r = bench_rolling_deployments(1000, 200);
    let ratio = 600.0 / r.wall;
    rows.push(row(
        "scale: 1,000 nodes, 200 Deployments × 50 rolling, 10 simulated minutes: wall",
        "≤ 1 s",
        format!("{:.3} s", r.wall),
        r.wall,
        Some(r.wall <= 1.0),
    ));
    rows.push(row(
        "scale: simulated / wall",
        "≥ 600×",
        format!("{ratio:.0}×"),
        ratio,
        Some(ratio >= 600.0),
    ));
    rows.push(row(
        "scale: Deployments fully rolled out at the end",
        "200 / 200",
        format!("{} / 200", r.done),
        r.done as f64,
        Some(r.done == 200),
    ));
    rows.push(row(
        "scale: reconciles in the window",
        "",
        r.syncs.to_string(),
        r.syncs as f64,
        None,
    ));
    rows.push(row(
        "scale: bring-up of the 10,000 pods (59 simulated s): wall",
        "",
        format!("{:.3} s", r.warmup_wall),
        r.warmup_wall,
        None,
    ));

    let mut sizes = vec![(1_000usize, 60i64), (10_000, 60)];
    if !quick {
        sizes.push((100_000, 20));
    }
    let growth: Vec<Growth> = sizes.iter().map(|&(n, s)| bench_growth(n, s)).collect();
    for g in &growth {
        rows.push(row(
            &format!(
                "growth: {} pods on 1,000 nodes: wall per reconcile ({} reconciles, {} running)",
                g.pods, g.syncs, g.running
            ),
            "",
            format!("{:.2} µs", g.us_per_step()),
            g.us_per_step(),
            None,
        ));
    }
    for w in growth.windows(2) {
        let ratio = w[1].us_per_step() / w[0].us_per_step();
        let scale = w[1].pods as f64 / w[0].pods as f64;
        rows.push(row(
            &format!(
                "growth: per-reconcile cost {}k → {}k pods",
                w[0].pods / 1000,
                w[1].pods / 1000
            ),
            &format!("≤ {scale:.0}× (linear)"),
            format!("{ratio:.2}×"),
            ratio,
            Some(ratio <= scale),
        ));
    }

    let (ours, bare) = bench_get_pods_to_delete();
    rows.push(row(
        "getPodsToDelete, 10,000 pods, delete 5,000 (median of 21)",
        "",
        format!("{ours:.2} ms"),
        ours,
        None,
    ));
    rows.push(row(
        "bare sort of the same keys (median of 21)",
        "",
        format!("{bare:.2} ms"),
        bare,
        None,
    ));
    rows.push(row(
        "getPodsToDelete / bare sort",
        "≤ 2×",
        format!("{:.2}×", ours / bare),
        ours / bare,
        Some(ours / bare <= 2.0),
    ));

    let (wall, jobs) = bench_cronjob_week();
    rows.push(row(
        "CronJob fast-forward: every-minute cronjob-hello, 168 simulated hours: wall",
        "≤ 1 s",
        format!("{wall:.3} s ({jobs} Jobs)"),
        wall,
        Some(wall <= 1.0),
    ));

    println!("| figure | target | measured | pass |");
    println!("|---|---|---|---|");
    for r in &rows {
        let pass = match r.pass {
            Some(true) => "pass",
            Some(false) => "FAIL",
            None => "",
        };
        println!(
            "| {} | {} | {} | {} |",
            r.figure, r.target, r.measured, pass
        );
    }
    write_json(&rows);
}
