//! The built-in scenarios shipped in `scenarios/`, compiled in.

/// (name, YAML) of every built-in scenario, in lesson order.
pub const BUILTIN: &[(&str, &str)] = &[
    ("frontend", include_str!("../../scenarios/frontend.yaml")),
    (
        "bare-pods-after",
        include_str!("../../scenarios/bare-pods-after.yaml"),
    ),
    (
        "bare-pods-before",
        include_str!("../../scenarios/bare-pods-before.yaml"),
    ),
    (
        "isolate-pod",
        include_str!("../../scenarios/isolate-pod.yaml"),
    ),
    (
        "scale-down-deletion-cost",
        include_str!("../../scenarios/scale-down-deletion-cost.yaml"),
    ),
    (
        "scale-down-doubled-up",
        include_str!("../../scenarios/scale-down-doubled-up.yaml"),
    ),
    (
        "orphan-readopt",
        include_str!("../../scenarios/orphan-readopt.yaml"),
    ),
    (
        "node-failure",
        include_str!("../../scenarios/node-failure.yaml"),
    ),
    (
        "replication-controller",
        include_str!("../../scenarios/replication-controller.yaml"),
    ),
    (
        "statefulset-web",
        include_str!("../../scenarios/statefulset-web.yaml"),
    ),
    (
        "statefulset-rolling-update",
        include_str!("../../scenarios/statefulset-rolling-update.yaml"),
    ),
    (
        "statefulset-canary",
        include_str!("../../scenarios/statefulset-canary.yaml"),
    ),
    (
        "statefulset-ordered-failure",
        include_str!("../../scenarios/statefulset-ordered-failure.yaml"),
    ),
    (
        "statefulset-forced-rollback",
        include_str!("../../scenarios/statefulset-forced-rollback.yaml"),
    ),
    (
        "daemonset-fluentd",
        include_str!("../../scenarios/daemonset-fluentd.yaml"),
    ),
    (
        "daemonset-rolling-update",
        include_str!("../../scenarios/daemonset-rolling-update.yaml"),
    ),
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
