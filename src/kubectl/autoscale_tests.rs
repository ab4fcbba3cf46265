//! `kubectl autoscale` tests. The tables are ported from kubectl 1.34's
//! `staging/src/k8s.io/kubectl/pkg/cmd/autoscale/autoscale_test.go`.

use super::super::execute;
use super::super::testutil::*;
use super::{parse_resource_input, Options, Target, CPU_PERCENT_DEPRECATED};
use crate::api::HorizontalPodAutoscaler;
use serde_json::{json, Value};

#[test]
fn autoscale_creates_a_v2_hpa_from_the_deprecated_cpu_percent_flag() {
    let mut sim = sim();
    load_fixture(&mut sim);
    assert_eq!(
        execute(
            &mut sim,
            "autoscale rs frontend --max=10 --min=3 --cpu-percent=50"
        )
        .unwrap(),
        format!(
            "{CPU_PERCENT_DEPRECATED}\nhorizontalpodautoscaler.autoscaling/frontend autoscaled"
        )
    );
    let h = sim
        .api
        .store
        .get::<HorizontalPodAutoscaler>("default", "frontend")
        .unwrap();
    assert_eq!(h.spec.scale_target_ref.api_version, "apps/v1");
    assert_eq!(h.spec.min_replicas, Some(3));
    let r = h.spec.metrics[0].resource.as_ref().unwrap();
    assert_eq!(r.target.average_utilization, Some(50));
    let got = execute(&mut sim, "get hpa").unwrap();
    assert_eq!(
        got,
        "NAME       REFERENCE             TARGETS              MINPODS   MAXPODS   REPLICAS   AGE\nfrontend   ReplicaSet/frontend   cpu: <unknown>/50%   3         10        0          0s"
    );
}

#[test]
fn autoscale_cpu_and_memory_targets() {
    let mut sim = sim();
    load_fixture(&mut sim);
    assert_eq!(
        execute(
            &mut sim,
            "autoscale rs frontend --max=6 --min=2 --cpu=500m --memory=70%"
        )
        .unwrap(),
        "horizontalpodautoscaler.autoscaling/frontend autoscaled"
    );
    let h = sim
        .api
        .store
        .get::<HorizontalPodAutoscaler>("default", "frontend")
        .unwrap();
    let names: Vec<&str> = h
        .spec
        .metrics
        .iter()
        .map(|m| m.resource.as_ref().unwrap().name.as_str())
        .collect();
    assert_eq!(names, ["cpu", "memory"]);
    let cpu = &h.spec.metrics[0].resource.as_ref().unwrap().target;
    assert_eq!(cpu.type_, "AverageValue");
    assert_eq!(cpu.average_value.as_ref().unwrap().0, "500m");
    let mem = &h.spec.metrics[1].resource.as_ref().unwrap().target;
    assert_eq!(mem.type_, "Utilization");
    assert_eq!(mem.average_utilization, Some(70));
    let got = execute(&mut sim, "get hpa").unwrap();
    assert!(
        got.contains("cpu: <unknown>/500m, memory: <unknown>/70%"),
        "{got}"
    );
}

