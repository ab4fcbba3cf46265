//! `matchPodFailurePolicy` (`pkg/controller/job/pod_failure_policy.go`): which rule of a Job's pod
//! failure policy a failed pod matches, and what that means for the Job.

use crate::api::batch::{PodFailurePolicy, PodFailurePolicyOnExitCodesRequirement};
use crate::api::{ContainerStatus, Pod, PodCondition, PodStatus};

/// The action of the matched rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum PodFailurePolicyAction {
    FailJob,
    FailIndex,
    Ignore,
    Count,
}

/// What a failed pod means under the policy: the Job failure message of a `FailJob` rule, whether
/// the failure counts towards backoffLimit (and backoffLimitPerIndex), and the matched action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyMatch {
    pub fail_job_message: Option<String>,
    pub count_failed: bool,
    pub action: Option<PodFailurePolicyAction>,
}

/// `matchPodFailurePolicy`. Rules are tried in order; the first matching one decides. No policy
/// or no match: counted, no action. `FailIndex` needs the JobBackoffLimitPerIndex gate (otherwise
/// the rule is skipped); an unknown action skips the rule.
pub fn match_pod_failure_policy(
    policy: Option<&PodFailurePolicy>,
    pod: &Pod,
    backoff_limit_per_index_gate: bool,
) -> PolicyMatch {
    let counted = PolicyMatch {
        fail_job_message: None,
        count_failed: true,
        action: None,
    };
    let Some(policy) = policy else {
        return counted;
    };
    for (index, rule) in policy.rules.iter().enumerate() {
        let matched: Option<String> = if let Some(req) = &rule.on_exit_codes {
            match_on_exit_codes(&pod.status, req).map(|cs| {
                let code = cs
                    .state
                    .as_ref()
                    .and_then(|s| s.terminated.as_ref())
                    .map_or(0, |t| t.exit_code);
                format!(
                    "Container {} for pod {}/{} failed with exit code {code} matching {} rule at index {index}",
                    cs.name, pod.metadata.namespace, pod.metadata.name, rule.action
                )
            })
        } else if !rule.on_pod_conditions.is_empty() {
            match_on_pod_conditions(&pod.status, rule).map(|c| {
                format!(
                    "Pod {}/{} has condition {} matching {} rule at index {index}",
                    pod.metadata.namespace, pod.metadata.name, c.type_, rule.action
                )
            })
        } else {
            None
        };
        let Some(msg) = matched else { continue };
        match rule.action.as_str() {
            "Ignore" => {
                return PolicyMatch {
                    fail_job_message: None,
                    count_failed: false,
                    action: Some(PodFailurePolicyAction::Ignore),
                }
            }
            "FailIndex" if backoff_limit_per_index_gate => {
                return PolicyMatch {
                    fail_job_message: None,
                    count_failed: true,
                    action: Some(PodFailurePolicyAction::FailIndex),
                }
            }
            "Count" => {
                return PolicyMatch {
                    fail_job_message: None,
                    count_failed: true,
                    action: Some(PodFailurePolicyAction::Count),
                }
            }
            "FailJob" => {
                return PolicyMatch {
                    fail_job_message: Some(msg),
                    count_failed: true,
                    action: Some(PodFailurePolicyAction::FailJob),
                }
            }
            _ => {}
        }
    }
    counted
}

/// `matchOnExitCodes`: the first terminated container (regular, then init) with a non-zero exit
/// code that satisfies the requirement.
pub fn match_on_exit_codes<'a>(
    status: &'a PodStatus,
    req: &PodFailurePolicyOnExitCodesRequirement,
) -> Option<&'a ContainerStatus> {
    get_matching_container_from_list(&status.container_statuses, req)
        .or_else(|| get_matching_container_from_list(&status.init_container_statuses, req))
}

fn get_matching_container_from_list<'a>(
    list: &'a [ContainerStatus],
    req: &PodFailurePolicyOnExitCodesRequirement,
) -> Option<&'a ContainerStatus> {
    list.iter().find(|cs| {
        let Some(t) = cs.state.as_ref().and_then(|s| s.terminated.as_ref()) else {
            return false;
        };
        req.container_name.as_ref().is_none_or(|n| *n == cs.name)
            && t.exit_code != 0
            && is_on_exit_codes_operator_matching(t.exit_code, req)
    })
}

