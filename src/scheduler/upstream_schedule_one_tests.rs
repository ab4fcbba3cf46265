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
            ..Default::default()
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
