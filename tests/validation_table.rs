//! Validation completeness table: one row per rule of upstream `pkg/apis/apps/validation`,
//! `pkg/apis/batch/validation` and the core object-meta / pod-template rules they call, each
//! asserting the exact line kubectl prints for a request that breaks only that rule.
//!
//! Every row is sent through the API server (create, or create then update for immutability
//! rules), so defaulting, admission and validation all run as they would for `kubectl apply`.

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

fn template() -> Value {
    json!({"metadata": {"labels": {"app": "web"}},
           "spec": {"containers": [{"name": "c", "image": "nginx"}]}})
}

fn base(kind: &str) -> Value {
    let sel = json!({"matchLabels": {"app": "web"}});
    match kind {
        "Deployment" => {
            json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
            "spec": {"replicas": 2, "selector": sel, "template": template()}})
        }
        "ReplicaSet" => {
            json!({"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "web"},
            "spec": {"replicas": 2, "selector": sel, "template": template()}})
        }
        "StatefulSet" => {
            json!({"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "web"},
            "spec": {"replicas": 2, "serviceName": "web", "selector": sel, "template": template()}})
        }
        "DaemonSet" => {
            json!({"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "web"},
            "spec": {"selector": sel, "template": template()}})
        }
        "Job" => {
            let mut t = template();
            t["spec"]["restartPolicy"] = json!("Never");
            json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "web"}, "spec": {"template": t}})
        }
        "CronJob" => {
            let mut t = template();
            t["spec"]["restartPolicy"] = json!("Never");
            json!({"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": "web"},
                "spec": {"schedule": "*/5 * * * *", "jobTemplate": {"spec": {"template": t}}}})
        }
        "Pod" => json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web"},
            "spec": {"containers": [{"name": "c", "image": "nginx"}]}}),
        k => panic!("no base for {k}"),
    }
}

/// Sets (or, for `null`, removes) the value at a JSON pointer, creating objects on the way.
fn set(v: &mut Value, pointer: &str, x: &Value) {
    let parts: Vec<&str> = pointer.trim_start_matches('/').split('/').collect();
    let mut cur = v;
    for p in &parts[..parts.len() - 1] {
        let p = p.replace("~1", "/");
        cur = if let Ok(i) = p.parse::<usize>() {
            &mut cur[i]
        } else {
            cur.as_object_mut().unwrap().entry(p).or_insert(json!({}))
        };
    }
    let last = parts[parts.len() - 1].replace("~1", "/");
    if x.is_null() {
        cur.as_object_mut().unwrap().remove(&last);
    } else {
        cur[last] = x.clone();
    }
}

fn mutated(kind: &str, muts: &[(&str, Value)]) -> Object {
    let mut v = base(kind);
    for (p, x) in muts {
        set(&mut v, p, x);
    }
    Object::from_value(v).unwrap()
}

/// A create breaking one rule: kubectl's message must contain `line`.
fn create_fails(kind: &str, muts: &[(&str, Value)], line: &str) {
    let mut sim = sim();
    let Err(err) = sim.api.create(mutated(kind, muts)) else {
        return fail(format!("{kind} {muts:?}: accepted, want {line}"));
    };
    let msg = err.kubectl_message();
    if !msg.lines().any(|l| l.contains(line)) {
        fail(format!("{kind} {muts:?}:\n  want {line}\n  got  {msg}"));
    }
}

thread_local! {
    static FAILURES: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(vec![]) };
}

fn fail(s: String) {
    FAILURES.with(|f| f.borrow_mut().push(s));
}

/// Reports every row that failed (rows do not stop at the first).
fn finish() {
    let all = FAILURES.with(|f| std::mem::take(&mut *f.borrow_mut()));
    assert!(
        all.is_empty(),
        "{} rows failed:\n{}",
        all.len(),
        all.join("\n")
    );
}

/// A valid create, then an update breaking one rule.
fn update_fails(kind: &str, muts: &[(&str, Value)], line: &str) {
    let mut sim = sim();
    sim.api.create(mutated(kind, &[])).unwrap();
    let mut live = serde_json::to_value(
        sim.api
            .store
            .all()
            .find(|o| o.kind() == kind)
            .unwrap()
            .clone(),
    )
    .unwrap();
    for (p, x) in muts {
        set(&mut live, p, x);
    }
    let Err(err) = sim.api.update(Object::from_value(live).unwrap()) else {
        return fail(format!("{kind} update {muts:?}: accepted, want {line}"));
    };
    let msg = err.kubectl_message();
    if !msg.lines().any(|l| l.contains(line)) {
        fail(format!(
            "{kind} update {muts:?}:\n  want {line}\n  got  {msg}"
        ));
    }
}

const DNS1123_SUBDOMAIN: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

const DNS1123_LABEL: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

