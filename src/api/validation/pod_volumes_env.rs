//! Pod volumes, volume mounts and devices, env and envFrom, probes and lifecycle handlers
//! (`pkg/apis/core/validation/validation.go`: `ValidateVolumes`, `validateVolumeSource`,
//! `ValidateVolumeMounts`, `ValidateVolumeDevices`, `ValidateEnv`, `ValidateEnvFrom`,
//! `validateProbe`, `validateLifecycle`, ...). These fields stay verbatim JSON in the `extra` maps
//! of [`crate::api::core::PodSpec`] and [`crate::api::core::Container`]; the validators read them
//! in place. A container without env, mounts or probes costs a few map look-ups: paths are only
//! built for fields that are present, and messages only for errors.
//!
//! Gates, with their Kubernetes 1.35 defaults (not switchable per scenario yet):
//! `RelaxedEnvironmentVariableValidation` (GA and locked on since 1.34: env names and envFrom
//! prefixes are printable ASCII without `=`), `PodLifecycleSleepActionAllowZero` (GA since 1.34:
//! `sleep.seconds: 0` is allowed), `ImageVolume` (beta, on since 1.35: `image` volumes are
//! validated), `EnvFiles` (beta, on since 1.35: a `fileKeyRef` counts as an env var source; its
//! body is not validated yet), `ClusterTrustBundleProjection` and `PodCertificateRequest` (off:
//! such projected sources are dropped before validation upstream, so they are ignored here),
//! `ContainerStopSignals` (alpha, off: `lifecycle.stopSignal` is ignored).

use super::meta::{validate_annotations, validate_labels, validate_nonnegative_field};
use super::names::{
    inclusive_range_error, is_dns1123_label, is_dns1123_subdomain, is_qualified_name,
    is_valid_port_name, is_valid_port_num, name_is_dns_subdomain,
};
use super::names_more::{is_config_map_key, is_http_header_name, is_relaxed_env_var_name};
use super::quantity::parse_quantity;
use super::{child, idx, key};
use crate::api::core::Container;
use crate::api::errors::{go_quote, FieldError};
use serde_json::{Map, Value};
use std::collections::BTreeSet;

type Obj = Map<String, Value>;

/// What container validation needs from the pod spec: the volumes that validated cleanly (by
/// name, as upstream's `vols` map) and the pod's termination grace period.
#[derive(Debug, Default)]
pub(crate) struct PodVolumesCtx<'a> {
    pub volumes: Vec<(&'a str, &'a Obj)>,
    pub grace_period: Option<i64>,
    /// The pod's `hostUsers` (`ValidateSecurityContext`'s `Unmasked` procMount rule).
    pub host_users: bool,
}

impl PodVolumesCtx<'_> {
    fn volume(&self, name: &str) -> Option<&Obj> {
        self.volumes
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, s)| *s)
    }
}

/// `fileModeErrorMsg`.
const FILE_MODE_ERROR_MSG: &str = "must be a number between 0 and 0777 (octal), both inclusive";
const MORE_THAN_ONE_VOLUME: &str = "may not specify more than 1 volume type";

/// A present, non-null member.
fn get<'a>(m: &'a Obj, k: &str) -> Option<&'a Value> {
    m.get(k).filter(|v| !v.is_null())
}

/// A present object member (`nil` pointers upstream are absent or `null` here).
fn obj<'a>(m: &'a Obj, k: &str) -> Option<&'a Obj> {
    get(m, k).and_then(Value::as_object)
}

/// A string member, empty when absent.
fn s<'a>(m: &'a Obj, k: &str) -> &'a str {
    m.get(k).and_then(Value::as_str).unwrap_or("")
}

fn int(m: &Obj, k: &str) -> Option<i64> {
    get(m, k).and_then(Value::as_i64)
}

fn arr<'a>(m: &'a Obj, k: &str) -> &'a [Value] {
    m.get(k)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

fn objs<'a>(m: &'a Obj, k: &str) -> impl Iterator<Item = (usize, &'a Obj)> {
    arr(m, k)
        .iter()
        .enumerate()
        .filter_map(|(i, v)| v.as_object().map(|o| (i, o)))
}

fn required(errs: &mut Vec<FieldError>, path: &str, k: &str) {
    errs.push(FieldError::required(child(path, k), ""));
}

/// `Required` for each empty string member.
fn require_strs(errs: &mut Vec<FieldError>, src: &Obj, path: &str, keys: &[&str]) {
    for k in keys {
        if s(src, k).is_empty() {
            required(errs, path, k);
        }
    }
}

/// `Required` for an empty list member.
fn require_list(errs: &mut Vec<FieldError>, src: &Obj, path: &str, k: &str) {
    if arr(src, k).is_empty() {
        required(errs, path, k);
    }
}

/// A `*int32` file mode outside 0..=0777.
fn check_mode(errs: &mut Vec<FieldError>, m: &Obj, k: &str, path: &str) {
    if let Some(mode) = int(m, k) {
        if !(0..=0o777).contains(&mode) {
            errs.push(FieldError::invalid(
                child(path, k),
                mode,
                FILE_MODE_ERROR_MSG,
            ));
        }
    }
}

/// `validatePathNoBacksteps`: one error however many `..` elements.
fn validate_path_no_backsteps(errs: &mut Vec<FieldError>, target: &str, path: &str) {
    if target.split('/').any(|p| p == "..") {
        errs.push(FieldError::invalid(path, target, "must not contain '..'"));
    }
}

/// `validateLocalDescendingPath`.
fn validate_local_descending_path(errs: &mut Vec<FieldError>, target: &str, path: &str) {
    if target.starts_with('/') {
        errs.push(FieldError::invalid(path, target, "must be a relative path"));
    }
    validate_path_no_backsteps(errs, target, path);
}

/// `ValidateLocalNonReservedPath`.
pub fn validate_local_non_reserved_path(errs: &mut Vec<FieldError>, target: &str, path: &str) {
    validate_local_descending_path(errs, target, path);
    if target.starts_with("..") && !target.starts_with("../") {
        errs.push(FieldError::invalid(
            path,
            target,
            "must not start with '..'",
        ));
    }
}

/// `ValidateDNS1123Label`.
fn validate_dns1123_label(errs: &mut Vec<FieldError>, value: &str, path: impl FnOnce() -> String) {
    let msgs = is_dns1123_label(value);
    if msgs.is_empty() {
        return;
    }
    let path = path();
    for m in msgs {
        errs.push(FieldError::invalid(path.as_str(), value, m));
    }
}

// ---------------------------------------------------------------------------------------------
// Volumes
// ---------------------------------------------------------------------------------------------

/// `ValidateVolumes`: each volume's source, a DNS-1123-label name, unique names; a
/// `persistentVolumeClaim` may not name the claim an `ephemeral` volume of the same pod creates.
/// Returns the volumes without errors (upstream's `vols`, which volume mounts are matched
/// against) and the errors. `pod_name` is the pod's name (`None` for templates).
pub(crate) fn validate_volumes<'a>(
    volumes: Option<&'a Value>,
    pod_name: Option<&str>,
    path: &str,
    resource_is_pod: bool,
) -> (Vec<(&'a str, &'a Obj)>, Vec<FieldError>) {
    let mut good: Vec<(&'a str, &'a Obj)> = Vec::new();
    let mut errs = vec![];
    let Some(list) = volumes.and_then(Value::as_array) else {
        return (good, errs);
    };
    let pod_name = pod_name.filter(|n| !n.is_empty());
    let mut created_pvcs = BTreeSet::new();
    if let Some(pod) = pod_name {
        for v in list.iter().filter_map(Value::as_object) {
            if get(v, "ephemeral").is_some() {
                created_pvcs.insert(format!("{pod}-{}", s(v, "name")));
            }
        }
    }
    let mut names: BTreeSet<&str> = BTreeSet::new();
    for (i, v) in list.iter().enumerate() {
        let Some(vol) = v.as_object() else { continue };
        let idx_path = idx(path, i);
        let name = s(vol, "name");
        let mut el = validate_volume_source(vol, &idx_path, name, pod_name, resource_is_pod);
        if name.is_empty() {
            required(&mut el, &idx_path, "name");
        } else {
            validate_dns1123_label(&mut el, name, || child(&idx_path, "name"));
        }
        if names.contains(name) {
            el.push(FieldError::duplicate(child(&idx_path, "name"), name));
        }
        if el.is_empty() {
            names.insert(name);
            good.push((name, vol));
        } else {
            errs.extend(el);
        }
        if let Some(claim) = obj(vol, "persistentVolumeClaim") {
            let claim_name = s(claim, "claimName");
            if created_pvcs.contains(claim_name) {
                errs.push(FieldError::invalid(
                    child(&child(&idx_path, "persistentVolumeClaim"), "claimName"),
                    claim_name,
                    "must not reference a PVC that gets created for an ephemeral volume",
                ));
            }
        }
    }
    (good, errs)
}

