use super::*;
use crate::api::{Container, ContainerPort, Pod};
use crate::scheduler::NodeInfo;

/// `newPod(host, "PROTO/IP/PORT"...)` of node_ports_test.go: one container with those ports.
fn new_pod(host: &str, port_infos: &[&str]) -> Pod {
    let ports = port_infos
        .iter()
        .map(|info| {
            let parts: Vec<&str> = info.split('/').collect();
            let mut p = ContainerPort {
                protocol: Some(parts[0].to_string()),
                ..Default::default()
            };
            p.extra.insert("hostIP".into(), parts[1].into());
            let port: i64 = parts[2].parse().unwrap_or(0);
            p.extra.insert("hostPort".into(), port.into());
            p
        })
        .collect();
    let mut pod = Pod::default();
    pod.spec_mut().node_name = host.into();
    pod.spec_mut().containers.push(Container {
        name: "c".into(),
        ports,
        ..Default::default()
    });
    pod
}

fn port(container_port: i32, host_port: i32) -> ContainerPort {
    let mut p = ContainerPort {
        container_port,
        protocol: Some("TCP".into()),
        ..Default::default()
    };
    if host_port != 0 {
        p.extra.insert("hostPort".into(), host_port.into());
    }
    p
}

/// `st.MakePod().ContainerPort(ports)…`: one container per call.
fn pod_with_containers(containers: &[Vec<ContainerPort>]) -> Pod {
    let mut pod = Pod::default();
    for (i, ports) in containers.iter().enumerate() {
        pod.spec_mut().containers.push(Container {
            name: format!("c{i}"),
            ports: ports.clone(),
            ..Default::default()
        });
    }
    pod
}

fn hp(port: i32) -> HostPort {
    HostPort {
        host_ip: String::new(),
        protocol: "TCP".into(),
        host_port: port,
    }
}

// Port of TestNodePorts (pkg/scheduler/framework/plugins/nodeports/node_ports_test.go), all 13
// rows: PreFilter (Skip for a pod without host ports) + Filter against a NodeInfo holding one
// pod, whose ports go to the NodeInfo's UsedPorts as in `framework.NewNodeInfo(pods...)`.
#[test]
fn node_ports() {
    let cases: Vec<(&str, Pod, Pod, bool)> = vec![
        ("skip filter", Pod::default(), Pod::default(), false),
        (
            "other port",
            new_pod("m1", &["UDP/127.0.0.1/8080"]),
            new_pod("m1", &["UDP/127.0.0.1/9090"]),
            false,
        ),
        (
            "same udp port",
            new_pod("m1", &["UDP/127.0.0.1/8080"]),
            new_pod("m1", &["UDP/127.0.0.1/8080"]),
            true,
        ),
        (
            "same tcp port",
            new_pod("m1", &["TCP/127.0.0.1/8080"]),
            new_pod("m1", &["TCP/127.0.0.1/8080"]),
            true,
        ),
        (
            "different host ip",
            new_pod("m1", &["TCP/127.0.0.1/8080"]),
            new_pod("m1", &["TCP/127.0.0.2/8080"]),
            false,
        ),
        (
            "different protocol",
            new_pod("m1", &["UDP/127.0.0.1/8080"]),
            new_pod("m1", &["TCP/127.0.0.1/8080"]),
            false,
        ),
        (
            "second udp port conflict",
            new_pod("m1", &["UDP/127.0.0.1/8000", "UDP/127.0.0.1/8080"]),
            new_pod("m1", &["UDP/127.0.0.1/8080"]),
            true,
        ),
        (
            "first tcp port conflict",
            new_pod("m1", &["TCP/127.0.0.1/8001", "UDP/127.0.0.1/8080"]),
            new_pod("m1", &["TCP/127.0.0.1/8001", "UDP/127.0.0.1/8081"]),
            true,
        ),
        (
            "first tcp port conflict due to 0.0.0.0 hostIP",
            new_pod("m1", &["TCP/0.0.0.0/8001"]),
            new_pod("m1", &["TCP/127.0.0.1/8001"]),
            true,
        ),
        (
            "TCP hostPort conflict due to 0.0.0.0 hostIP",
            new_pod("m1", &["TCP/10.0.10.10/8001", "TCP/0.0.0.0/8001"]),
            new_pod("m1", &["TCP/127.0.0.1/8001"]),
            true,
        ),
        (
            "second tcp port conflict to 0.0.0.0 hostIP",
            new_pod("m1", &["TCP/127.0.0.1/8001"]),
            new_pod("m1", &["TCP/0.0.0.0/8001"]),
            true,
        ),
        (
            "second different protocol",
            new_pod("m1", &["UDP/127.0.0.1/8001"]),
            new_pod("m1", &["TCP/0.0.0.0/8001"]),
            false,
        ),
        (
            "UDP hostPort conflict due to 0.0.0.0 hostIP",
            new_pod("m1", &["UDP/127.0.0.1/8001"]),
            new_pod("m1", &["TCP/0.0.0.0/8001", "UDP/0.0.0.0/8001"]),
            true,
        ),
    ];
    assert_eq!(cases.len(), 13);
    for (name, pod, existing, want_reject) in cases {
        let mut ni = NodeInfo::default();
        ni.add_pod(&existing);
        let want = get_container_ports([&pod]);
        if name == "skip filter" {
            // PreFilter returns Skip: no host port wanted.
            assert!(want.is_empty() && !has_host_ports(&pod), "{name}");
        } else {
            assert!(has_host_ports(&pod), "{name}");
        }
        let got = filter_node_ports(&want, &ni.used_ports);
        let expected = want_reject.then(|| Status {
            code: Code::Unschedulable,
            reasons: vec![ERR_REASON.to_string()],
            plugin: NAME,
        });
        assert_eq!(got, expected, "{name}");
    }
}

