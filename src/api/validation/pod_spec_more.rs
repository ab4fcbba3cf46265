//! The `ValidatePodSpec` rules for pod-spec fields kubeplay keeps verbatim in `PodSpec::extra`
//! (pkg/apis/core/validation/validation.go): `validatePodDNSConfig` (beyond the DNSNone rule),
//! `validateReadinessGates`, `ValidateHostAliases`, `ValidateRuntimeClassName`,
//! `ValidatePreemptionPolicy`, `validateOverhead`, `validateOS` with `validateLinux` /
//! `validateWindows`, and a container's `validateResizePolicy`. Each is called from
//! [`super::pod`] at the place `ValidatePodSpec` / `validateContainerCommon` calls it, so errors
//! come out in upstream's order.

use super::ip::is_valid_ip_for_legacy_field;
use super::names::{is_dns1123_subdomain, is_qualified_name, name_is_dns_subdomain};
use super::names_more::is_dns1123_subdomain_with_underscore;
use super::{child, idx};
use crate::api::core::{Container, PodSpec, Quantity, ResourceRequirements};
use crate::api::errors::FieldError;
use crate::sort::CollectBTreeMap as _;
use serde_json::{Map, Value};

/// `MaxDNSNameservers`.
pub const MAX_DNS_NAMESERVERS: usize = 3;
/// `MaxDNSSearchPaths`.
pub const MAX_DNS_SEARCH_PATHS: usize = 32;
/// `MaxDNSSearchListChars`.
pub const MAX_DNS_SEARCH_LIST_CHARS: usize = 2048;

fn present<'a>(m: &'a Map<String, Value>, k: &str) -> Option<&'a Value> {
    m.get(k).filter(|v| !v.is_null())
}

fn str_list(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|s| match s {
                    Value::String(s) => s.clone(),
                    Value::Null => String::new(),
                    other => other.to_string(),
                })
                .collect()
        })
        .unwrap_or_default()
}