/// The volume sources in `validateVolumeSource`'s order: the JSON member and the name upstream
/// reports "may not specify more than 1 volume type" on (`cephFS` and the `downwarAPI` typo are
/// upstream's).
const VOLUME_SOURCES: &[(&str, &str)] = &[
    ("emptyDir", "emptyDir"),
    ("hostPath", "hostPath"),
    ("gitRepo", "gitRepo"),
    ("gcePersistentDisk", "gcePersistentDisk"),
    ("awsElasticBlockStore", "awsElasticBlockStore"),
    ("secret", "secret"),
    ("nfs", "nfs"),
    ("iscsi", "iscsi"),
    ("glusterfs", "glusterfs"),
    ("flocker", "flocker"),
    ("persistentVolumeClaim", "persistentVolumeClaim"),
    ("rbd", "rbd"),
    ("cinder", "cinder"),
    ("cephfs", "cephFS"),
    ("quobyte", "quobyte"),
    ("downwardAPI", "downwarAPI"),
    ("fc", "fc"),
    ("flexVolume", "flexVolume"),
    ("configMap", "configMap"),
    ("azureFile", "azureFile"),
    ("vsphereVolume", "vsphereVolume"),
    ("photonPersistentDisk", "photonPersistentDisk"),
    ("portworxVolume", "portworxVolume"),
    ("azureDisk", "azureDisk"),
    ("storageos", "storageos"),
    ("projected", "projected"),
    ("scaleIO", "scaleIO"),
    ("csi", "csi"),
    ("ephemeral", "ephemeral"),
    ("image", "image"),
];

/// `validateVolumeSource`: exactly one source, each validated as upstream does.
fn validate_volume_source(
    vol: &Obj,
    path: &str,
    vol_name: &str,
    pod_name: Option<&str>,
    resource_is_pod: bool,
) -> Vec<FieldError> {
    let mut errs = vec![];
    let mut num = 0;
    for &(member, forbidden_name) in VOLUME_SOURCES {
        let Some(src) = get(vol, member) else {
            continue;
        };
        let empty = Map::new();
        let src = src.as_object().unwrap_or(&empty);
        if member == "emptyDir" {
            num += 1;
            let size_limit = get(src, "sizeLimit");
            if let Some(Value::String(q)) = size_limit.filter(|v| quantity_nanos(v).is_none()) {
                // A resource.Quantity that does not parse (kube-apiserver refuses it while
                // decoding; reported here as the container resources' quantities are).
                errs.push(FieldError::invalid(
                    child(&child(path, "emptyDir"), "sizeLimit"),
                    q.as_str(),
                    super::quantity::ERR_FORMAT_WRONG,
                ));
            }
            let too_small = size_limit.and_then(quantity_nanos).is_some_and(|n| n < 0);
            if too_small {
                errs.push(FieldError::forbidden(
                    child(&child(path, "emptyDir"), "sizeLimit"),
                    "SizeLimit field must be a valid resource quantity",
                ));
            }
            continue;
        }
        if num > 0 {
            errs.push(FieldError::forbidden(
                child(path, forbidden_name),
                MORE_THAN_ONE_VOLUME,
            ));
        } else {
            num += 1;
            validate_one_source(&mut errs, member, src, path, resource_is_pod);
            if member == "ephemeral" {
                if let Some(pod) = pod_name.filter(|_| !vol_name.is_empty()) {
                    let pvc = format!("{pod}-{vol_name}");
                    for m in name_is_dns_subdomain(&pvc, false) {
                        errs.push(FieldError::invalid(
                            child(path, "name"),
                            vol_name,
                            format!("PVC name {}: {m}", go_quote(&pvc)),
                        ));
                    }
                }
            }
        }
        // The iSCSI initiator-name length rule applies even when the source was forbidden.
        if member == "iscsi"
            && get(src, "initiatorName").is_some()
            && vol_name.len() + 1 + s(src, "targetPortal").len() > 64
        {
            errs.push(FieldError::invalid(
                child(path, "name"),
                vol_name,
                "Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.",
            ));
        }
    }
    if num == 0 {
        errs.push(FieldError::required(path, "must specify a volume type"));
    }
    errs
}

/// A quantity's value in nanounits, when it parses.
fn quantity_nanos(v: &Value) -> Option<i128> {
    match v {
        Value::String(q) => parse_quantity(q.trim()).ok().map(|q| q.nanos),
        Value::Number(n) => parse_quantity(&n.to_string()).ok().map(|q| q.nanos),
        _ => None,
    }
}

