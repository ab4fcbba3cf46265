//! More rows of upstream's node validation tables (pkg/apis/core/validation/validation_test.go):
//! the TestValidateNode error rows not ported in `node.rs`/`core_ports_tests2.rs` and the
//! TestValidateNodeUpdate rows (valid/invalid; upstream checks only whether errors come back).

use super::*;
use serde_json::{json, Value};

fn n(v: Value) -> Node {
    serde_json::from_value(v).unwrap()
}

fn strs(errs: &[FieldError]) -> Vec<String> {
    errs.iter().map(|e| e.to_string()).collect()
}

fn fields(errs: &[FieldError]) -> Vec<String> {
    errs.iter().map(|e| e.field.clone()).collect()
}

// upstream: TestValidateNode, error rows "zero-length Name", "invalid-labels" and
// "missing-taint-key". Upstream asserts that each fails; the fields are those its
// `expectedFields` lists (metadata.name, metadata.labels) and, for the taint key, the
// `metadata.taints` path ValidateNode reports spec taints under.
#[test]
fn validate_node_error_rows() {
    let status = json!({"capacity": {"cpu": "10", "memory": "10G"}});
    // "zero-length Name"
    let errs = validate_node(&n(json!({
        "metadata": {"name": "", "labels": {"a": "b"}},
        "status": {"addresses": [], "capacity": {"cpu": "10", "memory": "10G"}},
    })));
    assert!(!errs.is_empty(), "zero-length Name");
    assert_eq!(fields(&errs), ["metadata.name"], "{:?}", strs(&errs));
    // "invalid-labels"
    let errs = validate_node(&n(json!({
        "metadata": {"name": "abc-123",
                     "labels": {"NoUppercaseOrSpecialCharsLike=Equals": "b"}},
        "status": status,
    })));
    assert!(!errs.is_empty(), "invalid-labels");
    assert_eq!(fields(&errs), ["metadata.labels"], "{:?}", strs(&errs));
    // "missing-taint-key"
    let errs = validate_node(&n(json!({
        "metadata": {"name": "dedicated-node1"},
        "spec": {"taints": [{"key": "", "value": "special-user-1", "effect": "NoSchedule"}]},
    })));
    assert!(!errs.is_empty(), "missing-taint-key");
    // ValidateLabelName reports each IsQualifiedName message (empty, and not matching the
    // regex) as its own error.
    assert!(
        fields(&errs).iter().all(|f| f == "metadata.taints[0].key"),
        "{:?}",
        strs(&errs)
    );
    // The success rows with labels, an extended resource and hugepages of two sizes, and a
    // valid taint.
    for ok in [
        json!({
            "metadata": {"name": "abc", "labels": {"a": "b"}},
            "status": {"addresses": [{"type": "ExternalIP", "address": "something"}],
                       "capacity": {"cpu": "10", "memory": "10G", "my.org/gpu": "10",
                                    "hugepages-2Mi": "10Gi", "hugepages-1Gi": "0"}},
        }),
        json!({
            "metadata": {"name": "abc"},
            "status": {"capacity": {"cpu": "10", "memory": "0"}},
        }),
        json!({
            "metadata": {"name": "dedicated-node1"},
            "status": {"capacity": {"cpu": "10", "memory": "0"}},
            "spec": {"taints": [{"key": "GPU", "value": "true", "effect": "NoSchedule"}]},
        }),
    ] {
        let errs = validate_node(&n(ok.clone()));
        assert!(errs.is_empty(), "{ok}: {:?}", strs(&errs));
    }
}

