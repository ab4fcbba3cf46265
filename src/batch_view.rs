//! What the page's CronJob timeline and Job views show: CronJobs with their schedule ticks
//! (past and future) and Jobs with their pods by index, conditions and TTL; all pure data.
//!
//! Times are seconds since the scenario started (negative before it), so the page can place
//! them on its clock without parsing dates.

use crate::api::{CronJob, Job, Pod, Time};
use crate::cron;
use crate::sim::Simulation;
use serde::Serialize;

/// The annotation the CronJob controller puts on a Job with its scheduled time.
pub const SCHEDULED_TIMESTAMP: &str = "batch.kubernetes.io/cronjob-scheduled-timestamp";
/// The annotation with an indexed Job pod's completion index.
pub const COMPLETION_INDEX: &str = "batch.kubernetes.io/job-completion-index";

/// Most past ticks returned per CronJob (the most recent ones).
pub const MAX_PAST_TICKS: usize = 2000;

#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct BatchView {
    pub now: f64,
    pub now_rfc3339: String,
    pub cron_jobs: Vec<CronJobView>,
    pub jobs: Vec<JobView>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CronJobView {
    pub namespace: String,
    pub name: String,
    pub uid: String,
    pub schedule: String,
    pub time_zone: Option<String>,
    /// "At 00:00 on day-of-month 13 or on Friday", or the parse error.
    pub description: String,
    pub suspend: bool,
    pub concurrency_policy: String,
    pub starting_deadline_seconds: Option<i64>,
    pub successful_jobs_history_limit: i32,
    pub failed_jobs_history_limit: i32,
    pub created: Option<f64>,
    pub last_schedule_time: Option<f64>,
    pub last_successful_time: Option<f64>,
    pub active: Vec<String>,
    /// Schedule ticks after max(creation, now - window) up to now (at most [`MAX_PAST_TICKS`]).
    pub past_ticks: Vec<f64>,
    /// The next ticks after now.
    pub next_ticks: Vec<f64>,
    /// The next ticks as RFC 3339 times in the schedule's zone.
    pub next_rfc3339: Vec<String>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct JobConditionView {
    #[serde(rename = "type")]
    pub type_: String,
    pub status: String,
    pub reason: String,
    pub message: String,
    pub time: Option<f64>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct JobPodView {
    pub name: String,
    pub uid: String,
    /// The completion index (Indexed Jobs), or -1.
    pub index: i64,
    pub phase: String,
    pub reason: String,
    pub terminating: bool,
    pub created: Option<f64>,
    pub finished: Option<f64>,
    /// Exit code of the first terminated container, if any.
    pub exit_code: Option<i32>,
    pub restarts: i32,
    /// The pod carries a DisruptionTarget condition with status True.
    pub disrupted: bool,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct JobView {
    pub namespace: String,
    pub name: String,
    pub uid: String,
    pub owner_kind: String,
    pub owner_name: String,
    pub created: Option<f64>,
    /// The CronJob's scheduled time for this Job (annotation), if any.
    pub scheduled: Option<f64>,
    pub start_time: Option<f64>,
    pub completion_time: Option<f64>,
    /// "Complete", "Failed", "Suspended" or "Running".
    pub state: String,
    /// When the Job finished (Complete or Failed condition).
    pub finished: Option<f64>,
    pub completions: Option<i32>,
    pub parallelism: i32,
    pub completion_mode: String,
    pub backoff_limit: i32,
    pub backoff_limit_per_index: Option<i32>,
    pub active_deadline_seconds: Option<i64>,
    pub suspend: bool,
    pub ttl_seconds_after_finished: Option<i32>,
    /// finished + ttl, when both are known.
    pub ttl_expires: Option<f64>,
    pub active: i32,
    pub ready: i32,
    pub succeeded: i32,
    pub failed: i32,
    pub terminating: i32,
    pub completed_indexes: String,
    pub failed_indexes: String,
    pub conditions: Vec<JobConditionView>,
    /// "FailJob on exit codes In [42] (container main)", one per podFailurePolicy rule.
    pub pod_failure_policy: Vec<String>,
    pub pods: Vec<JobPodView>,
}

fn rel(sim: &Simulation, t: Option<Time>) -> Option<f64> {
    t.filter(|t| !t.is_zero())
        .map(|t| (t.unix_secs() - sim.start.unix_secs()) as f64)
}

/// The batch objects of a simulation, with past ticks within `window` seconds before now.
pub fn of(sim: &Simulation, window: f64) -> BatchView {
    let store = &sim.api.store;
    let now = sim.now();
    let cron_jobs = store
        .list::<CronJob>(None)
        .map(|cj| cron_job_view(sim, cj, window))
        .collect();
    let jobs = store
        .list::<Job>(None)
        .map(|j| {
            let pods: Vec<&Pod> = store
                .list::<Pod>(Some(&j.metadata.namespace))
                .filter(|p| {
                    p.metadata
                        .controller_ref()
                        .is_some_and(|r| r.uid == j.metadata.uid)
                })
                .collect();
            job_view(sim, j, &pods)
        })
        .collect();
    BatchView {
        now: rel(sim, Some(now)).unwrap_or(0.0),
        now_rfc3339: now.to_rfc3339(),
        cron_jobs,
        jobs,
    }
}

fn cron_job_view(sim: &Simulation, cj: &CronJob, window: f64) -> CronJobView {
    let now = sim.now();
    let created = cj.metadata.creation_timestamp.unwrap_or(now);
    let loc = cj
        .spec
        .time_zone
        .as_deref()
        .and_then(|z| cron::load_location(z).ok())
        .unwrap_or(cron::Location::Utc);
    let parsed = cron::parse_standard(&cj.spec.schedule);
    let description = match cron::describe(&cj.spec.schedule) {
        Ok(d) => d,
        Err(e) => format!("invalid schedule: {e}"),
    };
    let (mut past, mut next, mut next_rfc) = (vec![], vec![], vec![]);
    if let Ok(s) = &parsed {
        let window = if window.is_finite() && window > 0.0 {
            window.min(400.0 * 86400.0) as i64
        } else {
            3600
        };
        let from = Time::from_unix_secs(created.unix_secs().max(now.unix_secs() - window) - 1);
        let mut t = from;
        let mut ticks = std::collections::VecDeque::new();
        // Bounded: at most one tick per second over the window, trimmed to the newest ones.
        for _ in 0..(window as usize + 2).min(600_000) {
            t = s.next_in(t, &loc);
            if t.is_zero() || t > now {
                break;
            }
            if t >= created {
                ticks.push_back(t);
                if ticks.len() > MAX_PAST_TICKS {
                    ticks.pop_front();
                }
            }
        }
        past = ticks
            .into_iter()
            .map(|t| rel(sim, Some(t)).unwrap_or(0.0))
            .collect();
        let shown = s.location().cloned().unwrap_or_else(|| loc.clone());
        for t in cron::preview(s, now, 10, &loc) {
            next.push(rel(sim, Some(t)).unwrap_or(0.0));
            next_rfc.push(shown.rfc3339(t.unix_secs()));
        }
    }
    CronJobView {
        namespace: cj.metadata.namespace.clone(),
        name: cj.metadata.name.clone(),
        uid: cj.metadata.uid.clone(),
        schedule: cj.spec.schedule.clone(),
        time_zone: cj.spec.time_zone.clone(),
        description,
        suspend: cj.spec.suspend.unwrap_or(false),
        concurrency_policy: if cj.spec.concurrency_policy.is_empty() {
            "Allow".into()
        } else {
            cj.spec.concurrency_policy.clone()
        },
        starting_deadline_seconds: cj.spec.starting_deadline_seconds,
        successful_jobs_history_limit: cj.spec.successful_jobs_history_limit.unwrap_or(3),
        failed_jobs_history_limit: cj.spec.failed_jobs_history_limit.unwrap_or(1),
        created: rel(sim, cj.metadata.creation_timestamp),
        last_schedule_time: rel(sim, cj.status.last_schedule_time),
        last_successful_time: rel(sim, cj.status.last_successful_time),
        active: cj.status.active.iter().map(|r| r.name.clone()).collect(),
        past_ticks: past,
        next_ticks: next,
        next_rfc3339: next_rfc,
    }
}

/// One podFailurePolicy rule in words.
pub fn describe_rule(r: &crate::api::PodFailurePolicyRule) -> String {
    let mut s = r.action.clone();
    if let Some(e) = &r.on_exit_codes {
        let codes: Vec<String> = e.values.iter().map(i32::to_string).collect();
        s.push_str(&format!(
            " on exit codes {} [{}]",
            e.operator,
            codes.join(", ")
        ));
        if let Some(c) = &e.container_name {
            s.push_str(&format!(" (container {c})"));
        }
    }
    for c in &r.on_pod_conditions {
        let status = if c.status.is_empty() {
            "True"
        } else {
            &c.status
        };
        s.push_str(&format!(" on pod condition {}={status}", c.type_));
    }
    s
}

fn job_view(sim: &Simulation, j: &Job, pods: &[&Pod]) -> JobView {
    let cond = |t: &str| {
        j.status
            .conditions
            .iter()
            .find(|c| c.type_ == t && c.status == "True")
    };
    let finished_cond = cond("Complete").or_else(|| cond("Failed"));
    let state = match finished_cond {
        Some(c) => c.type_.clone(),
        None if j.spec.suspend.unwrap_or(false) => "Suspended".into(),
        None => "Running".into(),
    };
    let finished = finished_cond.and_then(|c| rel(sim, c.last_transition_time));
    let ttl = j.spec.ttl_seconds_after_finished;
    let owner = j.metadata.controller_ref();
    let mut pods: Vec<JobPodView> = pods
        .iter()
        .map(|p| {
            let term = p
                .status
                .container_statuses
                .iter()
                .find_map(|c| c.state.as_ref().and_then(|s| s.terminated.as_ref()));
            let waiting = p
                .status
                .container_statuses
                .iter()
                .find_map(|c| c.state.as_ref().and_then(|s| s.waiting.as_ref()));
            JobPodView {
                name: p.metadata.name.clone(),
                uid: p.metadata.uid.clone(),
                index: p
                    .metadata
                    .annotations
                    .get(COMPLETION_INDEX)
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(-1),
                phase: p.status.phase.clone(),
                reason: term
                    .map(|t| t.reason.clone())
                    .or_else(|| waiting.map(|w| w.reason.clone()))
                    .unwrap_or_default(),
                terminating: p.metadata.deletion_timestamp.is_some(),
                created: rel(sim, p.metadata.creation_timestamp),
                finished: rel(sim, term.and_then(|t| t.finished_at)),
                exit_code: term.map(|t| t.exit_code),
                restarts: p
                    .status
                    .container_statuses
                    .iter()
                    .map(|c| c.restart_count)
                    .sum(),
                disrupted: p
                    .status
                    .conditions
                    .iter()
                    .any(|c| c.type_ == "DisruptionTarget" && c.status == "True"),
            }
        })
        .collect();
    pods.sort_by(|a, b| {
        a.index
            .cmp(&b.index)
            .then(
                a.created
                    .partial_cmp(&b.created)
                    .unwrap_or(std::cmp::Ordering::Equal),
            )
            .then(a.name.cmp(&b.name))
    });
    JobView {
        namespace: j.metadata.namespace.clone(),
        name: j.metadata.name.clone(),
        uid: j.metadata.uid.clone(),
        owner_kind: owner.map(|r| r.kind.clone()).unwrap_or_default(),
        owner_name: owner.map(|r| r.name.clone()).unwrap_or_default(),
        created: rel(sim, j.metadata.creation_timestamp),
        scheduled: j
            .metadata
            .annotations
            .get(SCHEDULED_TIMESTAMP)
            .and_then(|v| Time::parse_rfc3339(v).ok())
            .and_then(|t| rel(sim, Some(t))),
        start_time: rel(sim, j.status.start_time),
        completion_time: rel(sim, j.status.completion_time),
        state,
        finished,
        completions: j.spec.completions,
        parallelism: j.spec.parallelism.unwrap_or(1),
        completion_mode: j
            .spec
            .completion_mode
            .clone()
            .unwrap_or_else(|| "NonIndexed".into()),
        backoff_limit: j.spec.backoff_limit.unwrap_or(6),
        backoff_limit_per_index: j.spec.backoff_limit_per_index,
        active_deadline_seconds: j.spec.active_deadline_seconds,
        suspend: j.spec.suspend.unwrap_or(false),
        ttl_seconds_after_finished: ttl,
        ttl_expires: finished.zip(ttl).map(|(f, t)| f + f64::from(t)),
        active: j.status.active,
        ready: j.status.ready.unwrap_or(0),
        succeeded: j.status.succeeded,
        failed: j.status.failed,
        terminating: j.status.terminating.unwrap_or(0),
        completed_indexes: j.status.completed_indexes.clone(),
        failed_indexes: j.status.failed_indexes.clone().unwrap_or_default(),
        conditions: j
            .status
            .conditions
            .iter()
            .map(|c| JobConditionView {
                type_: c.type_.clone(),
                status: c.status.clone(),
                reason: c.reason.clone(),
                message: c.message.clone(),
                time: rel(sim, c.last_transition_time),
            })
            .collect(),
        pod_failure_policy: j
            .spec
            .pod_failure_policy
            .iter()
            .flat_map(|p| p.rules.iter().map(describe_rule))
            .collect(),
        pods,
    }
}

/// A schedule preview for the page: the description and the next `n` runs after `after`.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SchedulePreview {
    pub description: String,
    pub next: Vec<String>,
    /// Empty when the schedule (and zone) are valid.
    pub error: String,
}

/// [`cron::describe`] and [`cron::preview_strings`] together; errors go into `error`.
pub fn schedule_preview(
    schedule: &str,
    time_zone: Option<&str>,
    after: Time,
    n: usize,
) -> SchedulePreview {
    let tz = time_zone.filter(|z| !z.is_empty());
    match (
        cron::describe(schedule),
        cron::preview_strings(schedule, tz, after, n.min(100)),
    ) {
        (Ok(description), Ok(next)) => SchedulePreview {
            description,
            next,
            error: String::new(),
        },
        (Err(e), _) | (_, Err(e)) => SchedulePreview {
            description: String::new(),
            next: vec![],
            error: e,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Duration;

    fn builtin(name: &str) -> Simulation {
        crate::scenario::Scenario::parse(crate::scenario::builtin::get(name).unwrap())
            .unwrap()
            .build()
            .unwrap()
    }

    #[test]
    fn cronjob_hello_ticks_and_jobs() {
        let mut sim = builtin("cronjob-hello");
        sim.run_for(Duration::from_secs(5 * 60)).unwrap();
        let v = of(&sim, 3600.0);
        let cj = &v.cron_jobs[0];
        assert_eq!(cj.name, "hello");
        assert_eq!(cj.description, "At every minute");
        // Started at 08:00:30: ticks at 08:01 .. 08:05 are 30 s, 90 s, ... after the start.
        assert_eq!(cj.past_ticks, [30.0, 90.0, 150.0, 210.0, 270.0]);
        assert_eq!(cj.next_ticks[0], 330.0);
        assert_eq!(cj.next_rfc3339[0], "2025-01-01T08:06:00Z");
        assert_eq!(cj.successful_jobs_history_limit, 3);
        // History limit: three finished Jobs kept, each with its scheduled time.
        let done: Vec<&JobView> = v.jobs.iter().filter(|j| j.state == "Complete").collect();
        assert_eq!(
            done.len(),
            3,
            "{:?}",
            v.jobs.iter().map(|j| &j.name).collect::<Vec<_>>()
        );
        for j in &done {
            assert_eq!(j.owner_name, "hello");
            assert!(cj.past_ticks.contains(&j.scheduled.unwrap()), "{j:?}");
            assert!(j.finished.unwrap() >= j.start_time.unwrap());
            assert_eq!(j.pods.len(), 1);
            assert_eq!(j.pods[0].exit_code, Some(0));
        }
    }

    #[test]
    fn indexed_job_pods_have_indexes() {
        let mut sim = builtin("job-indexed");
        sim.run_for(Duration::from_secs(5)).unwrap();
        let v = of(&sim, 600.0);
        let j = &v.jobs[0];
        assert_eq!(j.completion_mode, "Indexed");
        let idx: Vec<i64> = j.pods.iter().map(|p| p.index).collect();
        assert!(!idx.is_empty() && idx.iter().all(|&i| i >= 0), "{idx:?}");
        let mut sorted = idx.clone();
        sorted.sort();
        assert_eq!(idx, sorted, "pods are ordered by index");
    }

    #[test]
    fn previews() {
        let t = Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap();
        let p = schedule_preview("0 0 13 * 5", None, t, 3);
        assert_eq!(p.description, "At 00:00 on day-of-month 13 or on Friday");
        assert_eq!(
            p.next,
            [
                "2025-01-03T00:00:00Z",
                "2025-01-10T00:00:00Z",
                "2025-01-13T00:00:00Z"
            ]
        );
        assert!(schedule_preview("61 * * * *", None, t, 3)
            .error
            .contains("above maximum"));
        assert!(!schedule_preview("* * * * *", Some("Mars/Base"), t, 3)
            .error
            .is_empty());
    }
}
