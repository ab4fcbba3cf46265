//! Hand-derived edge cases of `deployment_util.go`, each worked out from the upstream function
//! body (cited per test) rather than from kubeplay's output.

use super::*;
use crate::api::{DeploymentStrategy, LabelSelector, RollingUpdateDeployment};

fn deployment(replicas: i32, surge: IntOrString, unavailable: IntOrString) -> Deployment {
    let mut d = Deployment::default();
    d.metadata.name = "web".into();
    d.spec.replicas = Some(replicas);
    d.spec.strategy = DeploymentStrategy {
        type_: ROLLING_UPDATE.into(),
        rolling_update: Some(RollingUpdateDeployment {
            max_surge: Some(surge),
            max_unavailable: Some(unavailable),
        }),
    };
    d
}

fn rs_with(name: &str, replicas: i32, annotations: &[(&str, &str)]) -> ReplicaSet {
    let mut rs = ReplicaSet::default();
    rs.metadata.name = name.into();
    rs.metadata.uid = format!("uid-{name}");
    rs.spec.replicas = Some(replicas);
    for (k, v) in annotations {
        rs.metadata
            .annotations
            .insert((*k).to_string(), (*v).to_string());
    }
    rs
}

fn ann<'a>(rs: &'a ReplicaSet, k: &str) -> Option<&'a str> {
    rs.metadata.annotations.get(k).map(String::as_str)
}

/// `SetNewReplicaSetAnnotations` trims `revision-history` from the oldest entry while
/// `len(history) + len(old) + 1 > revHistoryLimitInChars`, then appends the replaced revision
/// only if the result fits. "1,2,3" + "4" is 7 characters: limit 5 drops "1" (→ 5 ≤ 5);
/// limit 2 drops every entry (→ 1 ≤ 2, history "4"); limit 0 cannot fit even "4", so the
/// history is left as it was — but the revision is still raised and the call reports a change.
#[test]
fn revision_history_trimming_at_the_limit() {
    let d = deployment(1, IntOrString::Int(1), IntOrString::Int(0));
    for (limit, want) in [(5, "2,3,4"), (7, "1,2,3,4"), (2, "4"), (0, "1,2,3")] {
        let mut rs = rs_with(
            "web-1",
            1,
            &[
                (REVISION_ANNOTATION, "4"),
                (REVISION_HISTORY_ANNOTATION, "1,2,3"),
            ],
        );
        assert!(set_new_replica_set_annotations(
            &d, &mut rs, "5", true, limit
        ));
        assert_eq!(ann(&rs, REVISION_ANNOTATION), Some("5"), "limit {limit}");
        assert_eq!(
            ann(&rs, REVISION_HISTORY_ANNOTATION),
            Some(want),
            "limit {limit}"
        );
    }
}

/// A revision annotation that is present but empty: `ok` is true and `ParseInt("")` fails with
/// an empty value, so the old revision counts as 0; the history then becomes `oldRevision`,
/// i.e. an (added) empty `revision-history` annotation.
#[test]
fn present_but_empty_revision_annotation() {
    let d = deployment(1, IntOrString::Int(1), IntOrString::Int(0));
    let mut rs = rs_with("web-1", 1, &[(REVISION_ANNOTATION, "")]);
    assert!(set_new_replica_set_annotations(
        &d, &mut rs, "2", true, 2000
    ));
    assert_eq!(ann(&rs, REVISION_ANNOTATION), Some("2"));
    assert_eq!(ann(&rs, REVISION_HISTORY_ANNOTATION), Some(""));
}

