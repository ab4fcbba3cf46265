//! Ports of upstream pod-spec validation tables for fields kubeplay keeps verbatim in
//! `PodSpec::extra` (pkg/apis/core/validation/validation_test.go): dnsConfig, hostAliases,
//! readinessGates, runtimeClassName, preemptionPolicy, overhead, os and container resizePolicy.

use super::pod::{validate_pod_spec, PodValidationOptions};
use crate::api::core::{Container, PodSpec};
use crate::api::errors::FieldError;
use serde_json::{json, Value};

fn container(name: &str) -> Container {
    let mut c = Container {
        name: name.into(),
        image: "image".into(),
        ..Default::default()
    };
    c.extra
        .insert("imagePullPolicy".into(), json!("IfNotPresent"));
    c.extra
        .insert("terminationMessagePolicy".into(), json!("File"));
    c
}

fn spec(tweak: impl FnOnce(&mut PodSpec)) -> PodSpec {
    let mut s = PodSpec {
        containers: vec![container("ctr")],
        restart_policy: "Always".into(),
        termination_grace_period_seconds: Some(30),
        ..Default::default()
    };
    s.extra.insert("dnsPolicy".into(), json!("ClusterFirst"));
    tweak(&mut s);
    s
}

fn validate(s: &PodSpec) -> Vec<String> {
    validate_pod_spec(
        s,
        "spec",
        PodValidationOptions {
            resource_is_pod: true,
            ..Default::default()
        },
    )
    .iter()
    .map(FieldError::to_string)
    .collect()
}

fn with_extra(k: &'static str, v: Value) -> impl FnOnce(&mut PodSpec) {
    move |s: &mut PodSpec| {
        s.extra.insert(k.into(), v);
    }
}

/// `generateTestSearchPathFunc(n)`: a search path of `n` characters (`a`s).
fn search_path(n: usize) -> String {
    "a".repeat(n)
}

// Ported from TestValidatePodDNSConfig (pkg/apis/core/validation/validation_test.go): the
// nameserver, search-path and option rows (the DNSNone rows are in core_ports_tests.rs), with
// RelaxedDNSSearchValidation on (GA).
#[test]
fn validate_pod_dns_config_rows() {
    let dns = |config: Value| spec(with_extra("dnsConfig", config));
    let ok = [
        ("valid: empty DNSConfig", json!({})),
        ("valid: 1 option", json!({"options": [{"name": "ndots"}]})),
        ("valid: 1 nameserver", json!({"nameservers": ["127.0.0.1"]})),
        ("valid: 1 search path", json!({"searches": ["custom"]})),
        (
            "valid: 1 search path with trailing period",
            json!({"searches": ["custom."]}),
        ),
        (
            "valid: 3 nameservers and 6 search paths(legacy)",
            json!({
                "nameservers": ["127.0.0.1", "10.0.0.10", "8.8.8.8"],
                "searches": ["custom", "mydomain.com", "local", "cluster.local",
                             "svc.cluster.local", "default.svc.cluster.local."],
            }),
        ),
        (
            "valid: 3 nameservers and 32 search paths",
            json!({
                "nameservers": ["127.0.0.1", "10.0.0.10", "8.8.8.8"],
                "searches": (0..32).map(|i| format!("custom{i}")).collect::<Vec<_>>(),
            }),
        ),
        (
            "valid: 256 characters in search path list(legacy)",
            // 1 + 5 × 50 characters and 5 spaces.
            json!({"searches": [search_path(1), search_path(50), search_path(50),
                                search_path(50), search_path(50), search_path(50)]}),
        ),
        (
            "valid: 2048 characters in search path list",
            // 32 paths of 63 characters and 31 spaces: 2047.
            json!({"searches": (0..32).map(|_| search_path(63)).collect::<Vec<_>>()}),
        ),
        (
            "valid: ipv6 nameserver",
            json!({"nameservers": ["FE80::0202:B3FF:FE1E:8329"]}),
        ),
        (
            "valid: search path beginning with underscore",
            json!({"searches": ["_sip._tcp.abc_d.example.com"]}),
        ),
        (
            "valid: search path contains underscore",
            json!({"searches": ["abc_d.example.com"]}),
        ),
        ("valid: search is .", json!({"searches": ["."]})),
    ];
    for (name, config) in ok {
        assert_eq!(validate(&dns(config)), Vec::<String>::new(), "{name}");
    }

    // "invalid: 4 nameservers"
    assert_eq!(
        validate(&dns(json!({"nameservers": ["127.0.0.1", "10.0.0.10", "8.8.8.8", "1.2.3.4"]}))),
        vec![
            "spec.dnsConfig.nameservers: Invalid value: [\"127.0.0.1\",\"10.0.0.10\",\"8.8.8.8\",\"1.2.3.4\"]: must not have more than 3 nameservers"
        ]
    );
    // "invalid: 33 search paths"
    let many: Vec<String> = (0..33).map(|i| format!("custom{i}")).collect();
    let errs = validate(&dns(json!({"searches": many})));
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].starts_with("spec.dnsConfig.searches: Invalid value: [\"custom0\",")
            && errs[0].ends_with("]: must not have more than 32 search paths"),
        "{errs:?}"
    );
    // "invalid: 2049 characters in search path list": 32 × 63 + 31 spaces + 2 more characters.
    let mut long: Vec<String> = (0..31).map(|_| search_path(63)).collect();
    long.push(search_path(65));
    let errs = validate(&dns(json!({"searches": long})));
    // (A 65-character label is still a valid subdomain: IsDNS1123Subdomain has no per-label
    // limit.)
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].starts_with("spec.dnsConfig.searches: Invalid value: [\"aaa")
            && errs[0].ends_with(
                "]: must not have more than 2048 characters (including spaces) in the search list"
            ),
        "{errs:?}"
    );
    // "invalid search path"
    assert_eq!(
        validate(&dns(json!({"searches": ["custom?"]}))),
        vec![
            "spec.dnsConfig.searches[0]: Invalid value: \"custom?\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*')"
        ]
    );
    // "invalid: search path beginning with dot" (only a trailing dot is trimmed).
    let errs = validate(&dns(json!({"searches": [".abc"]})));
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].starts_with("spec.dnsConfig.searches[0]: Invalid value: \".abc\": "),
        "{errs:?}"
    );
    // The trailing dot is trimmed from the value the error reports.
    let errs = validate(&dns(json!({"searches": ["Custom."]})));
    assert!(
        errs.len() == 1
            && errs[0].starts_with("spec.dnsConfig.searches[0]: Invalid value: \"Custom\": "),
        "{errs:?}"
    );
    // "invalid nameserver"
    assert_eq!(
        validate(&dns(json!({"nameservers": ["invalid"]}))),
        vec!["spec.dnsConfig.nameservers[0]: Invalid value: \"invalid\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"]
    );
    // "invalid empty option name"
    assert_eq!(
        validate(&dns(json!({"options": [{"value": "custom"}]}))),
        vec!["spec.dnsConfig.options[0]: Required value: must not be empty"]
    );
    // DNSNone with nameservers also gets the other rules.
    let s = spec(|s| {
        s.extra.insert("dnsPolicy".into(), json!("None"));
        s.extra.insert(
            "dnsConfig".into(),
            json!({"nameservers": ["1.2.3.4"], "options": [{"name": ""}]}),
        );
    });
    assert_eq!(
        validate(&s),
        vec!["spec.dnsConfig.options[0]: Required value: must not be empty"]
    );
}

