//! Ports of upstream's CronJob integration test (test/integration/cronjob/cronjob_test.go,
//! TestCronJobLaunchesPodAndCleansUp) and of the CronJob e2e specs
//! (test/e2e/apps/cronjob.go) on a simulated cluster: the CronJob and Job controllers (the
//! integration test's pair), plus, for the e2e specs, the scheduler, a kubelet with one node and
//! the garbage collector. Containers that upstream runs as `sleep 300` stay running; those that
//! run `/bin/true` succeed after a second.
#![cfg(not(target_arch = "wasm32"))]

use kubeplay::api::batch::{CronJob, Job, CRON_JOB_SCHEDULED_TIMESTAMP_ANNOTATION};
use kubeplay::api::{Duration, Object, Pod, Time};
use kubeplay::controllers::cronjob::new_cron_job_controller;
use kubeplay::controllers::garbagecollector::GarbageCollector;
use kubeplay::controllers::job::new_job_controller;
use kubeplay::features::FeatureGates;
use kubeplay::kubelet::new_kubelet;
use kubeplay::scheduler::new_scheduler;
use kubeplay::sim::Simulation;
use kubeplay::store::apiserver::{DeleteOptions, Propagation};
use kubeplay::world::{FaultRule, KubeletConfig, PodMatch, World};
use serde_json::{json, Value};

const NS: &str = "cronjob";

fn start() -> Time {
    Time::parse_rfc3339("2025-01-01T00:00:30Z").unwrap()
}

/// `setup` of the integration test: the CronJob and Job controllers only.
fn integration_sim() -> Simulation {
    let mut sim = Simulation::new(3, start(), FeatureGates::default(), World::default());
    sim.add_loop(new_cron_job_controller());
    sim.add_loop(new_job_controller());
    sim
}

/// An e2e cluster: one node, scheduler, kubelet (pods named `succeed-*` exit 0 after 1 s; the
/// pods named `failed-*` exit 1 after 1 s; the rest run until deleted), Job, CronJob and garbage collector controllers.
fn e2e_sim() -> Simulation {
    let world = World {
        kubelet: KubeletConfig {
            rules: vec![
                FaultRule {
                    match_: PodMatch {
                        name_prefix: Some("succeed".into()),
                        ..Default::default()
                    },
                    image_pull_error: false,
                    run_for: Some(Duration::from_secs(1)),
                    exit_code: 0,
                    never_ready: false,
                    ready_after: None,
                    ignore_sigterm: false,
                    max_pods: None,
                },
                FaultRule {
                    match_: PodMatch {
                        name_prefix: Some("failed".into()),
                        ..Default::default()
                    },
                    image_pull_error: false,
                    run_for: Some(Duration::from_secs(1)),
                    exit_code: 1,
                    never_ready: false,
                    ready_after: None,
                    ignore_sigterm: false,
                    max_pods: None,
                },
            ],
            ..Default::default()
        }
        .into(),
        ..Default::default()
    };
    let mut sim = Simulation::new(3, start(), FeatureGates::default(), world);
    sim.add_loop(new_kubelet());
    sim.add_loop(new_scheduler());
    sim.add_loop(new_job_controller());
    sim.add_loop(new_cron_job_controller());
    sim.add_loop(Box::new(GarbageCollector::new()));
    sim.api
        .load(
            Object::from_value(json!({
                "apiVersion": "v1", "kind": "Node",
                "metadata": {"name": "n1"},
                "status": {"capacity": {"cpu": "8", "memory": "16Gi", "pods": "110"},
                           "allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"},
                           "conditions": [{"type": "Ready", "status": "True"}]}
            }))
            .unwrap(),
        )
        .unwrap();
    sim
}

/// `newCronJob` (integration) / `newTestCronJob` (e2e).
fn cron_job(name: &str, schedule: &str, policy: &str, extra: Value) -> Value {
    let mut cj = json!({
        "apiVersion": "batch/v1", "kind": "CronJob",
        "metadata": {"name": name, "namespace": NS},
        "spec": {
            "schedule": schedule,
            "concurrencyPolicy": policy,
            "jobTemplate": {"spec": {"template": {"spec": {
                "containers": [{"name": "c", "image": "busybox"}],
                "terminationGracePeriodSeconds": 0,
                "restartPolicy": "Never"}}}}
        }
    });
    if let Value::Object(m) = extra {
        for (k, v) in m {
            cj["spec"][k] = v;
        }
    }
    cj
}

fn create(sim: &mut Simulation, v: Value) {
    sim.api.create(Object::from_value(v).unwrap()).unwrap();
    sim.settle().unwrap();
}