fn as_str(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

/// `validatePodDNSConfig` with `AllowRelaxedDNSSearchValidation` (the `RelaxedDNSSearchValidation`
/// gate is GA in 1.35): the DNSNone rule, then the nameserver count and format
/// (`IsValidIPForLegacyField`, `StrictIPCIDRValidation` off as in 1.35), the search-path count,
/// length and format, and non-empty option names.
pub fn validate_pod_dns_config(errs: &mut Vec<FieldError>, spec: &PodSpec, path: &str) {
    let dns_policy = spec.extra.get("dnsPolicy").and_then(Value::as_str);
    let config = present(&spec.extra, "dnsConfig");
    if dns_policy == Some("None") {
        match config {
            None => {
                errs.push(FieldError::required(
                    path,
                    "must provide `dnsConfig` when `dnsPolicy` is None",
                ));
                return;
            }
            Some(c) => {
                if c.get("nameservers")
                    .and_then(Value::as_array)
                    .is_none_or(Vec::is_empty)
                {
                    errs.push(FieldError::required(
                        child(path, "nameservers"),
                        "must provide at least one DNS nameserver when `dnsPolicy` is None",
                    ));
                    return;
                }
            }
        }
    }
    let Some(config) = config else {
        return;
    };
    let nameservers = str_list(config.get("nameservers"));
    let ns_path = child(path, "nameservers");
    if nameservers.len() > MAX_DNS_NAMESERVERS {
        errs.push(FieldError::invalid(
            ns_path.as_str(),
            nameservers.clone(),
            format!("must not have more than {MAX_DNS_NAMESERVERS} nameservers"),
        ));
    }
    for (i, ns) in nameservers.iter().enumerate() {
        errs.extend(is_valid_ip_for_legacy_field(
            &idx(&ns_path, i),
            ns,
            false,
            &[],
        ));
    }
    let searches = str_list(config.get("searches"));
    let search_path = child(path, "searches");
    if searches.len() > MAX_DNS_SEARCH_PATHS {
        errs.push(FieldError::invalid(
            search_path.as_str(),
            searches.clone(),
            format!("must not have more than {MAX_DNS_SEARCH_PATHS} search paths"),
        ));
    }
    if searches.join(" ").len() > MAX_DNS_SEARCH_LIST_CHARS {
        errs.push(FieldError::invalid(
            search_path.as_str(),
            searches.clone(),
            format!(
                "must not have more than {MAX_DNS_SEARCH_LIST_CHARS} characters (including spaces) in the search list"
            ),
        ));
    }
    for (i, search) in searches.iter().enumerate() {
        if search == "." {
            continue;
        }
        let search = search.strip_suffix('.').unwrap_or(search);
        for m in is_dns1123_subdomain_with_underscore(search) {
            errs.push(FieldError::invalid(idx(&search_path, i), search, m));
        }
    }
    if let Some(options) = config.get("options").and_then(Value::as_array) {
        for (i, o) in options.iter().enumerate() {
            if as_str(o.get("name")).is_empty() {
                errs.push(FieldError::required(
                    idx(&child(path, "options"), i),
                    "must not be empty",
                ));
            }
        }
    }
}

/// `validateReadinessGates`: each `conditionType` is a qualified name.
pub fn validate_readiness_gates(errs: &mut Vec<FieldError>, spec: &PodSpec, path: &str) {
    let Some(gates) = present(&spec.extra, "readinessGates").and_then(Value::as_array) else {
        return;
    };
    for (i, g) in gates.iter().enumerate() {
        let ct = as_str(g.get("conditionType"));
        let p = child(&idx(path, i), "conditionType");
        for m in is_qualified_name(&ct) {
            errs.push(FieldError::invalid(p.as_str(), ct.as_str(), m));
        }
    }
}

/// `ValidateHostAliases`: each `ip` is a valid IP (`IsValidIPForLegacyField`, not strict), each
/// hostname a DNS-1123 subdomain.
pub fn validate_host_aliases(errs: &mut Vec<FieldError>, spec: &PodSpec, path: &str) {
    let Some(aliases) = present(&spec.extra, "hostAliases").and_then(Value::as_array) else {
        return;
    };
    for (i, a) in aliases.iter().enumerate() {
        let p = idx(path, i);
        errs.extend(is_valid_ip_for_legacy_field(
            &child(&p, "ip"),
            &as_str(a.get("ip")),
            false,
            &[],
        ));
        for (j, h) in str_list(a.get("hostnames")).iter().enumerate() {
            let hp = idx(&child(&p, "hostnames"), j);
            for m in is_dns1123_subdomain(h) {
                errs.push(FieldError::invalid(hp.as_str(), h.as_str(), m));
            }
        }
    }
}

/// `ValidateRuntimeClassName` on `spec.runtimeClassName` (when set, even to `""`).
pub fn validate_runtime_class_name(errs: &mut Vec<FieldError>, spec: &PodSpec, path: &str) {
    let Some(v) = present(&spec.extra, "runtimeClassName") else {
        return;
    };
    let name = as_str(Some(v));
    for m in name_is_dns_subdomain(&name, false) {
        errs.push(FieldError::invalid(path, name.as_str(), m));
    }
}

/// `ValidatePreemptionPolicy` on `spec.preemptionPolicy` (when set).
pub fn validate_preemption_policy(errs: &mut Vec<FieldError>, spec: &PodSpec, path: &str) {
    let Some(v) = present(&spec.extra, "preemptionPolicy") else {
        return;
    };
    match as_str(Some(v)).as_str() {
        "PreemptLowerPriority" | "Never" => {}
        "" => errs.push(FieldError::required(path, "")),
        other => errs.push(FieldError::not_supported(
            path,
            other,
            &["PreemptLowerPriority", "Never"],
        )),
    }
}

/// `validateOverhead`: `ValidateContainerResourceRequirements` on `{limits: overhead}`, so the
/// errors are reported under `<path>.limits[<name>]`.
pub fn validate_overhead(errs: &mut Vec<FieldError>, spec: &PodSpec, path: &str) {
    let Some(overhead) = present(&spec.extra, "overhead").and_then(Value::as_object) else {
        return;
    };
    let r = ResourceRequirements {
        limits: overhead
            .iter()
            .map(|(k, v)| {
                let q = match v {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                (k.clone(), Quantity(q))
            })
            .collect_btree_map(),
        requests: Default::default(),
    };
    errs.extend(super::pod::validate_container_resource_requirements(
        &r, path,
    ));
}

/// The spec-level fields `validateWindows` forbids: the internal pod security context carries
/// `hostUsers`, `hostPID`, `hostIPC` and `shareProcessNamespace`, reported at `spec.<field>`.
const WINDOWS_FORBIDDEN_POD_SC: [&str; 11] = [
    "appArmorProfile",
    "seLinuxOptions",
    "seccompProfile",
    "fsGroup",
    "fsGroupChangePolicy",
    "sysctls",
    "runAsUser",
    "runAsGroup",
    "supplementalGroups",
    "supplementalGroupsPolicy",
    "seLinuxChangePolicy",
];

const WINDOWS_FORBIDDEN_CONTAINER_SC: [&str; 10] = [
    "appArmorProfile",
    "seLinuxOptions",
    "seccompProfile",
    "capabilities",
    "readOnlyRootFilesystem",
    "privileged",
    "allowPrivilegeEscalation",
    "procMount",
    "runAsUser",
    "runAsGroup",
];

/// `podshelper.VisitContainersWithPath` order: init containers, containers, ephemeral
/// containers, each with its `securityContext` (if set).
fn container_security_contexts(spec: &PodSpec, path: &str) -> Vec<(String, Map<String, Value>)> {
    let mut out = vec![];
    fn sc_of(c: &Container) -> Option<&Map<String, Value>> {
        present(&c.extra, "securityContext").and_then(Value::as_object)
    }
    for (list, name) in [
        (&spec.init_containers, "initContainers"),
        (&spec.containers, "containers"),
    ] {
        for (i, c) in list.iter().enumerate() {
            if let Some(sc) = sc_of(c) {
                out.push((
                    child(&idx(&child(path, name), i), "securityContext"),
                    sc.clone(),
                ));
            }
        }
    }
    if let Some(ecs) = present(&spec.extra, "ephemeralContainers").and_then(Value::as_array) {
        for (i, c) in ecs.iter().enumerate() {
            if let Some(sc) = c
                .get("securityContext")
                .filter(|v| !v.is_null())
                .and_then(Value::as_object)
            {
                out.push((
                    child(
                        &idx(&child(path, "ephemeralContainers"), i),
                        "securityContext",
                    ),
                    sc.clone(),
                ));
            }
        }
    }
    out
}

/// `validateOS` and, for a valid name, `validateLinux` / `validateWindows` (their checks on
/// security-context fields being set; the contexts' own values are not validated by kubeplay).
pub fn validate_os(errs: &mut Vec<FieldError>, spec: &PodSpec, spec_path: &str) {
    let Some(os) = present(&spec.extra, "os") else {
        return;
    };
    let path = child(spec_path, "os");
    let name = as_str(os.get("name"));
    if name.is_empty() {
        errs.push(FieldError::required(
            child(&path, "name"),
            "cannot be empty",
        ));
        return;
    }
    if name != "linux" && name != "windows" {
        errs.push(FieldError::not_supported(
            path.as_str(),
            name.as_str(),
            &["linux", "windows"],
        ));
        return;
    }
    let pod_sc = present(&spec.extra, "securityContext").and_then(Value::as_object);
    let set = |m: &Map<String, Value>, k: &str| m.get(k).is_some_and(|v| !v.is_null());
    if name == "linux" {
        if pod_sc.is_some_and(|sc| set(sc, "windowsOptions")) {
            errs.push(FieldError::forbidden(
                child(&child(spec_path, "securityContext"), "windowsOptions"),
                "windows options cannot be set for a linux pod",
            ));
        }
        for (p, sc) in container_security_contexts(spec, spec_path) {
            if set(&sc, "windowsOptions") {
                errs.push(FieldError::forbidden(
                    child(&p, "windowsOptions"),
                    "windows options cannot be set for a linux pod",
                ));
            }
        }
        return;
    }
    const MSG: &str = "cannot be set for a windows pod";
    let sc_path = child(spec_path, "securityContext");
    let empty = Map::new();
    let sc = pod_sc.unwrap_or(&empty);
    let truthy = |k: &str| spec.extra.get(k).and_then(Value::as_bool) == Some(true);
    // The order of validateWindows' checks on the (internal) pod security context.
    for f in ["appArmorProfile", "seLinuxOptions"] {
        if set(sc, f) {
            errs.push(FieldError::forbidden(child(&sc_path, f), MSG));
        }
    }
    if set(&spec.extra, "hostUsers") {
        errs.push(FieldError::forbidden(child(spec_path, "hostUsers"), MSG));
    }
    if truthy("hostPID") {
        errs.push(FieldError::forbidden(child(spec_path, "hostPID"), MSG));
    }
    if truthy("hostIPC") {
        errs.push(FieldError::forbidden(child(spec_path, "hostIPC"), MSG));
    }
    for f in ["seccompProfile", "fsGroup", "fsGroupChangePolicy"] {
        if set(sc, f) {
            errs.push(FieldError::forbidden(child(&sc_path, f), MSG));
        }
    }
    if sc
        .get("sysctls")
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty())
    {
        errs.push(FieldError::forbidden(child(&sc_path, "sysctls"), MSG));
    }
    if set(&spec.extra, "shareProcessNamespace") {
        errs.push(FieldError::forbidden(
            child(spec_path, "shareProcessNamespace"),
            MSG,
        ));
    }
    for f in &WINDOWS_FORBIDDEN_POD_SC[6..] {
        if set(sc, f) {
            errs.push(FieldError::forbidden(child(&sc_path, f), MSG));
        }
    }
    for (p, csc) in container_security_contexts(spec, spec_path) {
        for f in WINDOWS_FORBIDDEN_CONTAINER_SC {
            if set(&csc, f) {
                errs.push(FieldError::forbidden(child(&p, f), MSG));
            }
        }
    }
}

/// `validateResizePolicy` on a container's `resizePolicy`, with the pod's `restartPolicy`.
pub fn validate_resize_policy(
    errs: &mut Vec<FieldError>,
    c: &Container,
    pod_restart_policy: &str,
    path: &str,
) {
    let Some(list) = present(&c.extra, "resizePolicy").and_then(Value::as_array) else {
        return;
    };
    let mut seen = std::collections::BTreeSet::new();
    for (i, p) in list.iter().enumerate() {
        let resource = as_str(p.get("resourceName"));
        let policy = as_str(p.get("restartPolicy"));
        if !seen.insert(resource.clone()) {
            errs.push(FieldError::duplicate(idx(path, i), resource.as_str()));
        }
        match resource.as_str() {
            "cpu" | "memory" => {}
            "" => errs.push(FieldError::required(path, "")),
            other => errs.push(FieldError::not_supported(path, other, &["cpu", "memory"])),
        }
        match policy.as_str() {
            "NotRequired" | "RestartContainer" => {}
            "" => errs.push(FieldError::required(path, "")),
            other => errs.push(FieldError::not_supported(
                path,
                other,
                &["NotRequired", "RestartContainer"],
            )),
        }
        if pod_restart_policy == "Never" && policy != "NotRequired" {
            errs.push(FieldError::invalid(
                path,
                policy.as_str(),
                "must be 'NotRequired' when `restartPolicy` is 'Never'",
            ));
        }
    }
}

fn int_field(m: &Map<String, Value>, k: &str) -> Option<(i64, Value)> {
    let v = present(m, k)?;
    Some((v.as_i64().unwrap_or(-1), v.clone()))
}

/// `validatePodSpecSecurityContext`, the rules on fields kubeplay can check in the verbatim
/// `securityContext`: `fsGroup`, `runAsUser`, `runAsGroup` and `supplementalGroups` are valid
/// IDs, `shareProcessNamespace` not together with `hostPID` (reported under
/// `securityContext`, the internal type's place for both), `fsGroupChangePolicy` and
/// `supplementalGroupsPolicy` known values, sysctls (for a new pod: kubeplay does not ratchet
/// `AllowNamespacedSysctlsForHostNetAndHostIPC` on updates), the seccomp and AppArmor profiles.
/// `seLinuxChangePolicy` is `Recursive`, or any valid policy when `allow_any_se_linux_policy`
/// (`validatePodSELinuxChangePolicy`). Windows options are not validated.
pub fn validate_pod_security_context(
    errs: &mut Vec<FieldError>,
    spec: &PodSpec,
    spec_path: &str,
    allow_any_se_linux_policy: bool,
) {
    use super::names_more::{is_valid_group_id, is_valid_user_id};
    let path = child(spec_path, "securityContext");
    let empty = Map::new();
    let sc = present(&spec.extra, "securityContext")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    type IdCheck = fn(i64) -> Vec<String>;
    let ids: [(&str, IdCheck); 3] = [
        ("fsGroup", is_valid_group_id),
        ("runAsUser", is_valid_user_id),
        ("runAsGroup", is_valid_group_id),
    ];
    for (k, check) in ids {
        if let Some((n, v)) = int_field(sc, k) {
            for m in check(n) {
                errs.push(FieldError::invalid(child(&path, k), v.clone(), m));
            }
        }
    }
    if let Some(groups) = present(sc, "supplementalGroups").and_then(Value::as_array) {
        for (i, g) in groups.iter().enumerate() {
            for m in is_valid_group_id(g.as_i64().unwrap_or(-1)) {
                errs.push(FieldError::invalid(
                    idx(&child(&path, "supplementalGroups"), i),
                    g.clone(),
                    m,
                ));
            }
        }
    }
    let share = spec
        .extra
        .get("shareProcessNamespace")
        .and_then(Value::as_bool);
    let host_pid = spec.extra.get("hostPID").and_then(Value::as_bool) == Some(true);
    if share == Some(true) && host_pid {
        errs.push(FieldError::invalid(
            child(&path, "shareProcessNamespace"),
            true,
            "ShareProcessNamespace and HostPID cannot both be enabled",
        ));
    }
    if let Some(sysctls) = present(sc, "sysctls")
        .and_then(Value::as_array)
        .filter(|a| !a.is_empty())
    {
        let host_network = spec.extra.get("hostNetwork").and_then(Value::as_bool) == Some(true);
        let host_ipc = spec.extra.get("hostIPC").and_then(Value::as_bool) == Some(true);
        validate_sysctls(
            errs,
            sysctls,
            host_network,
            host_ipc,
            &child(&path, "sysctls"),
        );
    }
    if let Some(v) = present(sc, "fsGroupChangePolicy") {
        let p = as_str(Some(v));
        if p != "OnRootMismatch" && p != "Always" {
            errs.push(FieldError::not_supported(
                child(&path, "fsGroupChangePolicy"),
                p.as_str(),
                &["Always", "OnRootMismatch"],
            ));
        }
    }
    validate_seccomp_profile_field(errs, sc, &path);
    validate_app_armor_profile_field(errs, sc, &path);
    if let Some(v) = present(sc, "supplementalGroupsPolicy") {
        let p = as_str(Some(v));
        if p != "Merge" && p != "Strict" {
            errs.push(FieldError::not_supported(
                child(&path, "supplementalGroupsPolicy"),
                p.as_str(),
                &["Merge", "Strict"],
            ));
        }
    }
    if let Some(v) = present(sc, "seLinuxChangePolicy") {
        let p = as_str(Some(v));
        let allowed: &[&str] = if allow_any_se_linux_policy {
            &["MountOption", "Recursive"]
        } else {
            &["Recursive"]
        };
        if !allowed.contains(&p.as_str()) {
            errs.push(FieldError::not_supported(
                child(&path, "seLinuxChangePolicy"),
                p.as_str(),
                allowed,
            ));
        }
    }
}

/// `ValidateSecurityContext` for a container, the rules on fields kubeplay can check:
/// `runAsUser` and `runAsGroup` are valid IDs, `procMount` is `Default` or `Unmasked` (and
/// `Unmasked` needs `hostUsers: false`), `allowPrivilegeEscalation: false` not with
/// `privileged: true` or an added `CAP_SYS_ADMIN` (the value printed as JSON). Privileged
/// containers are allowed (as on a kubeadm cluster); the seccomp and AppArmor profiles are
/// validated, Windows options are not.
pub fn validate_container_security_context(
    errs: &mut Vec<FieldError>,
    c: &Container,
    host_users: bool,
    path: &str,
) {
    use super::names_more::{is_valid_group_id, is_valid_user_id};
    let Some(sc) = present(&c.extra, "securityContext").and_then(Value::as_object) else {
        return;
    };
    let path = child(path, "securityContext");
    if let Some((n, v)) = int_field(sc, "runAsUser") {
        for m in is_valid_user_id(n) {
            errs.push(FieldError::invalid(child(&path, "runAsUser"), v.clone(), m));
        }
    }
    if let Some((n, v)) = int_field(sc, "runAsGroup") {
        for m in is_valid_group_id(n) {
            errs.push(FieldError::invalid(
                child(&path, "runAsGroup"),
                v.clone(),
                m,
            ));
        }
    }
    if let Some(v) = present(sc, "procMount") {
        let pm = as_str(Some(v));
        let p = child(&path, "procMount");
        if pm != "Default" && pm != "Unmasked" {
            errs.push(FieldError::not_supported(
                p.as_str(),
                pm.as_str(),
                &["Default", "Unmasked"],
            ));
        }
        if host_users && pm == "Unmasked" {
            errs.push(FieldError::invalid(
                p,
                pm.as_str(),
                "`hostUsers` must be false to use `Unmasked`",
            ));
        }
    }
    validate_seccomp_profile_field(errs, sc, &path);
    if sc.get("allowPrivilegeEscalation").and_then(Value::as_bool) == Some(false) {
        let sc_value = Value::Object(sc.clone());
        if sc.get("privileged").and_then(Value::as_bool) == Some(true) {
            errs.push(FieldError::invalid(
                path.as_str(),
                sc_value.clone(),
                "cannot set `allowPrivilegeEscalation` to false and `privileged` to true",
            ));
        }
        let added = str_list(sc.get("capabilities").and_then(|c| c.get("add")));
        for cap in added {
            if cap == "CAP_SYS_ADMIN" || cap == "SYS_ADMIN" {
                errs.push(FieldError::invalid(
                    path.as_str(),
                    sc_value.clone(),
                    "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN",
                ));
            }
        }
    }
    validate_app_armor_profile_field(errs, sc, &path);
}

/// The pod's `hostUsers` (unset means true).
pub fn host_users(spec: &PodSpec) -> bool {
    spec.extra.get("hostUsers").and_then(Value::as_bool) != Some(false)
}

/// `validateSeccompProfileField` on `<sc_path>.seccompProfile`: a known `type`; a
/// `localhostProfile` (a relative path without `..`) exactly when the type is `Localhost`.
fn validate_seccomp_profile_field(
    errs: &mut Vec<FieldError>,
    sc: &Map<String, Value>,
    sc_path: &str,
) {
    let Some(sp) = present(sc, "seccompProfile") else {
        return;
    };
    let path = child(sc_path, "seccompProfile");
    let type_ = as_str(sp.get("type"));
    let type_path = child(&path, "type");
    match type_.as_str() {
        "Localhost" | "RuntimeDefault" | "Unconfined" => {}
        "" => errs.push(FieldError::required(
            type_path,
            "type is required when seccompProfile is set",
        )),
        other => errs.push(FieldError::not_supported(
            type_path,
            other,
            &["Localhost", "RuntimeDefault", "Unconfined"],
        )),
    }
    let profile_path = child(&path, "localhostProfile");
    let profile = sp.get("localhostProfile").filter(|v| !v.is_null());
    if type_ == "Localhost" {
        match profile {
            None => errs.push(FieldError::required(
                profile_path,
                "must be set when seccomp type is Localhost",
            )),
            Some(p) => {
                let p = as_str(Some(p));
                if p.starts_with('/') {
                    errs.push(FieldError::invalid(
                        profile_path.as_str(),
                        p.as_str(),
                        "must be a relative path",
                    ));
                }
                if p.split('/').any(|s| s == "..") {
                    errs.push(FieldError::invalid(
                        profile_path.as_str(),
                        p.as_str(),
                        "must not contain '..'",
                    ));
                }
            }
        }
    } else if profile.is_some() {
        errs.push(FieldError::invalid(
            profile_path,
            sp.clone(),
            "can only be set when seccomp type is Localhost",
        ));
    }
}

/// `SysctlMaxLength`.
const SYSCTL_MAX_LENGTH: usize = 253;
/// `sysctlContainSlashRegexp` as printed.
const SYSCTL_REGEX: &str =
    r"^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$";

/// `IsValidSysctlName`: at most 253 characters, segments of `[a-z0-9]([-_a-z0-9]*[a-z0-9])?`
/// joined by `.` or `/`.
pub fn is_valid_sysctl_name(name: &str) -> bool {
    if name.len() > SYSCTL_MAX_LENGTH {
        return false;
    }
    let seg_ok = |seg: &str| {
        let b = seg.as_bytes();
        let an = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
        !b.is_empty()
            && an(b[0])
            && an(b[b.len() - 1])
            && b.iter().all(|&c| an(c) || c == b'-' || c == b'_')
    };
    name.split(['.', '/']).all(seg_ok)
}

/// `utilsysctl.GetNamespace` (after `NormalizeName`): `"net"`, `"ipc"` or `""`.
fn sysctl_namespace(name: &str) -> &'static str {
    let normalized: String = match name.find(['.', '/']) {
        Some(i) if name.as_bytes()[i] == b'/' => name
            .chars()
            .map(|c| match c {
                '/' => '.',
                '.' => '/',
                c => c,
            })
            .collect(),
        _ => name.to_string(),
    };
    const IPC_NAMES: [&str; 1] = ["kernel.sem"];
    if IPC_NAMES.contains(&normalized.as_str())
        || ["kernel.shm", "kernel.msg", "fs.mqueue."]
            .iter()
            .any(|p| normalized.starts_with(p))
    {
        "ipc"
    } else if normalized.starts_with("net.") {
        "net"
    } else {
        ""
    }
}