fn validate_one_source(
    errs: &mut Vec<FieldError>,
    member: &str,
    src: &Obj,
    vol_path: &str,
    resource_is_pod: bool,
) {
    match member {
        "hostPath" => validate_host_path_volume_source(errs, src, &child(vol_path, "hostPath")),
        "gitRepo" => {
            let p = child(vol_path, "gitRepo");
            if s(src, "repository").is_empty() {
                required(errs, &p, "repository");
            }
            validate_local_descending_path(errs, s(src, "directory"), &child(&p, "directory"));
        }
        // Upstream validates the GCE disk under `persistentDisk`.
        "gcePersistentDisk" => {
            validate_disk(errs, src, "pdName", &child(vol_path, "persistentDisk"))
        }
        "awsElasticBlockStore" => validate_disk(
            errs,
            src,
            "volumeID",
            &child(vol_path, "awsElasticBlockStore"),
        ),
        "secret" => {
            let p = child(vol_path, "secret");
            if s(src, "secretName").is_empty() {
                required(errs, &p, "secretName");
            }
            check_mode(errs, src, "defaultMode", &p);
            validate_items(errs, src, &p);
        }
        "configMap" => {
            let p = child(vol_path, "configMap");
            if s(src, "name").is_empty() {
                required(errs, &p, "name");
            }
            check_mode(errs, src, "defaultMode", &p);
            validate_items(errs, src, &p);
        }
        "nfs" => {
            let p = child(vol_path, "nfs");
            if s(src, "server").is_empty() {
                required(errs, &p, "server");
            }
            let nfs_path = s(src, "path");
            if nfs_path.is_empty() {
                required(errs, &p, "path");
            }
            if !nfs_path.starts_with('/') {
                errs.push(FieldError::invalid(
                    child(&p, "path"),
                    nfs_path,
                    "must be an absolute path",
                ));
            }
        }
        "iscsi" => {
            let p = child(vol_path, "iscsi");
            if s(src, "targetPortal").is_empty() {
                required(errs, &p, "targetPortal");
            }
            let iqn = s(src, "iqn");
            if iqn.is_empty() {
                required(errs, &p, "iqn");
            } else if let Some(msg) = iscsi_name_error(iqn) {
                errs.push(FieldError::invalid(child(&p, "iqn"), iqn, msg));
            }
            let lun = int(src, "lun").unwrap_or(0);
            if !(0..=255).contains(&lun) {
                errs.push(FieldError::invalid(
                    child(&p, "lun"),
                    lun,
                    inclusive_range_error(0, 255),
                ));
            }
            if let Some(init) = get(src, "initiatorName").and_then(Value::as_str) {
                // Upstream reports a bad prefix and then, separately, a bad format.
                if !["iqn", "eui", "naa"].iter().any(|p| init.starts_with(p)) {
                    errs.push(FieldError::invalid(
                        child(&p, "initiatorname"),
                        init,
                        "must be valid format starting with iqn, eui, or naa",
                    ));
                } else if iscsi_name_error(init).is_some() {
                    errs.push(FieldError::invalid(
                        child(&p, "initiatorname"),
                        init,
                        "must be valid format",
                    ));
                }
            }
            let chap = src.get("discoveryCHAPAuth").and_then(Value::as_bool) == Some(true)
                || src.get("sessionCHAPAuth").and_then(Value::as_bool) == Some(true);
            if chap && get(src, "secretRef").is_none() {
                required(errs, &p, "secretRef");
            }
        }
        "glusterfs" => {
            let p = child(vol_path, "glusterfs");
            if s(src, "endpoints").is_empty() {
                required(errs, &p, "endpoints");
            }
            if s(src, "path").is_empty() {
                required(errs, &p, "path");
            }
        }
        "flocker" => {
            let p = child(vol_path, "flocker");
            let (name, uuid) = (s(src, "datasetName"), s(src, "datasetUUID"));
            if name.is_empty() && uuid.is_empty() {
                errs.push(FieldError::required(
                    p.as_str(),
                    "one of datasetName and datasetUUID is required",
                ));
            }
            if !name.is_empty() && !uuid.is_empty() {
                errs.push(FieldError::invalid(
                    p.as_str(),
                    "resource",
                    "datasetName and datasetUUID can not be specified simultaneously",
                ));
            }
            if name.contains('/') {
                errs.push(FieldError::invalid(
                    child(&p, "datasetName"),
                    name,
                    "must not contain '/'",
                ));
            }
        }
        "persistentVolumeClaim" => require_strs(
            errs,
            src,
            &child(vol_path, "persistentVolumeClaim"),
            &["claimName"],
        ),
        "rbd" => {
            let p = child(vol_path, "rbd");
            if arr(src, "monitors").is_empty() {
                required(errs, &p, "monitors");
            }
            if s(src, "image").is_empty() {
                required(errs, &p, "image");
            }
        }
        "cinder" => {
            let p = child(vol_path, "cinder");
            if s(src, "volumeID").is_empty() {
                required(errs, &p, "volumeID");
            }
            if obj(src, "secretRef").is_some_and(|r| s(r, "name").is_empty()) {
                required(errs, &child(&p, "secretRef"), "name");
            }
        }
        // Upstream validates cephFS under `cephfs`.
        "cephfs" => require_list(errs, src, &child(vol_path, "cephfs"), "monitors"),
        "quobyte" => validate_quobyte(errs, src, &child(vol_path, "quobyte")),
        "downwardAPI" => {
            let p = child(vol_path, "downwardAPI");
            check_mode(errs, src, "defaultMode", &p);
            // Upstream reports every item's errors on the source's path, not on `items[i]`.
            for (_, file) in objs(src, "items") {
                validate_downward_api_volume_file(errs, file, &p);
            }
        }
        "fc" => validate_fc(errs, src, &child(vol_path, "fc")),
        "flexVolume" => {
            let p = child(vol_path, "flexVolume");
            if s(src, "driver").is_empty() {
                required(errs, &p, "driver");
            }
            if let Some(opts) = obj(src, "options") {
                for k in opts.keys() {
                    let ns = k.split_once('/').map_or(k.as_str(), |(ns, _)| ns);
                    let normalized = format!(".{}", ns.to_lowercase());
                    if normalized.ends_with(".kubernetes.io") || normalized.ends_with(".k8s.io") {
                        errs.push(FieldError::invalid(
                            key(&child(&p, "options"), k),
                            k.as_str(),
                            "kubernetes.io and k8s.io namespaces are reserved",
                        ));
                    }
                }
            }
        }
        "azureFile" => {
            let p = child(vol_path, "azureFile");
            if s(src, "secretName").is_empty() {
                required(errs, &p, "secretName");
            }
            if s(src, "shareName").is_empty() {
                required(errs, &p, "shareName");
            }
        }
        "vsphereVolume" => require_strs(
            errs,
            src,
            &child(vol_path, "vsphereVolume"),
            &["volumePath"],
        ),
        "photonPersistentDisk" => require_strs(
            errs,
            src,
            &child(vol_path, "photonPersistentDisk"),
            &["pdID"],
        ),
        "portworxVolume" => {
            require_strs(errs, src, &child(vol_path, "portworxVolume"), &["volumeID"])
        }
        "azureDisk" => validate_azure_disk(errs, src, &child(vol_path, "azureDisk")),
        "storageos" => {
            let p = child(vol_path, "storageos");
            let name = s(src, "volumeName");
            if name.is_empty() {
                required(errs, &p, "volumeName");
            } else {
                validate_dns1123_label(errs, name, || child(&p, "volumeName"));
            }
            let ns = s(src, "volumeNamespace");
            if !ns.is_empty() {
                validate_dns1123_label(errs, ns, || child(&p, "volumeNamespace"));
            }
            if obj(src, "secretRef").is_some_and(|r| s(r, "name").is_empty()) {
                required(errs, &child(&p, "secretRef"), "name");
            }
        }
        "projected" => validate_projected_volume_source(errs, src, &child(vol_path, "projected")),
        "scaleIO" => {
            let p = child(vol_path, "scaleIO");
            for k in ["gateway", "system", "volumeName"] {
                if s(src, k).is_empty() {
                    required(errs, &p, k);
                }
            }
        }
        "csi" => validate_csi_volume_source(errs, src, &child(vol_path, "csi")),
        "ephemeral" => validate_ephemeral_volume_source(errs, src, &child(vol_path, "ephemeral")),
        "image" => {
            // validateImageVolumeSource
            let p = child(vol_path, "image");
            if resource_is_pod && s(src, "reference").is_empty() {
                required(errs, &p, "reference");
            }
            validate_pull_policy(errs, s(src, "pullPolicy"), &child(&p, "pullPolicy"));
        }
        _ => {}
    }
}

/// The iSCSI qualified-name rules of `validateISCSIVolumeSource`: an `iqn`, `eui` or `naa`
/// prefix, then `iscsiInitiatorIqnRegex` (`iqn\.\d{4}-\d{2}\.([[:alnum:]-.]+)(:[^,;*&$|\s]+)$`,
/// unanchored at the start), `^eui.[[:alnum:]]{16}$` or `^naa.[[:alnum:]]{32}$`.
fn iscsi_name_error(name: &str) -> Option<&'static str> {
    let alnum_tail = |rest: &str, n: usize| {
        let mut chars = rest.chars();
        chars.next().is_some() && {
            let tail = chars.as_str();
            tail.len() == n && tail.bytes().all(|b| b.is_ascii_alphanumeric())
        }
    };
    if let Some(rest) = name.strip_prefix("eui") {
        return (!alnum_tail(rest, 16)).then_some("must be valid format");
    }
    if let Some(rest) = name.strip_prefix("naa") {
        return (!alnum_tail(rest, 32)).then_some("must be valid format");
    }
    if !name.starts_with("iqn") {
        return Some("must be valid format starting with iqn, eui, or naa");
    }
    let iqn_at = |t: &str| -> bool {
        let b = t.as_bytes();
        let digits =
            |r: std::ops::Range<usize>| b.len() >= r.end && b[r].iter().all(u8::is_ascii_digit);
        if !(t.starts_with("iqn.") && digits(4..8) && b.get(8) == Some(&b'-') && digits(9..11))
            || b.get(11) != Some(&b'.')
        {
            return false;
        }
        let rest = &t[12..];
        let domain_len = rest
            .bytes()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == b'-' || *c == b'.')
            .count();
        let Some(tail) = rest[domain_len..].strip_prefix(':') else {
            return false;
        };
        domain_len > 0
            && !tail.is_empty()
            && !tail
                .chars()
                .any(|c| matches!(c, ',' | ';' | '*' | '&' | '$' | '|') || c.is_whitespace())
    };
    let matched = name.match_indices("iqn.").any(|(i, _)| iqn_at(&name[i..]));
    (!matched).then_some("must be valid format")
}