fn get_cj(sim: &Simulation, name: &str) -> CronJob {
    sim.api.store.get::<CronJob>(NS, name).unwrap().clone()
}

fn jobs(sim: &Simulation) -> Vec<Job> {
    sim.api.store.list::<Job>(Some(NS)).cloned().collect()
}

/// `filterActiveJobs`: Jobs without a Complete or Failed condition.
fn active_jobs(sim: &Simulation) -> Vec<Job> {
    jobs(sim).into_iter().filter(|j| !j.is_finished()).collect()
}

fn events(sim: &Simulation, name: &str) -> Vec<(String, String)> {
    sim.api
        .events
        .iter()
        .filter(|e| e.kind == "CronJob" && e.name == name)
        .map(|e| (e.reason.to_string(), e.message.clone()))
        .collect()
}

/// Runs in one-second steps until `cond` holds, for at most `limit`.
fn run_until(
    sim: &mut Simulation,
    limit: Duration,
    what: &str,
    cond: impl Fn(&Simulation) -> bool,
) {
    let end = sim.now() + limit;
    loop {
        if cond(sim) {
            return;
        }
        assert!(sim.now() < end, "timed out: {what}");
        sim.run_for(Duration::from_secs(1)).unwrap();
    }
}

/// TestCronJobLaunchesPodAndCleansUp: an every-minute CronJob (`* * * * ?`) with
/// successfulJobsHistoryLimit 0 creates a Job owned by it, whose pod is owned by the Job.
#[test]
fn cron_job_launches_pod_and_cleans_up() {
    let mut sim = integration_sim();
    create(
        &mut sim,
        cron_job(
            "foo",
            "* * * * ?",
            "Allow",
            json!({"successfulJobsHistoryLimit": 0}),
        ),
    );
    // validateJobAndPod
    run_until(
        &mut sim,
        Duration::from_secs(120),
        "a job and its pod",
        |sim| !jobs(sim).is_empty() && sim.api.store.list::<Pod>(Some(NS)).count() == 1,
    );
    // The first run is at the next whole minute: 30 s after the start.
    let js = jobs(&sim);
    assert_eq!(js.len(), 1);
    for j in &js {
        assert_eq!(j.metadata.owner_references.len(), 1);
        assert_eq!(j.metadata.owner_references[0].kind, "CronJob");
        assert_eq!(
            j.metadata.creation_timestamp,
            Some(Time::parse_rfc3339("2025-01-01T00:01:00Z").unwrap())
        );
    }
    for p in sim.api.store.list::<Pod>(Some(NS)) {
        assert_eq!(p.metadata.owner_references.len(), 1);
        assert_eq!(p.metadata.owner_references[0].kind, "Job");
    }
    let cj = get_cj(&sim, "foo");
    assert_eq!(cj.status.active.len(), 1);
    assert_eq!(cj.status.active[0].name, js[0].metadata.name);
    // cleanupCronJobs: a foreground deletion.
    sim.api
        .delete(
            "CronJob",
            NS,
            "foo",
            &DeleteOptions {
                propagation: Some(Propagation::Foreground),
                ..Default::default()
            },
        )
        .unwrap();
}

/// e2e "should schedule multiple jobs concurrently" (AllowConcurrent).
#[test]
fn schedules_multiple_jobs_concurrently() {
    let mut sim = e2e_sim();
    create(
        &mut sim,
        cron_job("concurrent", "*/1 * * * ?", "Allow", json!({})),
    );
    run_until(
        &mut sim,
        Duration::from_secs(300),
        "two active jobs",
        |sim| get_cj(sim, "concurrent").status.active.len() >= 2,
    );
    assert!(active_jobs(&sim).len() >= 2);
}

/// e2e "should not schedule jobs when suspended".
#[test]
fn does_not_schedule_jobs_when_suspended() {
    let mut sim = e2e_sim();
    create(
        &mut sim,
        cron_job(
            "suspended",
            "*/1 * * * ?",
            "Allow",
            json!({"suspend": true}),
        ),
    );
    for _ in 0..300 {
        sim.run_for(Duration::from_secs(1)).unwrap();
        assert!(get_cj(&sim, "suspended").status.active.is_empty());
    }
    assert!(jobs(&sim).is_empty());
}

