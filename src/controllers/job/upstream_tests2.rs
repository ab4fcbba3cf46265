//! Further ports of the Job controller's upstream unit tests (`pkg/controller/job/`).

use crate::api::batch::{Job, JobCondition};

// upstream: TestIsJobFinished (pkg/controller/job/utils_test.go): a Complete condition finishes
// the Job only while its status is True; False and Unknown do not.
#[test]
fn is_job_finished() {
    let mut job = Job::default();
    job.status.conditions = vec![JobCondition {
        type_: "Complete".into(),
        status: "True".into(),
        ..Default::default()
    }];
    assert!(job.is_finished(), "Job was expected to be finished");

    job.status.conditions[0].status = "False".into();
    assert!(!job.is_finished(), "Job was not expected to be finished");

    job.status.conditions[0].status = "Unknown".into();
    assert!(!job.is_finished(), "Job was not expected to be finished");
}