/// `validatePullPolicy`.
pub(crate) fn validate_pull_policy(errs: &mut Vec<FieldError>, policy: &str, path: &str) {
    match policy {
        "Always" | "IfNotPresent" | "Never" => {}
        "" => errs.push(FieldError::required(path, "")),
        other => errs.push(FieldError::not_supported(
            path,
            other,
            &["Always", "IfNotPresent", "Never"],
        )),
    }
}

/// `validateHostPathVolumeSource` and `validateHostPathType`.
fn validate_host_path_volume_source(errs: &mut Vec<FieldError>, src: &Obj, path: &str) {
    let host_path = s(src, "path");
    if host_path.is_empty() {
        required(errs, path, "path");
        return;
    }
    validate_path_no_backsteps(errs, host_path, &child(path, "path"));
    if let Some(t) = get(src, "type").and_then(Value::as_str) {
        const SUPPORTED: &[&str] = &[
            "",
            "BlockDevice",
            "CharDevice",
            "Directory",
            "DirectoryOrCreate",
            "File",
            "FileOrCreate",
            "Socket",
        ];
        if !SUPPORTED.contains(&t) {
            errs.push(FieldError::not_supported(child(path, "type"), t, SUPPORTED));
        }
    }
}

/// `validateGCEPersistentDiskVolumeSource` / `validateAWSElasticBlockStoreVolumeSource`.
fn validate_disk(errs: &mut Vec<FieldError>, src: &Obj, id: &str, path: &str) {
    if s(src, id).is_empty() {
        required(errs, path, id);
    }
    let partition = int(src, "partition").unwrap_or(0);
    if !(0..=255).contains(&partition) {
        errs.push(FieldError::invalid(
            child(path, "partition"),
            partition,
            inclusive_range_error(1, 255),
        ));
    }
}

/// `validateQuobyteVolumeSource`.
fn validate_quobyte(errs: &mut Vec<FieldError>, src: &Obj, path: &str) {
    let registry = s(src, "registry");
    const PAIRS: &str = "must be a host:port pair or multiple pairs separated by commas";
    if registry.is_empty() {
        errs.push(FieldError::required(child(path, "registry"), PAIRS));
    } else if s(src, "tenant").len() >= 65 {
        errs.push(FieldError::required(
            child(path, "tenant"),
            "must be a UUID and may not exceed a length of 64 characters",
        ));
    } else {
        for pair in registry.split(',') {
            if !split_host_port_ok(pair) {
                errs.push(FieldError::invalid(
                    child(path, "registry"),
                    registry,
                    PAIRS,
                ));
            }
        }
    }
    if s(src, "volume").is_empty() {
        required(errs, path, "volume");
    }
}

/// Whether Go's `net.SplitHostPort` accepts `hostport`: `host:port` with one colon, or
/// `[host]:port`.
fn split_host_port_ok(hostport: &str) -> bool {
    let Some((host, _port)) = hostport.rsplit_once(':') else {
        return false;
    };
    if let Some(inner) = host.strip_prefix('[') {
        inner.ends_with(']') && !inner[..inner.len() - 1].contains(['[', ']'])
    } else {
        !host.contains([':', '[', ']'])
    }
}

/// `validateFCVolumeSource`.
fn validate_fc(errs: &mut Vec<FieldError>, src: &Obj, path: &str) {
    let wwns = arr(src, "targetWWNs");
    let wwids = arr(src, "wwids");
    if wwns.is_empty() && wwids.is_empty() {
        errs.push(FieldError::required(
            child(path, "targetWWNs"),
            "must specify either targetWWNs or wwids, but not both",
        ));
    }
    if !wwns.is_empty() && !wwids.is_empty() {
        errs.push(FieldError::invalid(
            child(path, "targetWWNs"),
            Value::Array(wwns.to_vec()),
            "targetWWNs and wwids can not be specified simultaneously",
        ));
    }
    if !wwns.is_empty() {
        match int(src, "lun") {
            None => errs.push(FieldError::required(
                child(path, "lun"),
                "lun is required if targetWWNs is specified",
            )),
            Some(lun) if !(0..=255).contains(&lun) => errs.push(FieldError::invalid(
                child(path, "lun"),
                lun,
                inclusive_range_error(0, 255),
            )),
            Some(_) => {}
        }
    }
}

/// `validateAzureDisk` (after `SetDefaults_AzureDiskVolumeSource`: kind `Shared`, caching
/// `ReadWrite`).
fn validate_azure_disk(errs: &mut Vec<FieldError>, src: &Obj, path: &str) {
    if s(src, "diskName").is_empty() {
        required(errs, path, "diskName");
    }
    let uri = s(src, "diskURI");
    if uri.is_empty() {
        required(errs, path, "diskURI");
    }
    if let Some(mode) = get(src, "cachingMode").and_then(Value::as_str) {
        if !matches!(mode, "None" | "ReadOnly" | "ReadWrite") {
            errs.push(FieldError::not_supported(
                child(path, "cachingMode"),
                mode,
                &["None", "ReadOnly", "ReadWrite"],
            ));
        }
    }
    let kind = get(src, "kind").and_then(Value::as_str);
    if let Some(kind) = kind {
        if !matches!(kind, "Dedicated" | "Managed" | "Shared") {
            errs.push(FieldError::not_supported(
                child(path, "kind"),
                kind,
                &["Dedicated", "Managed", "Shared"],
            ));
        }
        if kind == "Managed" && !uri.starts_with("/subscriptions/") {
            errs.push(FieldError::not_supported(
                child(path, "diskURI"),
                uri,
                &["/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}"],
            ));
        }
        if kind != "Managed" && !uri.starts_with("https://") {
            errs.push(FieldError::not_supported(
                child(path, "diskURI"),
                uri,
                &["https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd"],
            ));
        }
    }
}

/// `validateKeyToPath` over a secret's or config map's `items`.
fn validate_items(errs: &mut Vec<FieldError>, src: &Obj, path: &str) {
    let items = child(path, "items");
    for (i, kp) in objs(src, "items") {
        validate_key_to_path(errs, kp, &idx(&items, i));
    }
}

/// `validateKeyToPath`.
pub(crate) fn validate_key_to_path(errs: &mut Vec<FieldError>, kp: &Obj, path: &str) {
    if s(kp, "key").is_empty() {
        required(errs, path, "key");
    }
    let p = s(kp, "path");
    if p.is_empty() {
        required(errs, path, "path");
    }
    validate_local_non_reserved_path(errs, p, &child(path, "path"));
    check_mode(errs, kp, "mode", path);
}

const VOLUME_DOWNWARD_API_FIELD_PATHS: &[&str] = &[
    "metadata.annotations",
    "metadata.labels",
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
];

/// `validateDownwardAPIVolumeFile`.
fn validate_downward_api_volume_file(errs: &mut Vec<FieldError>, file: &Obj, path: &str) {
    let p = s(file, "path");
    if p.is_empty() {
        required(errs, path, "path");
    }
    validate_local_non_reserved_path(errs, p, &child(path, "path"));
    if let Some(fs) = obj(file, "fieldRef") {
        validate_object_field_selector(
            errs,
            fs,
            VOLUME_DOWNWARD_API_FIELD_PATHS,
            &child(path, "fieldRef"),
        );
        if get(file, "resourceFieldRef").is_some() {
            errs.push(FieldError::invalid(
                path,
                "resource",
                "fieldRef and resourceFieldRef can not be specified simultaneously",
            ));
        }
    } else if let Some(rs) = obj(file, "resourceFieldRef") {
        validate_container_resource_field_selector(
            errs,
            rs,
            &child(path, "resourceFieldRef"),
            true,
        );
    } else {
        errs.push(FieldError::required(
            path,
            "one of fieldRef and resourceFieldRef is required",
        ));
    }
    check_mode(errs, file, "mode", path);
}