/// e2e "should not schedule new jobs when ForbidConcurrent".
#[test]
fn forbid_concurrent() {
    let mut sim = e2e_sim();
    create(
        &mut sim,
        cron_job("forbid", "*/1 * * * ?", "Forbid", json!({})),
    );
    run_until(
        &mut sim,
        Duration::from_secs(300),
        "one active job",
        |sim| get_cj(sim, "forbid").status.active.len() == 1,
    );
    assert_eq!(active_jobs(&sim).len(), 1);
    for _ in 0..300 {
        sim.run_for(Duration::from_secs(1)).unwrap();
        assert!(get_cj(&sim, "forbid").status.active.len() < 2);
    }
    assert_eq!(jobs(&sim).len(), 1, "no other run was started");
}

/// e2e "should replace jobs when ReplaceConcurrent".
#[test]
fn replace_concurrent() {
    let mut sim = e2e_sim();
    create(
        &mut sim,
        cron_job("replace", "*/1 * * * ?", "Replace", json!({})),
    );
    run_until(
        &mut sim,
        Duration::from_secs(300),
        "one active job",
        |sim| get_cj(sim, "replace").status.active.len() == 1,
    );
    let first = active_jobs(&sim);
    assert_eq!(first.len(), 1);
    let first = first[0].metadata.name.clone();
    // waitForJobReplaced: the running Job is gone and another one runs.
    run_until(&mut sim, Duration::from_secs(300), "job replaced", |sim| {
        let js = jobs(sim);
        js.len() == 1 && js[0].metadata.name != first
    });
    let ev = events(&sim, "replace");
    assert!(
        ev.iter()
            .any(|(r, m)| r == "SuccessfulDelete" && m == &format!("Deleted job {first}")),
        "{ev:?}"
    );
}

/// e2e "should be able to schedule after more than 100 missed schedule": a CronJob created 99
/// days ago and last scheduled 98 days ago still starts its next run.
#[test]
fn schedules_after_more_than_100_missed_schedules() {
    let mut sim = e2e_sim();
    let now = sim.now();
    let created = now - Duration::from_secs(99 * 24 * 3600);
    let last = created + Duration::from_secs(24 * 3600);
    let mut cj = cron_job("concurrent", "*/1 * * * ?", "Forbid", json!({}));
    cj["metadata"]["creationTimestamp"] = json!(created);
    cj["status"] = json!({"lastScheduleTime": last});
    sim.api.load(Object::from_value(cj).unwrap()).unwrap();
    sim.settle().unwrap();
    run_until(
        &mut sim,
        Duration::from_secs(300),
        "one active job",
        |sim| get_cj(sim, "concurrent").status.active.len() == 1,
    );
    assert!(!active_jobs(&sim).is_empty());
    // More than 100 starts were missed: the controller says so.
    let ev = events(&sim, "concurrent");
    assert!(
        ev.iter().any(|(r, m)| r == "TooManyMissedTimes"
            && m == "too many missed start times. Set or decrease \
                      .spec.startingDeadlineSeconds or check clock skew"),
        "{ev:?}"
    );
}

/// e2e "should not emit unexpected warnings": no MissingJob / UnexpectedJob events while
/// runs finish.
#[test]
fn does_not_emit_unexpected_warnings() {
    let mut sim = e2e_sim();
    create(
        &mut sim,
        cron_job("succeed", "*/1 * * * ?", "Allow", json!({})),
    );
    run_until(
        &mut sim,
        Duration::from_secs(300),
        "two jobs, one finished",
        |sim| jobs(sim).len() >= 2 && jobs(sim).iter().any(|j| j.is_finished()),
    );
    sim.run_for(Duration::from_secs(30)).unwrap();
    let ev = events(&sim, "succeed");
    assert!(
        !ev.iter()
            .any(|(r, _)| r == "MissingJob" || r == "UnexpectedJob"),
        "{ev:?}"
    );
    assert!(ev.iter().any(|(r, _)| r == "SawCompletedJob"), "{ev:?}");
}

/// e2e "should set the cronjob-scheduled-timestamp annotation on a job": RFC 3339, the
/// scheduled time.
#[test]
fn sets_the_scheduled_timestamp_annotation() {
    let mut sim = e2e_sim();
    create(
        &mut sim,
        cron_job("concurrent", "*/1 * * * ?", "Allow", json!({})),
    );
    run_until(&mut sim, Duration::from_secs(120), "a job", |sim| {
        !jobs(sim).is_empty()
    });
    let j = &jobs(&sim)[0];
    let a = j
        .metadata
        .annotations
        .get(CRON_JOB_SCHEDULED_TIMESTAMP_ANNOTATION)
        .expect("annotation");
    assert_eq!(a, "2025-01-01T00:01:00Z");
    assert!(Time::parse_rfc3339(a).is_ok());
}