/// `isOnExitCodesOperatorMatching`: `In`, `NotIn`; anything else never matches.
pub fn is_on_exit_codes_operator_matching(
    code: i32,
    req: &PodFailurePolicyOnExitCodesRequirement,
) -> bool {
    match req.operator.as_str() {
        "In" => req.values.contains(&code),
        "NotIn" => !req.values.contains(&code),
        _ => false,
    }
}

/// `matchOnPodConditions`: the first pod condition equal (type and status) to any pattern.
pub fn match_on_pod_conditions<'a>(
    status: &'a PodStatus,
    rule: &crate::api::batch::PodFailurePolicyRule,
) -> Option<&'a PodCondition> {
    status.conditions.iter().find(|c| {
        rule.on_pod_conditions
            .iter()
            .any(|p| p.type_ == c.type_ && p.status == c.status)
    })
}

#[cfg(test)]
#[allow(clippy::type_complexity)]
mod tests {
    use super::*;
    use crate::api::batch::{
        PodFailurePolicyOnPodConditionsPattern as Pattern, PodFailurePolicyRule as Rule,
    };
    use crate::api::{ContainerState, ContainerStateTerminated};

    fn exit_rule(action: &str, op: &str, values: &[i32], container: Option<&str>) -> Rule {
        Rule {
            action: action.into(),
            on_exit_codes: Some(PodFailurePolicyOnExitCodesRequirement {
                container_name: container.map(String::from),
                operator: op.into(),
                values: values.to_vec(),
            }),
            on_pod_conditions: vec![],
        }
    }

    fn cond_rule(action: &str, t: &str, s: &str) -> Rule {
        Rule {
            action: action.into(),
            on_exit_codes: None,
            on_pod_conditions: vec![Pattern {
                type_: t.into(),
                status: s.into(),
            }],
        }
    }