#[test]
fn autoscale_dry_run_prints_the_v2_object() {
    let mut sim = sim();
    load_fixture(&mut sim);
    assert_eq!(
        execute(
            &mut sim,
            "autoscale rs frontend --max=10 --min=3 --cpu=500 --memory=256 --dry-run=client -o yaml"
        )
        .unwrap(),
        "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: frontend\nspec:\n  maxReplicas: 10\n  metrics:\n  - resource:\n      name: cpu\n      target:\n        averageValue: 500m\n        type: AverageValue\n    type: Resource\n  - resource:\n      name: memory\n      target:\n        averageValue: 256Mi\n        type: AverageValue\n    type: Resource\n  minReplicas: 3\n  scaleTargetRef:\n    apiVersion: apps/v1\n    kind: ReplicaSet\n    name: frontend\nstatus:\n  desiredReplicas: 0"
    );
    // With -n (enforceNamespace) the built object carries the namespace.
    let got = execute(
        &mut sim,
        "autoscale rs frontend -n default --max=10 --dry-run=client -o yaml",
    )
    .unwrap();
    assert!(
        got.starts_with("apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: frontend\n  namespace: default\nspec:\n  maxReplicas: 10\n  scaleTargetRef:"),
        "{got}"
    );
    assert_eq!(
        execute(&mut sim, "autoscale rs frontend --max=10 --dry-run=client").unwrap(),
        "horizontalpodautoscaler.autoscaling/frontend created (dry run)"
    );
    assert_eq!(
        execute(&mut sim, "autoscale rs frontend --max=10 --dry-run=server").unwrap(),
        "horizontalpodautoscaler.autoscaling/frontend autoscaled (server dry run)"
    );
    assert!(sim
        .api
        .store
        .get::<HorizontalPodAutoscaler>("default", "frontend")
        .is_none());
}

// Run's fallback: when the autoscaling/v2 create fails, canCreateHPAV1 decides whether an
// autoscaling/v1 HPA is tried; it parses --cpu, so an empty --cpu ends in "empty input".
#[test]
fn autoscale_v1_fallback_after_a_failed_v2_create() {
    let mut sim = sim();
    load_fixture(&mut sim);
    execute(&mut sim, "autoscale rs frontend --max=10").unwrap();
    assert_eq!(
        execute(&mut sim, "autoscale rs frontend --max=10").unwrap_err(),
        "error: failed to create autoscaling/v2 HPA and the configuration is incompatible with autoscaling/v1: empty input"
    );
    assert_eq!(
        execute(&mut sim, "autoscale rs frontend --max=10 --cpu=500m").unwrap_err(),
        "error: failed to create autoscaling/v2 HPA and the configuration is incompatible with autoscaling/v1: %!w(<nil>)"
    );
    // A utilization --cpu fits v1: the v1 create is tried and its error is kubectl's.
    assert_eq!(
        execute(&mut sim, "autoscale rs frontend --max=10 --cpu=50%").unwrap_err(),
        "Error from server (AlreadyExists): horizontalpodautoscalers.autoscaling \"frontend\" already exists"
    );
    // --cpu=0% fails v2 validation; the v1 HPA built instead has no CPU target (--cpu-percent
    // is unset), so the server's default 80% applies.
    execute(&mut sim, "delete hpa frontend").unwrap();
    assert_eq!(
        execute(&mut sim, "autoscale rs frontend --max=10 --cpu=0%").unwrap(),
        "horizontalpodautoscaler.autoscaling/frontend autoscaled"
    );
    let h = sim
        .api
        .store
        .get::<HorizontalPodAutoscaler>("default", "frontend")
        .unwrap();
    let r = h.spec.metrics[0].resource.as_ref().unwrap();
    assert_eq!(
        (r.name.as_str(), r.target.average_utilization),
        ("cpu", Some(80))
    );
}