// ---- Object meta (staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go,
//      staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go) ----

#[test]
fn meta_rules() {
    for kind in [
        "Deployment",
        "ReplicaSet",
        "StatefulSet",
        "DaemonSet",
        "Job",
        "CronJob",
    ] {
        // ValidateObjectMeta → NameIsDNSSubdomain (apps) / ValidateJobName, ValidateCronJobName.
        // StatefulSet: ValidateStatefulSetName is NameIsDNSLabel (pods are `<name>-<ordinal>`).
        let rule = if kind == "StatefulSet" {
            DNS1123_LABEL
        } else {
            DNS1123_SUBDOMAIN
        };
        create_fails(
            kind,
            &[("/metadata/name", json!("Web"))],
            &format!("metadata.name: Invalid value: \"Web\": {rule}"),
        );
        // ValidateLabels: label values at most 63 characters.
        let long = "a".repeat(64);
        create_fails(
            kind,
            &[("/metadata/labels", json!({"x": long}))],
            &format!(
                "metadata.labels: Invalid value: \"{long}\": must be no more than 63 characters"
            ),
        );
        // ValidateLabelName: qualified-name keys.
        create_fails(
            kind,
            &[("/metadata/labels", json!({"a b": "x"}))],
            "metadata.labels: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        );
        // ValidateAnnotationsSize: 256 KiB in total.
        create_fails(
            kind,
            &[(
                "/metadata/annotations",
                json!({"a": "b".repeat(256 * 1024)}),
            )],
            "metadata.annotations: Too long: may not be more than 262144 bytes",
        );
        // ValidateOwnerReferences: at most one controller.
        let refs = json!([
            {"apiVersion": "v1", "kind": "A", "name": "a", "uid": "1", "controller": true},
            {"apiVersion": "v1", "kind": "B", "name": "b", "uid": "2", "controller": true}
        ]);
        create_fails(
            kind,
            &[("/metadata/ownerReferences", refs)],
            "Only one reference can have Controller set to true. Found \"true\" in references for A/a and B/b",
        );
    }
    // ValidateObjectMetaUpdate: name and uid immutable are enforced by the store; labels keys
    // are checked on update too.
    update_fails(
        "Deployment",
        &[("/metadata/labels", json!({"-bad": "x"}))],
        "metadata.labels: Invalid value: \"-bad\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    );
    finish();
}

// ---- pkg/apis/apps/validation/validation.go ----

#[test]
fn apps_rules() {
    for kind in ["Deployment", "ReplicaSet", "StatefulSet"] {
        // ValidateNonnegativeField(spec.replicas).
        create_fails(
            kind,
            &[("/spec/replicas", json!(-1))],
            "spec.replicas: Invalid value: -1: must be greater than or equal to 0",
        );
    }
    for kind in ["Deployment", "ReplicaSet", "StatefulSet", "DaemonSet"] {
        // Selector required and non-empty; must match the template labels.
        // DaemonSet: no Required check; a nil selector matches nothing (ValidateDaemonSetSpec).
        let line = if kind == "DaemonSet" {
            "spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`"
        } else {
            "spec.selector: Required value"
        };
        create_fails(kind, &[("/spec/selector", Value::Null)], line);
        create_fails(
            kind,
            &[("/spec/selector", json!({"matchLabels": {"app": "other"}}))],
            "spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`",
        );
        create_fails(
            kind,
            &[("/spec/minReadySeconds", json!(-1))],
            "spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0",
        );
        // ValidatePodTemplateSpec: containers required (not for StatefulSets, whose
        // ValidatePodTemplateSpecForStatefulSet skips the pod spec), restartPolicy Always only.
        if kind != "StatefulSet" {
            create_fails(
                kind,
                &[("/spec/template/spec/containers", json!([]))],
                "spec.template.spec.containers: Required value",
            );
        }
        create_fails(
            kind,
            &[("/spec/template/spec/restartPolicy", json!("Never"))],
            "spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\"",
        );
        // Selector immutable in apps/v1 (ValidateDeploymentUpdate & co. via the strategies).
        update_fails(
            kind,
            &[
                (
                    "/spec/selector",
                    json!({"matchLabels": {"app": "web", "x": "y"}}),
                ),
                (
                    "/spec/template/metadata/labels",
                    json!({"app": "web", "x": "y"}),
                ),
            ],
            if kind == "StatefulSet" {
                "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"
            } else {
                "spec.selector: Invalid value: {\"matchLabels\":{\"app\":\"web\",\"x\":\"y\"}}: field is immutable"
            },
        );
    }
    // ValidateDeploymentSpec / ValidateRollingUpdateDeployment.
    create_fails(
        "Deployment",
        &[("/spec/strategy", json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 0, "maxUnavailable": 0}}))],
        "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0",
    );
    create_fails(
        "Deployment",
        &[("/spec/strategy", json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "110%"}}))],
        "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"110%\": must not be greater than 100%",
    );
    create_fails(
        "Deployment",
        &[("/spec/strategy", json!({"type": "Recreate", "rollingUpdate": {"maxSurge": 1}}))],
        "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
    );
    create_fails(
        "Deployment",
        &[("/spec/revisionHistoryLimit", json!(-1))],
        "spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0",
    );
    create_fails(
        "Deployment",
        &[
            ("/spec/progressDeadlineSeconds", json!(0)),
            ("/spec/minReadySeconds", json!(5)),
        ],
        "spec.progressDeadlineSeconds: Invalid value: 0: must be greater than minReadySeconds",
    );
    // ValidateStatefulSetSpec.
    create_fails(
        "StatefulSet",
        &[("/spec/podManagementPolicy", json!("Sometimes"))],
        "spec.podManagementPolicy: Invalid value: \"Sometimes\": must be 'OrderedReady' or 'Parallel'",
    );
    create_fails(
        "StatefulSet",
        &[("/spec/updateStrategy", json!({"type": "Sometimes"}))],
        "spec.updateStrategy: Invalid value: {\"type\":\"Sometimes\"}: must be 'RollingUpdate' or 'OnDelete'",
    );
    create_fails(
        "StatefulSet",
        &[("/spec/ordinals", json!({"start": -1}))],
        "spec.ordinals.start: Invalid value: -1: must be greater than or equal to 0",
    );
    create_fails(
        "StatefulSet",
        &[("/spec/selector", json!({}))],
        "spec.selector: Invalid value: {}: empty selector is invalid for statefulset",
    );
    // ValidateRollingUpdateDaemonSet.
    create_fails(
        "DaemonSet",
        &[("/spec/updateStrategy", json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 0, "maxUnavailable": 0}}))],
        "spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0",
    );
    create_fails(
        "DaemonSet",
        &[("/spec/updateStrategy", json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 1}}))],
        "spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero",
    );
    finish();
}

