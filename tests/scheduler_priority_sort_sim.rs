//! The scheduler's active queue is ordered by the PrioritySort queue-sort plugin
//! (pkg/scheduler/framework/plugins/queuesort/priority_sort.go `Less`: higher
//! `spec.priority` first, then the earlier queued): pods pending together are attempted
//! highest priority first, so a high-priority pod takes the free room instead of preempting a
//! lower-priority pod that happened to be queued before it.

use kubeplay::api::Pod;
use kubeplay::scenario::Scenario;
use kubeplay::sim::Simulation;

/// One node with 1 CPU and pods of 600m each, created in the order given.
fn scenario(pods: &[(&str, i32)]) -> Simulation {
    let mut text = String::from(
        "apiVersion: kubeplay.dev/v1alpha1\nkind: Scenario\nnodes: [{name: node-1, capacity: {cpu: \"1\"}}]\nobjects:\n",
    );
    for (name, prio) in pods {
        text.push_str(&format!(
            "  - {{apiVersion: v1, kind: Pod, metadata: {{name: {name}}}, spec: {{priority: {prio}, containers: [{{name: c, image: nginx:1, resources: {{requests: {{cpu: 600m}}}}}}]}}}}\n"
        ));
    }
    let mut s = Scenario::parse(&text).unwrap().build().unwrap();
    s.settle().unwrap();
    s
}

fn node_of(s: &Simulation, name: &str) -> String {
    s.api
        .store
        .get::<Pod>("default", name)
        .expect("pod exists")
        .spec
        .node_name
        .clone()
}

fn reasons(s: &Simulation, reason: &str) -> Vec<String> {
    s.api
        .events
        .iter()
        .filter(|e| e.reason == reason)
        .map(|e| e.name.to_string())
        .collect()
}

#[test]
fn the_highest_priority_pending_pod_is_scheduled_first() {
    let s = scenario(&[("low", 0), ("mid", 50), ("high", 100)]);
    assert_eq!(node_of(&s, "high"), "node-1");
    assert_eq!(node_of(&s, "low"), "");
    assert_eq!(node_of(&s, "mid"), "");
    assert_eq!(reasons(&s, "Scheduled"), vec!["high"]);
    assert!(
        reasons(&s, "Preempted").is_empty(),
        "nothing was bound before the high-priority pod, so nothing is preempted"
    );
    // The other two were attempted by priority too: mid's failure is recorded before low's.
    assert_eq!(reasons(&s, "FailedScheduling")[..2], ["mid", "low"]);
}

#[test]
fn equal_priorities_keep_queue_order() {
    let s = scenario(&[("first", 10), ("second", 10)]);
    assert_eq!(node_of(&s, "first"), "node-1");
    assert_eq!(node_of(&s, "second"), "");
    assert_eq!(reasons(&s, "Scheduled"), vec!["first"]);
}

#[test]
fn negative_priorities_come_after_the_default() {
    let s = scenario(&[("batch", -5), ("web", 0)]);
    assert_eq!(node_of(&s, "web"), "node-1");
    assert_eq!(node_of(&s, "batch"), "");
}

#[test]
fn among_negative_priorities_the_highest_goes_first() {
    let s = scenario(&[("lowest", -10), ("low", -1), ("lower", -5)]);
    assert_eq!(node_of(&s, "low"), "node-1");
    assert_eq!(reasons(&s, "Scheduled"), vec!["low"]);
}

#[test]
fn a_late_high_priority_pod_overtakes_a_long_queue() {
    let mut pods: Vec<(String, i32)> = (0..40).map(|i| (format!("batch-{i:02}"), 0)).collect();
    pods.push(("urgent".into(), 1000));
    let refs: Vec<(&str, i32)> = pods.iter().map(|(n, p)| (n.as_str(), *p)).collect();
    let s = scenario(&refs);
    assert_eq!(node_of(&s, "urgent"), "node-1");
    assert_eq!(reasons(&s, "Scheduled"), vec!["urgent"]);
    assert!(reasons(&s, "Preempted").is_empty());
}
