//! Random whole-cluster scenarios (every workload kind, kubectl actions, node and pod failures,
//! controller downtime, scheduling constraints: topology spread, pod (anti-)affinity, host ports)
//! run with invariant checking after every reconcile: zero violations.
//!
//! `KUBEPLAY_SCENARIOS` sets the count (default 200 for CI, about 100 s in a debug build on 2 cores; the documented full run is 10000,
//! see docs/hardening.md); `KUBEPLAY_SCENARIO_SEED` the first seed.

use kubeplay::scenario::Scenario;
use std::fmt::Write;

/// splitmix64: a tiny deterministic generator, so a failing seed reproduces exactly.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len() as u64) as usize]
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

const POD_SPEC: &str =
    "containers: [{name: c, image: IMAGE, resources: {requests: {cpu: CPU, memory: 64Mi}}}]";

fn pod_spec(r: &mut Rng, image: &str, restart: Option<&str>) -> String {
    let cpu = r.pick(&["100m", "250m", "500m", "1"]);
    let mut s = POD_SPEC.replace("IMAGE", image).replace("CPU", cpu);
    if let Some(rp) = restart {
        s = format!("restartPolicy: {rp}, {s}");
    }
    // Scheduling constraints (drawn from a second generator, so the rest of a seed's scenario
    // is what it was before they were added): topology spread, pod (anti-)affinity and host
    // ports over the workload's own `app` label.
    let mut c = Rng(r.0 ^ 0x5EED_5CED);
    if c.chance(30) {
        let mut extra = vec![];
        if c.chance(50) {
            extra.push(format!(
                "topologySpreadConstraints: [{{maxSkew: {}, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: {}, labelSelector: {{matchLabels: {{app: APP}}}}, matchLabelKeys: [pod-template-hash]}}]",
                1 + c.below(2),
                c.pick(&["DoNotSchedule", "ScheduleAnyway"])
            ));
        }
        if c.chance(40) {
            let term =
                "{labelSelector: {matchLabels: {app: APP}}, topologyKey: kubernetes.io/hostname}";
            extra.push(match c.below(3) {
                0 => format!("affinity: {{podAntiAffinity: {{requiredDuringSchedulingIgnoredDuringExecution: [{term}]}}}}"),
                1 => format!("affinity: {{podAntiAffinity: {{preferredDuringSchedulingIgnoredDuringExecution: [{{weight: 50, podAffinityTerm: {term}}}]}}}}"),
                _ => format!("affinity: {{podAffinity: {{requiredDuringSchedulingIgnoredDuringExecution: [{term}]}}}}"),
            });
        }
        if c.chance(20) {
            s = s.replace(
                "name: c, image:",
                "name: c, ports: [{containerPort: 8080, hostPort: 8080}], image:",
            );
        }
        for e in extra {
            s = format!("{e}, {s}");
        }
    }
    format!(
        "{{{s}, terminationGracePeriodSeconds: {}}}",
        r.pick(&["0", "5", "30"])
    )
}

