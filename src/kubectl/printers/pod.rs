//! The Pod table: `printPod` from `pkg/printers/internalversion/printers.go`, including the
//! STATUS logic (Init:x/y, Init:Reason, container reasons, Completed vs Running/NotReady,
//! Terminating, Unknown for NodeLost) and RESTARTS with the last restart's age.

use super::{translate_timestamp_since, PrintOptions};
use crate::api::{human_duration, ContainerStatus, Object, Pod, Time};
use crate::kubectl::table::Column;
use crate::sort::CollectBTreeMap as _;
use serde_json::Value;
use std::collections::BTreeMap;

pub const COLUMNS: &[Column] = &[
    Column::name("Name"),
    Column::std("Ready"),
    Column::std("Status"),
    Column::std("Restarts"),
    Column::std("Age"),
    Column::wide("IP"),
    Column::wide("Node"),
    Column::wide("Nominated Node"),
    Column::wide("Readiness Gates"),
];

/// `node.NodeUnreachablePodReason`.
const NODE_UNREACHABLE_POD_REASON: &str = "NodeLost";

pub fn row(o: &Object, opts: &PrintOptions) -> Vec<String> {
    match o {
        Object::Pod(p) => pod_row(p, opts),
        _ => vec![],
    }
}

fn is_restartable(c: Option<&crate::api::Container>) -> bool {
    c.is_some_and(|c| c.restart_policy.as_deref() == Some("Always"))
}

fn last_finished(cs: &ContainerStatus) -> Option<Time> {
    cs.last_state
        .as_ref()
        .and_then(|s| s.terminated.as_ref())
        .and_then(|t| t.finished_at)
}

fn later(cur: Option<Time>, t: Option<Time>) -> Option<Time> {
    match (cur, t) {
        (Some(a), Some(b)) if b > a => Some(b),
        (None, Some(b)) => Some(b),
        (a, _) => a,
    }
}

fn terminal(phase: &str) -> bool {
    phase == "Succeeded" || phase == "Failed"
}

/// The READY, STATUS and RESTARTS cells of `printPod`.
pub fn status_cells(pod: &Pod, now: Time) -> (String, String, String) {
    let mut restarts: i64 = 0;
    let mut restartable_restarts: i64 = 0;
    let mut total = pod.spec.containers.len();
    let mut ready = 0;
    let mut last_restart: Option<Time> = None;
    let mut last_restartable_restart: Option<Time> = None;

    let phase = pod.status.phase.as_str();
    let mut reason = phase.to_string();
    if !pod.status.reason.is_empty() {
        reason = pod.status.reason.clone();
    }
    for c in &pod.status.conditions {
        if c.type_ == "PodScheduled" && c.reason == "SchedulingGated" {
            reason = "SchedulingGated".into();
        }
    }

    let init_containers: BTreeMap<&str, &crate::api::Container> = pod
        .spec
        .init_containers
        .iter()
        .map(|c| (c.name.as_str(), c))
        .collect_btree_map();
    total += pod
        .spec
        .init_containers
        .iter()
        .filter(|c| is_restartable(Some(c)))
        .count();

    let mut initializing = false;
    let n_init = pod.spec.init_containers.len();
    for (i, cs) in pod.status.init_container_statuses.iter().enumerate() {
        let spec = init_containers.get(cs.name.as_str()).copied();
        restarts += cs.restart_count as i64;
        last_restart = later(last_restart, last_finished(cs));
        if is_restartable(spec) {
            restartable_restarts += cs.restart_count as i64;
            last_restartable_restart = later(last_restartable_restart, last_finished(cs));
        }
        let state = cs.state.clone().unwrap_or_default();
        if let Some(t) = state.terminated.as_ref().filter(|t| t.exit_code == 0) {
            let _ = t;
            continue;
        }
        if is_restartable(spec) && cs.started == Some(true) {
            if cs.ready {
                ready += 1;
            }
            continue;
        }
        if let Some(t) = &state.terminated {
            // Initialization failed. (kubeplay does not model the terminating signal.)
            reason = if t.reason.is_empty() {
                format!("Init:ExitCode:{}", t.exit_code)
            } else {
                format!("Init:{}", t.reason)
            };
        } else if let Some(w) = state
            .waiting
            .as_ref()
            .filter(|w| !w.reason.is_empty() && w.reason != "PodInitializing")
        {
            reason = format!("Init:{}", w.reason);
        } else {
            reason = format!("Init:{i}/{n_init}");
        }
        initializing = true;
        break;
    }

    let initialized = pod
        .status
        .conditions
        .iter()
        .any(|c| c.type_ == "Initialized" && c.status == "True");
    if !initializing || initialized {
        restarts = restartable_restarts;
        last_restart = last_restartable_restart;
        let mut has_running = false;
        for cs in pod.status.container_statuses.iter().rev() {
            restarts += cs.restart_count as i64;
            last_restart = later(last_restart, last_finished(cs));
            let state = cs.state.clone().unwrap_or_default();
            if let Some(w) = state.waiting.as_ref().filter(|w| !w.reason.is_empty()) {
                reason = w.reason.clone();
            } else if let Some(t) = state.terminated.as_ref().filter(|t| !t.reason.is_empty()) {
                reason = t.reason.clone();
            } else if let Some(t) = &state.terminated {
                reason = format!("ExitCode:{}", t.exit_code);
            } else if cs.ready && state.running.is_some() {
                has_running = true;
                ready += 1;
            }
        }
        // A pod with a running container is not Completed.
        if reason == "Completed" && has_running {
            let pod_ready = pod
                .status
                .conditions
                .iter()
                .any(|c| c.type_ == "Ready" && c.status == "True");
            reason = if pod_ready { "Running" } else { "NotReady" }.into();
        }
    }

    if pod.metadata.deletion_timestamp.is_some() && pod.status.reason == NODE_UNREACHABLE_POD_REASON
    {
        reason = "Unknown".into();
    } else if pod.metadata.deletion_timestamp.is_some() && !terminal(phase) {
        reason = "Terminating".into();
    }

    let restarts_str = match last_restart {
        Some(t) if restarts != 0 => {
            format!("{restarts} ({} ago)", human_duration(now - t))
        }
        _ => restarts.to_string(),
    };
    (format!("{ready}/{total}"), reason, restarts_str)
}

