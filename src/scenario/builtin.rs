//! The built-in scenarios shipped in `scenarios/`, compiled in.

macro_rules! builtin {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../../scenarios/", $name, ".yaml")))),*]
    };
}

/// (name, YAML) of every built-in scenario, in lesson order. Each is `scenarios/<name>.yaml`.
pub const BUILTIN: &[(&str, &str)] = builtin![
    "frontend",
    "bare-pods-after",
    "bare-pods-before",
    "isolate-pod",
    "scale-down-deletion-cost",
    "scale-down-doubled-up",
    "orphan-readopt",
    "node-failure",
    "pdb-drain",
    "replication-controller",
    "nginx-deployment",
    "deployment-rollback",
    "deployment-rollover",
    "deployment-proportional-scaling",
    "deployment-pause-resume",
    "deployment-progress-deadline",
    "deployment-recreate",
    "hpa-frontend",
    "hpa-behavior-policies",
    "statefulset-web",
    "statefulset-rolling-update",
    "statefulset-canary",
    "statefulset-ordered-failure",
    "statefulset-forced-rollback",
    "statefulset-parallel",
    "daemonset-fluentd",
    "daemonset-rolling-update",
    "daemonset-node-eligibility",
    "job-pi",
    "job-pi-with-ttl",
    "job-parallel",
    "job-indexed",
    "job-work-queue",
    "job-backoff-limit",
    "job-pod-failure-policy",
    "job-pod-failure-policy-ignore",
    "job-backoff-limit-per-index",
    "job-suspend",
    "job-active-deadline",
    "cronjob-hello",
    "cronjob-friday-13",
    "cronjob-forbid",
    "cronjob-replace",
    "cronjob-downtime-no-deadline",
    "cronjob-downtime-deadline",
];

/// A built-in scenario by name.
pub fn get(name: &str) -> Option<&'static str> {
    BUILTIN.iter().find(|(n, _)| *n == name).map(|(_, y)| *y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_parses_and_builds() {
        for (name, text) in BUILTIN {
            let s =
                crate::scenario::Scenario::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(s.metadata.name, *name);
            s.build().unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }
}
