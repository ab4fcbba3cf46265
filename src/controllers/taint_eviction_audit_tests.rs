//! Audit of the taint eviction controller's boundary cases against upstream's
//! pkg/controller/tainteviction/taint_eviction.go, beyond the ported test tables.

use super::*;
use crate::api::{Container, Duration, NodeCondition};
use crate::features::FeatureGates;
use crate::sim::Simulation;
use crate::world::World;

const T0: i64 = 1_735_689_600;

fn sim() -> Simulation {
    let mut sim = Simulation::new(
        1,
        Time::from_unix_secs(T0),
        FeatureGates::default(),
        World::default(),
    );
    sim.add_loop(new_taint_eviction_controller());
    sim
}

fn tainted_node(name: &str) -> Node {
    let mut n = Node::default();
    n.metadata.name = name.into();
    n.spec.taints = vec![Taint {
        key: "k".into(),
        value: "v".into(),
        effect: "NoExecute".into(),
        time_added: None,
    }];
    n.status.conditions = vec![NodeCondition {
        type_: "Ready".into(),
        status: "True".into(),
        ..Default::default()
    }];
    n
}

fn pod_tolerating(name: &str, seconds: &[i64]) -> Pod {
    let mut p = Pod::default();
    p.metadata.namespace = "default".into();
    p.metadata.name = name.into();
    p.spec_mut().node_name = "node1".into();
    p.spec_mut().tolerations = seconds
        .iter()
        .map(|s| Toleration {
            key: "k".into(),
            operator: "Exists".into(),
            effect: "NoExecute".into(),
            toleration_seconds: Some(*s),
            ..Default::default()
        })
        .collect();
    p.spec_mut().containers = vec![Container {
        name: "c".into(),
        image: "busybox".into(),
        ..Default::default()
    }];
    p.status.phase = "Running".into();
    p
}

fn deleted(sim: &Simulation, name: &str) -> bool {
    sim.api
        .store
        .get::<Pod>("default", name)
        .is_none_or(|p| p.metadata.deletion_timestamp.is_some())
}

// upstream: getMinTolerationTime and processPodOnNode (pkg/controller/tainteviction/
// taint_eviction.go). The minimum is `time.Duration(minTolerationTime) * time.Second`, an int64
// of nanoseconds: from 9,223,372,037 s on the product wraps, and a negative result is
// processPodOnNode's "tolerate forever" (`minTolerationTime < 0`: any scheduled deletion is
// cancelled, none is added). 9,223,372,036 s still fits (about 292 years): the deletion is
// scheduled that far ahead. 20,000,000,000 s wraps to a positive 1,553,255,926 s (2e19 ns −
// 2^64 ns): the pod is deleted once that much time has passed.
#[test]
fn toleration_seconds_wrapping_go_duration() {
    // (tolerationSeconds, deleted at once, scheduled)
    let rows: [(&[i64], bool, bool); 5] = [
        (&[9_223_372_036], false, true),
        (&[9_223_372_037], false, false),
        (&[10_000_000_000], false, false),
        (&[10_000_000_000, 30_000_000_000], false, false),
        (&[20_000_000_000], false, true),
    ];
    for (secs, now, scheduled) in rows {
        let mut s = sim();
        s.api.create(Object::Node(tainted_node("node1"))).unwrap();
        s.settle().unwrap();
        s.api
            .create(Object::Pod(pod_tolerating("pod1", secs)))
            .unwrap();
        s.settle().unwrap();
        assert_eq!(deleted(&s, "pod1"), now, "{secs:?}");
        let c = s.controller::<TaintEvictionController>().unwrap();
        assert_eq!(c.work.contains_key("default/pod1"), scheduled, "{secs:?}");
        s.run_for(Duration::from_secs(3600)).unwrap();
        assert!(!deleted(&s, "pod1"), "{secs:?} an hour later");
        assert!(
            s.api
                .events
                .iter()
                .all(|e| !e.message.starts_with("Marking")),
            "{secs:?}"
        );
    }
    // The wrapped positive value is the delay upstream's timer gets.
    let wrapped = (20_000_000_000i64).wrapping_mul(1_000_000_000) / 1_000_000_000;
    assert_eq!(wrapped, 1_553_255_926);
}

// upstream: processPodOnNode: a finite toleration scheduled earlier is cancelled (with the
// "Cancelling deletion" event) when the pod's tolerations change to one whose Go duration
// wraps negative (tolerate forever).
#[test]
fn wrapped_toleration_cancels_scheduled_deletion() {
    let mut s = sim();
    s.api.create(Object::Node(tainted_node("node1"))).unwrap();
    s.settle().unwrap();
    s.api
        .create(Object::Pod(pod_tolerating("pod1", &[100])))
        .unwrap();
    s.settle().unwrap();
    assert!(s
        .controller::<TaintEvictionController>()
        .unwrap()
        .work
        .contains_key("default/pod1"));
    s.run_for(Duration::from_secs(10)).unwrap();
    // An update may change only tolerationSeconds (up or down): 100 → 10^10, which wraps.
    let mut p = s.api.store.get::<Pod>("default", "pod1").cloned().unwrap();
    p.spec_mut().tolerations[0].toleration_seconds = Some(10_000_000_000);
    p.metadata.resource_version.clear();
    s.api.update(Object::Pod(p)).unwrap();
    s.settle().unwrap();
    assert!(!s
        .controller::<TaintEvictionController>()
        .unwrap()
        .work
        .contains_key("default/pod1"));
    assert!(s
        .api
        .events
        .iter()
        .any(|e| e.message == "Cancelling deletion of Pod default/pod1"));
    s.run_for(Duration::from_secs(3600)).unwrap();
    assert!(!deleted(&s, "pod1"));
}
