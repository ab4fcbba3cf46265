//! Extreme but valid API values run without aborting the simulation, and where Go's fixed-width
//! arithmetic decides the outcome upstream, kubeplay's is the same.

use kubeplay::api::{Job, Pod, ReplicaSet};
use kubeplay::scenario::Scenario;

const SCENARIO: &str = r#"
apiVersion: kubeplay.dev/v1alpha1
kind: Scenario
nodes: [{name: node-1}]
objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: big}
    spec:
      replicas: 2147483647
      strategy: {rollingUpdate: {maxSurge: "100%", maxUnavailable: 0}}
      selector: {matchLabels: {app: big}}
      template: {metadata: {labels: {app: big}}, spec: {containers: [{name: c, image: nginx}]}}
  - apiVersion: apps/v1
    kind: StatefulSet
    metadata: {name: sts}
    spec:
      replicas: 2147483647
      selector: {matchLabels: {app: sts}}
      template: {metadata: {labels: {app: sts}}, spec: {containers: [{name: c, image: nginx}]}}
  - apiVersion: batch/v1
    kind: Job
    metadata: {name: job}
    spec:
      activeDeadlineSeconds: 9223372036854775807
      template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}
"#;

#[test]
fn huge_replica_counts_and_deadlines_do_not_abort() {
    let mut s = Scenario::parse(SCENARIO).unwrap().build().unwrap();
    s.run_for(kubeplay::api::Duration::from_secs(3)).unwrap();

    // NewRSNewReplicas in int32: replicas + maxSurge (100 %) wraps negative, so the new
    // ReplicaSet is never scaled up (as upstream's arithmetic does).
    let rss: Vec<&ReplicaSet> = s.api.store.list::<ReplicaSet>(Some("default")).collect();
    assert_eq!(rss.len(), 1);
    assert_eq!(rss[0].spec.replicas, Some(0));

    // pastActiveDeadline: time.Duration(MaxInt64) * time.Second wraps to −1 s, so the Job is
    // past its deadline at once.
    let job = s.api.store.get::<Job>("default", "job").unwrap();
    let failed = job
        .status
        .conditions
        .iter()
        .find(|c| c.type_ == "Failed")
        .expect("Failed condition");
    assert_eq!(failed.reason, "DeadlineExceeded");

    // The StatefulSet is beyond what the simulator keeps a slot per ordinal for: its sync fails
    // (no pods), the rest of the cluster runs on.
    let sts_pods = s
        .api
        .store
        .list::<Pod>(Some("default"))
        .filter(|p| p.metadata.name.starts_with("sts-"))
        .count();
    assert_eq!(sts_pods, 0);
}
