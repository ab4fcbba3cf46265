//! apps/v1 validation through the `kubeplay kubectl ... -- apply|create -f FILE` path: the same
//! field errors as the API-level tables (pkg/apis/apps/validation/validation.go), after the
//! v1 defaults and the REST strategies' PrepareForCreate have run.

use std::process::Command;

fn kubeplay(args: &[&str]) -> (String, String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_kubeplay"))
        .args(args)
        .output()
        .expect("run kubeplay");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.success(),
    )
}

/// Runs `kubectl VERB -f FILE` on the cronjob-hello scenario with `manifest` in FILE.
fn kubectl_f(tag: &str, verb: &str, manifest: &str) -> (String, String, bool) {
    let dir = std::env::temp_dir().join(format!("kubeplay-apps-val-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("m.yaml");
    std::fs::write(&path, manifest).unwrap();
    let r = kubeplay(&[
        "kubectl",
        "cronjob-hello",
        "--",
        verb,
        "-f",
        path.to_str().unwrap(),
    ]);
    std::fs::remove_dir_all(&dir).ok();
    r
}

fn deployment(strategy: &str, extra_spec: &str) -> String {
    format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n{extra_spec}  selector:\n    matchLabels:\n      app: web\n  strategy:\n{strategy}  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: c\n        image: nginx\n"
    )
}

fn assert_invalid(r: (String, String, bool), kind: &str, want: &[&str]) {
    let (out, err, ok) = r;
    assert!(!ok, "expected failure: {out}");
    assert!(
        err.contains(&format!("The {kind} ")) && err.contains(" is invalid"),
        "{err}"
    );
    for w in want {
        assert!(err.contains(w), "missing {w:?} in:\n{err}");
    }
}

// ValidateRollingUpdateDeployment through apply and create: a maxUnavailable percent beyond
// int64 (strconv.Atoi's ErrRange value math.MaxInt64) is "greater than 100%"; both values zero.
#[test]
fn deployment_rolling_update_errors_through_apply_and_create() {
    let huge = deployment(
        "    type: RollingUpdate\n    rollingUpdate:\n      maxSurge: 1\n      maxUnavailable: \"99999999999999999999%\"\n",
        "",
    );
    for verb in ["apply", "create"] {
        assert_invalid(
            kubectl_f("huge", verb, &huge),
            "Deployment",
            &["spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"99999999999999999999%\": must not be greater than 100%"],
        );
    }
    let zero = deployment(
        "    type: RollingUpdate\n    rollingUpdate:\n      maxSurge: \"0%\"\n      maxUnavailable: 0\n",
        "",
    );
    assert_invalid(
        kubectl_f("zero", "apply", &zero),
        "Deployment",
        &["spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0"],
    );
    // A maxSurge percent beyond int64 is not zero: maxUnavailable 0 is then allowed.
    let surge = deployment(
        "    type: RollingUpdate\n    rollingUpdate:\n      maxSurge: \"99999999999999999999%\"\n      maxUnavailable: 0\n",
        "",
    );
    let (out, err, ok) = kubectl_f("surge", "create", &surge);
    assert!(ok, "{err}");
    assert_eq!(out, "deployment.apps/web created\n");
}

// progressDeadlineSeconds ≤ minReadySeconds and a negative revisionHistoryLimit, after
// defaulting (the defaulted maxSurge/maxUnavailable 25% are valid).
#[test]
fn deployment_spec_errors_through_apply() {
    let d = deployment(
        "    type: RollingUpdate\n",
        "  minReadySeconds: 30\n  progressDeadlineSeconds: 30\n  revisionHistoryLimit: -1\n",
    );
    assert_invalid(
        kubectl_f("pds", "apply", &d),
        "Deployment",
        &[
            "spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0",
            "spec.progressDeadlineSeconds: Invalid value: 30: must be greater than minReadySeconds",
        ],
    );
}

// ValidateStatefulSetSpec through create: `spec.ordinals.start` (one path element) and the
// forbidden restart policy.
#[test]
fn stateful_set_errors_through_create() {
    let s = "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: db\nspec:\n  serviceName: db\n  ordinals:\n    start: -1\n  selector:\n    matchLabels:\n      app: db\n  template:\n    metadata:\n      labels:\n        app: db\n    spec:\n      restartPolicy: OnFailure\n      containers:\n      - name: c\n        image: nginx\n";
    assert_invalid(
        kubectl_f("sts", "create", s),
        "StatefulSet",
        &[
            "spec.ordinals.start: Invalid value: -1: must be greater than or equal to 0",
            "spec.template.spec.restartPolicy: Unsupported value: \"OnFailure\": supported values: \"Always\"",
        ],
    );
}

// ValidateRollingUpdateDaemonSet through apply: maxSurge over 100%, and both values set.
#[test]
fn daemon_set_rolling_update_errors_through_apply() {
    let ds = |ru: &str| {
        format!("apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: agent\nspec:\n  selector:\n    matchLabels:\n      app: agent\n  updateStrategy:\n    type: RollingUpdate\n    rollingUpdate:\n{ru}  template:\n    metadata:\n      labels:\n        app: agent\n    spec:\n      containers:\n      - name: c\n        image: nginx\n")
    };
    assert_invalid(
        kubectl_f(
            "ds1",
            "apply",
            &ds("      maxSurge: \"101%\"\n      maxUnavailable: 0\n"),
        ),
        "DaemonSet",
        &["spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: \"101%\": must not be greater than 100%"],
    );
    assert_invalid(
        kubectl_f(
            "ds2",
            "apply",
            &ds("      maxSurge: 1\n      maxUnavailable: 1\n"),
        ),
        "DaemonSet",
        &["spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero"],
    );
}

// An int32 field beyond its range never reaches validation: the v1 decoder refuses the body
// (BadRequest, `json: cannot unmarshal number ... of type int32`), on create as upstream.
#[test]
fn int32_overflow_is_a_decode_error() {
    let d = deployment("    type: Recreate\n", "").replace("replicas: 2", "replicas: 2147483648");
    let (_, err, ok) = kubectl_f("i32", "apply", &d);
    assert!(!ok);
    assert!(
        err.contains("Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal number 2147483648 into Go struct field DeploymentSpec.spec.replicas of type int32"),
        "{err}"
    );
    let d = deployment("    type: Recreate\n", "").replace("replicas: 2", "replicas: -2147483648");
    assert_invalid(
        kubectl_f("i32min", "create", &d),
        "Deployment",
        &["spec.replicas: Invalid value: -2147483648: must be greater than or equal to 0"],
    );
}