// ---- pkg/apis/batch/validation/validation.go ----

#[test]
fn batch_rules() {
    for (p, f) in [
        ("parallelism", "spec.parallelism"),
        ("completions", "spec.completions"),
        ("backoffLimit", "spec.backoffLimit"),
    ] {
        create_fails(
            "Job",
            &[(&format!("/spec/{p}"), json!(-1))],
            &format!("{f}: Invalid value: -1: must be greater than or equal to 0"),
        );
    }
    create_fails(
        "Job",
        &[("/spec/activeDeadlineSeconds", json!(-1))],
        "spec.activeDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0",
    );
    create_fails(
        "Job",
        &[("/spec/template/spec/restartPolicy", json!("Always"))],
        "spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\"",
    );
    create_fails(
        "Job",
        &[("/spec/completionMode", json!("Sometimes"))],
        "spec.completionMode: Unsupported value: \"Sometimes\": supported values: \"NonIndexed\", \"Indexed\"",
    );
    create_fails(
        "Job",
        &[("/spec/ttlSecondsAfterFinished", json!(-1))],
        "spec.ttlSecondsAfterFinished: Invalid value: -1: must be greater than or equal to 0",
    );
    // The pod template is immutable (ValidateJobSpecUpdate).
    update_fails(
        "Job",
        &[("/spec/template/spec/containers/0/image", json!("busybox"))],
        "field is immutable",
    );
    update_fails(
        "Job",
        &[("/spec/completions", json!(5))],
        "spec.completions: Invalid value: 5: field is immutable",
    );
    // ValidateCronJobSpec: schedule and timeZone.
    create_fails(
        "CronJob",
        &[("/spec/schedule", json!("61 * * * *"))],
        "spec.schedule: Invalid value: \"61 * * * *\": end of range (61) above maximum (59): 61",
    );
    create_fails(
        "CronJob",
        &[("/spec/schedule", json!(""))],
        "spec.schedule: Required value",
    );
    create_fails(
        "CronJob",
        &[("/spec/timeZone", json!("Mars/Olympus"))],
        "spec.timeZone: Invalid value: \"Mars/Olympus\": unknown time zone Mars/Olympus",
    );
    create_fails(
        "CronJob",
        &[("/spec/schedule", json!("TZ=UTC */5 * * * *"))],
        "spec.schedule: Invalid value: \"TZ=UTC */5 * * * *\": cannot use TZ or CRON_TZ in schedule, use timeZone field instead",
    );
    create_fails(
        "CronJob",
        &[("/spec/concurrencyPolicy", json!("Sometimes"))],
        "spec.concurrencyPolicy: Unsupported value: \"Sometimes\": supported values: \"Allow\", \"Forbid\", \"Replace\"",
    );
    create_fails(
        "CronJob",
        &[("/spec/startingDeadlineSeconds", json!(-1))],
        "spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0",
    );
    create_fails(
        "CronJob",
        &[("/metadata/name", json!("a".repeat(53)))],
        &format!(
            "metadata.name: Invalid value: \"{}\": must be no more than 52 characters",
            "a".repeat(53)
        ),
    );
    finish();
}