#[test]
fn autoscale_flag_errors() {
    let mut sim = sim();
    load_fixture(&mut sim);
    assert_eq!(
        execute(&mut sim, "autoscale rs frontend").unwrap_err(),
        "error: --max=MAXPODS is required and must be at least 1, max: -1"
    );
    assert_eq!(
        execute(&mut sim, "autoscale rs frontend --max=2 --min=3").unwrap_err(),
        "error: --max=MAXPODS must be larger or equal to --min=MINPODS, max: 2, min: 3"
    );
    assert_eq!(
        execute(
            &mut sim,
            "autoscale rs frontend --max=2 --cpu-percent=20 --cpu=80%"
        )
        .unwrap_err(),
        format!("{CPU_PERCENT_DEPRECATED}\nerror: --cpu-percent and --cpu are mutually exclusive")
    );
    assert_eq!(
        execute(
            &mut sim,
            "autoscale rs frontend --max=2 --cpu-percent=20 --cpu-percent=0 --cpu=80% --dry-run=client"
        )
        .unwrap(),
        format!("{CPU_PERCENT_DEPRECATED}\n{CPU_PERCENT_DEPRECATED}\nhorizontalpodautoscaler.autoscaling/frontend created (dry run)")
    );
    assert_eq!(
        execute(&mut sim, "autoscale rs frontend --max=2 --cpu=abc%").unwrap_err(),
        "error: invalid percentage value: abc"
    );
    assert_eq!(
        execute(&mut sim, "autoscale rs frontend --max=2 --memory=-5%").unwrap_err(),
        "error: invalid percentage value: -5"
    );
    assert_eq!(
        execute(&mut sim, "autoscale rs frontend --max=2 --memory=' '").unwrap_err(),
        "error: empty input"
    );
    // --min=0 is no longer sent: minReplicas is set only when --min > 0 (the server defaults 1).
    execute(&mut sim, "autoscale rs frontend --max=2 --min=0").unwrap();
    let h = sim
        .api
        .store
        .get::<HorizontalPodAutoscaler>("default", "frontend")
        .unwrap();
    assert_eq!(h.spec.min_replicas, Some(1));
}

fn opts(max: i64, min: i64, cpu_percent: i64, cpu: &str, memory: &str) -> Options {
    Options {
        name: String::new(),
        min,
        max,
        cpu_percent,
        cpu: cpu.into(),
        memory: memory.into(),
    }
}

// Upstream: TestAutoscaleValidate, all rows. Fields the Go rows leave unset are Go's zero
// values (Min 0, CPUPercent 0), as in the upstream struct literals.
#[test]
fn autoscale_validate() {
    let cases: &[(&str, Options, Option<&str>)] = &[
        ("valid options", opts(10, 1, 0, "", ""), None),
        (
            "max less than 1",
            opts(0, 1, 0, "", ""),
            Some("--max=MAXPODS is required and must be at least 1, max: 0"),
        ),
        (
            "min greater than max",
            opts(1, 2, 0, "", ""),
            Some("--max=MAXPODS must be larger or equal to --min=MINPODS, max: 1, min: 2"),
        ),
        ("zero min replicas", opts(5, 0, 0, "", ""), None),
        ("negative min replicas", opts(5, -2, 0, "", ""), None),
        (
            "CPUPercent appears with CPU",
            opts(5, 0, 20, "800", ""),
            Some("--cpu-percent and --cpu are mutually exclusive"),
        ),
        (
            "CPUPercent default (-1) with CPU",
            opts(5, 0, -1, "800", ""),
            None,
        ),
        ("valid CPU percentage", opts(5, 0, 0, "70%", ""), None),
        (
            "valid CPU numeric without unit",
            opts(5, 0, 0, "500", ""),
            None,
        ),
        ("valid CPU with unit", opts(5, 0, 0, "500m", ""), None),
        (
            "invalid CPU value (non-numeric)",
            opts(5, 0, 0, "abc", ""),
            Some("invalid resource cpu value: abc"),
        ),
        (
            "invalid CPU value (malformed unit)",
            opts(5, 0, 0, "500xyz", ""),
            Some("invalid resource cpu value: 500xyz"),
        ),
        ("valid memory percentage", opts(5, 0, 0, "", "60%"), None),
        (
            "valid memory numeric without unit",
            opts(5, 0, 0, "", "512"),
            None,
        ),
        ("valid memory with unit", opts(5, 0, 0, "", "512Mi"), None),
        (
            "invalid memory value (non-numeric)",
            opts(5, 0, 0, "", "xyz"),
            Some("invalid resource memory value: xyz"),
        ),
        (
            "invalid memory value (MiB unit)",
            opts(5, 0, 0, "", "512MiB"),
            Some("invalid resource memory value: 512MiB"),
        ),
    ];
    for (name, o, want) in cases {
        assert_eq!(
            o.validate(),
            want.map_or(Ok(()), |e| Err(e.to_string())),
            "{name}"
        );
    }
    // The same rows through the command (client dry run), where the flags allow them: the
    // message gets kubectl's `error: ` prefix.
    for (name, o, want) in cases {
        let mut sim = sim();
        load_fixture(&mut sim);
        let mut cmd = format!(
            "autoscale rs frontend --max={} --min={} --dry-run=client",
            o.max, o.min
        );
        if o.cpu_percent != 0 {
            cmd.push_str(&format!(" --cpu-percent={}", o.cpu_percent));
        }
        for (flag, v) in [("cpu", &o.cpu), ("memory", &o.memory)] {
            if !v.is_empty() {
                cmd.push_str(&format!(" --{flag}={v}"));
            }
        }
        let got = execute(&mut sim, &cmd);
        let notice = if o.cpu_percent != 0 {
            format!("{CPU_PERCENT_DEPRECATED}\n")
        } else {
            String::new()
        };
        match want {
            None => assert!(got.is_ok(), "{name}: {got:?}"),
            Some(e) => assert_eq!(got, Err(format!("{notice}error: {e}")), "{name}"),
        }
    }
}

