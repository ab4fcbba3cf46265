//! Property tests over whole simulations: whatever happens (scaling, node failures and
//! recoveries, controller-manager restarts, pod deletions), a ReplicaSet converges once the
//! cluster is healthy again, and the run is deterministic.

use kubeplay::api::{Duration, Object, Pod, ReplicaSet};
use kubeplay::controllers::controller_utils::is_pod_active;
use kubeplay::scenario::Scenario;
use kubeplay::sim::{Simulation, TimelineAction};
use kubeplay::store::apiserver::DeleteOptions;
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Step {
    Wait(u32),
    Scale(i32),
    NodeFail(usize),
    NodeRecover(usize),
    ControllerManager(bool),
    DeletePod(usize),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (1u32..400).prop_map(Step::Wait),
        (0i32..25).prop_map(Step::Scale),
        (0usize..4).prop_map(Step::NodeFail),
        (0usize..4).prop_map(Step::NodeRecover),
        any::<bool>().prop_map(Step::ControllerManager),
        (0usize..30).prop_map(Step::DeletePod),
    ]
}

fn scenario(nodes: usize, replicas: i32, seed: u64) -> Simulation {
    let text = format!(
        r#"
apiVersion: kubeplay.dev/v1alpha1
kind: Scenario
seed: {seed}
nodes:
  - count: {nodes}
    namePrefix: node-
objects:
  - apiVersion: apps/v1
    kind: ReplicaSet
    metadata: {{name: web}}
    spec:
      replicas: {replicas}
      selector: {{matchLabels: {{app: web}}}}
      template:
        metadata: {{labels: {{app: web}}}}
        spec:
          containers: [{{name: c, image: nginx, resources: {{requests: {{cpu: 100m}}}}}}]
"#
    );
    Scenario::parse(&text).unwrap().build().unwrap()
}

fn rs(sim: &Simulation) -> ReplicaSet {
    sim.api
        .store
        .get::<ReplicaSet>("default", "web")
        .unwrap()
        .clone()
}

fn owned_active(sim: &Simulation) -> Vec<Pod> {
    let uid = rs(sim).metadata.uid;
    sim.api
        .store
        .list::<Pod>(Some("default"))
        .filter(|p| is_pod_active(p) && p.metadata.controller_ref().is_some_and(|r| r.uid == uid))
        .cloned()
        .collect()
}

fn apply(sim: &mut Simulation, s: &Step, nodes: usize) {
    match s {
        Step::Wait(secs) => sim.run_for(Duration::from_secs(i64::from(*secs))).unwrap(),
        Step::Scale(n) => {
            let mut r = rs(sim);
            r.spec.replicas = Some(*n);
            r.metadata.resource_version.clear();
            sim.api.update(Object::ReplicaSet(r)).unwrap();
        }
        Step::NodeFail(i) => {
            sim.apply_action(TimelineAction::NodeFail(format!("node-{}", i % nodes + 1)))
        }
        Step::NodeRecover(i) => sim.apply_action(TimelineAction::NodeRecover(format!(
            "node-{}",
            i % nodes + 1
        ))),
        Step::ControllerManager(on) => sim.apply_action(TimelineAction::ControllerManager(*on)),
        Step::DeletePod(i) => {
            let pods: Vec<Pod> = sim
                .api
                .store
                .list::<Pod>(Some("default"))
                .cloned()
                .collect();
            if !pods.is_empty() {
                let p = &pods[i % pods.len()];
                let _ = sim.api.delete(
                    "Pod",
                    "default",
                    &p.metadata.name,
                    &DeleteOptions::default(),
                );
            }
        }
    }
    sim.settle().unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

    /// After any history, once every node is back and kube-controller-manager runs, the
    /// ReplicaSet has exactly `spec.replicas` active pods, all Running and Ready, and its status
    /// says so.
    #[test]
    fn replica_count_converges(nodes in 1usize..4, replicas in 0i32..20, seed in 0u64..1000,
                               steps in proptest::collection::vec(step(), 0..12)) {
        let mut sim = scenario(nodes, replicas, seed);
        for s in &steps {
            apply(&mut sim, s, nodes);
        }
        for i in 0..nodes {
            sim.apply_action(TimelineAction::NodeRecover(format!("node-{}", i + 1)));
        }
        sim.apply_action(TimelineAction::ControllerManager(true));
        sim.run_for(Duration::from_mins(30)).unwrap();
        let want = rs(&sim).spec.replicas.unwrap();
        let active = owned_active(&sim);
        prop_assert_eq!(active.len() as i32, want);
        prop_assert!(active.iter().all(|p| p.status.phase == "Running"));
        let st = rs(&sim).status;
        prop_assert_eq!(st.replicas, want);
        prop_assert_eq!(st.ready_replicas, want);
        prop_assert_eq!(st.available_replicas, want);
        prop_assert_eq!(st.observed_generation, rs(&sim).metadata.generation);
        // Nothing is left terminating once the kubelets are back.
        prop_assert!(sim.api.store.list::<Pod>(None).all(|p| p.metadata.deletion_timestamp.is_none()));
    }

    /// The same history twice gives byte-identical objects and events.
    #[test]
    fn histories_are_deterministic(nodes in 1usize..4, replicas in 0i32..10, seed in 0u64..1000,
                                   steps in proptest::collection::vec(step(), 0..8)) {
        let run = || {
            let mut sim = scenario(nodes, replicas, seed);
            for s in &steps {
                apply(&mut sim, s, nodes);
            }
            serde_json::to_string(&kubeplay::trace::RunDocument::of(&sim)).unwrap()
        };
        prop_assert_eq!(run(), run());
    }
}
