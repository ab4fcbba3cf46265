//! CronJob time arithmetic (`pkg/controller/cronjob/utils.go`): the most recent missed schedule,
//! the next requeue, job names and the Job made from the template.

use crate::api::batch::{
    CronJob, Job, ObjectReference, CRON_JOB_SCHEDULED_TIMESTAMP_ANNOTATION, JOB_COMPLETE,
    JOB_FAILED,
};
use crate::api::{Duration, Time};
use crate::cron::{load_location, Schedule};

/// `Schedule.Next` as the time arithmetic below asks it.
pub trait NextTime {
    fn next_time(&self, t: Time) -> Time;
}

impl NextTime for Schedule {
    fn next_time(&self, t: Time) -> Time {
        self.next(t)
    }
}

/// A schedule that remembers its last four answers: one sync asks for the same activation up
/// to five times (`nextScheduleTime`, then `nextScheduleTimeDuration`, each starting from the
/// last schedule time). `Next` is a pure function of its argument, so the answers are the same.
pub struct RememberingSchedule<'a> {
    schedule: &'a Schedule,
    seen: std::cell::Cell<[Option<(Time, Time)>; 4]>,
    slot: std::cell::Cell<usize>,
}

impl<'a> RememberingSchedule<'a> {
    pub fn new(schedule: &'a Schedule) -> Self {
        RememberingSchedule {
            schedule,
            seen: std::cell::Cell::new([None; 4]),
            slot: std::cell::Cell::new(0),
        }
    }
}

impl NextTime for RememberingSchedule<'_> {
    fn next_time(&self, t: Time) -> Time {
        let mut seen = self.seen.get();
        if let Some((_, n)) = seen.iter().flatten().find(|(from, _)| *from == t) {
            return *n;
        }
        let n = self.schedule.next_time(t);
        let slot = self.slot.get();
        seen[slot] = Some((t, n));
        self.seen.set(seen);
        self.slot.set((slot + 1) % seen.len());
        n
    }
}

/// `nextScheduleDelta`: requeues land 100 ms after the schedule time (clock skew padding).
pub const NEXT_SCHEDULE_DELTA: Duration = Duration::from_millis(100);

/// `missedSchedulesType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MissedSchedules {
    None,
    Few,
    /// More than 100: the `TooManyMissedTimes` warning.
    Many,
}

/// What [`most_recent_schedule_time`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MostRecent {
    /// `lastScheduleTime`, or the creation time, possibly moved up to `now − startingDeadlineSeconds`.
    pub earliest: Time,
    /// The latest schedule time at or before `now`, if any.
    pub most_recent: Option<Time>,
    pub missed: MissedSchedules,
}

/// `mostRecentScheduleTime`. The number of missed schedules is estimated from the first interval
/// (`t2 − t1`), and the search for the most recent time starts one estimated interval before the
/// estimate — so irregular schedules can lose real fire times, exactly as upstream.
///
/// # Errors
/// `time difference between two schedules is less than 1 second` (unsatisfiable schedules, such
/// as the 31st of February, give two zero times).
pub fn most_recent_schedule_time(
    cj: &CronJob,
    now: Time,
    schedule: &impl NextTime,
    include_starting_deadline_seconds: bool,
) -> Result<MostRecent, (MostRecent, String)> {
    let mut earliest = cj.metadata.creation_timestamp.unwrap_or(Time::ZERO);
    if let Some(l) = cj.status.last_schedule_time {
        earliest = l;
    }
    if include_starting_deadline_seconds {
        if let Some(sds) = cj.spec.starting_deadline_seconds {
            let deadline = now - Duration::from_secs(sds);
            if deadline > earliest {
                earliest = deadline;
            }
        }
    }
    let none = |most_recent| MostRecent {
        earliest,
        most_recent,
        missed: MissedSchedules::None,
    };
    let t1 = schedule.next_time(earliest);
    let t2 = schedule.next_time(t1);
    if now < t1 {
        return Ok(none(None));
    }
    if now < t2 {
        return Ok(none(Some(t1)));
    }
    // Round((t2 − t1), 1 s) in whole seconds.
    let between = (t2 - t1).0.saturating_add(500).div_euclid(1000);
    if t1.is_zero() || t2.is_zero() || between < 1 {
        return Err((
            none(None),
            "time difference between two schedules is less than 1 second".into(),
        ));
    }
    let elapsed = (now - t1).0 / 1000;
    let missed_count = elapsed / between + 1;
    let potential = t1 + Duration::from_secs((missed_count - 1 - 1) * between);
    let mut most_recent = None;
    let mut t = schedule.next_time(potential);
    while !t.is_zero() && t <= now {
        most_recent = Some(t);
        t = schedule.next_time(t);
    }
    let missed = if missed_count > 100 {
        MissedSchedules::Many
    } else if missed_count > 0 {
        MissedSchedules::Few
    } else {
        MissedSchedules::None
    };
    Ok(MostRecent {
        earliest,
        most_recent,
        missed,
    })
}

/// `nextScheduleTime`: the schedule time to act on now (with startingDeadlineSeconds), or none.
/// Returns whether the `TooManyMissedTimes` warning is due.
///
/// # Errors
/// As [`most_recent_schedule_time`].
pub fn next_schedule_time(
    cj: &CronJob,
    now: Time,
    schedule: &impl NextTime,
) -> (Option<Time>, bool, Option<String>) {
    let (r, err) = match most_recent_schedule_time(cj, now, schedule, true) {
        Ok(r) => (r, None),
        Err((r, e)) => (r, Some(e)),
    };
    match r.most_recent {
        Some(t) if t <= now => (Some(t), r.missed == MissedSchedules::Many, err),
        _ => (None, false, err),
    }
}

