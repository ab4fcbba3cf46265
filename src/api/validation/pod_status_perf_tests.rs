//! The pod-status validation skips `is_qualified_name` for the kubelet's own condition types:
//! that is only sound while each of them is a qualified name.

use super::names::is_qualified_name;
use super::pod_status::KUBELET_CONDITION_TYPES;

#[test]
fn kubelet_condition_types_are_qualified_names() {
    for t in KUBELET_CONDITION_TYPES {
        assert!(
            is_qualified_name(t).is_empty(),
            "{t}: {:?}",
            is_qualified_name(t)
        );
    }
}