/// `validateSysctls` for a new pod (`AllowNamespacedSysctlsForHostNetAndHostIPC` off): names
/// required, valid and unique; no net sysctls with `hostNetwork`, no IPC ones with `hostIPC`
/// (`ValidateHostSysctl`).
fn validate_sysctls(
    errs: &mut Vec<FieldError>,
    sysctls: &[Value],
    host_network: bool,
    host_ipc: bool,
    path: &str,
) {
    let mut names = std::collections::BTreeSet::new();
    for (i, s) in sysctls.iter().enumerate() {
        let name = as_str(s.get("name"));
        let p = child(&idx(path, i), "name");
        if name.is_empty() {
            errs.push(FieldError::required(p.as_str(), ""));
        } else if !is_valid_sysctl_name(&name) {
            errs.push(FieldError::invalid(
                p.as_str(),
                name.as_str(),
                format!(
                    "must have at most {SYSCTL_MAX_LENGTH} characters and match regex {SYSCTL_REGEX}"
                ),
            ));
        } else if names.contains(&name) {
            errs.push(FieldError::duplicate(p.as_str(), name.as_str()));
        }
        match sysctl_namespace(&name) {
            "net" if host_network => errs.push(FieldError::invalid(
                p.as_str(),
                name.as_str(),
                "may not be specified when 'hostNetwork' is true",
            )),
            "ipc" if host_ipc => errs.push(FieldError::invalid(
                p.as_str(),
                name.as_str(),
                "may not be specified when 'hostIPC' is true",
            )),
            _ => {}
        }
        names.insert(name);
    }
}

