//! Ports of upstream kubelet status tables: `getPhase` (pkg/kubelet/kubelet_pods_test.go), the
//! condition generators (pkg/kubelet/status/generate_test.go) and the container restart
//! back-off (client-go util/flowcontrol, kubelet.go's `HasExpiredFunc`).

use kubeplay::api::{
    Container, ContainerState, ContainerStateRunning, ContainerStateTerminated,
    ContainerStateWaiting, ContainerStatus, Duration, Pod, PodCondition, PodSpec, PodStatus, Time,
};
use kubeplay::kubelet_status::*;

// kubelet_pods_test.go's status builders.
fn st(name: &str, state: ContainerState) -> ContainerStatus {
    ContainerStatus {
        name: name.into(),
        state: Some(state),
        ..Default::default()
    }
}
fn term(code: i32) -> ContainerStateTerminated {
    ContainerStateTerminated {
        exit_code: code,
        ..Default::default()
    }
}
fn waiting_state(n: &str) -> ContainerStatus {
    st(
        n,
        ContainerState {
            waiting: Some(ContainerStateWaiting::default()),
            ..Default::default()
        },
    )
}
fn waiting_with_last(n: &str, code: i32) -> ContainerStatus {
    ContainerStatus {
        last_state: Some(ContainerState {
            terminated: Some(term(code)),
            ..Default::default()
        }),
        ..waiting_state(n)
    }
}
/// `waitingStateWithLastTermination` (last exit 0).
fn waiting_last0(n: &str) -> ContainerStatus {
    waiting_with_last(n, 0)
}
/// `waitingStateWithNonZeroTermination` (last exit -1).
fn waiting_last_nz(n: &str) -> ContainerStatus {
    waiting_with_last(n, -1)
}
fn running_state(n: &str) -> ContainerStatus {
    st(
        n,
        ContainerState {
            running: Some(ContainerStateRunning::default()),
            ..Default::default()
        },
    )
}
fn started_state(n: &str) -> ContainerStatus {
    ContainerStatus {
        started: Some(true),
        ..running_state(n)
    }
}
fn terminated(n: &str, code: i32) -> ContainerStatus {
    st(
        n,
        ContainerState {
            terminated: Some(term(code)),
            ..Default::default()
        },
    )
}
/// `stoppedState` and `succeededState` (exit 0).
fn stopped_state(n: &str) -> ContainerStatus {
    terminated(n, 0)
}
fn succeeded_state(n: &str) -> ContainerStatus {
    terminated(n, 0)
}
/// `failedState` (exit -1).
fn failed_state(n: &str) -> ContainerStatus {
    terminated(n, -1)
}

fn ctr(name: &str, sidecar: bool) -> Container {
    Container {
        name: name.into(),
        restart_policy: sidecar.then(|| "Always".to_string()),
        ..Default::default()
    }
}

/// `desiredState` of the tables: containers A and B, optionally init container X (a sidecar
/// when `sidecar_x`).
fn spec(policy: &str, init_x: bool, sidecar_x: bool) -> PodSpec {
    PodSpec {
        node_name: "machine".into(),
        init_containers: if init_x {
            vec![ctr("containerX", sidecar_x)]
        } else {
            vec![]
        },
        containers: vec![ctr("containerA", false), ctr("containerB", false)],
        restart_policy: policy.into(),
        ..Default::default()
    }
}

/// One row: statuses, podIsTerminal, podHasInitialized, expected phase, upstream's name.
type Row = (Vec<ContainerStatus>, bool, bool, &'static str, &'static str);

fn check(spec: &PodSpec, rows: Vec<Row>) {
    for (statuses, terminal, initialized, want, name) in rows {
        assert_eq!(
            get_phase(spec, &statuses, terminal, initialized),
            want,
            "[test {name}]"
        );
    }
}

// TestPodPhaseWithRestartAlways (pkg/kubelet/kubelet_pods_test.go)
#[test]
fn pod_phase_with_restart_always() {
    let (a, b) = ("containerA", "containerB");
    check(
        &spec("Always", false, false),
        vec![
            (vec![], false, false, "Pending", "waiting"),
            (
                vec![running_state(a), running_state(b)],
                false,
                false,
                "Running",
                "all running",
            ),
            (
                vec![stopped_state(a), stopped_state(b)],
                false,
                false,
                "Running",
                "all stopped with restart always",
            ),
            (
                vec![succeeded_state(a), succeeded_state(b)],
                true,
                false,
                "Succeeded",
                "all succeeded with restart always, but the pod is terminal",
            ),
            (
                vec![succeeded_state(a), failed_state(b)],
                true,
                false,
                "Failed",
                "all stopped with restart always, but the pod is terminal",
            ),
            (
                vec![running_state(a), stopped_state(b)],
                false,
                false,
                "Running",
                "mixed state #1 with restart always",
            ),
            (
                vec![running_state(a)],
                false,
                false,
                "Pending",
                "mixed state #2 with restart always",
            ),
            (
                vec![running_state(a), waiting_state(b)],
                false,
                false,
                "Pending",
                "mixed state #3 with restart always",
            ),
            (
                vec![running_state(a), waiting_last0(b)],
                false,
                false,
                "Running",
                "backoff crashloop container with restart always",
            ),
        ],
    );
}

