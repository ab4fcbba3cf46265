//! upstream: TestWarnings, TestTemplateOnlyWarnings and TestCheckForOverLap
//! (pkg/api/pod/warnings_test.go). Each template case runs twice, as upstream does: as a pod
//! template with a nil field path (`podspec_`) and as a pod (`pod_`); the comparison is
//! upstream's: same count, same set. Templates are written as the JSON they would arrive as.
//! Not ported: the "null" case (a nil template has no Rust counterpart).

use super::core::{Pod, PodTemplateSpec};
use super::warnings::{
    check_for_overlap, get_warnings_for_pod, get_warnings_for_pod_template, PathAndSource,
};
use crate::features::FeatureGates;
use std::collections::BTreeSet;

fn tpl(json: &str) -> PodTemplateSpec {
    serde_json::from_str(json).unwrap_or_else(|e| panic!("bad template {json}: {e}"))
}

fn same(name: &str, actual: &[String], expected: &[&str]) {
    let a: BTreeSet<&str> = actual.iter().map(String::as_str).collect();
    let e: BTreeSet<&str> = expected.iter().copied().collect();
    assert_eq!(
        actual.len(),
        expected.len(),
        "{name}: expected {} warnings, got:\n{}",
        expected.len(),
        actual.join("\n")
    );
    assert_eq!(a, e, "{name}");
}

/// Gates with GitRepoVolumeDriver on (the upstream table's default) or off.
fn gates(git_repo_disabled: bool) -> FeatureGates {
    let mut g = FeatureGates::default();
    g.set("GitRepoVolumeDriver", !git_repo_disabled);
    g
}

fn run(name: &str, template: &str, git_repo_disabled: bool, expected: &[&str]) {
    let t = tpl(template);
    let g = gates(git_repo_disabled);
    same(
        &format!("podspec_{name}"),
        &get_warnings_for_pod_template(None, &t, &g),
        expected,
    );
    let pod = Pod {
        metadata: t.metadata.clone(),
        spec: t.spec.clone(),
        ..Pod::default()
    };
    same(
        &format!("pod_{name}"),
        &get_warnings_for_pod(&pod, &g),
        expected,
    );
}

const NODE_LABEL_KEYS: &str = r#"[{"key":"foo","operator":""},{"key":"beta.kubernetes.io/arch","operator":""},{"key":"beta.kubernetes.io/os","operator":""},{"key":"failure-domain.beta.kubernetes.io/region","operator":""},{"key":"failure-domain.beta.kubernetes.io/zone","operator":""},{"key":"beta.kubernetes.io/instance-type","operator":""}]"#;

const INVALID_LABEL: &str = "-1 is invalid, a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

