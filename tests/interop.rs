//! Acceptance tests for real-cluster interop: import a `kubectl get -o yaml` dump, export a
//! scenario as manifests + replay.sh, compare a real run's events with kubeplay's.

use kubeplay::api::{Pod, Time};
use kubeplay::interop::compare::{compare_run, render};
use kubeplay::interop::export::export_scenario;
use kubeplay::interop::import::{import_cluster, ImportOptions};
use kubeplay::scenario::{builtin, Scenario};
use kubeplay::sim::Simulation;
use serde_json::Value;

const DUMP: &str = include_str!("fixtures/cluster-dump.yaml");

fn imported_sim() -> Simulation {
    let imp = import_cluster(DUMP, &ImportOptions::default()).expect("imports");
    // Round-trip through the YAML the CLI prints.
    let yaml = kubeplay::interop::import::to_yaml(&imp).unwrap();
    let s = Scenario::parse(&yaml).expect("the printed scenario parses");
    s.build().expect("builds")
}

fn kubectl(sim: &mut Simulation, cmd: &str) -> String {
    let out = kubeplay::kubectl::execute(sim, cmd).unwrap_or_else(|e| panic!("kubectl {cmd}: {e}"));
    // As a terminal shows it: kubectl ends its output with a newline.
    if out.ends_with('\n') {
        out
    } else {
        out + "\n"
    }
}

// Expected tables derived by hand from the dump, as kubectl 1.34 prints them at the dump's
// "now" (2025-06-01T12:10:00Z, the latest node heartbeat): ages by HumanDuration
// (3h9m40s → 3h9m, 69m55s → 69m, 130m → 130m).
const NODES: &str = "\
NAME                 STATUS   ROLES           AGE     VERSION
kind-control-plane   Ready    control-plane   3h10m   v1.34.0
kind-worker          Ready    <none>          3h9m    v1.34.0
kind-worker2         Ready    <none>          3h9m    v1.34.0
";

const PODS: &str = "\
NAMESPACE     NAME                    READY   STATUS      RESTARTS   AGE    IP           NODE           NOMINATED NODE   READINESS GATES
default       backup-29146290-p7v2c   0/1     Completed   0          40m    10.244.2.9   kind-worker2   <none>           <none>
default       db-0                    1/1     Running     0          100m   10.244.1.4   kind-worker    <none>           <none>
default       db-1                    1/1     Running     0          99m    10.244.2.3   kind-worker2   <none>           <none>
default       web-7b6f9d4c8-2xkqp     1/1     Running     0          69m    10.244.1.7   kind-worker    <none>           <none>
default       web-7b6f9d4c8-8rjmz     1/1     Running     0          69m    10.244.2.5   kind-worker2   <none>           <none>
default       web-7b6f9d4c8-tw4nd     1/1     Running     0          69m    10.244.1.8   kind-worker    <none>           <none>
kube-system   node-exporter-4mz7k     1/1     Running     0          3h4m   10.244.1.2   kind-worker    <none>           <none>
kube-system   node-exporter-9xq2l     1/1     Running     0          3h4m   10.244.2.2   kind-worker2   <none>           <none>
";

const WORKLOADS: &str = "\
NAMESPACE   NAME                  READY   UP-TO-DATE   AVAILABLE   AGE
default     deployment.apps/web   3/3     3            3           130m

NAMESPACE   NAME                            DESIRED   CURRENT   READY   AGE
default     replicaset.apps/web-5d9c8b7f6   0         0         0       130m
default     replicaset.apps/web-7b6f9d4c8   3         3         3       70m

NAMESPACE   NAME                  READY   AGE
default     statefulset.apps/db   2/2     100m

NAMESPACE     NAME                           DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR   AGE
kube-system   daemonset.apps/node-exporter   2         2         2       2            2           <none>          3h5m
";

const BATCH: &str = "\
NAME                   SCHEDULE     TIMEZONE   SUSPEND   ACTIVE   LAST SCHEDULE   AGE
cronjob.batch/backup   30 * * * *   <none>     False     0        40m             50m

NAME                        STATUS     COMPLETIONS   DURATION   AGE
job.batch/backup-29146290   Complete   1/1           14s        40m
";

const PVCS: &str = "\
NAME        STATUS   VOLUME              CAPACITY   ACCESS MODES   STORAGECLASS   VOLUMEATTRIBUTESCLASS   AGE
data-db-0   Bound    pvc-b2d3f4a5-0010   1Gi        RWO            standard       <unset>                 100m
data-db-1   Bound    pvc-b2d3f4a5-0011   1Gi        RWO            standard       <unset>                 99m
";

