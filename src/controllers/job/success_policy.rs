//! `matchSuccessPolicy` (`pkg/controller/job/success_policy.go`): whether an Indexed Job's
//! succeeded indexes satisfy one of its success policy rules.

use super::indexed_job_utils::{parse_indexes_from_string, OrderedIntervals};
use crate::api::batch::SuccessPolicy;

/// `matchSuccessPolicy`: the message `Matched rules at index <i>` of the first rule met.
pub fn match_success_policy(
    policy: Option<&SuccessPolicy>,
    completions: i64,
    succeeded: &OrderedIntervals,
    gate: bool,
) -> Option<String> {
    let policy = policy?;
    if !gate || succeeded.is_empty() {
        return None;
    }
    for (index, rule) in policy.rules.iter().enumerate() {
        if let Some(si) = &rule.succeeded_indexes {
            let required = parse_indexes_from_string(si, completions);
            if required.is_empty() {
                continue;
            }
            if match_succeeded_indexes_rule(&required, succeeded, rule.succeeded_count) {
                return Some(format!("Matched rules at index {index}"));
            }
        } else if let Some(c) = rule.succeeded_count {
            if succeeded.total() >= i64::from(c) {
                return Some(format!("Matched rules at index {index}"));
            }
        }
    }
    None
}

/// `matchSucceededIndexesRule`: every index of the rule succeeded, or at least `succeededCount`
/// of them.
pub fn match_succeeded_indexes_rule(
    rule: &OrderedIntervals,
    succeeded: &OrderedIntervals,
    succeeded_count: Option<i32>,
) -> bool {
    let (r, s) = (&rule.0, &succeeded.0);
    let (mut contains, mut sp, mut rp) = (0i64, 0usize, 0usize);
    while rp < r.len() && sp < s.len() {
        let overlap = r[rp].last.min(s[sp].last) - r[rp].first.max(s[sp].first) + 1;
        if overlap > 0 {
            contains += overlap;
        }
        if s[sp].last < r[rp].last {
            sp += 1;
        } else if s[sp].last > r[rp].last {
            rp += 1;
        } else {
            sp += 1;
            rp += 1;
        }
    }
    contains == rule.total() || succeeded_count.is_some_and(|c| contains >= i64::from(c))
}

#[cfg(test)]
#[allow(clippy::type_complexity)]
mod tests {
    use super::*;
    use crate::api::batch::SuccessPolicyRule;

    fn oi(p: &[(i64, i64)]) -> OrderedIntervals {
        OrderedIntervals::from_pairs(p)
    }

    fn rule(indexes: Option<&str>, count: Option<i32>) -> SuccessPolicyRule {
        SuccessPolicyRule {
            succeeded_indexes: indexes.map(String::from),
            succeeded_count: count,
        }
    }

