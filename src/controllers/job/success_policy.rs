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

    // Cases modelled on TestMatchSuccessPolicy (pkg/controller/job/success_policy_test.go).
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
}
