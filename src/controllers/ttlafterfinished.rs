//! The TTL-after-finished controller (`pkg/controller/ttlafterfinished`): a Job with
//! `ttlSecondsAfterFinished` is deleted, cascading to its pods, that many seconds after its
//! `Complete` or `Failed` condition — never earlier; `0` means as soon as it finishes.
//!
//! Upstream deletes with `propagationPolicy: Foreground` and a UID precondition (the brief for
//! this module said background; upstream wins). No events are recorded.

use crate::api::batch::{Job, JOB_COMPLETE, JOB_FAILED};
use crate::api::{ApiError, Duration, Object, Time};
use crate::controllers::{Controller, Ctx};
use crate::queue::WorkQueue;
use crate::store::apiserver::{DeleteOptions, Propagation};
use crate::store::{Change, Store};

/// The component name.
pub const COMPONENT: &str = "ttl-after-finished-controller";

/// `needsCleanup`: a TTL is set and the Job is finished (`Complete` or `Failed` true; the interim
/// `SuccessCriteriaMet` / `FailureTarget` do not count).
pub fn needs_cleanup(j: &Job) -> bool {
    j.spec.ttl_seconds_after_finished.is_some() && j.is_finished()
}

/// `jobFinishTime`: the transition time of the first `Complete`/`Failed` condition that is true.
///
/// # Errors
/// `unable to find the time when the Job <ns>/<name> finished`, or `unable to find the status of
/// the finished Job <ns>/<name>`.
pub fn job_finish_time(j: &Job) -> Result<Time, String> {
    for c in &j.status.conditions {
        if (c.type_ == JOB_COMPLETE || c.type_ == JOB_FAILED) && c.status == "True" {
            return match c.last_transition_time.filter(|t| !t.is_zero()) {
                Some(t) => Ok(t),
                None => Err(format!(
                    "unable to find the time when the Job {}/{} finished",
                    j.metadata.namespace, j.metadata.name
                )),
            };
        }
    }
    Err(format!(
        "unable to find the status of the finished Job {}/{}",
        j.metadata.namespace, j.metadata.name
    ))
}

/// `timeLeft`: (time left until the TTL expires, the expiry instant). Zero or negative means
/// expired. A finish time in the future (clock skew) only defers the cleanup.
///
/// # Errors
/// `job <ns>/<name> should not be cleaned up` (lower-case since upstream's contextual-logging
/// rewrite) for unfinished Jobs or Jobs without a TTL, or the
/// errors of [`job_finish_time`].
pub fn time_left(j: &Job, since: Time) -> Result<(Duration, Time), String> {
    if !needs_cleanup(j) {
        return Err(format!(
            "job {}/{} should not be cleaned up",
            j.metadata.namespace, j.metadata.name
        ));
    }
    let finish = job_finish_time(j)?;
    let ttl = i64::from(j.spec.ttl_seconds_after_finished.unwrap_or(0));
    let expire = finish + Duration::from_secs(ttl);
    Ok((expire - since, expire))
}

/// The controller (stateless).
#[derive(Default)]
pub struct TtlAfterFinishedController;

impl TtlAfterFinishedController {
    pub fn new() -> Self {
        TtlAfterFinishedController
    }

    /// `processTTL`: expired, or requeued for when it will be.
    fn process_ttl(ctx: &mut Ctx, key: &str, j: &Job) -> Result<bool, ApiError> {
        if j.metadata.deletion_timestamp.is_some() || !needs_cleanup(j) {
            return Ok(false);
        }
        let (left, _) = time_left(j, ctx.now()).map_err(ApiError::bad_request)?;
        if left.0 <= 0 {
            return Ok(true);
        }
        ctx.requeue_after(key, left);
        Ok(false)
    }

    /// `processJob`: deletes the Job once its TTL truly expired (checked again on a fresh read).
    ///
    /// # Errors
    /// A delete error other than NotFound, or a Job whose finish time cannot be found.
    pub fn process_job(&mut self, key: &str, ctx: &mut Ctx) -> Result<(), ApiError> {
        let (ns, name) = key.split_once('/').unwrap_or(("", key));
        let Some(job) = ctx.store().get::<Job>(ns, name).cloned() else {
            return Ok(());
        };
        if !Self::process_ttl(ctx, key, &job)? {
            return Ok(());
        }
        // The fresh read of the API server (the same store in kubeplay).
        let Some(fresh) = ctx.store().get::<Job>(ns, name).cloned() else {
            return Ok(());
        };
        if !Self::process_ttl(ctx, key, &fresh)? {
            return Ok(());
        }
        let opts = DeleteOptions {
            propagation: Some(Propagation::Foreground),
            uid: Some(fresh.metadata.uid.clone()),
            ..Default::default()
        };
        match ctx.delete::<Job>(ns, name, &opts) {
            Err(e) if !e.is_not_found() => Err(e),
            _ => Ok(()),
        }
    }
}

