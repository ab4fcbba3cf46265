//! Pod failure back-off (`pkg/controller/job/backoff_utils.go`): per Job, the failures since the
//! last success and when the last one happened; the delay before replacing a failed pod is
//! 10 s doubling per failure, capped at 10 minutes.

use super::indexed_job_utils::get_index_absolute_failure_count;
use crate::api::{Duration, Pod, Time};
use crate::controllers::controller_utils::sort_by_less;
use std::collections::BTreeMap;

/// `DefaultJobPodFailureBackOff`.
pub const DEFAULT_JOB_POD_FAILURE_BACKOFF: Duration = Duration::from_secs(10);
/// `MaxJobPodFailureBackOff`. The Job docs (and the seed) say six minutes; the controller has used
/// ten since Kubernetes 1.28 — upstream wins.
pub const MAX_JOB_POD_FAILURE_BACKOFF: Duration = Duration::from_mins(10);

/// `backoffRecord`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackoffRecord {
    pub key: String,
    pub failures_after_last_success: i32,
    pub last_failure_time: Option<Time>,
}

/// `backoffStore`: the controller's in-memory records, by Job key.
#[derive(Clone, Debug, Default)]
pub struct BackoffStore {
    store: BTreeMap<String, Box<BackoffRecord>>,
}

impl BackoffStore {
    pub fn new() -> Self {
        Self::default()
    }

    /// `updateBackoffRecord`.
    pub fn update_backoff_record(&mut self, r: BackoffRecord) {
        self.store.insert(r.key.clone(), Box::new(r));
    }

    /// `removeBackoffRecord`.
    pub fn remove_backoff_record(&mut self, key: &str) {
        self.store.remove(key);
    }

    pub fn get(&self, key: &str) -> Option<&BackoffRecord> {
        self.store.get(key).map(|r| &**r)
    }

    /// `newBackoffRecord`: the stored record updated with the pods that finished since the last
    /// sync (not stored until the status is written). No new successes: failures add up and the
    /// newest failure is the last one. New successes: the count restarts with the failures that
    /// finished strictly after the newest success.
    pub fn new_backoff_record(
        &self,
        key: &str,
        new_succeeded: &[&Pod],
        new_failed: &[&Pod],
    ) -> BackoffRecord {
        let mut b = self
            .store
            .get(key)
            .map(|r| (**r).clone())
            .unwrap_or(BackoffRecord {
                key: key.into(),
                failures_after_last_success: 0,
                last_failure_time: None,
            });
        let mut succ = new_succeeded.to_vec();
        let mut fail = new_failed.to_vec();
        sort_by_finished_time(&mut succ);
        sort_by_finished_time(&mut fail);
        if succ.is_empty() {
            if fail.is_empty() {
                return b;
            }
            b.failures_after_last_success += fail.len() as i32;
            b.last_failure_time = Some(get_finished_time(fail[fail.len() - 1]));
            return b;
        }
        b.failures_after_last_success = 0;
        b.last_failure_time = None;
        if fail.is_empty() {
            return b;
        }
        let last_success = get_finished_time(succ[succ.len() - 1]);
        for p in fail.iter().rev() {
            let t = get_finished_time(p);
            if t <= last_success {
                break;
            }
            if b.last_failure_time.is_none() {
                b.last_failure_time = Some(t);
            }
            b.failures_after_last_success += 1;
        }
        b
    }
}

/// Sorts by finish time (stable: equal times keep their order).
fn sort_by_finished_time(pods: &mut Vec<&Pod>) {
    sort_by_less(pods, |a, b| get_finished_time(a) < get_finished_time(b));
}

/// `getFinishedTime`: the latest `finishedAt` when every container (regular, then init) is
/// terminated with a set time; else the `Ready=False` transition time; else `deletionTimestamp −
/// deletionGracePeriodSeconds`; else the creation time.
pub fn get_finished_time(p: &Pod) -> Time {
    if let Some(t) = get_finish_time_from_containers(p) {
        return t;
    }
    if let Some(c) = p.status.conditions.iter().find(|c| c.type_ == "Ready") {
        if c.status == "False" {
            if let Some(t) = c.last_transition_time.filter(|t| !t.is_zero()) {
                return t;
            }
        }
    }
    if let Some(d) = p.metadata.deletion_timestamp {
        return d - Duration::from_secs(p.metadata.deletion_grace_period_seconds.unwrap_or(0));
    }
    p.metadata.creation_timestamp.unwrap_or(Time::ZERO)
}

