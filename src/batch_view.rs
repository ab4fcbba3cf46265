//! What the page's CronJob timeline and Job views show: CronJobs with their schedule ticks
//! (past and future) and Jobs with their pods by index, conditions and TTL; all pure data.
//!
//! Times are seconds since the scenario started (negative before it), so the page can place
//! them on its clock without parsing dates.

use crate::api::{CronJob, Job, Pod, Time};
use crate::cron;
use crate::sim::Simulation;
use crate::sort::CollectBTreeMap as _;
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
    /// What became of each of `past_ticks` (same order and length), see [`classify_ticks`].
    pub past_tick_info: Vec<PastTick>,
    /// The next ticks after now.
    pub next_ticks: Vec<f64>,
    /// The next ticks as RFC 3339 times in the schedule's zone.
    pub next_rfc3339: Vec<String>,
}

/// What became of one past schedule tick.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PastTick {
    pub time: f64,
    /// One of the `TICK_*` kinds.
    pub kind: &'static str,
    /// The Job started for this tick (`run`), if any.
    pub job: Option<String>,
    /// The reason in words ("" for `run`).
    pub reason: String,
}

/// A Job was created for the tick.
pub const TICK_RUN: &str = "run";
/// The tick is less than a second old: the controller has not acted on it yet.
pub const TICK_DUE: &str = "due";
/// The tick fell outside `startingDeadlineSeconds`: the controller never considered it.
pub const TICK_DEADLINE: &str = "deadline";
/// concurrencyPolicy Forbid skipped the tick (a Job was still active).
pub const TICK_FORBID: &str = "forbid";
/// The CronJob is suspended.
pub const TICK_SUSPENDED: &str = "suspended";
/// Any other miss: the controller was down, or a later tick was started instead.
pub const TICK_MISSED: &str = "missed";

/// What the classification of past ticks needs to know about one CronJob's history (times are
/// absolute; everything sorted by time).
#[derive(Clone, Debug, Default)]
pub struct TickHistory {
    /// (scheduled time, job name, creation time) of every Job the CronJob started, known from
    /// the store or from its `SuccessfulCreate` events.
    pub runs: Vec<(Time, String, Time)>,
    /// When the controller skipped a run because of Forbid (`JobAlreadyActive` events).
    pub forbid_skips: Vec<Time>,
    /// When the controller warned `TooManyMissedTimes`.
    pub too_many_missed: Vec<Time>,
    /// Scheduled times (RFC 1123Z, as in the message) the controller reported as
    /// `MissSchedule` (too late to start).
    pub miss_schedule: Vec<String>,
    /// Intervals [from, to) during which kube-controller-manager was stopped (`to` = None: still).
    pub downtime: Vec<(Time, Option<Time>)>,
    pub starting_deadline_seconds: Option<i64>,
    pub suspended: bool,
}

fn clock(t: Time) -> String {
    t.to_rfc3339()
}

