//! Job, CronJob and TTL-after-finished controllers end to end: the key events of the built-in
//! scenarios with their times, and the Job/CronJob status they leave behind.
#![cfg(not(target_arch = "wasm32"))]

use kubeplay::api::{CronJob, Duration, EventRecord, Job, Pod, Time};
use kubeplay::scenario::{builtin, Scenario};
use kubeplay::sim::Simulation;

fn run(name: &str) -> Simulation {
    let text = builtin::get(name).unwrap_or_else(|| panic!("no built-in {name}"));
    let s = Scenario::parse(text).expect("parses");
    let mut sim = s.build().expect("builds");
    let end = sim.start + s.default_duration().expect("duration");
    sim.run_until(end).expect("runs");
    sim
}

/// Events of one object kind, as (seconds since start, reason, message).
fn events(sim: &Simulation, kind: &str) -> Vec<(f64, String, String)> {
    sim.api
        .events
        .iter()
        .filter(|e: &&EventRecord| e.kind == kind)
        .map(|e| {
            (
                (e.time - sim.start).as_secs_f64(),
                e.reason.to_string(),
                e.message.clone(),
            )
        })
        .collect()
}

/// The (time, reason) pairs of an object kind's events.
fn reasons(sim: &Simulation, kind: &str) -> Vec<(f64, String)> {
    events(sim, kind)
        .into_iter()
        .map(|(t, r, _)| (t, r))
        .collect()
}

fn job(sim: &Simulation, name: &str) -> Job {
    sim.api
        .store
        .get::<Job>("default", name)
        .unwrap_or_else(|| panic!("job {name}"))
        .clone()
}

fn conds(j: &Job) -> Vec<(String, String)> {
    j.status
        .conditions
        .iter()
        .map(|c| (c.type_.clone(), c.status.clone()))
        .collect()
}