// upstream: TestWarnings (pkg/api/pod/warnings_test.go)
#[test]
fn test_warnings_volumes() {
    let vol = |src: &str| format!(r#"{{"spec":{{"volumes":[{{"name":"s",{src}}}]}}}}"#);
    for (name, src, disabled, expected) in [
        (
            "photon",
            r#""photonPersistentDisk":{}"#,
            false,
            "spec.volumes[0].photonPersistentDisk: deprecated in v1.11, non-functional in v1.16+",
        ),
        (
            "gitRepo",
            r#""gitRepo":{}"#,
            false,
            "spec.volumes[0].gitRepo: deprecated in v1.11",
        ),
        (
            "gitRepo plugin disabled",
            r#""gitRepo":{}"#,
            true,
            "spec.volumes[0].gitRepo: deprecated in v1.11, and disabled by default in v1.33+",
        ),
        (
            "scaleIO",
            r#""scaleIO":{}"#,
            false,
            "spec.volumes[0].scaleIO: deprecated in v1.16, non-functional in v1.22+",
        ),
        (
            "flocker",
            r#""flocker":{}"#,
            false,
            "spec.volumes[0].flocker: deprecated in v1.22, non-functional in v1.25+",
        ),
        (
            "storageOS",
            r#""storageos":{}"#,
            false,
            "spec.volumes[0].storageOS: deprecated in v1.22, non-functional in v1.25+",
        ),
        (
            "quobyte",
            r#""quobyte":{}"#,
            false,
            "spec.volumes[0].quobyte: deprecated in v1.22, non-functional in v1.25+",
        ),
        (
            "glusterfs",
            r#""glusterfs":{}"#,
            false,
            "spec.volumes[0].glusterfs: deprecated in v1.25, non-functional in v1.26+",
        ),
        (
            "CephFS",
            r#""cephfs":{}"#,
            false,
            "spec.volumes[0].cephfs: deprecated in v1.28, non-functional in v1.31+",
        ),
        (
            "rbd",
            r#""rbd":{}"#,
            false,
            "spec.volumes[0].rbd: deprecated in v1.28, non-functional in v1.31+",
        ),
    ] {
        run(name, &vol(src), disabled, &[expected]);
    }
}

// upstream: TestWarnings (pkg/api/pod/warnings_test.go)
#[test]
fn test_warnings_overlapping_paths() {
    let cm = |items: &str| {
        format!(
            r#"{{"spec":{{"volumes":[{{"name":"Test","configMap":{{"name":"foo","items":{items}}}}}]}}}}"#
        )
    };
    run(
        "overlapping paths in a configmap volume",
        &cm(r#"[{"key":"foo","path":"test"},{"key":"bar","path":"test"}]"#),
        false,
        &[r#"volume "Test" (ConfigMap "foo"): overlapping paths: "test" with "test""#],
    );
    run(
        "overlapping paths in a configmap volume - try to mount dir path into a file",
        &cm(r#"[{"key":"foo","path":"test"},{"key":"bar","path":"test/app"}]"#),
        false,
        &[r#"volume "Test" (ConfigMap "foo"): overlapping paths: "test/app" with "test""#],
    );
    run(
        "overlapping paths in a configmap volume - try to mount file into a dir path",
        &cm(r#"[{"key":"bar","path":"test/app"},{"key":"foo","path":"test"}]"#),
        false,
        &[r#"volume "Test" (ConfigMap "foo"): overlapping paths: "test" with "test/app""#],
    );
    run(
        "overlapping paths in a secret volume",
        r#"{"spec":{"volumes":[{"name":"Test","secret":{"secretName":"foo","items":[{"key":"foo","path":"test"},{"key":"bar","path":"test"}]}}]}}"#,
        false,
        &[r#"volume "Test" (Secret "foo"): overlapping paths: "test" with "test""#],
    );
    run(
        "overlapping paths in a downward api volume",
        r#"{"spec":{"volumes":[{"name":"Test","downwardAPI":{"items":[{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.name"},"path":"test"},{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.labels"},"path":"test"}]}}]}}"#,
        false,
        &[r#"volume "Test" (DownwardAPI): overlapping paths: "test" with "test""#],
    );
    let projected = |sources: &str| {
        format!(
            r#"{{"spec":{{"volumes":[{{"name":"foo","projected":{{"sources":{sources}}}}}]}}}}"#
        )
    };
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "overlapping paths in projected volume - service account and config",
            r#"[{"configMap":{"name":"Test","items":[{"key":"foo","path":"test"}]}},{"serviceAccountToken":{"path":"test"}}]"#,
            &[r#"volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test" (ConfigMap "Test")"#],
        ),
        (
            "overlapping paths in projected volume volume: service account dir and config file",
            r#"[{"configMap":{"name":"Test","items":[{"key":"foo","path":"test"}]}},{"serviceAccountToken":{"path":"test/file"}}]"#,
            &[r#"volume "foo" (Projected): overlapping paths: "test/file" (ServiceAccountToken) with "test" (ConfigMap "Test")"#],
        ),
        (
            "overlapping paths in projected volume - service account file and config dir",
            r#"[{"configMap":{"name":"Test","items":[{"key":"foo","path":"test/file"}]}},{"serviceAccountToken":{"path":"test"}}]"#,
            &[r#"volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test/file" (ConfigMap "Test")"#],
        ),
        (
            "overlapping paths in projected volume - service account and secret",
            r#"[{"secret":{"name":"Test","items":[{"key":"foo","path":"test"}]}},{"serviceAccountToken":{"path":"test"}}]"#,
            &[r#"volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test" (Secret "Test")"#],
        ),
        (
            "overlapping paths in projected volume - service account and downward api",
            r#"[{"downwardAPI":{"items":[{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.name"},"path":"test"}]}},{"serviceAccountToken":{"path":"test"}}]"#,
            &[r#"volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test" (DownwardAPI)"#],
        ),
        (
            "overlapping paths in projected volume - service account and cluster trust bundle",
            r#"[{"clusterTrustBundle":{"name":"Test","path":"test"}},{"serviceAccountToken":{"path":"test"}}]"#,
            &[r#"volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test" (ClusterTrustBundle "Test")"#],
        ),
        (
            "overlapping paths in projected volume - service account and cluster trust bundle with signer name",
            r#"[{"clusterTrustBundle":{"signerName":"Test","path":"test"}},{"serviceAccountToken":{"path":"test"}}]"#,
            &[r#"volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test" (ClusterTrustBundle "Test")"#],
        ),
        (
            "overlapping paths in projected volume - secret and config map",
            r#"[{"secret":{"name":"TestSecret","items":[{"key":"mykey","path":"test"}]}},{"configMap":{"name":"TestConfigMap","items":[{"key":"mykey","path":"test/test1"}]}}]"#,
            &[r#"volume "foo" (Projected): overlapping paths: "test/test1" (ConfigMap "TestConfigMap") with "test" (Secret "TestSecret")"#],
        ),
        (
            "overlapping paths in projected volume - config map and downward api",
            r#"[{"secret":{"name":"TestSecret","items":[{"key":"mykey","path":"test"}]}},{"downwardAPI":{"items":[{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.name"},"path":"test/test2"}]}}]"#,
            &[r#"volume "foo" (Projected): overlapping paths: "test/test2" (DownwardAPI) with "test" (Secret "TestSecret")"#],
        ),
        (
            "overlapping paths in projected volume - downward api and cluster thrust bundle api",
            r#"[{"downwardAPI":{"items":[{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.name"},"path":"test/test2"}]}},{"clusterTrustBundle":{"name":"Test","path":"test"}}]"#,
            &[r#"volume "foo" (Projected): overlapping paths: "test" (ClusterTrustBundle "Test") with "test/test2" (DownwardAPI)"#],
        ),
        (
            "overlapping paths in projected volume - multiple sources",
            r#"[{"clusterTrustBundle":{"signerName":"Test","path":"test/test"}},{"downwardAPI":{"items":[{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.name"},"path":"test"}]}},{"secret":{"name":"Test","items":[{"key":"foo","path":"test"}]}},{"serviceAccountToken":{"path":"test"}}]"#,
            &[
                r#"volume "foo" (Projected): overlapping paths: "test" (DownwardAPI) with "test/test" (ClusterTrustBundle "Test")"#,
                r#"volume "foo" (Projected): overlapping paths: "test" (Secret "Test") with "test/test" (ClusterTrustBundle "Test")"#,
                r#"volume "foo" (Projected): overlapping paths: "test" (Secret "Test") with "test" (DownwardAPI)"#,
                r#"volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test/test" (ClusterTrustBundle "Test")"#,
                r#"volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test" (DownwardAPI)"#,
                r#"volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test" (Secret "Test")"#,
            ],
        ),
        (
            "overlapping paths in projected volume - ServiceAccount vs. DownwardAPI",
            r#"[{"serviceAccountToken":{"path":"test/test2"}},{"downwardAPI":{"items":[{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.name"},"path":"test"},{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.name"},"path":"test"}]}}]"#,
            &[
                r#"volume "foo" (Projected): overlapping paths: "test" (DownwardAPI) with "test/test2" (ServiceAccountToken)"#,
                r#"volume "foo" (Projected): overlapping paths: "test" (DownwardAPI) with "test/test2" (ServiceAccountToken)"#,
                r#"volume "foo" (Projected): overlapping paths: "test" (DownwardAPI) with "test" (DownwardAPI)"#,
            ],
        ),
        (
            "empty sources in projected volume",
            r#"[{}]"#,
            &[r#"volume "foo" (Projected) has no sources provided"#],
        ),
    ];
    for (name, sources, expected) in cases {
        run(name, &projected(sources), false, expected);
    }
}

// upstream: TestWarnings (pkg/api/pod/warnings_test.go)
#[test]
fn test_warnings_spec_lists() {
    run(
        "duplicate hostAlias",
        r#"{"spec":{"hostAliases":[{"ip":"1.1.1.1"},{"ip":"1.1.1.1"},{"ip":"1.1.1.1"}]}}"#,
        false,
        &[
            r#"spec.hostAliases[1].ip: duplicate ip "1.1.1.1""#,
            r#"spec.hostAliases[2].ip: duplicate ip "1.1.1.1""#,
        ],
    );
    run(
        "duplicate imagePullSecret",
        r#"{"spec":{"imagePullSecrets":[{"name":"a"},{"name":"a"},{"name":"a"}]}}"#,
        false,
        &[
            r#"spec.imagePullSecrets[1].name: duplicate name "a""#,
            r#"spec.imagePullSecrets[2].name: duplicate name "a""#,
        ],
    );
    run(
        "empty imagePullSecret",
        r#"{"spec":{"imagePullSecrets":[{"name":""}]}}"#,
        false,
        &[r#"spec.imagePullSecrets[0].name: invalid empty name """#],
    );
    let env = |n: &str| {
        format!(
            r#"[{{"name":"{n}","value":"{n}"}},{{"name":"{n}","value":"{n}"}},{{"name":"{n}","value":"other"}},{{"name":"{n}","value":""}},{{"name":"{n}","value":"$({n})"}},{{"name":"{n}","valueFrom":{{}}}},{{"name":"{n}","value":"$({n}) $({n})"}}]"#
        )
    };
    let hides = |c: &str, i: usize, n: &str| {
        format!(
            r#"spec.{c}[0].env[{i}]: hides previous definition of "{n}", which may be dropped when using apply"#
        )
    };
    let mut expected = vec![];
    for (c, n) in [("initContainers", "a"), ("containers", "b")] {
        for i in 1..=5 {
            expected.push(hides(c, i, n));
        }
    }
    let refs: Vec<&str> = expected.iter().map(String::as_str).collect();
    run(
        "duplicate env",
        &format!(
            r#"{{"spec":{{"initContainers":[{{"env":{}}}],"containers":[{{"env":{}}}]}}}}"#,
            env("a"),
            env("b")
        ),
        false,
        &refs,
    );
    let res = r#"{"cpu":"100m","memory":"4m","ephemeral-storage":"4m"}"#;
    let frac =
        |p: &str| format!(r#"{p}: fractional byte value "4m" is invalid, must be an integer"#);
    let mut expected = vec![];
    for c in ["initContainers", "containers"] {
        for which in ["requests", "limits"] {
            for r in ["ephemeral-storage", "memory"] {
                expected.push(frac(&format!("spec.{c}[0].resources.{which}[{r}]")));
            }
        }
    }
    expected.push(frac("spec.overhead[ephemeral-storage]"));
    expected.push(frac("spec.overhead[memory]"));
    let refs: Vec<&str> = expected.iter().map(String::as_str).collect();
    run(
        "fractional resources",
        &format!(
            r#"{{"spec":{{"initContainers":[{{"resources":{{"requests":{res},"limits":{res}}}}}],"containers":[{{"resources":{{"requests":{res},"limits":{res}}}}}],"overhead":{res}}}}}"#
        ),
        false,
        &refs,
    );
}

// upstream: TestWarnings (pkg/api/pod/warnings_test.go)
#[test]
fn test_warnings_node_labels() {
    run(
        "node labels in nodeSelector",
        r#"{"spec":{"nodeSelector":{"beta.kubernetes.io/arch":"true","beta.kubernetes.io/os":"true","failure-domain.beta.kubernetes.io/region":"true","failure-domain.beta.kubernetes.io/zone":"true","beta.kubernetes.io/instance-type":"true"}}}"#,
        false,
        &[
            r#"spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead"#,
            r#"spec.nodeSelector[beta.kubernetes.io/instance-type]: deprecated since v1.17; use "node.kubernetes.io/instance-type" instead"#,
            r#"spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead"#,
            r#"spec.nodeSelector[failure-domain.beta.kubernetes.io/region]: deprecated since v1.17; use "topology.kubernetes.io/region" instead"#,
            r#"spec.nodeSelector[failure-domain.beta.kubernetes.io/zone]: deprecated since v1.17; use "topology.kubernetes.io/zone" instead"#,
        ],
    );
    let keyed = |prefix: &str| {
        vec![
            format!(
                r#"{prefix}.matchExpressions[1].key: beta.kubernetes.io/arch is deprecated since v1.14; use "kubernetes.io/arch" instead"#
            ),
            format!(
                r#"{prefix}.matchExpressions[2].key: beta.kubernetes.io/os is deprecated since v1.14; use "kubernetes.io/os" instead"#
            ),
            format!(
                r#"{prefix}.matchExpressions[3].key: failure-domain.beta.kubernetes.io/region is deprecated since v1.17; use "topology.kubernetes.io/region" instead"#
            ),
            format!(
                r#"{prefix}.matchExpressions[4].key: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead"#
            ),
            format!(
                r#"{prefix}.matchExpressions[5].key: beta.kubernetes.io/instance-type is deprecated since v1.17; use "node.kubernetes.io/instance-type" instead"#
            ),
        ]
    };
    let e = keyed("spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]");
    run(
        "node labels in affinity requiredDuringSchedulingIgnoredDuringExecution",
        &format!(
            r#"{{"spec":{{"affinity":{{"nodeAffinity":{{"requiredDuringSchedulingIgnoredDuringExecution":{{"nodeSelectorTerms":[{{"matchExpressions":{NODE_LABEL_KEYS}}}]}}}}}}}}}}"#
        ),
        false,
        &e.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    let e = keyed(
        "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference",
    );
    run(
        "node labels in affinity preferredDuringSchedulingIgnoredDuringExecution",
        &format!(
            r#"{{"spec":{{"affinity":{{"nodeAffinity":{{"preferredDuringSchedulingIgnoredDuringExecution":[{{"preference":{{"matchExpressions":{NODE_LABEL_KEYS}}}}}]}}}}}}}}"#
        ),
        false,
        &e.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    run(
        "node labels in topologySpreadConstraints",
        r#"{"spec":{"topologySpreadConstraints":[{"topologyKey":"foo","labelSelector":{}},{"topologyKey":"beta.kubernetes.io/arch","labelSelector":{}},{"topologyKey":"beta.kubernetes.io/os","labelSelector":{}},{"topologyKey":"failure-domain.beta.kubernetes.io/region","labelSelector":{}},{"topologyKey":"failure-domain.beta.kubernetes.io/zone","labelSelector":{}},{"topologyKey":"beta.kubernetes.io/instance-type","labelSelector":{}}]}}"#,
        false,
        &[
            r#"spec.topologySpreadConstraints[1].topologyKey: beta.kubernetes.io/arch is deprecated since v1.14; use "kubernetes.io/arch" instead"#,
            r#"spec.topologySpreadConstraints[2].topologyKey: beta.kubernetes.io/os is deprecated since v1.14; use "kubernetes.io/os" instead"#,
            r#"spec.topologySpreadConstraints[3].topologyKey: failure-domain.beta.kubernetes.io/region is deprecated since v1.17; use "topology.kubernetes.io/region" instead"#,
            r#"spec.topologySpreadConstraints[4].topologyKey: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead"#,
            r#"spec.topologySpreadConstraints[5].topologyKey: beta.kubernetes.io/instance-type is deprecated since v1.17; use "node.kubernetes.io/instance-type" instead"#,
        ],
    );
    let preferred = |values: &str| {
        format!(
            r#"{{"spec":{{"affinity":{{"nodeAffinity":{{"preferredDuringSchedulingIgnoredDuringExecution":[{{"weight":10,"preference":{{"matchExpressions":[{{"key":"foo","operator":"In","values":{values}}}]}}}}]}}}}}}}}"#
        )
    };
    let w = format!("spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].values[0]: {INVALID_LABEL}");
    run(
        "creating pod with invalid value in nodeaffinity",
        &preferred(r#"["-1"]"#),
        false,
        &[&w],
    );
    // "updating pod with invalid value in nodeaffinity": the old template is not consulted.
    run(
        "updating pod with invalid value in nodeaffinity",
        &preferred(r#"["-1"]"#).replace(
            r#"{"spec":{"#,
            r#"{"spec":{"schedulingGates":[{"name":"foo"}],"#,
        ),
        false,
        &[&w],
    );
}

// upstream: TestWarnings (pkg/api/pod/warnings_test.go)
#[test]
fn test_warnings_annotations_and_misc() {
    run(
        "annotations",
        r#"{"metadata":{"annotations":{"foo":"bar","scheduler.alpha.kubernetes.io/critical-pod":"true","seccomp.security.alpha.kubernetes.io/pod":"default","container.seccomp.security.alpha.kubernetes.io/foo":"default","security.alpha.kubernetes.io/sysctls":"a,b,c","security.alpha.kubernetes.io/unsafe-sysctls":"d,e,f"}},"spec":{"containers":[{"name":"foo"}]}}"#,
        false,
        &[
            r#"metadata.annotations[scheduler.alpha.kubernetes.io/critical-pod]: non-functional in v1.16+; use the "priorityClassName" field instead"#,
            r#"metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]: non-functional in v1.27+; use the "seccompProfile" field instead"#,
            r#"metadata.annotations[container.seccomp.security.alpha.kubernetes.io/foo]: non-functional in v1.27+; use the "seccompProfile" field instead"#,
            r#"metadata.annotations[security.alpha.kubernetes.io/sysctls]: non-functional in v1.11+; use the "sysctls" field instead"#,
            r#"metadata.annotations[security.alpha.kubernetes.io/unsafe-sysctls]: non-functional in v1.11+; use the "sysctls" field instead"#,
        ],
    );
    run(
        "seccomp fields",
        r#"{"metadata":{"annotations":{"seccomp.security.alpha.kubernetes.io/pod":"default","container.seccomp.security.alpha.kubernetes.io/foo":"default"}},"spec":{"securityContext":{"seccompProfile":{"type":"RuntimeDefault"}},"containers":[{"name":"foo","securityContext":{"seccompProfile":{"type":"RuntimeDefault"}}}]}}"#,
        false,
        &[],
    );
    let eph = |q: &str| {
        format!(
            r#"{{"spec":{{"volumes":[{{"name":"ephemeral-volume","ephemeral":{{"volumeClaimTemplate":{{"spec":{{"resources":{{"requests":{{"storage":"{q}"}}}}}}}}}}}}]}}}}"#
        )
    };
    run(
        "pod with ephemeral volume source 200Mi",
        &eph("200Mi"),
        false,
        &[],
    );
    run(
        "pod with ephemeral volume source 200m",
        &eph("200m"),
        false,
        &[
            r#"spec.volumes[0].ephemeral.volumeClaimTemplate.spec.resources.requests[storage]: fractional byte value "200m" is invalid, must be an integer"#,
        ],
    );
    run(
        "terminationGracePeriodSeconds is negative",
        r#"{"spec":{"terminationGracePeriodSeconds":-1}}"#,
        false,
        &["spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1"],
    );
    run(
        "null LabelSelector in topologySpreadConstraints",
        r#"{"spec":{"topologySpreadConstraints":[{"labelSelector":{}},{"labelSelector":null}]}}"#,
        false,
        &["spec.topologySpreadConstraints[1].labelSelector: a null labelSelector results in matching no pod"],
    );
    let terms = r#"{"requiredDuringSchedulingIgnoredDuringExecution":[{"labelSelector":{}},{"labelSelector":null}],"preferredDuringSchedulingIgnoredDuringExecution":[{"podAffinityTerm":{"labelSelector":{}}},{"podAffinityTerm":{"labelSelector":null}}]}"#;
    run(
        "null LabelSelector in PodAffinity",
        &format!(r#"{{"spec":{{"affinity":{{"podAffinity":{terms},"podAntiAffinity":{terms}}}}}}}"#),
        false,
        &[
            "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[1].labelSelector: a null labelSelector results in matching no pod",
            "spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[1].podAffinityTerm.labelSelector: a null labelSelector results in matching no pod",
            "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[1].labelSelector: a null labelSelector results in matching no pod",
            "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[1].podAffinityTerm.labelSelector: a null labelSelector results in matching no pod",
        ],
    );
    run(
        "dubious IP address formats",
        r#"{"spec":{"dnsConfig":{"nameservers":["1.2.3.4","05.06.07.08"]},"hostAliases":[{"ip":"::ffff:1.2.3.4"}]}}"#,
        false,
        &[
            r#"spec.dnsConfig.nameservers[1]: non-standard IP address "05.06.07.08" will be considered invalid in a future Kubernetes release: use "5.6.7.8""#,
            r#"spec.hostAliases[0].ip: non-standard IP address "::ffff:1.2.3.4" will be considered invalid in a future Kubernetes release: use "1.2.3.4""#,
        ],
    );
}

// The port cases of TestWarnings.
// upstream: TestWarnings (pkg/api/pod/warnings_test.go)
#[test]
fn test_warnings_ports() {
    let c1 =
        |ports: &str| format!(r#"{{"spec":{{"containers":[{{"name":"foo","ports":{ports}}}]}}}}"#);
    let c2 = |a: &str, b: &str| {
        format!(
            r#"{{"spec":{{"containers":[{{"name":"foo","ports":{a}}},{{"name":"bar","ports":{b}}}]}}}}"#
        )
    };
    let dup = |a: &str, b: &str| {
        format!("spec.containers[{a}]: duplicate port definition with spec.containers[{b}]")
    };
    let one = |s: String| vec![s];
    let cases: Vec<(&str, String, Vec<String>)> = vec![
        ("container no ports", c1("[]"), vec![]),
        ("one container, one port", c1(r#"[{"containerPort":80,"hostPort":80}]"#), vec![]),
        ("one container, two ports, same protocol, different ports", c1(r#"[{"containerPort":80,"protocol":"UDP"},{"containerPort":81,"protocol":"UDP"}]"#), vec![]),
        ("one container, two ports, different protocols, same port", c1(r#"[{"containerPort":80,"protocol":"UDP"},{"containerPort":80,"protocol":"TCP"}]"#), vec![]),
        ("one container, two ports, same protocol, same port, different hostport", c1(r#"[{"containerPort":80,"protocol":"TCP","hostPort":80},{"containerPort":80,"protocol":"TCP","hostPort":81}]"#), vec![]),
        ("one container, two ports, same protocol, port and hostPort, different hostIP", c1(r#"[{"containerPort":80,"protocol":"TCP","hostPort":80,"hostIP":"10.0.0.1"},{"containerPort":80,"protocol":"TCP","hostPort":80,"hostIP":"10.0.0.2"}]"#), vec![]),
        ("two containers, one port each, same protocol, different ports", c2(r#"[{"containerPort":80,"protocol":"UDP"}]"#, r#"[{"containerPort":81,"protocol":"UDP"}]"#), vec![]),
        ("two containers, one port each, different protocols, same port", c2(r#"[{"containerPort":80,"protocol":"UDP"}]"#, r#"[{"containerPort":80,"protocol":"TCP"}]"#), vec![]),
        ("two containers, one port each, same protocol, same port, different hostport", c2(r#"[{"containerPort":80,"protocol":"TCP","hostPort":80}]"#, r#"[{"containerPort":80,"protocol":"TCP","hostPort":81}]"#), vec![]),
        ("two containers, one port each, same protocol, port and hostPort, different hostIP", c2(r#"[{"containerPort":80,"protocol":"TCP","hostPort":80,"hostIP":"10.0.0.1"}]"#, r#"[{"containerPort":80,"protocol":"TCP","hostPort":80,"hostIP":"10.0.0.2"}]"#), vec![]),
        ("duplicate container ports with same port and protocol", c1(r#"[{"containerPort":80,"protocol":"UDP"},{"containerPort":80,"protocol":"UDP"}]"#), one(dup("0].ports[1", "0].ports[0"))),
        ("duplicate container ports with same port, hostPort and protocol", c1(r#"[{"containerPort":80,"hostPort":80,"protocol":"UDP"},{"containerPort":80,"hostPort":80,"protocol":"UDP"}]"#), one(dup("0].ports[1", "0].ports[0"))),
        ("duplicate container ports with same port, host port, host IP and protocol", c1(r#"[{"containerPort":80,"hostPort":80,"protocol":"UDP","hostIP":"10.0.0.1"},{"containerPort":80,"hostPort":80,"protocol":"UDP","hostIP":"10.0.0.1"}]"#), one(dup("0].ports[1", "0].ports[0"))),
        ("one container port hostIP set without host port set", c1(r#"[{"containerPort":80,"protocol":"UDP","hostIP":"10.0.0.1"}]"#), one("spec.containers[0].ports[0]: hostIP set without hostPort: {Name: HostPort:0 ContainerPort:80 Protocol:UDP HostIP:10.0.0.1}".into())),
        ("duplicate container ports with one host port set and one without", c1(r#"[{"containerPort":80,"hostPort":80,"protocol":"UDP","hostIP":"10.0.0.1"},{"containerPort":80,"protocol":"UDP","hostIP":"10.0.0.1"}]"#), vec![
            "spec.containers[0].ports[1]: overlapping port definition with spec.containers[0].ports[0]".into(),
            "spec.containers[0].ports[1]: hostIP set without hostPort: {Name: HostPort:0 ContainerPort:80 Protocol:UDP HostIP:10.0.0.1}".into(),
        ]),
        ("duplicate container ports without one host IP set and two with", c1(r#"[{"containerPort":80,"hostPort":80,"protocol":"UDP","hostIP":"10.0.0.1"},{"containerPort":80,"hostPort":80,"protocol":"UDP"},{"containerPort":80,"hostPort":80,"protocol":"UDP","hostIP":"10.0.0.2"}]"#), vec![
            "spec.containers[0].ports[1]: dangerously ambiguous port definition with spec.containers[0].ports[0]".into(),
            "spec.containers[0].ports[2]: dangerously ambiguous port definition with spec.containers[0].ports[1]".into(),
        ]),
        ("duplicate container ports with one host IP set and one without", c1(r#"[{"containerPort":80,"hostPort":80,"protocol":"UDP","hostIP":"10.0.0.1"},{"containerPort":80,"hostPort":80,"protocol":"UDP"}]"#), one("spec.containers[0].ports[1]: dangerously ambiguous port definition with spec.containers[0].ports[0]".into())),
        ("duplicate containers with same port and protocol", c2(r#"[{"containerPort":80,"protocol":"UDP"}]"#, r#"[{"containerPort":80,"protocol":"UDP"}]"#), one(dup("1].ports[0", "0].ports[0"))),
        ("duplicate containers with same port, hostPort and protocol", c2(r#"[{"containerPort":80,"hostPort":80,"protocol":"UDP"}]"#, r#"[{"containerPort":80,"hostPort":80,"protocol":"UDP"}]"#), one(dup("1].ports[0", "0].ports[0"))),
        ("duplicate containers with same port, host port, host IP and protocol", c2(r#"[{"containerPort":80,"hostPort":80,"protocol":"UDP","hostIP":"10.0.0.1"}]"#, r#"[{"containerPort":80,"hostPort":80,"protocol":"UDP","hostIP":"10.0.0.1"}]"#), one(dup("1].ports[0", "0].ports[0"))),
        ("duplicate containers with one host port set and one without", c2(r#"[{"containerPort":80,"hostPort":80,"protocol":"UDP","hostIP":"10.0.0.1"}]"#, r#"[{"containerPort":80,"protocol":"UDP","hostIP":"10.0.0.1"}]"#), vec![
            "spec.containers[1].ports[0]: overlapping port definition with spec.containers[0].ports[0]".into(),
            "spec.containers[1].ports[0]: hostIP set without hostPort: {Name: HostPort:0 ContainerPort:80 Protocol:UDP HostIP:10.0.0.1}".into(),
        ]),
        ("duplicate container ports without one host IP set and one with", c2(r#"[{"containerPort":80,"hostPort":80,"protocol":"UDP"}]"#, r#"[{"containerPort":80,"hostPort":80,"protocol":"UDP","hostIP":"10.0.0.1"}]"#), one("spec.containers[1].ports[0]: dangerously ambiguous port definition with spec.containers[0].ports[0]".into())),
        ("duplicate container ports with one host IP set and one without (two containers)", c2(r#"[{"containerPort":80,"hostPort":80,"protocol":"UDP","hostIP":"10.0.0.1"}]"#, r#"[{"containerPort":80,"hostPort":80,"protocol":"UDP"}]"#), one("spec.containers[1].ports[0]: dangerously ambiguous port definition with spec.containers[0].ports[0]".into())),
    ];
    for proto in ["UDP", "TCP"] {
        // "create duplicate container ports in two containers" (UDP) and "update duplicate
        // container ports in two containers" (TCP; the old template is not consulted).
        let p = |cp: i32| format!(r#"{{"containerPort":{cp},"hostPort":80,"protocol":"{proto}"}}"#);
        let t = format!(
            r#"{{"spec":{{"containers":[{{"name":"foo1","ports":[{},{},{}]}},{{"name":"foo","ports":[{},{}]}}]}}}}"#,
            p(80),
            p(180),
            p(80),
            p(80),
            p(80)
        );
        run(
            &format!("duplicate container ports in two containers ({proto})"),
            &t,
            false,
            &[
                &dup("0].ports[2", "0].ports[0"),
                &dup("1].ports[0", "0].ports[0"),
                &dup("1].ports[0", "0].ports[2"),
                &dup("1].ports[1", "0].ports[0"),
                &dup("1].ports[1", "0].ports[2"),
                &dup("1].ports[1", "1].ports[0"),
            ],
        );
    }
    for (name, t, expected) in &cases {
        let refs: Vec<&str> = expected.iter().map(String::as_str).collect();
        run(name, t, false, &refs);
    }
}

// upstream: TestWarnings (pkg/api/pod/warnings_test.go)
#[test]
fn test_warnings_port_names() {
    let named = |a: &str, b: &str| {
        format!(
            r#"{a}: duplicate port name "test" with {b}, services and probes that select ports by name will use {b}"#
        )
    };
    run(
        "create duplicate container ports name in two containers",
        r#"{"spec":{"containers":[{"name":"foo1","ports":[{"containerPort":80,"protocol":"UDP","name":"test"}]},{"name":"foo","ports":[{"containerPort":8090,"protocol":"TCP","name":"test"}]}]}}"#,
        false,
        &[&named(
            "spec.containers[1].ports[0]",
            "spec.containers[0].ports[0]",
        )],
    );
    run(
        "update duplicate container ports name in two containers",
        r#"{"spec":{"containers":[{"name":"foo1","ports":[{"containerPort":80,"protocol":"UDP","name":"test"}]},{"name":"foo","ports":[{"containerPort":8090,"protocol":"UDP","name":"test1"},{"containerPort":8092,"protocol":"UDP","name":"test"}]}]}}"#,
        false,
        &[&named(
            "spec.containers[1].ports[1]",
            "spec.containers[0].ports[0]",
        )],
    );
    run(
        "create duplicate container ports name in two sidecar containers",
        r#"{"spec":{"initContainers":[{"restartPolicy":"Always","name":"foo1","ports":[{"containerPort":80,"protocol":"UDP","name":"test"}]},{"name":"foo","restartPolicy":"Always","ports":[{"containerPort":8090,"protocol":"TCP","name":"test"}]}]}}"#,
        false,
        &[&named(
            "spec.initContainers[1].ports[0]",
            "spec.initContainers[0].ports[0]",
        )],
    );
    run(
        "update duplicate container ports name in two sidecar containers",
        r#"{"spec":{"initContainers":[{"restartPolicy":"Always","name":"foo1","ports":[{"containerPort":80,"protocol":"UDP","name":"test"}]},{"name":"foo","restartPolicy":"Always","ports":[{"containerPort":8090,"protocol":"UDP","name":"test1"},{"containerPort":8091,"protocol":"UDP","name":"test"}]}]}}"#,
        false,
        &[&named(
            "spec.initContainers[1].ports[1]",
            "spec.initContainers[0].ports[0]",
        )],
    );
    run(
        "create duplicate container ports name in containers and sidecar containers",
        r#"{"spec":{"initContainers":[{"restartPolicy":"Always","name":"foo1","ports":[{"containerPort":80,"protocol":"UDP","name":"test"}]}],"containers":[{"name":"foo","ports":[{"containerPort":8090,"protocol":"TCP","name":"test"}]}]}}"#,
        false,
        &[&named(
            "spec.containers[0].ports[0]",
            "spec.initContainers[0].ports[0]",
        )],
    );
    run(
        "update duplicate container ports name in containers and sidecar containers",
        r#"{"spec":{"initContainers":[{"restartPolicy":"Always","name":"foo1","ports":[{"containerPort":80,"protocol":"UDP","name":"test"}]}],"containers":[{"name":"foo","ports":[{"containerPort":8090,"protocol":"UDP","name":"test1"},{"containerPort":8092,"protocol":"UDP","name":"test"}]}]}}"#,
        false,
        &[&named(
            "spec.containers[0].ports[1]",
            "spec.initContainers[0].ports[0]",
        )],
    );
}

// upstream: TestTemplateOnlyWarnings (pkg/api/pod/warnings_test.go)
#[test]
fn test_template_only_warnings() {
    let g = FeatureGates::default();
    for (name, json, expected) in [
        (
            "annotations",
            r#"{"metadata":{"annotations":{"container.apparmor.security.beta.kubernetes.io/foo":"unconfined"}},"spec":{"containers":[{"name":"foo"}]}}"#,
            vec![
                r#"template.metadata.annotations[container.apparmor.security.beta.kubernetes.io/foo]: deprecated since v1.30; use the "appArmorProfile" field instead"#,
            ],
        ),
        (
            "AppArmor pod field",
            r#"{"metadata":{"annotations":{"container.apparmor.security.beta.kubernetes.io/foo":"unconfined"}},"spec":{"securityContext":{"appArmorProfile":{"type":"Unconfined"}},"containers":[{"name":"foo"}]}}"#,
            vec![],
        ),
        (
            "AppArmor container field",
            r#"{"metadata":{"annotations":{"container.apparmor.security.beta.kubernetes.io/foo":"unconfined"}},"spec":{"containers":[{"name":"foo","securityContext":{"appArmorProfile":{"type":"Unconfined"}}}]}}"#,
            vec![],
        ),
    ] {
        let t = tpl(json);
        same(
            &format!("podspec_{name}"),
            &get_warnings_for_pod_template(Some("template"), &t, &g),
            &expected,
        );
        let pod = Pod {
            metadata: t.metadata.clone(),
            spec: t.spec.clone(),
            ..Pod::default()
        };
        assert!(
            get_warnings_for_pod(&pod, &g).is_empty(),
            "pod_{name}: unexpected template-only warnings on pod"
        );
    }
}

// upstream: TestCheckForOverLap (pkg/api/pod/warnings_test.go)
#[test]
fn test_check_for_overlap() {
    let ps = |p: &str, s: &str| PathAndSource {
        path: p.into(),
        source: s.into(),
    };
    type Case<'a> = (
        &'a str,
        Vec<(&'a str, &'a str)>,
        (&'a str, &'a str),
        Option<Vec<(&'a str, &'a str)>>,
    );
    let cases: Vec<Case> = vec![
        (
            "exact match",
            vec![("path/path1", "src1")],
            ("path/path1", "src2"),
            Some(vec![("path/path1", "src1")]),
        ),
        (
            "no match",
            vec![("path/path1", "src1")],
            ("path2/path1", "src2"),
            None,
        ),
        ("empty checkPaths", vec![], ("path2/path1", "src2"), None),
        (
            "empty string in checkPaths",
            vec![("", "src1")],
            ("path2/path1", "src2"),
            None,
        ),
        ("empty path", vec![("test", "src1")], ("", ""), None),
        (
            "empty strings in checkPaths and path",
            vec![("", "src1")],
            ("", ""),
            None,
        ),
        (
            "between file and dir",
            vec![("path/path1", "src1")],
            ("path", "src2"),
            Some(vec![("path/path1", "src1")]),
        ),
        (
            "between dir and file",
            vec![("path", "src1")],
            ("path/path1", "src2"),
            Some(vec![("path", "src1")]),
        ),
        (
            "multiple paths without overlap",
            vec![
                ("path1/path", "src1"),
                ("path2/path", "src2"),
                ("path3/path", "src3"),
            ],
            ("path4/path", "src4"),
            None,
        ),
        (
            "multiple paths with 1 overlap",
            vec![
                ("path1/path", "src1"),
                ("path2/path", "src2"),
                ("path3/path", "src3"),
            ],
            ("path3/path", "src4"),
            Some(vec![("path3/path", "src3")]),
        ),
        (
            "multiple paths with multiple overlap",
            vec![
                ("path/path1", "src1"),
                ("path/path2", "src2"),
                ("path/path3", "src3"),
            ],
            ("path", "src4"),
            Some(vec![
                ("path/path1", "src1"),
                ("path/path2", "src2"),
                ("path/path3", "src3"),
            ]),
        ),
        (
            "partial overlap",
            vec![
                ("path1/path", "src1"),
                ("path2/path", "src2"),
                ("path3/path", "src3"),
            ],
            ("path101/path3", "src4"),
            None,
        ),
        (
            "partial overlap in path",
            vec![
                ("dir/path1", "src1"),
                ("dir/path2", "src2"),
                ("dir/path3", "src3"),
            ],
            ("dir/path345", "src4"),
            None,
        ),
        (
            "trailing slash in path",
            vec![("path1/path3", "src1")],
            ("path1/path3/", "src2"),
            Some(vec![("path1/path3", "src1")]),
        ),
        (
            "trailing slash in checkPaths",
            vec![("path1/path3/", "src1")],
            ("path1/path3", "src2"),
            Some(vec![("path1/path3/", "src1")]),
        ),
    ];
    for (name, check, path, expected) in cases {
        let check: Vec<PathAndSource> = check.iter().map(|(p, s)| ps(p, s)).collect();
        let got = check_for_overlap(&check, &ps(path.0, path.1));
        match expected {
            None => assert!(got.is_empty(), "{name}: unexpected match {got:?}"),
            Some(e) => {
                let e: Vec<PathAndSource> = e.iter().map(|(p, s)| ps(p, s)).collect();
                assert_eq!(got, e, "{name}");
            }
        }
    }
}
