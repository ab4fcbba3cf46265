//! Node selector parsing edge cases of
//! staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity: requirements that
//! `labels.NewRequirement` / `nodeSelectorRequirementsAsFieldSelector` reject make their term
//! match nothing (`LazyErrorNodeSelector`, as `GetRequiredNodeAffinity` uses).

use super::*;
use crate::api::Labels;

fn req(key: &str, op: &str, values: &[&str]) -> NodeSelectorRequirement {
    NodeSelectorRequirement {
        key: key.into(),
        operator: op.into(),
        values: values.iter().map(|s| s.to_string()).collect(),
    }
}

fn labels(kv: &[(&str, &str)]) -> Labels {
    kv.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn node(name: &str, kv: &[(&str, &str)]) -> Node {
    let mut n = Node::default();
    n.metadata.name = name.into();
    n.metadata.labels = labels(kv).into();
    n
}

fn term(
    exprs: Vec<NodeSelectorRequirement>,
    fields: Vec<NodeSelectorRequirement>,
) -> NodeSelectorTerm {
    NodeSelectorTerm {
        match_expressions: exprs,
        match_fields: fields,
    }
}

// Ported from TestNodeSelectorRequirementsAsSelector
// (staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity_test.go):
// each row's selector (or parse error) is checked by what it matches.
#[test]
fn node_selector_requirements_as_selector() {
    let n = node("n", &[("foo", "bar"), ("bar", "5")]);
    // nil / empty requirements: labels.Nothing().
    assert!(!node_selector_term_matches(&term(vec![], vec![]), &n));
    // "foo in (baz,bar)".
    let in_ = req("foo", "In", &["bar", "baz"]);
    assert!(node_selector_requirement_matches(&in_, &n.metadata.labels));
    assert!(!node_selector_requirement_matches(
        &in_,
        &labels(&[("foo", "qux")])
    ));
    // Exists with values: "values set must be empty for exists and does not exist".
    let exists = req("foo", "Exists", &["bar", "baz"]);
    assert!(!node_selector_requirement_matches(
        &exists,
        &n.metadata.labels
    ));
    // "foo>1" and "bar<7".
    let gt = req("foo", "Gt", &["1"]);
    assert!(node_selector_requirement_matches(
        &gt,
        &labels(&[("foo", "2")])
    ));
    assert!(!node_selector_requirement_matches(
        &gt,
        &labels(&[("foo", "1")])
    ));
    // A non-integer label value never satisfies Gt.
    assert!(!node_selector_requirement_matches(&gt, &n.metadata.labels));
    let lt = req("bar", "Lt", &["7"]);
    assert!(node_selector_requirement_matches(&lt, &n.metadata.labels));
    assert!(!node_selector_requirement_matches(
        &lt,
        &labels(&[("bar", "7")])
    ));
}

// Ported from TestNodeSelectorMatch (nodeaffinity_test.go), the row left out of
// src/scheduler.rs: "invalid field selector and label selector". With the lazy-error selector
// the scheduler uses, each invalid term (a two-value matchFields In, the key "invalid key")
// matches nothing, while a valid term can still match.
#[test]
fn node_selector_match_invalid_terms() {
    let bad_field = term(
        vec![],
        vec![req("metadata.name", "In", &["host_1", "host_2"])],
    );
    let valid = term(
        vec![req("label_1", "In", &["label_1_val"])],
        vec![req("metadata.name", "In", &["host_1"])],
    );
    let bad_key = term(vec![req("invalid key", "In", &["label_value"])], vec![]);
    let n = node(
        "host_1",
        &[("label_1", "label_1_val"), ("invalid key", "label_value")],
    );
    for (name, t) in [
        ("two-value matchFields In", &bad_field),
        ("invalid key", &bad_key),
    ] {
        assert!(!node_selector_term_matches(t, &n), "{name}");
    }
    let sel = |terms: Vec<NodeSelectorTerm>| NodeSelector {
        node_selector_terms: terms,
    };
    assert!(!node_selector_matches(
        &sel(vec![bad_field.clone(), bad_key.clone()]),
        &n
    ));
    assert!(node_selector_matches(
        &sel(vec![bad_field, valid, bad_key]),
        &n
    ));
}

// `labels.NewRequirement` validation, hand-derived: the key must be a qualified name and every
// value a valid label value, for every operator. A requirement that fails to parse makes its
// term match nothing, even with NotIn / DoesNotExist that a missing label would satisfy.
#[test]
fn invalid_requirements_match_nothing() {
    let empty = labels(&[]);
    let rows = [
        (
            "NotIn with an invalid key",
            req("invalid key", "NotIn", &["a"]),
        ),
        (
            "DoesNotExist with an invalid key",
            req("invalid key", "DoesNotExist", &[]),
        ),
        (
            "DoesNotExist with an empty key",
            req("", "DoesNotExist", &[]),
        ),
        ("NotIn with an empty key", req("", "NotIn", &["a"])),
        (
            "NotIn with an invalid prefix",
            req("-bad.io/x", "NotIn", &["a"]),
        ),
        ("NotIn with an invalid value", req("foo", "NotIn", &["-a"])),
        (
            "Gt with a value that is not a label value",
            req("foo", "Gt", &["-1"]),
        ),
        (
            "Lt with a value that is not a label value",
            req("foo", "Lt", &["+5"]),
        ),
        ("Gt with two values", req("foo", "Gt", &["1", "2"])),
        ("Lt with a non-integer", req("foo", "Lt", &["x"])),
        ("unknown operator", req("foo", "Equals", &["a"])),
    ];
    for (name, r) in rows {
        assert!(
            !node_selector_requirement_matches(&r, &labels(&[("foo", "3")])),
            "{name}"
        );
        assert!(!node_selector_requirement_matches(&r, &empty), "{name}");
    }
    // Valid counterparts match.
    assert!(node_selector_requirement_matches(
        &req("example.com/key", "DoesNotExist", &[]),
        &empty
    ));
    assert!(node_selector_requirement_matches(
        &req("foo", "NotIn", &["a"]),
        &empty
    ));
    assert!(node_selector_requirement_matches(
        &req("foo", "Lt", &["5"]),
        &labels(&[("foo", "-3")])
    ));
}

// `nodeSelectorRequirementsAsFieldSelector` + `extractNodeFields`, hand-derived: the node's
// only field is `metadata.name`; another key reads as the empty string (`fields.Set.Get`), so
// NotIn on it matches and In matches only the empty value. Operators other than In/NotIn and
// value counts other than one are parse errors.
#[test]
fn match_fields_semantics() {
    let n = node("host_1", &[]);
    let t = |r: NodeSelectorRequirement| term(vec![], vec![r]);
    let rows = [
        (
            "In metadata.name",
            req("metadata.name", "In", &["host_1"]),
            true,
        ),
        (
            "NotIn metadata.name",
            req("metadata.name", "NotIn", &["host_1"]),
            false,
        ),
        (
            "NotIn other name",
            req("metadata.name", "NotIn", &["host_2"]),
            true,
        ),
        (
            "In unknown field",
            req("spec.unschedulable", "In", &["host_1"]),
            false,
        ),
        (
            "NotIn unknown field",
            req("spec.unschedulable", "NotIn", &["x"]),
            true,
        ),
        (
            "Exists is not a field operator",
            req("metadata.name", "Exists", &[]),
            false,
        ),
        ("In with no values", req("metadata.name", "In", &[]), false),
        (
            "NotIn with two values",
            req("metadata.name", "NotIn", &["a", "b"]),
            false,
        ),
    ];
    for (name, r, want) in rows {
        assert_eq!(node_selector_term_matches(&t(r), &n), want, "{name}");
    }
}