/// `ValidateAppArmorProfileField` on `<sc_path>.appArmorProfile`.
fn validate_app_armor_profile_field(
    errs: &mut Vec<FieldError>,
    sc: &Map<String, Value>,
    sc_path: &str,
) {
    let Some(profile) = present(sc, "appArmorProfile") else {
        return;
    };
    let path = child(sc_path, "appArmorProfile");
    let lp_path = child(&path, "localhostProfile");
    let localhost = profile.get("localhostProfile").filter(|v| !v.is_null());
    match as_str(profile.get("type")).as_str() {
        "Localhost" => match localhost {
            None => errs.push(FieldError::required(
                lp_path,
                "must be set when AppArmor type is Localhost",
            )),
            Some(v) => {
                let lp = as_str(Some(v));
                if lp.trim() != lp {
                    errs.push(FieldError::invalid(
                        lp_path.as_str(),
                        lp.as_str(),
                        "must not be padded with whitespace",
                    ));
                } else if lp.is_empty() {
                    errs.push(FieldError::required(
                        lp_path.as_str(),
                        "must be set when AppArmor type is Localhost",
                    ));
                }
                const MAX: usize = 4095;
                if lp.len() > MAX {
                    errs.push(FieldError::too_long(lp_path, MAX));
                }
            }
        },
        "RuntimeDefault" | "Unconfined" => {
            if let Some(v) = localhost {
                errs.push(FieldError::invalid(
                    lp_path,
                    v.clone(),
                    "can only be set when AppArmor type is Localhost",
                ));
            }
        }
        "" => errs.push(FieldError::required(
            child(&path, "type"),
            "type is required when appArmorProfile is set",
        )),
        other => errs.push(FieldError::not_supported(
            child(&path, "type"),
            other,
            &["Localhost", "RuntimeDefault", "Unconfined"],
        )),
    }
}