/// A non-integer old revision makes `SetNewReplicaSetAnnotations` return false after the
/// deployment's annotations were already copied (the copy mutates the replica set first); the
/// revision stays as it was. A non-integer new revision does the same.
#[test]
fn unparseable_revisions_return_false_after_copying() {
    let mut d = deployment(1, IntOrString::Int(1), IntOrString::Int(0));
    d.metadata
        .annotations
        .insert("team".into(), "payments".into());
    let mut rs = rs_with("web-1", 1, &[(REVISION_ANNOTATION, "abc")]);
    assert!(!set_new_replica_set_annotations(
        &d, &mut rs, "3", true, 2000
    ));
    assert_eq!(ann(&rs, "team"), Some("payments"));
    assert_eq!(ann(&rs, REVISION_ANNOTATION), Some("abc"));
    assert_eq!(ann(&rs, REVISION_HISTORY_ANNOTATION), None);

    let mut rs = rs_with("web-2", 1, &[(REVISION_ANNOTATION, "1")]);
    assert!(!set_new_replica_set_annotations(
        &d, &mut rs, "x", true, 2000
    ));
    assert_eq!(ann(&rs, REVISION_ANNOTATION), Some("1"));
    // A lower new revision leaves the revision (and history) alone.
    let mut rs = rs_with("web-3", 1, &[(REVISION_ANNOTATION, "7")]);
    set_new_replica_set_annotations(&d, &mut rs, "5", true, 2000);
    assert_eq!(ann(&rs, REVISION_ANNOTATION), Some("7"));
    assert_eq!(ann(&rs, REVISION_HISTORY_ANNOTATION), None);
}

/// A replica set about to be created (`exists == false`) gets desired-replicas = replicas and
/// max-replicas = replicas + MaxSurge: 10 replicas with maxSurge 25% → ceil(2.5) = 3 → "13".
#[test]
fn new_replica_set_gets_replica_annotations() {
    let d = deployment(10, "25%".into(), "25%".into());
    let mut rs = rs_with("web-1", 0, &[]);
    assert!(set_new_replica_set_annotations(
        &d, &mut rs, "1", false, 2000
    ));
    assert_eq!(ann(&rs, DESIRED_REPLICAS_ANNOTATION), Some("10"));
    assert_eq!(ann(&rs, MAX_REPLICAS_ANNOTATION), Some("13"));
    assert_eq!(ann(&rs, REVISION_ANNOTATION), Some("1"));
    // A replica set without a revision gets none in its history.
    assert_eq!(ann(&rs, REVISION_HISTORY_ANNOTATION), None);
}

/// `NewRSNewReplicas`: 10 replicas, maxSurge 25% (→ 3), RSs totalling 12 with the new one at 4:
/// maxTotalPods 13, scale up by min(13 − 12, 10 − 4) = 1 → 5. At or above maxTotalPods the new
/// RS keeps its size. Recreate → replicas; any other type is an error.
#[test]
fn new_rs_new_replicas_cases() {
    let d = deployment(10, "25%".into(), "25%".into());
    let old = rs_with("old", 8, &[]);
    let new = rs_with("new", 4, &[]);
    assert_eq!(
        new_rs_new_replicas(&d, &[old.clone(), new.clone()], &new),
        Ok(5)
    );
    let big_old = rs_with("old", 9, &[]);
    assert_eq!(
        new_rs_new_replicas(&d, &[big_old, new.clone()], &new),
        Ok(4)
    );
    let mut recreate = d.clone();
    recreate.spec.strategy.type_ = RECREATE.into();
    assert_eq!(
        new_rs_new_replicas(&recreate, std::slice::from_ref(&old), &new),
        Ok(10)
    );
    let mut other = d.clone();
    other.spec.strategy.type_ = "BlueGreen".into();
    assert_eq!(
        new_rs_new_replicas(&other, &[old], &new),
        Err("deployment type BlueGreen isn't supported".to_string())
    );
    // A nil maxSurge is GetScaledValueFromIntOrPercent's nil error.
    let mut nil_surge = d.clone();
    if let Some(ru) = nil_surge.spec.strategy.rolling_update.as_mut() {
        ru.max_surge = None;
    }
    assert_eq!(
        new_rs_new_replicas(&nil_surge, &[], &new),
        Err("nil value for IntOrString".to_string())
    );
}