// upstream: TestValidateNodeUpdate (pkg/apis/core/validation/validation_test.go): each row is
// (old node, new node, valid); both get resourceVersion "1". The preferAvoidPods rows are in
// core_ports_tests2.rs, the podCIDRs/providerID/taints rows in node.rs.
#[test]
fn validate_node_update_rows() {
    let named = |name: &str| json!({"metadata": {"name": name}});
    let rows: Vec<(&str, Value, Value, bool)> = vec![
        (
            "empty nodes",
            json!({"metadata": {}}),
            json!({"metadata": {}}),
            true,
        ),
        ("name changed", named("foo"), named("bar"), false),
        (
            "label value changed",
            json!({"metadata": {"name": "foo", "labels": {"foo": "bar"}}}),
            json!({"metadata": {"name": "foo", "labels": {"foo": "baz"}}}),
            true,
        ),
        (
            "label added",
            named("foo"),
            json!({"metadata": {"name": "foo", "labels": {"foo": "baz"}}}),
            true,
        ),
        (
            "labels replaced",
            json!({"metadata": {"name": "foo", "labels": {"bar": "foo"}}}),
            json!({"metadata": {"name": "foo", "labels": {"foo": "baz"}}}),
            true,
        ),
        (
            "podCIDR set from empty",
            json!({"metadata": {"name": "foo"}, "spec": {}}),
            json!({"metadata": {"name": "foo"},
                   "spec": {"podCIDR": "192.168.0.0/16", "podCIDRs": ["192.168.0.0/16"]}}),
            true,
        ),
        (
            "podCIDR changed",
            json!({"metadata": {"name": "foo"},
                   "spec": {"podCIDR": "192.123.0.0/16", "podCIDRs": ["192.123.0.0/16"]}}),
            json!({"metadata": {"name": "foo"},
                   "spec": {"podCIDR": "192.168.0.0/16", "podCIDRs": ["192.168.0.0/16"]}}),
            false,
        ),
        (
            "capacity changed",
            json!({"metadata": {"name": "foo"},
                   "status": {"capacity": {"cpu": "10000", "memory": "100"}}}),
            json!({"metadata": {"name": "foo"},
                   "status": {"capacity": {"cpu": "100", "memory": "10000"}}}),
            true,
        ),
        (
            "labels and capacity changed",
            json!({"metadata": {"name": "foo", "labels": {"bar": "foo"}},
                   "status": {"capacity": {"cpu": "10000", "memory": "100"}}}),
            json!({"metadata": {"name": "foo", "labels": {"bar": "fooobaz"}},
                   "status": {"capacity": {"cpu": "100", "memory": "10000"}}}),
            true,
        ),
        (
            "addresses dropped, label changed",
            json!({"metadata": {"name": "foo", "labels": {"bar": "foo"}},
                   "status": {"addresses": [{"type": "ExternalIP", "address": "1.2.3.4"}]}}),
            json!({"metadata": {"name": "foo", "labels": {"bar": "fooobaz"}}}),
            true,
        ),
        (
            "label key case changed",
            json!({"metadata": {"name": "foo", "labels": {"foo": "baz"}}}),
            json!({"metadata": {"name": "foo", "labels": {"Foo": "baz"}}}),
            true,
        ),
        (
            "unschedulable set",
            json!({"metadata": {"name": "foo"}, "spec": {"unschedulable": false}}),
            json!({"metadata": {"name": "foo"}, "spec": {"unschedulable": true}}),
            true,
        ),
        (
            "duplicate addresses",
            json!({"metadata": {"name": "foo"}, "spec": {"unschedulable": false}}),
            json!({"metadata": {"name": "foo"},
                   "status": {"addresses": [{"type": "ExternalIP", "address": "1.1.1.1"},
                                            {"type": "ExternalIP", "address": "1.1.1.1"}]}}),
            false,
        ),
        (
            "distinct addresses",
            json!({"metadata": {"name": "foo"}, "spec": {"unschedulable": false}}),
            json!({"metadata": {"name": "foo"},
                   "status": {"addresses": [{"type": "ExternalIP", "address": "1.1.1.1"},
                                            {"type": "InternalIP", "address": "10.1.1.1"}]}}),
            true,
        ),
        (
            "valid-extended-resources",
            named("valid-extended-resources"),
            json!({"metadata": {"name": "valid-extended-resources"},
                   "status": {"capacity": {"cpu": "10", "memory": "10G",
                                           "example.com/a": "5", "example.com/b": "10"}}}),
            true,
        ),
        (
            "invalid-fractional-extended-capacity",
            named("invalid-fractional-extended-capacity"),
            json!({"metadata": {"name": "invalid-fractional-extended-capacity"},
                   "status": {"capacity": {"cpu": "10", "memory": "10G",
                                           "example.com/a": "500m"}}}),
            false,
        ),
        (
            "invalid-fractional-extended-allocatable",
            named("invalid-fractional-extended-allocatable"),
            json!({"metadata": {"name": "invalid-fractional-extended-allocatable"},
                   "status": {"capacity": {"cpu": "10", "memory": "10G", "example.com/a": "5"},
                              "allocatable": {"cpu": "10", "memory": "10G",
                                              "example.com/a": "4.5"}}}),
            false,
        ),
        (
            "update-provider-id-when-not-set",
            named("update-provider-id-when-not-set"),
            json!({"metadata": {"name": "update-provider-id-when-not-set"},
                   "spec": {"providerID": "provider:///new"}}),
            true,
        ),
        (
            "update-provider-id-when-set",
            json!({"metadata": {"name": "update-provider-id-when-set"},
                   "spec": {"providerID": "provider:///old"}}),
            json!({"metadata": {"name": "update-provider-id-when-set"},
                   "spec": {"providerID": "provider:///new"}}),
            false,
        ),
    ];
    for (name, old, new, valid) in rows {
        let (mut old, mut new) = (n(old), n(new));
        old.metadata.resource_version = "1".into();
        new.metadata.resource_version = "1".into();
        let errs = validate_node_update(&new, &old);
        assert_eq!(errs.is_empty(), valid, "{name}: {:?}", strs(&errs));
    }
    // The messages of the invalid rows, as upstream's validation functions word them.
    let (mut old, mut new) = (n(named("foo")), n(named("bar")));
    old.metadata.resource_version = "1".into();
    new.metadata.resource_version = "1".into();
    assert_eq!(
        strs(&validate_node_update(&new, &old)),
        ["metadata.name: Invalid value: \"bar\": field is immutable"]
    );
    let dup = n(json!({"metadata": {"name": "foo", "resourceVersion": "1"},
        "status": {"addresses": [{"type": "ExternalIP", "address": "1.1.1.1"},
                                 {"type": "ExternalIP", "address": "1.1.1.1"}]}}));
    let old = n(json!({"metadata": {"name": "foo", "resourceVersion": "1"}}));
    assert_eq!(
        strs(&validate_node_update(&dup, &old)),
        ["status.addresses[1]: Duplicate value: {\"Type\":\"ExternalIP\",\"Address\":\"1.1.1.1\"}"]
    );
}