// TestPreFilterDisabled (node_ports_test.go) checks that Filter without PreFilter state is an
// error; kubeplay computes the wanted ports with the rest of the cycle state and has no such
// path. Its meaningful counterpart: an empty node never rejects, and a node whose pod uses no
// host port never rejects either.
#[test]
fn node_ports_without_used_ports() {
    let ni = NodeInfo::default();
    let want = get_container_ports([&new_pod("m1", &["TCP/127.0.0.1/8080"])]);
    assert_eq!(filter_node_ports(&want, &ni.used_ports), None);
    let mut ni = NodeInfo::default();
    let no_host_port = pod_with_containers(&[vec![port(8080, 0)]]);
    ni.add_pod(&no_host_port);
    assert!(ni.used_ports.is_empty());
    assert_eq!(filter_node_ports(&want, &ni.used_ports), None);
}

// Port of TestGetContainerPorts (node_ports_test.go): ports without a hostPort are left out,
// the others kept in container order across both pods.
#[test]
fn test_get_container_ports() {
    let pod1 = pod_with_containers(&[
        vec![port(8001, 8001), port(8002, 8002)],
        vec![port(8003, 8003), port(8004, 8004)],
        vec![port(8005, 0)],
    ]);
    let pod2 = pod_with_containers(&[
        vec![port(8011, 8011), port(8012, 8012)],
        vec![port(8013, 8013), port(8014, 8014)],
        vec![port(8015, 0)],
    ]);
    let got = get_container_ports([&pod1, &pod2]);
    let want: Vec<HostPort> = [8001, 8002, 8003, 8004, 8011, 8012, 8013, 8014]
        .into_iter()
        .map(hp)
        .collect();
    assert_eq!(got, want);
}

// `util.GetHostPorts` (pkg/scheduler/util/utils.go; TestGetHostPorts in utils_test.go): init
// containers count only when restartable (sidecars), and come before the containers.
#[test]
fn test_get_host_ports_with_sidecars() {
    let mut pod = pod_with_containers(&[vec![port(8001, 8001)]]);
    pod.spec_mut().init_containers.push(Container {
        name: "init".into(),
        ports: vec![port(8002, 8002)],
        ..Default::default()
    });
    pod.spec_mut().init_containers.push(Container {
        name: "sidecar".into(),
        restart_policy: Some("Always".into()),
        ports: vec![port(8003, 8003), port(8004, 0)],
        ..Default::default()
    });
    assert_eq!(get_container_ports([&pod]), vec![hp(8003), hp(8001)]);
    // A sidecar's host port occupies the node.
    let mut ni = NodeInfo::default();
    ni.add_pod(&pod);
    assert!(ni.used_ports.check_conflict("", "", 8003));
    assert!(!ni.used_ports.check_conflict("", "", 8002));
    let mut only_sidecar = Pod::default();
    only_sidecar.spec_mut().init_containers = pod.spec.init_containers.clone();
    assert!(has_host_ports(&only_sidecar));
}

/// `hostPortInfoParam{protocol, ip, port}`.
type Param = (&'static str, &'static str, i32);