/// `ResolveFenceposts` on odd inputs: "+50%" (strconv.Atoi takes the sign) of 10 → 5; a
/// negative percentage rounds up to −1 and, not being 0, does not trigger the 1-unavailable
/// fencepost; a string without `%` is an error.
#[test]
fn resolve_fenceposts_odd_inputs() {
    let plus: IntOrString = "+50%".into();
    assert_eq!(resolve_fenceposts(Some(&plus), None, 10), Ok((5, 0)));
    let neg: IntOrString = "-10%".into();
    assert_eq!(resolve_fenceposts(Some(&neg), None, 10), Ok((-1, 0)));
    let zero: IntOrString = "0%".into();
    assert_eq!(resolve_fenceposts(Some(&zero), Some(&zero), 0), Ok((0, 1)));
    let bare: IntOrString = "5".into();
    assert_eq!(
        resolve_fenceposts(Some(&bare), None, 10),
        Err("invalid value for IntOrString: invalid type: string is not a percentage".to_string())
    );
    assert_eq!(
        resolve_fenceposts(None, Some(&bare), 10),
        Err("invalid value for IntOrString: invalid type: string is not a percentage".to_string())
    );
}

/// A percentage so large that `float64(value) * total / 100` leaves the int64 range: Go's
/// `int(math.Ceil(x))` on amd64 yields math.MinInt64, whose `int32(...)` is 0. With
/// 999999999999% of 2147483647 (≈ 2.1e19) maxSurge resolves to 0, so maxUnavailable (0) is
/// bumped to 1, as on a real cluster.
#[test]
fn resolve_fenceposts_int64_overflow_is_go_amd64() {
    let huge: IntOrString = "999999999999%".into();
    assert_eq!(resolve_fenceposts(Some(&huge), None, i32::MAX), Ok((0, 1)));
    let d = deployment(i32::MAX, huge, IntOrString::Int(0));
    assert_eq!(max_surge(&d), 0);
    assert_eq!(max_unavailable(&d), 1);
}

/// `MaxSurge`/`MaxUnavailable` are 0 for Recreate; MaxUnavailable is capped at replicas (200%
/// of 3 → 3); an invalid value counts as 0 (ResolveFenceposts' error is ignored: "caught by
/// validation").
#[test]
fn max_surge_and_unavailable_edges() {
    let mut d = deployment(3, "50%".into(), "200%".into());
    assert_eq!(max_surge(&d), 2);
    assert_eq!(max_unavailable(&d), 3);
    assert_eq!(min_available(&d), 0);
    d.spec.strategy.type_ = RECREATE.into();
    assert_eq!(
        (max_surge(&d), max_unavailable(&d), min_available(&d)),
        (0, 0, 0)
    );
    let bad = deployment(3, "x%".into(), IntOrString::Int(1));
    assert_eq!((max_surge(&bad), max_unavailable(&bad)), (0, 0));
}

/// `getReplicaSetFraction` multiplies in int32 before converting: 100000 × 100000 wraps to
/// 1410065408 (10^10 − 2·2^32), so with max-replicas 1 the fraction is 1410065408 − 100000.
#[test]
fn replica_set_fraction_int32_product_wraps() {
    let d = deployment(100_000, IntOrString::Int(0), IntOrString::Int(1));
    let rs = rs_with("web-1", 100_000, &[(MAX_REPLICAS_ANNOTATION, "1")]);
    assert_eq!(get_replica_set_fraction(&rs, &d), 1_410_065_408 - 100_000);
}

/// `GetProportion` never goes past what is left: scaling down by 5 with a fraction of −8 → −5;
/// scaling up by 2 with a fraction of +10 → 2.
#[test]
fn proportion_is_bounded_by_what_is_left() {
    // 80 replicas, max-replicas 120 before: fraction = round(60 × 80/120) − 60 = −20.
    let d = deployment(80, IntOrString::Int(0), IntOrString::Int(1));
    let rs = rs_with("web-1", 60, &[(MAX_REPLICAS_ANNOTATION, "120")]);
    assert_eq!(get_replica_set_fraction(&rs, &d), -20);
    assert_eq!(get_proportion(Some(&rs), &d, -5, 0), -5);
    assert_eq!(get_proportion(Some(&rs), &d, -30, -25), -5);
    let up = deployment(120, IntOrString::Int(0), IntOrString::Int(1));
    let rs = rs_with("web-1", 50, &[(MAX_REPLICAS_ANNOTATION, "100")]);
    assert_eq!(get_proportion(Some(&rs), &up, 2, 0), 2);
}

