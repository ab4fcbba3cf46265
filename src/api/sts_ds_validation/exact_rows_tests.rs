//! Row-by-row audit of the apps/v1 StatefulSet, DaemonSet and ControllerRevision validation
//! tables (pkg/apis/apps/validation/validation_test.go) with each error's exact text: upstream's
//! tables compare type and field only (BadValue and Detail ignored), so the value and detail
//! asserted here are derived from pkg/apis/apps/validation/validation.go and the apimachinery
//! helpers it calls. Composite bad values (structs, maps) print as JSON (docs/fidelity.md).

use super::upstream_tests2::mk_stateful_set;
use super::*;
use crate::test_fixtures::merge_patch as merge;
use serde_json::json;

fn lines(errs: &[FieldError]) -> Vec<String> {
    errs.iter().map(ToString::to_string).collect()
}

/// `validation.IsQualifiedName`'s name-part message.
const NAME_PART: &str = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const BAD_KEY: &str = "NoUppercaseOrSpecialCharsLike=Equals";
const NOT_MATCH: &str = "`selector` does not match template `labels`";

// upstream: TestValidateStatefulSet (pkg/apis/apps/validation/validation_test.go): every error
// row, with the full error list in upstream's order (ValidateObjectMeta, then
// ValidateStatefulSetSpec's podManagementPolicy, updateStrategy, retention policy, replicas,
// minReadySeconds, ordinals, selector, template, restartPolicy, activeDeadlineSeconds).
#[test]
fn validate_stateful_set_error_rows_exact() {
    let mu = |v: Value| {
        json!({"spec": {"replicas": 3, "updateStrategy": {"type": "RollingUpdate",
            "rollingUpdate": {"maxUnavailable": v}}}})
    };
    let pvc = |d: &str, s: &str| {
        vec![
            format!("spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: {d:?}: supported values: \"Retain\", \"Delete\""),
            format!("spec.persistentVolumeClaimRetentionPolicy.whenScaled: Unsupported value: {s:?}: supported values: \"Retain\", \"Delete\""),
        ]
    };
    let rows: Vec<(&str, Value, Vec<String>)> = vec![
        (
            "zero-length name",
            json!({"metadata": {"name": ""}}),
            vec!["metadata.name: Required value: name or generateName is required".into()],
        ),
        (
            "name-with-dots",
            json!({"metadata": {"name": "abc.123"}}),
            // IsDNS1123Label: a valid subdomain that is no label "must not contain dots".
            vec!["metadata.name: Invalid value: \"abc.123\": must not contain dots".into()],
        ),
        (
            "long name",
            json!({"metadata": {"name": "a".repeat(64)}}),
            vec![format!(
                "metadata.name: Invalid value: {:?}: must be no more than 63 characters",
                "a".repeat(64)
            )],
        ),
        (
            "missing-namespace",
            json!({"metadata": {"namespace": ""}}),
            vec!["metadata.namespace: Required value".into()],
        ),
        (
            "empty selector",
            json!({"spec": {"selector": null}}),
            vec![
                "spec.selector: Required value".into(),
                format!("spec.template.metadata.labels: Invalid value: {{\"a\":\"b\"}}: {NOT_MATCH}"),
            ],
        ),
        (
            "selector_doesnt_match",
            json!({"spec": {"selector": {"matchLabels": {"foo": "bar"}}}}),
            vec![format!(
                "spec.template.metadata.labels: Invalid value: {{\"a\":\"b\"}}: {NOT_MATCH}"
            )],
        ),
        (
            "negative_replicas",
            json!({"spec": {"replicas": -1}}),
            vec!["spec.replicas: Invalid value: -1: must be greater than or equal to 0".into()],
        ),
        (
            "invalid_label",
            json!({"metadata": {"labels": {BAD_KEY: "bar"}}}),
            vec![format!("metadata.labels: Invalid value: {BAD_KEY:?}: {NAME_PART}")],
        ),
        (
            // LabelSelectorAsSelector fails: `field.Invalid(spec.selector, spec.Selector, "")`,
            // no detail; the template is not looked at.
            "invalid_label 2",
            json!({
                "metadata": {"labels": {BAD_KEY: "bar"}},
                "spec": {
                    "selector": {"matchLabels": {BAD_KEY: "b", "a": null}},
                    "template": {"metadata": {"labels": {BAD_KEY: "b"}}, "spec": {"containers": null}}
                }
            }),
            vec![
                format!("metadata.labels: Invalid value: {BAD_KEY:?}: {NAME_PART}"),
                format!("spec.selector.matchLabels: Invalid value: {BAD_KEY:?}: {NAME_PART}"),
                format!("spec.selector: Invalid value: {{\"matchLabels\":{{\"{BAD_KEY}\":\"b\"}}}}"),
            ],
        ),
        (
            // ValidateAnnotations checks strings.ToLower(key) and reports the key as given.
            "invalid_annotation",
            json!({"metadata": {"annotations": {BAD_KEY: "bar"}}}),
            vec![format!("metadata.annotations: Invalid value: {BAD_KEY:?}: {NAME_PART}")],
        ),
        (
            "invalid restart policy 1",
            json!({"spec": {"template": {"spec": {"restartPolicy": "OnFailure"}}}}),
            vec!["spec.template.spec.restartPolicy: Unsupported value: \"OnFailure\": supported values: \"Always\"".into()],
        ),
        (
            "invalid restart policy 2",
            json!({"spec": {"template": {"spec": {"restartPolicy": "Never"}}}}),
            vec!["spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\"".into()],
        ),
        (
            "empty restart policy",
            json!({"spec": {"template": {"spec": {"restartPolicy": ""}}}}),
            vec!["spec.template.spec.restartPolicy: Unsupported value: \"\": supported values: \"Always\"".into()],
        ),
        (
            "invalid update strategy",
            json!({"spec": {"replicas": 3, "updateStrategy": {"type": "foo"}}}),
            vec!["spec.updateStrategy: Invalid value: {\"type\":\"foo\"}: must be 'RollingUpdate' or 'OnDelete'".into()],
        ),
        (
            "empty update strategy",
            json!({"spec": {"replicas": 3, "updateStrategy": {"type": ""}}}),
            vec!["spec.updateStrategy: Required value".into()],
        ),
        (
            "invalid rolling update",
            json!({"spec": {"replicas": 3, "updateStrategy": {"type": "OnDelete", "rollingUpdate": {"partition": 1}}}}),
            vec!["spec.updateStrategy.rollingUpdate: Invalid value: {\"partition\":1}: only allowed for updateStrategy 'RollingUpdate'".into()],
        ),
        (
            "negative partition",
            json!({"spec": {"replicas": 3, "updateStrategy": {"rollingUpdate": {"partition": -1}}}}),
            vec!["spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0".into()],
        ),
        (
            "empty pod management policy",
            json!({"spec": {"podManagementPolicy": "", "replicas": 3}}),
            vec!["spec.podManagementPolicy: Required value".into()],
        ),
        (
            "invalid pod management policy",
            json!({"spec": {"podManagementPolicy": "foo"}}),
            vec!["spec.podManagementPolicy: Invalid value: \"foo\": must be 'OrderedReady' or 'Parallel'".into()],
        ),
        (
            // The template's pod spec (no containers) is not validated for a StatefulSet.
            "set active deadline seconds",
            json!({"spec": {"replicas": 3, "template": {"spec": {"activeDeadlineSeconds": 60, "containers": null}}}}),
            vec!["spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in StatefulSet is not Supported".into()],
        ),
        (
            "empty PersistentVolumeClaimRetentionPolicy [enable StatefulSetAutoDeletePVC]",
            json!({"spec": {"persistentVolumeClaimRetentionPolicy": {}}}),
            pvc("", ""),
        ),
        (
            "invalid PersistentVolumeClaimRetentionPolicy [enable StatefulSetAutoDeletePVC]",
            json!({"spec": {"persistentVolumeClaimRetentionPolicy": {
                "whenDeleted": "invalid-retention-policy", "whenScaled": "invalid-retention-policy"}}}),
            pvc("invalid-retention-policy", "invalid-retention-policy"),
        ),
        (
            "zero maxUnavailable",
            mu(json!(0)),
            vec!["spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0".into()],
        ),
        (
            "zero percent maxUnavailable",
            mu(json!("0%")),
            vec!["spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: \"0%\": cannot be 0".into()],
        ),
        (
            "greater than 100 percent maxUnavailable",
            mu(json!("101%")),
            vec!["spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: \"101%\": must not be greater than 100%".into()],
        ),
        (
            // `fldPath.Child("ordinals.start")`: one path element holding a dot.
            "invalid ordinals.start",
            json!({"spec": {"replicas": 3, "ordinals": {"start": -2}}}),
            vec!["spec.ordinals.start: Invalid value: -2: must be greater than or equal to 0".into()],
        ),
    ];
    for (name, patch, want) in rows {
        let errs = validate_stateful_set(&mk_stateful_set(patch));
        assert_eq!(lines(&errs), want, "error case {name}");
    }
}

