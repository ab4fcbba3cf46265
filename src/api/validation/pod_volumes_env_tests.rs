//! Ports of upstream tables for volumes, volume mounts and devices, env, envFrom and probes
//! (`pkg/apis/core/validation/validation_test.go`). Rows keep upstream's names; expected types,
//! fields and details are upstream's. Volumes are written as the JSON kubeplay keeps them.

use super::pod_volumes_env::{
    validate_env, validate_env_from, validate_handler, validate_key_to_path, validate_probe,
    validate_volume_devices, validate_volume_mounts, validate_volumes, HandlerKind, PodVolumesCtx,
};
use crate::api::core::Container;
use crate::api::errors::{FieldError, FieldErrorType};
use serde_json::{json, Map, Value};

/// `defaultGracePeriod` of the upstream tests.
const DEFAULT_GRACE_PERIOD: Option<i64> = Some(30);

const DNS_LABEL_ERR_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS_SUBDOMAIN_LABEL_ERR_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const RELAXED_ENV_VAR_NAME_FMT_ERR_MSG: &str =
    "a valid environment variable name must consist only of printable ASCII characters other than '='";

fn kind(e: &FieldError) -> &'static str {
    match e.type_ {
        FieldErrorType::Required => "Required",
        FieldErrorType::Invalid => "Invalid",
        FieldErrorType::Unsupported(_) => "NotSupported",
        FieldErrorType::Forbidden => "Forbidden",
        FieldErrorType::Duplicate => "Duplicate",
        FieldErrorType::TooLong(_) => "TooLong",
        FieldErrorType::TooMany(_) => "TooMany",
        FieldErrorType::NotFound => "NotFound",
        FieldErrorType::Internal => "Internal",
    }
}

fn obj(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => panic!("not an object"),
    }
}

fn run_volumes(vols: &Value, resource_is_pod: bool) -> Vec<FieldError> {
    validate_volumes(Some(vols), None, "field", resource_is_pod).1
}