/// The first pod IP (`status.podIPs[0]`, falling back to `status.podIP`).
pub fn pod_ip(pod: &Pod) -> String {
    pod.status
        .extra
        .get("podIPs")
        .and_then(Value::as_array)
        .and_then(|a| a.first())
        .and_then(|ip| ip.get("ip"))
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| pod.status.pod_ip.clone())
}

fn or_none(s: String) -> String {
    if s.is_empty() {
        "<none>".into()
    } else {
        s
    }
}

fn pod_row(pod: &Pod, opts: &PrintOptions) -> Vec<String> {
    let (ready, status, restarts) = status_cells(pod, opts.now);
    let mut cells = vec![
        pod.metadata.name.clone(),
        ready,
        status,
        restarts,
        translate_timestamp_since(pod.metadata.creation_timestamp, opts.now),
    ];
    if opts.wide {
        let nominated = pod
            .status
            .extra
            .get("nominatedNodeName")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let gates: Vec<String> = pod
            .spec
            .extra
            .get("readinessGates")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|g| g.get("conditionType").and_then(Value::as_str))
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        let readiness = if gates.is_empty() {
            "<none>".to_string()
        } else {
            let true_count = gates
                .iter()
                .filter(|g| {
                    pod.status
                        .conditions
                        .iter()
                        .find(|c| &c.type_ == *g)
                        .is_some_and(|c| c.status == "True")
                })
                .count();
            format!("{true_count}/{}", gates.len())
        };
        cells.push(or_none(pod_ip(pod)));
        cells.push(or_none(pod.spec.node_name.clone()));
        cells.push(or_none(nominated));
        cells.push(readiness);
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{
        Container, ContainerState, ContainerStateRunning, ContainerStateTerminated,
        ContainerStateWaiting, PodCondition, PodSpec, PodStatus,
    };
    use crate::kubectl::printers::testutil::now;

    fn containers(n: usize) -> Vec<Container> {
        (0..n).map(|_| Container::default()).collect()
    }
    fn running() -> Option<ContainerState> {
        Some(ContainerState {
            running: Some(ContainerStateRunning::default()),
            ..Default::default()
        })
    }
    fn waiting(reason: &str) -> Option<ContainerState> {
        Some(ContainerState {
            waiting: Some(ContainerStateWaiting {
                reason: reason.into(),
                message: String::new(),
            }),
            ..Default::default()
        })
    }
    fn terminated(reason: &str, exit_code: i32) -> Option<ContainerState> {
        Some(ContainerState {
            terminated: Some(ContainerStateTerminated {
                exit_code,
                reason: reason.into(),
                ..Default::default()
            }),
            ..Default::default()
        })
    }
    fn finished_ago(secs: i64) -> Option<ContainerState> {
        Some(ContainerState {
            terminated: Some(ContainerStateTerminated {
                finished_at: Some(now() - crate::api::Duration::from_secs(secs)),
                ..Default::default()
            }),
            ..Default::default()
        })
    }
    fn cs(
        name: &str,
        ready: bool,
        restarts: i32,
        state: Option<ContainerState>,
        last: Option<ContainerState>,
    ) -> ContainerStatus {
        ContainerStatus {
            name: name.into(),
            ready,
            restart_count: restarts,
            state,
            last_state: last,
            ..Default::default()
        }
    }
    fn pod(name: &str, phase: &str, init: usize, n: usize) -> Pod {
        Pod {
            metadata: crate::api::ObjectMeta {
                name: name.into(),
                ..Default::default()
            },
            spec: std::sync::Arc::new(PodSpec {
                init_containers: containers(init),
                containers: containers(n),
                ..Default::default()
            }),
            status: (PodStatus {
                phase: phase.into(),
                ..Default::default()
            })
            .into(),
            ..Default::default()
        }
    }
    fn cells(p: &Pod, wide: bool) -> Vec<String> {
        pod_row(p, &PrintOptions { wide, now: now() })
    }
    fn check(p: &Pod, want: &[&str]) {
        assert_eq!(cells(p, false), want, "{}", p.metadata.name);
    }

    /// Port of TestPrintPod (pkg/printers/internalversion/printers_test.go).
    #[test]
    fn print_pod() {
        let mut p = pod("test1", "podPhase", 0, 2);
        p.status.container_statuses = vec![
            cs("", true, 3, running(), None),
            cs("", false, 3, None, None),
        ];
        check(&p, &["test1", "1/2", "podPhase", "6", "<unknown>"]);

        // Container error overwrites pod phase.
        let mut p = pod("test2", "podPhase", 0, 2);
        p.status.container_statuses = vec![
            cs("", true, 3, running(), None),
            cs("", false, 3, waiting("ContainerWaitingReason"), None),
        ];
        check(
            &p,
            &["test2", "1/2", "ContainerWaitingReason", "6", "<unknown>"],
        );

        // Terminated state; the first container overwrites the rest.
        let mut p = pod("test3", "podPhase", 0, 2);
        p.status.container_statuses = vec![
            cs("", false, 3, waiting("ContainerWaitingReason"), None),
            cs(
                "",
                false,
                3,
                terminated("ContainerTerminatedReason", 0),
                None,
            ),
        ];
        check(
            &p,
            &["test3", "0/2", "ContainerWaitingReason", "6", "<unknown>"],
        );

        // Ready is not enough for reporting running.
        let mut p = pod("test4", "podPhase", 0, 2);
        p.status.container_statuses = vec![
            cs("", true, 3, running(), None),
            cs("", true, 3, None, None),
        ];
        check(&p, &["test4", "1/2", "podPhase", "6", "<unknown>"]);

        let mut p = pod("test5", "podPhase", 0, 2);
        p.status.reason = "podReason".into();
        p.status.container_statuses = vec![
            cs("", true, 3, running(), None),
            cs("", true, 3, None, None),
        ];
        check(&p, &["test5", "1/2", "podReason", "6", "<unknown>"]);

        // One container completed, one running, without and with the Ready condition.
        let mut p = pod("test6", "Running", 0, 2);
        p.status.container_statuses = vec![
            cs("", true, 3, terminated("Completed", 0), None),
            cs("", true, 3, running(), None),
        ];
        check(&p, &["test6", "1/2", "NotReady", "6", "<unknown>"]);
        p.status.conditions = vec![PodCondition {
            type_: "Ready".into(),
            status: "True".into(),
            ..Default::default()
        }];
        check(&p, &["test6", "1/2", "Running", "6", "<unknown>"]);

        // 1 init container restarting and 1 container not running.
        let mut p = pod("test7", "podPhase", 1, 1);
        p.status.init_container_statuses = vec![cs("", false, 3, running(), finished_ago(10))];
        p.status.container_statuses = vec![cs("", false, 0, waiting(""), None)];
        check(
            &p,
            &["test7", "0/1", "Init:0/1", "3 (10s ago)", "<unknown>"],
        );

        // 2 init containers, one restarting, the other not running.
        let mut p = pod("test8", "podPhase", 2, 1);
        p.status.init_container_statuses = vec![
            cs("", false, 3, running(), finished_ago(10)),
            cs("", false, 0, waiting(""), None),
        ];
        p.status.container_statuses = vec![cs("", false, 0, waiting(""), None)];
        check(
            &p,
            &["test8", "0/1", "Init:0/2", "3 (10s ago)", "<unknown>"],
        );

        // 2 init containers, one completed without restarts, the other restarting.
        let mut p = pod("test9", "podPhase", 2, 1);
        p.status.init_container_statuses = vec![
            cs("", false, 0, terminated("", 0), None),
            cs("", false, 3, running(), finished_ago(10)),
        ];
        p.status.container_statuses = vec![cs("", false, 0, waiting(""), None)];
        check(
            &p,
            &["test9", "0/1", "Init:1/2", "3 (10s ago)", "<unknown>"],
        );

        // 2 init containers, one completed with restarts, the other restarting.
        let mut p = pod("test10", "podPhase", 2, 1);
        p.status.init_container_statuses = vec![
            cs("", false, 2, terminated("", 0), finished_ago(120)),
            cs("", false, 3, running(), finished_ago(10)),
        ];
        p.status.container_statuses = vec![cs("", false, 0, waiting(""), None)];
        check(
            &p,
            &["test10", "0/1", "Init:1/2", "5 (10s ago)", "<unknown>"],
        );

        // 1 init container completed with restarts and one container restarting.
        let mut p = pod("test11", "Running", 1, 1);
        p.status.init_container_statuses =
            vec![cs("", false, 2, terminated("", 0), finished_ago(120))];
        p.status.container_statuses = vec![cs("", false, 4, running(), finished_ago(20))];
        check(
            &p,
            &["test11", "0/1", "Running", "4 (20s ago)", "<unknown>"],
        );

        // 1 container that restarted 5d ago.
        let mut p = pod("test12", "Running", 0, 1);
        p.status.container_statuses = vec![cs("", true, 3, running(), finished_ago(5 * 24 * 3600))];
        check(&p, &["test12", "1/1", "Running", "3 (5d ago)", "<unknown>"]);

        // 2 containers, one never restarted, the other restarted 10d ago.
        let mut p = pod("test13", "Running", 0, 2);
        p.status.container_statuses = vec![
            cs("", true, 0, running(), None),
            cs("", true, 3, running(), finished_ago(10 * 24 * 3600)),
        ];
        check(
            &p,
            &["test13", "2/2", "Running", "3 (10d ago)", "<unknown>"],
        );

        // 2 containers, restarted 5d and 20d ago: the latest restart wins.
        let mut p = pod("test14", "Running", 0, 2);
        p.status.container_statuses = vec![
            cs("", true, 6, running(), finished_ago(5 * 24 * 3600)),
            cs("", true, 3, running(), finished_ago(20 * 24 * 3600)),
        ];
        check(&p, &["test14", "2/2", "Running", "9 (5d ago)", "<unknown>"]);

        // PodScheduled condition with reason SchedulingGated.
        let mut p = pod("test15", "podPhase", 0, 2);
        p.status.conditions = vec![PodCondition {
            type_: "PodScheduled".into(),
            status: "False".into(),
            reason: "SchedulingGated".into(),
            ..Default::default()
        }];
        check(&p, &["test15", "0/2", "SchedulingGated", "0", "<unknown>"]);
    }

    fn sidecars(p: &mut Pod) {
        p.spec_mut().init_containers = vec![
            Container {
                name: "restartable-init-1".into(),
                restart_policy: Some("Always".into()),
                ..Default::default()
            },
            Container {
                name: "restartable-init-2".into(),
                restart_policy: Some("Always".into()),
                ..Default::default()
            },
        ];
    }
    fn initialized(p: &mut Pod, status: &str) {
        p.status.conditions = vec![PodCondition {
            type_: "Initialized".into(),
            status: status.into(),
            ..Default::default()
        }];
    }

    /// Port of TestPrintPodWithRestartableInitContainer (printers_test.go).
    #[test]
    fn print_pod_with_restartable_init_containers() {
        let mut p = pod("test1", "Pending", 0, 1);
        sidecars(&mut p);
        p.status.init_container_statuses = vec![
            ContainerStatus {
                started: Some(false),
                ..cs("restartable-init-1", false, 3, running(), finished_ago(10))
            },
            ContainerStatus {
                started: Some(false),
                ..cs("restartable-init-2", false, 0, waiting(""), None)
            },
        ];
        p.status.container_statuses = vec![cs("", false, 0, waiting(""), None)];
        initialized(&mut p, "False");
        check(
            &p,
            &["test1", "0/3", "Init:0/2", "3 (10s ago)", "<unknown>"],
        );

        p.status.init_container_statuses[0].started = Some(true);
        p.status.init_container_statuses[1].state = running();
        check(
            &p,
            &["test1", "0/3", "Init:1/2", "3 (10s ago)", "<unknown>"],
        );

        let mut p = pod("test2", "Running", 0, 1);
        sidecars(&mut p);
        p.status.init_container_statuses = vec![
            ContainerStatus {
                started: Some(true),
                ..cs("restartable-init-1", false, 3, running(), finished_ago(10))
            },
            ContainerStatus {
                started: Some(true),
                ..cs("restartable-init-2", false, 0, running(), None)
            },
        ];
        p.status.container_statuses = vec![cs("", true, 4, running(), finished_ago(20))];
        initialized(&mut p, "True");
        check(&p, &["test2", "1/3", "Running", "7 (10s ago)", "<unknown>"]);

        let mut p = pod("test3", "Succeeded", 0, 1);
        sidecars(&mut p);
        p.status.init_container_statuses = vec![
            ContainerStatus {
                started: Some(false),
                ..cs(
                    "restartable-init-1",
                    false,
                    3,
                    terminated("Error", 137),
                    finished_ago(10),
                )
            },
            ContainerStatus {
                started: Some(false),
                ..cs(
                    "restartable-init-2",
                    false,
                    0,
                    terminated("Error", 137),
                    None,
                )
            },
        ];
        p.status.container_statuses = vec![cs(
            "",
            false,
            4,
            terminated("Completed", 0),
            finished_ago(20),
        )];
        initialized(&mut p, "True");
        check(
            &p,
            &["test3", "0/3", "Completed", "7 (10s ago)", "<unknown>"],
        );

        // Statuses for containers that do not exist in the spec.
        let mut p = pod("test4", "Running", 0, 0);
        p.spec_mut().init_containers = vec![
            Container {
                name: "init1".into(),
                image: "initimage".into(),
                ..Default::default()
            },
            Container {
                name: "sidecar1".into(),
                image: "sidecarimage".into(),
                restart_policy: Some("Always".into()),
                ..Default::default()
            },
        ];
        p.spec_mut().containers = vec![Container {
            name: "container1".into(),
            image: "containerimage".into(),
            ..Default::default()
        }];
        p.status.init_container_statuses = vec![
            cs("initinvalid", false, 0, None, None),
            cs("init1", false, 0, None, None),
            cs("sidecar1", false, 0, None, None),
        ];
        p.status.container_statuses = vec![
            cs("containerinvalid", false, 0, None, None),
            cs("container1", false, 0, None, None),
        ];
        check(&p, &["test4", "0/2", "Init:0/2", "0", "<unknown>"]);
    }

    /// Port of TestPrintPodwide (printers_test.go).
    #[test]
    fn print_pod_wide() {
        let mut p = pod("test1", "podPhase", 0, 2);
        p.spec_mut().node_name = "test1".into();
        p.spec_mut().extra.insert(
            "readinessGates".into(),
            serde_json::json!([{"conditionType": "condition1"}, {"conditionType": "condition2"}, {"conditionType": "condition3"}]),
        );
        p.status.conditions = vec![
            PodCondition {
                type_: "condition1".into(),
                status: "False".into(),
                ..Default::default()
            },
            PodCondition {
                type_: "condition2".into(),
                status: "True".into(),
                ..Default::default()
            },
        ];
        p.status
            .extra
            .insert("podIPs".into(), serde_json::json!([{"ip": "1.1.1.1"}]));
        p.status
            .extra
            .insert("nominatedNodeName".into(), "node1".into());
        p.status.container_statuses = vec![
            cs("", true, 3, running(), None),
            cs("", false, 3, None, None),
        ];
        assert_eq!(
            cells(&p, true),
            [
                "test1",
                "1/2",
                "podPhase",
                "6",
                "<unknown>",
                "1.1.1.1",
                "test1",
                "node1",
                "1/3"
            ]
        );
        // Dual-stack: the first IP is shown.
        p.status.extra.insert(
            "podIPs".into(),
            serde_json::json!([{"ip": "1.1.1.1"}, {"ip": "2001:db8::"}]),
        );
        assert_eq!(cells(&p, true)[5], "1.1.1.1");

        let mut p = pod("test2", "podPhase", 0, 2);
        p.status.container_statuses = vec![
            cs("", true, 3, running(), None),
            cs("", false, 3, waiting("ContainerWaitingReason"), None),
        ];
        assert_eq!(
            cells(&p, true),
            [
                "test2",
                "1/2",
                "ContainerWaitingReason",
                "6",
                "<unknown>",
                "<none>",
                "<none>",
                "<none>",
                "<none>"
            ]
        );
    }

    /// Port of TestPrintNonTerminatedPod / TestPrintPodConditions (printers_test.go): phases
    /// are printed as they are.
    #[test]
    fn print_pod_phases() {
        for (name, phase) in [
            ("test1", "Running"),
            ("test2", "Pending"),
            ("test3", "Unknown"),
            ("test4", "Succeeded"),
            ("test5", "Failed"),
        ] {
            let mut p = pod(name, phase, 0, 2);
            p.status.container_statuses = vec![
                cs("", true, 3, running(), None),
                cs("", false, 3, None, None),
            ];
            check(&p, &[name, "1/2", phase, "6", "<unknown>"]);
        }
    }

    /// kubeplay's own rows for the states its kubelet produces.
    #[test]
    fn lifecycle_states() {
        let mut p = pod("web", "Pending", 0, 1);
        p.metadata.creation_timestamp = Some(now() - crate::api::Duration::from_secs(5));
        p.status.container_statuses = vec![cs("c", false, 0, waiting("ContainerCreating"), None)];
        check(&p, &["web", "0/1", "ContainerCreating", "0", "5s"]);
        p.status.container_statuses = vec![cs("c", false, 0, waiting("ErrImagePull"), None)];
        check(&p, &["web", "0/1", "ErrImagePull", "0", "5s"]);
        p.status.phase = "Running".into();
        p.status.container_statuses = vec![cs(
            "c",
            false,
            2,
            waiting("CrashLoopBackOff"),
            finished_ago(30),
        )];
        check(&p, &["web", "0/1", "CrashLoopBackOff", "2 (30s ago)", "5s"]);
        p.status.phase = "Succeeded".into();
        p.status.container_statuses = vec![cs("c", false, 0, terminated("Completed", 0), None)];
        check(&p, &["web", "0/1", "Completed", "0", "5s"]);
        p.status.container_statuses = vec![cs("c", false, 0, terminated("", 3), None)];
        check(&p, &["web", "0/1", "ExitCode:3", "0", "5s"]);
        // Init container failure and waiting reasons.
        let mut p = pod("init", "Pending", 1, 1);
        p.status.init_container_statuses = vec![cs("", false, 1, terminated("Error", 1), None)];
        check(&p, &["init", "0/1", "Init:Error", "1", "<unknown>"]);
        p.status.init_container_statuses = vec![cs("", false, 0, terminated("", 2), None)];
        check(&p, &["init", "0/1", "Init:ExitCode:2", "0", "<unknown>"]);
        p.status.init_container_statuses =
            vec![cs("", false, 0, waiting("ImagePullBackOff"), None)];
        check(
            &p,
            &["init", "0/1", "Init:ImagePullBackOff", "0", "<unknown>"],
        );
        // Terminating, and Unknown on a lost node.
        let mut p = pod("gone", "Running", 0, 1);
        p.status.container_statuses = vec![cs("c", true, 0, running(), None)];
        p.metadata.deletion_timestamp = Some(now());
        check(&p, &["gone", "1/1", "Terminating", "0", "<unknown>"]);
        p.status.reason = NODE_UNREACHABLE_POD_REASON.into();
        check(&p, &["gone", "1/1", "Unknown", "0", "<unknown>"]);
        // A terminal pod being deleted keeps its phase.
        p.status.reason.clear();
        p.status.phase = "Failed".into();
        p.status.container_statuses = vec![cs("c", false, 0, terminated("Error", 1), None)];
        check(&p, &["gone", "0/1", "Error", "0", "<unknown>"]);
    }
}