// Hand-derived from validateRollingUpdateStatefulSet and ValidateStatefulSetSpec: the bounds of
// maxUnavailable, partition and ordinals, and a percent beyond int64 (strconv.Atoi's ErrRange
// value is math.MaxInt64, so it is "not 0" and "greater than 100%").
#[test]
fn stateful_set_rolling_update_edges() {
    let p = "spec.updateStrategy.rollingUpdate";
    let ru = |v: Value| json!({"spec": {"replicas": 3, "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": v}}});
    let rows: Vec<(Value, Vec<String>)> = vec![
        (json!({"maxUnavailable": "100%"}), vec![]),
        (json!({"maxUnavailable": "1%"}), vec![]),
        (json!({"maxUnavailable": 2147483647}), vec![]),
        // A partition above replicas is allowed (nothing is updated).
        (json!({"partition": 2147483647}), vec![]),
        (
            json!({"maxUnavailable": -1}),
            vec![format!("{p}.maxUnavailable: Invalid value: -1: must be greater than or equal to 0")],
        ),
        (
            json!({"partition": -2147483648}),
            vec![format!("{p}.partition: Invalid value: -2147483648: must be greater than or equal to 0")],
        ),
        (
            // Not a percent: IsValidPercent's message, and IntValue() of "abc" is 0.
            json!({"maxUnavailable": "abc"}),
            vec![
                format!("{p}.maxUnavailable: Invalid value: \"abc\": {}", super::super::deployment_validation::PERCENT_ERR_MSG),
                format!("{p}.maxUnavailable: Invalid value: \"abc\": cannot be 0"),
            ],
        ),
        (
            json!({"maxUnavailable": "99999999999999999999%"}),
            vec![format!("{p}.maxUnavailable: Invalid value: \"99999999999999999999%\": must not be greater than 100%")],
        ),
    ];
    for (v, want) in rows {
        let errs = validate_stateful_set(&mk_stateful_set(ru(v.clone())));
        assert_eq!(lines(&errs), want, "{v}");
    }
    // ordinals.start at the int32 bounds; minReadySeconds at the lower one.
    let s = mk_stateful_set(json!({"spec": {"ordinals": {"start": 2147483647}}}));
    assert!(validate_stateful_set(&s).is_empty());
    let s = mk_stateful_set(
        json!({"spec": {"ordinals": {"start": -2147483648}, "minReadySeconds": -2147483648}}),
    );
    assert_eq!(
        lines(&validate_stateful_set(&s)),
        [
            "spec.minReadySeconds: Invalid value: -2147483648: must be greater than or equal to 0",
            "spec.ordinals.start: Invalid value: -2147483648: must be greater than or equal to 0",
        ]
    );
}