impl Controller for TtlAfterFinishedController {
    fn name(&self) -> &'static str {
        COMPONENT
    }

    fn watch(&mut self, change: &Change, _store: &Store, queue: &mut WorkQueue, _now: Time) {
        if let Some(Object::Job(j)) = change.new_obj() {
            if j.metadata.deletion_timestamp.is_none() && needs_cleanup(j) {
                queue.add_owned(j.metadata.key());
            }
        }
    }

    fn sync(&mut self, key: &str, ctx: &mut Ctx) -> Result<(), ApiError> {
        self.process_job(key, ctx)
    }

    fn resync_all(&mut self, store: &Store, queue: &mut WorkQueue) {
        for j in store.list::<Job>(None) {
            if j.metadata.deletion_timestamp.is_none() && needs_cleanup(j) {
                queue.add_owned(j.metadata.key());
            }
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// A boxed TTL-after-finished controller for `Simulation::add_loop`.
pub fn new_ttl_after_finished_controller() -> Box<dyn Controller> {
    Box::new(TtlAfterFinishedController::new())
}

#[cfg(test)]
#[allow(clippy::type_complexity)]
mod tests {
    use super::*;
    use crate::api::batch::JobCondition;

    fn job(completion: Option<Time>, failed: Option<Time>, ttl: Option<i32>) -> Job {
        let mut j = Job::default();
        j.metadata.name = "foobar".into();
        j.metadata.namespace = "default".into();
        let cond = |t: &str, at: Time| JobCondition {
            type_: t.into(),
            status: "True".into(),
            last_transition_time: Some(at),
            ..Default::default()
        };
        if let Some(t) = completion {
            j.status.conditions.push(cond("Complete", t));
        }
        if let Some(t) = failed {
            j.status.conditions.push(cond("Failed", t));
        }
        j.spec.ttl_seconds_after_finished = ttl;
        j
    }

    // Port of TestTimeLeft (pkg/controller/ttlafterfinished/ttlafterfinished_controller_test.go).
    #[test]
    fn time_left_table() {
        let now = Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap();
        let s = Duration::from_secs;
        let cases: Vec<(
            &str,
            Option<Time>,
            Option<Time>,
            Option<i32>,
            Result<(i64, Time), &str>,
        )> = vec![
            (
                "Error case: Job unfinished",
                None,
                None,
                Some(100),
                Err("should not be cleaned up"),
            ),
            (
                "Error case: Job completed now, no TTL",
                Some(now),
                None,
                None,
                Err("should not be cleaned up"),
            ),
            (
                "Job completed now, 0s TTL",
                Some(now),
                None,
                Some(0),
                Ok((0, now)),
            ),
            (
                "Job completed now, 10s TTL",
                Some(now),
                None,
                Some(10),
                Ok((10, now + s(10))),
            ),
            (
                "Job completed 10s ago, 15s TTL",
                Some(now - s(10)),
                None,
                Some(15),
                Ok((5, now + s(5))),
            ),
            (
                "Error case: Job failed now, no TTL",
                None,
                Some(now),
                None,
                Err("should not be cleaned up"),
            ),
            (
                "Job failed now, 0s TTL",
                None,
                Some(now),
                Some(0),
                Ok((0, now)),
            ),
            (
                "Job failed now, 10s TTL",
                None,
                Some(now),
                Some(10),
                Ok((10, now + s(10))),
            ),
            (
                "Job failed 10s ago, 15s TTL",
                None,
                Some(now - s(10)),
                Some(15),
                Ok((5, now + s(5))),
            ),
        ];
        for (name, c, f, ttl, want) in cases {
            let got = time_left(&job(c, f, ttl), now);
            match (got, want) {
                (Ok((left, expire)), Ok((wl, we))) => {
                    assert_eq!(left, s(wl), "{name}");
                    assert_eq!(expire, we, "{name}");
                }
                (Err(e), Err(w)) => assert!(e.contains(w), "{name}: {e}"),
                (g, w) => panic!("{name}: got {g:?}, want {w:?}"),
            }
        }
        // Interim conditions are not finished.
        let mut j = job(None, None, Some(0));
        j.status.conditions.push(JobCondition {
            type_: "SuccessCriteriaMet".into(),
            status: "True".into(),
            last_transition_time: Some(now),
            ..Default::default()
        });
        assert!(!needs_cleanup(&j));
        // A finished condition without a time.
        let mut j = job(Some(now), None, Some(1));
        j.status.conditions[0].last_transition_time = None;
        assert_eq!(
            time_left(&j, now).unwrap_err(),
            "unable to find the time when the Job default/foobar finished"
        );
    }
}
