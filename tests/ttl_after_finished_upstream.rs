//! Port of upstream's TTL-after-finished e2e spec (test/e2e/apps/ttl_after_finished.go,
//! "[sig-apps] TTLAfterFinished job should be deleted once it finishes after TTL seconds",
//! `testFinishedJob`) on a simulated cluster: scheduler, kubelet, Job, TTL-after-finished and
//! garbage collector controllers.
//!
//! Upstream's Job runs `randomlySucceedOrFail`; here its pod runs 3 s and succeeds (either
//! outcome finishes the Job, which is all the spec relies on).

use kubeplay::api::batch::Job;
use kubeplay::api::{Duration, Object, Pod, Time};
use kubeplay::controllers::garbagecollector::GarbageCollector;
use kubeplay::controllers::job::new_job_controller;
use kubeplay::controllers::ttlafterfinished::{job_finish_time, new_ttl_after_finished_controller};
use kubeplay::features::FeatureGates;
use kubeplay::kubelet::new_kubelet;
use kubeplay::scheduler::new_scheduler;
use kubeplay::sim::Simulation;
use kubeplay::world::{FaultRule, KubeletConfig, PodMatch, World};
use serde_json::json;

const NS: &str = "ttl";
const DUMMY_FINALIZER: &str = "k8s.io/dummy-finalizer";

#[test]
fn job_is_deleted_once_it_finishes_after_ttl_seconds() {
    let world = World {
        kubelet: KubeletConfig {
            rules: vec![FaultRule {
                match_: PodMatch {
                    name_prefix: Some("rand-non-local".into()),
                    ..Default::default()
                },
                image_pull_error: false,
                run_for: Some(Duration::from_secs(3)),
                exit_code: 0,
                never_ready: false,
                ready_after: None,
                ignore_sigterm: false,
                max_pods: None,
            }],
            ..Default::default()
        }
        .into(),
        ..Default::default()
    };
    let mut sim = Simulation::new(
        1,
        Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap(),
        FeatureGates::default(),
        world,
    );
    sim.add_loop(new_kubelet());
    sim.add_loop(new_scheduler());
    sim.add_loop(new_job_controller());
    sim.add_loop(new_ttl_after_finished_controller());
    sim.add_loop(Box::new(GarbageCollector::new()));
    sim.api
        .load(
            Object::from_value(json!({
                "apiVersion": "v1", "kind": "Node",
                "metadata": {"name": "n1"},
                "status": {"capacity": {"cpu": "4", "memory": "8Gi", "pods": "110"},
                           "allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}
            }))
            .unwrap(),
        )
        .unwrap();
    // e2ejob.NewTestJob("randomlySucceedOrFail", "rand-non-local", Never, 1, 1, nil, 2) with
    // ttlSecondsAfterFinished 10 and the dummy finalizer.
    sim.api
        .create(
            Object::from_value(json!({
                "apiVersion": "batch/v1", "kind": "Job",
                "metadata": {"name": "rand-non-local", "namespace": NS,
                             "finalizers": [DUMMY_FINALIZER]},
                "spec": {"parallelism": 1, "completions": 1, "backoffLimit": 2,
                         "ttlSecondsAfterFinished": 10,
                         "template": {"spec": {"restartPolicy": "Never",
                                               "containers": [{"name": "c",
                                                               "image": "busybox"}]}}}
            }))
            .unwrap(),
        )
        .unwrap();
    // "Wait for the Job to finish", then "Wait for TTL after finished controller to delete the
    // Job".
    let t = sim.now() + Duration::from_secs(60);
    sim.run_until(t).unwrap();
    let job = sim
        .api
        .store
        .get::<Job>(NS, "rand-non-local")
        .cloned()
        .expect("kept by its finalizer");
    assert!(job.is_finished(), "the Job finished");
    let finish = job_finish_time(&job).expect("finish time");
    let delete_at = job
        .metadata
        .deletion_timestamp
        .expect("the TTL controller deleted the Job");
    // "Expected job's deletion time to be after expiration time."
    assert!(delete_at >= finish + Duration::from_secs(10));

    // cleanupJob: remove the dummy finalizer; the Job goes, and its pods with it.
    let mut job = job;
    job.metadata.finalizers = Vec::<String>::new().into();
    sim.api.update(Object::Job(job)).unwrap();
    let t = sim.now() + Duration::from_secs(60);
    sim.run_until(t).unwrap();
    assert!(sim.api.store.get::<Job>(NS, "rand-non-local").is_none());
    assert_eq!(sim.api.store.list::<Pod>(Some(NS)).count(), 0);
}