/// `validateProjectedVolumeSource` and `validateProjectionSources` (secret, configMap,
/// downwardAPI and serviceAccountToken sources; gated-off sources are ignored).
fn validate_projected_volume_source(errs: &mut Vec<FieldError>, src: &Obj, path: &str) {
    check_mode(errs, src, "defaultMode", path);
    let sources = child(path, "sources");
    let mut all_paths: BTreeSet<&str> = BTreeSet::new();
    for (i, source) in objs(src, "sources") {
        let src_path = idx(&sources, i);
        let mut num = 0;
        for kind in ["secret", "configMap"] {
            let Some(sel) = obj(source, kind) else {
                continue;
            };
            num += 1;
            let proj_path = child(&src_path, kind);
            let name = s(sel, "name");
            if name.is_empty() {
                required(errs, &proj_path, "name");
            }
            let items = child(&proj_path, "items");
            for (j, kp) in objs(sel, "items") {
                validate_key_to_path(errs, kp, &idx(&items, j));
                let p = s(kp, "path");
                if !p.is_empty() && !all_paths.insert(p) {
                    errs.push(FieldError::invalid(
                        path,
                        name,
                        "conflicting duplicate paths",
                    ));
                }
            }
        }
        if let Some(d) = obj(source, "downwardAPI") {
            num += 1;
            let proj_path = child(&src_path, "downwardAPI");
            for (_, file) in objs(d, "items") {
                validate_downward_api_volume_file(errs, file, &proj_path);
                let p = s(file, "path");
                if !p.is_empty() && !all_paths.insert(p) {
                    errs.push(FieldError::invalid(path, p, "conflicting duplicate paths"));
                }
            }
        }
        if let Some(t) = obj(source, "serviceAccountToken") {
            num += 1;
            let proj_path = child(&src_path, "serviceAccountToken");
            let exp = int(t, "expirationSeconds").unwrap_or(0);
            if exp < 10 * 60 {
                errs.push(FieldError::invalid(
                    child(&proj_path, "expirationSeconds"),
                    exp,
                    "may not specify a duration less than 10 minutes",
                ));
            }
            if exp > 1 << 32 {
                errs.push(FieldError::invalid(
                    child(&proj_path, "expirationSeconds"),
                    exp,
                    "may not specify a duration larger than 2^32 seconds",
                ));
            }
            // Upstream reports the token's path on the projected source's path, and only
            // checks it is local on create (AllowNonLocalProjectedTokenPath is for updates of
            // pods that already had such a path, not modelled).
            let p = s(t, "path");
            if p.is_empty() {
                required(errs, path, "path");
            } else {
                validate_local_non_reserved_path(errs, p, &child(path, "path"));
            }
        }
        if num > 1 {
            errs.push(FieldError::forbidden(
                src_path,
                "may not specify more than 1 volume type per source",
            ));
        }
    }
}

/// `ValidateCSIDriverName`.
fn validate_csi_driver_name(errs: &mut Vec<FieldError>, driver: &str, path: &str) {
    if driver.is_empty() {
        errs.push(FieldError::required(path, ""));
    }
    if driver.len() > 63 {
        errs.push(FieldError::too_long(path, 63));
    }
    for m in is_dns1123_subdomain(&driver.to_lowercase()) {
        errs.push(FieldError::invalid(path, driver, m));
    }
}

/// `validateCSIVolumeSource`.
fn validate_csi_volume_source(errs: &mut Vec<FieldError>, src: &Obj, path: &str) {
    validate_csi_driver_name(errs, s(src, "driver"), &child(path, "driver"));
    if let Some(r) = obj(src, "nodePublishSecretRef") {
        let name = s(r, "name");
        if name.is_empty() {
            required(errs, &child(path, "nodePublishSecretRef"), "name");
        } else {
            // Upstream reports an invalid secret name on `csi.name`.
            for m in name_is_dns_subdomain(name, false) {
                errs.push(FieldError::invalid(child(path, "name"), name, m));
            }
        }
    }
}

/// The `ObjectMeta` members `ValidateTemplateObjectMeta` forbids, with the name
/// `validateFieldAllowList` reports (the Go field name with a lower-case first letter: `uID`).
const TEMPLATE_META_FORBIDDEN: &[(&str, &str)] = &[
    ("name", "name"),
    ("generateName", "generateName"),
    ("namespace", "namespace"),
    ("selfLink", "selfLink"),
    ("uid", "uID"),
    ("resourceVersion", "resourceVersion"),
    ("generation", "generation"),
    ("creationTimestamp", "creationTimestamp"),
    ("deletionTimestamp", "deletionTimestamp"),
    ("deletionGracePeriodSeconds", "deletionGracePeriodSeconds"),
    ("ownerReferences", "ownerReferences"),
    ("finalizers", "finalizers"),
    ("managedFields", "managedFields"),
];

/// Whether a JSON value is Go's zero value for its field.
fn is_zero(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(_) => false,
    }
}

/// `validateEphemeralVolumeSource`: `ValidatePersistentVolumeClaimTemplate` (template metadata
/// with only labels and annotations, then the claim spec).
fn validate_ephemeral_volume_source(errs: &mut Vec<FieldError>, src: &Obj, path: &str) {
    let Some(t) = obj(src, "volumeClaimTemplate") else {
        required(errs, path, "volumeClaimTemplate");
        return;
    };
    let tpath = child(path, "volumeClaimTemplate");
    let meta_path = child(&tpath, "metadata");
    if let Some(meta) = obj(t, "metadata") {
        let annotations = obj(meta, "annotations")
            .map(|a| {
                a.iter()
                    .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string()))
                    .collect()
            })
            .unwrap_or_default();
        errs.extend(validate_annotations(
            &annotations,
            &child(&meta_path, "annotations"),
        ));
        let labels: crate::api::meta::Labels = obj(meta, "labels")
            .and_then(|l| crate::api::value_de::from_value(Value::Object(l.clone())).ok())
            .unwrap_or_default();
        errs.extend(validate_labels(&labels, &child(&meta_path, "labels")));
        for (member, reported) in TEMPLATE_META_FORBIDDEN {
            if meta.get(*member).is_some_and(|v| !is_zero(v)) {
                errs.push(FieldError::forbidden(
                    child(&meta_path, reported),
                    "cannot be set",
                ));
            }
        }
    }
    let spec: crate::api::core_more::PersistentVolumeClaimSpec = t
        .get("spec")
        .and_then(|v| crate::api::value_de::from_value(v.clone()).ok())
        .unwrap_or_default();
    errs.extend(
        crate::api::sts_ds_validation::validate_persistent_volume_claim_spec(
            &spec,
            &child(&tpath, "spec"),
        ),
    );
}

// ---------------------------------------------------------------------------------------------
// Downward API selectors
// ---------------------------------------------------------------------------------------------

/// `fieldpath.SplitMaybeSubscriptedPath`: `metadata.labels['key']` → (`metadata.labels`, `key`).
fn split_maybe_subscripted_path(field_path: &str) -> Option<(&str, &str)> {
    let s = field_path.strip_suffix("']")?;
    let (path, subscript) = s.split_once("['")?;
    if path.is_empty() {
        return None;
    }
    Some((path, subscript))
}

/// `podshelper.ConvertDownwardAPIFieldLabel`: the internal field path, or the conversion error.
fn convert_downward_api_field_label<'a>(version: &str, label: &'a str) -> Result<&'a str, String> {
    if version != "v1" {
        return Err(format!("unsupported pod version: {version}"));
    }
    if let Some((path, _)) = split_maybe_subscripted_path(label) {
        return match path {
            "metadata.annotations" | "metadata.labels" => Ok(label),
            _ => Err(format!("field label does not support subscript: {label}")),
        };
    }
    match label {
        "metadata.annotations"
        | "metadata.labels"
        | "metadata.name"
        | "metadata.namespace"
        | "metadata.uid"
        | "spec.nodeName"
        | "spec.restartPolicy"
        | "spec.serviceAccountName"
        | "spec.schedulerName"
        | "status.phase"
        | "status.hostIP"
        | "status.hostIPs"
        | "status.podIP"
        | "status.podIPs" => Ok(label),
        // Backwards compatibility with old v1 clients.
        "spec.host" => Ok("spec.nodeName"),
        _ => Err(format!("field label not supported: {label}")),
    }
}