// upstream: TestValidateStatefulSetUpdate (pkg/apis/apps/validation/validation_test.go): the
// error rows with their exact texts (ValidateObjectMetaUpdate's "field is immutable", the one
// spec Forbidden error).
#[test]
fn validate_stateful_set_update_error_rows_exact() {
    let with_rv = |patch: Value| {
        let mut s = mk_stateful_set(patch);
        s.metadata.resource_version = "1".into();
        s
    };
    let forbidden = format!("spec: Forbidden: {STATEFULSET_FORBIDDEN_UPDATE}");
    assert_eq!(
        STATEFULSET_FORBIDDEN_UPDATE,
        "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"
    );
    let pvc = |size: &str, class: &str| {
        json!({"metadata": {"name": "pvc-abc"}, "spec": {"storageClassName": class,
            "resources": {"requests": {"storage": size}}}})
    };
    let rows: Vec<(&str, Value, Value, Vec<String>)> = vec![
        (
            "update name",
            json!({"metadata": {"name": "abc"}}),
            json!({"metadata": {"name": "abc2"}}),
            vec!["metadata.name: Invalid value: \"abc2\": field is immutable".into()],
        ),
        (
            "update namespace",
            json!({"metadata": {"namespace": "default"}}),
            json!({"metadata": {"namespace": "default1"}}),
            vec!["metadata.namespace: Invalid value: \"default1\": field is immutable".into()],
        ),
        (
            "update selector",
            json!({}),
            json!({"spec": {"selector": {"matchLabels": {"c": "d"}},
                "template": {"metadata": {"labels": {"c": "d"}}}}}),
            vec![forbidden.clone()],
        ),
        (
            "update pod management policy 1",
            json!({"spec": {"podManagementPolicy": ""}}),
            json!({}),
            vec![forbidden.clone()],
        ),
        (
            "update pod management policy 2",
            json!({"spec": {"podManagementPolicy": "Parallel"}}),
            json!({}),
            vec![forbidden.clone()],
        ),
        (
            "update to negative replicas",
            json!({}),
            json!({"spec": {"replicas": -1}}),
            vec!["spec.replicas: Invalid value: -1: must be greater than or equal to 0".into()],
        ),
        (
            "update pvc template size",
            json!({"spec": {"volumeClaimTemplates": [pvc("1Gi", "storage-class1")]}}),
            json!({"spec": {"volumeClaimTemplates": [pvc("2Gi", "storage-class1")]}}),
            vec![forbidden.clone()],
        ),
        (
            // Hand-derived: a forbidden field change and a bad allowed field both report.
            "forbidden change and negative minReadySeconds",
            json!({}),
            json!({"spec": {"podManagementPolicy": "Parallel", "minReadySeconds": -1}}),
            vec![
                "spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0"
                    .into(),
                forbidden.clone(),
            ],
        ),
        (
            // Hand-derived: revisionHistoryLimit and serviceName are not in the allowed list.
            "update revisionHistoryLimit",
            json!({}),
            json!({"spec": {"revisionHistoryLimit": 3}}),
            vec![forbidden.clone()],
        ),
        (
            "update serviceName",
            json!({}),
            json!({"spec": {"serviceName": "other"}}),
            vec![forbidden],
        ),
    ];
    for (name, old, update, want) in rows {
        let errs = validate_stateful_set_update(&with_rv(update), &with_rv(old));
        assert_eq!(lines(&errs), want, "error case {name}");
    }
}