fn get_finish_time_from_containers(p: &Pod) -> Option<Time> {
    // Regular containers first; then (SidecarContainers, GA) the sidecars' statuses, starting
    // over from `None` when a regular container has not finished (upstream's latestFinishTime).
    let finish = latest_finish_time(None, p.status.container_statuses.iter());
    let sidecars: Vec<&str> = p
        .spec
        .init_containers
        .iter()
        .filter(|c| c.restart_policy.as_deref() == Some("Always"))
        .map(|c| c.name.as_str())
        .collect();
    latest_finish_time(
        finish,
        p.status
            .init_container_statuses
            .iter()
            .filter(|s| sidecars.contains(&s.name.as_str())),
    )
}

/// `latestFinishTime`: `None` as soon as one status is not terminated with a set time.
fn latest_finish_time<'a>(
    prev: Option<Time>,
    statuses: impl Iterator<Item = &'a crate::api::ContainerStatus>,
) -> Option<Time> {
    let mut finish = prev;
    for cs in statuses {
        let t = cs.state.as_ref()?.terminated.as_ref()?;
        let at = t.finished_at.filter(|t| !t.is_zero())?;
        if finish.is_none_or(|f| f < at) {
            finish = Some(at);
        }
    }
    finish
}

impl BackoffRecord {
    /// `getRemainingTime`.
    pub fn get_remaining_time(&self, now: Time, default: Duration, max: Duration) -> Duration {
        get_remaining_time_for_failures_count(
            now,
            default,
            max,
            self.failures_after_last_success,
            self.last_failure_time,
        )
    }
}

/// `getRemainingTimePerIndex`: the delay before replacing the last failed pod of an index,
/// counting its absolute failure count (counted + ignored) plus one.
pub fn get_remaining_time_per_index(
    now: Time,
    default: Duration,
    max: Duration,
    last_failed: Option<&Pod>,
) -> Duration {
    let Some(p) = last_failed else {
        return Duration::ZERO;
    };
    // int32 arithmetic, as upstream: a wrapped (negative) count gives the default back-off.
    let count = get_index_absolute_failure_count(p).wrapping_add(1);
    get_remaining_time_for_failures_count(now, default, max, count, Some(get_finished_time(p)))
}

/// `getRemainingTimeForFailuresCount`: `default · 2^(count−1)` (doubling stops once it reaches
/// `max`) minus the time since the last failure, never negative.
pub fn get_remaining_time_for_failures_count(
    now: Time,
    default: Duration,
    max: Duration,
    count: i32,
    last: Option<Time>,
) -> Duration {
    if count == 0 {
        return Duration::ZERO;
    }
    let mut d = default.0;
    for _ in 1..count {
        d = d.saturating_mul(2);
        if d >= max.0 {
            d = max.0;
            break;
        }
    }
    let elapsed = now - last.unwrap_or(Time::ZERO);
    if d < elapsed.0 {
        return Duration::ZERO;
    }
    Duration(d - elapsed.0)
}

#[cfg(test)]
#[allow(clippy::type_complexity)]
mod tests {
    use super::*;
    use crate::api::{ContainerState, ContainerStateTerminated, ContainerStatus, PodCondition};

    fn t0() -> Time {
        Time::parse_rfc3339("2009-11-10T23:00:00Z").unwrap()
    }

    fn finished(phase: &str, at: Time) -> Pod {
        let mut p = Pod::default();
        p.status.phase = phase.into();
        p.status.container_statuses = vec![ContainerStatus {
            state: Some(ContainerState {
                terminated: Some(ContainerStateTerminated {
                    finished_at: Some(at),
                    ..Default::default()
                }),
                ..Default::default()
            }),
            ..Default::default()
        }];
        p
    }