/// `nextScheduleTimeDuration`: how long until the next schedule time (plus 100 ms), counted from
/// the most recent schedule time (or the earliest time when none was missed, or now).
pub fn next_schedule_time_duration(cj: &CronJob, now: Time, schedule: &impl NextTime) -> Duration {
    let base = match most_recent_schedule_time(cj, now, schedule, false) {
        Err(_) => now,
        Ok(r) => match r.most_recent {
            Some(t) => t,
            None if r.missed == MissedSchedules::None => r.earliest,
            None => now,
        },
    };
    let next = schedule.next_time(base);
    (next + NEXT_SCHEDULE_DELTA) - now
}

/// `getTimeHashInMinutes`.
pub fn get_time_hash_in_minutes(t: Time) -> i64 {
    // Go's `scheduledTime.Unix() / 60`: int64 division truncates toward zero.
    t.unix_secs() / 60
}

/// `getJobName`: `<cronjob>-<minutes since the epoch>`.
pub fn get_job_name(cj: &CronJob, scheduled: Time) -> String {
    format!(
        "{}-{}",
        cj.metadata.name,
        get_time_hash_in_minutes(scheduled)
    )
}

/// `getJobFromTemplate2`: the template's labels, annotations (plus the scheduled-timestamp
/// annotation in the CronJob's zone, RFC 3339) and spec, the deterministic name and a controller
/// reference.
///
/// # Errors
/// `unknown time zone X`.
pub fn get_job_from_template2(
    cj: &CronJob,
    scheduled: Time,
    annotate: bool,
) -> Result<Job, String> {
    let mut job = Job {
        api_version: "batch/v1".into(),
        kind: "Job".into(),
        ..Default::default()
    };
    let t = &cj.spec.job_template;
    job.metadata.labels = t.metadata.labels.clone();
    job.metadata.annotations = t.metadata.annotations.clone();
    if annotate {
        let loc = load_location(cj.spec.time_zone.as_deref().unwrap_or(""))?;
        job.metadata.annotations.insert(
            CRON_JOB_SCHEDULED_TIMESTAMP_ANNOTATION.into(),
            loc.rfc3339(scheduled.unix_secs()),
        );
    }
    job.metadata.name = get_job_name(cj, scheduled);
    job.metadata.namespace = cj.metadata.namespace.clone();
    job.metadata.owner_references = vec![crate::controllers::controller_utils::new_controller_ref(
        &cj.metadata,
        "batch/v1",
        "CronJob",
    )]
    .into();
    job.spec = t.spec.clone().into();
    Ok(job)
}

/// `getFinishedStatus`: the type of the first `Complete`/`Failed` condition that is `True`.
pub fn get_finished_status(j: &Job) -> Option<&'static str> {
    j.status.conditions.iter().find_map(|c| {
        if c.status != "True" {
            return None;
        }
        match c.type_.as_str() {
            JOB_COMPLETE => Some(JOB_COMPLETE),
            JOB_FAILED => Some(JOB_FAILED),
            _ => None,
        }
    })
}

/// `IsJobSucceeded`: a `Complete=True` condition.
pub fn is_job_succeeded(j: &Job) -> bool {
    j.condition_true(JOB_COMPLETE)
}

/// `inActiveList`.
pub fn in_active_list(cj: &CronJob, uid: &str) -> bool {
    cj.status.active.iter().any(|r| r.uid == uid)
}

/// `inActiveListByName`.
pub fn in_active_list_by_name(cj: &CronJob, namespace: &str, name: &str) -> bool {
    cj.status
        .active
        .iter()
        .any(|r| r.name == name && r.namespace == namespace)
}

/// `deleteFromActiveList`.
pub fn delete_from_active_list(cj: &mut CronJob, uid: &str) {
    cj.status.active.retain(|r| r.uid != uid);
}

/// `ref.GetReference` of a Job.
pub fn get_ref(j: &Job) -> ObjectReference {
    ObjectReference {
        kind: "Job".into(),
        namespace: j.metadata.namespace.clone(),
        name: j.metadata.name.clone(),
        uid: j.metadata.uid.clone(),
        api_version: "batch/v1".into(),
        resource_version: j.metadata.resource_version.clone(),
        field_path: String::new(),
    }
}

/// `byJobStartTime.Less`: by `status.startTime` (jobs without one last), then by name.
pub fn by_job_start_time_less(a: &Job, b: &Job) -> bool {
    match (a.status.start_time, b.status.start_time) {
        (None, Some(_)) => false,
        (Some(_), None) => true,
        (x, y) if x == y => a.metadata.name < b.metadata.name,
        (x, y) => x < y,
    }
}

/// Go's `time.RFC1123Z` of a UTC instant: `Mon, 02 Jan 2006 15:04:05 +0000`.
pub fn rfc1123z(t: Time) -> String {
    const DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let (y, mo, d, h, mi, s, wd) = t.civil();
    format!(
        "{}, {d:02} {} {y:04} {h:02}:{mi:02}:{s:02} +0000",
        DAYS[wd as usize],
        MONTHS[mo as usize - 1]
    )
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod edge_tests;