#[test]
fn import_reproduces_the_clusters_kubectl_get_tables() {
    let mut sim = imported_sim();
    assert_eq!(
        sim.start,
        Time::parse_rfc3339("2025-06-01T12:10:00Z").unwrap()
    );
    assert_eq!(kubectl(&mut sim, "get nodes"), NODES);
    assert_eq!(kubectl(&mut sim, "get pods -A -o wide"), PODS);
    assert_eq!(kubectl(&mut sim, "get deploy,rs,sts,ds -A"), WORKLOADS);
    assert_eq!(kubectl(&mut sim, "get cronjobs,jobs"), BATCH);
    assert_eq!(kubectl(&mut sim, "get pvc"), PVCS);
    // Frozen: a minute later nothing but the controller-manager's node registration happened,
    // and the tables only aged.
    sim.run_for(kubeplay::api::Duration::from_secs(60)).unwrap();
    let reasons: Vec<&str> = sim.api.events.iter().map(|e| e.reason.as_str()).collect();
    assert_eq!(
        reasons,
        ["RegisteredNode"; 3],
        "{}",
        kubeplay::trace::render_trace(&sim)
    );
    assert_eq!(
        kubectl(&mut sim, "get pods -A -o wide"),
        PODS.replace("40m ", "41m ")
            .replace("100m", "101m")
            .replace("99m ", "100m")
            .replace("69m", "70m")
            .replace("3h4m", "3h5m")
    );
}

fn strip_nulls(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(_, x)| !x.is_null())
                .map(|(k, x)| (k.clone(), strip_nulls(x)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(strip_nulls).collect()),
        other => other.clone(),
    }
}

/// Every dumped object keeps uid, ownerReferences, resourceVersion, creationTimestamp and
/// status (conditions included); only managedFields are dropped.
#[test]
fn import_keeps_identity_and_status_exactly() {
    let sim = imported_sim();
    let dump: Value = serde_norway::from_str(DUMP).unwrap();
    let items = dump["items"].as_array().unwrap();
    assert_eq!(items.len(), 22);
    for item in items {
        let kind = item["kind"].as_str().unwrap();
        let ns = item["metadata"]["namespace"].as_str().unwrap_or("");
        let name = item["metadata"]["name"].as_str().unwrap();
        let stored = sim
            .api
            .store
            .all()
            .find(|o| o.kind() == kind && o.meta().namespace == ns && o.meta().name == name)
            .unwrap_or_else(|| panic!("{kind} {ns}/{name} not imported"));
        let v = serde_json::to_value(stored).unwrap();
        for f in ["uid", "resourceVersion", "creationTimestamp", "labels"] {
            assert_eq!(v["metadata"][f], item["metadata"][f], "{kind} {name} {f}");
        }
        assert_eq!(
            v["metadata"]["ownerReferences"], item["metadata"]["ownerReferences"],
            "{kind} {name}"
        );
        assert!(v["metadata"].get("managedFields").is_none());
        if let Some(conds) = item["status"].get("conditions") {
            // `lastProbeTime: null` and an absent lastProbeTime are the same value.
            assert_eq!(
                strip_nulls(&v["status"]["conditions"]),
                strip_nulls(conds),
                "{kind} {name}"
            );
        }
        for f in ["phase", "podIP", "replicas", "readyReplicas", "succeeded"] {
            if let Some(x) = item["status"].get(f) {
                assert_eq!(&v["status"][f], x, "{kind} {name} status.{f}");
            }
        }
    }
}

#[test]
fn what_if_scale_down_deletes_what_kubernetes_would() {
    let mut sim = imported_sim();
    // Rule 4 keeps tw4nd (deletion cost 100); rule 5 then picks 2xkqp, doubled up on
    // kind-worker, over 8rjmz alone on kind-worker2.
    let gates = kubeplay::controllers::controller_utils::ScaleDownGates::from_gates(sim.gates());
    let e = kubeplay::controllers::replicaset::explain::explain_scale_down_in_store(
        &sim.api.store,
        "rs",
        "default",
        "web-7b6f9d4c8",
        2,
        sim.now(),
        gates,
    )
    .unwrap()
    .to_string();
    assert!(e.contains("web-7b6f9d4c8-2xkqp"), "{e}");
    kubectl(&mut sim, "scale deploy web --replicas=2");
    sim.run_for(kubeplay::api::Duration::from_secs(30)).unwrap();
    let mut left: Vec<String> = sim
        .api
        .store
        .list::<Pod>(Some("default"))
        .filter(|p| p.metadata.name.starts_with("web-"))
        .map(|p| p.metadata.name.clone())
        .collect();
    left.sort();
    assert_eq!(left, ["web-7b6f9d4c8-8rjmz", "web-7b6f9d4c8-tw4nd"]);
}