/// The init-container tables share these rows (init container X, not restartable); only the
/// phase of a failed init container depends on the restart policy.
fn init_rows(failed: &'static str) -> Vec<Row> {
    let x = "containerX";
    vec![
        (vec![], false, false, "Pending", "empty, waiting"),
        (
            vec![running_state(x)],
            false,
            false,
            "Pending",
            "init container running",
        ),
        (
            vec![failed_state(x)],
            false,
            false,
            failed,
            "init container terminated non-zero",
        ),
        (
            vec![waiting_last0(x)],
            false,
            false,
            "Pending",
            "init container waiting, terminated zero",
        ),
        (
            vec![waiting_last_nz(x)],
            false,
            false,
            failed,
            "init container waiting, terminated non-zero",
        ),
        (
            vec![waiting_state(x)],
            false,
            false,
            "Pending",
            "init container waiting, not terminated",
        ),
        (
            vec![
                succeeded_state(x),
                running_state("containerA"),
                running_state("containerB"),
            ],
            false,
            false,
            "Running",
            "init container succeeded",
        ),
    ]
}

// TestPodPhaseWithRestartAlwaysInitContainers (pkg/kubelet/kubelet_pods_test.go)
#[test]
fn pod_phase_with_restart_always_init_containers() {
    check(&spec("Always", true, false), init_rows("Pending"));
}

// TestPodPhaseWithRestartNeverInitContainers (pkg/kubelet/kubelet_pods_test.go)
#[test]
fn pod_phase_with_restart_never_init_containers() {
    check(&spec("Never", true, false), init_rows("Failed"));
}

/// The first rows of both restartable-init-container tables (podIsTerminal false, the pod not
/// initialized).
fn sidecar_waiting_rows() -> Vec<Row> {
    let x = "containerX";
    vec![
        (vec![], false, false, "Pending", "empty, waiting"),
        (
            vec![running_state(x)],
            false,
            false,
            "Pending",
            "restartable init container running",
        ),
        (
            vec![stopped_state(x)],
            false,
            false,
            "Pending",
            "restartable init container stopped",
        ),
        (
            vec![waiting_last0(x)],
            false,
            false,
            "Pending",
            "restartable init container waiting, terminated zero",
        ),
        (
            vec![waiting_last_nz(x)],
            false,
            false,
            "Pending",
            "restartable init container waiting, terminated non-zero",
        ),
        (
            vec![waiting_state(x)],
            false,
            false,
            "Pending",
            "restartable init container waiting, not terminated",
        ),
    ]
}

// TestPodPhaseWithRestartAlwaysRestartableInitContainers (pkg/kubelet/kubelet_pods_test.go)
#[test]
fn pod_phase_with_restart_always_restartable_init_containers() {
    let (x, a, b) = ("containerX", "containerA", "containerB");
    let mut rows = sidecar_waiting_rows();
    rows.extend([
        (
            vec![started_state(x), running_state(a)],
            false,
            true,
            "Pending",
            "restartable init container started, 1/2 regular container running",
        ),
        (
            vec![started_state(x), running_state(a), running_state(b)],
            false,
            true,
            "Running",
            "restartable init container started, all regular containers running",
        ),
        (
            vec![running_state(x), running_state(a), running_state(b)],
            false,
            true,
            "Running",
            "restartable init container running, all regular containers running",
        ),
        (
            vec![stopped_state(x), running_state(a), running_state(b)],
            false,
            true,
            "Running",
            "restartable init container stopped, all regular containers running",
        ),
        (
            vec![waiting_last0(x), running_state(a), running_state(b)],
            false,
            true,
            "Running",
            "backoff crashloop restartable init container, all regular containers running",
        ),
        (
            vec![failed_state(x), succeeded_state(a), succeeded_state(b)],
            true,
            true,
            "Succeeded",
            "all regular containers succeeded and restartable init container failed with restart always, but the pod is terminal",
        ),
        (
            vec![succeeded_state(x), succeeded_state(a), succeeded_state(b)],
            true,
            true,
            "Succeeded",
            "all regular containers succeeded and restartable init container succeeded with restart always, but the pod is terminal",
        ),
        (
            vec![running_state(x), running_state(a), running_state(b)],
            false,
            false,
            "Pending",
            "re-initializing the pod after the sandbox is recreated",
        ),
    ]);
    check(&spec("Always", true, true), rows);
}

