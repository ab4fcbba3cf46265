//! pkg/scheduler/schedule_one_test.go tables and tests not ported elsewhere.

use super::*;
use crate::api::{Container, Quantity, ResourceRequirements};

// upstream: TestSchedulerFailedSchedulingReasons (pkg/scheduler/schedule_one_test.go): 100 nodes
// of 2 cpu / 100 bytes / 10 pods and a pod requesting 4 cpu / 500 bytes roll up into a short
// (≤ 150 characters) histogram. The upstream test runs NodeResourcesFit alone; kubeplay runs the
// default profile, so the message also carries the PostFilter part: every node's request
// exceeds its allocatable (`Unresolvable` in fitsRequest), so preemption cannot help anywhere.
#[test]
fn scheduler_failed_scheduling_reasons() {
    let mut store = Store::new();
    for i in 0..100 {
        let mut n = Node::default();
        n.metadata.name = format!("node{i}");
        n.metadata.uid = format!("node{i}");
        for (k, v) in [("cpu", "2"), ("memory", "100"), ("pods", "10")] {
            n.status.capacity.insert(k.into(), Quantity(v.into()));
            n.status.allocatable.insert(k.into(), Quantity(v.into()));
        }
        store.put(Object::Node(n));
    }
    let mut p = Pod::default();
    p.metadata.name = "bar".into();
    p.metadata.namespace = "default".into();
    p.metadata.uid = "bar".into();
    let res: std::collections::BTreeMap<String, Quantity> = [("cpu", "4"), ("memory", "500")]
        .iter()
        .map(|(k, v)| (k.to_string(), Quantity(v.to_string())))
        .collect();
    p.spec_mut().containers.push(Container {
        name: "c".into(),
        resources: Some(ResourceRequirements {
            requests: res.clone(),
            limits: res,
        }),
        ..Default::default()
    });
    match schedule_pod(&p, &store) {
        Outcome::Unschedulable {
            message,
            preempt,
            plugins,
        } => {
            let fit = "0/100 nodes are available: 100 Insufficient cpu, 100 Insufficient memory.";
            assert!(fit.len() <= 150, "message is too spammy");
            assert_eq!(
                message,
                format!(
                    "{fit} no new claims to deallocate, preemption: 0/100 nodes are available: \
                     100 Preemption is not helpful for scheduling."
                )
            );
            assert!(preempt.is_none());
            assert_eq!(plugins, BTreeSet::from(["NodeResourcesFit"]));
        }
        other => panic!("expected Unschedulable, got {other:?}"),
    }
}

// upstream: prepareCandidate (pkg/scheduler/framework/preemption/preemption.go, kubernetes#134927,
// in 1.35): a victim whose graceful deletion has already started gets no API call — no
// DisruptionTarget condition, no second delete, no Preempted event — and the preemptor is still
// nominated to the node. Hand-derived row in the style of TestPrepareCandidate.
#[test]
fn prepare_candidate_skips_victim_already_being_deleted() {
    use crate::api::Duration;
    use crate::features::FeatureGates;
    use crate::sim::Simulation;
    use crate::world::World;
    let start = Time::from_unix_secs(1_700_000_000);
    let mut s = Simulation::new(1, start, FeatureGates::default(), World::default());
    s.add_loop(new_scheduler());
    let mut n = Node::default();
    n.metadata.name = "node1".into();
    for (k, v) in [("cpu", "500m"), ("memory", "500"), ("pods", "32")] {
        n.status.capacity.insert(k.into(), Quantity(v.into()));
        n.status.allocatable.insert(k.into(), Quantity(v.into()));
    }
    s.api.load(Object::Node(n)).unwrap();
    let mk = |name: &str, prio: i32, node: &str| {
        let mut p = Pod::default();
        p.metadata.name = name.into();
        p.metadata.namespace = "default".into();
        p.spec_mut().priority = Some(prio);
        p.spec_mut().node_name = node.into();
        let res: std::collections::BTreeMap<String, Quantity> = [("cpu", "300m")]
            .iter()
            .map(|(k, v)| (k.to_string(), Quantity(v.to_string())))
            .collect();
        p.spec_mut().containers.push(Container {
            name: "c".into(),
            image: "nginx".into(),
            resources: Some(ResourceRequirements {
                requests: res,
                ..Default::default()
            }),
            ..Default::default()
        });
        p
    };
    let mut victim = mk("victim1", 100, "node1");
    victim.metadata.uid = "victim1".into();
    victim.metadata.deletion_timestamp = Some(start);
    victim.metadata.deletion_grace_period_seconds = Some(30);
    victim.metadata.finalizers = vec!["example.com/hold".to_string()].into();
    s.api.load(Object::Pod(victim)).unwrap();
    s.api
        .create(Object::Pod(mk("preemptor", 1000, "")))
        .unwrap();
    s.run_until(start + Duration::from_secs(5)).unwrap();
    let victim = s.api.store.get::<Pod>("default", "victim1").unwrap();
    assert!(victim.condition("DisruptionTarget").is_none());
    assert!(!s
        .api
        .events
        .iter()
        .any(|e| e.name == "victim1" && e.reason == "Preempted"));
    let p = s.api.store.get::<Pod>("default", "preemptor").unwrap();
    assert_eq!(nominated_node(p), Some("node1"));
    assert!(p.spec.node_name.is_empty());
}
