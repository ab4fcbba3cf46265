//! Further ports of `pkg/controller/job/job_controller_test.go`: the "limited pods" row of
//! TestControllerSyncJob (a pod control that accepts only a number of creations) and
//! TestSyncJobExpectations.

use super::*;

/// Makes every pod creation after the first `ok` fail: the names the API server would generate
/// for the later ones (and its seven retries of each) are taken by unrelated pods, so the
/// creation fails as a pod control past its `CreateLimit` does upstream. Each successful
/// creation draws a name and a uid from the API server's generator.
fn block_pod_creations_after(f: &mut Fixture, base: &str, ok: usize, failing: usize) {
    let mut r = f.api.rng.clone();
    for _ in 0..ok {
        r.name_suffix(5);
        r.uuid();
    }
    let mut names = vec![];
    for _ in 0..failing {
        for _ in 0..8 {
            names.push(format!("{base}{}", r.name_suffix(5)));
        }
    }
    for (i, n) in names.into_iter().enumerate() {
        let mut p = Pod::default();
        p.metadata.name = n;
        p.metadata.namespace = "default".into();
        p.metadata.uid = format!("blocker-{i}");
        p.metadata.creation_timestamp = Some(ts("2024-01-01T00:00:00Z"));
        p.metadata.labels = [("blocker".to_string(), "true".to_string())].into();
        p.spec_mut().containers = vec![Container {
            name: "c".into(),
            image: "nginx".into(),
            ..Default::default()
        }];
        f.api.load(p.into_object()).expect("blocker pod loads");
    }
}

// Ported from TestControllerSyncJob (pkg/controller/job/job_controller_test.go), row "limited
// pods": parallelism 100, completions 200, the pod control refuses every creation after the
// tenth. Slow start stops after the batch with failures (1 + 2 + 4 + 8 calls, of which 10
// succeed); the skipped and failed creations are taken back from status.active (10) and from
// the expectations, and the sync reports the error.
#[test]
fn controller_sync_job_limited_pods() {
    let mut f = Fixture::new(false, false, false);
    let job = f.job(100, 200, 6, false);
    f.load_job(job);
    block_pod_creations_after(&mut f, "foobar-", 10, 5);
    f.api.store.take_changes();
    let mut ctl = JobController::new();
    let key = "default/foobar";
    let res = {
        let mut ctx = f.ctx();
        ctl.sync_job(key, &mut ctx)
    };
    assert!(res.is_err(), "a failed creation is reported: {res:?}");
    // Pods the Job controls (the blockers carry other labels and no owner).
    let created = f
        .api
        .store
        .list::<Pod>(Some("default"))
        .filter(|p| p.metadata.labels.get("foo").map(String::as_str) == Some("bar"))
        .count();
    assert_eq!(created, 10, "creations");
    assert_eq!(f.count("delete", "Pod"), 0, "deletions");
    let s = f.job_status();
    assert_eq!(s.active, 10, "active");
    assert_eq!(s.ready, Some(0), "ready");
    assert!(s.start_time.is_some(), "startTime");
    assert!(s.conditions.is_empty(), "conditions: {:?}", s.conditions);
    // Slow start: at most 1 + 2 + 4 + 8 creation calls; the expectations were lowered for every
    // creation that failed or was skipped, so only the 10 created pods are still expected.
    assert!(
        !ctl.expectations.satisfied_expectations(key, f.api.now),
        "the 10 creations are still expected"
    );
    for _ in 0..10 {
        ctl.expectations.creation_observed(key);
    }
    assert!(
        ctl.expectations.satisfied_expectations(key, f.api.now),
        "no other creation is expected"
    );
}

// Ported from TestSyncJobExpectations (pkg/controller/job/job_controller_test.go): the active
// pods are counted after the expectations are checked, so a pod that shows up between the two
// (upstream adds it from the expectations check) is counted and no replacement is created.
// kubeplay's store is read once per sync, after the check: both pending pods are there.
#[test]
fn sync_job_expectations() {
    let mut f = Fixture::new(false, false, false);
    let job = f.job(2, 2, 6, false);
    f.load_job(job);
    let job = f.api.store.get::<Job>("default", "foobar").unwrap().clone();
    f.pod(&job, "Pending", false, false, None);
    f.pod(&job, "Pending", false, false, None);
    f.api.store.take_changes();
    let mut ctl = JobController::new();
    {
        let mut ctx = f.ctx();
        ctl.sync_job("default/foobar", &mut ctx)
            .expect("sync succeeds");
    }
    assert_eq!(f.count("create", "Pod"), 0, "creations");
    assert_eq!(f.count("delete", "Pod"), 0, "deletions");
    assert_eq!(f.job_status().active, 2, "active");
}

// Ported from TestControllerSyncJob (pkg/controller/job/job_controller_test.go), rows "indexed job
// start" and "indexed job with podIndexLabel feature disabled", with what upstream's
// checkIndexedJobPods, checkJobCompletionLabel and checkJobCompletionEnvVariable verify on the
// created pods: indexes 0 and 1, hostname `<job>-<ix>`, generateName `<job>-<ix>-`, the
// completion-index label only with PodIndexLabel on, and JOB_COMPLETION_INDEX read from the label
// (gate on) or from the annotation (gate off).
#[test]
fn controller_sync_job_indexed_pods_with_and_without_pod_index_label() {
    for label in [true, false] {
        let mut f = Fixture::new(false, false, false);
        f.gates.set("PodIndexLabel", label);
        let job = f.job(2, 5, 6, true);
        f.load_job(job);
        f.api.store.take_changes();
        let mut ctl = JobController::new();
        {
            let mut ctx = f.ctx();
            ctl.sync_job("default/foobar", &mut ctx)
                .expect("sync succeeds");
        }
        let want_path = if label {
            format!("metadata.labels['{JOB_COMPLETION_INDEX_ANNOTATION}']")
        } else {
            format!("metadata.annotations['{JOB_COMPLETION_INDEX_ANNOTATION}']")
        };
        let pods: Vec<Pod> = f.api.store.list::<Pod>(Some("default")).cloned().collect();
        assert_eq!(pods.len(), 2, "label {label}: creations");
        let mut indexes = vec![];
        for p in &pods {
            let ix = p.metadata.annotations[JOB_COMPLETION_INDEX_ANNOTATION].clone();
            assert_eq!(p.spec.hostname, format!("foobar-{ix}"), "label {label}");
            assert_eq!(
                p.metadata.generate_name,
                format!("foobar-{ix}-"),
                "label {label}"
            );
            assert_eq!(
                p.metadata.labels.get(JOB_COMPLETION_INDEX_ANNOTATION),
                label.then_some(&ix),
                "label {label}: completion-index label"
            );
            for c in &p.spec.containers {
                let env = c.extra.get("env").and_then(|e| e.as_array()).expect("env");
                assert_eq!(env.len(), 1, "label {label}: {env:?}");
                assert_eq!(env[0]["name"], "JOB_COMPLETION_INDEX", "label {label}");
                assert_eq!(
                    env[0]["valueFrom"]["fieldRef"]["fieldPath"], want_path,
                    "label {label}"
                );
            }
            indexes.push(ix);
        }
        indexes.sort();
        assert_eq!(indexes, ["0", "1"], "label {label}: created indexes");
        let s = f.job_status();
        assert_eq!(s.active, 2, "label {label}: active");
        assert_eq!(s.ready, Some(0), "label {label}: ready");
    }
}