/// A container's path, name and security context.
type ContainerSc = (String, String, Option<Map<String, Value>>);

/// Each container's security context with its path, in `VisitContainersWithPath` order, also
/// for containers without one (`None`).
fn containers_with_names(spec: &PodSpec, spec_path: &str) -> Vec<ContainerSc> {
    let mut out = vec![];
    for (list, name) in [
        (&spec.init_containers, "initContainers"),
        (&spec.containers, "containers"),
    ] {
        for (i, c) in list.iter().enumerate() {
            out.push((
                idx(&child(spec_path, name), i),
                c.name.clone(),
                present(&c.extra, "securityContext")
                    .and_then(Value::as_object)
                    .cloned(),
            ));
        }
    }
    if let Some(ecs) = present(&spec.extra, "ephemeralContainers").and_then(Value::as_array) {
        for (i, c) in ecs.iter().enumerate() {
            out.push((
                idx(&child(spec_path, "ephemeralContainers"), i),
                as_str(c.get("name")),
                c.get("securityContext")
                    .filter(|v| !v.is_null())
                    .and_then(Value::as_object)
                    .cloned(),
            ));
        }
    }
    out
}

/// `validateSeccompAnnotationsAndFieldsMatch`.
fn seccomp_annotation_matches(annotation: &str, field: &Value, path: &str) -> Option<FieldError> {
    let type_ = as_str(field.get("type"));
    let mismatch = || {
        Some(FieldError::forbidden(
            child(path, "type"),
            "seccomp type in annotation and field must match",
        ))
    };
    match type_.as_str() {
        "Unconfined" if annotation != "unconfined" => mismatch(),
        "RuntimeDefault" if annotation != "runtime/default" && annotation != "docker/default" => {
            mismatch()
        }
        "Localhost" => match annotation.strip_prefix("localhost/") {
            None => mismatch(),
            Some(rest) => {
                let lp = field.get("localhostProfile").and_then(Value::as_str);
                (lp != Some(rest)).then(|| {
                    FieldError::forbidden(
                        child(path, "localhostProfile"),
                        "seccomp profile in annotation and field must match",
                    )
                })
            }
        },
        _ => None,
    }
}