// TestPodPhaseWithRestartAlwaysAndPodHasRun (pkg/kubelet/kubelet_pods_test.go)
#[test]
fn pod_phase_with_restart_always_and_pod_has_run() {
    let spec = PodSpec {
        node_name: "machine".into(),
        init_containers: vec![ctr("containerX", false), ctr("containerY", true)],
        containers: vec![ctr("containerA", false)],
        restart_policy: "Always".into(),
        ..Default::default()
    };
    let (x, y, a) = ("containerX", "containerY", "containerA");
    check(
        &spec,
        vec![
            (
                vec![running_state(x), running_state(y), running_state(a)],
                false,
                false,
                "Pending",
                "regular init containers, restartable init container and regular container are all running",
            ),
            (
                vec![running_state(x), running_state(y), stopped_state(a)],
                false,
                false,
                "Pending",
                "regular containers is stopped, restartable init container and regular int container are both running",
            ),
            (
                vec![succeeded_state(x), running_state(y), stopped_state(a)],
                false,
                false,
                "Pending",
                "re-created sandbox: regular init container is succeeded, restartable init container is running, old regular containers is stopped",
            ),
            (
                vec![succeeded_state(x), running_state(y), stopped_state(a)],
                false,
                true,
                "Running",
                "regular init container is succeeded, restartable init container is running, regular containers is stopped",
            ),
            (
                vec![succeeded_state(x), running_state(y), running_state(a)],
                false,
                true,
                "Running",
                "regular init container is succeeded, restartable init container and regular containers are both running",
            ),
        ],
    );
}

// TestPodPhaseWithRestartNever (pkg/kubelet/kubelet_pods_test.go)
#[test]
fn pod_phase_with_restart_never() {
    let (a, b) = ("containerA", "containerB");
    check(
        &spec("Never", false, false),
        vec![
            (vec![], false, false, "Pending", "waiting"),
            (
                vec![running_state(a), running_state(b)],
                false,
                false,
                "Running",
                "all running with restart never",
            ),
            (
                vec![succeeded_state(a), succeeded_state(b)],
                false,
                false,
                "Succeeded",
                "all succeeded with restart never",
            ),
            (
                vec![failed_state(a), failed_state(b)],
                false,
                false,
                "Failed",
                "all failed with restart never",
            ),
            (
                vec![running_state(a), succeeded_state(b)],
                false,
                false,
                "Running",
                "mixed state #1 with restart never",
            ),
            (
                vec![running_state(a)],
                false,
                false,
                "Pending",
                "mixed state #2 with restart never",
            ),
            (
                vec![running_state(a), waiting_state(b)],
                false,
                false,
                "Pending",
                "mixed state #3 with restart never",
            ),
        ],
    );
}

// TestPodPhaseWithRestartNeverRestartableInitContainers (pkg/kubelet/kubelet_pods_test.go)
#[test]
fn pod_phase_with_restart_never_restartable_init_containers() {
    let (x, a, b) = ("containerX", "containerA", "containerB");
    let mut rows = sidecar_waiting_rows();
    rows.extend([
        (
            vec![started_state(x), running_state(a)],
            false,
            true,
            "Pending",
            "restartable init container started, one main container running",
        ),
        (
            vec![started_state(x), succeeded_state(a), succeeded_state(b)],
            false,
            true,
            "Running",
            "restartable init container started, main containers succeeded",
        ),
        (
            vec![running_state(x), succeeded_state(a), succeeded_state(b)],
            false,
            true,
            "Running",
            "restartable init container re-running, main containers succeeded",
        ),
        (
            vec![succeeded_state(x), succeeded_state(a), succeeded_state(b)],
            false,
            true,
            "Succeeded",
            "all containers succeeded",
        ),
        (
            vec![failed_state(x), succeeded_state(a), succeeded_state(b)],
            false,
            true,
            "Succeeded",
            "restartable init container terminated non-zero, main containers succeeded",
        ),
        (
            vec![waiting_last0(x), succeeded_state(a), succeeded_state(b)],
            false,
            true,
            "Succeeded",
            "backoff crashloop restartable init container, main containers succeeded",
        ),
        (
            vec![waiting_last_nz(x), succeeded_state(a), succeeded_state(b)],
            false,
            true,
            "Succeeded",
            "backoff crashloop with non-zero restartable init container, main containers succeeded",
        ),
    ]);
    check(&spec("Never", true, true), rows);
}

