//! Ports of the informer-level tests of `pkg/controller/job/job_controller_test.go`: pod lookup,
//! `getPodsForJob` (claim, adopt, release), `updateJob` requeueing and
//! `getPodCreationInfoForIndependentIndexes`.

use super::*;
use crate::api::batch::JOB_INDEX_FAILURE_COUNT_ANNOTATION;
use crate::api::LabelSelectorRequirement;
use crate::store::Change;

/// `buildPod().name(name).job(job)`: the Job's selector labels, its namespace and a controller
/// reference to it; `finalizer` adds the tracking finalizer.
fn job_pod(job: &Job, name: &str, finalizer: bool) -> Pod {
    let mut p = crate::controllers::controller_utils::get_pod_from_template(
        &job.spec.template,
        &job.metadata,
        Some(&new_controller_ref(&job.metadata, "batch/v1", "Job")),
    );
    p.metadata.name = name.into();
    p.metadata.generate_name.clear();
    p.metadata.uid = format!("uid-{name}");
    if finalizer {
        p.metadata.finalizers = vec![JOB_TRACKING_FINALIZER.into()].into();
    }
    p
}

// Port of TestGetPodsForJob (pkg/controller/job/job_controller_test.go). Upstream's "no adopt
// when deleting race" row (the Job deleted in the API server but not yet in the informer cache)
// has no separate meaning here: the controller reads the API server's store, so it runs the same
// as "no adopt when deleting".
#[test]
fn get_pods_for_job() {
    struct R {
        job_deleted: bool,
        /// (name, owner: 0 = this Job, 1 = the other Job, 2 = none (clearOwner), 3 = only
        /// the namespace (no labels, no owner), clear labels, tracking finalizer)
        pods: Vec<(&'static str, u8, bool, bool)>,
        want_pods: Vec<&'static str>,
        want_finalizer: Vec<&'static str>,
    }
    let rows = vec![
        (
            "only matching",
            R {
                job_deleted: false,
                pods: vec![
                    ("pod1", 0, false, true),
                    ("pod2", 1, false, false),
                    ("pod3", 3, false, false),
                    ("pod4", 0, false, false),
                ],
                want_pods: vec!["pod1", "pod4"],
                want_finalizer: vec!["pod1"],
            },
        ),
        (
            "adopt",
            R {
                job_deleted: false,
                pods: vec![
                    ("pod1", 0, false, false),
                    ("pod2", 2, false, false),
                    ("pod3", 1, false, false),
                ],
                want_pods: vec!["pod1", "pod2"],
                want_finalizer: vec!["pod2"],
            },
        ),
        (
            "no adopt when deleting",
            R {
                job_deleted: true,
                pods: vec![("pod1", 0, false, false), ("pod2", 2, false, false)],
                want_pods: vec!["pod1"],
                want_finalizer: vec![],
            },
        ),
        (
            "no adopt when deleting race",
            R {
                job_deleted: true,
                pods: vec![("pod1", 0, false, false), ("pod2", 2, false, false)],
                want_pods: vec!["pod1"],
                want_finalizer: vec![],
            },
        ),
        (
            "release",
            R {
                job_deleted: false,
                pods: vec![("pod1", 0, false, false), ("pod2", 0, true, false)],
                want_pods: vec!["pod1"],
                want_finalizer: vec![],
            },
        ),
    ];
    for (name, r) in rows {
        let mut f = Fixture::new(false, false, false);
        let mut job = f.job(1, 1, 6, false);
        job.metadata.name = "test_job".into();
        job.metadata.uid = "test-job-uid".into();
        if r.job_deleted {
            job.metadata.deletion_timestamp = Some(f.api.now);
        }
        let mut other = f.job(1, 1, 6, false);
        other.metadata.name = "other_job".into();
        other.metadata.uid = "other-job-uid".into();
        // Upstream adds both Jobs to the informer's indexer as they are (no API defaulting).
        f.api.store.put(job.clone().into_object());
        f.api.store.put(other.clone().into_object());
        for (pname, owner, clear_labels, fin) in &r.pods {
            let mut p = job_pod(if *owner == 1 { &other } else { &job }, pname, *fin);
            if *owner >= 2 {
                p.metadata.owner_references.clear();
            }
            if *owner == 3 || *clear_labels {
                p.metadata.labels.clear();
            }
            f.api.load(p.into_object()).expect("pod loads");
        }
        let mut ctl = JobController::new();
        let mut ctx = f.ctx();
        let pods = ctl
            .get_pods_for_job(&mut ctx, &job)
            .unwrap_or_else(|e| panic!("{name}: getPodsForJob() error: {e:?}"));
        let mut got: Vec<String> = pods.iter().map(|p| p.metadata.name.clone()).collect();
        got.sort();
        assert_eq!(got, r.want_pods, "{name}: pods");
        let mut got_fin: Vec<String> = pods
            .iter()
            .filter(|p| has_job_tracking_finalizer(p))
            .map(|p| p.metadata.name.clone())
            .collect();
        got_fin.sort();
        assert_eq!(got_fin, r.want_finalizer, "{name}: pods with finalizer");
    }
}

// Port of TestJobPodLookup (pkg/controller/job/job_controller_test.go): the Jobs are added to the
// store one by one, as upstream adds them to the informer's indexer.
#[test]
fn job_pod_lookup() {
    let mut f = Fixture::new(false, false, false);
    let meta = |name: &str, ns: &str| crate::api::ObjectMeta {
        name: name.into(),
        namespace: ns.into(),
        uid: format!("uid-{name}"),
        ..Default::default()
    };
    let pod = |name: &str, ns: &str, labels: &[(&str, &str)]| {
        let mut p = Pod {
            metadata: meta(name, ns),
            ..Default::default()
        };
        p.metadata.labels = labels
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        p
    };
    let foo_bar: Labels = [("foo".to_string(), "bar".to_string())].into();
    let rows: Vec<(&str, Job, Pod, &str)> = vec![
        (
            "pods without labels don't match any job",
            Job {
                metadata: meta("basic", ""),
                ..Default::default()
            },
            pod("foo1", "", &[]),
            "",
        ),
        (
            "matching labels, different namespace",
            Job {
                metadata: meta("foo", ""),
                spec: (JobSpec {
                    selector: Some(LabelSelector::from_labels(&foo_bar)),
                    ..Default::default()
                })
                .into(),
                ..Default::default()
            },
            pod("foo2", "ns", &[("foo", "bar")]),
            "",
        ),
        (
            "matching ns and labels returns",
            Job {
                metadata: meta("bar", "ns"),
                spec: (JobSpec {
                    selector: Some(LabelSelector {
                        match_expressions: Some(vec![LabelSelectorRequirement {
                            key: "foo".into(),
                            operator: "In".into(),
                            values: Some(vec!["bar".into()]),
                        }]),
                        ..Default::default()
                    }),
                    ..Default::default()
                })
                .into(),
                ..Default::default()
            },
            pod("foo3", "ns", &[("foo", "bar")]),
            "bar",
        ),
    ];
    for (name, job, pod, expected) in rows {
        f.api.store.put(job.into_object());
        let jobs = JobController::get_pod_jobs(&f.api.store, &pod);
        if expected.is_empty() {
            assert!(jobs.is_empty(), "{name}: got {} jobs", jobs.len());
        } else {
            assert_eq!(jobs.len(), 1, "{name}: len(jobs)");
            assert_eq!(jobs[0].metadata.name, expected, "{name}");
        }
    }
}

// Port of TestUpdateJobRequeue (pkg/controller/job/job_controller_test.go): a spec update (new
// generation) is queued at once; a status-only update waits for the batch period.
#[test]
fn update_job_requeue() {
    let rows: Vec<(&str, fn(&mut Job, Time), bool)> = vec![
        (
            "spec update",
            |j, _| {
                j.spec.suspend = Some(false);
                j.metadata.generation += 1;
            },
            true,
        ),
        (
            "status update",
            |j, now| j.status.start_time = Some(now),
            false,
        ),
    ];
    for (name, update, want_immediate) in rows {
        let mut f = Fixture::new(false, false, false);
        let old = f.job(1, 1, 1, true);
        f.load_job(old.clone());
        let old = f.api.store.get::<Job>("default", "foobar").unwrap().clone();
        let mut cur = old.clone();
        update(&mut cur, f.api.now);
        let mut ctl = JobController::new();
        let c = Change::of(Some(old.into_object()), Some(cur.into_object()));
        ctl.watch(&c, &f.api.store, &mut f.queue, f.api.now);
        assert_eq!(
            f.queue.has_ready(),
            want_immediate,
            "{name}: immediate requeue"
        );
    }
}

// Port of TestGetPodCreationInfoForIndependentIndexes (pkg/controller/job/job_controller_test.go).
#[test]
fn get_pod_creation_info_for_independent_indexes_table() {
    let now = ts("2025-01-01T00:00:00Z");
    let pod = |failures: &str, index: Option<&str>, deleted: Time| {
        let mut p = Pod::default();
        p.metadata
            .annotations
            .insert(JOB_INDEX_FAILURE_COUNT_ANNOTATION.into(), failures.into());
        if let Some(ix) = index {
            p.metadata
                .annotations
                .insert(JOB_COMPLETION_INDEX_ANNOTATION.into(), ix.into());
        }
        p.metadata.deletion_timestamp = Some(deleted);
        p
    };
    let sec = Duration::from_secs(1);
    let backoff = DEFAULT_JOB_POD_FAILURE_BACKOFF;
    let rows: Vec<(&str, Vec<i64>, Vec<(i64, Pod)>, Vec<i64>, Duration)> = vec![
        (
            "simple index creation",
            vec![1, 3],
            vec![],
            vec![1, 3],
            Duration::ZERO,
        ),
        (
            "subset of indexes can be recreated now",
            vec![1, 3],
            vec![(1, pod("0", Some("1"), now))],
            vec![3],
            Duration::ZERO,
        ),
        (
            "subset of indexes can be recreated now as the pods failed long time ago",
            vec![1, 3],
            vec![(1, pod("0", None, now)), (3, pod("0", None, now - backoff))],
            vec![3],
            Duration::ZERO,
        ),
        (
            "no indexes can be recreated now, need to wait default pod failure backoff",
            vec![1, 2, 3],
            vec![
                (1, pod("1", None, now)),
                (2, pod("0", None, now)),
                (3, pod("2", None, now)),
            ],
            vec![],
            backoff,
        ),
        (
            "no indexes can be recreated now, need to wait but 1s already passed",
            vec![1, 2, 3],
            vec![
                (1, pod("1", None, now - sec)),
                (2, pod("0", None, now - sec)),
                (3, pod("2", None, now - sec)),
            ],
            vec![],
            Duration(backoff.0 - sec.0),
        ),
    ];
    for (name, to_add, delayed, want_add, want_remaining) in rows {
        let delayed: BTreeMap<i64, Pod> = delayed.into_iter().collect();
        let (got_add, got_remaining) =
            get_pod_creation_info_for_independent_indexes(now, &to_add, &delayed);
        assert_eq!(got_add, want_add, "{name}: indexes to add");
        assert_eq!(got_remaining, want_remaining, "{name}: remaining time");
    }
}

// Port of TestSyncJobWhenManagedBy (pkg/controller/job/job_controller_test.go): a Job managed by
// another controller is left alone while JobManagedBy is on; otherwise it is synced (two pods
// created, counters rebuilt). JobPodReplacementPolicy keeps its default (on): terminating is 0.
#[test]
fn sync_job_when_managed_by() {
    // (name, JobManagedBy gate, spec.managedBy, status unchanged)
    let rows: Vec<(&str, bool, Option<&str>, bool)> = vec![
        (
            "job with custom value of managedBy; feature enabled; the status is unchanged",
            true,
            Some("custom-managed-by"),
            true,
        ),
        (
            "job with well known value of the managedBy; feature enabled; the status is updated",
            true,
            Some(JOB_CONTROLLER_NAME),
            false,
        ),
        (
            "job with custom value of managedBy; feature disabled; the status is updated",
            false,
            Some("custom-managed-by"),
            false,
        ),
        (
            "job without the managedBy; feature enabled; the status is updated",
            true,
            None,
            false,
        ),
    ];
    for (name, gate, managed_by, unchanged) in rows {
        let mut f = Fixture::new(true, true, gate);
        let mut job = f.job(2, 2, 6, false);
        job.spec.managed_by = managed_by.map(String::from);
        let start = f.api.now;
        job.status.active = 1;
        job.status.ready = Some(1);
        job.status.start_time = Some(start);
        // Upstream adds the Job to the informer's indexer, unvalidated ("custom-managed-by" is
        // not a domain-prefixed path).
        job.metadata.resource_version = "1".into();
        f.api.store.put(job.into_object());
        let before = f.job_status();
        let mut ctl = JobController::new();
        let mut ctx = f.ctx();
        ctl.sync_job("default/foobar", &mut ctx)
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let s = f.job_status();
        if unchanged {
            assert_eq!(s, before, "{name}");
            assert_eq!(f.count("create", "Pod"), 0, "{name}");
            continue;
        }
        assert_eq!(s.active, 2, "{name}: active");
        assert_eq!(s.ready, Some(0), "{name}: ready");
        assert_eq!(s.start_time, Some(start), "{name}: startTime");
        assert_eq!(s.terminating, Some(0), "{name}: terminating");
        assert_eq!(
            s.uncounted_terminated_pods.unwrap_or_default(),
            crate::api::batch::UncountedTerminatedPods::default(),
            "{name}: uncountedTerminatedPods"
        );
        assert!(s.conditions.is_empty(), "{name}: conditions");
        assert_eq!(f.count("create", "Pod"), 2, "{name}: creations");
    }
}

// Port of TestGetNewFinshedPods (pkg/controller/job/job_controller_test.go; upstream's spelling):
// the pods that finished and are not counted yet (in status, in uncountedTerminatedPods or
// among the expected finalizer removals), added to the counted and uncounted totals.
#[test]
fn get_new_finished_pods_table() {
    // (uid, phase, tracking finalizer, deleting)
    type P = (&'static str, &'static str, bool, bool);
    struct R {
        succeeded: i32,
        failed: i32,
        uncounted: (Vec<&'static str>, Vec<&'static str>),
        expected_rm: Vec<&'static str>,
        pods: Vec<P>,
        want_succeeded: i32,
        want_failed: i32,
    }
    let rows = vec![
        (
            "some counted",
            R {
                succeeded: 2,
                failed: 1,
                uncounted: (vec![], vec![]),
                expected_rm: vec![],
                pods: vec![
                    ("a", "Succeeded", false, false),
                    ("b", "Succeeded", true, false),
                    ("c", "Succeeded", true, false),
                    ("d", "Failed", false, false),
                    ("e", "Failed", true, false),
                    ("f", "Running", false, false),
                ],
                want_succeeded: 4,
                want_failed: 2,
            },
        ),
        (
            "some uncounted",
            R {
                succeeded: 1,
                failed: 1,
                uncounted: (vec!["a", "c"], vec!["e", "f"]),
                expected_rm: vec![],
                pods: vec![
                    ("a", "Succeeded", false, false),
                    ("b", "Succeeded", false, false),
                    ("c", "Succeeded", true, false),
                    ("d", "Succeeded", true, false),
                    ("e", "Failed", false, false),
                    ("f", "Failed", true, false),
                    ("g", "Failed", true, false),
                ],
                want_succeeded: 4,
                want_failed: 4,
            },
        ),
        (
            "with expected removed finalizers",
            R {
                succeeded: 2,
                failed: 2,
                uncounted: (vec!["a"], vec!["d"]),
                expected_rm: vec!["b", "f"],
                pods: vec![
                    ("a", "Succeeded", false, false),
                    ("b", "Succeeded", true, false),
                    ("c", "Succeeded", true, false),
                    ("d", "Failed", false, false),
                    ("e", "Failed", true, false),
                    ("f", "Failed", true, false),
                    ("g", "Failed", true, false),
                ],
                want_succeeded: 4,
                want_failed: 5,
            },
        ),
        (
            "deleted pods",
            R {
                succeeded: 1,
                failed: 1,
                uncounted: (vec![], vec![]),
                expected_rm: vec![],
                pods: vec![
                    ("a", "Succeeded", true, true),
                    ("b", "Failed", true, true),
                    ("c", "Running", true, true),
                    ("d", "Pending", true, true),
                    ("e", "Running", false, true),
                    ("f", "Pending", false, true),
                ],
                want_succeeded: 2,
                want_failed: 4,
            },
        ),
    ];
    // The Job has no podReplacementPolicy or podFailurePolicy, so a terminating pod with the
    // finalizer that did not succeed counts as failed (isPodFailed).
    let f = Fixture::new(true, true, true);
    let g = JobGates::from_gates(&f.gates);
    let set = |v: &[&str]| -> BTreeSet<String> { v.iter().map(|s| s.to_string()).collect() };
    for (name, r) in rows {
        let mut job = Job::default();
        job.status.succeeded = r.succeeded;
        job.status.failed = r.failed;
        let pods: Vec<SharedPod> = r
            .pods
            .iter()
            .map(|(uid, phase, fin, deleting)| {
                let mut p = Pod::default();
                p.metadata.uid = uid.to_string();
                p.status.phase = phase.to_string();
                if *fin {
                    p.metadata.finalizers = vec![JOB_TRACKING_FINALIZER.into()].into();
                }
                if *deleting {
                    p.metadata.deletion_timestamp = Some(f.api.now);
                }
                SharedPod::owned(p)
            })
            .collect();
        let jc = SyncJobCtx {
            job,
            pods,
            finished_condition: None,
            active_pods: vec![],
            succeeded: 0,
            failed: 0,
            prev_succeeded_indexes: OrderedIntervals::default(),
            succeeded_indexes: OrderedIntervals::default(),
            failed_indexes: None,
            new_backoff_record: BackoffRecord {
                key: String::new(),
                failures_after_last_success: 0,
                last_failure_time: None,
            },
            expected_rm_finalizers: set(&r.expected_rm),
            uncounted_succeeded: set(&r.uncounted.0),
            uncounted_failed: set(&r.uncounted.1),
            pods_with_delayed_deletion_per_index: BTreeMap::new(),
            terminating: None,
            ready: 0,
        };
        let (succ, fail) = get_new_finished_pods(&jc, &g);
        let succeeded = succ.len() as i32 + r.succeeded + jc.uncounted_succeeded.len() as i32;
        let failed = fail.len() as i32 + r.failed + jc.uncounted_failed.len() as i32;
        assert_eq!(succeeded, r.want_succeeded, "{name}: succeeded");
        assert_eq!(failed, r.want_failed, "{name}: failed");
    }
}