fn resource_metric(name: &str, target: Value) -> Value {
    json!({"type": "Resource", "resource": {"name": name, "target": target}})
}

fn utilization(v: i64) -> Value {
    json!({"type": "Utilization", "averageUtilization": v})
}

fn average_value(q: &str) -> Value {
    json!({"type": "AverageValue", "averageValue": q})
}

fn hpa(api: &str, name: &str, kind: &str, target: &str, min: Option<i64>, max: i64) -> Value {
    let mut spec = json!({
        "scaleTargetRef": {"apiVersion": "apps/v1", "kind": kind, "name": target},
        "maxReplicas": max,
    });
    if let Some(m) = min {
        spec["minReplicas"] = m.into();
    }
    json!({
        "apiVersion": api,
        "kind": "HorizontalPodAutoscaler",
        "metadata": {"name": name},
        "spec": spec,
    })
}

fn with_metrics(mut h: Value, metrics: Vec<Value>) -> Value {
    h["spec"]["metrics"] = Value::Array(metrics);
    h
}

fn named(name: &str, max: i64, min: i64, cpu_percent: i64, cpu: &str, memory: &str) -> Options {
    Options {
        name: name.into(),
        ..opts(max, min, cpu_percent, cpu, memory)
    }
}

// Upstream: TestCreateHorizontalPodAutoscalerV2, all rows. Go's Quantity compares by value;
// here the serialized (canonical) string is compared, so `2000m` is `2`.
#[test]
fn create_horizontal_pod_autoscaler_v2() {
    let v2 = |name, kind, target, min, max| hpa("autoscaling/v2", name, kind, target, min, max);
    let cpu80 = resource_metric("cpu", utilization(80));
    let cases: Vec<(&str, Options, &str, &str, Value)> = vec![
        (
            "create with all options",
            named("custom-name", 10, 2, 80, "", ""),
            "deployment-1",
            "Deployment",
            with_metrics(
                v2("custom-name", "Deployment", "deployment-1", Some(2), 10),
                vec![cpu80.clone()],
            ),
        ),
        (
            "create without min replicas",
            named("custom-name-2", 10, -1, 80, "", ""),
            "deployment-2",
            "Deployment",
            with_metrics(
                v2("custom-name-2", "Deployment", "deployment-2", None, 10),
                vec![cpu80.clone()],
            ),
        ),
        (
            "create without max replicas",
            named("custom-name-3", -1, 2, 80, "", ""),
            "deployment-3",
            "Deployment",
            with_metrics(
                v2("custom-name-3", "Deployment", "deployment-3", Some(2), -1),
                vec![cpu80.clone()],
            ),
        ),
        (
            "create without cpu utilization",
            named("custom-name-4", 10, 2, -1, "", ""),
            "deployment-4",
            "Deployment",
            v2("custom-name-4", "Deployment", "deployment-4", Some(2), 10),
        ),
        (
            "create with replicaset reference",
            named("replicaset-hpa", 5, 1, 70, "", ""),
            "frontend",
            "ReplicaSet",
            with_metrics(
                v2("replicaset-hpa", "ReplicaSet", "frontend", Some(1), 5),
                vec![resource_metric("cpu", utilization(70))],
            ),
        ),
        (
            "create with statefulset reference",
            named("statefulset-hpa", 8, 2, 60, "", ""),
            "web",
            "StatefulSet",
            with_metrics(
                v2("statefulset-hpa", "StatefulSet", "web", Some(2), 8),
                vec![resource_metric("cpu", utilization(60))],
            ),
        ),
        (
            "create with memory(use %) options",
            named("custom-name", 10, 2, 0, "", "50%"),
            "deployment-1",
            "Deployment",
            with_metrics(
                v2("custom-name", "Deployment", "deployment-1", Some(2), 10),
                vec![resource_metric("memory", utilization(50))],
            ),
        ),
        (
            "create with both cpu(use %) and memory(use %) options",
            named("custom-name", 10, 2, 0, "70%", "50%"),
            "deployment-1",
            "Deployment",
            with_metrics(
                v2("custom-name", "Deployment", "deployment-1", Some(2), 10),
                vec![
                    resource_metric("cpu", utilization(70)),
                    resource_metric("memory", utilization(50)),
                ],
            ),
        ),
        (
            "create with both cpu(use m unit) and memory(use %) options",
            named("custom-name", 10, 2, 0, "500m", "50%"),
            "deployment-1",
            "Deployment",
            with_metrics(
                v2("custom-name", "Deployment", "deployment-1", Some(2), 10),
                vec![
                    resource_metric("cpu", average_value("500m")),
                    resource_metric("memory", utilization(50)),
                ],
            ),
        ),
        (
            "create with both cpu(no use unit) and memory(use %) options",
            named("custom-name", 10, 2, 0, "500", "50%"),
            "deployment-1",
            "Deployment",
            with_metrics(
                v2("custom-name", "Deployment", "deployment-1", Some(2), 10),
                vec![
                    resource_metric("cpu", average_value("500m")),
                    resource_metric("memory", utilization(50)),
                ],
            ),
        ),
        (
            "create with memory(no use unit) options",
            named("custom-name", 10, 2, 0, "", "512"),
            "deployment-1",
            "Deployment",
            with_metrics(
                v2("custom-name", "Deployment", "deployment-1", Some(2), 10),
                vec![resource_metric("memory", average_value("512Mi"))],
            ),
        ),
        (
            "create with cpu(no use unit) and memory(no use unit) options",
            named("custom-name", 10, 2, 0, "500", "512"),
            "deployment-1",
            "Deployment",
            with_metrics(
                v2("custom-name", "Deployment", "deployment-1", Some(2), 10),
                vec![
                    resource_metric("cpu", average_value("500m")),
                    resource_metric("memory", average_value("512Mi")),
                ],
            ),
        ),
        (
            "create with both cpu(use m unit) and memory(use Gi unit) options",
            named("custom-name", 10, 2, 0, "2000m", "3Gi"),
            "deployment-1",
            "Deployment",
            with_metrics(
                v2("custom-name", "Deployment", "deployment-1", Some(2), 10),
                vec![
                    resource_metric("cpu", average_value("2")),
                    resource_metric("memory", average_value("3Gi")),
                ],
            ),
        ),
    ];
    for (name, o, ref_name, kind, want) in cases {
        assert_eq!(o.hpa_v2(ref_name, "apps/v1", kind), Ok(want), "{name}");
    }
}