// Ported from TestValidatePodSpec (pkg/apis/core/validation/validation_test.go): the
// hostAliases, runtimeClassName and overhead rows the earlier port left out (kubeplay did not
// validate those fields).
#[test]
fn validate_pod_spec_host_aliases_runtime_class_overhead_rows() {
    // Success: "populate HostAliases", "populate HostAliases with `foo.bar` hostnames",
    // "populate HostAliases with HostNetwork", "populate RuntimeClassName",
    // "populate Overhead".
    for s in [
        spec(with_extra(
            "hostAliases",
            json!([{"ip": "12.34.56.78", "hostnames": ["host1", "host2"]}]),
        )),
        spec(with_extra(
            "hostAliases",
            json!([{"ip": "12.34.56.78", "hostnames": ["host1.foo", "host2.bar"]}]),
        )),
        spec(|s| {
            s.extra.insert(
                "hostAliases".into(),
                json!([{"ip": "12.34.56.78", "hostnames": ["host1.foo", "host2.bar"]}]),
            );
            s.extra.insert("hostNetwork".into(), json!(true));
        }),
        spec(with_extra("runtimeClassName", json!("valid-sandbox"))),
        spec(with_extra("overhead", json!({}))),
        spec(with_extra("overhead", json!({"cpu": "250m"}))),
    ] {
        assert_eq!(validate(&s), Vec::<String>::new(), "{:?}", s.extra);
    }
    // "with hostAliases with invalid IP"
    assert_eq!(
        validate(&spec(with_extra(
            "hostAliases",
            json!([{"ip": "999.999.999.999", "hostnames": ["host1", "host2"]}]),
        ))),
        vec!["spec.hostAliases[0].ip: Invalid value: \"999.999.999.999\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"]
    );
    // "with hostAliases with invalid hostname"
    assert_eq!(
        validate(&spec(with_extra(
            "hostAliases",
            json!([{"ip": "12.34.56.78", "hostnames": ["@#$^#@#$"]}]),
        ))),
        vec!["spec.hostAliases[0].hostnames[0]: Invalid value: \"@#$^#@#$\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"]
    );
    // A legacy (non-strict) IP field: leading zeros are accepted with StrictIPCIDRValidation off.
    assert!(validate(&spec(with_extra(
        "hostAliases",
        json!([{"ip": "012.034.056.078", "hostnames": ["a"]}]),
    )))
    .is_empty());
    // "bad RuntimeClassName"
    assert_eq!(
        validate(&spec(with_extra("runtimeClassName", json!("invalid/sandbox")))),
        vec!["spec.runtimeClassName: Invalid value: \"invalid/sandbox\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"]
    );
    // A set but empty runtimeClassName is validated too (the field is a pointer upstream).
    assert_eq!(
        validate(&spec(with_extra("runtimeClassName", json!("")))).len(),
        1
    );
}

// Ported from TestValidateOverhead (pkg/apis/core/validation/validation_test.go), through
// ValidatePodSpec: validateOverhead reuses ValidateContainerResourceRequirements on
// `{limits: overhead}`, so errors are reported under `overhead.limits[<name>]`.
#[test]
fn validate_overhead_rows() {
    // "Valid Overhead for CPU + Memory"
    assert!(validate(&spec(with_extra(
        "overhead",
        json!({"cpu": "10", "memory": "10G"})
    )))
    .is_empty());
    // "Invalid Overhead Resources"
    let errs = validate(&spec(with_extra("overhead", json!({"my.org": "10m"}))));
    assert!(!errs.is_empty());
    assert!(
        errs.iter()
            .all(|e| e.starts_with("spec.overhead.limits[my.org]: Invalid value: \"my.org\": ")),
        "{errs:?}"
    );
    // Negative quantities and hugepages without cpu or memory, as for a container.
    assert_eq!(
        validate(&spec(with_extra("overhead", json!({"cpu": "-1"})))),
        vec![
            "spec.overhead.limits[cpu]: Invalid value: \"-1\": must be greater than or equal to 0"
        ]
    );
    assert_eq!(
        validate(&spec(with_extra(
            "overhead",
            json!({"hugepages-2Mi": "2Mi"})
        ))),
        vec!["spec.overhead: Forbidden: HugePages require cpu or memory"]
    );
}

