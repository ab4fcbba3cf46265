//! The PersistentVolumeClaim and Service tables: `printPersistentVolumeClaim` (STATUS VOLUME
//! CAPACITY ACCESS MODES STORAGECLASS VOLUMEATTRIBUTESCLASS; wide VOLUMEMODE) and
//! `printService` (TYPE CLUSTER-IP EXTERNAL-IP PORT(S); wide SELECTOR).

use super::{translate_timestamp_since, PrintOptions};
use crate::api::{labels_string, Object, PersistentVolumeClaim, Service};
use crate::kubectl::table::Column;
use serde_json::Value;

pub const PVC_COLUMNS: &[Column] = &[
    Column::name("Name"),
    Column::std("Status"),
    Column::std("Volume"),
    Column::std("Capacity"),
    Column::std("Access Modes"),
    Column::std("StorageClass"),
    Column::std("VolumeAttributesClass"),
    Column::std("Age"),
    Column::wide("VolumeMode"),
];

pub const SERVICE_COLUMNS: &[Column] = &[
    Column::name("Name"),
    Column::std("Type"),
    Column::std("Cluster-IP"),
    Column::std("External-IP"),
    Column::std("Port(s)"),
    Column::std("Age"),
    Column::wide("Selector"),
];

/// `loadBalancerWidth`: the EXTERNAL-IP of a LoadBalancer is clipped to this without `-o wide`.
const LOAD_BALANCER_WIDTH: usize = 16;

/// `helper.GetAccessModesAsString`: the modes present, in a fixed order, as abbreviations.
pub fn access_modes_as_string(modes: &[String]) -> String {
    let mut out = vec![];
    for (full, short) in [
        ("ReadWriteOnce", "RWO"),
        ("ReadOnlyMany", "ROX"),
        ("ReadWriteMany", "RWX"),
        ("ReadWriteOncePod", "RWOP"),
    ] {
        if modes.iter().any(|m| m == full) {
            out.push(short);
        }
    }
    out.join(",")
}

/// `helper.GetPersistentVolumeClaimClass`: the beta annotation wins over the field.
pub fn claim_class(pvc: &PersistentVolumeClaim) -> String {
    if let Some(c) = pvc
        .metadata
        .annotations
        .get("volume.beta.kubernetes.io/storage-class")
    {
        return c.clone();
    }
    pvc.spec.storage_class_name.clone().unwrap_or_default()
}

pub fn pvc_row(o: &Object, opts: &PrintOptions) -> Vec<String> {
    let Object::PersistentVolumeClaim(pvc) = o else {
        return vec![];
    };
    let phase = if pvc.metadata.deletion_timestamp.is_some() {
        "Terminating".to_string()
    } else {
        pvc.status.phase.clone()
    };
    let vac = match pvc.spec.extra.get("volumeAttributesClassName") {
        Some(Value::String(s)) => s.clone(),
        _ => "<unset>".to_string(),
    };
    let (capacity, access) = if pvc.spec.volume_name.is_empty() {
        (String::new(), String::new())
    } else {
        (
            pvc.status
                .capacity
                .get("storage")
                .map(|q| q.0.clone())
                .unwrap_or_else(|| "0".into()),
            access_modes_as_string(&pvc.status.access_modes),
        )
    };
    let mut cells = vec![
        pvc.metadata.name.clone(),
        phase,
        pvc.spec.volume_name.clone(),
        capacity,
        access,
        claim_class(pvc),
        vac,
        translate_timestamp_since(pvc.metadata.creation_timestamp, opts.now),
    ];
    if opts.wide {
        cells.push(
            pvc.spec
                .volume_mode
                .clone()
                .unwrap_or_else(|| "<unset>".into()),
        );
    }
    cells
}

fn strings_at(v: Option<&Value>) -> Vec<String> {
    match v {
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(|x| x.as_str().map(str::to_string))
            .collect(),
        _ => vec![],
    }
}

/// `loadBalancerStatusStringer`: the ingress IPs (else hostnames), sorted and de-duplicated,
/// clipped to 16 bytes unless wide.
fn load_balancer_status_string(svc: &Service, wide: bool) -> String {
    let mut set = std::collections::BTreeSet::new();
    if let Some(Value::Array(ing)) = svc.status.load_balancer.get("ingress") {
        for i in ing {
            let ip = i.get("ip").and_then(Value::as_str).unwrap_or("");
            let host = i.get("hostname").and_then(Value::as_str).unwrap_or("");
            if !ip.is_empty() {
                set.insert(ip.to_string());
            } else if !host.is_empty() {
                set.insert(host.to_string());
            }
        }
    }
    let r = set.into_iter().collect::<Vec<_>>().join(",");
    if !wide && r.len() > LOAD_BALANCER_WIDTH {
        // Go cuts bytes; cut at the char boundary at or before it so nothing panics.
        let mut cut = LOAD_BALANCER_WIDTH - 3;
        while !r.is_char_boundary(cut) {
            cut -= 1;
        }
        format!("{}...", &r[..cut])
    } else {
        r
    }
}