fn s(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn pi_completes_and_loses_its_finalizer() {
    let sim = run("job-pi");
    let ev = events(&sim, "Job");
    assert_eq!(ev.len(), 2, "{ev:?}");
    assert_eq!(ev[0].0, 0.0);
    assert_eq!(ev[0].1, "SuccessfulCreate");
    assert!(ev[0].2.starts_with("Created pod: pi-"));
    // The pod runs from 2 s to 12 s; the Job sync is batched one second later.
    assert_eq!(
        (ev[1].0, ev[1].1.as_str(), ev[1].2.as_str()),
        (13.0, "Completed", "Job completed")
    );
    let j = job(&sim, "pi");
    assert_eq!(
        conds(&j),
        s(&[("SuccessCriteriaMet", "True"), ("Complete", "True")])
    );
    assert_eq!(j.status.succeeded, 1);
    assert_eq!(
        j.status.completion_time,
        Some(sim.start + Duration::from_secs(13))
    );
    let pods: Vec<&Pod> = sim.api.store.list::<Pod>(Some("default")).collect();
    assert_eq!(pods.len(), 1);
    assert!(
        pods[0].metadata.finalizers.is_empty(),
        "tracking finalizer removed"
    );
    assert_eq!(pods[0].status.phase, "Succeeded");
}

#[test]
fn pi_with_ttl_is_deleted_exactly_100s_after_finishing() {
    let sim = run("job-pi-with-ttl");
    assert!(sim.api.store.get::<Job>("default", "pi-with-ttl").is_none());
    assert_eq!(sim.api.store.list::<Pod>(None).count(), 0, "cascade");
    let deleted = sim
        .actions
        .iter()
        .position(|a| a.verb == "delete" && a.kind == "Job")
        .expect("the TTL controller deleted the Job");
    assert_eq!(
        deleted,
        sim.actions
            .iter()
            .rposition(|a| a.verb == "delete" && a.kind == "Job")
            .unwrap()
    );
    // Completed at 13 s; the kubectl get at 112 s still lists it, the one at 114 s does not.
    let log: Vec<(f64, &str)> = sim
        .log
        .iter()
        .map(|l| ((l.time - sim.start).as_secs_f64(), l.output.as_str()))
        .collect();
    assert!(
        log.iter()
            .any(|(t, o)| *t == 112.0 && o.contains("pi-with-ttl")),
        "{log:?}"
    );
    assert!(
        log.iter()
            .any(|(t, o)| *t == 114.0 && o.contains("No resources found")),
        "{log:?}"
    );
}

#[test]
fn pod_failure_policy_fail_job_on_exit_42() {
    let sim = run("job-pod-failure-policy");
    let ev = events(&sim, "Job");
    let created = ev.iter().filter(|e| e.1 == "SuccessfulCreate").count();
    assert_eq!(created, 3, "three pods, no retries");
    let last = ev.last().unwrap();
    assert_eq!((last.0, last.1.as_str()), (8.0, "PodFailurePolicy"));
    assert!(last
        .2
        .starts_with("Container main for pod default/job-pod-failure-policy-example-"));
    assert!(last
        .2
        .ends_with("failed with exit code 42 matching FailJob rule at index 0"));
    let j = job(&sim, "job-pod-failure-policy-example");
    assert_eq!(
        conds(&j),
        s(&[("FailureTarget", "True"), ("Failed", "True")])
    );
    assert_eq!(j.status.conditions[1].reason, "PodFailurePolicy");
    assert_eq!(j.status.failed, 3);
}

#[test]
fn pod_failure_policy_ignores_disruptions() {
    let sim = run("job-pod-failure-policy-ignore");
    let j = job(&sim, "job-pod-failure-policy-ignore");
    assert_eq!(
        conds(&j),
        s(&[("SuccessCriteriaMet", "True"), ("Complete", "True")])
    );
    assert_eq!(j.status.failed, 0, "the disrupted pod is not counted");
    assert_eq!(j.status.succeeded, 3);
    let r = reasons(&sim, "Job");
    let creates: Vec<f64> = r
        .iter()
        .filter(|e| e.1 == "SuccessfulCreate")
        .map(|e| e.0)
        .collect();
    // Three at start; the evicted pod is replaced only after it really failed (node back at
    // 120 s, killed after its 30 s grace period) and the 10 s failure back-off.
    assert_eq!(creates, [0.0, 0.0, 0.0, 160.0]);
    let evicted = sim
        .api
        .events
        .iter()
        .any(|e| e.reason == "TaintManagerEviction");
    assert!(evicted);
}

#[test]
fn parallel_never_exceeds_remaining_completions() {
    let sim = run("job-parallel");
    let creates: Vec<f64> = reasons(&sim, "Job")
        .into_iter()
        .filter(|e| e.1 == "SuccessfulCreate")
        .map(|e| e.0)
        .collect();
    assert_eq!(
        creates,
        [0.0, 0.0, 11.0, 11.0, 21.0],
        "2 + 2 + 1 for five completions"
    );
    assert_eq!(job(&sim, "process-items").status.succeeded, 5);
}

#[test]
fn indexed_job_assigns_indexes() {
    let sim = run("job-indexed");
    let j = job(&sim, "indexed-job");
    assert_eq!(j.status.completed_indexes, "0-4");
    assert_eq!(j.status.succeeded, 5);
    let mut seen = vec![];
    for p in sim.api.store.list::<Pod>(Some("default")) {
        let ix = &p.metadata.annotations["batch.kubernetes.io/job-completion-index"];
        assert_eq!(
            &p.metadata.labels["batch.kubernetes.io/job-completion-index"],
            ix
        );
        assert_eq!(p.spec.hostname, format!("indexed-job-{ix}"));
        assert!(p.metadata.name.starts_with(&format!("indexed-job-{ix}-")));
        let env = &p.spec.containers[0].extra["env"];
        assert_eq!(env[0]["name"], "JOB_COMPLETION_INDEX");
        assert_eq!(
            env[0]["valueFrom"]["fieldRef"]["fieldPath"],
            "metadata.labels['batch.kubernetes.io/job-completion-index']"
        );
        seen.push(ix.clone());
    }
    seen.sort();
    assert_eq!(seen, ["0", "1", "2", "3", "4"]);
}

#[test]
fn backoff_limit_per_index_fails_index_3() {
    let sim = run("job-backoff-limit-per-index");
    let j = job(&sim, "job-backoff-per-index");
    assert_eq!(j.status.completed_indexes, "0-2,4");
    assert_eq!(j.status.failed_indexes.as_deref(), Some("3"));
    assert_eq!(j.status.conditions.last().unwrap().reason, "FailedIndexes");
    let r = reasons(&sim, "Job");
    // Index 3 fails at 5 s; its replacement waits for the 10 s per-index back-off.
    assert_eq!(r[5], (15.0, "SuccessfulCreate".to_string()));
    assert_eq!(r.last().unwrap(), &(21.0, "FailedIndexes".to_string()));
    let replaced = sim
        .api
        .store
        .list::<Pod>(Some("default"))
        .filter(|p| p.metadata.annotations["batch.kubernetes.io/job-completion-index"] == "3")
        .map(|p| p.metadata.annotations["batch.kubernetes.io/job-index-failure-count"].clone())
        .collect::<Vec<_>>();
    let mut replaced = replaced;
    replaced.sort();
    assert_eq!(replaced, ["0", "1"]);
}

#[test]
fn work_queue_stops_creating_after_first_success() {
    let sim = run("job-work-queue");
    let r = reasons(&sim, "Job");
    assert_eq!(
        r,
        [
            (0.0, "SuccessfulCreate".to_string()),
            (0.0, "SuccessfulCreate".to_string()),
            (0.0, "SuccessfulCreate".to_string()),
            (28.0, "Completed".to_string())
        ]
    );
    assert_eq!(job(&sim, "job-wq").status.succeeded, 3);
}

#[test]
fn backoff_doubles_until_the_limit() {
    let sim = run("job-backoff-limit");
    let r = reasons(&sim, "Job");
    let creates: Vec<f64> = r
        .iter()
        .filter(|e| e.1 == "SuccessfulCreate")
        .map(|e| e.0)
        .collect();
    assert_eq!(creates, [0.0, 15.0, 39.0, 83.0, 167.0]);
    // Gaps after each failure: 10 s, 20 s, 40 s, 80 s.
    assert_eq!(
        r.last().unwrap(),
        &(172.0, "BackoffLimitExceeded".to_string())
    );
    let ev = events(&sim, "Job");
    assert_eq!(
        ev.last().unwrap().2,
        "Job has reached the specified backoff limit"
    );
    assert_eq!(job(&sim, "flaky").status.failed, 5);
}

#[test]
fn suspend_and_resume() {
    let sim = run("job-suspend");
    let r = reasons(&sim, "Job");
    let want: Vec<(f64, &str)> = vec![
        (0.0, "SuccessfulCreate"),
        (0.0, "SuccessfulCreate"),
        (10.0, "SuccessfulDelete"),
        (10.0, "SuccessfulDelete"),
        (10.0, "Suspended"),
        (60.0, "SuccessfulCreate"),
        (60.0, "SuccessfulCreate"),
        (60.0, "Resumed"),
        (92.0, "Completed"),
    ];
    let got: Vec<(f64, &str)> = r.iter().map(|(t, s)| (*t, s.as_str())).collect();
    assert_eq!(got, want);
    let j = job(&sim, "myjob");
    let susp = j.condition("Suspended").unwrap();
    assert_eq!(
        (susp.status.as_str(), susp.reason.as_str()),
        ("False", "JobResumed")
    );
    assert_eq!(
        j.status.start_time,
        Some(sim.start + Duration::from_secs(60))
    );
    assert_eq!(j.status.failed, 0, "suspended pods are not failures");
    assert_eq!(j.status.succeeded, 2);
}

#[test]
fn active_deadline_wins_over_backoff_limit() {
    let sim = run("job-active-deadline");
    let r = reasons(&sim, "Job");
    assert_eq!(r.last().unwrap(), &(100.0, "DeadlineExceeded".to_string()));
    let j = job(&sim, "pi-with-timeout");
    assert!(j.status.failed < 6);
    assert_eq!(
        j.status.conditions.last().unwrap().message,
        "Job was active longer than specified deadline"
    );
}

fn created_jobs(sim: &Simulation) -> Vec<(f64, String)> {
    events(sim, "CronJob")
        .into_iter()
        .filter(|e| e.1 == "SuccessfulCreate")
        .map(|e| (e.0, e.2))
        .collect()
}

#[test]
fn cronjob_hello_runs_every_minute_and_keeps_three() {
    let sim = run("cronjob-hello");
    let created = created_jobs(&sim);
    assert_eq!(created.len(), 60);
    // 08:01:00 is 30 s after the start; each run 100 ms after its minute.
    assert_eq!(created[0], (30.1, "Created job hello-28928641".to_string()));
    assert_eq!(created[1], (90.1, "Created job hello-28928642".to_string()));
    let jobs: Vec<&Job> = sim.api.store.list::<Job>(Some("default")).collect();
    assert_eq!(jobs.len(), 3, "successfulJobsHistoryLimit");
    let cj = sim.api.store.get::<CronJob>("default", "hello").unwrap();
    let last = cj.status.last_schedule_time.unwrap();
    assert_eq!(last.to_rfc3339(), "2025-01-01T09:00:00Z");
    assert!(cj.status.last_successful_time.is_some());
}

#[test]
fn cronjob_day_13_or_friday() {
    let sim = run("cronjob-friday-13");
    let days: Vec<String> = sim
        .api
        .store
        .list::<Job>(Some("default"))
        .map(|j| j.metadata.annotations["batch.kubernetes.io/cronjob-scheduled-timestamp"].clone())
        .collect();
    let mut days = days;
    days.sort();
    assert_eq!(
        days,
        [
            "2025-06-06T00:00:00Z",
            "2025-06-13T00:00:00Z",
            "2025-06-20T00:00:00Z",
            "2025-06-27T00:00:00Z",
            "2025-07-04T00:00:00Z",
            "2025-07-11T00:00:00Z",
            "2025-07-13T00:00:00Z",
            "2025-07-18T00:00:00Z",
            "2025-07-25T00:00:00Z",
            "2025-08-01T00:00:00Z",
        ]
    );
}

#[test]
fn cronjob_forbid_skips_while_active() {
    let sim = run("cronjob-forbid");
    let r = reasons(&sim, "CronJob");
    assert!(r.contains(&(90.1, "JobAlreadyActive".to_string())));
    let created = created_jobs(&sim);
    assert_eq!(
        created[0],
        (30.1, "Created job report-28928760".to_string())
    );
    // The skipped 10:01 run starts when the first Job completes.
    assert_eq!(
        created[1],
        (123.1, "Created job report-28928761".to_string())
    );
}

#[test]
fn cronjob_replace_deletes_the_running_job() {
    let sim = run("cronjob-replace");
    let ev = events(&sim, "CronJob");
    let at90: Vec<&str> = ev
        .iter()
        .filter(|e| e.0 == 90.1)
        .map(|e| e.2.as_str())
        .collect();
    assert_eq!(
        at90,
        ["Deleted job report-28928760", "Created job report-28928761"]
    );
    assert!(
        !ev.iter().any(|e| e.1 == "SawCompletedJob"),
        "no Job ever completes"
    );
}

#[test]
fn cronjob_downtime_without_and_with_deadline() {
    for (name, warn) in [
        ("cronjob-downtime-no-deadline", true),
        ("cronjob-downtime-deadline", false),
    ] {
        let sim = run(name);
        let r = reasons(&sim, "CronJob");
        assert_eq!(
            r.contains(&(6750.0, "TooManyMissedTimes".to_string())),
            warn,
            "{name}"
        );
        let created = created_jobs(&sim);
        // Restarted at 10:21:00: the 10:21 Job at once, then 10:22 on schedule.
        assert_eq!(
            created[0],
            (6750.0, "Created job every-minute-28928781".to_string()),
            "{name}"
        );
        assert_eq!(created[1].0, 6810.1, "{name}");
        assert_eq!(
            sim.api
                .store
                .get::<Job>("default", "every-minute-28928781")
                .map(
                    |j| j.metadata.annotations["batch.kubernetes.io/cronjob-scheduled-timestamp"]
                        .clone()
                ),
            Some("2025-01-01T10:21:00Z".to_string())
        );
    }
}

#[test]
fn time_is_the_only_clock() {
    // Same scenario twice: identical event logs (names, uids, times).
    let a = run("job-backoff-limit-per-index");
    let b = run("job-backoff-limit-per-index");
    let ea: Vec<(Time, String)> = a
        .api
        .events
        .iter()
        .map(|e| (e.time, e.message.clone()))
        .collect();
    let eb: Vec<(Time, String)> = b
        .api
        .events
        .iter()
        .map(|e| (e.time, e.message.clone()))
        .collect();
    assert_eq!(ea, eb);
}

/// host-local IPAM: a node's pods get .2 to .254 of its /24 and the allocator wraps around, so
/// a CronJob running every minute for five hours on one node never hands out `10.244.0.300`.
#[test]
fn pod_ips_stay_inside_the_node_cidr_when_the_allocator_wraps() {
    let s = Scenario::parse(builtin::get("cronjob-hello").expect("builtin")).expect("parses");
    let mut sim = s.build().expect("builds");
    let mut seen = std::collections::BTreeSet::new();
    for hour in 1..=5 {
        sim.run_until(sim.start + Duration::from_secs(hour * 3600))
            .expect("runs");
        for p in sim.api.store.list::<Pod>(None) {
            if !p.status.pod_ip.is_empty() {
                seen.insert(p.status.pod_ip.clone());
            }
        }
    }
    assert!(seen.len() > 10, "{seen:?}");
    for ip in &seen {
        let octets: Vec<u32> = ip
            .split('.')
            .map(|o| o.parse().expect("a number"))
            .collect();
        assert_eq!(octets.len(), 4, "{ip}");
        assert!(
            (2..=254).contains(&octets[3]),
            "{ip} is outside the node's /24"
        );
    }
}

/// `DefaultGarbageCollectionPolicy` of batch/v1 Jobs: a DELETE without a propagation policy
/// orphans the Job's pods (they stay, without their ownerReference); with Background (what
/// kubectl sends) the garbage collector deletes them.
#[test]
fn deleting_a_job_without_a_policy_orphans_its_pods() {
    use kubeplay::store::apiserver::{DeleteOptions, Propagation};
    for (propagation, pods_left) in [(None, true), (Some(Propagation::Background), false)] {
        let text = builtin::get("job-pi").expect("job-pi");
        let mut sim = Scenario::parse(text)
            .expect("parses")
            .build()
            .expect("builds");
        sim.run_until(sim.start + Duration::from_secs(30)).unwrap();
        let pods_before: Vec<String> = sim
            .api
            .store
            .list::<Pod>(Some("default"))
            .map(|p| p.metadata.name.clone())
            .collect();
        assert_eq!(pods_before.len(), 1);
        let opts = DeleteOptions {
            propagation,
            ..Default::default()
        };
        sim.api.delete("Job", "default", "pi", &opts).unwrap();
        sim.run_until(sim.start + Duration::from_secs(90)).unwrap();
        assert!(sim.api.store.get::<Job>("default", "pi").is_none());
        let pods: Vec<&Pod> = sim.api.store.list::<Pod>(Some("default")).collect();
        assert_eq!(!pods.is_empty(), pods_left, "{propagation:?}");
        for p in pods {
            assert!(
                p.metadata.owner_references.is_empty(),
                "{}",
                p.metadata.name
            );
        }
    }
}