// ---- core pod rules used by every template (pkg/apis/core/validation/validation.go) ----

#[test]
fn pod_rules() {
    // ValidatePodSpecificAnnotations: the pod-deletion-cost must be a 32-bit integer.
    create_fails(
        "Pod",
        &[("/metadata/annotations", json!({"controller.kubernetes.io/pod-deletion-cost": "1e3"}))],
        "metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: \"1e3\": must be a 32bit integer",
    );
    // validateContainers: names are DNS labels, unique; image required.
    create_fails(
        "Pod",
        &[("/spec/containers/0/name", json!("C_1"))],
        "spec.containers[0].name: Invalid value: \"C_1\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    );
    create_fails(
        "Pod",
        &[(
            "/spec/containers",
            json!([{"name": "c", "image": "x"}, {"name": "c", "image": "y"}]),
        )],
        "spec.containers[1].name: Duplicate value: \"c\"",
    );
    create_fails(
        "Pod",
        &[("/spec/containers/0/image", Value::Null)],
        "spec.containers[0].image: Required value",
    );
    // ValidateResourceRequirements: requests may not exceed limits.
    create_fails(
        "Pod",
        &[("/spec/containers/0/resources", json!({"requests": {"cpu": "2"}, "limits": {"cpu": "1"}}))],
        "spec.containers[0].resources.requests: Invalid value: \"2\": must be less than or equal to cpu limit of 1",
    );
    create_fails(
        "Pod",
        &[("/spec/containers/0/resources", json!({"requests": {"cpu": "-1"}}))],
        "spec.containers[0].resources.requests[cpu]: Invalid value: \"-1\": must be greater than or equal to 0",
    );
    create_fails(
        "Pod",
        &[("/spec/restartPolicy", json!("Sometimes"))],
        "spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"OnFailure\", \"Never\"",
    );
    create_fails(
        "Pod",
        &[
            ("/spec/terminationGracePeriodSeconds", json!(-5)),
            ("/spec/activeDeadlineSeconds", json!(0)),
        ],
        "spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive",
    );
    // Pod spec is immutable beyond a few fields (ValidatePodUpdate).
    update_fails(
        "Pod",
        &[("/spec/containers/0/name", json!("d"))],
        "spec: Forbidden: pod updates may not change fields other than",
    );
    finish();
}

// ---- Pod (anti-)affinity and topology spread constraints in pod templates
//      (validateAffinity / validateTopologySpreadConstraints via ValidatePodTemplateSpec) ----

#[test]
fn template_affinity_and_topology_spread_rules() {
    let tsc = "/spec/template/spec/topologySpreadConstraints";
    create_fails(
        "Deployment",
        &[(
            tsc,
            json!([{"maxSkew": 0, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"}]),
        )],
        "spec.template.spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero",
    );
    create_fails(
        "Deployment",
        &[(
            tsc,
            json!([{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "Sometimes"}]),
        )],
        "spec.template.spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: \"Sometimes\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\"",
    );
    create_fails(
        "Deployment",
        &[(
            tsc,
            json!([{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "ScheduleAnyway", "minDomains": 2}]),
        )],
        "spec.template.spec.topologySpreadConstraints[0].minDomains: Invalid value: 2: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway",
    );
    create_fails(
        "DaemonSet",
        &[(
            tsc,
            json!([{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule", "matchLabelKeys": ["pod-template-hash"]}]),
        )],
        "spec.template.spec.topologySpreadConstraints[0].matchLabelKeys: Forbidden: must not be specified when labelSelector is not set",
    );
    create_fails(
        "Deployment",
        &[(
            "/spec/template/spec/affinity",
            json!({"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 0, "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "zone"}}]}}),
        )],
        "spec.template.spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100",
    );
    create_fails(
        "Pod",
        &[(
            "/spec/topologySpreadConstraints",
            json!([{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"},
                   {"maxSkew": 2, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"}]),
        )],
        "spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: \"{zone, DoNotSchedule}\"",
    );
    // A valid template is accepted: a Deployment's matchLabelKeys on pod-template-hash.
    let mut sim = sim();
    sim.api
        .create(mutated(
            "Deployment",
            &[(
                tsc,
                json!([{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
                        "labelSelector": {"matchLabels": {"app": "web"}}, "matchLabelKeys": ["pod-template-hash"]}]),
            )],
        ))
        .unwrap();
    finish();
}