/// `getServiceExternalIP`.
pub fn service_external_ip(svc: &Service, wide: bool) -> String {
    let external_ips = strings_at(svc.spec.extra.get("externalIPs"));
    match svc.spec.type_.as_str() {
        "ClusterIP" | "NodePort" => {
            if external_ips.is_empty() {
                "<none>".into()
            } else {
                external_ips.join(",")
            }
        }
        "LoadBalancer" => {
            let lb = load_balancer_status_string(svc, wide);
            if !external_ips.is_empty() {
                let mut r: Vec<String> = if lb.is_empty() {
                    vec![]
                } else {
                    lb.split(',').map(str::to_string).collect()
                };
                r.extend(external_ips);
                return r.join(",");
            }
            if lb.is_empty() {
                "<pending>".into()
            } else {
                lb
            }
        }
        "ExternalName" => svc
            .spec
            .extra
            .get("externalName")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        _ => "<unknown>".into(),
    }
}

/// `makePortString`: `port/protocol`, or `port:nodePort/protocol`.
pub fn make_port_string(svc: &Service) -> String {
    svc.spec
        .ports
        .iter()
        .map(|p| {
            if p.node_port > 0 {
                format!("{}:{}/{}", p.port, p.node_port, p.protocol)
            } else {
                format!("{}/{}", p.port, p.protocol)
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

pub fn service_row(o: &Object, opts: &PrintOptions) -> Vec<String> {
    let Object::Service(svc) = o else {
        return vec![];
    };
    // The API server always fills `clusterIPs` from `clusterIP`; objects loaded without it
    // fall back to `clusterIP`.
    let internal_ip = svc
        .spec
        .cluster_ips
        .first()
        .cloned()
        .or_else(|| (!svc.spec.cluster_ip.is_empty()).then(|| svc.spec.cluster_ip.clone()))
        .unwrap_or_else(|| "<none>".into());
    let mut ports = make_port_string(svc);
    if ports.is_empty() {
        ports = "<none>".into();
    }
    let mut cells = vec![
        svc.metadata.name.clone(),
        svc.spec.type_.clone(),
        internal_ip,
        service_external_ip(svc, opts.wide),
        ports,
        translate_timestamp_since(svc.metadata.creation_timestamp, opts.now),
    ];
    if opts.wide {
        cells.push(labels_string(&svc.spec.selector));
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{
        ObjectMeta, PersistentVolumeClaimSpec, PersistentVolumeClaimStatus, Quantity, ServicePort,
        ServiceSpec,
    };
    use crate::kubectl::printers::testutil::now;

    fn opts(wide: bool) -> PrintOptions {
        PrintOptions { wide, now: now() }
    }

    /// Port of TestPrintPersistentVolumeClaim (pkg/printers/internalversion/printers_test.go),
    /// with the VOLUMEATTRIBUTESCLASS column of current releases.
    #[test]
    fn print_persistent_volume_claim() {
        let pvc = |name: &str,
                   volume: &str,
                   class: Option<&str>,
                   mode: Option<&str>,
                   phase: &str,
                   access: &str,
                   cap: &str| {
            Object::PersistentVolumeClaim(PersistentVolumeClaim {
                metadata: ObjectMeta {
                    name: name.into(),
                    ..Default::default()
                },
                spec: PersistentVolumeClaimSpec {
                    volume_name: volume.into(),
                    storage_class_name: class.map(str::to_string),
                    volume_mode: mode.map(str::to_string),
                    ..Default::default()
                },
                status: PersistentVolumeClaimStatus {
                    phase: phase.into(),
                    access_modes: vec![access.into()],
                    capacity: [("storage".to_string(), Quantity(cap.into()))]
                        .into_iter()
                        .collect(),
                    ..Default::default()
                },
                ..Default::default()
            })
        };
        let fs = Some("Filesystem");
        let cases = [
            (
                pvc(
                    "test1",
                    "my-volume",
                    None,
                    fs,
                    "Bound",
                    "ReadOnlyMany",
                    "4Gi",
                ),
                [
                    "test1",
                    "Bound",
                    "my-volume",
                    "4Gi",
                    "ROX",
                    "",
                    "<unset>",
                    "<unknown>",
                    "Filesystem",
                ],
            ),
            (
                pvc("test2", "", None, fs, "Lost", "ReadOnlyMany", "4Gi"),
                [
                    "test2",
                    "Lost",
                    "",
                    "",
                    "",
                    "",
                    "<unset>",
                    "<unknown>",
                    "Filesystem",
                ],
            ),
            (
                pvc(
                    "test3",
                    "my-volume",
                    None,
                    fs,
                    "Pending",
                    "ReadWriteMany",
                    "10Gi",
                ),
                [
                    "test3",
                    "Pending",
                    "my-volume",
                    "10Gi",
                    "RWX",
                    "",
                    "<unset>",
                    "<unknown>",
                    "Filesystem",
                ],
            ),
            (
                pvc(
                    "test4",
                    "my-volume",
                    Some("my-scn"),
                    fs,
                    "Pending",
                    "ReadWriteOnce",
                    "10Gi",
                ),
                [
                    "test4",
                    "Pending",
                    "my-volume",
                    "10Gi",
                    "RWO",
                    "my-scn",
                    "<unset>",
                    "<unknown>",
                    "Filesystem",
                ],
            ),
            (
                pvc(
                    "test5",
                    "my-volume",
                    Some("my-scn"),
                    None,
                    "Pending",
                    "ReadWriteOnce",
                    "10Gi",
                ),
                [
                    "test5",
                    "Pending",
                    "my-volume",
                    "10Gi",
                    "RWO",
                    "my-scn",
                    "<unset>",
                    "<unknown>",
                    "<unset>",
                ],
            ),
        ];
        for (o, want) in cases {
            assert_eq!(pvc_row(&o, &opts(true)), want);
            assert_eq!(pvc_row(&o, &opts(false)), want[..8]);
        }
        assert_eq!(
            access_modes_as_string(&["ReadWriteMany".into(), "ReadWriteOnce".into()]),
            "RWO,RWX"
        );
    }

    /// Port of TestPrintService (pkg/printers/internalversion/printers_test.go).
    #[test]
    fn print_service() {
        let svc = |name: &str, type_: &str, port: i32, node_port: i32, extra: Value, st: Value| {
            let mut spec = ServiceSpec {
                type_: type_.into(),
                ports: vec![ServicePort {
                    protocol: "tcp".into(),
                    port,
                    node_port,
                    ..Default::default()
                }],
                cluster_ips: vec!["10.9.8.7".into()],
                selector: [("foo".to_string(), "bar".to_string())]
                    .into_iter()
                    .collect(),
                ..Default::default()
            };
            if let Value::Object(m) = extra {
                spec.extra = m;
            }
            let mut s = Service {
                metadata: ObjectMeta {
                    name: name.into(),
                    ..Default::default()
                },
                spec,
                ..Default::default()
            };
            if let Value::Object(m) = st {
                s.status.load_balancer = m;
            }
            Object::Service(s)
        };
        let none = serde_json::json!({});
        let t1 = svc("test1", "ClusterIP", 2233, 0, none.clone(), none.clone());
        assert_eq!(
            service_row(&t1, &opts(false)),
            [
                "test1",
                "ClusterIP",
                "10.9.8.7",
                "<none>",
                "2233/tcp",
                "<unknown>"
            ]
        );
        assert_eq!(
            service_row(&t1, &opts(true)),
            [
                "test1",
                "ClusterIP",
                "10.9.8.7",
                "<none>",
                "2233/tcp",
                "<unknown>",
                "foo=bar"
            ]
        );
        let t2 = svc("test2", "NodePort", 8888, 9999, none.clone(), none.clone());
        assert_eq!(
            service_row(&t2, &opts(false)),
            [
                "test2",
                "NodePort",
                "10.9.8.7",
                "<none>",
                "8888:9999/tcp",
                "<unknown>"
            ]
        );
        let t3 = svc("test3", "LoadBalancer", 8888, 0, none.clone(), none.clone());
        assert_eq!(
            service_row(&t3, &opts(false)),
            [
                "test3",
                "LoadBalancer",
                "10.9.8.7",
                "<pending>",
                "8888/tcp",
                "<unknown>"
            ]
        );
        let t4 = svc(
            "test4",
            "LoadBalancer",
            8888,
            0,
            serde_json::json!({"externalIPs": ["80.11.12.10"]}),
            none.clone(),
        );
        assert_eq!(service_row(&t4, &opts(false))[3], "80.11.12.10");
        let t5 = svc(
            "test5",
            "LoadBalancer",
            8888,
            0,
            serde_json::json!({"externalIPs": ["80.11.12.10"]}),
            serde_json::json!({"ingress": [{"ip": "3.4.5.6", "hostname": "test.cluster.com"}]}),
        );
        assert_eq!(service_row(&t5, &opts(false))[3], "3.4.5.6,80.11.12.10");
        let t6 = svc(
            "test6",
            "ExternalName",
            8888,
            0,
            serde_json::json!({"externalName": "my.database.example.com"}),
            none.clone(),
        );
        assert_eq!(service_row(&t6, &opts(false))[3], "my.database.example.com");
        let t7 = svc(
            "test7",
            "LoadBalancer",
            8888,
            0,
            none.clone(),
            serde_json::json!({"ingress": [{"ip": "300.400.500.600"}, {"ip": "100.200.300.400"}]}),
        );
        assert_eq!(service_row(&t7, &opts(false))[3], "100.200.300.4...");
        assert_eq!(
            service_row(&t7, &opts(true))[3],
            "100.200.300.400,300.400.500.600"
        );
    }
}
