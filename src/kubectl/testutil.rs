//! Test fixtures: a simulation without control loops and realistic objects loaded with their
//! status (`ApiServer::load` honours status, uid and creationTimestamp).

use crate::api::{
    Container, ContainerPort, ContainerState, ContainerStateRunning, ContainerStatus, Duration,
    LabelSelector, Labels, Node, NodeCondition, NodeSpec, NodeStatus, Object, ObjectMeta,
    OwnerReference, Pod, PodCondition, PodSpec, PodStatus, PodTemplateSpec, Quantity, ReplicaSet,
    ReplicaSetSpec, ReplicaSetStatus, ReplicationController, ReplicationControllerSpec, Time,
};
use crate::features::FeatureGates;
use crate::sim::Simulation;
use crate::world::World;
use std::collections::BTreeMap;

/// The instant tests run at.
pub fn now() -> Time {
    Time::parse_rfc3339("2025-01-01T01:00:00Z").unwrap()
}

/// `now() - secs`.
pub fn ago(secs: i64) -> Time {
    now() - Duration::from_secs(secs)
}

/// A simulation at [`now`] with no loops.
pub fn sim() -> Simulation {
    Simulation::new(7, now(), FeatureGates::default(), World::default())
}

pub fn labels(pairs: &[(&str, &str)]) -> Labels {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

pub fn node(name: &str, ready: bool, created_secs_ago: i64) -> Node {
    let t = Some(ago(created_secs_ago));
    let mut capacity = BTreeMap::new();
    capacity.insert("cpu".to_string(), Quantity("4".into()));
    capacity.insert("memory".to_string(), Quantity("8Gi".into()));
    capacity.insert("pods".to_string(), Quantity("110".into()));
    Node {
        metadata: ObjectMeta {
            name: name.into(),
            uid: format!("uid-{name}"),
            creation_timestamp: t,
            labels: labels(&[("kubernetes.io/hostname", name)]).into(),
            ..Default::default()
        },
        spec: NodeSpec::default(),
        status: NodeStatus {
            allocatable: capacity.clone(),
            capacity,
            conditions: vec![NodeCondition {
                type_: "Ready".into(),
                status: if ready { "True" } else { "False" }.into(),
                last_heartbeat_time: Some(ago(10)),
                last_transition_time: t,
                reason: "KubeletReady".into(),
                message: "kubelet is posting ready status".into(),
            }],
            extra: serde_json::from_value(serde_json::json!({
                "nodeInfo": {"kubeletVersion": "v1.34.0"},
                "addresses": [{"type": "InternalIP", "address": "10.0.0.1"}]
            }))
            .unwrap(),
        },
        ..Default::default()
    }
}

pub fn container(name: &str, image: &str) -> Container {
    Container {
        name: name.into(),
        image: image.into(),
        ports: vec![ContainerPort {
            container_port: 80,
            protocol: Some("TCP".into()),
            ..Default::default()
        }],
        ..Default::default()
    }
}

pub fn owner(kind: &str, name: &str, uid: &str) -> OwnerReference {
    OwnerReference {
        api_version: if kind == "ReplicaSet" {
            "apps/v1"
        } else {
            "v1"
        }
        .into(),
        kind: kind.into(),
        name: name.into(),
        uid: uid.into(),
        controller: Some(true),
        block_owner_deletion: Some(true),
    }
}

/// A Running, Ready pod on a node, created 5 minutes ago.
pub fn running_pod(name: &str, ns: &str, node: &str) -> Pod {
    Pod {
        metadata: ObjectMeta {
            name: name.into(),
            namespace: ns.into(),
            uid: format!("uid-{name}"),
            creation_timestamp: Some(ago(300)),
            labels: labels(&[("app", "web")]).into(),
            ..Default::default()
        },
        spec: std::sync::Arc::new(PodSpec {
            containers: vec![container("nginx", "nginx:1.27")],
            node_name: node.into(),
            ..Default::default()
        }),
        status: (PodStatus {
            phase: "Running".into(),
            host_ip: "10.0.0.1".into(),
            pod_ip: "10.244.1.5".into(),
            start_time: Some(ago(300)),
            conditions: vec![
                PodCondition {
                    type_: "Ready".into(),
                    status: "True".into(),
                    last_transition_time: Some(ago(290)),
                    ..Default::default()
                },
                PodCondition {
                    type_: "PodScheduled".into(),
                    status: "True".into(),
                    last_transition_time: Some(ago(300)),
                    ..Default::default()
                },
            ],
            container_statuses: vec![ContainerStatus {
                name: "nginx".into(),
                ready: true,
                restart_count: 0,
                state: Some(ContainerState {
                    running: Some(ContainerStateRunning {
                        started_at: Some(ago(295)),
                    }),
                    ..Default::default()
                }),
                image: "nginx:1.27".into(),
                started: Some(true),
                ..Default::default()
            }],
            ..Default::default()
        })
        .into(),
        ..Default::default()
    }
}

pub fn load_pod(sim: &mut Simulation, p: Pod) {
    sim.api.load(Object::Pod(p)).unwrap();
}

pub fn replica_set(name: &str, replicas: i32, ready: i32) -> ReplicaSet {
    let l = labels(&[("app", "web")]);
    ReplicaSet {
        metadata: ObjectMeta {
            name: name.into(),
            namespace: "default".into(),
            uid: format!("uid-{name}"),
            creation_timestamp: Some(ago(600)),
            labels: l.clone().into(),
            ..Default::default()
        },
        spec: (ReplicaSetSpec {
            replicas: Some(replicas),
            selector: Some(LabelSelector::from_labels(&l)),
            template: std::sync::Arc::new(PodTemplateSpec {
                metadata: ObjectMeta {
                    labels: l.into(),
                    ..Default::default()
                },
                spec: std::sync::Arc::new(PodSpec {
                    containers: vec![container("nginx", "nginx:1.27")],
                    ..Default::default()
                }),
            }),
            ..Default::default()
        })
        .into(),
        status: (ReplicaSetStatus {
            replicas: ready,
            fully_labeled_replicas: ready,
            ready_replicas: ready,
            available_replicas: ready,
            observed_generation: 1,
            ..Default::default()
        })
        .into(),
        ..Default::default()
    }
}

pub fn replication_controller(name: &str, replicas: i32) -> ReplicationController {
    let l = labels(&[("app", "nginx")]);
    ReplicationController {
        metadata: ObjectMeta {
            name: name.into(),
            namespace: "default".into(),
            uid: format!("uid-{name}"),
            creation_timestamp: Some(ago(3600)),
            ..Default::default()
        },
        spec: ReplicationControllerSpec {
            replicas: Some(replicas),
            selector: l.clone(),
            template: Some(PodTemplateSpec {
                metadata: ObjectMeta {
                    labels: l.into(),
                    ..Default::default()
                },
                spec: std::sync::Arc::new(PodSpec {
                    containers: vec![container("nginx", "nginx")],
                    ..Default::default()
                }),
            }),
            ..Default::default()
        },
        status: ReplicaSetStatus {
            replicas,
            ready_replicas: replicas,
            ..Default::default()
        },
        ..Default::default()
    }
}

/// Two nodes, the `frontend` ReplicaSet with two pods on node-1 and a bare pod on node-2.
pub fn load_fixture(sim: &mut Simulation) {
    sim.api
        .load(Object::Node(node("node-1", true, 86400)))
        .unwrap();
    sim.api
        .load(Object::Node(node("node-2", true, 86400)))
        .unwrap();
    sim.api
        .load(Object::ReplicaSet(replica_set("frontend", 2, 2)))
        .unwrap();
    for n in ["frontend-a", "frontend-b"] {
        let mut p = running_pod(n, "default", "node-1");
        p.metadata.owner_references = vec![owner("ReplicaSet", "frontend", "uid-frontend")].into();
        load_pod(sim, p);
    }
    let mut bare = running_pod("bare", "default", "node-2");
    bare.metadata.labels = labels(&[("app", "db")]).into();
    load_pod(sim, bare);
}