    fn terminated(name: &str, code: i32) -> ContainerStatus {
        ContainerStatus {
            name: name.into(),
            state: Some(ContainerState {
                terminated: Some(ContainerStateTerminated {
                    exit_code: code,
                    ..Default::default()
                }),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    fn pod(containers: Vec<ContainerStatus>, init: Vec<ContainerStatus>) -> Pod {
        let mut p = Pod::default();
        p.metadata.namespace = "default".into();
        p.metadata.name = "mypod".into();
        p.status.phase = "Failed".into();
        p.status.container_statuses = containers;
        p.status.init_container_statuses = init;
        p
    }

    fn policy(rules: Vec<Rule>) -> PodFailurePolicy {
        PodFailurePolicy { rules }
    }

    // Port of TestMatchPodFailurePolicy (pkg/controller/job/pod_failure_policy_test.go).
    #[test]
    fn match_pod_failure_policy_table() {
        let fail_job = Some(PodFailurePolicyAction::FailJob);
        let cases: Vec<(&str, PodFailurePolicy, Pod, Option<&str>, bool, Option<PodFailurePolicyAction>)> = vec![
            (
                "unknown action for rule matching by exit codes - skip rule with unknown action",
                policy(vec![
                    exit_rule("UnknownAction", "In", &[1, 2], None),
                    exit_rule("FailJob", "In", &[2, 3], None),
                ]),
                pod(vec![terminated("main-container", 2)], vec![]),
                Some("Container main-container for pod default/mypod failed with exit code 2 matching FailJob rule at index 1"),
                true,
                fail_job,
            ),
            (
                "unknown action for rule matching by pod conditions - skip rule with unknown action",
                policy(vec![
                    cond_rule("UnknownAction", "DisruptionTarget", "True"),
                    cond_rule("Ignore", "DisruptionTarget", "True"),
                ]),
                {
                    let mut p = pod(vec![], vec![]);
                    p.status.conditions = vec![PodCondition {
                        type_: "DisruptionTarget".into(),
                        status: "True".into(),
                        ..Default::default()
                    }];
                    p
                },
                None,
                false,
                Some(PodFailurePolicyAction::Ignore),
            ),
            (
                "unknown operator - rule with unknown action is skipped for onExitCodes",
                policy(vec![
                    exit_rule("Ignore", "UnknownOperator", &[1, 2], None),
                    exit_rule("FailJob", "In", &[1, 2], None),
                ]),
                pod(vec![terminated("main-container", 2)], vec![]),
                Some("Container main-container for pod default/mypod failed with exit code 2 matching FailJob rule at index 1"),
                true,
                fail_job,
            ),
            (
                "no policy rules",
                policy(vec![]),
                pod(vec![terminated("main-container", 2)], vec![]),
                None,
                true,
                None,
            ),
            (
                "ignore rule matched for exit codes",
                policy(vec![exit_rule("Ignore", "In", &[1, 2, 3], None)]),
                pod(vec![terminated("main-container", 2)], vec![]),
                None,
                false,
                Some(PodFailurePolicyAction::Ignore),
            ),
            (
                "FailJob rule matched for exit codes",
                policy(vec![exit_rule("FailJob", "In", &[1, 2, 3], None)]),
                pod(vec![terminated("main-container", 2)], vec![]),
                Some("Container main-container for pod default/mypod failed with exit code 2 matching FailJob rule at index 0"),
                true,
                fail_job,
            ),
            (
                "successful containers are skipped by the rules",
                policy(vec![exit_rule("FailJob", "NotIn", &[111], None)]),
                pod(
                    vec![terminated("foo", 0), terminated("main-container", 42), terminated("bar", 0)],
                    vec![terminated("init-container", 0)],
                ),
                Some("Container main-container for pod default/mypod failed with exit code 42 matching FailJob rule at index 0"),
                true,
                fail_job,
            ),
            (
                "FailIndex rule matched for exit codes",
                policy(vec![exit_rule("FailIndex", "In", &[1, 2, 3], None)]),
                pod(vec![terminated("main-container", 2)], vec![]),
                None,
                true,
                Some(PodFailurePolicyAction::FailIndex),
            ),
            (
                "pod failure policy with NotIn operator and value 0",
                policy(vec![exit_rule("FailJob", "NotIn", &[0], None)]),
                pod(vec![terminated("main-container", 1)], vec![]),
                Some("Container main-container for pod default/mypod failed with exit code 1 matching FailJob rule at index 0"),
                true,
                fail_job,
            ),
            (
                "second jobfail rule matched for exit codes",
                policy(vec![
                    exit_rule("Count", "In", &[1, 2, 3], None),
                    exit_rule("FailJob", "NotIn", &[4, 5, 6], None),
                ]),
                pod(vec![terminated("main-container", 6)], vec![]),
                None,
                true,
                None,
            ),
            (
                "count rule matched for exit codes",
                policy(vec![exit_rule("Count", "In", &[1, 2, 3], None)]),
                pod(vec![terminated("foo", 2)], vec![]),
                None,
                true,
                Some(PodFailurePolicyAction::Count),
            ),
            (
                "FailJob rule with containerName matched for an init container",
                policy(vec![exit_rule("FailJob", "In", &[143], Some("init-container"))]),
                pod(vec![], vec![terminated("init-container", 143)]),
                Some("Container init-container for pod default/mypod failed with exit code 143 matching FailJob rule at index 0"),
                true,
                fail_job,
            ),
            (
                "containerName not matching: counted",
                policy(vec![exit_rule("FailJob", "In", &[143], Some("main"))]),
                pod(vec![terminated("sidecar", 143)], vec![]),
                None,
                true,
                None,
            ),
            (
                "FailJob rule matched for pod conditions",
                policy(vec![cond_rule("FailJob", "DisruptionTarget", "True")]),
                {
                    let mut p = pod(vec![], vec![]);
                    p.status.conditions = vec![PodCondition {
                        type_: "DisruptionTarget".into(),
                        status: "True".into(),
                        ..Default::default()
                    }];
                    p
                },
                Some("Pod default/mypod has condition DisruptionTarget matching FailJob rule at index 0"),
                true,
                fail_job,
            ),
            (
                "no match for pod conditions with a different status",
                policy(vec![cond_rule("Ignore", "DisruptionTarget", "True")]),
                {
                    let mut p = pod(vec![], vec![]);
                    p.status.conditions = vec![PodCondition {
                        type_: "DisruptionTarget".into(),
                        status: "False".into(),
                        ..Default::default()
                    }];
                    p
                },
                None,
                true,
                None,
            ),
        ];
        for (name, pol, p, msg, count, action) in cases {
            let m = match_pod_failure_policy(Some(&pol), &p, true);
            assert_eq!(m.fail_job_message.as_deref(), msg, "{name}");
            assert_eq!(m.count_failed, count, "{name}");
            assert_eq!(m.action, action, "{name}");
        }
        // FailIndex without the JobBackoffLimitPerIndex gate is skipped.
        let p = pod(vec![terminated("main-container", 2)], vec![]);
        let pol = policy(vec![exit_rule("FailIndex", "In", &[2], None)]);
        assert_eq!(match_pod_failure_policy(Some(&pol), &p, false).action, None);
        assert!(match_pod_failure_policy(None, &p, true).count_failed);
    }
    /// A failed pod with only conditions (type, status).
    fn cond_pod(t: &str, s: &str) -> Pod {
        let mut p = pod(vec![], vec![]);
        p.status.conditions = vec![PodCondition {
            type_: t.into(),
            status: s.into(),
            ..Default::default()
        }];
        p
    }

    // Upstream: TestMatchPodFailurePolicy (pkg/controller/job/pod_failure_policy_test.go), the 23
    // rows of the stored copy, each with its JobBackoffLimitPerIndex gate setting (the gate is GA
    // in 1.35; the "disabled" rows keep upstream's gate-off result of matchPodFailurePolicy).
    #[test]
    fn match_pod_failure_policy_upstream_table() {
        use PodFailurePolicyAction::{Count, FailIndex, FailJob, Ignore};
        let msg_exit = |c: &str, code: i32, i: usize| {
            format!("Container {c} for pod default/mypod failed with exit code {code} matching FailJob rule at index {i}")
        };
        let no_state = ContainerStatus {
            name: "foo".into(),
            ..Default::default()
        };
        type Row = (
            &'static str,
            bool,
            Option<PodFailurePolicy>,
            Pod,
            Option<String>,
            bool,
            Option<PodFailurePolicyAction>,
        );
        let rows: Vec<Row> = vec![
            (
                "unknown action for rule matching by exit codes - skip rule with unknown action",
                false,
                Some(policy(vec![
                    exit_rule("UnknownAction", "In", &[1, 2], None),
                    exit_rule("FailJob", "In", &[2, 3], None),
                ])),
                pod(vec![terminated("main-container", 2)], vec![]),
                Some(msg_exit("main-container", 2, 1)),
                true,
                Some(FailJob),
            ),
            (
                "unknown action for rule matching by pod conditions - skip rule with unknown action",
                false,
                Some(policy(vec![
                    cond_rule("UnkonwnAction", "DisruptionTarget", "True"),
                    cond_rule("Ignore", "DisruptionTarget", "True"),
                ])),
                cond_pod("DisruptionTarget", "True"),
                None,
                false,
                Some(Ignore),
            ),
            (
                "unknown operator - rule with unknown action is skipped for onExitCodes",
                false,
                Some(policy(vec![
                    exit_rule("Ignore", "UnknownOperator", &[1, 2], None),
                    exit_rule("FailJob", "In", &[2, 3], None),
                ])),
                pod(vec![terminated("main-container", 2)], vec![]),
                Some(msg_exit("main-container", 2, 1)),
                true,
                Some(FailJob),
            ),
            (
                "no policy rules",
                false,
                None,
                pod(vec![terminated("", 2)], vec![]),
                None,
                true,
                None,
            ),
            (
                "ignore rule matched for exit codes",
                false,
                Some(policy(vec![exit_rule("Ignore", "In", &[1, 2, 3], None)])),
                pod(vec![terminated("", 2)], vec![]),
                None,
                false,
                Some(Ignore),
            ),
            (
                "FailJob rule matched for exit codes",
                false,
                Some(policy(vec![exit_rule("FailJob", "In", &[1, 2, 3], None)])),
                pod(vec![terminated("main-container", 2)], vec![]),
                Some(msg_exit("main-container", 2, 0)),
                true,
                Some(FailJob),
            ),
            (
                "successful containers are skipped by the rules",
                false,
                Some(policy(vec![exit_rule("FailJob", "NotIn", &[111], None)])),
                pod(
                    vec![
                        terminated("main-container", 111),
                        terminated("suppport-container", 0),
                    ],
                    vec![terminated("init-container", 0)],
                ),
                None,
                true,
                None,
            ),
            (
                "FailIndex rule matched for exit codes; JobBackoffLimitPerIndex enabled",
                true,
                Some(policy(vec![exit_rule("FailIndex", "In", &[1, 2, 3], None)])),
                pod(vec![terminated("", 2)], vec![]),
                None,
                true,
                Some(FailIndex),
            ),
            (
                "FailIndex rule matched for exit codes; JobBackoffLimitPerIndex disabled",
                false,
                Some(policy(vec![exit_rule("FailIndex", "In", &[1, 2, 3], None)])),
                pod(vec![terminated("", 2)], vec![]),
                None,
                true,
                None,
            ),
            (
                "pod failure policy with NotIn operator and value 0",
                false,
                Some(policy(vec![exit_rule("FailJob", "NotIn", &[0], None)])),
                pod(
                    vec![
                        terminated("main-container", 1),
                        terminated("suppport-container", 0),
                    ],
                    vec![],
                ),
                Some(msg_exit("main-container", 1, 0)),
                true,
                Some(FailJob),
            ),
            (
                "second jobfail rule matched for exit codes",
                false,
                Some(policy(vec![
                    exit_rule("Count", "In", &[1, 2, 3], None),
                    exit_rule("FailJob", "In", &[4, 5, 6], None),
                ])),
                pod(vec![terminated("main-container", 6)], vec![]),
                Some(msg_exit("main-container", 6, 1)),
                true,
                Some(FailJob),
            ),
            (
                "count rule matched for exit codes",
                false,
                Some(policy(vec![exit_rule("Count", "In", &[1, 2, 3], None)])),
                pod(vec![no_state.clone(), terminated("bar", 2)], vec![]),
                None,
                true,
                Some(Count),
            ),
            (
                "FailIndex rule matched for pod conditions; JobBackoffLimitPerIndex enabled",
                true,
                Some(policy(vec![cond_rule("FailIndex", "DisruptionTarget", "True")])),
                cond_pod("DisruptionTarget", "True"),
                None,
                true,
                Some(FailIndex),
            ),
            (
                "FailIndex rule matched for pod conditions; JobBackoffLimitPerIndex disabled",
                false,
                Some(policy(vec![cond_rule("FailIndex", "DisruptionTarget", "True")])),
                cond_pod("DisruptionTarget", "True"),
                None,
                true,
                None,
            ),
            (
                "ignore rule matched for pod conditions",
                false,
                Some(policy(vec![cond_rule("Ignore", "DisruptionTarget", "True")])),
                cond_pod("DisruptionTarget", "True"),
                None,
                false,
                Some(Ignore),
            ),
            (
                "ignore rule matches by the status=False",
                false,
                Some(policy(vec![cond_rule("Ignore", "DisruptionTarget", "False")])),
                cond_pod("DisruptionTarget", "False"),
                None,
                false,
                Some(Ignore),
            ),
            (
                "ignore rule matches by the status=Unknown",
                false,
                Some(policy(vec![cond_rule("Ignore", "DisruptionTarget", "Unknown")])),
                cond_pod("DisruptionTarget", "Unknown"),
                None,
                false,
                Some(Ignore),
            ),
            (
                "ignore rule does not match when status for pattern is False, but actual True",
                false,
                Some(policy(vec![cond_rule("Ignore", "DisruptionTarget", "False")])),
                cond_pod("DisruptionTarget", "True"),
                None,
                true,
                None,
            ),
            (
                "ignore rule does not match when status for pattern is True, but actual False",
                false,
                Some(policy(vec![cond_rule("Ignore", "DisruptionTarget", "True")])),
                cond_pod("DisruptionTarget", "False"),
                None,
                true,
                None,
            ),
            (
                "default - do not match condition with status=False",
                false,
                Some(policy(vec![cond_rule("Ignore", "DisruptionTarget", "True")])),
                cond_pod("DisruptionTarget", "False"),
                None,
                true,
                None,
            ),
            (
                "job fail rule matched for pod conditions",
                false,
                Some(policy(vec![cond_rule("FailJob", "DisruptionTarget", "True")])),
                cond_pod("DisruptionTarget", "True"),
                Some(
                    "Pod default/mypod has condition DisruptionTarget matching FailJob rule at index 0"
                        .into(),
                ),
                true,
                Some(FailJob),
            ),
            (
                "count rule matched for pod conditions",
                false,
                Some(policy(vec![cond_rule("Count", "DisruptionTarget", "True")])),
                cond_pod("DisruptionTarget", "True"),
                None,
                true,
                Some(Count),
            ),
            (
                "no rule matched",
                false,
                Some(policy(vec![
                    exit_rule("Count", "NotIn", &[8], None),
                    exit_rule("Ignore", "In", &[1, 2, 3], None),
                    exit_rule("FailJob", "NotIn", &[5, 6, 7], None),
                    cond_rule("Count", "ResourceLimitExceeded", "True"),
                    cond_rule("Ignore", "DisruptionTarget", "True"),
                ])),
                pod(vec![terminated("", 32)], vec![]),
                None,
                true,
                Some(Count),
            ),
        ];
        for (name, gate, pol, p, msg, count, action) in rows {
            let m = match_pod_failure_policy(pol.as_ref(), &p, gate);
            assert_eq!(m.fail_job_message, msg, "{name}");
            assert_eq!(m.count_failed, count, "{name}");
            assert_eq!(m.action, action, "{name}");
        }
    }
}