/// `podtest.MakePodSpec()` with one container (pkg/api/pod/testing).
fn make_pod_spec() -> Value {
    json!({
        "containers": [{"name": "ctr", "image": "image", "imagePullPolicy": "IfNotPresent",
            "terminationMessagePolicy": "File"}],
        "dnsPolicy": "ClusterFirst",
        "restartPolicy": "Always",
        "terminationGracePeriodSeconds": 30,
        "schedulerName": "default-scheduler",
        "securityContext": {},
        "enableServiceLinks": true
    })
}

fn daemon_set(patch: Value) -> DaemonSet {
    let mut base = json!({
        "metadata": {"name": "abc", "namespace": "default"},
        "spec": {
            "selector": {"matchLabels": {"a": "b"}},
            "template": {"metadata": {"labels": {"a": "b"}}, "spec": make_pod_spec()},
            "updateStrategy": {"type": "OnDelete"}
        }
    });
    merge(&mut base, patch);
    serde_json::from_value(base).expect("valid DaemonSet JSON")
}

// upstream: TestValidateDaemonSet (pkg/apis/apps/validation/validation_test.go): the error rows
// whose lists are short enough to pin, with their exact texts.
#[test]
fn validate_daemon_set_error_rows_exact() {
    let rows: Vec<(&str, Value, Vec<String>)> = vec![
        (
            "zero-length ID",
            json!({"metadata": {"name": ""}}),
            vec!["metadata.name: Required value: name or generateName is required".into()],
        ),
        (
            "missing-namespace",
            json!({"metadata": {"name": "abc-123", "namespace": null}}),
            vec!["metadata.namespace: Required value".into()],
        ),
        (
            // No Required error for a DaemonSet: a nil selector selects nothing.
            "nil selector",
            json!({"spec": {"selector": null}}),
            vec![format!(
                "spec.template.metadata.labels: Invalid value: {{\"a\":\"b\"}}: {NOT_MATCH}"
            )],
        ),
        (
            // An empty selector matches everything: only the emptiness error.
            "empty selector",
            json!({"spec": {"selector": {"matchLabels": null}}}),
            vec!["spec.selector: Invalid value: {}: empty selector is invalid for daemonset".into()],
        ),
        (
            "selector_doesnt_match",
            json!({"spec": {"selector": {"matchLabels": {"foo": "bar"}}}}),
            vec![format!(
                "spec.template.metadata.labels: Invalid value: {{\"a\":\"b\"}}: {NOT_MATCH}"
            )],
        ),
        (
            "invalid_label",
            json!({"metadata": {"labels": {BAD_KEY: "bar"}}}),
            vec![format!("metadata.labels: Invalid value: {BAD_KEY:?}: {NAME_PART}")],
        ),
        (
            "invalid_annotation",
            json!({"metadata": {"annotations": {BAD_KEY: "bar"}}}),
            vec![format!("metadata.annotations: Invalid value: {BAD_KEY:?}: {NAME_PART}")],
        ),
        (
            "invalid restart policy 2",
            json!({"spec": {"template": {"spec": {"restartPolicy": "Never"}}}}),
            vec!["spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\"".into()],
        ),
        (
            "template may not contain ephemeral containers",
            json!({"spec": {"template": {"spec": {"ephemeralContainers": [{"name": "debug",
                "image": "image", "imagePullPolicy": "IfNotPresent",
                "terminationMessagePolicy": "File"}]}}}}),
            vec!["spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template".into()],
        ),
        (
            // Hand-derived: activeDeadlineSeconds, negative minReadySeconds and
            // revisionHistoryLimit (zero is valid).
            "activeDeadlineSeconds and negative counts",
            json!({"spec": {"minReadySeconds": -1, "revisionHistoryLimit": -1,
                "template": {"spec": {"activeDeadlineSeconds": 5}}}}),
            vec![
                "spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported".into(),
                "spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0".into(),
                "spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0".into(),
            ],
        ),
        (
            // ValidateDaemonSetUpdateStrategy returns right after the Required error.
            "RollingUpdate without rollingUpdate",
            json!({"spec": {"updateStrategy": {"type": "RollingUpdate"}}}),
            vec!["spec.updateStrategy.rollingUpdate: Required value".into()],
        ),
    ];
    for (name, patch, want) in rows {
        let errs = validate_daemon_set(&daemon_set(patch));
        assert_eq!(lines(&errs), want, "error case {name}");
    }
    let ok = daemon_set(json!({"spec": {"revisionHistoryLimit": 0, "minReadySeconds": 0}}));
    assert!(validate_daemon_set(&ok).is_empty());
}