// Upstream: TestCreateHorizontalPodAutoscalerV1, all rows.
#[test]
fn create_horizontal_pod_autoscaler_v1() {
    let v1 = |name, kind, target, min, max, cpu: Option<i64>| {
        let mut h = hpa("autoscaling/v1", name, kind, target, min, max);
        if let Some(c) = cpu {
            h["spec"]["targetCPUUtilizationPercentage"] = c.into();
        }
        h
    };
    let cases: Vec<(&str, Options, &str, &str, Value)> = vec![
        (
            "create with all options",
            named("custom-name", 10, 2, 80, "", ""),
            "deployment-1",
            "Deployment",
            v1(
                "custom-name",
                "Deployment",
                "deployment-1",
                Some(2),
                10,
                Some(80),
            ),
        ),
        (
            "create without min replicas",
            named("custom-name-2", 10, -1, 80, "", ""),
            "deployment-2",
            "Deployment",
            v1(
                "custom-name-2",
                "Deployment",
                "deployment-2",
                None,
                10,
                Some(80),
            ),
        ),
        (
            "create without max replicas",
            named("custom-name-3", -1, 2, 80, "", ""),
            "deployment-3",
            "Deployment",
            v1(
                "custom-name-3",
                "Deployment",
                "deployment-3",
                Some(2),
                -1,
                Some(80),
            ),
        ),
        (
            "create without cpu utilization",
            named("custom-name-4", 10, 2, -1, "", ""),
            "deployment-4",
            "Deployment",
            v1(
                "custom-name-4",
                "Deployment",
                "deployment-4",
                Some(2),
                10,
                None,
            ),
        ),
        (
            "create with replicaset reference",
            named("replicaset-hpa", 5, 1, 70, "", ""),
            "frontend",
            "ReplicaSet",
            v1(
                "replicaset-hpa",
                "ReplicaSet",
                "frontend",
                Some(1),
                5,
                Some(70),
            ),
        ),
        (
            "create with statefulset reference",
            named("statefulset-hpa", 8, 2, 60, "", ""),
            "web",
            "StatefulSet",
            v1(
                "statefulset-hpa",
                "StatefulSet",
                "web",
                Some(2),
                8,
                Some(60),
            ),
        ),
    ];
    for (name, o, ref_name, kind, want) in cases {
        assert_eq!(o.hpa_v1(ref_name, "apps/v1", kind), want, "{name}");
    }
}