/// `ValidatePodCreate`'s `validateSeccompAnnotationsAndFields` and
/// `validateAppArmorAnnotationsAndFieldsMatchOnCreate`: where a deprecated seccomp or AppArmor
/// annotation and the matching `securityContext` profile field are both set, they agree.
pub fn validate_security_annotations_match_on_create(
    errs: &mut Vec<FieldError>,
    annotations: &std::collections::BTreeMap<String, String>,
    spec: &PodSpec,
) {
    validate_security_annotations_match_at(errs, annotations, spec, "spec");
}

/// [`validate_security_annotations_match_on_create`] for a spec at `spec_path`
/// (`ValidatePodTemplateSpec` runs both checks on `<template>.spec` as well).
pub fn validate_security_annotations_match_at(
    errs: &mut Vec<FieldError>,
    annotations: &std::collections::BTreeMap<String, String>,
    spec: &PodSpec,
    spec_path: &str,
) {
    let pod_sc = present(&spec.extra, "securityContext").and_then(Value::as_object);
    // Seccomp.
    if let (Some(field), Some(annotation)) = (
        pod_sc.and_then(|sc| present(sc, "seccompProfile")),
        annotations.get("seccomp.security.alpha.kubernetes.io/pod"),
    ) {
        errs.extend(seccomp_annotation_matches(
            annotation,
            field,
            &child(&child(spec_path, "securityContext"), "seccompProfile"),
        ));
    }
    let containers = containers_with_names(spec, spec_path);
    for (path, name, sc) in &containers {
        let Some(field) = sc.as_ref().and_then(|sc| present(sc, "seccompProfile")) else {
            continue;
        };
        let key = format!("container.seccomp.security.alpha.kubernetes.io/{name}");
        if let Some(annotation) = annotations.get(&key) {
            errs.extend(seccomp_annotation_matches(
                annotation,
                field,
                &child(&child(path, "securityContext"), "seccompProfile"),
            ));
        }
    }
    // AppArmor (not for Windows pods).
    let windows = present(&spec.extra, "os")
        .and_then(|o| o.get("name"))
        .and_then(Value::as_str)
        == Some("windows");
    if windows {
        return;
    }
    let pod_profile = pod_sc.and_then(|sc| present(sc, "appArmorProfile"));
    for (path, name, sc) in &containers {
        let Some(profile) = sc
            .as_ref()
            .and_then(|sc| present(sc, "appArmorProfile"))
            .or(pod_profile)
        else {
            continue;
        };
        let key = format!("container.apparmor.security.beta.kubernetes.io/{name}");
        let Some(annotation) = annotations.get(&key) else {
            continue;
        };
        let p = child(&child(path, "securityContext"), "appArmorProfile");
        let type_mismatch = || {
            FieldError::forbidden(
                child(&p, "type"),
                "apparmor type in annotation and field must match",
            )
        };
        match as_str(profile.get("type")).as_str() {
            "Unconfined" if annotation != "unconfined" => errs.push(type_mismatch()),
            "RuntimeDefault" if annotation != "runtime/default" => errs.push(type_mismatch()),
            "Localhost" => match annotation.strip_prefix("localhost/") {
                None => errs.push(type_mismatch()),
                Some(rest) => {
                    if profile.get("localhostProfile").and_then(Value::as_str) != Some(rest) {
                        errs.push(FieldError::forbidden(
                            child(&p, "localhostProfile"),
                            "apparmor profile in annotation and field must match",
                        ));
                    }
                }
            },
            _ => {}
        }
    }
}

/// `validateHostUsers`: a pod with `hostUsers: false` may not use the host's network, PID or
/// IPC namespace (the latter two reported, as upstream does, as `HostPID` and `HostIPC`).
pub fn validate_host_users(errs: &mut Vec<FieldError>, spec: &PodSpec, spec_path: &str) {
    if host_users(spec) {
        return;
    }
    const MSG: &str = "when `pod.Spec.HostUsers` is false";
    let on = |k: &str| spec.extra.get(k).and_then(Value::as_bool) == Some(true);
    for (k, field) in [
        ("hostNetwork", "hostNetwork"),
        ("hostPID", "HostPID"),
        ("hostIPC", "HostIPC"),
    ] {
        if on(k) {
            errs.push(FieldError::forbidden(child(spec_path, field), MSG));
        }
    }
}