// upstream: TestDaemonSetUpdateMaxSurge (pkg/apis/apps/validation/validation_test.go): every
// row with the exact error list of ValidateRollingUpdateDaemonSet at
// spec.updateStrategy.rollingUpdate (an unset value is the internal zero IntOrString, 0).
#[test]
fn daemon_set_update_max_surge_rows_exact() {
    let p = "spec.updateStrategy.rollingUpdate";
    let required = format!("{p}.maxUnavailable: Required value: cannot be 0 when maxSurge is 0");
    let both = |s: &str| {
        format!(
            "{p}.maxSurge: Invalid value: {s:?}: may not be set when maxUnavailable is non-zero"
        )
    };
    let over =
        |f: &str, s: &str| format!("{p}.{f}: Invalid value: {s:?}: must not be greater than 100%");
    let rows: Vec<(&str, Value, Vec<String>)> = vec![
        ("invalid: unset", json!({}), vec![required.clone()]),
        ("invalid: zero percent", json!({"maxUnavailable": "0%"}), vec![required.clone()]),
        ("invalid: zero", json!({"maxUnavailable": 0}), vec![required.clone()]),
        ("valid: one", json!({"maxUnavailable": 1}), vec![]),
        ("valid: one percent", json!({"maxUnavailable": "1%"}), vec![]),
        ("valid: 100%", json!({"maxUnavailable": "100%"}), vec![]),
        (
            "invalid: greater than 100%",
            json!({"maxUnavailable": "101%"}),
            vec![over("maxUnavailable", "101%")],
        ),
        (
            "valid: surge and unavailable set",
            json!({"maxUnavailable": "1%", "maxSurge": "1%"}),
            vec![both("1%")],
        ),
        (
            "invalid: surge enabled, unavailable zero percent",
            json!({"maxUnavailable": "0%"}),
            vec![required.clone()],
        ),
        (
            "invalid: surge enabled, unavailable zero",
            json!({"maxUnavailable": 0}),
            vec![required.clone()],
        ),
        ("valid: surge enabled, unavailable one", json!({"maxUnavailable": 1}), vec![]),
        (
            "valid: surge enabled, unavailable one percent",
            json!({"maxUnavailable": "1%"}),
            vec![],
        ),
        (
            "valid: surge enabled, unavailable 100%",
            json!({"maxUnavailable": "100%"}),
            vec![],
        ),
        (
            "invalid: surge enabled, unavailable greater than 100%",
            json!({"maxUnavailable": "101%"}),
            vec![over("maxUnavailable", "101%")],
        ),
        (
            "invalid: surge enabled, surge zero percent",
            json!({"maxSurge": "0%"}),
            vec![required.clone()],
        ),
        (
            "invalid: surge enabled, surge zero",
            json!({"maxSurge": 0}),
            vec![required.clone()],
        ),
        ("valid: surge enabled, surge one", json!({"maxSurge": 1}), vec![]),
        ("valid: surge enabled, surge one percent", json!({"maxSurge": "1%"}), vec![]),
        ("valid: surge enabled, surge 100%", json!({"maxSurge": "100%"}), vec![]),
        (
            "invalid: surge enabled, surge greater than 100%",
            json!({"maxSurge": "101%"}),
            vec![over("maxSurge", "101%")],
        ),
        (
            "invalid: surge enabled, surge and unavailable set",
            json!({"maxUnavailable": "1%", "maxSurge": "1%"}),
            vec![both("1%")],
        ),
        (
            "invalid: surge enabled, surge and unavailable zero percent",
            json!({"maxUnavailable": "0%", "maxSurge": "0%"}),
            vec![required.clone()],
        ),
        (
            "invalid: surge enabled, surge and unavailable zero",
            json!({"maxUnavailable": 0, "maxSurge": 0}),
            vec![required.clone()],
        ),
        (
            "invalid: surge enabled, surge and unavailable mixed zero",
            json!({"maxUnavailable": 0, "maxSurge": "0%"}),
            vec![required.clone()],
        ),
        // Hand-derived rows: negative values, non-percent strings, a percent beyond int64.
        (
            "negative maxUnavailable",
            json!({"maxUnavailable": -1}),
            vec![format!("{p}.maxUnavailable: Invalid value: -1: must be greater than or equal to 0")],
        ),
        (
            // IntValue() of "2" is 2: not zero, so only the percent syntax error.
            "numeric string maxSurge",
            json!({"maxSurge": "2"}),
            vec![format!(
                "{p}.maxSurge: Invalid value: \"2\": {}",
                super::super::deployment_validation::PERCENT_ERR_MSG
            )],
        ),
        (
            // strconv.Atoi's ErrRange value (math.MaxInt64) is non-zero and above 100%.
            "maxSurge beyond int64",
            json!({"maxSurge": "99999999999999999999%"}),
            vec![over("maxSurge", "99999999999999999999%")],
        ),
        (
            "maxUnavailable beyond int64 with a surge",
            json!({"maxUnavailable": "99999999999999999999%", "maxSurge": 1}),
            vec![
                over("maxUnavailable", "99999999999999999999%"),
                format!("{p}.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero"),
            ],
        ),
    ];
    for (name, v, want) in rows {
        let ru: RollingUpdateDaemonSet = serde_json::from_value(v).expect("rollingUpdate JSON");
        let errs = validate_rolling_update_daemon_set(&ru, p);
        assert_eq!(lines(&errs), want, "{name}");
    }
}