/// Classifies past schedule ticks (ascending) of a CronJob, as `syncCronJob` decided them.
///
/// * `run` — a Job exists or existed for the tick.
/// * `due` — less than a second old.
/// * `forbid` — the controller saw the tick while a Job was active (`JobAlreadyActive` before
///   the next tick) and concurrencyPolicy Forbid skipped it.
/// * `deadline` — with `startingDeadlineSeconds` set, `mostRecentScheduleTime` looks back only
///   to `now - startingDeadlineSeconds` (or to lastScheduleTime when later): when the controller
///   next started a Job (at C) the tick was at or before C - deadline, so it was never considered
///   (also when no later Job exists yet and the tick is already that old, or when the controller
///   recorded `MissSchedule` for it).
/// * `suspended` — no later run and the CronJob is suspended.
/// * `missed` — anything else: a later tick was started instead (only the most recent unmet
///   schedule time is started, e.g. after controller downtime or > 100 missed times), or no Job
///   was started.
pub fn classify_ticks(ticks: &[Time], h: &TickHistory, now: Time) -> Vec<PastTick> {
    let by_tick: std::collections::BTreeMap<Time, &(Time, String, Time)> =
        h.runs.iter().map(|r| (r.0, r)).collect_btree_map();
    // Runs by scheduled time, and for each position the earliest-created run from there on
    // (the first Job the controller started after a tick): O(log n) per tick.
    let mut runs: Vec<&(Time, String, Time)> = h.runs.iter().collect();
    crate::sort::sort_by(&mut runs, |a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut first_after: Vec<Option<&(Time, String, Time)>> = vec![None; runs.len() + 1];
    for i in (0..runs.len()).rev() {
        let r = runs[i];
        first_after[i] = match first_after[i + 1] {
            Some(b) if (b.2, b.0) <= (r.2, r.0) => Some(b),
            _ => Some(r),
        };
    }
    let mut forbid = h.forbid_skips.clone();
    crate::sort::sort(&mut forbid);
    let mut too_many = h.too_many_missed.clone();
    crate::sort::sort(&mut too_many);
    let down_at = |t: Time| {
        h.downtime
            .iter()
            .any(|&(a, b)| a <= t && b.is_none_or(|b| t < b))
    };
    ticks
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            let mk = |kind, job: Option<String>, reason: String| PastTick {
                time: t.unix_secs() as f64,
                kind,
                job,
                reason,
            };
            if let Some((_, name, _)) = by_tick.get(&t) {
                return mk(TICK_RUN, Some(name.clone()), String::new());
            }
            if now.unix_secs() - t.unix_secs() < 1 {
                return mk(
                    TICK_DUE,
                    None,
                    "due now: the controller has not acted on it yet".into(),
                );
            }
            let next_tick = ticks.get(i + 1).copied();
            let f = forbid.partition_point(|&e| e < t);
            if forbid
                .get(f)
                .is_some_and(|&e| next_tick.is_none_or(|n| e < n))
            {
                return mk(
                    TICK_FORBID,
                    None,
                    "skipped: concurrencyPolicy Forbid, a Job was still active".into(),
                );
            }
            // The first Job started after this tick: when the controller next acted.
            let later = first_after[runs.partition_point(|r| r.0 <= t)];
            if let Some(d) = h.starting_deadline_seconds {
                let looked = later.map_or(now, |r| r.2);
                let cutoff = looked.unix_secs() - d;
                let reported = !h.miss_schedule.is_empty()
                    && h
                        .miss_schedule
                        .contains(&crate::controllers::cronjob::utils::rfc1123z(t));
                if t.unix_secs() <= cutoff || reported {
                    let when = match later {
                        Some(r) => format!(
                            "when the controller next started a Job (at {}) it looked back only to {}",
                            clock(r.2),
                            clock(Time::from_unix_secs(cutoff))
                        ),
                        None => format!(
                            "the controller looks back only {d}s from now, so it will never start it"
                        ),
                    };
                    return mk(
                        TICK_DEADLINE,
                        None,
                        format!(
                            "missed: outside startingDeadlineSeconds ({d}s): {when}{}",
                            if down_at(t) {
                                " (kube-controller-manager was not running at this time)"
                            } else {
                                ""
                            }
                        ),
                    );
                }
            }
            match later {
                Some(r) => {
                    let why = if down_at(t) {
                        "kube-controller-manager was not running at this time; "
                    } else {
                        ""
                    };
                    let m = too_many.partition_point(|&e| e < t);
                    let too_many = if too_many.get(m).is_some_and(|&e| e <= r.2) {
                        " (more than 100 missed: TooManyMissedTimes)"
                    } else {
                        ""
                    };
                    mk(
                        TICK_MISSED,
                        None,
                        format!(
                            "missed: {why}at {} only the most recent schedule time ({}) was started{too_many}",
                            clock(r.2),
                            clock(r.0)
                        ),
                    )
                }
                None if h.suspended => mk(
                    TICK_SUSPENDED,
                    None,
                    "not started: the CronJob is suspended".into(),
                ),
                None if down_at(t) => mk(
                    TICK_MISSED,
                    None,
                    "missed: kube-controller-manager is not running".into(),
                ),
                None => mk(
                    TICK_MISSED,
                    None,
                    "missed: no Job was started for this time".into(),
                ),
            }
        })
        .collect()
}