// TestPodPhaseWithRestartOnFailure (pkg/kubelet/kubelet_pods_test.go)
#[test]
fn pod_phase_with_restart_on_failure() {
    let (a, b) = ("containerA", "containerB");
    check(
        &spec("OnFailure", false, false),
        vec![
            (vec![], false, false, "Pending", "waiting"),
            (
                vec![running_state(a), running_state(b)],
                false,
                false,
                "Running",
                "all running with restart onfailure",
            ),
            (
                vec![succeeded_state(a), succeeded_state(b)],
                false,
                false,
                "Succeeded",
                "all succeeded with restart onfailure",
            ),
            (
                vec![failed_state(a), failed_state(b)],
                false,
                false,
                "Running",
                "all failed with restart never",
            ),
            (
                vec![running_state(a), succeeded_state(b)],
                false,
                false,
                "Running",
                "mixed state #1 with restart onfailure",
            ),
            (
                vec![running_state(a)],
                false,
                false,
                "Pending",
                "mixed state #2 with restart onfailure",
            ),
            (
                vec![running_state(a), waiting_state(b)],
                false,
                false,
                "Pending",
                "mixed state #3 with restart onfailure",
            ),
            (
                vec![running_state(a), waiting_last0(b)],
                false,
                false,
                "Running",
                "backoff crashloop container with restart onfailure",
            ),
        ],
    );
}

// ---------------------------------------------------------------------------------------------
// pkg/kubelet/status/generate_test.go
// ---------------------------------------------------------------------------------------------

fn pod_with(init: &[(&str, bool)], containers: &[&str], gates: &[&str]) -> Pod {
    let mut pod = Pod::default();
    let s = pod.spec_mut();
    s.init_containers = init.iter().map(|(n, sc)| ctr(n, *sc)).collect();
    s.containers = containers.iter().map(|n| ctr(n, false)).collect();
    if !gates.is_empty() {
        let gates: Vec<_> = gates
            .iter()
            .map(|g| serde_json::json!({ "conditionType": g }))
            .collect();
        s.extra.insert("readinessGates".into(), gates.into());
    }
    pod
}
fn ready_status(n: &str) -> ContainerStatus {
    ContainerStatus {
        name: n.into(),
        ready: true,
        ..Default::default()
    }
}
fn not_ready_status(n: &str) -> ContainerStatus {
    ContainerStatus {
        name: n.into(),
        ..Default::default()
    }
}
fn started_status(n: &str, started: bool) -> ContainerStatus {
    ContainerStatus {
        name: n.into(),
        started: Some(started),
        ..Default::default()
    }
}
/// `getPodCondition`: type, status, reason, message.
fn cond(t: &str, status: &str, reason: &str, message: &str) -> PodCondition {
    PodCondition {
        type_: t.into(),
        status: status.into(),
        reason: reason.into(),
        message: message.into(),
        ..Default::default()
    }
}