// upstream: TestValidateControllerRevision / TestValidateControllerRevisionUpdate
// (pkg/apis/apps/validation/validation_test.go): the error rows' texts.
#[test]
fn validate_controller_revision_rows_exact() {
    let cr = |name: &str, ns: &str, data: Option<Value>, revision: i64, rv: &str| {
        let mut r: ControllerRevision = serde_json::from_value(json!({
            "metadata": {"name": name, "namespace": ns, "resourceVersion": rv},
            "revision": revision
        }))
        .expect("ControllerRevision JSON");
        r.data = data;
        r
    };
    let data = Some(json!({"spec": {}}));
    assert_eq!(
        lines(&validate_controller_revision(&cr(
            "validname",
            "validns",
            data.clone(),
            -1,
            ""
        ))),
        ["revision: Invalid value: -1: must be greater than or equal to 0"]
    );
    assert_eq!(
        lines(&validate_controller_revision(&cr(
            "validname",
            "validns",
            None,
            0,
            ""
        ))),
        ["data: Required value: data is mandatory"]
    );
    assert_eq!(
        lines(&validate_controller_revision(&cr(
            "",
            "validns",
            data.clone(),
            0,
            ""
        ))),
        ["metadata.name: Required value: name or generateName is required"]
    );
    let valid = cr("validname", "validns", data.clone(), 0, "1");
    let changed = cr(
        "validname",
        "validns",
        Some(json!({"spec": {"x": 1}})),
        0,
        "1",
    );
    let errs = validate_controller_revision_update(&changed, &valid);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].field, "data");
    assert!(
        errs[0].to_string().ends_with(": field is immutable"),
        "{}",
        errs[0]
    );
    // A changed revision number is allowed (only data is immutable).
    let bumped = cr("validname", "validns", data, 7, "1");
    assert!(validate_controller_revision_update(&bumped, &valid).is_empty());
}