/// `validateObjectFieldSelector`.
fn validate_object_field_selector(
    errs: &mut Vec<FieldError>,
    fs: &Obj,
    expressions: &[&str],
    path: &str,
) {
    let api_version = s(fs, "apiVersion");
    if api_version.is_empty() {
        required(errs, path, "apiVersion");
        return;
    }
    let field_path = s(fs, "fieldPath");
    if field_path.is_empty() {
        required(errs, path, "fieldPath");
        return;
    }
    let internal = match convert_downward_api_field_label(api_version, field_path) {
        Ok(p) => p,
        Err(e) => {
            errs.push(FieldError::invalid(
                child(path, "fieldPath"),
                field_path,
                format!("error converting fieldPath: {e}"),
            ));
            return;
        }
    };
    if let Some((p, subscript)) = split_maybe_subscripted_path(internal) {
        match p {
            "metadata.annotations" => {
                let lower = subscript.to_lowercase();
                for m in is_qualified_name(&lower) {
                    errs.push(FieldError::invalid(path, lower.as_str(), m));
                }
            }
            "metadata.labels" => {
                for m in is_qualified_name(subscript) {
                    errs.push(FieldError::invalid(path, subscript, m));
                }
            }
            _ => errs.push(FieldError::invalid(path, p, "does not support subscript")),
        }
    } else if !expressions.contains(&internal) {
        errs.push(FieldError::not_supported(
            child(path, "fieldPath"),
            internal,
            expressions,
        ));
    }
}

const CONTAINER_RESOURCE_FIELD_PATHS: &[&str] = &[
    "limits.cpu",
    "limits.ephemeral-storage",
    "limits.memory",
    "requests.cpu",
    "requests.ephemeral-storage",
    "requests.memory",
];

/// `validateContainerResourceFieldSelector` (hugepages allowed by prefix).
fn validate_container_resource_field_selector(
    errs: &mut Vec<FieldError>,
    fs: &Obj,
    path: &str,
    volume: bool,
) {
    let resource = s(fs, "resource");
    if volume && s(fs, "containerName").is_empty() {
        required(errs, path, "containerName");
    } else if resource.is_empty() {
        required(errs, path, "resource");
    } else if !CONTAINER_RESOURCE_FIELD_PATHS.contains(&resource)
        && !resource.starts_with("requests.hugepages-")
        && !resource.starts_with("limits.hugepages-")
    {
        errs.push(FieldError::not_supported(
            child(path, "resource"),
            resource,
            CONTAINER_RESOURCE_FIELD_PATHS,
        ));
    }
    validate_container_resource_divisor(errs, resource, get(fs, "divisor"), path);
}

/// `validateContainerResourceDivisor`: the divisor (canonical form) must be one of the units the
/// resource supports; an unset or zero divisor is fine.
fn validate_container_resource_divisor(
    errs: &mut Vec<FieldError>,
    resource: &str,
    divisor: Option<&Value>,
    path: &str,
) {
    let Some(divisor) = divisor else { return };
    let text = match divisor {
        Value::String(q) => q.trim().to_string(),
        Value::Number(n) => n.to_string(),
        _ => return,
    };
    let Ok(q) = parse_quantity(&text) else { return };
    if q.nanos == 0 {
        return;
    }
    let canonical = q.canonical();
    const BYTES: &[&str] = &[
        "1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei",
    ];
    let units = "1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei";
    let bad = |what: &str| {
        FieldError::invalid(
            child(path, "divisor"),
            resource,
            format!("only divisor's values {units} are supported with the {what}"),
        )
    };
    match resource {
        "limits.cpu" | "requests.cpu" if canonical != "1m" && canonical != "1" => {
            errs.push(FieldError::invalid(
                child(path, "divisor"),
                resource,
                "only divisor's values 1m and 1 are supported with the cpu resource",
            ));
        }
        "limits.memory" | "requests.memory" if !BYTES.contains(&canonical.as_str()) => {
            errs.push(bad("memory resource"));
        }
        "limits.ephemeral-storage" | "requests.ephemeral-storage"
            if !BYTES.contains(&canonical.as_str()) =>
        {
            errs.push(bad("local ephemeral storage resource"));
        }
        _ => {}
    }
    if (resource.starts_with("requests.hugepages-") || resource.starts_with("limits.hugepages-"))
        && !BYTES.contains(&canonical.as_str())
    {
        errs.push(bad("hugepages resource"));
    }
}

// ---------------------------------------------------------------------------------------------
// Env
// ---------------------------------------------------------------------------------------------

const ENV_DOWNWARD_API_FIELD_PATHS: &[&str] = &[
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
    "spec.nodeName",
    "spec.serviceAccountName",
    "status.hostIP",
    "status.hostIPs",
    "status.podIP",
    "status.podIPs",
];

/// `ValidateEnv` with `AllowRelaxedEnvironmentVariableValidation` (the
/// RelaxedEnvironmentVariableValidation gate is GA and locked on since 1.34).
pub(crate) fn validate_env(errs: &mut Vec<FieldError>, env: &[Value], path: &str) {
    for (i, ev) in env.iter().enumerate() {
        let Some(ev) = ev.as_object() else { continue };
        // The item's path is only built for an error or a valueFrom.
        let idx_path = || idx(path, i);
        let name = s(ev, "name");
        if name.is_empty() {
            required(errs, &idx_path(), "name");
        } else {
            for m in is_relaxed_env_var_name(name) {
                errs.push(FieldError::invalid(child(&idx_path(), "name"), name, m));
            }
        }
        if let Some(vf) = obj(ev, "valueFrom") {
            validate_env_var_value_from(errs, s(ev, "value"), vf, &child(&idx_path(), "valueFrom"));
        }
    }
}

/// `validateEnvVarValueFrom`.
fn validate_env_var_value_from(errs: &mut Vec<FieldError>, value: &str, vf: &Obj, path: &str) {
    let mut num = 0;
    if let Some(fs) = obj(vf, "fieldRef") {
        num += 1;
        validate_object_field_selector(
            errs,
            fs,
            ENV_DOWNWARD_API_FIELD_PATHS,
            &child(path, "fieldRef"),
        );
    }
    if let Some(rs) = obj(vf, "resourceFieldRef") {
        num += 1;
        validate_container_resource_field_selector(
            errs,
            rs,
            &child(path, "resourceFieldRef"),
            false,
        );
    }
    for kind in ["configMapKeyRef", "secretKeyRef"] {
        if let Some(sel) = obj(vf, kind) {
            num += 1;
            validate_key_selector(errs, sel, &child(path, kind));
        }
    }
    // EnvFiles (beta, on since 1.35): a fileKeyRef is a source. Its own rules (volumeName,
    // path, key) are not ported yet.
    if get(vf, "fileKeyRef").is_some() {
        num += 1;
    }
    if num == 0 {
        errs.push(FieldError::invalid(
            path,
            "",
            "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`",
        ));
    } else if !value.is_empty() {
        errs.push(FieldError::invalid(
            path,
            "",
            "may not be specified when `value` is not empty",
        ));
    } else if num > 1 {
        errs.push(FieldError::invalid(
            path,
            "",
            "may not have more than one field specified at a time",
        ));
    }
}

/// `validateConfigMapKeySelector` / `validateSecretKeySelector` (the name is checked even when
/// empty, as upstream does).
fn validate_key_selector(errs: &mut Vec<FieldError>, sel: &Obj, path: &str) {
    let name = s(sel, "name");
    for m in name_is_dns_subdomain(name, false) {
        errs.push(FieldError::invalid(child(path, "name"), name, m));
    }
    let k = s(sel, "key");
    if k.is_empty() {
        required(errs, path, "key");
    } else {
        for m in is_config_map_key(k) {
            errs.push(FieldError::invalid(child(path, "key"), k, m));
        }
    }
}