// parseResourceInput: bare numbers are formatted with Go's %g before the unit is added, so
// a million millicores becomes `1e+06m`, which is not a quantity.
#[test]
fn parse_resource_input_cases() {
    let q = |s: &str| Target::AverageValue(s.into());
    assert_eq!(
        parse_resource_input(" 70% ", "cpu"),
        Ok(Target::Utilization(70))
    );
    assert_eq!(
        parse_resource_input("+5%", "cpu"),
        Ok(Target::Utilization(5))
    );
    assert_eq!(parse_resource_input("0.5", "cpu"), Ok(q("500u")));
    assert_eq!(parse_resource_input("1.5", "memory"), Ok(q("1536Ki")));
    assert_eq!(parse_resource_input("1Gi", "memory"), Ok(q("1Gi")));
    assert_eq!(parse_resource_input("999999", "cpu"), Ok(q("999999m")));
    assert_eq!(
        parse_resource_input("1000000", "cpu"),
        Err("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'".into())
    );
    assert_eq!(
        parse_resource_input("3000000000%", "cpu"),
        Err("invalid percentage value: 3000000000".into())
    );
    assert_eq!(parse_resource_input("", "cpu"), Err("empty input".into()));
}

// strconv.ParseFloat as parseResourceInput's bare-number case sees it: a finite literal beyond
// f64 is ErrRange (Go), not +Inf (Rust's parser); the spelled infinities and NaN parse.
#[test]
fn go_parse_float_reports_range_errors() {
    assert_eq!(super::go_parse_float("1e400"), None);
    assert_eq!(super::go_parse_float("-1e400"), None);
    assert_eq!(super::go_parse_float("1e-400"), Some(0.0));
    assert_eq!(super::go_parse_float("+Inf"), Some(f64::INFINITY));
    assert_eq!(super::go_parse_float("500"), Some(500.0));
    assert!(super::go_parse_float("NaN").is_some_and(f64::is_nan));
    assert_eq!(super::go_parse_float("500m"), None);
}