/// `IsSaturated` reads desired-replicas with `strconv.Atoi`: a sign and leading zeros are
/// accepted, spaces are not; a missing annotation is not saturated.
#[test]
fn is_saturated_atoi_forms() {
    let d = deployment(5, IntOrString::Int(1), IntOrString::Int(0));
    for (v, want) in [
        ("5", true),
        ("+5", true),
        ("05", true),
        (" 5", false),
        ("5.0", false),
    ] {
        let mut rs = rs_with("web-1", 5, &[(DESIRED_REPLICAS_ANNOTATION, v)]);
        rs.status.available_replicas = 5;
        assert_eq!(is_saturated(&d, Some(&rs)), want, "{v:?}");
    }
    let mut rs = rs_with("web-1", 5, &[]);
    rs.status.available_replicas = 5;
    assert!(!is_saturated(&d, Some(&rs)));
    assert!(!is_saturated(&d, None));
}

/// `LastRevision` with a tie on the highest revision: the second `3` satisfies `v >= max`, so
/// the previous max (3) becomes the second → 3. `MaxRevision` starts from 0, so only negative
/// revisions give 0.
#[test]
fn last_and_max_revision_ties_and_negatives() {
    let rss = [
        rs_with("a", 0, &[(REVISION_ANNOTATION, "3")]),
        rs_with("b", 0, &[(REVISION_ANNOTATION, "3")]),
        rs_with("c", 0, &[(REVISION_ANNOTATION, "1")]),
    ];
    assert_eq!(last_revision(&rss), 3);
    assert_eq!(max_revision(&rss), 3);
    let neg = [rs_with("a", 0, &[(REVISION_ANNOTATION, "-5")])];
    assert_eq!(max_revision(&neg), 0);
    assert_eq!(last_revision(&neg), 0);
    assert_eq!(
        revision(&rs_with("a", 0, &[(REVISION_ANNOTATION, "9223372036854775808")]).metadata),
        Err("strconv.ParseInt: parsing \"9223372036854775808\": value out of range".to_string())
    );
}

/// `FindActiveOrLatest`: one active RS wins; several active → none; no active → the new RS,
/// or else the newest old one.
#[test]
fn find_active_or_latest_cases() {
    let at = |name: &str, replicas: i32, secs: i64| {
        let mut rs = rs_with(name, replicas, &[]);
        rs.metadata.creation_timestamp = Some(Time::from_unix_secs(secs));
        rs
    };
    let new0 = at("new", 0, 300);
    let mut olds = vec![at("older", 0, 100), at("newer", 0, 200)];
    assert_eq!(
        find_active_or_latest(Some(&new0), &mut olds).map(|r| r.metadata.name),
        Some("new".to_string())
    );
    assert_eq!(
        find_active_or_latest(None, &mut olds).map(|r| r.metadata.name),
        Some("newer".to_string())
    );
    let mut one_active = vec![at("older", 3, 100), at("newer", 0, 200)];
    assert_eq!(
        find_active_or_latest(Some(&new0), &mut one_active).map(|r| r.metadata.name),
        Some("older".to_string())
    );
    let new2 = at("new", 2, 300);
    assert_eq!(find_active_or_latest(Some(&new2), &mut one_active), None);
    assert_eq!(find_active_or_latest(None, &mut []), None);
}

/// `DeploymentTimedOut` never reports a timeout without a deadline (nil or MaxInt32), even for
/// a condition that already says ProgressDeadlineExceeded; with a deadline it does at once.
#[test]
fn timed_out_requires_a_deadline() {
    let mut d = deployment(1, IntOrString::Int(1), IntOrString::Int(0));
    d.status.conditions = vec![DeploymentCondition {
        type_: DEPLOYMENT_PROGRESSING.into(),
        status: CONDITION_FALSE.into(),
        reason: TIMED_OUT_REASON.into(),
        ..Default::default()
    }];
    let now = Time::from_unix_secs(1_000);
    for pds in [None, Some(MAX_INT32)] {
        d.spec.progress_deadline_seconds = pds;
        assert!(!deployment_timed_out(&d, &d.status, now), "{pds:?}");
    }
    d.spec.progress_deadline_seconds = Some(600);
    assert!(deployment_timed_out(&d, &d.status, now));
}