/// TestValidateVolumes: one volume per row; the errors' types, fields (exact, or a `.`-suffix)
/// and details (substring).
#[test]
fn test_validate_volumes() {
    type Row = (
        &'static str,
        Value,
        bool,
        Vec<(&'static str, &'static str, String)>,
    );
    let e = |t: &'static str, f: &'static str, d: &str| (t, f, d.to_string());
    let rows: Vec<Row> = vec![
        (
            "valid alpha name",
            json!({"name": "empty", "emptyDir": {}}),
            false,
            vec![],
        ),
        (
            "valid num name",
            json!({"name": "123", "emptyDir": {}}),
            false,
            vec![],
        ),
        (
            "valid alphanum name",
            json!({"name": "empty-123", "emptyDir": {}}),
            false,
            vec![],
        ),
        (
            "valid numalpha name",
            json!({"name": "123-empty", "emptyDir": {}}),
            false,
            vec![],
        ),
        (
            "zero-length name",
            json!({"name": "", "emptyDir": {}}),
            false,
            vec![e("Required", "name", "")],
        ),
        (
            "name > 63 characters",
            json!({"name": "a".repeat(64), "emptyDir": {}}),
            false,
            vec![e("Invalid", "name", "must be no more than")],
        ),
        (
            "name has dots",
            json!({"name": "a.b.c", "emptyDir": {}}),
            false,
            vec![e("Invalid", "name", "must not contain dots")],
        ),
        (
            "name not a DNS label",
            json!({"name": "Not a DNS label!", "emptyDir": {}}),
            false,
            vec![e("Invalid", "name", DNS_LABEL_ERR_MSG)],
        ),
        (
            "more than one source",
            json!({"name": "dups", "emptyDir": {}, "hostPath": {"path": "/mnt/path", "type": "Directory"}}),
            false,
            vec![e(
                "Forbidden",
                "hostPath",
                "may not specify more than 1 volume",
            )],
        ),
        (
            "default HostPath",
            json!({"name": "hostpath", "hostPath": {"path": "/mnt/path", "type": "Directory"}}),
            false,
            vec![],
        ),
        (
            "valid HostPath",
            json!({"name": "hostpath", "hostPath": {"path": "/mnt/path", "type": "Socket"}}),
            false,
            vec![],
        ),
        (
            "invalid HostPath",
            json!({"name": "hostpath", "hostPath": {"path": "/mnt/path", "type": "invalid"}}),
            false,
            vec![e("NotSupported", "type", "")],
        ),
        (
            "invalid HostPath backsteps",
            json!({"name": "hostpath", "hostPath": {"path": "/mnt/path/..", "type": "Directory"}}),
            false,
            vec![e("Invalid", "path", "must not contain '..'")],
        ),
        (
            "valid GcePersistentDisk",
            json!({"name": "gce-pd", "gcePersistentDisk": {"pdName": "my-PD", "fsType": "ext4", "partition": 1, "readOnly": false}}),
            false,
            vec![],
        ),
        (
            "valid AWSElasticBlockStore",
            json!({"name": "aws-ebs", "awsElasticBlockStore": {"volumeID": "my-PD", "fsType": "ext4", "partition": 1, "readOnly": false}}),
            false,
            vec![],
        ),
        (
            "valid GitRepo",
            json!({"name": "git-repo", "gitRepo": {"repository": "my-repo", "revision": "hashstring", "directory": "target"}}),
            false,
            vec![],
        ),
        (
            "valid GitRepo in .",
            json!({"name": "git-repo-dot", "gitRepo": {"repository": "my-repo", "directory": "."}}),
            false,
            vec![],
        ),
        (
            "valid GitRepo with .. in name",
            json!({"name": "git-repo-dot-dot-foo", "gitRepo": {"repository": "my-repo", "directory": "..foo"}}),
            false,
            vec![],
        ),
        (
            "GitRepo starts with ../",
            json!({"name": "gitrepo", "gitRepo": {"repository": "foo", "directory": "../dots/bar"}}),
            false,
            vec![e("Invalid", "gitRepo.directory", "must not contain '..'")],
        ),
        (
            "GitRepo contains ..",
            json!({"name": "gitrepo", "gitRepo": {"repository": "foo", "directory": "dots/../bar"}}),
            false,
            vec![e("Invalid", "gitRepo.directory", "must not contain '..'")],
        ),
        (
            "GitRepo absolute target",
            json!({"name": "gitrepo", "gitRepo": {"repository": "foo", "directory": "/abstarget"}}),
            false,
            vec![e("Invalid", "gitRepo.directory", "")],
        ),
        (
            "valid ISCSI",
            json!({"name": "iscsi", "iscsi": {"targetPortal": "127.0.0.1", "iqn": "iqn.2015-02.example.com:test", "lun": 1, "fsType": "ext4", "readOnly": false}}),
            false,
            vec![],
        ),
        (
            "valid IQN: eui format",
            json!({"name": "iscsi", "iscsi": {"targetPortal": "127.0.0.1", "iqn": "eui.0123456789ABCDEF", "lun": 1, "fsType": "ext4"}}),
            false,
            vec![],
        ),
        (
            "valid IQN: naa format",
            json!({"name": "iscsi", "iscsi": {"targetPortal": "127.0.0.1", "iqn": "naa.62004567BA64678D0123456789ABCDEF", "lun": 1, "fsType": "ext4"}}),
            false,
            vec![],
        ),
        (
            "empty portal",
            json!({"name": "iscsi", "iscsi": {"targetPortal": "", "iqn": "iqn.2015-02.example.com:test", "lun": 1, "fsType": "ext4"}}),
            false,
            vec![e("Required", "iscsi.targetPortal", "")],
        ),
        (
            "empty iqn",
            json!({"name": "iscsi", "iscsi": {"targetPortal": "127.0.0.1", "iqn": "", "lun": 1, "fsType": "ext4"}}),
            false,
            vec![e("Required", "iscsi.iqn", "")],
        ),
        (
            "invalid IQN: iqn format",
            json!({"name": "iscsi", "iscsi": {"targetPortal": "127.0.0.1", "iqn": "iqn.2015-02.example.com:test;ls;", "lun": 1, "fsType": "ext4"}}),
            false,
            vec![e("Invalid", "iscsi.iqn", "")],
        ),
        (
            "invalid IQN: eui format",
            json!({"name": "iscsi", "iscsi": {"targetPortal": "127.0.0.1", "iqn": "eui.0123456789ABCDEFGHIJ", "lun": 1, "fsType": "ext4"}}),
            false,
            vec![e("Invalid", "iscsi.iqn", "")],
        ),
        (
            "invalid IQN: naa format",
            json!({"name": "iscsi", "iscsi": {"targetPortal": "127.0.0.1", "iqn": "naa.62004567BA_4-78D.123456789ABCDEF", "lun": 1, "fsType": "ext4"}}),
            false,
            vec![e("Invalid", "iscsi.iqn", "")],
        ),
        (
            "valid initiatorName",
            json!({"name": "iscsi", "iscsi": {"targetPortal": "127.0.0.1", "iqn": "iqn.2015-02.example.com:test", "lun": 1, "initiatorName": "iqn.2015-02.example.com:init", "fsType": "ext4"}}),
            false,
            vec![],
        ),
        (
            "invalid initiatorName",
            json!({"name": "iscsi", "iscsi": {"targetPortal": "127.0.0.1", "iqn": "iqn.2015-02.example.com:test", "lun": 1, "initiatorName": "2015-02.example.com:init", "fsType": "ext4"}}),
            false,
            vec![e("Invalid", "iscsi.initiatorname", "")],
        ),
        (
            "empty secret",
            json!({"name": "iscsi", "iscsi": {"targetPortal": "127.0.0.1", "iqn": "iqn.2015-02.example.com:test", "lun": 1, "fsType": "ext4", "discoveryCHAPAuth": true}}),
            false,
            vec![e("Required", "iscsi.secretRef", "")],
        ),
        (
            "empty secret",
            json!({"name": "iscsi", "iscsi": {"targetPortal": "127.0.0.1", "iqn": "iqn.2015-02.example.com:test", "lun": 1, "fsType": "ext4", "sessionCHAPAuth": true}}),
            false,
            vec![e("Required", "iscsi.secretRef", "")],
        ),
        (
            "valid Secret",
            json!({"name": "secret", "secret": {"secretName": "my-secret"}}),
            false,
            vec![],
        ),
        (
            "valid Secret with defaultMode",
            json!({"name": "secret", "secret": {"secretName": "my-secret", "defaultMode": 0o644}}),
            false,
            vec![],
        ),
        (
            "valid Secret with projection and mode",
            json!({"name": "secret", "secret": {"secretName": "my-secret", "items": [{"key": "key", "path": "filename", "mode": 0o644}]}}),
            false,
            vec![],
        ),
        (
            "valid Secret with subdir projection",
            json!({"name": "secret", "secret": {"secretName": "my-secret", "items": [{"key": "key", "path": "dir/filename"}]}}),
            false,
            vec![],
        ),
        (
            "secret with missing path",
            json!({"name": "secret", "secret": {"secretName": "s", "items": [{"key": "key", "path": ""}]}}),
            false,
            vec![e("Required", "secret.items[0].path", "")],
        ),
        (
            "secret with leading ..",
            json!({"name": "secret", "secret": {"secretName": "s", "items": [{"key": "key", "path": "../foo"}]}}),
            false,
            vec![e("Invalid", "secret.items[0].path", "")],
        ),
        (
            "secret with .. inside",
            json!({"name": "secret", "secret": {"secretName": "s", "items": [{"key": "key", "path": "foo/../bar"}]}}),
            false,
            vec![e("Invalid", "secret.items[0].path", "")],
        ),
        (
            "secret with invalid positive defaultMode",
            json!({"name": "secret", "secret": {"secretName": "s", "defaultMode": 0o1000}}),
            false,
            vec![e("Invalid", "secret.defaultMode", "")],
        ),
        (
            "secret with invalid negative defaultMode",
            json!({"name": "secret", "secret": {"secretName": "s", "defaultMode": -1}}),
            false,
            vec![e("Invalid", "secret.defaultMode", "")],
        ),
        (
            "valid ConfigMap",
            json!({"name": "cfgmap", "configMap": {"name": "my-cfgmap"}}),
            false,
            vec![],
        ),
        (
            "valid ConfigMap with defaultMode",
            json!({"name": "cfgmap", "configMap": {"name": "my-cfgmap", "defaultMode": 0o644}}),
            false,
            vec![],
        ),
        (
            "valid ConfigMap with projection and mode",
            json!({"name": "cfgmap", "configMap": {"name": "my-cfgmap", "items": [{"key": "key", "path": "filename", "mode": 0o644}]}}),
            false,
            vec![],
        ),
        (
            "valid ConfigMap with subdir projection",
            json!({"name": "cfgmap", "configMap": {"name": "my-cfgmap", "items": [{"key": "key", "path": "dir/filename"}]}}),
            false,
            vec![],
        ),
        (
            "configmap with missing path",
            json!({"name": "cfgmap", "configMap": {"name": "c", "items": [{"key": "key", "path": ""}]}}),
            false,
            vec![e("Required", "configMap.items[0].path", "")],
        ),
        (
            "configmap with leading ..",
            json!({"name": "cfgmap", "configMap": {"name": "c", "items": [{"key": "key", "path": "../foo"}]}}),
            false,
            vec![e("Invalid", "configMap.items[0].path", "")],
        ),
        (
            "configmap with .. inside",
            json!({"name": "cfgmap", "configMap": {"name": "c", "items": [{"key": "key", "path": "foo/../bar"}]}}),
            false,
            vec![e("Invalid", "configMap.items[0].path", "")],
        ),
        (
            "configmap with invalid positive defaultMode",
            json!({"name": "cfgmap", "configMap": {"name": "c", "defaultMode": 0o1000}}),
            false,
            vec![e("Invalid", "configMap.defaultMode", "")],
        ),
        (
            "configmap with invalid negative defaultMode",
            json!({"name": "cfgmap", "configMap": {"name": "c", "defaultMode": -1}}),
            false,
            vec![e("Invalid", "configMap.defaultMode", "")],
        ),
        (
            "valid Glusterfs",
            json!({"name": "glusterfs", "glusterfs": {"endpoints": "host1", "path": "path"}}),
            false,
            vec![],
        ),
        (
            "empty hosts",
            json!({"name": "glusterfs", "glusterfs": {"endpoints": "", "path": "path"}}),
            false,
            vec![e("Required", "glusterfs.endpoints", "")],
        ),
        (
            "empty path",
            json!({"name": "glusterfs", "glusterfs": {"endpoints": "host", "path": ""}}),
            false,
            vec![e("Required", "glusterfs.path", "")],
        ),
        (
            "valid Flocker -- datasetUUID",
            json!({"name": "flocker", "flocker": {"datasetUUID": "d846b09d-223d-43df-ab5b-d6db2206a0e4"}}),
            false,
            vec![],
        ),
        (
            "valid Flocker -- datasetName",
            json!({"name": "flocker", "flocker": {"datasetName": "datasetName"}}),
            false,
            vec![],
        ),
        (
            "both empty",
            json!({"name": "flocker", "flocker": {"datasetName": ""}}),
            false,
            vec![e("Required", "flocker", "")],
        ),
        (
            "both specified",
            json!({"name": "flocker", "flocker": {"datasetName": "datasetName", "datasetUUID": "d846b09d-223d-43df-ab5b-d6db2206a0e4"}}),
            false,
            vec![e("Invalid", "flocker", "")],
        ),
        (
            "slash in flocker datasetName",
            json!({"name": "flocker", "flocker": {"datasetName": "foo/bar"}}),
            false,
            vec![e("Invalid", "flocker.datasetName", "must not contain '/'")],
        ),
        (
            "valid RBD",
            json!({"name": "rbd", "rbd": {"monitors": ["foo"], "image": "bar", "fsType": "ext4"}}),
            false,
            vec![],
        ),
        (
            "empty rbd monitors",
            json!({"name": "rbd", "rbd": {"monitors": [], "image": "bar", "fsType": "ext4"}}),
            false,
            vec![e("Required", "rbd.monitors", "")],
        ),
        (
            "empty image",
            json!({"name": "rbd", "rbd": {"monitors": ["foo"], "image": "", "fsType": "ext4"}}),
            false,
            vec![e("Required", "rbd.image", "")],
        ),
        (
            "valid Cinder",
            json!({"name": "cinder", "cinder": {"volumeID": "29ea5088-4f60-4757-962e-dba678767887", "fsType": "ext4"}}),
            false,
            vec![],
        ),
        (
            "valid CephFS",
            json!({"name": "cephfs", "cephfs": {"monitors": ["foo"]}}),
            false,
            vec![],
        ),
        (
            "empty cephfs monitors",
            json!({"name": "cephfs", "cephfs": {"monitors": []}}),
            false,
            vec![e("Required", "cephfs.monitors", "")],
        ),
        (
            "valid DownwardAPI",
            json!({"name": "downwardapi", "downwardAPI": {"items": [
                {"path": "labels", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels"}},
                {"path": "labels with subscript", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels['key']"}},
                {"path": "labels with complex subscript", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels['test.example.com/key']"}},
                {"path": "annotations", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.annotations"}},
                {"path": "annotations with subscript", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.annotations['key']"}},
                {"path": "annotations with complex subscript", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.annotations['TEST.EXAMPLE.COM/key']"}},
                {"path": "namespace", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}},
                {"path": "name", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}},
                {"path": "path/with/subdirs", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels"}},
                {"path": "path/./withdot", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels"}},
                {"path": "path/with/embedded..dotdot", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels"}},
                {"path": "path/with/leading/..dotdot", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels"}},
                {"path": "cpu_limit", "resourceFieldRef": {"containerName": "test-container", "resource": "limits.cpu"}},
                {"path": "cpu_request", "resourceFieldRef": {"containerName": "test-container", "resource": "requests.cpu"}},
                {"path": "memory_limit", "resourceFieldRef": {"containerName": "test-container", "resource": "limits.memory"}},
                {"path": "memory_request", "resourceFieldRef": {"containerName": "test-container", "resource": "requests.memory"}}
            ]}}),
            false,
            vec![],
        ),
        (
            "hugepages-downwardAPI-enabled",
            json!({"name": "downwardapi", "downwardAPI": {"items": [
                {"path": "hugepages_request", "resourceFieldRef": {"containerName": "test-container", "resource": "requests.hugepages-2Mi"}},
                {"path": "hugepages_limit", "resourceFieldRef": {"containerName": "test-container", "resource": "limits.hugepages-2Mi"}}
            ]}}),
            false,
            vec![],
        ),
        (
            "downapi valid defaultMode",
            json!({"name": "downapi", "downwardAPI": {"defaultMode": 0o644}}),
            false,
            vec![],
        ),
        (
            "downapi valid item mode",
            json!({"name": "downapi", "downwardAPI": {"items": [{"mode": 0o644, "path": "path", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels"}}]}}),
            false,
            vec![],
        ),
        (
            "downapi invalid positive item mode",
            json!({"name": "downapi", "downwardAPI": {"items": [{"mode": 0o1000, "path": "path", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels"}}]}}),
            false,
            vec![e("Invalid", "downwardAPI.mode", "")],
        ),
        (
            "downapi invalid negative item mode",
            json!({"name": "downapi", "downwardAPI": {"items": [{"mode": -1, "path": "path", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels"}}]}}),
            false,
            vec![e("Invalid", "downwardAPI.mode", "")],
        ),
        (
            "downapi empty metatada path",
            json!({"name": "downapi", "downwardAPI": {"items": [{"path": "", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels"}}]}}),
            false,
            vec![e("Required", "downwardAPI.path", "")],
        ),
        (
            "downapi absolute path",
            json!({"name": "downapi", "downwardAPI": {"items": [{"path": "/absolutepath", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels"}}]}}),
            false,
            vec![e("Invalid", "downwardAPI.path", "")],
        ),
        (
            "downapi dot dot path",
            json!({"name": "downapi", "downwardAPI": {"items": [{"path": "../../passwd", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels"}}]}}),
            false,
            vec![e("Invalid", "downwardAPI.path", "must not contain '..'")],
        ),
        (
            "downapi dot dot file name",
            json!({"name": "downapi", "downwardAPI": {"items": [{"path": "..badFileName", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels"}}]}}),
            false,
            vec![e("Invalid", "downwardAPI.path", "must not start with '..'")],
        ),
        (
            "downapi dot dot first level dirent",
            json!({"name": "downapi", "downwardAPI": {"items": [{"path": "..badDirName/goodFileName", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels"}}]}}),
            false,
            vec![e("Invalid", "downwardAPI.path", "must not start with '..'")],
        ),
        (
            "downapi fieldRef and ResourceFieldRef together",
            json!({"name": "downapi", "downwardAPI": {"items": [{"path": "test",
                "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels"},
                "resourceFieldRef": {"containerName": "test-container", "resource": "requests.memory"}}]}}),
            false,
            vec![e(
                "Invalid",
                "downwardAPI",
                "fieldRef and resourceFieldRef can not be specified simultaneously",
            )],
        ),
        (
            "downapi invalid positive defaultMode",
            json!({"name": "downapi", "downwardAPI": {"defaultMode": 0o1000}}),
            false,
            vec![e("Invalid", "downwardAPI.defaultMode", "")],
        ),
        (
            "downapi invalid negative defaultMode",
            json!({"name": "downapi", "downwardAPI": {"defaultMode": -1}}),
            false,
            vec![e("Invalid", "downwardAPI.defaultMode", "")],
        ),
        (
            "FC valid targetWWNs and lun",
            json!({"name": "fc", "fc": {"targetWWNs": ["some_wwn"], "lun": 1, "fsType": "ext4"}}),
            false,
            vec![],
        ),
        (
            "FC valid wwids",
            json!({"name": "fc", "fc": {"wwids": ["some_wwid"], "fsType": "ext4"}}),
            false,
            vec![],
        ),
        (
            "FC empty targetWWNs and wwids",
            json!({"name": "fc", "fc": {"targetWWNs": [], "lun": 1, "wwids": [], "fsType": "ext4"}}),
            false,
            vec![e(
                "Required",
                "fc.targetWWNs",
                "must specify either targetWWNs or wwids",
            )],
        ),
        (
            "FC invalid: both targetWWNs and wwids simultaneously",
            json!({"name": "fc", "fc": {"targetWWNs": ["some_wwn"], "lun": 1, "wwids": ["some_wwid"], "fsType": "ext4"}}),
            false,
            vec![e(
                "Invalid",
                "fc.targetWWNs",
                "targetWWNs and wwids can not be specified simultaneously",
            )],
        ),
        (
            "FC valid targetWWNs and empty lun",
            json!({"name": "fc", "fc": {"targetWWNs": ["wwn"], "fsType": "ext4"}}),
            false,
            vec![e(
                "Required",
                "fc.lun",
                "lun is required if targetWWNs is specified",
            )],
        ),
        (
            "FC valid targetWWNs and invalid lun",
            json!({"name": "fc", "fc": {"targetWWNs": ["wwn"], "lun": 256, "fsType": "ext4"}}),
            false,
            vec![e(
                "Invalid",
                "fc.lun",
                "must be between 0 and 255, inclusive",
            )],
        ),
        (
            "valid FlexVolume",
            json!({"name": "flex-volume", "flexVolume": {"driver": "kubernetes.io/blue", "fsType": "ext4"}}),
            false,
            vec![],
        ),
        (
            "valid AzureFile",
            json!({"name": "azure-file", "azureFile": {"secretName": "key", "shareName": "share"}}),
            false,
            vec![],
        ),
        (
            "AzureFile empty secret",
            json!({"name": "azure-file", "azureFile": {"secretName": "", "shareName": "share"}}),
            false,
            vec![e("Required", "azureFile.secretName", "")],
        ),
        (
            "AzureFile empty share",
            json!({"name": "azure-file", "azureFile": {"secretName": "name", "shareName": ""}}),
            false,
            vec![e("Required", "azureFile.shareName", "")],
        ),
        (
            "valid Quobyte",
            json!({"name": "quobyte", "quobyte": {"registry": "registry:7861", "volume": "volume", "user": "root", "group": "root", "tenant": "ThisIsSomeTenantUUID"}}),
            false,
            vec![],
        ),
        (
            "empty registry quobyte",
            json!({"name": "quobyte", "quobyte": {"volume": "/test", "tenant": "ThisIsSomeTenantUUID"}}),
            false,
            vec![e("Required", "quobyte.registry", "")],
        ),
        (
            "wrong format registry quobyte",
            json!({"name": "quobyte", "quobyte": {"registry": "registry7861", "volume": "/test", "tenant": "ThisIsSomeTenantUUID"}}),
            false,
            vec![e("Invalid", "quobyte.registry", "")],
        ),
        (
            "wrong format multiple registries quobyte",
            json!({"name": "quobyte", "quobyte": {"registry": "registry:7861,reg2", "volume": "/test", "tenant": "ThisIsSomeTenantUUID"}}),
            false,
            vec![e("Invalid", "quobyte.registry", "")],
        ),
        (
            "empty volume quobyte",
            json!({"name": "quobyte", "quobyte": {"registry": "registry:7861", "tenant": "ThisIsSomeTenantUUID"}}),
            false,
            vec![e("Required", "quobyte.volume", "")],
        ),
        (
            "empty tenant quobyte",
            json!({"name": "quobyte", "quobyte": {"registry": "registry:7861", "volume": "/test", "tenant": ""}}),
            false,
            vec![],
        ),
        (
            "too long tenant quobyte",
            json!({"name": "quobyte", "quobyte": {"registry": "registry:7861", "volume": "/test",
                "tenant": "this is too long to be a valid uuid so this test has to fail on the maximum length validation of the tenant."}}),
            false,
            vec![e("Required", "quobyte.tenant", "")],
        ),
        (
            "valid AzureDisk",
            json!({"name": "azure-disk", "azureDisk": {"diskName": "foo", "diskURI": "https://blob/vhds/bar.vhd"}}),
            false,
            vec![],
        ),
        (
            "AzureDisk empty disk name",
            json!({"name": "azure-disk", "azureDisk": {"diskName": "", "diskURI": "https://blob/vhds/bar.vhd"}}),
            false,
            vec![e("Required", "azureDisk.diskName", "")],
        ),
        (
            "AzureDisk empty disk uri",
            json!({"name": "azure-disk", "azureDisk": {"diskName": "foo", "diskURI": ""}}),
            false,
            vec![e("Required", "azureDisk.diskURI", "")],
        ),
        (
            "valid scaleio volume",
            json!({"name": "scaleio-volume", "scaleIO": {"gateway": "http://abcd/efg", "system": "test-system", "volumeName": "test-vol-1"}}),
            false,
            vec![],
        ),
        (
            "ScaleIO with empty name",
            json!({"name": "scaleio-volume", "scaleIO": {"gateway": "http://abcd/efg", "system": "test-system", "volumeName": ""}}),
            false,
            vec![e("Required", "scaleIO.volumeName", "")],
        ),
        (
            "ScaleIO with empty gateway",
            json!({"name": "scaleio-volume", "scaleIO": {"gateway": "", "system": "test-system", "volumeName": "test-vol-1"}}),
            false,
            vec![e("Required", "scaleIO.gateway", "")],
        ),
        (
            "ScaleIO with empty system",
            json!({"name": "scaleio-volume", "scaleIO": {"gateway": "http://agc/efg/gateway", "system": "", "volumeName": "test-vol-1"}}),
            false,
            vec![e("Required", "scaleIO.system", "")],
        ),
        (
            "ProjectedVolumeSource more than one projection in a source",
            json!({"name": "projected-volume", "projected": {"sources": [
                {"secret": {"name": "foo"}},
                {"secret": {"name": "foo"}, "downwardAPI": {}}
            ]}}),
            false,
            vec![e("Forbidden", "projected.sources[1]", "")],
        ),
        (
            "ProjectedVolumeSource more than one projection in a source",
            json!({"name": "projected-volume", "projected": {"sources": [
                {"secret": {}},
                {"secret": {}, "downwardAPI": {}}
            ]}}),
            false,
            vec![
                e("Required", "projected.sources[0].secret.name", ""),
                e("Required", "projected.sources[1].secret.name", ""),
                e("Forbidden", "projected.sources[1]", ""),
            ],
        ),
        (
            "valid image volume on pod",
            json!({"name": "image-volume", "image": {"reference": "quay.io/my/artifact:v1", "pullPolicy": "IfNotPresent"}}),
            false,
            vec![],
        ),
        (
            "no volume source",
            json!({"name": "volume"}),
            false,
            vec![e("Required", "field[0]", "must specify a volume type")],
        ),
        (
            "image volume with empty name",
            json!({"name": "", "image": {"reference": "quay.io/my/artifact:v1", "pullPolicy": "IfNotPresent"}}),
            false,
            vec![e("Required", "name", "")],
        ),
        (
            "image volume with empty reference on pod",
            json!({"name": "image-volume", "image": {"reference": "", "pullPolicy": "IfNotPresent"}}),
            true,
            vec![e("Required", "image.reference", "")],
        ),
        (
            "image volume with empty reference on other object",
            json!({"name": "image-volume", "image": {"reference": "", "pullPolicy": "IfNotPresent"}}),
            false,
            vec![],
        ),
        (
            "image volume with wrong pullPolicy",
            json!({"name": "image-volume", "image": {"reference": "quay.io/my/artifact:v1", "pullPolicy": "wrong"}}),
            false,
            vec![e("NotSupported", "image.pullPolicy", "")],
        ),
    ];
    for (name, vol, resource_is_pod, want) in rows {
        let list = Value::Array(vec![vol.clone()]);
        let (good, errs) = validate_volumes(Some(&list), None, "field", resource_is_pod);
        assert_eq!(errs.len(), want.len(), "{name}: {errs:?}");
        if errs.is_empty() {
            assert_eq!(good.len(), 1, "{name}");
            assert_eq!(good[0].0, vol["name"].as_str().unwrap(), "{name}");
        }
        for (got, (t, f, d)) in errs.iter().zip(&want) {
            assert_eq!(kind(got), *t, "{name}: {got}");
            assert!(
                got.field == *f || got.field.ends_with(&format!(".{f}")),
                "{name}: field {} want {f}",
                got.field
            );
            assert!(got.detail.contains(d.as_str()), "{name}: {got}");
        }
    }

    // dupsCase
    let dups = json!([{"name": "abc", "emptyDir": {}}, {"name": "abc", "emptyDir": {}}]);
    let errs = run_volumes(&dups, false);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(kind(&errs[0]), "Duplicate");

    // HugePages medium for EmptyDir
    let huge = json!([{"name": "working", "emptyDir": {"medium": "HugePages"}}]);
    assert!(run_volumes(&huge, false).is_empty());
}

/// TestValidateKeyToPath.
#[test]
fn test_validate_key_to_path() {
    let rows: Vec<(Value, Option<&str>)> = vec![
        (json!({"key": "k", "path": "p"}), None),
        (json!({"key": "k", "path": "p/p/p/p"}), None),
        (json!({"key": "k", "path": "p/..p/p../p..p"}), None),
        (json!({"key": "k", "path": "p", "mode": 0o644}), None),
        (json!({"key": "", "path": "p"}), Some("Required")),
        (json!({"key": "k", "path": ""}), Some("Required")),
        (json!({"key": "k", "path": "..p"}), Some("Invalid")),
        (json!({"key": "k", "path": "../p"}), Some("Invalid")),
        (json!({"key": "k", "path": "p/../p"}), Some("Invalid")),
        (json!({"key": "k", "path": "p/.."}), Some("Invalid")),
        (
            json!({"key": "k", "path": "p", "mode": 0o1000}),
            Some("Invalid"),
        ),
        (
            json!({"key": "k", "path": "p", "mode": -1}),
            Some("Invalid"),
        ),
    ];
    for (i, (kp, want)) in rows.into_iter().enumerate() {
        let mut errs = vec![];
        validate_key_to_path(&mut errs, &obj(kp), "field");
        match want {
            None => assert!(errs.is_empty(), "[{i}] {errs:?}"),
            Some(t) => {
                assert_eq!(errs.len(), 1, "[{i}] {errs:?}");
                assert_eq!(kind(&errs[0]), t, "[{i}]");
            }
        }
    }
}

/// Runs a source-level upstream table (`errs[0]`'s type and field suffix) through
/// `ValidateVolumes` with a one-volume list.
/// A source-table row: name, source body, the first error's type and field suffix.
type SourceRow<'a> = (&'a str, Value, Option<(&'a str, &'a str)>);

fn check_source_rows(source: &str, rows: Vec<SourceRow<'_>>) {
    for (name, src, want) in rows {
        let list = json!([{ "name": "v", source: src }]);
        let errs = run_volumes(&list, false);
        match want {
            None => assert!(errs.is_empty(), "{name}: {errs:?}"),
            Some((t, f)) => {
                assert!(!errs.is_empty(), "{name}: expected {t}");
                assert_eq!(kind(&errs[0]), t, "{name}: {}", errs[0]);
                assert!(
                    errs[0].field.ends_with(&format!(".{f}")),
                    "{name}: {}",
                    errs[0].field
                );
            }
        }
    }
}

/// TestValidateNFSVolumeSource (with the detail check of the `abs path` row).
#[test]
fn test_validate_nfs_volume_source() {
    check_source_rows(
        "nfs",
        vec![
            (
                "missing server",
                json!({"server": "", "path": "/tmp"}),
                Some(("Required", "server")),
            ),
            (
                "missing path",
                json!({"server": "my-server", "path": ""}),
                Some(("Required", "path")),
            ),
            (
                "abs path",
                json!({"server": "my-server", "path": "tmp"}),
                Some(("Invalid", "path")),
            ),
        ],
    );
    let errs = run_volumes(
        &json!([{"name": "v", "nfs": {"server": "my-server", "path": "tmp"}}]),
        false,
    );
    assert!(errs[0].detail.contains("must be an absolute path"));
}

/// TestValidateGlusterfs.
#[test]
fn test_validate_glusterfs() {
    check_source_rows(
        "glusterfs",
        vec![
            (
                "missing endpointname",
                json!({"endpoints": "", "path": "/tmp"}),
                Some(("Required", "endpoints")),
            ),
            (
                "missing path",
                json!({"endpoints": "my-endpoint", "path": ""}),
                Some(("Required", "path")),
            ),
            (
                "missing endpointname and path",
                json!({"endpoints": "", "path": ""}),
                Some(("Required", "endpoints")),
            ),
        ],
    );
}

/// TestValidateCSIVolumeSource.
#[test]
fn test_validate_csi_volume_source() {
    let long = "g".repeat(65);
    check_source_rows(
        "csi",
        vec![
            (
                "all required fields ok",
                json!({"driver": "test-driver"}),
                None,
            ),
            (
                "missing driver name",
                json!({"driver": ""}),
                Some(("Required", "driver")),
            ),
            (
                "driver name: ok no punctuations",
                json!({"driver": "comgooglestoragecsigcepd"}),
                None,
            ),
            (
                "driver name: ok dot only",
                json!({"driver": "io.kubernetes.storage.csi.flex"}),
                None,
            ),
            (
                "driver name: ok dash only",
                json!({"driver": "io-kubernetes-storage-csi-flex"}),
                None,
            ),
            (
                "driver name: invalid underscore",
                json!({"driver": "io_kubernetes_storage_csi_flex"}),
                Some(("Invalid", "driver")),
            ),
            (
                "driver name: invalid dot underscores",
                json!({"driver": "io.kubernetes.storage_csi.flex"}),
                Some(("Invalid", "driver")),
            ),
            (
                "driver name: ok beginning with number",
                json!({"driver": "2io.kubernetes.storage-csi.flex"}),
                None,
            ),
            (
                "driver name: ok ending with number",
                json!({"driver": "io.kubernetes.storage-csi.flex2"}),
                None,
            ),
            (
                "driver name: invalid dot dash underscores",
                json!({"driver": "io.kubernetes-storage.csi_flex"}),
                Some(("Invalid", "driver")),
            ),
            ("driver name: ok length 1", json!({"driver": "a"}), None),
            (
                "driver name: invalid length > 63",
                json!({"driver": long}),
                Some(("TooLong", "driver")),
            ),
            (
                "driver name: invalid start char",
                json!({"driver": "_comgooglestoragecsigcepd"}),
                Some(("Invalid", "driver")),
            ),
            (
                "driver name: invalid end char",
                json!({"driver": "comgooglestoragecsigcepd/"}),
                Some(("Invalid", "driver")),
            ),
            (
                "driver name: invalid separators",
                json!({"driver": "com/google/storage/csi~gcepd"}),
                Some(("Invalid", "driver")),
            ),
            (
                "valid nodePublishSecretRef",
                json!({"driver": "com.google.gcepd", "nodePublishSecretRef": {"name": "foobar"}}),
                None,
            ),
            (
                "nodePublishSecretRef: invalid name missing",
                json!({"driver": "com.google.gcepd", "nodePublishSecretRef": {"name": ""}}),
                Some(("Required", "nodePublishSecretRef.name")),
            ),
        ],
    );
}

fn env_errs(env: Value) -> Vec<FieldError> {
    let mut errs = vec![];
    validate_env(&mut errs, env.as_array().unwrap(), "field");
    errs
}

fn env_from_errs(env: Value) -> Vec<FieldError> {
    let mut errs = vec![];
    validate_env_from(&mut errs, env.as_array().unwrap(), "field");
    errs
}

/// TestValidateEnv, with RelaxedEnvironmentVariableValidation (GA and locked on since 1.34): the
/// success rows, the relaxed `updateSuccessCase` rows and the error rows. (The strict-name
/// `updateErrorCase` rows only apply with the gate off, which 1.34+ cannot do.)
#[test]
fn test_validate_env() {
    let fr = |p: &str| json!({"fieldRef": {"apiVersion": "v1", "fieldPath": p}});
    let mut success = vec![
        json!({"name": "abc", "value": "value"}),
        json!({"name": "ABC", "value": "value"}),
        json!({"name": "AbC_123", "value": "value"}),
        json!({"name": "abc", "value": ""}),
        json!({"name": "a.b.c", "value": "value"}),
        json!({"name": "a-b-c", "value": "value"}),
    ];
    for p in [
        "metadata.annotations['key']",
        "metadata.labels['key']",
        "metadata.name",
        "metadata.namespace",
        "metadata.uid",
        "spec.nodeName",
        "spec.serviceAccountName",
        "status.hostIP",
        "status.podIP",
        "status.podIPs",
    ] {
        success.push(json!({"name": "abc", "valueFrom": fr(p)}));
    }
    success.push(json!({"name": "secret_value", "valueFrom": {"secretKeyRef": {"name": "some-secret", "key": "secret-key"}}}));
    success.push(json!({"name": "ENV_VAR_1", "valueFrom": {"configMapKeyRef": {"name": "some-config-map", "key": "some-key"}}}));
    let errs = env_errs(Value::Array(success));
    assert!(errs.is_empty(), "{errs:?}");

    let update_success = json!([
        {"name": "!\"#$%&'()", "value": "value"},
        {"name": "* +,-./0123456789", "value": "value"},
        {"name": ":;<>?@", "value": "value"},
        {"name": "ABCDEFG", "value": "value"},
        {"name": "abcdefghijklmn", "value": "value"},
        {"name": "[\\]^_`{}|~", "value": "value"}
    ]);
    assert!(env_errs(update_success).is_empty());

    let env_fields = "supported values: \"metadata.name\", \"metadata.namespace\", \"metadata.uid\", \"spec.nodeName\", \"spec.serviceAccountName\", \"status.hostIP\", \"status.hostIPs\", \"status.podIP\", \"status.podIPs\"";
    let secret = json!({"name": "a-secret", "key": "a-key"});
    let cm = json!({"name": "some-config-map", "key": "some-key"});
    let rows: Vec<(&str, Value, String)> = vec![
        ("zero-length name", json!([{"name": ""}]), "[0].name: Required value".into()),
        (
            "value and valueFrom specified",
            json!([{"name": "abc", "value": "foo", "valueFrom": fr("metadata.name")}]),
            "[0].valueFrom: Invalid value: \"\": may not be specified when `value` is not empty".into(),
        ),
        (
            "valueFrom without a source",
            json!([{"name": "abc", "valueFrom": {}}]),
            "[0].valueFrom: Invalid value: \"\": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`".into(),
        ),
        (
            "valueFrom.fieldRef and valueFrom.secretKeyRef specified",
            json!([{"name": "abc", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}, "secretKeyRef": secret}}]),
            "[0].valueFrom: Invalid value: \"\": may not have more than one field specified at a time".into(),
        ),
        (
            "valueFrom.fieldRef and valueFrom.configMapKeyRef set",
            json!([{"name": "some_var_name", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}, "configMapKeyRef": cm}}]),
            "[0].valueFrom: Invalid value: \"\": may not have more than one field specified at a time".into(),
        ),
        (
            "valueFrom.fieldRef and valueFrom.secretKeyRef specified",
            json!([{"name": "abc", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}, "secretKeyRef": secret, "configMapKeyRef": cm}}]),
            "[0].valueFrom: Invalid value: \"\": may not have more than one field specified at a time".into(),
        ),
        (
            "valueFrom.secretKeyRef.name invalid",
            json!([{"name": "abc", "valueFrom": {"secretKeyRef": {"name": "$%^&*#", "key": "a-key"}}}]),
            String::new(),
        ),
        (
            "valueFrom.configMapKeyRef.name invalid",
            json!([{"name": "abc", "valueFrom": {"configMapKeyRef": {"name": "$%^&*#", "key": "some-key"}}}]),
            String::new(),
        ),
        (
            "missing FieldPath on ObjectFieldSelector",
            json!([{"name": "abc", "valueFrom": {"fieldRef": {"apiVersion": "v1"}}}]),
            "[0].valueFrom.fieldRef.fieldPath: Required value".into(),
        ),
        (
            "missing APIVersion on ObjectFieldSelector",
            json!([{"name": "abc", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}]),
            "[0].valueFrom.fieldRef.apiVersion: Required value".into(),
        ),
        (
            "invalid fieldPath",
            json!([{"name": "abc", "valueFrom": fr("metadata.whoops")}]),
            "[0].valueFrom.fieldRef.fieldPath: Invalid value: \"metadata.whoops\": error converting fieldPath".into(),
        ),
        (
            "metadata.name with subscript",
            json!([{"name": "labels", "valueFrom": fr("metadata.name['key']")}]),
            "[0].valueFrom.fieldRef.fieldPath: Invalid value: \"metadata.name['key']\": error converting fieldPath: field label does not support subscript".into(),
        ),
        (
            "metadata.labels without subscript",
            json!([{"name": "labels", "valueFrom": fr("metadata.labels")}]),
            format!("[0].valueFrom.fieldRef.fieldPath: Unsupported value: \"metadata.labels\": {env_fields}"),
        ),
        (
            "metadata.annotations without subscript",
            json!([{"name": "abc", "valueFrom": fr("metadata.annotations")}]),
            format!("[0].valueFrom.fieldRef.fieldPath: Unsupported value: \"metadata.annotations\": {env_fields}"),
        ),
        (
            "metadata.annotations with invalid key",
            json!([{"name": "abc", "valueFrom": fr("metadata.annotations['invalid~key']")}]),
            "field[0].valueFrom.fieldRef: Invalid value: \"invalid~key\"".into(),
        ),
        (
            "metadata.labels with invalid key",
            json!([{"name": "abc", "valueFrom": fr("metadata.labels['Www.k8s.io/test']")}]),
            "field[0].valueFrom.fieldRef: Invalid value: \"Www.k8s.io/test\"".into(),
        ),
        (
            "unsupported fieldPath",
            json!([{"name": "abc", "valueFrom": fr("status.phase")}]),
            format!("valueFrom.fieldRef.fieldPath: Unsupported value: \"status.phase\": {env_fields}"),
        ),
    ];
    for (name, env, want) in rows {
        let errs = env_errs(env);
        assert!(!errs.is_empty(), "expected failure for {name}");
        for e in &errs {
            let s = e.to_string();
            assert!(s.contains(&want), "{name}: want {want:?}, got {s:?}");
        }
    }
}

/// TestValidateEnvFrom and TestRelaxedValidateEnvFrom (relaxed prefixes; the strict-prefix
/// `updateErrorCase` rows only apply with the gate off).
#[test]
fn test_validate_env_from() {
    let cm = json!({"name": "abc"});
    let success = json!([
        {"configMapRef": cm}, {"prefix": "pre_", "configMapRef": cm}, {"prefix": "a.b", "configMapRef": cm},
        {"secretRef": cm}, {"prefix": "pre_", "secretRef": cm}, {"prefix": "a.b", "secretRef": cm}
    ]);
    assert!(env_from_errs(success).is_empty());
    let relaxed = json!([
        {"configMapRef": cm}, {"prefix": "!\"#$%&'()", "configMapRef": cm},
        {"prefix": "* +,-./0123456789", "configMapRef": cm}, {"secretRef": cm},
        {"prefix": ":;<>?@", "secretRef": cm}, {"prefix": "[\\]^_`{}|~", "secretRef": cm},
        {"prefix": "abcdefghijklmn", "secretRef": cm}
    ]);
    assert!(env_from_errs(relaxed).is_empty());
    let rows: Vec<(&str, Value, String)> = vec![
        ("zero-length name", json!([{"configMapRef": {"name": ""}}]), "field[0].configMapRef.name: Required value".into()),
        ("invalid name", json!([{"configMapRef": {"name": "$"}}]), "field[0].configMapRef.name: Invalid value".into()),
        ("zero-length name", json!([{"secretRef": {"name": ""}}]), "field[0].secretRef.name: Required value".into()),
        ("invalid name", json!([{"secretRef": {"name": "&"}}]), "field[0].secretRef.name: Invalid value".into()),
        (
            "invalid prefix",
            json!([{"prefix": "=abc", "configMapRef": {"name": "abc"}}]),
            format!("field[0].prefix: Invalid value: \"=abc\": {RELAXED_ENV_VAR_NAME_FMT_ERR_MSG}"),
        ),
        ("no refs", json!([{}]), "field: Invalid value: \"\": must specify one of: `configMapRef` or `secretRef`".into()),
        (
            "multiple refs",
            json!([{"secretRef": {"name": "abc"}, "configMapRef": {"name": "abc"}}]),
            "field: Invalid value: \"\": may not have more than one field specified at a time".into(),
        ),
        (
            "invalid secret ref name",
            json!([{"secretRef": {"name": "$%^&*#"}}]),
            format!("field[0].secretRef.name: Invalid value: \"$%^&*#\": {DNS_SUBDOMAIN_LABEL_ERR_MSG}"),
        ),
        (
            "invalid config ref name",
            json!([{"configMapRef": {"name": "$%^&*#"}}]),
            format!("field[0].configMapRef.name: Invalid value: \"$%^&*#\": {DNS_SUBDOMAIN_LABEL_ERR_MSG}"),
        ),
    ];
    for (name, env, want) in rows {
        let errs = env_from_errs(env);
        assert!(!errs.is_empty(), "expected failure for {name}");
        for e in &errs {
            assert!(
                e.to_string().contains(&want),
                "{name}: want {want:?}, got {e}"
            );
        }
    }
}

fn container_with(extra: Value) -> Container {
    Container {
        name: "ctr".into(),
        image: "image".into(),
        extra: obj(extra),
        ..Default::default()
    }
}

fn mount_errs(vols: &Value, mounts: Value, container: &Container) -> Vec<FieldError> {
    let (good, verrs) = validate_volumes(Some(vols), None, "field", false);
    assert!(
        verrs.is_empty(),
        "Invalid test volume - expected success {verrs:?}"
    );
    let ctx = PodVolumesCtx {
        volumes: good,
        grace_period: None,
        host_users: true,
    };
    let mut errs = vec![];
    validate_volume_mounts(
        &mut errs,
        mounts.as_array().unwrap(),
        container,
        &ctx,
        "field",
    );
    errs
}

fn test_mount_volumes() -> Value {
    json!([
        {"name": "abc", "persistentVolumeClaim": {"claimName": "testclaim1"}},
        {"name": "abc-123", "persistentVolumeClaim": {"claimName": "testclaim2"}},
        {"name": "123", "hostPath": {"path": "/foo/baz", "type": ""}},
        {"name": "ephemeral", "ephemeral": {"volumeClaimTemplate": {"spec": {
            "accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "10G"}}}}}},
        {"name": "image-volume", "image": {"reference": "quay.io/my/artifact:v1", "pullPolicy": "IfNotPresent"}}
    ])
}

/// TestValidateVolumeMounts (the volume devices are the container's own here).
#[test]
fn test_validate_volume_mounts() {
    let vols = test_mount_volumes();
    let good_devices = container_with(json!({"volumeDevices": [
        {"name": "xyz", "devicePath": "/foofoo"}, {"name": "uvw", "devicePath": "/foofoo/share/test"}
    ]}));
    let success = json!([
        {"name": "abc", "mountPath": "/foo"},
        {"name": "123", "mountPath": "/bar"},
        {"name": "abc-123", "mountPath": "/baz"},
        {"name": "abc-123", "mountPath": "/baa", "subPath": ""},
        {"name": "abc-123", "mountPath": "/bab", "subPath": "baz"},
        {"name": "abc-123", "mountPath": "d:", "subPath": ""},
        {"name": "abc-123", "mountPath": "F:", "subPath": ""},
        {"name": "abc-123", "mountPath": "G:\\mount", "subPath": ""},
        {"name": "abc-123", "mountPath": "/bac", "subPath": ".baz"},
        {"name": "abc-123", "mountPath": "/bad", "subPath": "..baz"},
        {"name": "ephemeral", "mountPath": "/foobar"},
        {"name": "123", "mountPath": "/rro-nil", "readOnly": true},
        {"name": "123", "mountPath": "/rro-disabled", "readOnly": true, "recursiveReadOnly": "Disabled"},
        {"name": "123", "mountPath": "/rro-disabled-2", "readOnly": false, "recursiveReadOnly": "Disabled"},
        {"name": "123", "mountPath": "/rro-ifpossible", "readOnly": true, "recursiveReadOnly": "IfPossible"},
        {"name": "123", "mountPath": "/rro-enabled", "readOnly": true, "recursiveReadOnly": "Enabled"},
        {"name": "123", "mountPath": "/rro-enabled-2", "readOnly": true, "recursiveReadOnly": "Enabled", "mountPropagation": "None"},
        {"name": "image-volume", "mountPath": "/image-volume"}
    ]);
    let errs = mount_errs(&vols, success, &good_devices);
    assert!(errs.is_empty(), "expected success: {errs:?}");

    let bad_devices =
        container_with(json!({"volumeDevices": [{"name": "xyz", "devicePath": "/mnt/exists"}]}));
    let rows: Vec<(&str, Value)> = vec![
        ("empty name", json!([{"name": "", "mountPath": "/foo"}])),
        ("name not found", json!([{"name": "", "mountPath": "/foo"}])),
        ("empty mountpath", json!([{"name": "abc", "mountPath": ""}])),
        (
            "mountpath collision",
            json!([{"name": "foo", "mountPath": "/path/a"}, {"name": "bar", "mountPath": "/path/a"}]),
        ),
        (
            "absolute subpath",
            json!([{"name": "abc", "mountPath": "/bar", "subPath": "/baz"}]),
        ),
        (
            "subpath in ..",
            json!([{"name": "abc", "mountPath": "/bar", "subPath": "../baz"}]),
        ),
        (
            "subpath contains ..",
            json!([{"name": "abc", "mountPath": "/bar", "subPath": "baz/../bat"}]),
        ),
        (
            "subpath ends in ..",
            json!([{"name": "abc", "mountPath": "/bar", "subPath": "./.."}]),
        ),
        (
            "disabled MountPropagation feature gate",
            json!([{"name": "abc", "mountPath": "/bar", "mountPropagation": "Bidirectional"}]),
        ),
        (
            "name exists in volumeDevice",
            json!([{"name": "xyz", "mountPath": "/bar"}]),
        ),
        (
            "mountpath exists in volumeDevice",
            json!([{"name": "uvw", "mountPath": "/mnt/exists"}]),
        ),
        (
            "both exist in volumeDevice",
            json!([{"name": "xyz", "mountPath": "/mnt/exists"}]),
        ),
        (
            "rro but not ro",
            json!([{"name": "123", "mountPath": "/rro-bad1", "readOnly": false, "recursiveReadOnly": "Enabled"}]),
        ),
        (
            "rro with incompatible propagation",
            json!([{"name": "123", "mountPath": "/rro-bad2", "readOnly": true, "recursiveReadOnly": "Enabled", "mountPropagation": "HostToContainer"}]),
        ),
        (
            "rro-if-possible but not ro",
            json!([{"name": "123", "mountPath": "/rro-bad1", "readOnly": false, "recursiveReadOnly": "IfPossible"}]),
        ),
        (
            "subPath not allowed for image volume sources",
            json!([{"name": "image-volume", "mountPath": "/image-volume-err-1", "subPath": "/foo"}]),
        ),
        (
            "subPathExpr not allowed for image volume sources",
            json!([{"name": "image-volume", "mountPath": "/image-volume-err-2", "subPathExpr": "$(POD_NAME)"}]),
        ),
    ];
    for (name, mounts) in rows {
        assert!(
            !mount_errs(&vols, mounts, &bad_devices).is_empty(),
            "expected failure for {name}"
        );
    }
}

/// TestValidateSubpathMutuallyExclusive and TestValidateDisabledSubpathExpr.
#[test]
fn test_validate_subpath_mutually_exclusive() {
    let vols = json!([
        {"name": "abc", "persistentVolumeClaim": {"claimName": "testclaim1"}},
        {"name": "abc-123", "persistentVolumeClaim": {"claimName": "testclaim2"}},
        {"name": "123", "hostPath": {"path": "/foo/baz", "type": ""}}
    ]);
    let c = container_with(json!({"volumeDevices": [
        {"name": "xyz", "devicePath": "/foofoo"}, {"name": "uvw", "devicePath": "/foofoo/share/test"}
    ]}));
    let rows = vec![
        (
            "subpath and subpathexpr not specified",
            json!([{"name": "abc-123", "mountPath": "/bab"}]),
            false,
        ),
        (
            "subpath expr specified",
            json!([{"name": "abc-123", "mountPath": "/bab", "subPathExpr": "$(POD_NAME)"}]),
            false,
        ),
        (
            "subpath specified",
            json!([{"name": "abc-123", "mountPath": "/bab", "subPath": "baz"}]),
            false,
        ),
        (
            "subpath and subpathexpr specified",
            json!([{"name": "abc-123", "mountPath": "/bab", "subPath": "baz", "subPathExpr": "$(POD_NAME)"}]),
            true,
        ),
    ];
    for (name, mounts, want_err) in rows {
        let errs = mount_errs(&vols, mounts, &c);
        assert_eq!(!errs.is_empty(), want_err, "{name}: {errs:?}");
    }
}

/// TestValidateMountPropagation (pod validation always knows the container, so upstream's
/// `nil` container row does not apply).
#[test]
fn test_validate_mount_propagation() {
    let privileged = container_with(json!({"securityContext": {"privileged": true}}));
    let non_privileged = container_with(json!({"securityContext": {"privileged": false}}));
    let default = container_with(json!({}));
    let m = |p: Option<&str>| match p {
        None => json!([{"name": "foo", "mountPath": "/foo"}]),
        Some(p) => json!([{"name": "foo", "mountPath": "/foo", "mountPropagation": p}]),
    };
    let rows = vec![
        (m(None), &default, false),
        (m(Some("HostToContainer")), &default, false),
        (m(Some("None")), &default, false),
        (m(Some("Bidirectional")), &default, true),
        (m(None), &non_privileged, false),
        (m(Some("HostToContainer")), &non_privileged, false),
        (m(Some("Bidirectional")), &non_privileged, true),
        (m(None), &privileged, false),
        (m(Some("HostToContainer")), &privileged, false),
        (m(Some("Bidirectional")), &privileged, false),
        (m(Some("invalid")), &privileged, true),
    ];
    let vols = json!([{"name": "foo", "hostPath": {"path": "/foo/baz", "type": ""}}]);
    for (i, (mounts, c, want_err)) in rows.into_iter().enumerate() {
        let errs = mount_errs(&vols, mounts, c);
        assert_eq!(!errs.is_empty(), want_err, "test {i}: {errs:?}");
    }
}

/// TestAlphaValidateVolumeDevices (the volume mounts are the container's own here).
#[test]
fn test_alpha_validate_volume_devices() {
    let vols = json!([
        {"name": "abc", "persistentVolumeClaim": {"claimName": "testclaim1"}},
        {"name": "abc-123", "persistentVolumeClaim": {"claimName": "testclaim2"}},
        {"name": "def", "hostPath": {"path": "/foo/baz", "type": ""}},
        {"name": "ephemeral", "ephemeral": {"volumeClaimTemplate": {"spec": {
            "accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "10G"}}}}}}
    ]);
    let (good, verrs) = validate_volumes(Some(&vols), None, "field", false);
    assert!(verrs.is_empty(), "{verrs:?}");
    let ctx = PodVolumesCtx {
        volumes: good,
        grace_period: None,
        host_users: true,
    };
    let run = |devices: Value, mounts: Value| {
        let c = container_with(json!({ "volumeMounts": mounts }));
        let mut errs = vec![];
        validate_volume_devices(&mut errs, devices.as_array().unwrap(), &c, &ctx, "field");
        errs
    };
    let good_mounts = json!([{"name": "xyz", "mountPath": "/foofoo"}, {"name": "ghi", "mountPath": "/foo/usr/share/test"}]);
    let success = json!([
        {"name": "abc", "devicePath": "/foo"},
        {"name": "abc-123", "devicePath": "/usr/share/test"},
        {"name": "ephemeral", "devicePath": "/disk"}
    ]);
    let errs = run(success, good_mounts);
    assert!(errs.is_empty(), "{errs:?}");
    let bad_mounts = json!([{"name": "abc", "mountPath": "/foo"}, {"name": "abc-123", "mountPath": "/this/path/exists"}]);
    let rows: Vec<(&str, Value)> = vec![
        ("empty name", json!([{"name": "", "devicePath": "/foo"}])),
        (
            "duplicate name",
            json!([{"name": "abc", "devicePath": "/foo"}, {"name": "abc", "devicePath": "/foo/bar"}]),
        ),
        (
            "name not found",
            json!([{"name": "not-found", "devicePath": "/usr/share/test"}]),
        ),
        (
            "name found but invalid source",
            json!([{"name": "def", "devicePath": "/usr/share/test"}]),
        ),
        (
            "empty devicepath",
            json!([{"name": "abc", "devicePath": ""}]),
        ),
        (
            "relative devicepath",
            json!([{"name": "abc-123", "devicePath": "baz"}]),
        ),
        (
            "duplicate devicepath",
            json!([{"name": "abc", "devicePath": "/foo"}, {"name": "abc-123", "devicePath": "/foo"}]),
        ),
        (
            "no backsteps",
            json!([{"name": "def", "devicePath": "/baz/../"}]),
        ),
        (
            "name exists in volumemounts",
            json!([{"name": "abc", "devicePath": "/baz/../"}]),
        ),
        (
            "path exists in volumemounts",
            json!([{"name": "xyz", "devicePath": "/this/path/exists"}]),
        ),
        (
            "both exist in volumemounts",
            json!([{"name": "abc", "devicePath": "/this/path/exists"}]),
        ),
    ];
    for (name, devices) in rows {
        assert!(
            !run(devices, bad_mounts.clone()).is_empty(),
            "expected failure for {name}"
        );
    }
}

fn probe_errs(probe: Value, path: &str) -> Vec<FieldError> {
    let mut errs = vec![];
    validate_probe(&mut errs, &obj(probe), DEFAULT_GRACE_PERIOD, path);
    errs
}

/// TestValidateProbe.
#[test]
fn test_validate_probe() {
    let positive = [
        "initialDelaySeconds",
        "timeoutSeconds",
        "periodSeconds",
        "successThreshold",
        "failureThreshold",
    ];
    for f in positive {
        let mut p = obj(json!({"exec": {"command": ["echo"]}}));
        p.insert(f.into(), 10.into());
        let errs = probe_errs(Value::Object(p), "field");
        assert!(errs.is_empty(), "{f}: {errs:?}");
    }
    assert!(!probe_errs(
        json!({"timeoutSeconds": 10, "initialDelaySeconds": 10}),
        "field"
    )
    .is_empty());
    for f in positive {
        let mut p = obj(json!({"exec": {"command": ["echo"]}}));
        p.insert(f.into(), (-10).into());
        assert!(!probe_errs(Value::Object(p), "field").is_empty(), "{f}");
    }
}

/// Test_validateProbe: exact types and fields.
#[test]
fn test_validate_probe_fields() {
    let exec = json!({"command": ["echo"]});
    let rows: Vec<(Value, Vec<(&str, &str)>)> = vec![
        (json!({}), vec![("Required", "test")]),
        (json!({"exec": exec}), vec![]),
        (
            json!({"exec": exec, "initialDelaySeconds": -1}),
            vec![("Invalid", "test.initialDelaySeconds")],
        ),
        (
            json!({"exec": exec, "timeoutSeconds": -1}),
            vec![("Invalid", "test.timeoutSeconds")],
        ),
        (
            json!({"exec": exec, "periodSeconds": -1}),
            vec![("Invalid", "test.periodSeconds")],
        ),
        (
            json!({"exec": exec, "successThreshold": -1}),
            vec![("Invalid", "test.successThreshold")],
        ),
        (
            json!({"exec": exec, "failureThreshold": -1}),
            vec![("Invalid", "test.failureThreshold")],
        ),
        (
            json!({"exec": exec, "terminationGracePeriodSeconds": -1}),
            vec![("Invalid", "test.terminationGracePeriodSeconds")],
        ),
        (
            json!({"exec": exec, "terminationGracePeriodSeconds": 0}),
            vec![("Invalid", "test.terminationGracePeriodSeconds")],
        ),
        (
            json!({"exec": exec, "terminationGracePeriodSeconds": 1}),
            vec![],
        ),
    ];
    for (probe, want) in rows {
        let errs = probe_errs(probe.clone(), "test");
        let got: Vec<(&str, &str)> = errs.iter().map(|e| (kind(e), e.field.as_str())).collect();
        assert_eq!(got, want, "{probe}");
    }
    // The detail of the handler-less row and of a negative timing.
    let errs = probe_errs(json!({}), "test");
    assert_eq!(
        errs[0].to_string(),
        "test: Required value: must specify a handler type"
    );
    let errs = probe_errs(json!({"exec": exec, "initialDelaySeconds": -1}), "test");
    assert_eq!(
        errs[0].to_string(),
        "test.initialDelaySeconds: Invalid value: -1: must be greater than or equal to 0"
    );
}

/// TestValidateHandler (probe handlers).
#[test]
fn test_validate_handler() {
    let success = [
        json!({"exec": {"command": ["echo"]}}),
        json!({"httpGet": {"path": "/", "port": 1, "host": "", "scheme": "HTTP"}}),
        json!({"httpGet": {"path": "/foo", "port": 65535, "host": "host", "scheme": "HTTP"}}),
        json!({"httpGet": {"path": "/", "port": "port", "host": "", "scheme": "HTTP"}}),
        json!({"httpGet": {"path": "/", "port": "port", "host": "", "scheme": "HTTP", "httpHeaders": [{"name": "Host", "value": "foo.example.com"}]}}),
        json!({"httpGet": {"path": "/", "port": "port", "host": "", "scheme": "HTTP", "httpHeaders": [
            {"name": "X-Forwarded-For", "value": "1.2.3.4"}, {"name": "X-Forwarded-For", "value": "5.6.7.8"}]}}),
    ];
    for h in success {
        let mut errs = vec![];
        validate_handler(
            &mut errs,
            &obj(h.clone()),
            HandlerKind::Probe,
            DEFAULT_GRACE_PERIOD,
            "field",
        );
        assert!(errs.is_empty(), "{h}: {errs:?}");
    }
    let failures = [
        json!({}),
        json!({"exec": {"command": []}}),
        json!({"httpGet": {"path": "", "port": 0, "host": ""}}),
        json!({"httpGet": {"path": "/foo", "port": 65536, "host": "host"}}),
        json!({"httpGet": {"path": "", "port": "", "host": ""}}),
        json!({"httpGet": {"path": "/", "port": "port", "host": "", "scheme": "HTTP", "httpHeaders": [{"name": "Host:", "value": "foo.example.com"}]}}),
        json!({"httpGet": {"path": "/", "port": "port", "host": "", "scheme": "HTTP", "httpHeaders": [{"name": "X_Forwarded_For", "value": "foo.example.com"}]}}),
    ];
    for h in failures {
        let mut errs = vec![];
        validate_handler(
            &mut errs,
            &obj(h.clone()),
            HandlerKind::Probe,
            DEFAULT_GRACE_PERIOD,
            "field",
        );
        assert!(!errs.is_empty(), "expected failure for {h}");
    }
}

/// A pod whose mount names no volume is refused with upstream's wording, through the API
/// server's pod validation.
#[test]
fn pod_create_mount_of_unknown_volume() {
    use crate::api::core::{Pod, PodSpec};
    let mut c = container_with(json!({
        "imagePullPolicy": "IfNotPresent",
        "terminationMessagePolicy": "File",
        "volumeMounts": [{"name": "data", "mountPath": "/data"}]
    }));
    c.name = "ctr".into();
    let mut spec = PodSpec {
        containers: vec![c],
        restart_policy: "Always".into(),
        termination_grace_period_seconds: Some(30),
        ..Default::default()
    };
    spec.extra.insert("dnsPolicy".into(), json!("ClusterFirst"));
    let pod = Pod {
        metadata: crate::api::ObjectMeta {
            name: "p".into(),
            namespace: "default".into(),
            ..Default::default()
        },
        spec: std::sync::Arc::new(spec),
        ..Default::default()
    };
    let errs: Vec<String> = super::pod::validate_pod_create(&pod)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        errs,
        ["spec.containers[0].volumeMounts[0].name: Not found: \"data\""]
    );
}

/// Validates a pod template spec (no defaulting, as upstream's tables call the validators
/// directly) with the given containers and init containers, and returns `(type, field)` with
/// the `spec.` prefix dropped, as upstream's `validateContainers(..., field.NewPath("containers"))`
/// reports them.
fn container_errs(containers: Value, inits: Value) -> Vec<(&'static str, String)> {
    use crate::api::core::PodSpec;
    let mut spec = PodSpec {
        containers: serde_json::from_value(containers).unwrap(),
        init_containers: serde_json::from_value(inits).unwrap(),
        restart_policy: "Always".into(),
        termination_grace_period_seconds: DEFAULT_GRACE_PERIOD,
        ..Default::default()
    };
    spec.extra.insert("dnsPolicy".into(), json!("ClusterFirst"));
    let opts = super::pod::PodValidationOptions::default();
    super::pod::validate_pod_spec(&spec, "spec", opts)
        .iter()
        .map(|e| (kind(e), e.field.trim_start_matches("spec.").to_string()))
        .collect()
}

fn ctr_json(name: &str, extra: Value) -> Value {
    let mut c = obj(json!({
        "name": name, "image": "image",
        "imagePullPolicy": "IfNotPresent", "terminationMessagePolicy": "File"
    }));
    c.extend(obj(extra));
    Value::Object(c)
}

/// A container-table row: name, container, expected `(type, field)`s.
type ContainerRow<'a> = (&'a str, Value, Vec<(&'a str, &'a str)>);

/// TestValidateContainers: the success rows about lifecycle, probes and envFrom, and the error
/// rows about env, volume mounts, lifecycle hooks and probes. (The strict env-name row
/// "invalid env var name" only applies with RelaxedEnvironmentVariableValidation off, which
/// 1.34+ cannot do: `ev!1` is a valid relaxed name.)
#[test]
fn test_validate_containers_probes_lifecycle_env() {
    let success = json!([
        ctr_json(
            "life-123",
            json!({"lifecycle": {"preStop": {"exec": {"command": ["ls", "-l"]}}}})
        ),
        ctr_json(
            "env-from-source",
            json!({"envFrom": [{"configMapRef": {"name": "test"}}]})
        ),
        ctr_json(
            "live-123",
            json!({"livenessProbe": {"tcpSocket": {"port": 80}, "successThreshold": 1}})
        ),
        ctr_json(
            "startup-123",
            json!({"startupProbe": {"tcpSocket": {"port": 80}, "successThreshold": 1}})
        )
    ]);
    assert_eq!(container_errs(success, json!([])), vec![]);

    let negative = json!({"tcpSocket": {"port": 80}, "initialDelaySeconds": -1, "timeoutSeconds": -1,
        "periodSeconds": -1, "successThreshold": -1, "failureThreshold": -1, "terminationGracePeriodSeconds": -1});
    let rows: Vec<ContainerRow<'_>> = vec![
        (
            "unknown volume name",
            ctr_json(
                "abc",
                json!({"volumeMounts": [{"name": "anything", "mountPath": "/foo"}]}),
            ),
            vec![("NotFound", "containers[0].volumeMounts[0].name")],
        ),
        (
            "invalid lifecycle, no exec command.",
            ctr_json("life-123", json!({"lifecycle": {"preStop": {"exec": {}}}})),
            vec![("Required", "containers[0].lifecycle.preStop.exec.command")],
        ),
        (
            "invalid lifecycle, no http path.",
            ctr_json(
                "life-123",
                json!({"lifecycle": {"preStop": {"httpGet": {"port": 80, "scheme": "HTTP"}}}}),
            ),
            vec![("Required", "containers[0].lifecycle.preStop.httpGet.path")],
        ),
        (
            "invalid lifecycle, no http port.",
            ctr_json(
                "life-123",
                json!({"lifecycle": {"preStop": {"httpGet": {"path": "/", "scheme": "HTTP"}}}}),
            ),
            vec![("Invalid", "containers[0].lifecycle.preStop.httpGet.port")],
        ),
        (
            "invalid lifecycle, no http scheme.",
            ctr_json(
                "life-123",
                json!({"lifecycle": {"preStop": {"httpGet": {"path": "/", "port": 80}}}}),
            ),
            vec![(
                "NotSupported",
                "containers[0].lifecycle.preStop.httpGet.scheme",
            )],
        ),
        (
            "invalid lifecycle, no tcp socket port.",
            ctr_json(
                "life-123",
                json!({"lifecycle": {"preStop": {"tcpSocket": {}}}}),
            ),
            vec![("Invalid", "containers[0].lifecycle.preStop.tcpSocket.port")],
        ),
        (
            "invalid lifecycle, zero tcp socket port.",
            ctr_json(
                "life-123",
                json!({"lifecycle": {"preStop": {"tcpSocket": {"port": 0}}}}),
            ),
            vec![("Invalid", "containers[0].lifecycle.preStop.tcpSocket.port")],
        ),
        (
            "invalid lifecycle, no action.",
            ctr_json("life-123", json!({"lifecycle": {"preStop": {}}})),
            vec![("Required", "containers[0].lifecycle.preStop")],
        ),
        (
            "invalid readiness probe, terminationGracePeriodSeconds set.",
            ctr_json(
                "life-123",
                json!({"readinessProbe": {"tcpSocket": {"port": 80}, "terminationGracePeriodSeconds": 10}}),
            ),
            vec![(
                "Invalid",
                "containers[0].readinessProbe.terminationGracePeriodSeconds",
            )],
        ),
        (
            "invalid liveness probe, no tcp socket port.",
            ctr_json(
                "live-123",
                json!({"livenessProbe": {"tcpSocket": {}, "successThreshold": 1}}),
            ),
            vec![("Invalid", "containers[0].livenessProbe.tcpSocket.port")],
        ),
        (
            "invalid liveness probe, no action.",
            ctr_json(
                "live-123",
                json!({"livenessProbe": {"successThreshold": 1}}),
            ),
            vec![("Required", "containers[0].livenessProbe")],
        ),
        (
            "invalid liveness probe, successThreshold != 1",
            ctr_json(
                "live-123",
                json!({"livenessProbe": {"tcpSocket": {"port": 80}, "successThreshold": 2}}),
            ),
            vec![("Invalid", "containers[0].livenessProbe.successThreshold")],
        ),
        (
            "invalid startup probe, successThreshold != 1",
            ctr_json(
                "startup-123",
                json!({"startupProbe": {"tcpSocket": {"port": 80}, "successThreshold": 2}}),
            ),
            vec![("Invalid", "containers[0].startupProbe.successThreshold")],
        ),
        (
            "invalid liveness probe, negative numbers",
            ctr_json("live-123", json!({ "livenessProbe": negative })),
            vec![
                ("Invalid", "containers[0].livenessProbe.initialDelaySeconds"),
                ("Invalid", "containers[0].livenessProbe.timeoutSeconds"),
                ("Invalid", "containers[0].livenessProbe.periodSeconds"),
                ("Invalid", "containers[0].livenessProbe.successThreshold"),
                ("Invalid", "containers[0].livenessProbe.failureThreshold"),
                (
                    "Invalid",
                    "containers[0].livenessProbe.terminationGracePeriodSeconds",
                ),
                ("Invalid", "containers[0].livenessProbe.successThreshold"),
            ],
        ),
        (
            "invalid readiness probe, negative numbers",
            ctr_json("ready-123", json!({ "readinessProbe": negative })),
            vec![
                (
                    "Invalid",
                    "containers[0].readinessProbe.initialDelaySeconds",
                ),
                ("Invalid", "containers[0].readinessProbe.timeoutSeconds"),
                ("Invalid", "containers[0].readinessProbe.periodSeconds"),
                ("Invalid", "containers[0].readinessProbe.successThreshold"),
                ("Invalid", "containers[0].readinessProbe.failureThreshold"),
                (
                    "Invalid",
                    "containers[0].readinessProbe.terminationGracePeriodSeconds",
                ),
                (
                    "Invalid",
                    "containers[0].readinessProbe.terminationGracePeriodSeconds",
                ),
            ],
        ),
        (
            "invalid startup probe, negative numbers",
            ctr_json("startup-123", json!({ "startupProbe": negative })),
            vec![
                ("Invalid", "containers[0].startupProbe.initialDelaySeconds"),
                ("Invalid", "containers[0].startupProbe.timeoutSeconds"),
                ("Invalid", "containers[0].startupProbe.periodSeconds"),
                ("Invalid", "containers[0].startupProbe.successThreshold"),
                ("Invalid", "containers[0].startupProbe.failureThreshold"),
                (
                    "Invalid",
                    "containers[0].startupProbe.terminationGracePeriodSeconds",
                ),
                ("Invalid", "containers[0].startupProbe.successThreshold"),
            ],
        ),
        (
            "Invalid env from",
            ctr_json(
                "env-from-source",
                json!({"envFrom": [{"configMapRef": {"name": "$%^&*#"}}]}),
            ),
            vec![("Invalid", "containers[0].envFrom[0].configMapRef.name")],
        ),
    ];
    for (name, c, want) in rows {
        let got = container_errs(Value::Array(vec![c]), json!([]));
        let want: Vec<(&str, String)> = want.into_iter().map(|(t, f)| (t, f.to_string())).collect();
        assert_eq!(got, want, "{name}");
    }
}

/// TestValidateInitContainers: the success row with a restartable init container carrying
/// lifecycle hooks and probes, and the error rows about probes and lifecycle hooks.
#[test]
fn test_validate_init_containers_probes_lifecycle() {
    let app = json!([{"name": "app", "image": "nginx", "imagePullPolicy": "IfNotPresent", "terminationMessagePolicy": "File"}]);
    let tcp = json!({"tcpSocket": {"port": 80}});
    let success = json!([ctr_json(
        "container-3-restart-always-with-lifecycle-hook-and-probes",
        json!({
            "restartPolicy": "Always",
            "lifecycle": {"postStart": {"exec": {"command": ["echo", "post start"]}},
                          "preStop": {"exec": {"command": ["echo", "pre stop"]}}},
            "livenessProbe": {"tcpSocket": {"port": 80}, "successThreshold": 1},
            "readinessProbe": tcp,
            "startupProbe": {"tcpSocket": {"port": 80}, "successThreshold": 1}
        })
    )]);
    assert_eq!(container_errs(app.clone(), success), vec![]);

    let negative = json!({"tcpSocket": {"port": 80}, "initialDelaySeconds": -1, "timeoutSeconds": -1,
        "periodSeconds": -1, "successThreshold": -1, "failureThreshold": -1, "terminationGracePeriodSeconds": -1});
    let always = |extra: Value| {
        let mut m = obj(extra);
        m.insert("restartPolicy".into(), json!("Always"));
        Value::Object(m)
    };
    let rows: Vec<(&str, Value, (&str, &str))> = vec![
        (
            "uses disallowed field: Lifecycle",
            ctr_json(
                "debug",
                json!({"lifecycle": {"preStop": {"exec": {"command": ["ls", "-l"]}}}}),
            ),
            ("Forbidden", "initContainers[0].lifecycle"),
        ),
        (
            "uses disallowed field: LivenessProbe",
            ctr_json(
                "debug",
                json!({"livenessProbe": {"tcpSocket": {"port": 80}, "successThreshold": 1}}),
            ),
            ("Forbidden", "initContainers[0].livenessProbe"),
        ),
        (
            "uses disallowed field: ReadinessProbe",
            ctr_json("debug", json!({ "readinessProbe": tcp })),
            ("Forbidden", "initContainers[0].readinessProbe"),
        ),
        (
            "Container uses disallowed field: StartupProbe",
            ctr_json(
                "debug",
                json!({"startupProbe": {"tcpSocket": {"port": 80}, "successThreshold": 1}}),
            ),
            ("Forbidden", "initContainers[0].startupProbe"),
        ),
        (
            "Disallowed field with other errors should only return a single Forbidden",
            ctr_json("debug", json!({ "startupProbe": negative })),
            ("Forbidden", "initContainers[0].startupProbe"),
        ),
        (
            "invalid startup probe in restartable container, successThreshold != 1",
            ctr_json(
                "restartable-init",
                always(json!({"startupProbe": {"tcpSocket": {"port": 80}, "successThreshold": 2}})),
            ),
            ("Invalid", "initContainers[0].startupProbe.successThreshold"),
        ),
        (
            "invalid readiness probe, terminationGracePeriodSeconds set.",
            ctr_json(
                "life-123",
                always(
                    json!({"readinessProbe": {"tcpSocket": {"port": 80}, "terminationGracePeriodSeconds": 10}}),
                ),
            ),
            (
                "Invalid",
                "initContainers[0].readinessProbe.terminationGracePeriodSeconds",
            ),
        ),
        (
            "invalid liveness probe, successThreshold != 1",
            ctr_json(
                "live-123",
                always(
                    json!({"livenessProbe": {"tcpSocket": {"port": 80}, "successThreshold": 2}}),
                ),
            ),
            (
                "Invalid",
                "initContainers[0].livenessProbe.successThreshold",
            ),
        ),
        (
            "invalid lifecycle, no exec command.",
            ctr_json(
                "life-123",
                always(json!({"lifecycle": {"preStop": {"exec": {}}}})),
            ),
            (
                "Required",
                "initContainers[0].lifecycle.preStop.exec.command",
            ),
        ),
        (
            "invalid lifecycle, no http path.",
            ctr_json(
                "life-123",
                always(
                    json!({"lifecycle": {"preStop": {"httpGet": {"port": 80, "scheme": "HTTP"}}}}),
                ),
            ),
            (
                "Required",
                "initContainers[0].lifecycle.preStop.httpGet.path",
            ),
        ),
        (
            "invalid lifecycle, no http port.",
            ctr_json(
                "life-123",
                always(
                    json!({"lifecycle": {"preStop": {"httpGet": {"path": "/", "scheme": "HTTP"}}}}),
                ),
            ),
            (
                "Invalid",
                "initContainers[0].lifecycle.preStop.httpGet.port",
            ),
        ),
        (
            "invalid lifecycle, no http scheme.",
            ctr_json(
                "life-123",
                always(json!({"lifecycle": {"preStop": {"httpGet": {"path": "/", "port": 80}}}})),
            ),
            (
                "NotSupported",
                "initContainers[0].lifecycle.preStop.httpGet.scheme",
            ),
        ),
        (
            "invalid lifecycle, no tcp socket port.",
            ctr_json(
                "life-123",
                always(json!({"lifecycle": {"preStop": {"tcpSocket": {}}}})),
            ),
            (
                "Invalid",
                "initContainers[0].lifecycle.preStop.tcpSocket.port",
            ),
        ),
        (
            "invalid lifecycle, zero tcp socket port.",
            ctr_json(
                "life-123",
                always(json!({"lifecycle": {"preStop": {"tcpSocket": {"port": 0}}}})),
            ),
            (
                "Invalid",
                "initContainers[0].lifecycle.preStop.tcpSocket.port",
            ),
        ),
        (
            "invalid lifecycle, no action.",
            ctr_json("life-123", always(json!({"lifecycle": {"preStop": {}}}))),
            ("Required", "initContainers[0].lifecycle.preStop"),
        ),
    ];
    for (name, c, (t, f)) in rows {
        let got = container_errs(app.clone(), Value::Array(vec![c]));
        assert_eq!(got, vec![(t, f.to_string())], "{name}");
    }
}

/// Through the API server with defaulting: a pod and a Deployment using probes and lifecycle
/// hooks without the defaulted fields (timings, `httpGet.path`/`scheme`), env `fieldRef`s and
/// downward API volume files without `apiVersion`, an image volume without `pullPolicy` and a
/// projected volume are accepted, as kube-apiserver accepts them after `SetDefaults_*`.
#[test]
fn defaulted_fields_pass_validation_through_the_api_server() {
    use crate::scenario::Scenario;
    use crate::sim::TimelineAction;
    let text = "apiVersion: kubeplay.dev/v1alpha1\nkind: Scenario\nmetadata:\n  name: volumes-env\nnodes:\n  - name: n1\n";
    let mut sim = Scenario::parse(text)
        .expect("scenario parses")
        .build()
        .expect("scenario builds");
    let spec = json!({
        "volumes": [
            {"name": "data", "emptyDir": {"sizeLimit": "1Gi"}},
            {"name": "info", "downwardAPI": {"items": [{"path": "labels", "fieldRef": {"fieldPath": "metadata.labels"}}]}},
            {"name": "tools", "image": {"reference": "quay.io/my/tools:v1"}},
            {"name": "all", "projected": {"sources": [
                {"configMap": {"name": "cm", "items": [{"key": "a", "path": "a"}]}},
                {"serviceAccountToken": {"path": "token"}}
            ]}}
        ],
        "containers": [{
            "name": "app", "image": "nginx:1.27",
            "env": [
                {"name": "NODE", "valueFrom": {"fieldRef": {"fieldPath": "spec.nodeName"}}},
                {"name": "MEM", "valueFrom": {"resourceFieldRef": {"resource": "limits.memory", "divisor": "1Mi"}}}
            ],
            "envFrom": [{"prefix": "CFG_", "configMapRef": {"name": "cm"}}],
            "volumeMounts": [
                {"name": "data", "mountPath": "/data"},
                {"name": "info", "mountPath": "/etc/info", "readOnly": true},
                {"name": "tools", "mountPath": "/tools"},
                {"name": "all", "mountPath": "/all"}
            ],
            "livenessProbe": {"httpGet": {"port": 80}},
            "readinessProbe": {"tcpSocket": {"port": "http"}},
            "startupProbe": {"exec": {"command": ["true"]}},
            "lifecycle": {"preStop": {"sleep": {"seconds": 0}}, "postStart": {"httpGet": {"port": 80}}},
            "ports": [{"name": "http", "containerPort": 80}]
        }]
    });
    let apply = |sim: &mut crate::sim::Simulation, manifest: &Value| {
        let yaml = serde_json::to_string(manifest).expect("manifest renders");
        sim.apply_action(TimelineAction::KubectlWithInput("apply -f -".into(), yaml));
        let last = sim.log.last().expect("kubectl logged");
        (last.ok, last.output.trim_end().to_string())
    };
    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": spec});
    assert_eq!(apply(&mut sim, &pod), (true, "pod/p created".to_string()));
    let deploy = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"},
        "spec": {"selector": {"matchLabels": {"app": "d"}},
                 "template": {"metadata": {"labels": {"app": "d"}}, "spec": spec}}});
    assert_eq!(
        apply(&mut sim, &deploy),
        (true, "deployment.apps/d created".to_string())
    );
    // A mount of a volume the pod does not have is refused, with upstream's field error.
    let mut bad = pod.clone();
    bad["metadata"]["name"] = json!("q");
    bad["spec"]["containers"][0]["volumeMounts"][0]["name"] = json!("nope");
    let (ok, out) = apply(&mut sim, &bad);
    assert!(!ok, "{out}");
    assert!(
        out.contains("spec.containers[0].volumeMounts[0].name: Not found: \"nope\""),
        "{out}"
    );
}

/// An emptyDir `sizeLimit` that is not a quantity is refused with the quantity format message
/// (kube-apiserver refuses it while decoding, as it does container resource quantities).
#[test]
fn empty_dir_size_limit_must_be_a_quantity() {
    let vols = serde_json::json!([{"name": "v", "emptyDir": {"sizeLimit": "zz"}}]);
    let (_, errs) = validate_volumes(Some(&vols), None, "spec.volumes", true);
    let msgs: Vec<String> = errs.iter().map(ToString::to_string).collect();
    assert_eq!(
        msgs,
        vec![format!(
            "spec.volumes[0].emptyDir.sizeLimit: Invalid value: \"zz\": {}",
            crate::api::validation::quantity::ERR_FORMAT_WRONG
        )]
    );
    let ok = serde_json::json!([{"name": "v", "emptyDir": {"sizeLimit": "1Gi"}}]);
    assert!(validate_volumes(Some(&ok), None, "spec.volumes", true)
        .1
        .is_empty());
}