/// e2e "should remove from active list jobs that have been deleted": the CronJob notices its
/// deleted Job (MissingJob) and drops it from status.active.
#[test]
fn removes_deleted_jobs_from_the_active_list() {
    let mut sim = e2e_sim();
    create(
        &mut sim,
        cron_job("forbid", "*/1 * * * ?", "Forbid", json!({})),
    );
    run_until(
        &mut sim,
        Duration::from_secs(300),
        "one active job",
        |sim| get_cj(sim, "forbid").status.active.len() == 1,
    );
    let job = get_cj(&sim, "forbid").status.active[0].name.clone();
    sim.api
        .delete(
            "Job",
            NS,
            &job,
            &DeleteOptions {
                propagation: Some(Propagation::Background),
                ..Default::default()
            },
        )
        .unwrap();
    run_until(&mut sim, Duration::from_secs(60), "job gone", |sim| {
        sim.api.store.get::<Job>(NS, &job).is_none()
    });
    run_until(&mut sim, Duration::from_secs(300), "not active", |sim| {
        !get_cj(sim, "forbid")
            .status
            .active
            .iter()
            .any(|r| r.name == job)
    });
    run_until(&mut sim, Duration::from_secs(300), "MissingJob", |sim| {
        events(sim, "forbid").iter().any(|(r, _)| r == "MissingJob")
    });
}

/// `ensureHistoryLimits`: a finished Job exists; it is deleted (with its pods) once the next
/// one finishes, leaving exactly one finished Job.
fn ensure_history_limits(sim: &mut Simulation, name: &str, success: bool) {
    let (s, f) = if success { (1, 0) } else { (0, 1) };
    create(
        sim,
        cron_job(
            name,
            "*/1 * * * ?",
            "Allow",
            json!({"successfulJobsHistoryLimit": s, "failedJobsHistoryLimit": f,
                   "jobTemplate": {"spec": {"parallelism": 1, "completions": 1,
                       "backoffLimit": 1,
                       "template": {"spec": {"restartPolicy": "OnFailure",
                           "containers": [{"name": "c", "image": "busybox"}]}}}}}),
        ),
    );
    run_until(sim, Duration::from_secs(300), "a finished job", |sim| {
        jobs(sim).iter().any(|j| j.is_finished())
    });
    let finished: Vec<Job> = jobs(sim).into_iter().filter(|j| j.is_finished()).collect();
    assert_eq!(finished.len(), 1);
    let want = if success { "Complete" } else { "Failed" };
    assert!(
        finished[0]
            .status
            .conditions
            .iter()
            .any(|c| c.type_ == want && c.status == "True"),
        "{:?}",
        finished[0].status.conditions
    );
    let first = finished[0].clone();
    run_until(sim, Duration::from_secs(300), "the job disappears", |sim| {
        sim.api.store.get::<Job>(NS, &first.metadata.name).is_none()
    });
    run_until(sim, Duration::from_secs(300), "its pods disappear", |sim| {
        !sim.api.store.list::<Pod>(Some(NS)).any(|p| {
            p.metadata
                .owner_references
                .iter()
                .any(|r| r.uid == first.metadata.uid)
        })
    });
    let finished = jobs(sim).into_iter().filter(|j| j.is_finished()).count();
    assert_eq!(finished, 1);
    let ev = events(sim, name);
    assert!(
        ev.iter().any(|(r, m)| r == "SuccessfulDelete"
            && m == &format!("Deleted job {}", first.metadata.name)),
        "{ev:?}"
    );
}

/// e2e "should delete successful finished jobs with limit of one successful job".
#[test]
fn deletes_successful_finished_jobs_with_limit_of_one() {
    let mut sim = e2e_sim();
    ensure_history_limits(&mut sim, "succeed-history", true);
}

/// e2e "should delete failed finished jobs with limit of one job" (the container fails and is
/// restarted in place, restartPolicy OnFailure, until the backoff limit of 1 is passed).
#[test]
fn deletes_failed_finished_jobs_with_limit_of_one() {
    let mut sim = e2e_sim();
    ensure_history_limits(&mut sim, "failed-history", false);
}

/// e2e "should support timezone": an unknown time zone is Invalid at create.
#[test]
fn rejects_a_bad_time_zone() {
    let mut sim = e2e_sim();
    let err = sim
        .api
        .create(
            Object::from_value(cron_job(
                "cronjob-with-timezone",
                "*/1 * * * ?",
                "Allow",
                json!({"timeZone": "bad-time-zone"}),
            ))
            .unwrap(),
        )
        .expect_err("invalid time zone");
    assert_eq!(err.reason, kubeplay::api::errors::Reason::Invalid, "{err}");
    assert!(err.to_string().contains("spec.timeZone"), "{err}");
}