    // Cases modelled on TestMatchSuccessPolicy (pkg/controller/job/success_policy_test.go); the
    // upstream table itself is `match_success_policy_upstream_table`.
    #[test]
    fn match_success_policy_table() {
        let cases: Vec<(
            &str,
            Option<SuccessPolicy>,
            i64,
            OrderedIntervals,
            Option<&str>,
        )> = vec![
            ("successPolicy is null", None, 10, oi(&[(0, 0)]), None),
            (
                "any rules are nothing",
                Some(SuccessPolicy { rules: vec![] }),
                10,
                oi(&[(0, 0)]),
                None,
            ),
            (
                "rules.succeededIndexes is invalid format",
                Some(SuccessPolicy {
                    rules: vec![rule(Some("invalid-form"), None)],
                }),
                10,
                oi(&[(0, 0)]),
                None,
            ),
            (
                "rules.succeededIndexes matched",
                Some(SuccessPolicy {
                    rules: vec![rule(Some("1,3"), None)],
                }),
                10,
                oi(&[(1, 1), (3, 3)]),
                Some("Matched rules at index 0"),
            ),
            (
                "rules.succeededIndexes isn't matched",
                Some(SuccessPolicy {
                    rules: vec![rule(Some("1,3"), None)],
                }),
                10,
                oi(&[(0, 0), (3, 3)]),
                None,
            ),
            (
                "rules.succeededCount matched",
                Some(SuccessPolicy {
                    rules: vec![rule(None, Some(2))],
                }),
                10,
                oi(&[(1, 1), (7, 7)]),
                Some("Matched rules at index 0"),
            ),
            (
                "rules.succeededCount isn't matched",
                Some(SuccessPolicy {
                    rules: vec![rule(None, Some(4))],
                }),
                10,
                oi(&[(1, 1), (7, 7)]),
                None,
            ),
            (
                "multiple rules; the second rule is matched",
                Some(SuccessPolicy {
                    rules: vec![rule(Some("0-4"), None), rule(Some("6,8"), Some(2))],
                }),
                10,
                oi(&[(3, 3), (6, 6), (8, 8)]),
                Some("Matched rules at index 1"),
            ),
            (
                "rules.succeededIndexes and succeededCount matched partially",
                Some(SuccessPolicy {
                    rules: vec![rule(Some("0-5"), Some(3))],
                }),
                10,
                oi(&[(1, 3)]),
                Some("Matched rules at index 0"),
            ),
            (
                "empty succeeded indexes",
                Some(SuccessPolicy {
                    rules: vec![rule(None, Some(1))],
                }),
                10,
                oi(&[]),
                None,
            ),
        ];
        for (name, policy, completions, succeeded, want) in cases {
            let got = match_success_policy(policy.as_ref(), completions, &succeeded, true);
            assert_eq!(got.as_deref(), want, "{name}");
        }
        // The JobSuccessPolicy gate off: never matched.
        let p = SuccessPolicy {
            rules: vec![rule(None, Some(1))],
        };
        assert_eq!(
            match_success_policy(Some(&p), 10, &oi(&[(0, 0)]), false),
            None
        );
    }
    // Upstream: TestMatchSuccessPolicy (pkg/controller/job/success_policy_test.go), all 32 rows,
    // each with its JobSuccessPolicy gate setting; completions 10 throughout.
    #[test]
    fn match_success_policy_upstream_table() {
        let cases: Vec<(&str, bool, Option<SuccessPolicy>, OrderedIntervals, Option<&str>)> = vec![
            (
                "JobSuccessPolicy is disabled",
                false,
                None,
                oi(&[(0, 0)]),
                None,
            ),
            (
                "successPolicy is null",
                true,
                None,
                oi(&[(0, 0)]),
                None,
            ),
            (
                "any rules are nothing",
                true,
                Some(SuccessPolicy { rules: vec![] }),
                oi(&[(0, 0)]),
                None,
            ),
            (
                "rules.succeededIndexes is invalid format",
                true,
                Some(SuccessPolicy { rules: vec![rule(Some("invalid-form"), None)] }),
                oi(&[(0, 0)]),
                None,
            ),
            (
                "rules.succeededIndexes is specified; succeededIndexes matched rules",
                true,
                Some(SuccessPolicy { rules: vec![rule(Some("0-2"), None)] }),
                oi(&[(0, 2), (4, 7)]),
                Some("Matched rules at index 0"),
            ),
            (
                "rules.succeededIndexes is specified; succeededIndexes didn't match rules",
                true,
                Some(SuccessPolicy { rules: vec![rule(Some("3"), None)] }),
                oi(&[(0, 2)]),
                None,
            ),
            (
                "rules.succeededCount is specified; succeededIndexes matched rules",
                true,
                Some(SuccessPolicy { rules: vec![rule(None, Some(2))] }),
                oi(&[(0, 2)]),
                Some("Matched rules at index 0"),
            ),
            (
                "rules.succeededCount is specified; succeededIndexes didn't match rules",
                true,
                Some(SuccessPolicy { rules: vec![rule(None, Some(4))] }),
                oi(&[(0, 2)]),
                None,
            ),
            (
                "multiple rules; rules.succeededIndexes is specified; succeededIndexes met one of rules",
                true,
                Some(SuccessPolicy { rules: vec![rule(Some("9"), None), rule(Some("4,6"), None)] }),
                oi(&[(0, 2), (4, 7)]),
                Some("Matched rules at index 1"),
            ),
            (
                "multiple rules; rules.succeededIndexes is specified; succeededIndexes met all rules",
                true,
                Some(SuccessPolicy { rules: vec![rule(Some("0,1"), None), rule(Some("5"), None)] }),
                oi(&[(0, 2), (4, 7)]),
                Some("Matched rules at index 0"),
            ),
            (
                "rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes met all rules",
                true,
                Some(SuccessPolicy { rules: vec![rule(Some("3-6"), Some(2))] }),
                oi(&[(0, 2), (4, 7)]),
                Some("Matched rules at index 0"),
            ),
            (
                "rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes didn't match rules",
                true,
                Some(SuccessPolicy { rules: vec![rule(Some("3-6"), Some(2))] }),
                oi(&[(0, 2), (6, 7)]),
                None,
            ),
            (
                "rules.succeededIndexes is specified; succeededIndexes are nothing",
                false,
                Some(SuccessPolicy { rules: vec![rule(None, Some(4))] }),
                oi(&[]),
                None,
            ),
            (
                "rules.succeededIndexes is specified; succeededIndexes matched rules; rules is proper subset of succeededIndexes",
                true,
                Some(SuccessPolicy { rules: vec![rule(Some("2-4,6-8"), None)] }),
                oi(&[(1, 5), (6, 9)]),
                Some("Matched rules at index 0"),
            ),
            (
                "rules.succeededIndexes is specified; succeededIndexes matched rules; rules equals succeededIndexes",
                true,
                Some(SuccessPolicy { rules: vec![rule(Some("2-4,6-9"), None)] }),
                oi(&[(2, 4), (6, 9)]),
                Some("Matched rules at index 0"),
            ),
            (
                "rules.succeededIndexes is specified; succeededIndexes matched rules; rules is subset of succeededIndexes",
                true,
                Some(SuccessPolicy { rules: vec![rule(Some("2-4,8-12"), None)] }),
                oi(&[(2, 5), (7, 15)]),
                Some("Matched rules at index 0"),
            ),
            (
                "rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules is an empty set",
                true,
                Some(SuccessPolicy { rules: vec![rule(Some(""), None)] }),
                oi(&[(1, 3)]),
                None,
            ),
            (
                "rules.succeededIndexes is specified; succeededIndexes didn't match rules; succeededIndexes is an empty set",
                true,
                Some(SuccessPolicy { rules: vec![rule(Some(""), None)] }),
                oi(&[]),
                None,
            ),
            (
                "rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules and succeededIndexes are empty set",
                true,
                Some(SuccessPolicy { rules: vec![rule(Some(""), None)] }),
                oi(&[]),
                None,
            ),
            (
                "rules.succeededIndexes is specified; succeededIndexes didn't match rules; all elements of rules.succeededIndexes aren't included in succeededIndexes",
                true,
                Some(SuccessPolicy { rules: vec![rule(Some("10-12,14-16"), None)] }),
                oi(&[(1, 3), (5, 7)]),
                None,
            ),
            (
                "rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules overlaps succeededIndexes at first",
                true,
                Some(SuccessPolicy { rules: vec![rule(Some("1-3,5-7"), None)] }),
                oi(&[(2, 4), (6, 8)]),
                None,
            ),
            (
                "rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes matched rules; rules overlaps succeededIndexes at first",
                true,
                Some(SuccessPolicy { rules: vec![rule(Some("1-3,5-7"), Some(4))] }),
                oi(&[(2, 4), (6, 8)]),
                Some("Matched rules at index 0"),
            ),
            (
                "rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules overlaps succeededIndexes at last",
                true,
                Some(SuccessPolicy { rules: vec![rule(Some("2-4,6-9"), None)] }),
                oi(&[(1, 3), (5, 7)]),
                None,
            ),
            (
                "rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes matched rules; rules overlaps succeededIndexes at last",
                true,
                Some(SuccessPolicy { rules: vec![rule(Some("2-4,6-9"), Some(4))] }),
                oi(&[(1, 3), (5, 7)]),
                Some("Matched rules at index 0"),
            ),
            (
                "rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules completely overlaps succeededIndexes",
                true,
                Some(SuccessPolicy { rules: vec![rule(Some("0-4,6-9"), None)] }),
                oi(&[(1, 3), (7, 8)]),
                None,
            ),
            (
                "rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes matched rules; rules completely overlaps succeededIndexes",
                true,
                Some(SuccessPolicy { rules: vec![rule(Some("0-4,6-9"), Some(5))] }),
                oi(&[(1, 3), (7, 8)]),
                Some("Matched rules at index 0"),
            ),
            (
                "rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules overlaps multiple succeededIndexes at last",
                true,
                Some(SuccessPolicy { rules: vec![rule(Some("0-6,8-9"), None)] }),
                oi(&[(1, 3), (5, 9)]),
                None,
            ),
            (
                "rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes matched rules; rules overlaps multiple succeededIndexes at last",
                true,
                Some(SuccessPolicy { rules: vec![rule(Some("0-6,8-9"), Some(7))] }),
                oi(&[(1, 3), (5, 9)]),
                Some("Matched rules at index 0"),
            ),
            (
                "rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules overlaps succeededIndexes at first, and rules equals succeededIndexes at last",
                true,
                Some(SuccessPolicy { rules: vec![rule(Some("0-5,7-9"), None)] }),
                oi(&[(1, 5), (7, 10)]),
                None,
            ),
            (
                "rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes matched rules; rules overlaps succeededIndexes at first, and rules equals succeededIndexes at last",
                true,
                Some(SuccessPolicy { rules: vec![rule(Some("0-5,7-9"), Some(8))] }),
                oi(&[(1, 5), (7, 10)]),
                Some("Matched rules at index 0"),
            ),
            (
                "rules.succeededIndexes is specified; succeededIndexes didn't match rules; the first rules overlaps succeededIndexes at first",
                true,
                Some(SuccessPolicy { rules: vec![rule(Some("0-3,6-9"), None)] }),
                oi(&[(1, 10)]),
                None,
            ),
            (
                "rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes matched rules; the first rules overlaps succeededIndexes at first",
                true,
                Some(SuccessPolicy { rules: vec![rule(Some("0-3,6-9"), Some(7))] }),
                oi(&[(1, 10)]),
                Some("Matched rules at index 0"),
            ),
        ];
        for (name, gate, policy, succeeded, want) in cases {
            let got = match_success_policy(policy.as_ref(), 10, &succeeded, gate);
            assert_eq!(got.as_deref(), want, "{name}");
        }
    }
}