// Selector immutability compares with apiequality.Semantic.DeepEqual, where an empty list or map
// equals an absent one: adding `matchExpressions: []` is no change, for a DaemonSet (the
// strategy's ValidateImmutableField) as for a StatefulSet (the forbidden-spec-update rule).
#[test]
fn empty_match_expressions_are_no_selector_change() {
    let mut old = daemon_set(json!({}));
    old.metadata.resource_version = "1".into();
    crate::api::sts_ds_defaults::set_defaults_daemon_set(&mut old);
    let mut new = old.clone();
    new.spec
        .selector
        .as_mut()
        .expect("selector")
        .match_expressions = Some(vec![]);
    assert!(validate_daemon_set_strategy_update(&new, &old).is_empty());
    new.spec.selector = None;
    assert!(lines(&validate_daemon_set_strategy_update(&new, &old))
        .contains(&"spec.selector: Invalid value: null: field is immutable".to_string()));

    let mut old = mk_stateful_set(json!({}));
    old.metadata.resource_version = "1".into();
    let mut new = old.clone();
    new.spec
        .selector
        .as_mut()
        .expect("selector")
        .match_expressions = Some(vec![]);
    assert!(validate_stateful_set_update(&new, &old).is_empty());
}

// daemonSetStrategy.ValidateUpdate runs ValidateDaemonSet and ValidateDaemonSetUpdate, so a bad
// spec field is found twice; errors.NewInvalid's message (ErrorList.ToAggregate) and kubectl
// (statusCausesToAggrError) print it once.
#[test]
fn daemon_set_update_reports_a_spec_error_once() {
    use crate::api::{Object, Time};
    let mut api = crate::store::apiserver::ApiServer::new(1, Time(0));
    let mut v = serde_json::to_value(daemon_set(json!({}))).expect("JSON");
    v["apiVersion"] = json!("apps/v1");
    v["kind"] = json!("DaemonSet");
    api.create(Object::from_value(v).expect("object"))
        .expect("valid DaemonSet");
    let mut d = api
        .store
        .get::<DaemonSet>("default", "abc")
        .cloned()
        .expect("stored");
    d.spec.min_ready_seconds = -1;
    let e = api
        .update(Object::DaemonSet(d))
        .expect_err("invalid update");
    let line = "spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0";
    assert_eq!(
        e.message,
        format!("DaemonSet.apps \"abc\" is invalid: {line}")
    );
    assert_eq!(
        e.kubectl_message(),
        format!("The DaemonSet \"abc\" is invalid: {line}")
    );
}