type CondRow = (
    Pod,
    Option<Vec<ContainerStatus>>,
    &'static str,
    (&'static str, &'static str, &'static str),
);

/// The rows TestGenerateContainersReadyCondition and TestGeneratePodReadyCondition share (no
/// readiness gates): PodReady copies a non-True ContainersReady.
fn containers_ready_rows() -> Vec<CondRow> {
    let two = || pod_with(&[], &["1234", "5678"], &[]);
    vec![
        (
            pod_with(&[], &[], &[]),
            None,
            "Running",
            ("False", "UnknownContainerStatuses", ""),
        ),
        (
            pod_with(&[], &[], &[]),
            Some(vec![]),
            "Running",
            ("True", "", ""),
        ),
        (
            pod_with(&[], &["1234"], &[]),
            Some(vec![]),
            "Running",
            (
                "False",
                "ContainersNotReady",
                "containers with unknown status: [1234]",
            ),
        ),
        (
            two(),
            Some(vec![ready_status("1234"), ready_status("5678")]),
            "Running",
            ("True", "", ""),
        ),
        (
            two(),
            Some(vec![ready_status("1234")]),
            "Running",
            (
                "False",
                "ContainersNotReady",
                "containers with unknown status: [5678]",
            ),
        ),
        (
            two(),
            Some(vec![ready_status("1234"), not_ready_status("5678")]),
            "Running",
            (
                "False",
                "ContainersNotReady",
                "containers with unready status: [5678]",
            ),
        ),
        (
            pod_with(&[], &["1234"], &[]),
            Some(vec![not_ready_status("1234")]),
            "Succeeded",
            ("False", "PodCompleted", ""),
        ),
    ]
}

// TestGenerateContainersReadyCondition (pkg/kubelet/status/generate_test.go)
#[test]
fn generate_containers_ready_condition_table() {
    let r1 = ("restartable-init-1", true);
    let r2 = ("restartable-init-2", true);
    let mut rows = containers_ready_rows();
    rows.extend([
        (
            pod_with(&[r1], &["regular-1"], &[]),
            Some(vec![ready_status("regular-1")]),
            "Running",
            (
                "False",
                "ContainersNotReady",
                "containers with unknown status: [restartable-init-1]",
            ),
        ),
        (
            pod_with(&[r1, r2], &["regular-1"], &[]),
            Some(vec![
                ready_status("restartable-init-1"),
                ready_status("restartable-init-2"),
                ready_status("regular-1"),
            ]),
            "Running",
            ("True", "", ""),
        ),
        (
            pod_with(&[r1, r2], &["regular-1"], &[]),
            Some(vec![
                ready_status("restartable-init-1"),
                ready_status("regular-1"),
            ]),
            "Running",
            (
                "False",
                "ContainersNotReady",
                "containers with unknown status: [restartable-init-2]",
            ),
        ),
        (
            pod_with(&[r1, r2], &["regular-1"], &[]),
            Some(vec![
                ready_status("restartable-init-1"),
                not_ready_status("restartable-init-2"),
                ready_status("regular-1"),
            ]),
            "Running",
            (
                "False",
                "ContainersNotReady",
                "containers with unready status: [restartable-init-2]",
            ),
        ),
    ]);
    for (i, (pod, statuses, phase, (s, r, m))) in rows.into_iter().enumerate() {
        let got = generate_containers_ready_condition(&pod, statuses.as_deref(), phase);
        assert_eq!(got, cond("ContainersReady", s, r, m), "case {i}");
    }
}

// TestGeneratePodReadyCondition (pkg/kubelet/status/generate_test.go)
#[test]
fn generate_pod_ready_condition_table() {
    let g1 = || pod_with(&[], &[], &["gate1"]);
    let g12 = || pod_with(&[], &[], &["gate1", "gate2"]);
    let mut rows: Vec<(CondRow, Vec<PodCondition>)> = containers_ready_rows()
        .into_iter()
        .map(|r| (r, vec![]))
        .collect();
    let gate = |t: &str, s: &str| cond(t, s, "", "");
    let running =
        |pod: Pod, statuses: Vec<ContainerStatus>, want| (pod, Some(statuses), "Running", want);
    rows.extend([
        (
            running(
                g1(),
                vec![],
                (
                    "False",
                    "ReadinessGatesNotReady",
                    r#"corresponding condition of pod readiness gate "gate1" does not exist."#,
                ),
            ),
            vec![],
        ),
        (
            running(
                g1(),
                vec![],
                (
                    "False",
                    "ReadinessGatesNotReady",
                    r#"the status of pod readiness gate "gate1" is not "True", but False"#,
                ),
            ),
            vec![gate("gate1", "False")],
        ),
        (
            running(g1(), vec![], ("True", "", "")),
            vec![gate("gate1", "True")],
        ),
        (
            running(
                g12(),
                vec![],
                (
                    "False",
                    "ReadinessGatesNotReady",
                    r#"corresponding condition of pod readiness gate "gate2" does not exist."#,
                ),
            ),
            vec![gate("gate1", "True")],
        ),
        (
            running(
                g12(),
                vec![],
                (
                    "False",
                    "ReadinessGatesNotReady",
                    r#"the status of pod readiness gate "gate2" is not "True", but False"#,
                ),
            ),
            vec![gate("gate1", "True"), gate("gate2", "False")],
        ),
        (
            running(g12(), vec![], ("True", "", "")),
            vec![gate("gate1", "True"), gate("gate2", "True")],
        ),
        (
            running(
                pod_with(&[], &["1234"], &["gate1"]),
                vec![not_ready_status("1234")],
                (
                    "False",
                    "ContainersNotReady",
                    "containers with unready status: [1234]",
                ),
            ),
            vec![gate("gate1", "True")],
        ),
    ]);
    for (i, ((pod, statuses, phase, (s, r, m)), conds)) in rows.into_iter().enumerate() {
        let got = generate_pod_ready_condition(&pod, &conds, statuses.as_deref(), phase);
        assert_eq!(got, cond("Ready", s, r, m), "case {i}");
    }
}

// TestGeneratePodInitializedCondition (pkg/kubelet/status/generate_test.go); upstream compares
// type, status and reason.
#[test]
fn generate_pod_initialized_condition_table() {
    let none = || pod_with(&[], &[], &[]);
    let one = || pod_with(&[("1234", false)], &["regular"], &[]);
    let two = || pod_with(&[("1234", false), ("5678", false)], &["regular"], &[]);
    let one_sidecar = || pod_with(&[("1234", true)], &["regular"], &[]);
    let ni = "ContainersNotInitialized";
    type InitRow = (
        Pod,
        Option<Vec<ContainerStatus>>,
        &'static str,
        &'static str,
        &'static str,
    );
    let rows: Vec<InitRow> = vec![
        (two(), None, "Running", "False", "UnknownContainerStatuses"),
        (none(), Some(vec![]), "Running", "True", ""),
        (one(), Some(vec![]), "Running", "False", ni),
        (
            two(),
            Some(vec![ready_status("1234"), ready_status("5678")]),
            "Running",
            "True",
            "",
        ),
        (
            two(),
            Some(vec![ready_status("1234")]),
            "Running",
            "False",
            ni,
        ),
        (
            two(),
            Some(vec![ready_status("1234"), not_ready_status("5678")]),
            "Running",
            "False",
            ni,
        ),
        (
            one(),
            Some(vec![ready_status("1234")]),
            "Succeeded",
            "True",
            "PodCompleted",
        ),
        (
            one_sidecar(),
            Some(vec![started_status("1234", false)]),
            "Pending",
            "False",
            ni,
        ),
        (
            one_sidecar(),
            Some(vec![started_status("1234", true)]),
            "Running",
            "True",
            "",
        ),
        (
            one_sidecar(),
            Some(vec![
                started_status("1234", false),
                running_state("regular"),
            ]),
            "Running",
            "True",
            "",
        ),
        (
            one(),
            Some(vec![waiting_state("1234"), terminated("regular", 0)]),
            "Running",
            "True",
            "",
        ),
    ];
    for (i, (pod, statuses, phase, s, r)) in rows.into_iter().enumerate() {
        let got = generate_pod_initialized_condition(&pod, statuses.as_deref(), phase);
        assert_eq!(
            (got.type_.as_str(), got.status.as_str(), got.reason.as_str()),
            ("Initialized", s, r),
            "case {i}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Container restart back-off
// ---------------------------------------------------------------------------------------------

fn secs(s: i64) -> Time {
    Time(s * 1000)
}

/// `NewFakeBackOff(step, max, clock)` of client-go's backoff_test.go (no jitter).
fn fake(step: i64, max: i64) -> BackoffPolicy {
    BackoffPolicy {
        initial: Duration::from_secs(step),
        max: Duration::from_secs(max),
        reset_after: Duration::from_secs(2 * max),
    }
}

// TestSlowBackoff (client-go util/flowcontrol/backoff_test.go): Get() before each Next() one
// step apart: 0, 1, 2, 4, ... capped at 50.
#[test]
fn slow_backoff() {
    let b = fake(1, 50);
    let mut e: Option<BackoffEntry> = None;
    for (ix, want) in [0, 1, 2, 4, 8, 16, 32, 50, 50, 50].into_iter().enumerate() {
        let t = secs(ix as i64 + 1);
        assert_eq!(e.map_or(0, |e| e.0.as_millis() / 1000), want, "input {ix}");
        e = Some(b.next(e, t, t));
    }
}

// TestBackoffHightWaterMark (client-go util/flowcontrol/backoff_test.go): at the cap, a Next()
// max + step later (less than 2 × max) keeps the period at the cap.
#[test]
fn backoff_high_water_mark() {
    let b = fake(1, 5);
    let (mut e, mut t) = (None, secs(0));
    for _ in 0..=5 {
        t = t + Duration::from_secs(1);
        e = Some(b.next(e, t, t));
    }
    t = t + Duration::from_secs(6);
    assert_eq!(b.next(e, t, t).0, Duration::from_secs(5));
}

// TestIsInBackOffSinceUpdate (client-go util/flowcontrol/backoff_test.go): ticks of one second
// from the start; Next() whenever not in back-off; the entry expires after 2 × max (20 s).
#[test]
fn is_in_backoff_since_update() {
    let b = fake(1, 10);
    let mut rows: Vec<(i64, bool, i64)> = vec![
        (0, false, 0),
        (1, false, 1),
        (2, true, 2),
        (3, false, 2),
        (4, true, 4),
        (5, true, 4),
        (6, true, 4),
        (7, false, 4),
    ];
    rows.extend((8..=14).map(|t| (t, true, 8)));
    rows.push((15, false, 8));
    rows.extend((16..=24).map(|t| (t, true, 10)));
    rows.push((25, false, 10));
    rows.extend((26..=34).map(|t| (t, true, 10)));
    rows.extend([(35, false, 10), (56, false, 0), (57, false, 1)]);
    let mut e: Option<BackoffEntry> = None;
    for (tick, in_backoff, value) in rows {
        let now = secs(tick);
        assert_eq!(
            b.is_in_backoff_since_update(e, now),
            in_backoff,
            "tick {tick}"
        );
        if in_backoff {
            assert_eq!(e.unwrap().0, Duration::from_secs(value), "tick {tick}");
        } else {
            e = Some(b.next(e, now, now));
        }
    }
}

// TestSyncPodBackoff (pkg/kubelet/dockertools/docker_manager_test.go, the pre-CRI runtime;
// kuberuntime's doBackOff keeps its logic): a crashing container synced at each tick with a
// 1 s / 60 s back-off: in back-off while `IsInBackOffSince(finishedAt)`, else `Next(finishedAt)`
// and a start, after which the container finishes at `killDelay`. At tick 130 the entry (last
// `Next` at 8) is older than 2 × max at the exit (129): it starts over at 1 s.
#[test]
fn sync_pod_backoff() {
    let b = fake(1, 60);
    // tick, backoff, killDelay, started
    let rows = [
        (1, 1, 1, true),
        (2, 2, 2, true),
        (3, 2, 3, false),
        (4, 4, 4, true),
        (5, 4, 5, false),
        (6, 4, 6, false),
        (7, 4, 7, false),
        (8, 8, 129, true),
        (130, 1, 0, true),
    ];
    let (mut e, mut finished) = (None, secs(0));
    for (tick, backoff, kill_delay, started) in rows {
        let now = secs(tick);
        let in_backoff = b.is_in_backoff_since(e, finished, now);
        if !in_backoff {
            e = Some(b.next(e, finished, now));
        }
        assert_eq!(!in_backoff, started, "tick {tick}");
        assert_eq!(e.unwrap().0, Duration::from_secs(backoff), "tick {tick}");
        if started {
            finished = secs(kill_delay);
        }
    }
}

/// The kubelet's container back-off (kubelet.go: `flowcontrol.NewBackOff(10 s, 300 s)` with a
/// `HasExpiredFunc` of "more than 600 s from the last `Next` to the event"): kuberuntime's
/// `doBackOff` is in back-off while less than the period has passed since the exit; an exit
/// more than 10 minutes after the last restart starts over. `lastUpdate` is the time of
/// `Next` (the restart), not the exit.
#[test]
fn container_backoff_resets_ten_minutes_after_the_last_restart() {
    let mut e = None;
    let mut seen = vec![];
    for i in 0..8 {
        let t = secs(i);
        e = Some(backoff_next(e, t, t));
        seen.push(e.unwrap().0.as_millis() / 1000);
    }
    assert_eq!(seen, [10, 20, 40, 80, 160, 300, 300, 300]);
    assert!(!is_in_backoff_since(None, secs(100), secs(100)));
    let e = backoff_next(None, secs(100), secs(100));
    assert!(is_in_backoff_since(Some(e), secs(100), secs(109)));
    assert!(!is_in_backoff_since(Some(e), secs(100), secs(110)));
    // Restarted at 1000 s after exiting at 700 s: lastUpdate is 1000 s.
    let e = backoff_next(
        Some((Duration::from_secs(300), secs(400))),
        secs(700),
        secs(1000),
    );
    assert_eq!(e, (Duration::from_secs(300), secs(1000)));
    // Exits at 1600 s (600 s after the restart): not expired, the period stays at the cap.
    assert!(is_in_backoff_since(Some(e), secs(1600), secs(1600)));
    assert_eq!(
        backoff_next(Some(e), secs(1600), secs(1900)).0,
        MAX_CONTAINER_BACKOFF
    );
    // Exits at 1601 s: expired, no back-off and Next starts over.
    assert!(!is_in_backoff_since(Some(e), secs(1601), secs(1601)));
    assert_eq!(
        backoff_next(Some(e), secs(1601), secs(1601)).0,
        BACKOFF_INITIAL
    );
}

// ---------------------------------------------------------------------------------------------
// pkg/kubelet/status/status_manager_test.go
// ---------------------------------------------------------------------------------------------

/// `getPodStatus`: Running, Ready and PodScheduled True, message "Message".
fn base_status() -> PodStatus {
    PodStatus {
        phase: "Running".into(),
        conditions: vec![
            cond("Ready", "True", "", ""),
            cond("PodScheduled", "True", "", ""),
        ],
        message: "Message".into(),
        ..Default::default()
    }
}

fn with_cond(mut s: PodStatus, t: &str, status: &str, reason: &str) -> PodStatus {
    s.conditions.push(cond(t, status, reason, ""));
    s
}

fn failed(mut s: PodStatus) -> PodStatus {
    s.phase = "Failed".into();
    s
}

/// `conditionsEqual` + `statusEqual`: conditions compared by type, status and reason in any
/// order; the rest of the status exactly.
fn assert_merged(got: &PodStatus, want: (&str, &[(&str, &str, &str)], &str, &str), desc: &str) {
    let (phase, conds, reason, message) = want;
    assert_eq!(
        (
            got.phase.as_str(),
            got.reason.as_str(),
            got.message.as_str()
        ),
        (phase, reason, message),
        "{desc}"
    );
    assert_eq!(
        got.conditions.len(),
        conds.len(),
        "{desc}: {:?}",
        got.conditions
    );
    for (t, s, r) in conds {
        let c = got.conditions.iter().find(|c| c.type_ == *t);
        assert!(
            c.is_some_and(|c| c.status == *s && c.reason == *r),
            "{desc}: {t} in {:?}",
            got.conditions
        );
    }
}

// TestMergePodStatus (pkg/kubelet/status/status_manager_test.go)
#[test]
fn merge_pod_status_table() {
    let now = secs(1000);
    let dt = |s: PodStatus, r: &str| with_cond(s, "DisruptionTarget", "True", r);
    let feature = |s: PodStatus, st: &str| with_cond(s, "example.com/feature", st, "");
    let not_ready = |mut s: PodStatus| {
        s.conditions[0].status = "False".into();
        s
    };
    let ready_sched: &[(&str, &str, &str)] = &[("Ready", "True", ""), ("PodScheduled", "True", "")];
    let failed_conds = |extra: Option<(&'static str, &'static str, &'static str)>| {
        let mut v = vec![
            ("Ready", "False", "PodFailed"),
            ("ContainersReady", "False", "PodFailed"),
            ("PodScheduled", "True", ""),
        ];
        v.extend(extra);
        v
    };
    let evicted = |mut s: PodStatus, phase: &str, reason: &str, msg: &str| {
        s.phase = phase.into();
        s.reason = reason.into();
        s.message = msg.into();
        s
    };
    let b = base_status;
    type Want = (
        &'static str,
        Vec<(&'static str, &'static str, &'static str)>,
        &'static str,
        &'static str,
    );
    let cases: Vec<(&str, bool, PodStatus, PodStatus, Want)> = vec![
        ("no change", false, b(), b(), ("Running", ready_sched.to_vec(), "", "Message")),
        (
            "add DisruptionTarget condition when transitioning into failed phase",
            false,
            b(),
            dt(failed(b()), "TerminationByKubelet"),
            (
                "Failed",
                failed_conds(Some(("DisruptionTarget", "True", "TerminationByKubelet"))),
                "",
                "Message",
            ),
        ),
        (
            "don't add DisruptionTarget condition when transitioning into failed phase, but there might still be running containers",
            true,
            b(),
            dt(failed(b()), "TerminationByKubelet"),
            ("Running", ready_sched.to_vec(), "", "Message"),
        ),
        (
            "preserve DisruptionTarget condition",
            false,
            dt(b(), "TerminationByKubelet"),
            b(),
            (
                "Running",
                [ready_sched, &[("DisruptionTarget", "True", "TerminationByKubelet")]].concat(),
                "",
                "Message",
            ),
        ),
        (
            "override DisruptionTarget condition",
            false,
            dt(b(), "EvictedByEvictionAPI"),
            dt(failed(b()), "TerminationByKubelet"),
            (
                "Failed",
                failed_conds(Some(("DisruptionTarget", "True", "TerminationByKubelet"))),
                "",
                "Message",
            ),
        ),
        (
            "don't override DisruptionTarget condition when remaining in running phase",
            false,
            dt(b(), "EvictedByEvictionAPI"),
            dt(b(), "TerminationByKubelet"),
            (
                "Running",
                [ready_sched, &[("DisruptionTarget", "True", "EvictedByEvictionAPI")]].concat(),
                "",
                "Message",
            ),
        ),
        (
            "don't override DisruptionTarget condition when transitioning to failed phase but there might still be running containers",
            true,
            dt(b(), "EvictedByEvictionAPI"),
            dt(failed(b()), "TerminationByKubelet"),
            (
                "Running",
                [ready_sched, &[("DisruptionTarget", "True", "EvictedByEvictionAPI")]].concat(),
                "",
                "Message",
            ),
        ),
        (
            "readiness changes",
            false,
            b(),
            not_ready(b()),
            (
                "Running",
                vec![("Ready", "False", ""), ("PodScheduled", "True", "")],
                "",
                "Message",
            ),
        ),
        (
            "additional pod condition",
            false,
            feature(b(), "True"),
            b(),
            (
                "Running",
                [ready_sched, &[("example.com/feature", "True", "")]].concat(),
                "",
                "Message",
            ),
        ),
        (
            "additional pod condition and readiness changes",
            false,
            feature(b(), "True"),
            not_ready(b()),
            (
                "Running",
                vec![
                    ("Ready", "False", ""),
                    ("PodScheduled", "True", ""),
                    ("example.com/feature", "True", ""),
                ],
                "",
                "Message",
            ),
        ),
        (
            "additional pod condition changes",
            false,
            feature(b(), "True"),
            feature(b(), "False"),
            (
                "Running",
                [ready_sched, &[("example.com/feature", "True", "")]].concat(),
                "",
                "Message",
            ),
        ),
        (
            "phase is transitioning to failed and no containers running",
            false,
            evicted(b(), "Running", "Unknown", "Message"),
            evicted(b(), "Failed", "Evicted", "Was Evicted"),
            ("Failed", failed_conds(None), "Evicted", "Was Evicted"),
        ),
        (
            "phase is transitioning to failed and containers running",
            true,
            evicted(b(), "Running", "Unknown", "Message"),
            evicted(b(), "Failed", "Evicted", "Was Evicted"),
            ("Running", ready_sched.to_vec(), "Unknown", "Message"),
        ),
    ];
    for (desc, running, old, new, (phase, conds, reason, message)) in cases {
        let got = merge_pod_status(&old, &new, running, now);
        assert_merged(&got, (phase, &conds, reason, message), desc);
    }
}
