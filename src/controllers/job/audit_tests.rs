//! Fidelity audit of the Job controller helpers against upstream (`pkg/controller/job/`):
//! hand-derived boundary cases the ported test tables do not cover.

use super::backoff_utils::{get_finished_time, BackoffStore};
use crate::api::{
    Container, ContainerState, ContainerStateTerminated, ContainerStatus, Pod, PodCondition, Time,
};

fn t0() -> Time {
    Time::parse_rfc3339("2009-11-10T23:00:00Z").unwrap()
}

fn secs(s: i64) -> crate::api::Duration {
    crate::api::Duration::from_secs(s)
}

fn status(name: &str, finished: Option<Option<Time>>) -> ContainerStatus {
    ContainerStatus {
        name: name.into(),
        state: Some(match finished {
            Some(at) => ContainerState {
                terminated: Some(ContainerStateTerminated {
                    finished_at: at,
                    ..Default::default()
                }),
                ..Default::default()
            },
            None => ContainerState {
                running: Some(Default::default()),
                ..Default::default()
            },
        }),
        ..Default::default()
    }
}

fn init_container(name: &str, restart_policy: Option<&str>) -> Container {
    Container {
        name: name.into(),
        restart_policy: restart_policy.map(Into::into),
        ..Default::default()
    }
}

fn ready_false(at: Time) -> PodCondition {
    PodCondition {
        type_: "Ready".into(),
        status: "False".into(),
        last_transition_time: Some(at),
        ..Default::default()
    }
}

// upstream: getFinishTimeFromContainers / latestFinishTime (backoff_utils.go). Only the statuses
// of sidecars (init containers with restartPolicy Always in the spec) are read after the regular
// containers; a regular init container is skipped, even when it is not terminated or finished
// later.
#[test]
fn finished_time_skips_regular_init_containers() {
    let t = t0();
    let mut p = Pod::default();
    p.spec_mut().init_containers = vec![init_container("setup", None)];
    p.status.container_statuses = vec![status("main", Some(Some(t - secs(5))))];
    p.status.init_container_statuses = vec![status("setup", Some(Some(t)))];
    assert_eq!(get_finished_time(&p), t - secs(5));

    // A regular init container that is not terminated does not hide the containers' time.
    p.status.init_container_statuses = vec![status("setup", None)];
    p.status.conditions = vec![ready_false(t + secs(30))];
    assert_eq!(get_finished_time(&p), t - secs(5));

    // restartPolicy Never on an init container is not a sidecar either.
    p.spec_mut().init_containers = vec![init_container("setup", Some("Never"))];
    p.status.init_container_statuses = vec![status("setup", Some(Some(t)))];
    assert_eq!(get_finished_time(&p), t - secs(5));
}

// upstream: getFinishTimeFromContainers (backoff_utils.go): a sidecar still running makes the
// containers' time unknown (falls back to the Ready=False transition).
#[test]
fn finished_time_running_sidecar_falls_back() {
    let t = t0();
    let mut p = Pod::default();
    p.spec_mut().init_containers = vec![init_container("proxy", Some("Always"))];
    p.status.container_statuses = vec![status("main", Some(Some(t - secs(5))))];
    p.status.init_container_statuses = vec![status("proxy", None)];
    p.status.conditions = vec![ready_false(t + secs(30))];
    assert_eq!(get_finished_time(&p), t + secs(30));
}

// upstream: getFinishTimeFromContainers (backoff_utils.go): latestFinishTime returns nil as soon
// as a regular container is not terminated, and the sidecar pass then starts over from nil — so
// the sidecars' latest finish time is used even though a regular container never finished.
#[test]
fn finished_time_sidecars_after_unfinished_regular_container() {
    let t = t0();
    let mut p = Pod::default();
    p.spec_mut().init_containers = vec![
        init_container("proxy", Some("Always")),
        init_container("log", Some("Always")),
    ];
    p.status.container_statuses = vec![status("main", None)];
    p.status.init_container_statuses = vec![
        status("proxy", Some(Some(t - secs(2)))),
        status("log", Some(Some(t - secs(1)))),
    ];
    p.status.conditions = vec![ready_false(t + secs(30))];
    assert_eq!(get_finished_time(&p), t - secs(1));

    // No regular container status at all: the sidecars alone.
    p.status.container_statuses.clear();
    assert_eq!(get_finished_time(&p), t - secs(1));
}

// upstream: newBackoffRecord (backoff_utils.go) with the finish times above: the failed pod whose
// regular init container finished after the success is still before it, so it does not count.
#[test]
fn backoff_record_uses_container_finish_times() {
    let t = t0();
    let mut succeeded = Pod::default();
    succeeded.status.phase = "Succeeded".into();
    succeeded.status.container_statuses = vec![status("main", Some(Some(t)))];
    let mut failed = Pod::default();
    failed.status.phase = "Failed".into();
    failed.spec_mut().init_containers = vec![init_container("setup", None)];
    failed.status.container_statuses = vec![status("main", Some(Some(t - secs(10))))];
    failed.status.init_container_statuses = vec![status("setup", Some(Some(t + secs(10))))];
    let store = BackoffStore::new();
    let r = store.new_backoff_record("ns/job", &[&succeeded], &[&failed]);
    assert_eq!(r.failures_after_last_success, 0);
    assert_eq!(r.last_failure_time, None);
}

fn pod_with_counts(failures: &str, ignored: Option<&str>) -> Pod {
    use crate::api::batch::{
        JOB_INDEX_FAILURE_COUNT_ANNOTATION, JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION,
    };
    let mut p = Pod::default();
    p.status.phase = "Failed".into();
    p.metadata
        .annotations
        .insert(JOB_INDEX_FAILURE_COUNT_ANNOTATION.into(), failures.into());
    if let Some(i) = ignored {
        p.metadata
            .annotations
            .insert(JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION.into(), i.into());
    }
    p
}