    // Port of TestNewBackoffRecord (pkg/controller/job/backoff_utils_test.go).
    #[test]
    fn new_backoff_record_table() {
        let ms = Duration::from_millis;
        let t = t0();
        let cases: Vec<(
            &str,
            Option<BackoffRecord>,
            Vec<Time>,
            Vec<Time>,
            i32,
            Option<Time>,
        )> = vec![
            (
                "Empty backoff store and one new failure",
                None,
                vec![],
                vec![t],
                1,
                Some(t),
            ),
            (
                "Empty backoff store and two new failures",
                None,
                vec![],
                vec![t, t - ms(1)],
                2,
                Some(t),
            ),
            (
                "Empty backoff store, two failures followed by success",
                None,
                vec![t],
                vec![t - ms(2), t - ms(1)],
                0,
                None,
            ),
            (
                "Empty backoff store, two failures, one success and two more failures",
                None,
                vec![t - ms(2)],
                vec![t, t - ms(4), t - ms(3), t - ms(1)],
                2,
                Some(t),
            ),
            (
                "Backoff store having failure count 2 and one new failure",
                Some(BackoffRecord {
                    key: "key".into(),
                    failures_after_last_success: 2,
                    last_failure_time: None,
                }),
                vec![],
                vec![t],
                3,
                Some(t),
            ),
            (
                "Empty backoff store with success and failure at same timestamp",
                None,
                vec![t],
                vec![t],
                0,
                None,
            ),
            (
                "Empty backoff store with no success/failure",
                None,
                vec![],
                vec![],
                0,
                None,
            ),
            (
                "Empty backoff store with one success",
                None,
                vec![t],
                vec![],
                0,
                None,
            ),
        ];
        for (name, init, succ, fail, want_count, want_last) in cases {
            let mut store = BackoffStore::new();
            if let Some(r) = init {
                store.update_backoff_record(r);
            }
            let sp: Vec<Pod> = succ.iter().map(|t| finished("Succeeded", *t)).collect();
            let fp: Vec<Pod> = fail.iter().map(|t| finished("Failed", *t)).collect();
            let sr: Vec<&Pod> = sp.iter().collect();
            let fr: Vec<&Pod> = fp.iter().collect();
            let r = store.new_backoff_record("key", &sr, &fr);
            assert_eq!(r.key, "key", "{name}");
            assert_eq!(r.failures_after_last_success, want_count, "{name}");
            assert_eq!(r.last_failure_time, want_last, "{name}");
        }
    }

    // Port of TestGetFinishedTime.
    #[test]
    fn get_finished_time_table() {
        let t = t0();
        let term = |at: Option<Time>| ContainerStatus {
            state: Some(ContainerState {
                terminated: Some(ContainerStateTerminated {
                    finished_at: at,
                    ..Default::default()
                }),
                ..Default::default()
            }),
            ..Default::default()
        };
        let running = ContainerStatus {
            state: Some(ContainerState {
                running: Some(Default::default()),
                ..Default::default()
            }),
            ..Default::default()
        };
        let s = Duration::from_secs;
        // All containers terminated: the latest.
        let mut p = Pod::default();
        p.status.container_statuses =
            vec![term(Some(t - s(1))), term(Some(t)), term(Some(t - s(2)))];
        assert_eq!(get_finished_time(&p), t);
        // One still running: deletionTimestamp.
        let mut p = Pod::default();
        p.status.container_statuses =
            vec![term(Some(t - s(1))), running.clone(), term(Some(t - s(2)))];
        p.metadata.deletion_timestamp = Some(t);
        assert_eq!(get_finished_time(&p), t);
        // "fallback to deletionTimestamp": the only container is running.
        let mut p = Pod::default();
        p.status.container_statuses = vec![running.clone()];
        p.metadata.deletion_timestamp = Some(t);
        assert_eq!(get_finished_time(&p), t);
        // Deletion timestamp minus the grace period.
        let mut p = Pod::default();
        p.status.container_statuses = vec![running.clone()];
        p.metadata.deletion_timestamp = Some(t);
        p.metadata.deletion_grace_period_seconds = Some(30);
        assert_eq!(get_finished_time(&p), t - s(30));
        // Ready=False transition time.
        let mut p = Pod::default();
        p.status.container_statuses = vec![term(None)];
        p.status.conditions = vec![PodCondition {
            type_: "Ready".into(),
            status: "False".into(),
            reason: "PodFailed".into(),
            last_transition_time: Some(t),
            ..Default::default()
        }];
        assert_eq!(get_finished_time(&p), t);
        // Ready=True is skipped.
        let mut p = Pod::default();
        p.status.container_statuses = vec![term(None)];
        p.status.conditions = vec![PodCondition {
            type_: "Ready".into(),
            status: "True".into(),
            last_transition_time: Some(t - s(30)),
            ..Default::default()
        }];
        p.metadata.deletion_timestamp = Some(t);
        assert_eq!(get_finished_time(&p), t);
        // Creation time.
        let mut p = Pod::default();
        p.status.container_statuses = vec![term(None)];
        p.metadata.creation_timestamp = Some(t);
        assert_eq!(get_finished_time(&p), t);
        // Sidecar (restartable init) containers count too: they finish after the regular
        // containers (see also audit_tests.rs for non-sidecar init containers).
        let mut p = Pod::default();
        p.spec_mut().init_containers = vec![crate::api::Container {
            name: "sidecar".into(),
            restart_policy: Some("Always".into()),
            ..Default::default()
        }];
        p.status.container_statuses = vec![term(Some(t - s(1)))];
        let mut sidecar = term(Some(t));
        sidecar.name = "sidecar".into();
        p.status.init_container_statuses = vec![sidecar];
        assert_eq!(get_finished_time(&p), t);
    }

