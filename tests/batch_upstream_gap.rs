//! Upstream batch behaviour not covered by the table ports: the CronJob controller's work-queue
//! back-off (`processNextWorkItem` in pkg/controller/cronjob/cronjob_controllerv2.go), seen
//! through the times at which a failing status update is retried in a simulated cluster.
#![cfg(not(target_arch = "wasm32"))]

use kubeplay::api::batch::CronJob;
use kubeplay::api::ApiError;
use kubeplay::api::{Duration, Object, Time};
use kubeplay::controllers::cronjob::new_cron_job_controller;
use kubeplay::features::FeatureGates;
use kubeplay::sim::Simulation;
use kubeplay::world::World;
use serde_json::json;

const NS: &str = "default";

fn start() -> Time {
    Time::parse_rfc3339("2025-01-01T00:00:30Z").unwrap()
}

fn ms(n: i64) -> Duration {
    Duration::from_millis(n)
}

/// The CronJob controller alone (no Job controller: the Jobs below stay as loaded).
fn sim_with_cron_job(suspend: bool) -> (Simulation, String) {
    let mut sim = Simulation::new(5, start(), FeatureGates::default(), World::default());
    sim.add_loop(new_cron_job_controller());
    let cj = json!({
        "apiVersion": "batch/v1", "kind": "CronJob",
        "metadata": {"name": "cj", "namespace": NS},
        "spec": {
            "schedule": "0 * * * *",
            "suspend": suspend,
            "jobTemplate": {"spec": {"template": {"spec": {
                "containers": [{"name": "c", "image": "busybox"}],
                "restartPolicy": "Never"
            }}}}
        }
    });
    let created = sim
        .api
        .create(Object::from_value(cj).unwrap())
        .expect("cronjob");
    let uid = created.meta().uid.clone();
    sim.settle().unwrap();
    (sim, uid)
}

/// A Job the CronJob controls, already complete at `done`.
fn load_finished_job(sim: &mut Simulation, name: &str, cj_uid: &str, done: Time) {
    let started = done - Duration::from_secs(10);
    let job = json!({
        "apiVersion": "batch/v1", "kind": "Job",
        "metadata": {"name": name, "namespace": NS, "ownerReferences": [{
            "apiVersion": "batch/v1", "kind": "CronJob", "name": "cj", "uid": cj_uid,
            "controller": true, "blockOwnerDeletion": true
        }]},
        "spec": {"template": {"spec": {
            "containers": [{"name": "c", "image": "busybox"}],
            "restartPolicy": "Never"
        }}},
        "status": {
            "startTime": started.to_rfc3339(),
            "completionTime": done.to_rfc3339(),
            "succeeded": 1,
            "conditions": [
                {"type": "SuccessCriteriaMet", "status": "True"},
                {"type": "Complete", "status": "True"}
            ]
        }
    });
    sim.api.load(Object::from_value(job).unwrap()).expect("job");
}

fn last_successful(sim: &Simulation) -> Option<Time> {
    sim.api
        .store
        .get::<CronJob>(NS, "cj")
        .unwrap()
        .status
        .last_successful_time
}

fn fail_status_updates(sim: &mut Simulation, n: u32) {
    sim.api.inject_fault(
        "update-status",
        "CronJob",
        Some(n),
        ApiError::internal_error("etcd unavailable"),
    );
}

// processNextWorkItem (cronjob_controllerv2.go): an error goes through `AddRateLimited`; only a
// sync that asks for a requeue after the next schedule time calls `Forget` (then `AddAfter`).
// A suspended CronJob's sync asks for none, so its key keeps the back-off of the failures before
// it: the next failure waits 5 ms × 2² = 20 ms, not the 5 ms of a forgotten key.
#[test]
fn cron_job_sync_without_requeue_keeps_the_back_off() {
    let (mut sim, uid) = sim_with_cron_job(true);
    let t0 = sim.now();
    let done1 = t0 - Duration::from_secs(60);
    fail_status_updates(&mut sim, 2);
    load_finished_job(&mut sim, "j1", &uid, done1);
    // Fails at t0 and t0+5ms, succeeds at t0+15ms.
    sim.run_until(t0 + ms(14)).unwrap();
    assert_eq!(last_successful(&sim), None, "still failing at +14ms");
    sim.run_until(t0 + ms(15)).unwrap();
    assert_eq!(last_successful(&sim), Some(done1), "third attempt at +15ms");

    let t1 = t0 + Duration::from_secs(1);
    sim.run_until(t1).unwrap();
    let done2 = t1 - Duration::from_secs(5);
    fail_status_updates(&mut sim, 1);
    load_finished_job(&mut sim, "j2", &uid, done2);
    sim.run_until(t1 + ms(19)).unwrap();
    assert_eq!(
        last_successful(&sim),
        Some(done1),
        "the back-off of the earlier failures is kept: no retry before +20ms"
    );
    sim.run_until(t1 + ms(20)).unwrap();
    assert_eq!(last_successful(&sim), Some(done2), "retried at +20ms");
}

// The same failures on a CronJob that is not suspended: its sync ends with a requeue for the next
// schedule, which `Forget`s the key first, so the next failure is retried after 5 ms again.
#[test]
fn cron_job_sync_with_requeue_forgets_the_back_off() {
    let (mut sim, uid) = sim_with_cron_job(false);
    let t0 = sim.now();
    let done1 = t0 - Duration::from_secs(60);
    fail_status_updates(&mut sim, 2);
    load_finished_job(&mut sim, "j1", &uid, done1);
    sim.run_until(t0 + ms(15)).unwrap();
    assert_eq!(last_successful(&sim), Some(done1), "third attempt at +15ms");

    let t1 = t0 + Duration::from_secs(1);
    sim.run_until(t1).unwrap();
    let done2 = t1 - Duration::from_secs(5);
    fail_status_updates(&mut sim, 1);
    load_finished_job(&mut sim, "j2", &uid, done2);
    sim.run_until(t1 + ms(4)).unwrap();
    assert_eq!(last_successful(&sim), Some(done1), "no retry before +5ms");
    sim.run_until(t1 + ms(5)).unwrap();
    assert_eq!(last_successful(&sim), Some(done2), "retried at +5ms");
}