/// `GetDeploymentsForReplicaSet`: a deployment with an empty (`{}`) or missing selector matches
/// nothing; the error lists the labels as Go's `%v` of a map.
#[test]
fn deployments_for_replica_set_selector_edges() {
    let mut rs = rs_with("web-1", 1, &[]);
    rs.metadata.namespace = "default".into();
    rs.metadata.labels = [("b", "2"), ("a", "1")]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect::<std::collections::BTreeMap<_, _>>()
        .into();
    let mut empty = deployment(1, IntOrString::Int(1), IntOrString::Int(0));
    empty.metadata.namespace = "default".into();
    empty.spec.selector = Some(LabelSelector::default());
    let mut none = empty.clone();
    none.spec.selector = None;
    assert_eq!(
        get_deployments_for_replica_set([&empty, &none], &rs).map(|v| v.len()),
        Err(
            "could not find deployments set for ReplicaSet web-1 in namespace default with \
             labels: map[a:1 b:2]"
                .to_string()
        )
    );
}

// ---------------------------------------------------------------------------------------------
// Ports of TestGetNewRS and TestGetOldRSs (pkg/controller/deployment/util/deployment_util_test.go,
// the client-listing versions): `GetNewReplicaSet` / `GetOldReplicaSets` are `ListReplicaSets`
// (selector match and ControllerRef) followed by `FindNewReplicaSet` / `FindOldReplicaSets`.
// ---------------------------------------------------------------------------------------------

/// `generateDeployment(image)`: labels `name: <image>`, one container named after the image.
fn generate_deployment(image: &str) -> Deployment {
    let mut d = Deployment::default();
    d.metadata.name = image.into();
    d.metadata.namespace = "default".into();
    d.metadata.uid = format!("uid-{image}");
    d.spec.replicas = Some(1);
    let labels: crate::api::Labels = [("name".to_string(), image.to_string())]
        .into_iter()
        .collect();
    d.spec.selector = Some(LabelSelector::from_labels(&labels));
    d.spec.template_mut().metadata.labels = labels.into();
    d.spec.template_mut().spec_mut().containers = vec![crate::api::Container {
        name: image.into(),
        image: image.into(),
        ..Default::default()
    }];
    d
}

/// `generateRS(deployment)`: the deployment's template and labels, controlled by it.
fn generate_rs(d: &Deployment, name: &str) -> ReplicaSet {
    let mut rs = ReplicaSet::default();
    rs.metadata.name = name.into();
    rs.metadata.namespace = d.metadata.namespace.clone();
    rs.metadata.uid = format!("uid-{name}");
    rs.metadata.labels = d.spec.template.metadata.labels.clone();
    rs.metadata.owner_references = vec![crate::controllers::deployment::controller_ref(d)].into();
    rs.spec.replicas = Some(0);
    rs.spec.selector = d.spec.selector.clone();
    rs.spec.template = d.spec.template.clone();
    rs
}

/// `generateRSWithLabel(labels, image)`: no ControllerRef.
fn generate_rs_with_label(label: &str, image: &str, name: &str) -> ReplicaSet {
    let mut d = generate_deployment(image);
    let labels: crate::api::Labels = [("name".to_string(), label.to_string())]
        .into_iter()
        .collect();
    d.spec.selector = Some(LabelSelector::from_labels(&labels));
    d.spec.template_mut().metadata.labels = labels.into();
    let mut rs = generate_rs(&d, name);
    rs.metadata.owner_references.clear();
    rs.spec.replicas = Some(1);
    rs
}