    // Port of TestGetRemainingBackoffTime.
    #[test]
    fn get_remaining_backoff_time_table() {
        let t = t0();
        let s = Duration::from_secs;
        let cases = [
            ("no failures", 0, None, t, 0),
            (
                "one failure; current time and failure time are same",
                1,
                Some(t),
                t,
                5,
            ),
            (
                "one failure; current time == 1 second + failure time",
                1,
                Some(t),
                t + s(1),
                4,
            ),
            (
                "one failure; current time == expected backoff time",
                1,
                Some(t),
                t + s(5),
                0,
            ),
            (
                "one failure; current time == expected backoff time + 1 Second",
                1,
                Some(t),
                t + s(6),
                0,
            ),
            (
                "three failures; current time and failure time are same",
                3,
                Some(t),
                t,
                20,
            ),
            (
                "eight failures; backoff not exceeding maxBackoff",
                8,
                Some(t),
                t,
                640,
            ),
            (
                "nine failures; backoff exceeding maxBackoff",
                9,
                Some(t),
                t,
                700,
            ),
        ];
        for (name, count, last, now, want) in cases {
            let r = BackoffRecord {
                key: String::new(),
                failures_after_last_success: count,
                last_failure_time: last,
            };
            assert_eq!(r.get_remaining_time(now, s(5), s(700)), s(want), "{name}");
        }
        // The defaults: 10 s doubling to 10 minutes.
        let r = |n| BackoffRecord {
            key: String::new(),
            failures_after_last_success: n,
            last_failure_time: Some(t),
        };
        let d = |n| {
            r(n).get_remaining_time(
                t,
                DEFAULT_JOB_POD_FAILURE_BACKOFF,
                MAX_JOB_POD_FAILURE_BACKOFF,
            )
        };
        assert_eq!(d(1), s(10));
        assert_eq!(d(2), s(20));
        assert_eq!(d(6), s(320));
        assert_eq!(d(7), s(600));
        assert_eq!(d(30), s(600));
    }

    // Port of TestGetRemainingBackoffTimePerIndex.
    #[test]
    fn get_remaining_backoff_time_per_index_table() {
        let t = t0();
        let s = Duration::from_secs;
        let failed = |count: &str, ignored: Option<&str>| {
            let mut p = Pod::default();
            p.status.phase = "Failed".into();
            p.metadata.annotations.insert(
                crate::api::batch::JOB_INDEX_FAILURE_COUNT_ANNOTATION.into(),
                count.into(),
            );
            if let Some(i) = ignored {
                p.metadata.annotations.insert(
                    crate::api::batch::JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION.into(),
                    i.into(),
                );
            }
            p.metadata.deletion_timestamp = Some(t);
            p
        };
        assert_eq!(get_remaining_time_per_index(t, s(5), s(700), None), s(0));
        let p = failed("2", None);
        assert_eq!(
            get_remaining_time_per_index(t, s(5), s(700), Some(&p)),
            s(20)
        );
        let p = failed("1", Some("1"));
        assert_eq!(
            get_remaining_time_per_index(t, s(5), s(700), Some(&p)),
            s(20)
        );
        let p = failed("1", Some("1"));
        assert_eq!(
            get_remaining_time_per_index(t + s(15), s(5), s(700), Some(&p)),
            s(5)
        );
    }
}