// upstream: TestValidateDaemonSetUpdate (pkg/apis/apps/validation/validation_test.go): the error
// rows with their exact texts (apps/v1 keeps spec.templateGeneration in the
// deprecated.daemonset.template.generation annotation).
#[test]
fn validate_daemon_set_update_error_rows_exact() {
    let mk = |name: &str, rv: &str, generation: i64, patch: Value| {
        let mut d = daemon_set(patch);
        d.metadata.name = name.into();
        d.metadata.resource_version = rv.into();
        d.metadata.annotations.insert(
            "deprecated.daemonset.template.generation".into(),
            generation.to_string(),
        );
        d
    };
    let abc2 = json!({"spec": {"selector": {"matchLabels": {"a": null, "c": "d"}},
        "template": {"metadata": {"labels": {"a": null, "c": "d"}}}}});
    let rows: Vec<(&str, DaemonSet, DaemonSet, Vec<String>)> = vec![
        (
            "change daemon name",
            mk("", "1", 1, json!({})),
            mk("abc", "2", 1, json!({})),
            vec!["metadata.name: Invalid value: \"abc\": field is immutable".into()],
        ),
        (
            "invalid selector",
            mk("abc", "1", 1, json!({})),
            mk(
                "abc",
                "2",
                1,
                json!({"spec": {"selector": {"matchLabels": {"a": null, BAD_KEY: "b"}}}}),
            ),
            vec![format!(
                "spec.selector.matchLabels: Invalid value: {BAD_KEY:?}: {NAME_PART}"
            )],
        ),
        (
            "invalid pod",
            mk("abc", "1", 1, json!({})),
            mk("abc", "2", 2, json!({"spec": {"template": {"spec": {"containers": []}}}})),
            vec!["spec.template.spec.containers: Required value".into()],
        ),
        (
            "negative templateGeneration",
            mk("abc", "1", -1, json!({})),
            mk("abc", "2", -1, json!({})),
            vec!["spec.templateGeneration: Invalid value: -1: must be greater than or equal to 0"
                .into()],
        ),
        (
            "decreased templateGeneration",
            mk("abc", "1", 2, json!({})),
            mk("abc", "2", 1, json!({})),
            vec!["spec.templateGeneration: Invalid value: 1: must not be decremented".into()],
        ),
        (
            "unchanged templateGeneration upon template update",
            mk("abc", "1", 2, json!({})),
            mk("abc", "2", 2, abc2.clone()),
            vec![
                "spec.templateGeneration: Invalid value: 2: must be incremented upon template update"
                    .into(),
            ],
        ),
        (
            // Hand-derived: a bump without a template change.
            "incremented templateGeneration without template update",
            mk("abc", "1", 2, json!({})),
            mk("abc", "2", 3, json!({})),
            vec![
                "spec.templateGeneration: Invalid value: 3: must not be incremented without template update"
                    .into(),
            ],
        ),
    ];
    for (name, old, update, want) in rows {
        assert_eq!(
            lines(&validate_daemon_set_update(&update, &old)),
            want,
            "{name}"
        );
    }
    // "invalid update strategy": one NotSupported error at spec.updateStrategy.
    let errs = validate_daemon_set_update(
        &mk(
            "abc",
            "2",
            1,
            json!({"spec": {"updateStrategy": {"type": "Random"}}}),
        ),
        &mk("abc", "1", 1, json!({})),
    );
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].field, "spec.updateStrategy");
    assert!(
        errs[0]
            .to_string()
            .ends_with(": supported values: \"RollingUpdate\", \"OnDelete\""),
        "{}",
        errs[0]
    );
}