/// Port of TestGetNewRS.
#[test]
fn test_get_new_rs() {
    let new_deployment = generate_deployment("nginx");
    let new_rc = generate_rs(&new_deployment, "new");
    let cases: [(&str, Vec<ReplicaSet>, Option<&str>); 2] = [
        (
            "No new ReplicaSet",
            vec![
                generate_rs(&generate_deployment("foo"), "foo"),
                generate_rs(&generate_deployment("bar"), "bar"),
            ],
            None,
        ),
        (
            "Has new ReplicaSet",
            vec![
                generate_rs(&generate_deployment("foo"), "foo"),
                generate_rs(&generate_deployment("bar"), "bar"),
                generate_rs(&generate_deployment("abc"), "abc"),
                new_rc.clone(),
                generate_rs(&generate_deployment("xyz"), "xyz"),
            ],
            Some("new"),
        ),
    ];
    for (name, all, want) in cases {
        let mut listed = list_replica_sets(&new_deployment, all.iter());
        let got = find_new_replica_set(&new_deployment, &mut listed);
        assert_eq!(
            got.map(|rs| rs.metadata.name),
            want.map(String::from),
            "{name}"
        );
    }
}

/// Port of TestGetOldRSs: a ReplicaSet that existed before the deployment with the same labels
/// but no ControllerRef is not one of its old ReplicaSets.
#[test]
fn test_get_old_rss() {
    let new_deployment = generate_deployment("nginx");
    let new_rs = generate_rs(&new_deployment, "new");
    // Two old deployments' ReplicaSets: the same labels (and owner), different templates.
    let mut old_deployment = new_deployment.clone();
    old_deployment.spec.template_mut().spec_mut().containers[0].name = "nginx-old-1".into();
    let old_rs = generate_rs(&old_deployment, "old-1");
    let mut old_deployment2 = new_deployment.clone();
    old_deployment2.spec.template_mut().spec_mut().containers[0].name = "nginx-old-2".into();
    let old_rs2 = generate_rs(&old_deployment2, "old-2");
    // A ReplicaSet with the deployment's labels but no ControllerRef.
    let existed_rs = generate_rs_with_label("nginx", "foo", "existed");

    let cases: [(&str, Vec<ReplicaSet>, Vec<&str>); 2] = [
        (
            "No old ReplicaSets",
            vec![
                generate_rs(&generate_deployment("foo"), "foo"),
                new_rs.clone(),
                generate_rs(&generate_deployment("bar"), "bar"),
            ],
            vec![],
        ),
        (
            "Has old ReplicaSet",
            vec![
                old_rs2.clone(),
                old_rs.clone(),
                existed_rs,
                new_rs.clone(),
                generate_rs_with_label("xyz", "xyz", "xyz"),
                generate_rs_with_label("bar", "bar", "bar"),
            ],
            vec!["old-1", "old-2"],
        ),
    ];
    for (name, all, want) in cases {
        let mut listed = list_replica_sets(&new_deployment, all.iter());
        let (_, old) = find_old_replica_sets(&new_deployment, &mut listed);
        let mut got: Vec<String> = old.into_iter().map(|rs| rs.metadata.name).collect();
        got.sort();
        assert_eq!(got, want, "{name}");
    }
}

/// `getRollbackTo` (rollback.go) reads the legacy `deprecated.deployment.rollback.to`
/// annotation with `strconv.ParseInt(v, 10, 64)`: a sign is accepted, an empty or unparseable
/// value means "no rollback requested" (ignored, not an error).
#[test]
fn rollback_to_annotation_forms() {
    use crate::controllers::deployment::rollback::get_rollback_to;
    let with = |v: &str| {
        let mut d = Deployment::default();
        d.metadata
            .annotations
            .insert(DEPRECATED_ROLLBACK_TO.into(), v.into());
        d
    };
    assert_eq!(get_rollback_to(&Deployment::default()), None);
    for (v, want) in [
        ("0", Some(0)),
        ("3", Some(3)),
        ("+3", Some(3)),
        ("-1", Some(-1)),
        ("", None),
        (" 3", None),
        ("3.0", None),
        ("9223372036854775808", None),
    ] {
        assert_eq!(get_rollback_to(&with(v)), want, "{v:?}");
    }
}