#[test]
fn what_if_rollout_and_cronjob_fast_forward() {
    let mut sim = imported_sim();
    kubectl(&mut sim, "set image deployment/web nginx=nginx:1.29");
    sim.run_for(kubeplay::api::Duration::from_mins(2)).unwrap();
    let web: Vec<&Pod> = sim
        .api
        .store
        .list::<Pod>(Some("default"))
        .filter(|p| p.metadata.labels.get("app").map(String::as_str) == Some("web"))
        .collect();
    assert_eq!(web.len(), 3);
    assert!(web
        .iter()
        .all(|p| p.spec.containers[0].image == "nginx:1.29" && p.status.phase == "Running"));
    let out = kubectl(&mut sim, "rollout status deployment/web");
    assert!(out.contains("successfully rolled out"), "{out}");
    // The next :30 is 20 minutes after the dump: the CronJob runs, named by the minute.
    sim.run_for(kubeplay::api::Duration::from_mins(20)).unwrap();
    let jobs = kubectl(&mut sim, "get jobs -o name");
    assert_eq!(
        jobs,
        "job.batch/backup-29146290\njob.batch/backup-29146350\n"
    );
}

#[test]
fn import_accepts_json_and_multi_document_yaml() {
    let dump: Value = serde_norway::from_str(DUMP).unwrap();
    let base = import_cluster(DUMP, &ImportOptions::default())
        .unwrap()
        .scenario;
    let json = serde_json::to_string_pretty(&dump).unwrap();
    assert_eq!(
        import_cluster(&json, &ImportOptions::default())
            .unwrap()
            .scenario,
        base
    );
    let docs: Vec<String> = dump["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| serde_norway::to_string(i).unwrap())
        .collect();
    let multi = docs.join("---\n");
    assert_eq!(
        import_cluster(&multi, &ImportOptions::default())
            .unwrap()
            .scenario,
        base
    );
    // Unknown kinds are skipped with a warning naming them, never silently.
    let with_cm = format!(
        "{multi}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: cfg, namespace: default}}\n"
    );
    let imp = import_cluster(&with_cm, &ImportOptions::default()).unwrap();
    assert_eq!(
        imp.warnings,
        ["[22] (ConfigMap default/cfg): kind ConfigMap is not simulated, skipped"]
    );
}

#[test]
fn import_errors_name_the_item() {
    let bad = DUMP.replacen("      - image: nginx:1.28\n", "      - image: \"\"\n", 1);
    assert_ne!(bad, DUMP);
    let e = import_cluster(&bad, &ImportOptions::default()).unwrap_err();
    // The first such line is the new ReplicaSet's template (items are listed Node, Pod, rs...).
    assert_eq!(
        e.path, "items[12] (ReplicaSet default/web-7b6f9d4c8)",
        "{e}"
    );
    assert!(e.message.contains("Required value"), "{e}");
    let e = import_cluster("items: [\n", &ImportOptions::default()).unwrap_err();
    assert!(e.path.starts_with("line "), "{e}");
    let e = import_cluster(
        "apiVersion: v1\nkind: List\nitems:\n- metadata: {name: x}\n",
        &ImportOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "items[0]: Object 'Kind' is missing in object"
    );
}

fn bash_syntax_ok(script: &str) -> bool {
    // One directory per call: tests run in parallel threads of one process.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("kubeplay-export-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("replay.sh");
    std::fs::write(&f, script).unwrap();
    let ok = std::process::Command::new("bash")
        .arg("-n")
        .arg(&f)
        .status()
        .unwrap()
        .success();
    let _ = std::fs::remove_dir_all(&dir);
    ok
}

#[test]
fn export_writes_manifests_and_a_replay_script_in_timeline_order() {
    for (name, text) in builtin::BUILTIN {
        let s = Scenario::parse(text).unwrap();
        let files = export_scenario(&s).unwrap();
        let script = &files.iter().find(|(p, _)| p == "replay.sh").unwrap().1;
        assert!(bash_syntax_ok(script), "{name}:\n{script}");
        // Every timeline entry appears, in order, with its command.
        let mut pos = 0;
        for (i, t) in s.timeline.iter().enumerate() {
            let marker = format!("# timeline[{i}] at ");
            pos += script[pos..]
                .find(&marker)
                .unwrap_or_else(|| panic!("{name}: {marker:?} missing or out of order"));
            let needle = if let Some(k) = &t.kubectl {
                let k = k.trim().trim_start_matches("kubectl ");
                if k.chars()
                    .all(|c| c.is_ascii_alphanumeric() || " -_./=:,".contains(c))
                {
                    format!("\"$KUBECTL\" {k} ")
                } else {
                    format!("\"$KUBECTL\" {} ", k.split(' ').next().unwrap())
                }
            } else if t.apply.is_some() {
                "\"$KUBECTL\" apply -f - <<'KUBEPLAY_EOF'".to_string()
            } else if let Some(n) = &t.node_fail {
                format!("# nodeFail {n}")
            } else if let Some(n) = &t.node_recover {
                format!("# nodeRecover {n}")
            } else {
                "# controllerManager".to_string()
            };
            let section_end = script[pos + marker.len()..]
                .find("# timeline[")
                .map_or(script.len(), |e| pos + marker.len() + e);
            assert!(
                script[pos..section_end].contains(&needle),
                "{name}: timeline[{i}] has no {needle:?}"
            );
        }
        // Manifests are numbered in apply order and carry no server-set fields.
        for (p, text) in &files {
            if p.starts_with("manifests/") {
                assert!(
                    !text.contains("resourceVersion") && !text.contains("status:"),
                    "{p}"
                );
            }
        }
        // Kubelet rules are listed in the header, not dropped.
        for (i, _) in s.kubelet.rules.iter().enumerate() {
            assert!(script.contains(&format!("kubelet.rules[{i}]")), "{name}");
        }
    }
    let s = Scenario::parse(builtin::get("node-failure").unwrap()).unwrap();
    let files = export_scenario(&s).unwrap();
    let script = &files.iter().find(|(p, _)| p == "replay.sh").unwrap().1;
    let header: String = script
        .lines()
        .take_while(|l| l.starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(header.contains("nodeFail"), "{header}");
}

#[test]
fn export_of_an_import_applies_only_what_controllers_do_not_create() {
    let s = import_cluster(DUMP, &ImportOptions::default())
        .unwrap()
        .scenario;
    let files = export_scenario(&s).unwrap();
    let names: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        names,
        [
            "nodes.yaml",
            "manifests/01-namespace-kube-system.yaml",
            "manifests/02-persistentvolumeclaim-data-db-0.yaml",
            "manifests/03-persistentvolumeclaim-data-db-1.yaml",
            "manifests/04-deployment-web.yaml",
            "manifests/05-statefulset-db.yaml",
            "manifests/06-daemonset-node-exporter.yaml",
            "manifests/07-cronjob-backup.yaml",
            "replay.sh",
        ]
    );
    let script = &files.last().unwrap().1;
    assert!(script.contains("kubelet.frozen[0]"), "{script}");
    assert!(bash_syntax_ok(script));
}

#[test]
fn compare_reports_the_missing_and_the_reordered_event() {
    // events-real.json is kubeplay's `frontend` run recorded as `kubectl get events -o json`
    // would print it (other generated names, second resolution, listed by name), with one
    // SuccessfulDelete left out and the first Created events a second late (after Started).
    let s = Scenario::parse(builtin::get("frontend").unwrap()).unwrap();
    let real = include_str!("fixtures/events-real.json");
    let r = compare_run(&s, None, real, None).unwrap();
    assert_eq!((r.real_events, r.kubeplay_events), (36, 37));
    assert!(r.missing_in_kubeplay.is_empty(), "{}", render(&r));
    let extra: Vec<(String, u32, u32)> = r
        .extra_in_kubeplay
        .iter()
        .map(|d| (d.key.to_string(), d.real, d.kubeplay))
        .collect();
    assert_eq!(
        extra,
        [("SuccessfulDelete ReplicaSet/frontend".into(), 2, 3)]
    );
    let order: Vec<String> = r.out_of_order.iter().map(|d| d.key.to_string()).collect();
    assert_eq!(order, ["Started Pod/frontend-*"]);
    assert!(r.diverges());
    assert!(render(&r).ends_with("result: DIVERGES\n"));

    // Final counts: a dump with 3 frontend replicas where kubeplay ends with 2.
    let objects = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: apps/v1\n  kind: ReplicaSet\n  metadata: {name: frontend, namespace: default}\n  spec: {replicas: 3}\n  status: {replicas: 3, readyReplicas: 3}\n";
    let r = compare_run(&s, None, real, Some(objects)).unwrap();
    let diffs: Vec<String> = r
        .objects
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{}/{} {} {:?} {:?}",
                d.kind, d.name, d.field, d.real, d.kubeplay
            )
        })
        .collect();
    assert_eq!(
        diffs,
        [
            "ReplicaSet/frontend spec.replicas Some(3) Some(2)",
            "ReplicaSet/frontend status.readyReplicas Some(3) Some(2)",
            "ReplicaSet/frontend status.replicas Some(3) Some(2)",
        ]
    );
}