/// One random scenario as YAML.
pub fn random_scenario(seed: u64) -> String {
    let mut r = Rng(seed);
    let nodes = 1 + r.below(4);
    let mut y = format!(
        "apiVersion: kubeplay.dev/v1alpha1\nkind: Scenario\nseed: {seed}\nnodes: [{{count: {nodes}, namePrefix: node-, capacity: {{cpu: \"{}\", memory: 4Gi, pods: \"{}\"}}}}]\n",
        r.pick(&["1", "2", "4"]),
        r.pick(&["5", "20", "110"]),
    );
    y.push_str("kubelet:\n  readiness: 1s\n  rules:\n");
    y.push_str("    - {match: {image: \"crash:1\"}, runFor: 3s, exitCode: 1}\n");
    y.push_str("    - {match: {image: \"work:1\"}, maxPods: 2, runFor: 4s, exitCode: 1}\n");
    y.push_str("    - {match: {image: \"work:1\"}, runFor: 5s, exitCode: 0}\n");
    y.push_str("    - {match: {image: \"slow:1\"}, runFor: 90s, exitCode: 0}\n");
    y.push_str("    - {match: {image: \"stuck:1\"}, neverReady: true}\n");
    y.push_str("objects:\n");
    let mut names: Vec<(&str, String)> = vec![];
    let kinds = 1 + r.below(4);
    for i in 0..kinds {
        let image = r.pick(&["nginx:1", "nginx:1", "crash:1", "stuck:1"]);
        match r.below(6) {
            0 => {
                let n = format!("web{i}");
                let spec = pod_spec(&mut r, image, None).replace("APP", &n);
                let strategy = if r.chance(20) {
                    "{type: Recreate}".to_string()
                } else {
                    format!(
                        "{{rollingUpdate: {{maxSurge: {}, maxUnavailable: {}}}}}",
                        r.pick(&["0", "1", "25%", "3"]),
                        r.pick(&["1", "0", "25%", "50%"])
                    )
                };
                // maxSurge and maxUnavailable may not both be 0.
                let strategy = strategy.replace(
                    "maxSurge: 0, maxUnavailable: 0",
                    "maxSurge: 0, maxUnavailable: 1",
                );
                let _ = writeln!(y, "  - {{apiVersion: apps/v1, kind: Deployment, metadata: {{name: {n}}}, spec: {{replicas: {}, minReadySeconds: {}, strategy: {strategy}, selector: {{matchLabels: {{app: {n}}}}}, template: {{metadata: {{labels: {{app: {n}}}}}, spec: {spec}}}}}}}", r.below(7), r.pick(&["0", "0", "3"]));
                names.push(("deployment", n));
            }
            1 => {
                let n = format!("rs{i}");
                let spec = pod_spec(&mut r, image, None).replace("APP", &n);
                let _ = writeln!(y, "  - {{apiVersion: apps/v1, kind: ReplicaSet, metadata: {{name: {n}}}, spec: {{replicas: {}, selector: {{matchLabels: {{app: {n}}}}}, template: {{metadata: {{labels: {{app: {n}}}}}, spec: {spec}}}}}}}", r.below(6));
                names.push(("replicaset", n));
            }
            2 => {
                let n = format!("db{i}");
                let spec = pod_spec(&mut r, image, None).replace("APP", &n);
                let policy = r.pick(&["OrderedReady", "OrderedReady", "Parallel"]);
                let _ = writeln!(y, "  - {{apiVersion: apps/v1, kind: StatefulSet, metadata: {{name: {n}}}, spec: {{replicas: {}, serviceName: {n}, podManagementPolicy: {policy}, selector: {{matchLabels: {{app: {n}}}}}, template: {{metadata: {{labels: {{app: {n}}}}}, spec: {spec}}}}}}}", r.below(5));
                names.push(("statefulset", n));
            }
            3 => {
                let n = format!("agent{i}");
                let spec = pod_spec(&mut r, image, None).replace("APP", &n);
                let _ = writeln!(y, "  - {{apiVersion: apps/v1, kind: DaemonSet, metadata: {{name: {n}}}, spec: {{selector: {{matchLabels: {{app: {n}}}}}, template: {{metadata: {{labels: {{app: {n}}}}}, spec: {spec}}}}}}}");
                names.push(("daemonset", n));
            }
            4 => {
                let n = format!("job{i}");
                let image = r.pick(&["work:1", "slow:1", "crash:1"]);
                let rp = r.pick(&["Never", "OnFailure"]);
                let spec = pod_spec(&mut r, image, Some(rp)).replace("APP", &n);
                let _ = writeln!(y, "  - {{apiVersion: batch/v1, kind: Job, metadata: {{name: {n}}}, spec: {{completions: {}, parallelism: {}, backoffLimit: {}, ttlSecondsAfterFinished: {}, template: {{spec: {spec}}}}}}}", 1 + r.below(4), 1 + r.below(3), r.below(4), r.below(40));
                names.push(("job", n));
            }
            _ => {
                let n = format!("cron{i}");
                let image = r.pick(&["work:1", "slow:1"]);
                let spec = pod_spec(&mut r, image, Some("Never")).replace("APP", &n);
                let policy = r.pick(&["Forbid", "Allow", "Replace"]);
                let _ = writeln!(y, "  - {{apiVersion: batch/v1, kind: CronJob, metadata: {{name: {n}}}, spec: {{schedule: \"*/1 * * * *\", concurrencyPolicy: {policy}, jobTemplate: {{spec: {{backoffLimit: 1, template: {{spec: {spec}}}}}}}}}}}");
                names.push(("cronjob", n));
            }
        }
    }
    y.push_str("timeline:\n");
    let actions = r.below(8);
    let mut t = 0;
    for _ in 0..actions {
        t += 1 + r.below(60);
        let (kind, name) = names[r.below(names.len() as u64) as usize].clone();
        let node = format!("node-{}", 1 + r.below(nodes));
        let line = match r.below(10) {
            0 | 1 if matches!(kind, "deployment" | "replicaset" | "statefulset") => {
                format!("kubectl: scale {kind} {name} --replicas={}", r.below(7))
            }
            2 if matches!(kind, "deployment" | "statefulset" | "daemonset") => format!(
                "kubectl: set image {kind}/{name} c={}",
                r.pick(&["nginx:2", "crash:1", "stuck:1", "nginx:1"])
            ),
            3 if matches!(kind, "deployment" | "statefulset" | "daemonset") => {
                format!("kubectl: rollout restart {kind}/{name}")
            }
            4 => format!("nodeFail: {node}"),
            5 => format!("nodeRecover: {node}"),
            6 => format!("controllerManager: {}", r.pick(&["stop", "start"])),
            7 => format!(
                "kubectl: delete {kind} {name} --cascade={}",
                r.pick(&["background", "foreground", "orphan"])
            ),
            8 => "kubectl: delete pods --all --wait=false".to_string(),
            _ if kind == "deployment" => format!(
                "kubectl: rollout {} deployment/{name}",
                r.pick(&["pause", "resume", "undo"])
            ),
            _ => "kubectl: get pods".to_string(),
        };
        let _ = writeln!(y, "  - at: {t}s\n    {line}");
    }
    // Let the controller manager run at the end, so a stop is followed by a restart.
    let _ = writeln!(y, "  - at: {}s\n    controllerManager: start", t + 1);
    y
}

