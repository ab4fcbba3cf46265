//! Fidelity audit of `controller_utils.go` edge cases.

use super::*;

/// `getPodsPrefix` keeps `<name>-` unless `ValidatePodName(prefix, true)` rejects it. With
/// `prefix` set, validation masks the trailing dash (`maskTrailingDash`: the last two characters
/// become `a`), so the checked string is as long as the controller name: every valid name,
/// 253 characters included, keeps its dash.
#[test]
fn pods_prefix_keeps_dash_for_any_valid_name() {
    let n253 = "x".repeat(253);
    assert_eq!(get_pods_prefix(&n253), format!("{n253}-"));
    assert_eq!(get_pods_prefix("web"), "web-");
    assert_eq!(get_pods_prefix("a"), "a-");
    // A name that is not a valid subdomain keeps no dash.
    let n254 = "x".repeat(254);
    assert_eq!(get_pods_prefix(&n254), n254);
    assert_eq!(get_pods_prefix("Web"), "Web");
}