// Port of TestHostPortInfo_AddRemove (pkg/scheduler/framework/types_test.go), all 4 rows.
#[test]
fn host_port_info_add_remove() {
    let full: Vec<Param> = vec![
        ("TCP", "127.0.0.1", 79),
        ("UDP", "127.0.0.1", 80),
        ("TCP", "127.0.0.1", 81),
        ("TCP", "127.0.0.1", 82),
        ("TCP", "0.0.0.0", 79),
        ("UDP", "0.0.0.0", 80),
        ("TCP", "0.0.0.0", 81),
        ("TCP", "0.0.0.0", 82),
    ];
    let cases: Vec<(&str, Vec<Param>, Vec<Param>, usize)> = vec![
        (
            "normal add case",
            [
                full.clone(),
                vec![("TCP", "0.0.0.0", 0), ("TCP", "0.0.0.0", -1)],
            ]
            .concat(),
            vec![],
            8,
        ),
        (
            "empty ip and protocol add should work",
            vec![
                ("", "127.0.0.1", 79),
                ("UDP", "127.0.0.1", 80),
                ("", "127.0.0.1", 81),
                ("", "127.0.0.1", 82),
                ("", "", 79),
                ("UDP", "", 80),
                ("", "", 81),
                ("", "", 82),
                ("", "", 0),
                ("", "", -1),
            ],
            vec![],
            8,
        ),
        ("normal remove case", full.clone(), full.clone(), 0),
        (
            "empty ip and protocol remove should work",
            full.clone(),
            vec![
                ("", "127.0.0.1", 79),
                ("", "127.0.0.1", 81),
                ("", "127.0.0.1", 82),
                ("UDP", "127.0.0.1", 80),
                ("", "", 79),
                ("", "", 81),
                ("", "", 82),
                ("UDP", "", 80),
            ],
            0,
        ),
    ];
    for (name, added, removed, length) in cases {
        let mut h = HostPortInfo::default();
        for (protocol, ip, port) in added {
            h.add(ip, protocol, port);
        }
        for (protocol, ip, port) in removed {
            h.remove(ip, protocol, port);
        }
        assert_eq!(h.len(), length, "{name}");
    }
}

// Port of TestHostPortInfo_Check (pkg/scheduler/framework/types_test.go), all 9 rows.
#[test]
fn host_port_info_check() {
    let cases: Vec<(&str, Vec<Param>, Param, bool)> = vec![
        (
            "empty check should check 0.0.0.0 and TCP",
            vec![("TCP", "127.0.0.1", 80)],
            ("", "", 81),
            false,
        ),
        (
            "empty check should check 0.0.0.0 and TCP (conflicted)",
            vec![("TCP", "127.0.0.1", 80)],
            ("", "", 80),
            true,
        ),
        (
            "empty port check should pass",
            vec![("TCP", "127.0.0.1", 80)],
            ("", "", 0),
            false,
        ),
        (
            "0.0.0.0 should check all registered IPs",
            vec![("TCP", "127.0.0.1", 80)],
            ("TCP", "0.0.0.0", 80),
            true,
        ),
        (
            "0.0.0.0 with different protocol should be allowed",
            vec![("UDP", "127.0.0.1", 80)],
            ("TCP", "0.0.0.0", 80),
            false,
        ),
        (
            "0.0.0.0 with different port should be allowed",
            vec![
                ("TCP", "127.0.0.1", 79),
                ("TCP", "127.0.0.1", 81),
                ("TCP", "127.0.0.1", 82),
            ],
            ("TCP", "0.0.0.0", 80),
            false,
        ),
        (
            "normal ip should check all registered 0.0.0.0",
            vec![("TCP", "0.0.0.0", 80)],
            ("TCP", "127.0.0.1", 80),
            true,
        ),
        (
            "normal ip with different port/protocol should be allowed (0.0.0.0)",
            vec![
                ("TCP", "0.0.0.0", 79),
                ("UDP", "0.0.0.0", 80),
                ("TCP", "0.0.0.0", 81),
                ("TCP", "0.0.0.0", 82),
            ],
            ("TCP", "127.0.0.1", 80),
            false,
        ),
        (
            "normal ip with different port/protocol should be allowed",
            vec![
                ("TCP", "127.0.0.1", 79),
                ("UDP", "127.0.0.1", 80),
                ("TCP", "127.0.0.1", 81),
                ("TCP", "127.0.0.1", 82),
            ],
            ("TCP", "127.0.0.1", 80),
            false,
        ),
    ];
    for (name, added, (protocol, ip, port), want) in cases {
        let mut h = HostPortInfo::default();
        for (pr, i, p) in added {
            h.add(i, pr, p);
        }
        assert_eq!(h.check_conflict(ip, protocol, port), want, "{name}");
    }
}

// Port of Test_isSchedulableAfterPodDeleted (node_ports_test.go), the 4 rows with a pod
// ("backoff-wrong-old-object" passes a non-pod, which cannot happen here).
#[test]
fn is_schedulable_after_pod_deleted_rows() {
    let host_port = |node: &str, port: i32| {
        let mut p = pod_with_containers(&[vec![{
            let mut cp = ContainerPort::default();
            cp.extra.insert("hostPort".into(), port.into());
            cp
        }]]);
        p.spec_mut().node_name = node.into();
        p
    };
    let pod = host_port("", 8080);
    let cases: Vec<(&str, Pod, bool)> = vec![
        ("skip-queue-on-unscheduled", Pod::default(), false),
        (
            "skip-queue-on-non-hostport",
            {
                let mut p = Pod::default();
                p.spec_mut().node_name = "fake-node".into();
                p
            },
            false,
        ),
        (
            "skip-queue-on-unrelated-hostport",
            host_port("fake-node", 8081),
            false,
        ),
        (
            "queue-on-released-hostport",
            host_port("fake-node", 8080),
            true,
        ),
    ];
    for (name, deleted, want) in cases {
        assert_eq!(
            is_schedulable_after_pod_deleted(&pod, &deleted),
            want,
            "{name}"
        );
    }
}