/// `ValidateEnvFrom` (relaxed prefixes, see [`validate_env`]).
pub(crate) fn validate_env_from(errs: &mut Vec<FieldError>, env_from: &[Value], path: &str) {
    for (i, ev) in env_from.iter().enumerate() {
        let Some(ev) = ev.as_object() else { continue };
        let idx_path = idx(path, i);
        let prefix = s(ev, "prefix");
        if !prefix.is_empty() {
            for m in is_relaxed_env_var_name(prefix) {
                errs.push(FieldError::invalid(child(&idx_path, "prefix"), prefix, m));
            }
        }
        let mut num = 0;
        for kind in ["configMapRef", "secretRef"] {
            let Some(r) = obj(ev, kind) else { continue };
            num += 1;
            let p = child(&idx_path, kind);
            let name = s(r, "name");
            if name.is_empty() {
                required(errs, &p, "name");
            } else {
                for m in name_is_dns_subdomain(name, true) {
                    errs.push(FieldError::invalid(child(&p, "name"), name, m));
                }
            }
        }
        // Upstream reports these on the list's path, not on the item's.
        if num == 0 {
            errs.push(FieldError::invalid(
                path,
                "",
                "must specify one of: `configMapRef` or `secretRef`",
            ));
        } else if num > 1 {
            errs.push(FieldError::invalid(
                path,
                "",
                "may not have more than one field specified at a time",
            ));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Volume mounts and devices
// ---------------------------------------------------------------------------------------------

fn is_pvc_source(src: &Obj) -> bool {
    get(src, "persistentVolumeClaim").is_some() || get(src, "ephemeral").is_some()
}

/// `ValidateVolumeMounts`. Several rules report on the list's path (`volumeMounts.subPath`,
/// `volumeMounts.mountPropagation`, ...) rather than the mount's, as upstream does.
pub(crate) fn validate_volume_mounts(
    errs: &mut Vec<FieldError>,
    mounts: &[Value],
    c: &Container,
    ctx: &PodVolumesCtx<'_>,
    path: &str,
) {
    let devices = arr(&c.extra, "volumeDevices");
    let mut mount_points: BTreeSet<&str> = BTreeSet::new();
    for (i, mnt) in mounts.iter().enumerate() {
        let Some(mnt) = mnt.as_object() else { continue };
        // The mount's path is only built for an error.
        let idx_path = || idx(path, i);
        let name = s(mnt, "name");
        let mount_path = s(mnt, "mountPath");
        if name.is_empty() {
            required(errs, &idx_path(), "name");
        }
        let vol = ctx.volume(name);
        if vol.is_none() {
            errs.push(FieldError::not_found(child(&idx_path(), "name"), name));
        }
        if mount_path.is_empty() {
            required(errs, &idx_path(), "mountPath");
        }
        if !mount_points.insert(mount_path) {
            errs.push(FieldError::invalid(
                child(&idx_path(), "mountPath"),
                mount_path,
                "must be unique",
            ));
        }
        let device = |k: &str, v: &str| {
            devices
                .iter()
                .filter_map(Value::as_object)
                .any(|d| s(d, k) == v)
        };
        if device("name", name) {
            errs.push(FieldError::invalid(
                child(&idx_path(), "name"),
                name,
                "must not already exist in volumeDevices",
            ));
        }
        if device("devicePath", mount_path) {
            errs.push(FieldError::invalid(
                child(&idx_path(), "mountPath"),
                mount_path,
                "must not already exist as a path in volumeDevices",
            ));
        }
        let sub_path = s(mnt, "subPath");
        let sub_path_expr = s(mnt, "subPathExpr");
        if vol.is_some_and(|v| get(v, "image").is_some()) {
            if !sub_path.is_empty() {
                errs.push(FieldError::invalid(
                    child(&idx_path(), "subPath"),
                    sub_path,
                    "not allowed in image volume sources",
                ));
            }
            if !sub_path_expr.is_empty() {
                errs.push(FieldError::invalid(
                    child(&idx_path(), "subPathExpr"),
                    sub_path_expr,
                    "not allowed in image volume sources",
                ));
            }
        }
        if !sub_path.is_empty() {
            validate_local_descending_path(errs, sub_path, &child(path, "subPath"));
        }
        if !sub_path_expr.is_empty() {
            if !sub_path.is_empty() {
                errs.push(FieldError::invalid(
                    child(&idx_path(), "subPathExpr"),
                    sub_path_expr,
                    "subPathExpr and subPath are mutually exclusive",
                ));
            }
            validate_local_descending_path(errs, sub_path_expr, &child(path, "subPathExpr"));
        }
        let propagation = get(mnt, "mountPropagation").and_then(Value::as_str);
        if let Some(p) = propagation {
            validate_mount_propagation(errs, p, c, &child(path, "mountPropagation"));
        }
        if let Some(rro) = get(mnt, "recursiveReadOnly").and_then(Value::as_str) {
            let rpath = child(path, "recursiveReadOnly");
            match rro {
                "Disabled" => {}
                "Enabled" | "IfPossible" => {
                    if mnt.get("readOnly").and_then(Value::as_bool) != Some(true) {
                        errs.push(FieldError::forbidden(
                            rpath.as_str(),
                            "may only be specified when readOnly is true",
                        ));
                    }
                    if propagation.is_some_and(|p| p != "None") {
                        errs.push(FieldError::forbidden(
                            rpath,
                            "may only be specified when mountPropagation is None or not specified",
                        ));
                    }
                }
                other => errs.push(FieldError::not_supported(
                    rpath,
                    other,
                    &["Disabled", "Enabled", "IfPossible"],
                )),
            }
        }
    }
}

/// `validateMountPropagation` (the container is known: pod validation).
fn validate_mount_propagation(errs: &mut Vec<FieldError>, p: &str, c: &Container, path: &str) {
    if !matches!(p, "Bidirectional" | "HostToContainer" | "None") {
        errs.push(FieldError::not_supported(
            path,
            p,
            &["Bidirectional", "HostToContainer", "None"],
        ));
    }
    let privileged = obj(&c.extra, "securityContext")
        .and_then(|sc| sc.get("privileged"))
        .and_then(Value::as_bool)
        == Some(true);
    if p == "Bidirectional" && !privileged {
        errs.push(FieldError::forbidden(
            path,
            "Bidirectional mount propagation is available only to privileged containers",
        ));
    }
}

/// `ValidateVolumeDevices`.
pub(crate) fn validate_volume_devices(
    errs: &mut Vec<FieldError>,
    devices: &[Value],
    c: &Container,
    ctx: &PodVolumesCtx<'_>,
    path: &str,
) {
    let mounts = arr(&c.extra, "volumeMounts");
    let mut device_paths: BTreeSet<&str> = BTreeSet::new();
    let mut device_names: BTreeSet<&str> = BTreeSet::new();
    for (i, dev) in devices.iter().enumerate() {
        let Some(dev) = dev.as_object() else { continue };
        let idx_path = idx(path, i);
        let name = s(dev, "name");
        let dev_path = s(dev, "devicePath");
        let vol = ctx.volume(name);
        if name.is_empty() {
            required(errs, &idx_path, "name");
        }
        if device_names.contains(name) {
            errs.push(FieldError::invalid(
                child(&idx_path, "name"),
                name,
                "must be unique",
            ));
        }
        match vol {
            Some(v) if !is_pvc_source(v) => errs.push(FieldError::invalid(
                child(&idx_path, "name"),
                name,
                "can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode",
            )),
            Some(_) => {}
            None => errs.push(FieldError::not_found(child(&idx_path, "name"), name)),
        }
        if dev_path.is_empty() {
            required(errs, &idx_path, "devicePath");
        }
        if device_paths.contains(dev_path) {
            errs.push(FieldError::invalid(
                child(&idx_path, "devicePath"),
                dev_path,
                "must be unique",
            ));
        }
        if !dev_path.is_empty() && dev_path.split('/').any(|p| p == "..") {
            errs.push(FieldError::invalid(
                child(&idx_path, "devicePath"),
                dev_path,
                "can not contain backsteps ('..')",
            ));
        } else {
            device_paths.insert(dev_path);
        }
        let mount = |k: &str, v: &str| {
            mounts
                .iter()
                .filter_map(Value::as_object)
                .any(|m| s(m, k) == v)
        };
        if mount("name", name) {
            errs.push(FieldError::invalid(
                child(&idx_path, "name"),
                name,
                "must not already exist in volumeMounts",
            ));
        }
        if mount("mountPath", dev_path) {
            errs.push(FieldError::invalid(
                child(&idx_path, "devicePath"),
                dev_path,
                "must not already exist as a path in volumeMounts",
            ));
        }
        if !name.is_empty() {
            device_names.insert(name);
        }
    }
}

/// The env, envFrom, volumeMounts and volumeDevices rules of `validateContainerCommon`, in
/// upstream's order (they come right after the ports).
pub(crate) fn validate_container_env_and_mounts(
    errs: &mut Vec<FieldError>,
    c: &Container,
    ctx: &PodVolumesCtx<'_>,
    path: &str,
) {
    // One pass over the container's verbatim members instead of a look-up per field: a
    // container without any of them pays a short iteration and nothing else.
    let (mut env, mut env_from, mut mounts, mut devices) = (None, None, None, None);
    for (k, v) in &c.extra {
        match k.as_str() {
            "env" => env = v.as_array(),
            "envFrom" => env_from = v.as_array(),
            "volumeMounts" => mounts = v.as_array(),
            "volumeDevices" => devices = v.as_array(),
            _ => {}
        }
    }
    if let Some(env) = env.filter(|a| !a.is_empty()) {
        validate_env(errs, env, &child(path, "env"));
    }
    if let Some(env_from) = env_from.filter(|a| !a.is_empty()) {
        validate_env_from(errs, env_from, &child(path, "envFrom"));
    }
    if let Some(mounts) = mounts.filter(|a| !a.is_empty()) {
        validate_volume_mounts(errs, mounts, c, ctx, &child(path, "volumeMounts"));
    }
    if let Some(devices) = devices.filter(|a| !a.is_empty()) {
        validate_volume_devices(errs, devices, c, ctx, &child(path, "volumeDevices"));
    }
}

// ---------------------------------------------------------------------------------------------
// Probes and lifecycle handlers
// ---------------------------------------------------------------------------------------------

/// `ValidatePortNumOrName` on an `IntOrString` kept as JSON (absent is the zero int).
fn validate_port_num_or_name(errs: &mut Vec<FieldError>, port: Option<&Value>, path: &str) {
    match port {
        Some(Value::String(name)) => {
            for m in is_valid_port_name(name) {
                errs.push(FieldError::invalid(path, name.as_str(), m));
            }
        }
        other => {
            let n = other.and_then(Value::as_i64).unwrap_or(0);
            for m in is_valid_port_num(n) {
                errs.push(FieldError::invalid(path, n, m));
            }
        }
    }
}

/// Which actions a handler may hold: probes (`ProbeHandler`) or lifecycle hooks
/// (`LifecycleHandler`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum HandlerKind {
    Probe,
    Lifecycle,
}

/// `validateHandler` over `handlerFromProbe` / `handlerFromLifecycle`.
pub(crate) fn validate_handler(
    errs: &mut Vec<FieldError>,
    h: &Obj,
    kind: HandlerKind,
    grace_period: Option<i64>,
    path: &str,
) {
    let mut num = 0;
    let actions: &[&str] = match kind {
        HandlerKind::Probe => &["exec", "httpGet", "tcpSocket", "grpc"],
        HandlerKind::Lifecycle => &["exec", "httpGet", "tcpSocket", "sleep"],
    };
    for &action in actions {
        let Some(a) = get(h, action) else { continue };
        let p = child(path, action);
        if num > 0 {
            errs.push(FieldError::forbidden(
                p,
                "may not specify more than 1 handler type",
            ));
            continue;
        }
        num += 1;
        let empty = Map::new();
        let a = a.as_object().unwrap_or(&empty);
        match action {
            "exec" => {
                if arr(a, "command").is_empty() {
                    required(errs, &p, "command");
                }
            }
            "httpGet" => {
                if s(a, "path").is_empty() {
                    required(errs, &p, "path");
                }
                validate_port_num_or_name(errs, get(a, "port"), &child(&p, "port"));
                let scheme = s(a, "scheme");
                if scheme != "HTTP" && scheme != "HTTPS" {
                    errs.push(FieldError::not_supported(
                        child(&p, "scheme"),
                        scheme,
                        &["HTTP", "HTTPS"],
                    ));
                }
                for (_, header) in objs(a, "httpHeaders") {
                    let name = s(header, "name");
                    for m in is_http_header_name(name) {
                        errs.push(FieldError::invalid(child(&p, "httpHeaders"), name, m));
                    }
                }
            }
            "tcpSocket" => validate_port_num_or_name(errs, get(a, "port"), &child(&p, "port")),
            "grpc" => {
                let port = get(a, "port").and_then(Value::as_i64).unwrap_or(0);
                for m in is_valid_port_num(port) {
                    errs.push(FieldError::invalid(child(&p, "port"), port, m));
                }
            }
            // validateSleepAction with PodLifecycleSleepActionAllowZero (GA since 1.34).
            _ => {
                let secs = int(a, "seconds").unwrap_or(0);
                if let Some(grace) = grace_period {
                    if secs < 0 || secs > grace {
                        errs.push(FieldError::invalid(
                            p,
                            secs,
                            format!(
                                "must be non-negative and less than terminationGracePeriodSeconds ({grace})"
                            ),
                        ));
                    }
                }
            }
        }
    }
    if num == 0 {
        errs.push(FieldError::required(path, "must specify a handler type"));
    }
}

/// `validateProbe`: one handler, non-negative timings, a positive probe-level grace period.
pub(crate) fn validate_probe(
    errs: &mut Vec<FieldError>,
    probe: &Obj,
    grace_period: Option<i64>,
    path: &str,
) {
    validate_handler(errs, probe, HandlerKind::Probe, grace_period, path);
    for k in [
        "initialDelaySeconds",
        "timeoutSeconds",
        "periodSeconds",
        "successThreshold",
        "failureThreshold",
    ] {
        let v = int(probe, k).unwrap_or(0);
        if v < 0 {
            errs.extend(validate_nonnegative_field(v, &child(path, k)));
        }
    }
    if let Some(t) = int(probe, "terminationGracePeriodSeconds") {
        if t <= 0 {
            errs.push(FieldError::invalid(
                child(path, "terminationGracePeriodSeconds"),
                t,
                "must be greater than 0",
            ));
        }
    }
}

/// `validateLivenessProbe`, `validateReadinessProbe` and `validateStartupProbe` for one container
/// (regular, or an init container with `restartPolicy: Always`), then `validateLifecycle`:
/// upstream checks the lifecycle first.
pub(crate) fn validate_probes_and_lifecycle(
    errs: &mut Vec<FieldError>,
    c: &Container,
    grace_period: Option<i64>,
    path: &str,
) {
    // One pass over the container's verbatim members (see validate_container_env_and_mounts).
    let mut probes: [Option<&Obj>; 3] = [None; 3];
    let mut lifecycle = None;
    for (k, v) in &c.extra {
        match k.as_str() {
            "lifecycle" => lifecycle = v.as_object(),
            "livenessProbe" => probes[0] = v.as_object(),
            "readinessProbe" => probes[1] = v.as_object(),
            "startupProbe" => probes[2] = v.as_object(),
            _ => {}
        }
    }
    if let Some(l) = lifecycle {
        let lpath = child(path, "lifecycle");
        for hook in ["postStart", "preStop"] {
            if let Some(h) = obj(l, hook) {
                validate_handler(
                    errs,
                    h,
                    HandlerKind::Lifecycle,
                    grace_period,
                    &child(&lpath, hook),
                );
            }
        }
    }
    for ((k, success_must_be_one), probe) in [
        ("livenessProbe", true),
        ("readinessProbe", false),
        ("startupProbe", true),
    ]
    .into_iter()
    .zip(probes)
    {
        let Some(p) = probe else { continue };
        let ppath = child(path, k);
        validate_probe(errs, p, grace_period, &ppath);
        if success_must_be_one {
            let st = int(p, "successThreshold").unwrap_or(0);
            if st != 1 {
                errs.push(FieldError::invalid(
                    child(&ppath, "successThreshold"),
                    st,
                    "must be 1",
                ));
            }
        } else if let Some(t) = int(p, "terminationGracePeriodSeconds") {
            errs.push(FieldError::invalid(
                child(&ppath, "terminationGracePeriodSeconds"),
                t,
                "must not be set for readinessProbes",
            ));
        }
    }
}