fn count() -> u64 {
    std::env::var("KUBEPLAY_SCENARIOS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200)
}

/// Runs one scenario with invariant checking; returns the violations (and the scenario text).
fn run(seed: u64) -> Result<(), String> {
    let text = random_scenario(seed);
    let s = Scenario::parse(&text).map_err(|e| format!("seed {seed}: {e}\n{text}"))?;
    let mut sim = s.build().map_err(|e| format!("seed {seed}: {e}\n{text}"))?;
    sim.set_check_invariants(true);
    let horizon = 3 * 60 + (seed % 5) as i64 * 60;
    sim.run_for(kubeplay::api::Duration::from_secs(horizon))
        .map_err(|e| format!("seed {seed}: {e}\n{text}"))?;
    let v = sim.invariant_violations();
    if v.is_empty() {
        Ok(())
    } else {
        Err(format!("seed {seed}: {}\n{text}", v.join("\n")))
    }
}

#[test]
fn random_scenarios_keep_every_invariant() {
    let first: u64 = std::env::var("KUBEPLAY_SCENARIO_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let n = count();
    let mut failures = vec![];
    for seed in first..first + n {
        if let Err(e) = run(seed) {
            failures.push(e);
            if failures.len() >= 3 {
                break;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The checker is not vacuous: a hand-broken store is reported.
#[test]
fn checker_reports_a_broken_invariant() {
    let text = "apiVersion: kubeplay.dev/v1alpha1\nkind: Scenario\nobjects:\n  - {apiVersion: batch/v1, kind: Job, metadata: {name: j}, spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}}\n";
    let mut sim = Scenario::parse(text).unwrap().build().unwrap();
    sim.set_check_invariants(true);
    sim.run_for(kubeplay::api::Duration::from_secs(5)).unwrap();
    assert!(sim.invariant_violations().is_empty());
    let mut j = sim
        .api
        .store
        .get::<kubeplay::api::Job>("default", "j")
        .unwrap()
        .clone();
    j.status.succeeded = -1;
    // The API server refuses this status (ValidateJobStatus), so write the store directly.
    let err = sim
        .api
        .update_status(kubeplay::api::Resource::into_object(j.clone()))
        .unwrap_err();
    assert!(err
        .kubectl_message()
        .contains("status.succeeded: Invalid value: -1: must be greater than or equal to 0"));
    sim.api.store.put(kubeplay::api::Resource::into_object(j));
    sim.run_for(kubeplay::api::Duration::from_secs(1)).unwrap();
    assert!(
        sim.invariant_violations()
            .iter()
            .any(|v| v.contains("negative status counter")),
        "{:?}",
        sim.invariant_violations()
    );
}

/// The generator is not vacuous for the scheduler: some scenarios carry every kind of
/// scheduling constraint it can add.
#[test]
fn generator_adds_scheduling_constraints() {
    let all: String = (1..200).map(random_scenario).collect();
    for needle in [
        "whenUnsatisfiable: DoNotSchedule",
        "whenUnsatisfiable: ScheduleAnyway",
        "podAntiAffinity: {requiredDuringScheduling",
        "podAntiAffinity: {preferredDuringScheduling",
        "podAffinity: {requiredDuringScheduling",
        "hostPort: 8080",
        "matchLabels: {app: web",
    ] {
        assert!(all.contains(needle), "{needle}");
    }
}