// Ported from TestValidateReadinessGates (pkg/apis/core/validation/validation_test.go), through
// ValidatePodSpec.
#[test]
fn validate_readiness_gates_rows() {
    for gates in [
        json!([]),
        json!([{"conditionType": "example.com/condition1"}]),
        json!([{"conditionType": "foo"}]),
        json!([{"conditionType": "foo"}, {"conditionType": "example.com/condition2"}]),
    ] {
        assert!(validate(&spec(with_extra("readinessGates", gates))).is_empty());
    }
    // "invalid condition type"
    assert_eq!(
        validate(&spec(with_extra(
            "readinessGates",
            json!([{"conditionType": "invalid/condition/type"}])
        ))),
        vec!["spec.readinessGates[0].conditionType: Invalid value: \"invalid/condition/type\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]
    );
}

// Ported from TestValidateResizePolicy (pkg/apis/core/validation/validation_test.go), through
// ValidatePodSpec (validateContainerCommon runs validateResizePolicy on every container).
#[test]
fn validate_resize_policy_rows() {
    let with_policy = |policy: Value, restart: &str| {
        let restart = restart.to_string();
        spec(move |s| {
            s.restart_policy = restart;
            s.containers[0].extra.insert("resizePolicy".into(), policy);
        })
    };
    let ok = [
        (
            json!([{"resourceName": "cpu", "restartPolicy": "NotRequired"}]),
            "Always",
        ),
        (
            json!([{"resourceName": "memory", "restartPolicy": "RestartContainer"}]),
            "Always",
        ),
        (
            json!([{"resourceName": "cpu", "restartPolicy": "NotRequired"},
                   {"resourceName": "memory", "restartPolicy": "RestartContainer"}]),
            "Always",
        ),
        (
            json!([{"resourceName": "cpu", "restartPolicy": "RestartContainer"},
                   {"resourceName": "memory", "restartPolicy": "NotRequired"}]),
            "OnFailure",
        ),
        (json!([]), "Always"),
        (
            json!([{"resourceName": "cpu", "restartPolicy": "NotRequired"},
                   {"resourceName": "memory", "restartPolicy": "NotRequired"}]),
            "Never",
        ),
    ];
    for (policy, restart) in ok {
        assert!(
            validate(&with_policy(policy.clone(), restart)).is_empty(),
            "{policy} {restart}"
        );
    }
    let p = "spec.containers[0].resizePolicy";
    let bad = [
        (
            "invalid: duplicate resource",
            json!([{"resourceName": "cpu", "restartPolicy": "NotRequired"},
                   {"resourceName": "cpu", "restartPolicy": "RestartContainer"}]),
            "Always",
            vec![format!("{p}[1]: Duplicate value: \"cpu\"")],
        ),
        (
            "invalid: invalid resource",
            json!([{"resourceName": "hugepages-2Mi", "restartPolicy": "NotRequired"}]),
            "Always",
            vec![format!(
                "{p}: Unsupported value: \"hugepages-2Mi\": supported values: \"cpu\", \"memory\""
            )],
        ),
        (
            "invalid: invalid restart policy",
            json!([{"resourceName": "memory", "restartPolicy": "Restarrrt"}]),
            "Always",
            vec![format!(
                "{p}: Unsupported value: \"Restarrrt\": supported values: \"NotRequired\", \"RestartContainer\""
            )],
        ),
        (
            "invalid: missing resource name",
            json!([{"restartPolicy": "NotRequired"}]),
            "Always",
            vec![format!("{p}: Required value")],
        ),
        (
            "invalid: missing restart policy",
            json!([{"resourceName": "memory"}]),
            "Always",
            vec![format!("{p}: Required value")],
        ),
        (
            "invalid: RestartContainer with restartPolicy Never",
            json!([{"resourceName": "cpu", "restartPolicy": "RestartContainer"},
                   {"resourceName": "memory", "restartPolicy": "RestartContainer"}]),
            "Never",
            vec![
                format!("{p}: Invalid value: \"RestartContainer\": must be 'NotRequired' when `restartPolicy` is 'Never'"),
                format!("{p}: Invalid value: \"RestartContainer\": must be 'NotRequired' when `restartPolicy` is 'Never'"),
            ],
        ),
        (
            "invalid: empty policy with restartPolicy Never",
            json!([{"resourceName": "memory"}]),
            "Never",
            vec![
                format!("{p}: Required value"),
                format!("{p}: Invalid value: \"\": must be 'NotRequired' when `restartPolicy` is 'Never'"),
            ],
        ),
    ];
    for (name, policy, restart, want) in bad {
        assert_eq!(validate(&with_policy(policy, restart)), want, "{name}");
    }
    // Init containers get the same rule (AllowSidecarResizePolicy: InPlacePodVerticalScaling
    // is on in 1.35, so the policy itself is allowed there).
    let s = spec(|s| {
        let mut c = container("init");
        c.extra.insert(
            "resizePolicy".into(),
            json!([{"resourceName": "cpu", "restartPolicy": "Bogus"}]),
        );
        s.init_containers = vec![c];
    });
    assert_eq!(
        validate(&s),
        vec!["spec.initContainers[0].resizePolicy: Unsupported value: \"Bogus\": supported values: \"NotRequired\", \"RestartContainer\""]
    );
}

// Hand-derived from ValidatePreemptionPolicy (pkg/apis/core/validation/validation.go), through
// ValidatePodSpec.
#[test]
fn validate_preemption_policy_rows() {
    for v in ["PreemptLowerPriority", "Never"] {
        assert!(validate(&spec(with_extra("preemptionPolicy", json!(v)))).is_empty());
    }
    assert_eq!(
        validate(&spec(with_extra("preemptionPolicy", json!("")))),
        vec!["spec.preemptionPolicy: Required value"]
    );
    assert_eq!(
        validate(&spec(with_extra("preemptionPolicy", json!("Sometimes")))),
        vec!["spec.preemptionPolicy: Unsupported value: \"Sometimes\": supported values: \"PreemptLowerPriority\", \"Never\""]
    );
}

// Hand-derived from validateOS, validateLinux and validateWindows
// (pkg/apis/core/validation/validation.go), through ValidatePodSpec; the OS rows of
// TestValidateWindowsPodSecurityContext / TestValidateLinuxPodSecurityContext
// (pkg/apis/core/validation/validation_test.go) on the fields' presence.
#[test]
fn validate_os_rows() {
    for os in [json!({"name": "linux"}), json!({"name": "windows"})] {
        assert!(validate(&spec(with_extra("os", os))).is_empty());
    }
    assert_eq!(
        validate(&spec(with_extra("os", json!({})))),
        vec!["spec.os.name: Required value: cannot be empty"]
    );
    assert_eq!(
        validate(&spec(with_extra("os", json!({"name": "macos"})))),
        vec!["spec.os: Unsupported value: \"macos\": supported values: \"linux\", \"windows\""]
    );
    // Linux pods may not set windowsOptions, in the pod or in a container.
    let s = spec(|s| {
        s.extra.insert("os".into(), json!({"name": "linux"}));
        s.extra.insert(
            "securityContext".into(),
            json!({"windowsOptions": {"runAsUserName": "u"}}),
        );
        s.containers[0].extra.insert(
            "securityContext".into(),
            json!({"windowsOptions": {"runAsUserName": "u"}, "runAsUser": 1}),
        );
    });
    assert_eq!(
        validate(&s),
        vec![
            "spec.securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod",
            "spec.containers[0].securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod",
        ]
    );
    // Windows pods may not set Linux-only fields; init containers are visited first.
    let s = spec(|s| {
        s.extra.insert("os".into(), json!({"name": "windows"}));
        s.extra.insert("hostPID".into(), json!(true));
        s.extra.insert("hostIPC".into(), json!(false));
        s.extra.insert("shareProcessNamespace".into(), json!(false));
        s.extra.insert(
            "securityContext".into(),
            json!({"runAsUser": 1000, "seLinuxOptions": {"role": "r"}, "sysctls": [],
                   "windowsOptions": {"hostProcess": false}}),
        );
        s.containers[0].extra.insert(
            "securityContext".into(),
            json!({"privileged": false, "capabilities": {"add": ["NET_ADMIN"]}}),
        );
        let mut init = container("init");
        init.extra.insert(
            "securityContext".into(),
            json!({"readOnlyRootFilesystem": true}),
        );
        s.init_containers = vec![init];
    });
    assert_eq!(
        validate(&s),
        vec![
            "spec.securityContext.seLinuxOptions: Forbidden: cannot be set for a windows pod",
            "spec.hostPID: Forbidden: cannot be set for a windows pod",
            "spec.shareProcessNamespace: Forbidden: cannot be set for a windows pod",
            "spec.securityContext.runAsUser: Forbidden: cannot be set for a windows pod",
            "spec.initContainers[0].securityContext.readOnlyRootFilesystem: Forbidden: cannot be set for a windows pod",
            "spec.containers[0].securityContext.capabilities: Forbidden: cannot be set for a windows pod",
            "spec.containers[0].securityContext.privileged: Forbidden: cannot be set for a windows pod",
        ]
    );
}

// The order of ValidatePodSpec: dnsConfig after affinity and before readinessGates and
// schedulingGates; hostAliases after tolerations; priorityClassName, runtimeClassName,
// preemptionPolicy, overhead and os last.
#[test]
fn pod_spec_extra_fields_are_validated_in_upstream_order() {
    let s = spec(|s| {
        s.extra.insert("os".into(), json!({"name": "plan9"}));
        s.extra.insert("preemptionPolicy".into(), json!("x"));
        s.extra.insert("runtimeClassName".into(), json!("A"));
        s.extra.insert("priorityClassName".into(), json!("B"));
        s.extra
            .insert("hostAliases".into(), json!([{"ip": "x", "hostnames": []}]));
        s.extra
            .insert("schedulingGates".into(), json!([{"name": "a/b/c"}]));
        s.extra
            .insert("readinessGates".into(), json!([{"conditionType": "a/b/c"}]));
        s.extra
            .insert("dnsConfig".into(), json!({"options": [{"name": ""}]}));
        s.node_selector = [("-bad".to_string(), "v".to_string())].into();
        s.extra.insert("overhead".into(), json!({"cpu": "-1"}));
    });
    let fields: Vec<String> = validate(&s)
        .iter()
        .map(|e| e.split(':').next().unwrap().to_string())
        .collect();
    assert_eq!(
        fields,
        [
            "spec.nodeSelector",
            "spec.dnsConfig.options[0]",
            "spec.readinessGates[0].conditionType",
            "spec.schedulingGates[0]",
            "spec.hostAliases[0].ip",
            "spec.priorityClassName",
            "spec.runtimeClassName",
            "spec.preemptionPolicy",
            "spec.overhead.limits[cpu]",
            "spec.os",
        ]
    );
}

// Ported from TestValidatePodSpec (pkg/apis/core/validation/validation_test.go): the pod
// security-context rows (validatePodSpecSecurityContext) the earlier port left out.
#[test]
fn validate_pod_spec_security_context_rows() {
    let max = i64::from(i32::MAX);
    let sc = |v: Value| spec(with_extra("securityContext", v));
    // Success: "populate FSGroupChangePolicy" (both values), valid IDs at the bounds.
    for v in [
        json!({"fsGroupChangePolicy": "Always"}),
        json!({"fsGroupChangePolicy": "OnRootMismatch"}),
        json!({"fsGroup": 0, "runAsUser": max, "runAsGroup": 0, "supplementalGroups": [0, max]}),
        json!({"supplementalGroupsPolicy": "Strict"}),
    ] {
        assert!(validate(&sc(v.clone())).is_empty(), "{v}");
    }
    let range = "must be between 0 and 2147483647, inclusive";
    let rows = [
        (
            "bad supplementalGroups large than math.MaxInt32",
            json!({"supplementalGroups": [max + 1, 1234]}),
            format!("spec.securityContext.supplementalGroups[0]: Invalid value: 2147483648: {range}"),
        ),
        (
            "bad supplementalGroups less than 0",
            json!({"supplementalGroups": [-1, 1234]}),
            format!("spec.securityContext.supplementalGroups[0]: Invalid value: -1: {range}"),
        ),
        (
            "bad runAsUser large than math.MaxInt32",
            json!({"runAsUser": max + 1}),
            format!("spec.securityContext.runAsUser: Invalid value: 2147483648: {range}"),
        ),
        (
            "bad runAsUser less than 0",
            json!({"runAsUser": -1}),
            format!("spec.securityContext.runAsUser: Invalid value: -1: {range}"),
        ),
        (
            "bad fsGroup large than math.MaxInt32",
            json!({"fsGroup": max + 1}),
            format!("spec.securityContext.fsGroup: Invalid value: 2147483648: {range}"),
        ),
        (
            "bad fsGroup less than 0",
            json!({"fsGroup": -1}),
            format!("spec.securityContext.fsGroup: Invalid value: -1: {range}"),
        ),
        (
            "bad runAsGroup less than 0",
            json!({"runAsGroup": -1}),
            format!("spec.securityContext.runAsGroup: Invalid value: -1: {range}"),
        ),
        (
            "bad empty fsGroupchangepolicy",
            json!({"fsGroupChangePolicy": ""}),
            "spec.securityContext.fsGroupChangePolicy: Unsupported value: \"\": supported values: \"Always\", \"OnRootMismatch\"".to_string(),
        ),
        (
            "bad invalid fsgroupchangepolicy",
            json!({"fsGroupChangePolicy": "invalid"}),
            "spec.securityContext.fsGroupChangePolicy: Unsupported value: \"invalid\": supported values: \"Always\", \"OnRootMismatch\"".to_string(),
        ),
        (
            "bad supplementalGroupsPolicy",
            json!({"supplementalGroupsPolicy": "Bogus"}),
            "spec.securityContext.supplementalGroupsPolicy: Unsupported value: \"Bogus\": supported values: \"Merge\", \"Strict\"".to_string(),
        ),
    ];
    for (name, v, want) in rows {
        assert_eq!(validate(&sc(v)), vec![want], "{name}");
    }
    // "ShareProcessNamespace and HostPID both set" (reported under securityContext, where the
    // internal type keeps both).
    let s = spec(|s| {
        s.extra.insert("hostPID".into(), json!(true));
        s.extra.insert("shareProcessNamespace".into(), json!(true));
    });
    assert_eq!(
        validate(&s),
        vec!["spec.securityContext.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled"]
    );
    for (pid, share) in [(true, false), (false, true)] {
        let s = spec(|s| {
            s.extra.insert("hostPID".into(), json!(pid));
            s.extra.insert("shareProcessNamespace".into(), json!(share));
        });
        assert!(validate(&s).is_empty());
    }
}

// Ported from TestValidateSecurityContext (pkg/apis/core/validation/validation_test.go),
// through ValidatePodSpec (validateContainerCommon runs ValidateSecurityContext last). The
// "request privileged when capabilities forbids" row is not ported: kubeplay's API server
// allows privileged containers, as a kubeadm cluster's does.
#[test]
fn validate_container_security_context_rows() {
    let full_valid = || {
        json!({
            "privileged": false,
            "capabilities": {"add": ["foo"], "drop": ["bar"]},
            "seLinuxOptions": {"user": "user", "role": "role", "type": "type", "level": "level"},
            "runAsUser": 1,
        })
    };
    let with_sc = |sc: Value, host_users: bool| {
        spec(move |s| {
            if !host_users {
                s.extra.insert("hostUsers".into(), json!(false));
            }
            s.containers[0].extra.insert("securityContext".into(), sc);
        })
    };
    let mut no_caps = full_valid();
    no_caps.as_object_mut().unwrap().remove("capabilities");
    let mut no_run_as_user = full_valid();
    no_run_as_user.as_object_mut().unwrap().remove("runAsUser");
    let mut unmasked = full_valid();
    unmasked["procMount"] = json!("Unmasked");
    for (name, sc, host_users) in [
        ("all settings", full_valid(), false),
        ("no capabilities", no_caps, false),
        ("no run as user", no_run_as_user, false),
        (
            "unmasked proc mount with user namespace",
            unmasked.clone(),
            false,
        ),
    ] {
        assert!(validate(&with_sc(sc, host_users)).is_empty(), "{name}");
    }
    let p = "spec.containers[0].securityContext";
    // "negative RunAsUser"
    let mut negative = full_valid();
    negative["runAsUser"] = json!(-1);
    assert_eq!(
        validate(&with_sc(negative, false)),
        vec![format!(
            "{p}.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive"
        )]
    );
    // "with CAP_SYS_ADMIN and allowPrivilegeEscalation false"
    let mut cap_sys_admin = full_valid();
    cap_sys_admin["capabilities"]["add"] = json!(["CAP_SYS_ADMIN"]);
    cap_sys_admin["allowPrivilegeEscalation"] = json!(false);
    let errs = validate(&with_sc(cap_sys_admin, false));
    assert!(
        errs.len() == 1
            && errs[0].starts_with(&format!("{p}: Invalid value: {{"))
            && errs[0].ends_with(
                ": cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN"
            ),
        "{errs:?}"
    );
    // "with privileged and allowPrivilegeEscalation false"
    let mut priv_without_escalation = full_valid();
    priv_without_escalation["privileged"] = json!(true);
    priv_without_escalation["allowPrivilegeEscalation"] = json!(false);
    let errs = validate(&with_sc(priv_without_escalation, false));
    assert!(
        errs.len() == 1
            && errs[0].starts_with(&format!("{p}: Invalid value: {{"))
            && errs[0].ends_with(
                ": cannot set `allowPrivilegeEscalation` to false and `privileged` to true"
            ),
        "{errs:?}"
    );
    // "with unmasked proc mount type and no user namespace"
    assert_eq!(
        validate(&with_sc(unmasked, true)),
        vec![format!(
            "{p}.procMount: Invalid value: \"Unmasked\": `hostUsers` must be false to use `Unmasked`"
        )]
    );
    // ValidateProcMountType
    assert_eq!(
        validate(&with_sc(json!({"procMount": "Masked"}), true)),
        vec![format!(
            "{p}.procMount: Unsupported value: \"Masked\": supported values: \"Default\", \"Unmasked\""
        )]
    );
    // Init containers are checked too, and runAsGroup.
    let s = spec(|s| {
        let mut c = container("init");
        c.extra
            .insert("securityContext".into(), json!({"runAsGroup": -2}));
        s.init_containers = vec![c];
    });
    assert_eq!(
        validate(&s),
        vec!["spec.initContainers[0].securityContext.runAsGroup: Invalid value: -2: must be between 0 and 2147483647, inclusive"]
    );
}

// Hand-derived from validatePodResources / validatePodResourceRequirements /
// validatePodResourceName (pkg/apis/core/validation/validation.go): only cpu, memory and
// hugepages-* may be set at pod level, and the hugepages rules apply as for a container.
#[test]
fn validate_pod_level_resource_rows() {
    use crate::api::core::{Quantity, ResourceRequirements};
    let with = |requests: &[(&str, &str)], limits: &[(&str, &str)]| {
        let r = ResourceRequirements {
            requests: requests
                .iter()
                .map(|(k, v)| (k.to_string(), Quantity(v.to_string())))
                .collect(),
            limits: limits
                .iter()
                .map(|(k, v)| (k.to_string(), Quantity(v.to_string())))
                .collect(),
        };
        spec(move |s| s.resources = Some(r))
    };
    for s in [
        with(
            &[("cpu", "1"), ("memory", "1Gi")],
            &[("cpu", "2"), ("memory", "2Gi")],
        ),
        with(&[], &[("cpu", "1")]),
        with(&[("memory", "1Gi")], &[("hugepages-2Mi", "2Mi")]),
    ] {
        assert_eq!(validate(&s), Vec::<String>::new());
    }
    // Unsupported at pod level (but valid for a container).
    assert_eq!(
        validate(&with(&[("ephemeral-storage", "1Gi")], &[])),
        vec!["spec.resources.requests[ephemeral-storage]: Unsupported value: \"ephemeral-storage\": supported values: \"cpu\", \"hugepages-\", \"memory\""]
    );
    assert_eq!(
        validate(&with(&[], &[("example.com/gpu", "1")])),
        vec!["spec.resources.limits[example.com/gpu]: Unsupported value: \"example.com/gpu\": supported values: \"cpu\", \"hugepages-\", \"memory\""]
    );
    // validateResourceName's own messages come first and alone.
    assert_eq!(
        validate(&with(&[("disk", "1")], &[])),
        vec!["spec.resources.requests[disk]: Invalid value: \"disk\": must be a standard resource type or fully qualified"]
    );
    // Requests above limits, as for containers.
    assert_eq!(
        validate(&with(&[("cpu", "2")], &[("cpu", "1")])),
        vec!["spec.resources.requests: Invalid value: \"2\": must be less than or equal to cpu limit of 1"]
    );
    // Hugepages need cpu or memory, and whole pages.
    assert_eq!(
        validate(&with(&[], &[("hugepages-2Mi", "2Mi")])),
        vec!["spec.resources: Forbidden: HugePages require cpu or memory"]
    );
    assert_eq!(
        validate(&with(&[("cpu", "1")], &[("hugepages-2Mi", "3Mi")])),
        vec!["spec.resources.limits[hugepages-2Mi]: Invalid value: \"3Mi\": 3Mi is not positive integer multiple of hugepages-2Mi"]
    );
}

// Ported from TestValidateEphemeralContainers (pkg/apis/core/validation/validation_test.go),
// through ValidatePodSpec (a pod with regular container `ctr`, init container `ictr` and an
// emptyDir volume `vol`).
#[test]
fn validate_ephemeral_containers_rows() {
    let ec = |name: &str, extra: Value| {
        let mut v = json!({"name": name, "image": "image", "imagePullPolicy": "IfNotPresent",
                           "terminationMessagePolicy": "File"});
        if let (Some(m), Value::Object(e)) = (v.as_object_mut(), extra) {
            m.extend(e);
        }
        v
    };
    let with = |ecs: Value| {
        spec(move |s| {
            s.init_containers = vec![container("ictr")];
            s.extra
                .insert("volumes".into(), json!([{"name": "vol", "emptyDir": {}}]));
            s.extra.insert("ephemeralContainers".into(), ecs);
        })
    };
    let ok = [
        ("Empty Ephemeral Containers", json!([])),
        ("Single Container", json!([ec("debug", json!({}))])),
        (
            "Multiple Containers",
            json!([ec("debug1", json!({})), ec("debug2", json!({}))]),
        ),
        (
            "Single Container with Target",
            json!([ec("debug", json!({"targetContainerName": "ctr"}))]),
        ),
        (
            "All allowed fields",
            json!([ec(
                "debug",
                json!({
                    "command": ["bash"], "args": ["bash"], "workingDir": "/",
                    "envFrom": [{"configMapRef": {"name": "dummy-config-map"}}],
                    "env": [{"name": "TEST", "value": "TRUE"}],
                    "volumeMounts": [{"name": "vol", "mountPath": "/vol"}],
                    "terminationMessagePath": "/dev/termination-log",
                    "securityContext": {},
                    "stdin": true, "stdinOnce": true, "tty": true,
                })
            )]),
        ),
    ];
    for (name, ecs) in ok {
        assert_eq!(validate(&with(ecs)), Vec::<String>::new(), "{name}");
    }
    let p = "spec.ephemeralContainers";
    let forbidden =
        |f: &str| format!("{p}[0].{f}: Forbidden: cannot be set for an Ephemeral Container");
    let rows: Vec<(&str, Value, Vec<String>)> = vec![
        (
            "Name Collision with Container.Containers",
            json!([ec("ctr", json!({})), ec("debug1", json!({}))]),
            vec![format!("{p}[0].name: Duplicate value: \"ctr\"")],
        ),
        (
            "Name Collision with Container.InitContainers",
            json!([ec("ictr", json!({})), ec("debug1", json!({}))]),
            vec![format!("{p}[0].name: Duplicate value: \"ictr\"")],
        ),
        (
            "Name Collision with EphemeralContainers",
            json!([ec("debug1", json!({})), ec("debug1", json!({}))]),
            vec![format!("{p}[1].name: Duplicate value: \"debug1\"")],
        ),
        (
            "empty Container Name",
            json!([ec("", json!({}))]),
            vec![format!("{p}[0].name: Required value")],
        ),
        (
            "whitespace padded image name",
            json!([ec("debug", json!({"image": " image "}))]),
            vec![format!("{p}[0].image: Invalid value: \" image \": must not have leading or trailing whitespace")],
        ),
        (
            "invalid image pull policy",
            json!([ec("debug", json!({"imagePullPolicy": "PullThreeTimes"}))]),
            vec![format!("{p}[0].imagePullPolicy: Unsupported value: \"PullThreeTimes\": supported values: \"Always\", \"IfNotPresent\", \"Never\"")],
        ),
        (
            "TargetContainerName doesn't exist",
            json!([ec("debug", json!({"targetContainerName": "bogus"}))]),
            vec![format!("{p}[0].targetContainerName: Not found: \"bogus\"")],
        ),
        (
            "Targets an ephemeral container",
            json!([ec("debug", json!({})), ec("debugception", json!({"targetContainerName": "debug"}))]),
            vec![format!("{p}[1].targetContainerName: Not found: \"debug\"")],
        ),
        (
            "Container uses disallowed field: Lifecycle",
            json!([ec("debug", json!({"lifecycle": {"preStop": {"exec": {"command": ["ls", "-l"]}}}}))]),
            vec![forbidden("lifecycle")],
        ),
        (
            "Container uses disallowed field: LivenessProbe",
            json!([ec("debug", json!({"livenessProbe": {"tcpSocket": {"port": 80}, "successThreshold": 1}}))]),
            vec![forbidden("livenessProbe")],
        ),
        (
            "Container uses disallowed field: Ports",
            json!([ec("debug", json!({"ports": [{"protocol": "TCP", "containerPort": 80}]}))]),
            vec![forbidden("ports")],
        ),
        (
            "Container uses disallowed field: ReadinessProbe",
            json!([ec("debug", json!({"readinessProbe": {"tcpSocket": {"port": 80}}}))]),
            vec![forbidden("readinessProbe")],
        ),
        (
            "Container uses disallowed field: StartupProbe",
            json!([ec("debug", json!({"startupProbe": {"tcpSocket": {"port": 80}, "successThreshold": 1}}))]),
            vec![forbidden("startupProbe")],
        ),
        (
            "Container uses disallowed field: Resources",
            json!([ec("debug", json!({"resources": {"limits": {"cpu": "10"}}}))]),
            vec![forbidden("resources")],
        ),
        (
            "Container uses disallowed field: VolumeMount.SubPath",
            json!([ec("debug", json!({"volumeMounts": [
                {"name": "vol", "mountPath": "/vol"},
                {"name": "vol", "mountPath": "/volsub", "subPath": "foo"}]}))]),
            vec![forbidden("volumeMounts[1].subPath")],
        ),
        (
            "Container uses disallowed field: VolumeMount.SubPathExpr",
            json!([ec("debug", json!({"volumeMounts": [
                {"name": "vol", "mountPath": "/vol"},
                {"name": "vol", "mountPath": "/volsub", "subPathExpr": "$(POD_NAME)"}]}))]),
            vec![forbidden("volumeMounts[1].subPathExpr")],
        ),
        (
            "Disallowed field with other errors should only return a single Forbidden",
            json!([ec("debug", json!({"lifecycle": {"preStop": {"exec": {"command": []}}}}))]),
            vec![forbidden("lifecycle")],
        ),
        (
            "Container uses disallowed field: ResizePolicy",
            json!([ec("debug", json!({"resizePolicy": [{"resourceName": "cpu", "restartPolicy": "NotRequired"}]}))]),
            vec![forbidden("resizePolicy")],
        ),
        (
            "Forbidden RestartPolicy: Always",
            json!([ec("debug", json!({"restartPolicy": "Always"}))]),
            vec![forbidden("restartPolicy")],
        ),
    ];
    for (name, ecs, want) in rows {
        assert_eq!(validate(&with(ecs)), want, "{name}");
    }
}

// Hand-derived from validateSeccompProfileField (pkg/apis/core/validation/validation.go),
// through ValidatePodSpec, for the pod's and a container's security context.
#[test]
fn validate_seccomp_profile_field_rows() {
    let pod_sc = |sp: Value| spec(with_extra("securityContext", json!({"seccompProfile": sp})));
    for sp in [
        json!({"type": "RuntimeDefault"}),
        json!({"type": "Unconfined"}),
        json!({"type": "Localhost", "localhostProfile": "profiles/audit.json"}),
    ] {
        assert!(validate(&pod_sc(sp.clone())).is_empty(), "{sp}");
    }
    let p = "spec.securityContext.seccompProfile";
    let rows = [
        (
            json!({}),
            vec![format!("{p}.type: Required value: type is required when seccompProfile is set")],
        ),
        (
            json!({"type": "Bogus"}),
            vec![format!("{p}.type: Unsupported value: \"Bogus\": supported values: \"Localhost\", \"RuntimeDefault\", \"Unconfined\"")],
        ),
        (
            json!({"type": "Localhost"}),
            vec![format!("{p}.localhostProfile: Required value: must be set when seccomp type is Localhost")],
        ),
        (
            json!({"type": "Localhost", "localhostProfile": "/abs/../x"}),
            vec![
                format!("{p}.localhostProfile: Invalid value: \"/abs/../x\": must be a relative path"),
                format!("{p}.localhostProfile: Invalid value: \"/abs/../x\": must not contain '..'"),
            ],
        ),
    ];
    for (sp, want) in rows {
        assert_eq!(validate(&pod_sc(sp.clone())), want, "{sp}");
    }
    let errs = validate(&pod_sc(
        json!({"type": "RuntimeDefault", "localhostProfile": "x"}),
    ));
    assert!(
        errs.len() == 1
            && errs[0].starts_with(&format!("{p}.localhostProfile: Invalid value: {{"))
            && errs[0].ends_with(": can only be set when seccomp type is Localhost"),
        "{errs:?}"
    );
    // A container's profile, after its runAsUser.
    let s = spec(|s| {
        s.containers[0].extra.insert(
            "securityContext".into(),
            json!({"runAsUser": -1, "seccompProfile": {"type": ""}}),
        );
    });
    assert_eq!(
        validate(&s),
        vec![
            "spec.containers[0].securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive",
            "spec.containers[0].securityContext.seccompProfile.type: Required value: type is required when seccompProfile is set",
        ]
    );
}

// Ported from TestValidateSysctls (pkg/apis/core/validation/validation_test.go), through
// ValidatePodSpec (validatePodSpecSecurityContext runs validateSysctls).
#[test]
fn validate_sysctls_rows() {
    use super::pod_spec_more::is_valid_sysctl_name;
    let valid = [
        "kernel.msgmax",
        "kernel.shm_rmid_forced",
        "net.ipv4.conf.enp3s0/200.forwarding",
        "net/ipv4/conf/enp3s0.200/forwarding",
        "a.b.c.d",
        "1.2.3",
    ];
    for n in valid {
        assert!(is_valid_sysctl_name(n), "{n}");
    }
    let invalid = [
        "foo..bar", "foo-", "_foo", "-foo", ".foo", "foo.", "Foo", "foo bar",
    ];
    for n in invalid {
        assert!(!is_valid_sysctl_name(n), "{n}");
    }
    assert!(is_valid_sysctl_name(&"a".repeat(253)));
    assert!(!is_valid_sysctl_name(&"a".repeat(254)));

    let with = |sysctls: Value, host_network: bool, host_ipc: bool| {
        spec(move |s| {
            s.extra
                .insert("securityContext".into(), json!({"sysctls": sysctls}));
            if host_network {
                s.extra.insert("hostNetwork".into(), json!(true));
            }
            if host_ipc {
                s.extra.insert("hostIPC".into(), json!(true));
            }
        })
    };
    let p = "spec.securityContext.sysctls";
    assert!(validate(&with(
        json!([{"name": "kernel.msgmax", "value": "1"}, {"name": "net.ipv4.ip_local_port_range", "value": "1 2"}]),
        false,
        false
    ))
    .is_empty());
    assert_eq!(
        validate(&with(
            json!([{"name": "", "value": "1"}, {"name": "foo-", "value": "1"},
                   {"name": "kernel.msgmax", "value": "1"}, {"name": "kernel.msgmax", "value": "2"}]),
            false,
            false
        )),
        vec![
            format!("{p}[0].name: Required value"),
            format!("{p}[1].name: Invalid value: \"foo-\": must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$"),
            format!("{p}[3].name: Duplicate value: \"kernel.msgmax\""),
        ]
    );
    // ValidateHostSysctl: namespaced sysctls of namespaces shared with the host.
    assert_eq!(
        validate(&with(
            json!([{"name": "net.ipv4.ip_local_port_range", "value": "1 2"},
                   {"name": "kernel.shmmax", "value": "1"}]),
            true,
            true
        )),
        vec![
            format!("{p}[0].name: Invalid value: \"net.ipv4.ip_local_port_range\": may not be specified when 'hostNetwork' is true"),
            format!("{p}[1].name: Invalid value: \"kernel.shmmax\": may not be specified when 'hostIPC' is true"),
        ]
    );
    // Slash-separated names are normalized first; non-namespaced ones are fine with host
    // namespaces.
    assert_eq!(
        validate(&with(
            json!([{"name": "net/ipv4/conf/eth0.1/forwarding", "value": "1"},
                   {"name": "vm.swappiness", "value": "1"}]),
            true,
            true
        )),
        vec![format!("{p}[0].name: Invalid value: \"net/ipv4/conf/eth0.1/forwarding\": may not be specified when 'hostNetwork' is true")]
    );
}

// Hand-derived from ValidateAppArmorProfileField (pkg/apis/core/validation/validation.go),
// through ValidatePodSpec, for the pod's and a container's security context.
#[test]
fn validate_app_armor_profile_field_rows() {
    let pod_sc = |p: Value| spec(with_extra("securityContext", json!({"appArmorProfile": p})));
    for p in [
        json!({"type": "RuntimeDefault"}),
        json!({"type": "Unconfined"}),
        json!({"type": "Localhost", "localhostProfile": "foo-bar"}),
    ] {
        assert!(validate(&pod_sc(p.clone())).is_empty(), "{p}");
    }
    let p = "spec.securityContext.appArmorProfile";
    let rows = [
        (
            json!({"type": "Localhost"}),
            vec![format!("{p}.localhostProfile: Required value: must be set when AppArmor type is Localhost")],
        ),
        (
            json!({"type": "Localhost", "localhostProfile": ""}),
            vec![format!("{p}.localhostProfile: Required value: must be set when AppArmor type is Localhost")],
        ),
        (
            json!({"type": "Localhost", "localhostProfile": " foo "}),
            vec![format!("{p}.localhostProfile: Invalid value: \" foo \": must not be padded with whitespace")],
        ),
        (
            json!({"type": "Localhost", "localhostProfile": "a".repeat(4096)}),
            vec![format!("{p}.localhostProfile: Too long: may not be more than 4095 bytes")],
        ),
        (
            json!({"type": "RuntimeDefault", "localhostProfile": "foo"}),
            vec![format!("{p}.localhostProfile: Invalid value: \"foo\": can only be set when AppArmor type is Localhost")],
        ),
        (
            json!({}),
            vec![format!("{p}.type: Required value: type is required when appArmorProfile is set")],
        ),
        (
            json!({"type": "Bogus"}),
            vec![format!("{p}.type: Unsupported value: \"Bogus\": supported values: \"Localhost\", \"RuntimeDefault\", \"Unconfined\"")],
        ),
    ];
    for (profile, want) in rows {
        assert_eq!(validate(&pod_sc(profile.clone())), want, "{profile}");
    }
    let s = spec(|s| {
        s.containers[0].extra.insert(
            "securityContext".into(),
            json!({"appArmorProfile": {"type": "Unconfined", "localhostProfile": "x"}}),
        );
    });
    assert_eq!(
        validate(&s),
        vec!["spec.containers[0].securityContext.appArmorProfile.localhostProfile: Invalid value: \"x\": can only be set when AppArmor type is Localhost"]
    );
}

// Hand-derived from validateSeccompAnnotationsAndFields and
// validateAppArmorAnnotationsAndFieldsMatchOnCreate (pkg/apis/core/validation/validation.go),
// through ValidatePodCreate.
#[test]
fn validate_pod_create_security_annotations_match_fields() {
    use crate::api::core::Pod;
    use crate::api::ObjectMeta;
    let pod = |annotations: &[(&str, &str)], tweak: &dyn Fn(&mut PodSpec)| {
        let mut s = spec(|_| {});
        tweak(&mut s);
        let mut p = Pod {
            metadata: ObjectMeta {
                name: "p".into(),
                namespace: "default".into(),
                ..Default::default()
            },
            ..Default::default()
        };
        for (k, v) in annotations {
            p.metadata.annotations.insert(k.to_string(), v.to_string());
        }
        *std::sync::Arc::make_mut(&mut p.spec) = s;
        super::pod::validate_pod_create(&p)
            .iter()
            .map(FieldError::to_string)
            .collect::<Vec<_>>()
    };
    let pod_seccomp = |sp: Value| {
        move |s: &mut PodSpec| {
            s.extra.insert(
                "securityContext".into(),
                json!({"seccompProfile": sp.clone()}),
            );
        }
    };
    const POD_SECCOMP: &str = "seccomp.security.alpha.kubernetes.io/pod";
    // Matching pairs.
    assert!(pod(
        &[(POD_SECCOMP, "runtime/default")],
        &pod_seccomp(json!({"type": "RuntimeDefault"}))
    )
    .is_empty());
    assert!(pod(
        &[(POD_SECCOMP, "docker/default")],
        &pod_seccomp(json!({"type": "RuntimeDefault"}))
    )
    .is_empty());
    assert!(pod(
        &[(POD_SECCOMP, "localhost/a.json")],
        &pod_seccomp(json!({"type": "Localhost", "localhostProfile": "a.json"}))
    )
    .is_empty());
    // Mismatches.
    assert_eq!(
        pod(&[(POD_SECCOMP, "unconfined")], &pod_seccomp(json!({"type": "RuntimeDefault"}))),
        ["spec.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match"]
    );
    assert_eq!(
        pod(
            &[(POD_SECCOMP, "localhost/b.json")],
            &pod_seccomp(json!({"type": "Localhost", "localhostProfile": "a.json"}))
        ),
        ["spec.securityContext.seccompProfile.localhostProfile: Forbidden: seccomp profile in annotation and field must match"]
    );
    // A container's seccomp field against its annotation.
    assert_eq!(
        pod(
            &[("container.seccomp.security.alpha.kubernetes.io/ctr", "runtime/default")],
            &|s: &mut PodSpec| {
                s.containers[0].extra.insert(
                    "securityContext".into(),
                    json!({"seccompProfile": {"type": "Unconfined"}}),
                );
            }
        ),
        ["spec.containers[0].securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match"]
    );
    // AppArmor: the pod's profile applies to containers without their own.
    const CTR_APPARMOR: &str = "container.apparmor.security.beta.kubernetes.io/ctr";
    let pod_apparmor = |s: &mut PodSpec| {
        s.extra.insert(
            "securityContext".into(),
            json!({"appArmorProfile": {"type": "RuntimeDefault"}}),
        );
    };
    assert!(pod(&[(CTR_APPARMOR, "runtime/default")], &pod_apparmor).is_empty());
    assert_eq!(
        pod(&[(CTR_APPARMOR, "unconfined")], &pod_apparmor),
        ["spec.containers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match"]
    );
    // Not for Windows pods (the AppArmor fields are then forbidden by validateWindows).
    let errs = pod(&[(CTR_APPARMOR, "unconfined")], &|s: &mut PodSpec| {
        pod_apparmor(s);
        s.extra.insert("os".into(), json!({"name": "windows"}));
    });
    assert_eq!(
        errs,
        ["spec.securityContext.appArmorProfile: Forbidden: cannot be set for a windows pod"]
    );
}

// Ported from TestValidateHostUsers (pkg/apis/core/validation/validation_test.go), through
// ValidatePodSpec: with `hostUsers: false` the host's namespaces may not be shared.
#[test]
fn validate_host_users_rows() {
    let with = |host_users: Option<bool>, ns: &[&str]| {
        let ns: Vec<String> = ns.iter().map(|s| s.to_string()).collect();
        spec(move |s| {
            if let Some(h) = host_users {
                s.extra.insert("hostUsers".into(), json!(h));
            }
            for n in ns {
                s.extra.insert(n, json!(true));
            }
        })
    };
    // "nil host users", "host users true" with host namespaces, "host users false" without.
    assert!(validate(&with(None, &["hostNetwork", "hostPID", "hostIPC"])).is_empty());
    assert!(validate(&with(Some(true), &["hostNetwork", "hostPID", "hostIPC"])).is_empty());
    assert!(validate(&with(Some(false), &[])).is_empty());
    let msg = "Forbidden: when `pod.Spec.HostUsers` is false";
    // "hostUsers=false and hostNetwork", "... hostPID", "... hostIPC"
    assert_eq!(
        validate(&with(Some(false), &["hostNetwork"])),
        vec![format!("spec.hostNetwork: {msg}")]
    );
    assert_eq!(
        validate(&with(Some(false), &["hostPID"])),
        vec![format!("spec.HostPID: {msg}")]
    );
    assert_eq!(
        validate(&with(Some(false), &["hostIPC"])),
        vec![format!("spec.HostIPC: {msg}")]
    );
}