/// The history [`classify_ticks`] needs, from the store, the events and the simulation log, for
/// ticks at or after `since` (the oldest tick shown). A run scheduled before `since` never
/// decides a later tick (only runs scheduled after a tick, and the run of the tick itself, are
/// looked up), and every event that does (`Created job` — the controller creates a Job at or
/// after its scheduled time —, `JobAlreadyActive`, `TooManyMissedTimes`, `MissSchedule`) is
/// emitted at or after the tick it is about: such events and runs are skipped, so a week of an
/// every-minute CronJob no longer collects 10,000 runs per frame. (The Jobs in the store, a
/// handful, are all kept, so a store Job and its event still resolve as before.)
fn tick_history(sim: &Simulation, cj: &CronJob, since: Time) -> TickHistory {
    let mut h = TickHistory {
        starting_deadline_seconds: cj.spec.starting_deadline_seconds,
        suspended: cj.spec.suspend.unwrap_or(false),
        ..Default::default()
    };
    let tick_of_name = |name: &str| -> Option<Time> {
        let m = name
            .strip_prefix(cj.metadata.name.as_str())?
            .strip_prefix('-')?;
        m.parse::<i64>().ok().map(|m| Time::from_unix_secs(m * 60))
    };
    let mut runs = std::collections::BTreeMap::new();
    for j in sim.api.store.list::<Job>(Some(&cj.metadata.namespace)) {
        if j.metadata
            .controller_ref()
            .is_none_or(|r| r.uid != cj.metadata.uid)
        {
            continue;
        }
        let scheduled = j
            .metadata
            .annotations
            .get(SCHEDULED_TIMESTAMP)
            .and_then(|v| Time::parse_rfc3339(v).ok())
            .or_else(|| tick_of_name(&j.metadata.name));
        if let (Some(s), Some(c)) = (scheduled, j.metadata.creation_timestamp) {
            runs.insert(j.metadata.name.clone(), (s, c));
        }
    }
    for e in &sim.api.events {
        if e.time < since
            || e.kind != "CronJob"
            || e.namespace != cj.metadata.namespace
            || e.name != cj.metadata.name
            || (!e.uid.is_empty() && e.uid != cj.metadata.uid)
        {
            continue;
        }
        match e.reason.as_str() {
            "SuccessfulCreate" => {
                if let Some(name) = e.message.strip_prefix("Created job ") {
                    if let Some(s) = tick_of_name(name).filter(|&s| s >= since) {
                        runs.entry(name.to_string()).or_insert((s, e.time));
                    }
                }
            }
            "JobAlreadyActive" => h.forbid_skips.push(e.time),
            "TooManyMissedTimes" => h.too_many_missed.push(e.time),
            "MissSchedule" => {
                if let Some(t) = e
                    .message
                    .strip_prefix("Missed scheduled time to start a job: ")
                {
                    h.miss_schedule.push(t.to_string());
                }
            }
            _ => {}
        }
    }
    h.runs = runs.into_iter().map(|(n, (s, c))| (s, n, c)).collect();
    crate::sort::sort_by(&mut h.runs, |a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
    for l in &sim.log {
        match l.action.as_str() {
            "kube-controller-manager stops" => h.downtime.push((l.time, None)),
            "kube-controller-manager starts" => {
                if let Some(last) = h.downtime.last_mut().filter(|d| d.1.is_none()) {
                    last.1 = Some(l.time);
                }
            }
            _ => {}
        }
    }
    h
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
    let mut info = vec![];
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
        let ticks: Vec<Time> = ticks.into_iter().collect();
        if let Some(&since) = ticks.first() {
            info = classify_ticks(&ticks, &tick_history(sim, cj, since), now);
        }
        for i in &mut info {
            i.time -= sim.start.unix_secs() as f64;
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
        past_tick_info: info,
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
    crate::sort::sort_by(&mut pods, |a, b| {
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
mod since_tests;

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
        crate::sort::sort(&mut sorted);
        assert_eq!(idx, sorted, "pods are ordered by index");
    }

    fn at(s: &str) -> Time {
        Time::parse_rfc3339(s).unwrap()
    }

    fn kinds(v: &[PastTick]) -> Vec<&str> {
        v.iter().map(|t| t.kind).collect()
    }

    #[test]
    fn classify_deadline_versus_other_misses() {
        // Ticks every minute 10:00 .. 10:06; the controller was down 09:59:30 .. 10:05:10 and
        // started the 10:05 tick at 10:05:10; deadline 100 s: it looked back to 10:03:30.
        let ticks: Vec<Time> = (0..7)
            .map(|m| at(&format!("2025-01-01T10:0{m}:00Z")))
            .collect();
        let mut h = TickHistory {
            runs: vec![(ticks[5], "cj-5".into(), at("2025-01-01T10:05:10Z"))],
            downtime: vec![(at("2025-01-01T09:59:30Z"), Some(at("2025-01-01T10:05:10Z")))],
            starting_deadline_seconds: Some(100),
            ..Default::default()
        };
        let now = at("2025-01-01T10:06:00.500Z");
        let v = classify_ticks(&ticks, &h, now);
        assert_eq!(
            kinds(&v),
            ["deadline", "deadline", "deadline", "deadline", "missed", "run", "due"]
        );
        assert_eq!(v[5].job.as_deref(), Some("cj-5"));
        assert!(
            v[3].reason.starts_with(
                "missed: outside startingDeadlineSeconds (100s): when the controller next started a Job (at 2025-01-01T10:05:10Z) it looked back only to 2025-01-01T10:03:30Z"
            ),
            "{}",
            v[3].reason
        );
        assert!(v[3].reason.contains("not running"), "{}", v[3].reason);
        assert_eq!(
            v[4].reason,
            "missed: kube-controller-manager was not running at this time; at 2025-01-01T10:05:10Z only the most recent schedule time (2025-01-01T10:05:00Z) was started"
        );
        // The boundary: a tick exactly at C - deadline is not after earliestTime (Next is strict).
        h.runs[0].2 = at("2025-01-01T10:05:40Z");
        assert_eq!(
            kinds(&classify_ticks(&ticks[..6], &h, now))[3..],
            ["deadline", "deadline", "run"]
        );
        h.runs[0].2 = at("2025-01-01T10:05:39Z");
        assert_eq!(
            kinds(&classify_ticks(&ticks[..6], &h, now))[3..],
            ["deadline", "missed", "run"]
        );
        // Without a deadline every tick was considered: plain misses.
        h.starting_deadline_seconds = None;
        assert_eq!(
            kinds(&classify_ticks(&ticks, &h, now)),
            ["missed", "missed", "missed", "missed", "missed", "run", "due"]
        );
        // No later Job: old enough ticks can never start any more (deadline), younger ones wait.
        h.starting_deadline_seconds = Some(100);
        h.runs.clear();
        h.downtime.clear();
        let v = classify_ticks(&ticks[..6], &h, now);
        assert_eq!(
            kinds(&v),
            ["deadline", "deadline", "deadline", "deadline", "deadline", "missed"]
        );
        assert!(
            v[0].reason.contains("will never start it"),
            "{}",
            v[0].reason
        );
        h.suspended = true;
        assert_eq!(kinds(&classify_ticks(&ticks[..6], &h, now))[5], "suspended");
        // Forbid: the controller saw the tick while a Job was active (before the next tick).
        h.suspended = false;
        h.forbid_skips = vec![at("2025-01-01T10:05:00.100Z")];
        let v = classify_ticks(&ticks[..6], &h, now);
        assert_eq!(v[5].kind, "forbid");
        assert_eq!(v[4].kind, "deadline");
    }

    #[test]
    fn downtime_with_deadline_ticks() {
        let mut sim = builtin("cronjob-downtime-deadline");
        sim.run_for(Duration::from_secs(6900)).unwrap();
        let v = of(&sim, 86400.0);
        let cj = &v.cron_jobs[0];
        assert_eq!(cj.past_ticks.len(), cj.past_tick_info.len());
        let start = sim.start.unix_secs();
        let kind_at = |hm: &str| {
            let t = at(&format!("2025-01-01T{hm}:00Z")).unix_secs() - start;
            cj.past_tick_info
                .iter()
                .find(|p| p.time == t as f64)
                .unwrap_or_else(|| panic!("no tick {hm}"))
        };
        // 08:29 .. 10:17 were never considered (the controller came back at 10:21:00 and looked
        // back to 10:17:40); 10:18 .. 10:20 were considered but only 10:21 was started.
        for hm in ["08:29", "09:00", "10:17"] {
            let p = kind_at(hm);
            assert_eq!(p.kind, TICK_DEADLINE, "{hm}: {p:?}");
            assert!(
                p.reason
                    .contains("looked back only to 2025-01-01T10:17:40Z"),
                "{p:?}"
            );
        }
        for hm in ["10:18", "10:19", "10:20"] {
            let p = kind_at(hm);
            assert_eq!(p.kind, TICK_MISSED, "{hm}: {p:?}");
            assert!(p.reason.contains("not running"), "{p:?}");
        }
        assert_eq!(kind_at("10:21").kind, TICK_RUN);
        assert_eq!(kind_at("10:22").kind, TICK_RUN);
    }

    #[test]
    fn downtime_without_deadline_and_forbid_ticks() {
        let mut sim = builtin("cronjob-downtime-no-deadline");
        sim.run_for(Duration::from_secs(6800)).unwrap();
        let v = of(&sim, 86400.0);
        let k = kinds(&v.cron_jobs[0].past_tick_info);
        assert!(!k.contains(&TICK_DEADLINE), "{k:?}");
        assert!(
            k.iter().filter(|&&k| k == TICK_MISSED).count() > 100,
            "{k:?}"
        );
        assert!(v.cron_jobs[0]
            .past_tick_info
            .iter()
            .any(|p| p.reason.contains("TooManyMissedTimes")));

        let mut sim = builtin("cronjob-forbid");
        sim.run_for(Duration::from_secs(330)).unwrap();
        let v = of(&sim, 3600.0);
        let k = kinds(&v.cron_jobs[0].past_tick_info);
        assert!(k.contains(&TICK_FORBID), "{k:?}");
        assert!(k.contains(&TICK_RUN), "{k:?}");
        assert!(!k.contains(&TICK_DEADLINE), "{k:?}");
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