// upstream: getIndexAbsoluteFailureCount / getNewIndexFailureCounts (indexed_job_utils.go) add
// int32 values: the annotations are user-writable, and at MaxInt32 the counts wrap (no panic).
#[test]
fn index_failure_counts_wrap_as_int32() {
    use super::indexed_job_utils::{
        get_index_absolute_failure_count, get_new_index_failure_counts,
    };
    let job = crate::api::batch::Job::default();
    let g = super::JobGates::default();
    let p = pod_with_counts("2147483647", Some("1"));
    assert_eq!(get_index_absolute_failure_count(&p), i32::MIN);
    let p = pod_with_counts("2147483647", None);
    assert_eq!(
        get_new_index_failure_counts(&job, Some(&p), &g),
        (i32::MIN, 0)
    );
    // Out-of-range or negative annotations read as 0.
    let p = pod_with_counts("2147483648", Some("-3"));
    assert_eq!(get_index_absolute_failure_count(&p), 0);
}

// upstream: getRemainingTimePerIndex (backoff_utils.go): failureCount = absolute count + 1 in
// int32; a wrapped, negative count skips the doubling loop, leaving the default 10 s.
#[test]
fn per_index_backoff_with_wrapped_count() {
    use super::backoff_utils::{
        get_remaining_time_per_index, DEFAULT_JOB_POD_FAILURE_BACKOFF, MAX_JOB_POD_FAILURE_BACKOFF,
    };
    let t = t0();
    let mut p = pod_with_counts("2147483647", Some("1"));
    p.status.conditions = vec![ready_false(t)];
    assert_eq!(
        get_remaining_time_per_index(
            t + secs(4),
            DEFAULT_JOB_POD_FAILURE_BACKOFF,
            MAX_JOB_POD_FAILURE_BACKOFF,
            Some(&p)
        ),
        secs(6)
    );
    // Counts 3 + 1 ignored: the 5th attempt waits 10 s * 2^4 = 160 s.
    let mut p = pod_with_counts("3", Some("1"));
    p.status.conditions = vec![ready_false(t)];
    assert_eq!(
        get_remaining_time_per_index(
            t + secs(60),
            DEFAULT_JOB_POD_FAILURE_BACKOFF,
            MAX_JOB_POD_FAILURE_BACKOFF,
            Some(&p)
        ),
        secs(100)
    );
}

// upstream: syncJob / cleanUncountedPodsWithoutFinalizers (job_controller.go) add the counters as
// int32: a status.failed of MaxInt32 (valid: only non-negativity is checked) wraps instead of
// panicking; the wrapped, negative counter is then refused by the status validation.
#[test]
fn counters_wrap_as_int32() {
    use crate::api::batch::{Job, JobSpec, JOB_TRACKING_FINALIZER};
    use crate::api::object::Resource;
    use crate::api::{LabelSelector, Labels, PodTemplateSpec};
    use crate::controllers::controller_utils::{get_pod_from_template, new_controller_ref};
    use crate::controllers::{Controller, Ctx};
    use crate::features::FeatureGates;
    use crate::queue::WorkQueue;
    use crate::store::apiserver::ApiServer;
    use crate::world::World;

    let now = Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap();
    let mut api = ApiServer::new(3, now);
    let labels: Labels = [("foo".to_string(), "bar".to_string())].into();
    let mut template = PodTemplateSpec::default();
    template.metadata.labels = labels.clone().into();
    template.spec_mut().restart_policy = "Never".into();
    template.spec_mut().containers = vec![Container {
        name: "c".into(),
        image: "foo/bar".into(),
        ..Default::default()
    }];
    let mut job = Job {
        spec: (JobSpec {
            parallelism: Some(1),
            completions: Some(2),
            backoff_limit: Some(6),
            completion_mode: Some("NonIndexed".into()),
            manual_selector: Some(true),
            selector: Some(LabelSelector::from_labels(&labels)),
            template: std::sync::Arc::new(template),
            ..Default::default()
        })
        .into(),
        ..Default::default()
    };
    job.metadata.name = "foobar".into();
    job.metadata.namespace = "default".into();
    job.metadata.uid = "job-uid".into();
    job.status.failed = i32::MAX;
    job.status.start_time = Some(now);
    let mut p = get_pod_from_template(
        &job.spec.template,
        &job.metadata,
        Some(&new_controller_ref(&job.metadata, "batch/v1", "Job")),
    );
    p.metadata.name = "pod-1".into();
    p.metadata.generate_name.clear();
    p.metadata.uid = "pod-uid-1".into();
    p.metadata.finalizers = vec![JOB_TRACKING_FINALIZER.into()].into();
    p.metadata.creation_timestamp = Some(now - secs(3600));
    p.status.phase = "Failed".into();
    api.load(job.into_object()).unwrap();
    api.load(p.into_object()).unwrap();

    let gates = FeatureGates::default();
    let mut queue = WorkQueue::new();
    let mut world = World::default();
    let mut actions = vec![];
    let mut ctx = Ctx {
        api: &mut api,
        gates: &gates,
        queue: &mut queue,
        world: &mut world,
        actions: &mut actions,
        component: super::COMPONENT,
    };
    let mut jc = super::JobController::new();
    let err = jc.sync("default/foobar", &mut ctx).unwrap_err();
    assert!(
        err.to_string()
            .contains("removing uncounted pods from status"),
        "{err}"
    );
}
