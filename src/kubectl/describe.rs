//! `kubectl describe` (`staging/src/k8s.io/kubectl/pkg/describe/describe.go`) for Pods, Nodes,
//! ReplicaSets, ReplicationControllers and Deployments (Jobs, CronJobs, StatefulSets, DaemonSets,
//! PersistentVolumeClaims and Services in `describe_workloads.rs`): the same sections, tab layout (`tabbedString`:
//! minwidth 0, padding 2) and the `Events:` table at the end.

use super::args::{self, Flag};
use super::events::{self, Event};
use super::printers::node::{addresses, find_node_roles, node_info};
use super::printers::translate_timestamp_since;
use super::resource::{self, Item, Kind, Request};
use super::tabwriter;
use super::{Namespace, Out};
use crate::api::{
    human_duration, labels_string, parse_quantity_milli, Container, ContainerState,
    ContainerStatus, Deployment, Node, Object, Pod, PodTemplateSpec, Quantity, ReplicaSet,
    ReplicationController, Time, Toleration,
};
use crate::sim::Simulation;
use crate::sort::CollectBTreeMap as _;
use serde_json::Value;
use std::collections::BTreeMap;

#[path = "describe_hpa.rs"]
mod hpa;
#[path = "describe_pdb.rs"]
mod pdb;
#[path = "describe_workloads.rs"]
mod workloads;

const FLAGS: &[Flag] = &[
    Flag::str("selector").short('l'),
    Flag::bool("all-namespaces").short('A'),
    Flag::bool("show-events"),
    Flag::strings("filename").short('f'),
    Flag::bool("recursive").short('R'),
    Flag::int("chunk-size"),
];

/// kubectl's `PrefixWriter` over a tab writer that lays out text on `flush`.
struct Writer {
    pending: String,
    out: String,
}

impl Writer {
    fn new() -> Writer {
        Writer {
            pending: String::new(),
            out: String::new(),
        }
    }
    /// `Write(level, ...)`: two spaces per level, then the text.
    fn w(&mut self, level: usize, s: &str) {
        for _ in 0..level {
            self.pending.push_str("  ");
        }
        self.pending.push_str(&super::table::escape_terminal(s));
    }
    fn flush(&mut self) {
        self.out.push_str(&tabwriter::format(
            &self.pending,
            tabwriter::DESCRIBE_MINWIDTH,
            tabwriter::DESCRIBE_PADDING,
        ));
        self.pending.clear();
    }
    fn finish(mut self) -> String {
        self.flush();
        self.out
    }
}

const WEEKDAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// Go's `time.RFC1123Z` in UTC: `Wed, 01 Jan 2025 00:00:00 +0000`.
pub fn rfc1123z(t: Time) -> String {
    let (y, mo, d, h, mi, s, wd) = t.civil();
    format!(
        "{}, {d:02} {} {y:04} {h:02}:{mi:02}:{s:02} +0000",
        WEEKDAYS[wd as usize % 7],
        MONTHS[(mo as usize).saturating_sub(1) % 12]
    )
}

/// Go's zero `time.Time` formatted as RFC1123Z (for unset timestamps).
const ZERO_TIME: &str = "Mon, 01 Jan 0001 00:00:00 +0000";

fn time_or_zero(t: Option<Time>) -> String {
    t.map(rfc1123z).unwrap_or_else(|| ZERO_TIME.into())
}

/// Canonical quantity text (`resource.Quantity.String()`) for a value in thousandths;
/// `binary` for quantities written with a binary suffix (`Ki`, `Mi`, ...).
pub fn format_quantity(milli: i128, binary: bool) -> String {
    if milli == 0 {
        return "0".into();
    }
    let (neg, m) = (milli < 0, milli.abs());
    let sign = if neg { "-" } else { "" };
    if binary && m >= 1024 * 1000 && m % 1000 == 0 {
        let mut v = m / 1000;
        let mut e = 0;
        while e < 6 && v % 1024 == 0 {
            v /= 1024;
            e += 1;
        }
        let suffix = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"][e];
        return format!("{sign}{v}{suffix}");
    }
    // DecimalSI: move factors of ten into the exponent, then make it a multiple of three.
    let mut amount = m;
    let mut exp: i32 = -3;
    while amount % 10 == 0 {
        amount /= 10;
        exp += 1;
    }
    while exp.rem_euclid(3) != 0 {
        amount *= 10;
        exp -= 1;
    }
    let suffix = match exp {
        -9 => "n",
        -6 => "u",
        -3 => "m",
        0 => "",
        3 => "k",
        6 => "M",
        9 => "G",
        12 => "T",
        15 => "P",
        18 => "E",
        _ => return format!("{sign}{amount}e{exp}"),
    };
    format!("{sign}{amount}{suffix}")
}

fn is_binary(q: &Quantity) -> bool {
    q.0.trim().ends_with('i')
}

/// `Quantity.String()` of a quantity as written.
pub fn quantity_string(q: &Quantity) -> String {
    match parse_quantity_milli(&q.0) {
        Ok(m) => format_quantity(m, is_binary(q)),
        Err(_) => q.0.clone(),
    }
}

/// `printLabelsMultilineWithIndent`.
fn print_labels_multiline(w: &mut Writer, title: &str, labels: &BTreeMap<String, String>) {
    w.w(0, &format!("{title}:\t"));
    if labels.is_empty() {
        w.w(0, "<none>\n");
        return;
    }
    for (i, (k, v)) in labels.iter().enumerate() {
        if i != 0 {
            w.w(0, "\t");
        }
        w.w(0, &format!("{k}={v}\n"));
    }
}

/// `printAnnotationsMultiline`: the last-applied configuration is hidden; long values are
/// printed on their own lines and shortened to 140 characters.
fn print_annotations_multiline(
    w: &mut Writer,
    title: &str,
    annotations: &BTreeMap<String, String>,
) {
    w.w(0, &format!("{title}:\t"));
    let keys: Vec<&String> = annotations
        .keys()
        .filter(|k| k.as_str() != super::apply::LAST_APPLIED)
        .collect();
    if keys.is_empty() {
        w.w(0, "<none>\n");
        return;
    }
    const MAX: usize = 140;
    for (i, k) in keys.into_iter().enumerate() {
        if i != 0 {
            w.w(0, "\t");
        }
        let value = annotations[k].strip_suffix('\n').unwrap_or(&annotations[k]);
        if value.len() + k.len() + 2 > MAX || value.contains('\n') {
            w.w(0, &format!("{k}:\n"));
            for line in value.split('\n') {
                let short = if line.len() > MAX - 2 {
                    let mut end = MAX - 2;
                    while !line.is_char_boundary(end) {
                        end -= 1;
                    }
                    format!("{}...", &line[..end])
                } else {
                    line.to_string()
                };
                w.w(0, &format!("\t  {short}\n"));
            }
        } else {
            w.w(0, &format!("{k}: {value}\n"));
        }
    }
}

/// `printTolerationsMultilineWithIndent`.
fn print_tolerations(w: &mut Writer, title: &str, tolerations: &[Toleration]) {
    w.w(0, &format!("{title}:\t"));
    if tolerations.is_empty() {
        w.w(0, "<none>\n");
        return;
    }
    let mut ts = tolerations.to_vec();
    crate::sort::sort_by(&mut ts, |a, b| a.key.cmp(&b.key));
    for (i, t) in ts.iter().enumerate() {
        if i != 0 {
            w.w(0, "\t");
        }
        let mut s = t.key.clone();
        if !t.value.is_empty() {
            s.push_str(&format!("={}", t.value));
        }
        if !t.effect.is_empty() {
            s.push_str(&format!(":{}", t.effect));
        }
        if t.operator == "Exists" && t.value.is_empty() {
            if !t.key.is_empty() || !t.effect.is_empty() {
                s.push_str(" op=Exists");
            } else {
                s.push_str("op=Exists");
            }
        }
        if let Some(secs) = t.toleration_seconds {
            s.push_str(&format!(" for {secs}s"));
        }
        w.w(0, &format!("{s}\n"));
    }
}

/// `DescribeEvents`.
fn describe_events(w: &mut Writer, evs: &[Event], now: Time) {
    if evs.is_empty() {
        w.w(0, "Events:\t<none>\n");
        return;
    }
    w.flush();
    w.w(0, "Events:\n  Type\tReason\tAge\tFrom\tMessage\n");
    w.w(1, "----\t------\t----\t----\t-------\n");
    use crate::kubectl::printers::event::{micro_since, since};
    for e in evs {
        // Timestamps as the API serves them (whole seconds); eventTime first when set.
        let first = match e.event_time {
            Some(t) if !t.is_zero() => micro_since(Some(t), now),
            _ => since(e.first, now),
        };
        let interval = if let Some((count, last)) = e.series {
            format!("{} (x{count} over {first})", micro_since(Some(last), now))
        } else if e.count > 1 {
            format!("{} (x{} over {first})", since(e.last, now), e.count)
        } else {
            first
        };
        let source = if e.source.is_empty() {
            &e.reporting_controller
        } else {
            &e.source
        };
        // kubernetes/kubernetes#133627 (1.35): a container's event names its fieldPath.
        let message = if e.field_path.is_empty() {
            e.message.trim().to_string()
        } else {
            format!("{}: {}", e.field_path, e.message.trim())
        };
        w.w(
            1,
            &format!(
                "{}\t{}\t{interval}\t{source}\t{message}\n",
                e.type_, e.reason,
            ),
        );
    }
}

fn extra_str<'a>(m: &'a serde_json::Map<String, Value>, k: &str) -> &'a str {
    m.get(k).and_then(Value::as_str).unwrap_or_default()
}

/// `DescribeProbe`, with the API defaults for unset fields.
fn describe_probe(p: &Value) -> String {
    let n = |k: &str, d: i64| p.get(k).and_then(Value::as_i64).unwrap_or(d);
    let attrs = format!(
        "delay={}s timeout={}s period={}s #success={} #failure={}",
        n("initialDelaySeconds", 0),
        n("timeoutSeconds", 1),
        n("periodSeconds", 10),
        n("successThreshold", 1),
        n("failureThreshold", 3)
    );
    let port_str = |v: Option<&Value>| match v {
        Some(Value::Number(x)) => x.to_string(),
        Some(Value::String(s)) => s.clone(),
        _ => String::new(),
    };
    if let Some(e) = p.get("exec") {
        let cmd: Vec<String> = e
            .get("command")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        return format!("exec [{}] {attrs}", cmd.join(" "));
    }
    if let Some(h) = p.get("httpGet") {
        let scheme = h
            .get("scheme")
            .and_then(Value::as_str)
            .unwrap_or("HTTP")
            .to_lowercase();
        let host = h.get("host").and_then(Value::as_str).unwrap_or_default();
        let port = port_str(h.get("port"));
        let path = h.get("path").and_then(Value::as_str).unwrap_or_default();
        let hostport = if port.is_empty() {
            host.to_string()
        } else if host.contains(':') {
            format!("[{host}]:{port}")
        } else {
            format!("{host}:{port}")
        };
        return format!("http-get {scheme}://{hostport}{path} {attrs}");
    }
    if let Some(t) = p.get("tcpSocket") {
        let host = t.get("host").and_then(Value::as_str).unwrap_or_default();
        return format!("tcp-socket {host}:{} {attrs}", port_str(t.get("port")));
    }
    if let Some(g) = p.get("grpc") {
        let service = g.get("service").and_then(Value::as_str).unwrap_or_default();
        return format!(
            "grpc <pod>:{} {service} {attrs}",
            g.get("port").and_then(Value::as_i64).unwrap_or(0)
        );
    }
    format!("unknown {attrs}")
}

/// `describeStatus`.
fn describe_state(w: &mut Writer, name: &str, state: Option<&ContainerState>) {
    let st = state.cloned().unwrap_or_default();
    if let Some(r) = &st.running {
        w.w(2, &format!("{name}:\tRunning\n"));
        w.w(3, &format!("Started:\t{}\n", time_or_zero(r.started_at)));
    } else if let Some(wt) = &st.waiting {
        w.w(2, &format!("{name}:\tWaiting\n"));
        if !wt.reason.is_empty() {
            w.w(3, &format!("Reason:\t{}\n", wt.reason));
        }
    } else if let Some(t) = &st.terminated {
        w.w(2, &format!("{name}:\tTerminated\n"));
        if !t.reason.is_empty() {
            w.w(3, &format!("Reason:\t{}\n", t.reason));
        }
        if !t.message.is_empty() {
            w.w(3, &format!("Message:\t{}\n", t.message));
        }
        w.w(3, &format!("Exit Code:\t{}\n", t.exit_code));
        w.w(3, &format!("Started:\t{}\n", time_or_zero(t.started_at)));
        w.w(3, &format!("Finished:\t{}\n", time_or_zero(t.finished_at)));
    } else {
        w.w(2, &format!("{name}:\tWaiting\n"));
    }
}

/// Resolves a `fieldRef` for the Environment section (`EnvValueRetriever`).
fn field_ref_value(pod: Option<&Pod>, path: &str) -> String {
    let Some(p) = pod else {
        return String::new();
    };
    if let Some(k) = path
        .strip_prefix("metadata.labels['")
        .and_then(|s| s.strip_suffix("']"))
    {
        return p.metadata.labels.get(k).cloned().unwrap_or_default();
    }
    if let Some(k) = path
        .strip_prefix("metadata.annotations['")
        .and_then(|s| s.strip_suffix("']"))
    {
        return p.metadata.annotations.get(k).cloned().unwrap_or_default();
    }
    match path {
        "metadata.name" => p.metadata.name.clone(),
        "metadata.namespace" => p.metadata.namespace.clone(),
        "metadata.uid" => p.metadata.uid.clone(),
        "spec.nodeName" => p.spec.node_name.clone(),
        "spec.serviceAccountName" => extra_str(&p.spec.extra, "serviceAccountName").to_string(),
        "status.hostIP" => p.status.host_ip.clone(),
        "status.podIP" => p.status.pod_ip.clone(),
        _ => String::new(),
    }
}

/// A `securityContext.seccompProfile` as describe prints it: `SeccompProfile:\tTYPE`, then
/// for `Localhost` profiles `LocalhostProfile:\tPATH` (at `profile_level`).
fn describe_seccomp_profile(
    w: &mut Writer,
    security_context: Option<&Value>,
    level: usize,
    profile_level: usize,
) {
    let Some(p) = security_context
        .and_then(|sc| sc.get("seccompProfile"))
        .filter(|p| !p.is_null())
    else {
        return;
    };
    let ty = extra_v(p, "type");
    w.w(level, &format!("SeccompProfile:\t{ty}\n"));
    if ty == "Localhost" {
        w.w(
            profile_level,
            &format!("LocalhostProfile:\t{}\n", extra_v(p, "localhostProfile")),
        );
    }
}

/// `describeContainers`: one block per container with its status when there is one.
fn describe_containers(
    w: &mut Writer,
    label: &str,
    containers: &[Container],
    statuses: &[ContainerStatus],
    pod: Option<&Pod>,
    space: &str,
) {
    let none = if containers.is_empty() { " <none>" } else { "" };
    w.w(0, &format!("{space}{label}:{none}\n"));
    let name_indent = if space.is_empty() { "" } else { " " };
    for c in containers {
        let status = statuses.iter().find(|s| s.name == c.name);
        w.w(1, &format!("{name_indent}{}:\n", c.name));
        if let Some(s) = status {
            w.w(
                2,
                &format!("Container ID:\t{}\n", extra_str(&s.extra, "containerID")),
            );
        }
        w.w(2, &format!("Image:\t{}\n", c.image));
        if let Some(s) = status {
            w.w(2, &format!("Image ID:\t{}\n", s.image_id));
        }
        let ports: Vec<String> = c
            .ports
            .iter()
            .map(|p| {
                let proto = p.protocol.clone().unwrap_or_else(|| "TCP".into());
                let mut s = format!("{}/{proto}", p.container_port);
                if let Some(n) = p.name.as_ref().filter(|n| !n.is_empty()) {
                    s = format!("{s} ({n})");
                }
                s
            })
            .collect();
        let host_ports: Vec<String> = c
            .ports
            .iter()
            .map(|p| {
                let proto = p.protocol.clone().unwrap_or_else(|| "TCP".into());
                let hp = p.extra.get("hostPort").and_then(Value::as_i64).unwrap_or(0);
                let mut s = format!("{hp}/{proto}");
                if let Some(n) = p.name.as_ref().filter(|n| !n.is_empty()) {
                    s = format!("{s} ({n})");
                }
                s
            })
            .collect();
        let (ps, hps) = (ports.join(", "), host_ports.join(", "));
        let or_none = |s: &str| {
            if s.is_empty() {
                "<none>".to_string()
            } else {
                s.to_string()
            }
        };
        if ps.contains(',') {
            w.w(2, &format!("Ports:\t{ps}\n"));
        } else {
            w.w(2, &format!("Port:\t{}\n", or_none(&ps)));
        }
        if hps.contains(',') {
            w.w(2, &format!("Host Ports:\t{hps}\n"));
        } else {
            w.w(2, &format!("Host Port:\t{}\n", or_none(&hps)));
        }
        describe_seccomp_profile(w, c.extra.get("securityContext"), 2, 3);
        for (key, title) in [("command", "Command"), ("args", "Args")] {
            if let Some(list) = c
                .extra
                .get(key)
                .and_then(Value::as_array)
                .filter(|a| !a.is_empty())
            {
                w.w(2, &format!("{title}:\n"));
                for item in list {
                    for line in item.as_str().unwrap_or_default().split('\n') {
                        w.w(3, &format!("{line}\n"));
                    }
                }
            }
        }
        if let Some(s) = status {
            describe_state(w, "State", s.state.as_ref());
            if s.last_state
                .as_ref()
                .and_then(|l| l.terminated.as_ref())
                .is_some()
            {
                describe_state(w, "Last State", s.last_state.as_ref());
            }
            w.w(
                2,
                &format!("Ready:\t{}\n", if s.ready { "True" } else { "False" }),
            );
            w.w(2, &format!("Restart Count:\t{}\n", s.restart_count));
        }
        if let Some(r) = &c.resources {
            if !r.limits.is_empty() {
                w.w(2, "Limits:\n");
            }
            for (k, q) in &r.limits {
                w.w(3, &format!("{k}:\t{}\n", quantity_string(q)));
            }
            if !r.requests.is_empty() {
                w.w(2, "Requests:\n");
            }
            for (k, q) in &r.requests {
                w.w(3, &format!("{k}:\t{}\n", quantity_string(q)));
            }
        }
        for (key, title) in [
            ("livenessProbe", "Liveness"),
            ("readinessProbe", "Readiness"),
            ("startupProbe", "Startup"),
        ] {
            if let Some(p) = c.extra.get(key) {
                w.w(2, &format!("{title}:\t{}\n", describe_probe(p)));
            }
        }
        if let Some(ef) = c
            .extra
            .get("envFrom")
            .and_then(Value::as_array)
            .filter(|a| !a.is_empty())
        {
            w.w(2, "Environment Variables from:\n");
            for e in ef {
                let (from, r) = if let Some(r) = e.get("configMapRef") {
                    ("ConfigMap", r)
                } else if let Some(r) = e.get("secretRef") {
                    ("Secret", r)
                } else {
                    ("", &Value::Null)
                };
                let name = r.get("name").and_then(Value::as_str).unwrap_or_default();
                let optional = r.get("optional").and_then(Value::as_bool).unwrap_or(false);
                match e
                    .get("prefix")
                    .and_then(Value::as_str)
                    .filter(|p| !p.is_empty())
                {
                    None => w.w(3, &format!("{name}\t{from}\tOptional: {optional}\n")),
                    Some(p) => w.w(
                        3,
                        &format!("{name}\t{from} with prefix '{p}'\tOptional: {optional}\n"),
                    ),
                }
            }
        }
        let env = c
            .extra
            .get("env")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        w.w(
            2,
            &format!(
                "Environment:{}\n",
                if env.is_empty() { "\t<none>" } else { "" }
            ),
        );
        for e in &env {
            let name = e.get("name").and_then(Value::as_str).unwrap_or_default();
            match e.get("valueFrom") {
                None => {
                    let value = e.get("value").and_then(Value::as_str).unwrap_or_default();
                    for (i, line) in value.split('\n').enumerate() {
                        if i == 0 {
                            w.w(3, &format!("{name}:\t{line}\n"));
                        } else {
                            w.w(3, &format!("\t{line}\n"));
                        }
                    }
                }
                Some(vf) => {
                    if let Some(fr) = vf.get("fieldRef") {
                        let path = fr
                            .get("fieldPath")
                            .and_then(Value::as_str)
                            .unwrap_or_default();
                        let api = fr.get("apiVersion").and_then(Value::as_str).unwrap_or("v1");
                        w.w(
                            3,
                            &format!("{name}:\t{} ({api}:{path})\n", field_ref_value(pod, path)),
                        );
                    } else if let Some(rf) = vf.get("resourceFieldRef") {
                        let res = rf
                            .get("resource")
                            .and_then(Value::as_str)
                            .unwrap_or_default();
                        w.w(3, &format!("{name}:\t ({res})\n"));
                    } else if let Some(s) = vf.get("secretKeyRef") {
                        let opt = s.get("optional").and_then(Value::as_bool).unwrap_or(false);
                        w.w(
                            3,
                            &format!(
                                "{name}:\t<set to the key '{}' in secret '{}'>\tOptional: {opt}\n",
                                extra_v(s, "key"),
                                extra_v(s, "name")
                            ),
                        );
                    } else if let Some(s) = vf.get("configMapKeyRef") {
                        let opt = s.get("optional").and_then(Value::as_bool).unwrap_or(false);
                        w.w(3, &format!("{name}:\t<set to the key '{}' of config map '{}'>\tOptional: {opt}\n", extra_v(s, "key"), extra_v(s, "name")));
                    }
                }
            }
        }
        let mut mounts: Vec<Value> = c
            .extra
            .get("volumeMounts")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        w.w(
            2,
            &format!(
                "Mounts:{}\n",
                if mounts.is_empty() { "\t<none>" } else { "" }
            ),
        );
        crate::sort::sort_by_key(&mut mounts, |m| extra_v(m, "mountPath"));
        for m in &mounts {
            let mut flags = vec![
                if m.get("readOnly").and_then(Value::as_bool).unwrap_or(false) {
                    "ro".to_string()
                } else {
                    "rw".to_string()
                },
            ];
            let sub = extra_v(m, "subPath");
            if !sub.is_empty() {
                flags.push(format!("path={sub:?}"));
            }
            w.w(
                3,
                &format!(
                    "{} from {} ({})\n",
                    extra_v(m, "mountPath"),
                    extra_v(m, "name"),
                    flags.join(",")
                ),
            );
        }
        // Devices, listed only when there are some; upstream reuses the mounts' `none`
        // suffix, so a container with devices but no mounts prints "Devices:\t<none>".
        let mut devices: Vec<Value> = c
            .extra
            .get("volumeDevices")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        if !devices.is_empty() {
            w.w(
                2,
                &format!(
                    "Devices:{}\n",
                    if mounts.is_empty() { "\t<none>" } else { "" }
                ),
            );
            crate::sort::sort_by_key(&mut devices, |d| extra_v(d, "devicePath"));
            for d in &devices {
                w.w(
                    3,
                    &format!("{} from {}\n", extra_v(d, "devicePath"), extra_v(d, "name")),
                );
            }
        }
    }
}

fn extra_v(v: &Value, k: &str) -> String {
    v.get(k)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

/// `describeVolumes` for the common volume sources.
fn describe_volumes(w: &mut Writer, volumes: Option<&Value>, space: &str) {
    let vols = volumes
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if vols.is_empty() {
        w.w(0, &format!("{space}Volumes:\t<none>\n"));
        return;
    }
    w.w(0, &format!("{space}Volumes:\n"));
    let name_indent = if space.is_empty() { "" } else { " " };
    for v in &vols {
        w.w(1, &format!("{name_indent}{}:\n", extra_v(v, "name")));
        let b = |x: &Value, k: &str| x.get(k).and_then(Value::as_bool).unwrap_or(false);
        if let Some(h) = v.get("hostPath") {
            let t = h.get("type").and_then(Value::as_str).unwrap_or("<none>");
            w.w(2, &format!("Type:\tHostPath (bare host directory volume)\n    Path:\t{}\n    HostPathType:\t{t}\n", extra_v(h, "path")));
        } else if let Some(e) = v.get("emptyDir") {
            let limit = e
                .get("sizeLimit")
                .map(|s| match s {
                    Value::String(s) => quantity_string(&Quantity(s.clone())),
                    other => other.to_string(),
                })
                .filter(|s| s != "0")
                .unwrap_or_else(|| "<unset>".into());
            w.w(2, &format!("Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t{}\n    SizeLimit:\t{limit}\n", extra_v(e, "medium")));
        } else if let Some(s) = v.get("secret") {
            w.w(2, &format!("Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t{}\n    Optional:\t{}\n", extra_v(s, "secretName"), b(s, "optional")));
        } else if let Some(c) = v.get("configMap") {
            w.w(2, &format!("Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t{}\n    Optional:\t{}\n", extra_v(c, "name"), b(c, "optional")));
        } else if let Some(c) = v.get("persistentVolumeClaim") {
            w.w(2, &format!("Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t{}\n    ReadOnly:\t{}\n", extra_v(c, "claimName"), b(c, "readOnly")));
        } else if let Some(d) = v.get("downwardAPI") {
            w.w(2, "Type:\tDownwardAPI (a volume populated by information about the pod)\n    Items:\n");
            for it in d
                .get("items")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
            {
                if let Some(f) = it.get("fieldRef") {
                    w.w(
                        3,
                        &format!("{} -> {}\n", extra_v(f, "fieldPath"), extra_v(&it, "path")),
                    );
                }
                if let Some(r) = it.get("resourceFieldRef") {
                    w.w(
                        3,
                        &format!("{} -> {}\n", extra_v(r, "resource"), extra_v(&it, "path")),
                    );
                }
            }
        } else if let Some(p) = v.get("projected") {
            w.w(
                2,
                "Type:\tProjected (a volume that contains injected data from multiple sources)\n",
            );
            for s in p
                .get("sources")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
            {
                if let Some(x) = s.get("secret") {
                    w.w(
                        2,
                        &format!(
                            "SecretName:\t{}\n    Optional:\t{}\n",
                            extra_v(x, "name"),
                            b(x, "optional")
                        ),
                    );
                } else if s.get("downwardAPI").is_some() {
                    w.w(2, "DownwardAPI:\ttrue\n");
                } else if let Some(x) = s.get("configMap") {
                    w.w(
                        2,
                        &format!(
                            "ConfigMapName:\t{}\n    Optional:\t{}\n",
                            extra_v(x, "name"),
                            b(x, "optional")
                        ),
                    );
                } else if let Some(x) = s.get("serviceAccountToken") {
                    w.w(
                        2,
                        &format!(
                            "TokenExpirationSeconds:\t{}\n",
                            x.get("expirationSeconds")
                                .and_then(Value::as_i64)
                                .unwrap_or(3607)
                        ),
                    );
                }
            }
        } else if let Some(i) = v.get("image") {
            // printImageVolumeSource.
            w.w(2, &format!("Type:\tImage (a container image or OCI artifact)\n    Reference:\t{}\n    PullPolicy:\t{}\n", extra_v(i, "reference"), extra_v(i, "pullPolicy")));
        } else {
            w.w(1, "<unknown>\n");
        }
    }
}

/// `describeTopologySpreadConstraints`: sorted by topology key, one per line.
fn describe_topology_spread_constraints(w: &mut Writer, tscs: Option<&Value>, space: &str) {
    let mut tscs: Vec<&Value> = match tscs.and_then(Value::as_array) {
        Some(a) if !a.is_empty() => a.iter().collect(),
        _ => return,
    };
    crate::sort::sort_by_key(&mut tscs, |t| extra_v(t, "topologyKey"));
    w.w(0, &format!("{space}Topology Spread Constraints:\t"));
    for (i, t) in tscs.iter().enumerate() {
        if i != 0 {
            w.w(0, &format!("{space}\t"));
        }
        let skew = t.get("maxSkew").and_then(Value::as_i64).unwrap_or(0);
        let mut line = format!(
            "{}:{} when max skew {skew} is exceeded",
            extra_v(t, "topologyKey"),
            extra_v(t, "whenUnsatisfiable")
        );
        if let Some(sel) = t.get("labelSelector").filter(|v| !v.is_null()) {
            let formatted =
                match crate::api::value_de::from_value::<crate::api::LabelSelector>(sel.clone()) {
                    Ok(ls) => super::printers::format_label_selector(Some(&ls)),
                    Err(_) => "<error>".to_string(),
                };
            line.push_str(&format!(" for selector {formatted}"));
        }
        w.w(0, &format!("{line}\n"));
    }
}

/// `DescribePodTemplate`.
fn describe_pod_template(w: &mut Writer, t: Option<&PodTemplateSpec>) {
    w.w(0, "Pod Template:\n");
    let Some(t) = t else {
        w.w(1, "<unset>");
        return;
    };
    print_labels_multiline(w, "  Labels", &t.metadata.labels);
    if !t.metadata.annotations.is_empty() {
        print_annotations_multiline(w, "  Annotations", &t.metadata.annotations);
    }
    let sa = extra_str(&t.spec.extra, "serviceAccountName");
    if !sa.is_empty() {
        w.w(1, &format!("Service Account:\t{sa}\n"));
    }
    if !t.spec.init_containers.is_empty() {
        describe_containers(
            w,
            "Init Containers",
            &t.spec.init_containers,
            &[],
            None,
            "  ",
        );
    }
    describe_containers(w, "Containers", &t.spec.containers, &[], None, "  ");
    describe_volumes(w, t.spec.extra.get("volumes"), "  ");
    describe_topology_spread_constraints(w, t.spec.extra.get("topologySpreadConstraints"), "  ");
    let pc = extra_str(&t.spec.extra, "priorityClassName");
    if !pc.is_empty() {
        w.w(1, &format!("Priority Class Name:\t{pc}\n"));
    }
    print_labels_multiline(w, "  Node-Selectors", &t.spec.node_selector);
    print_tolerations(w, "  Tolerations", &t.spec.tolerations);
}

/// `printTemplate` (polymorphichelpers/history.go): `DescribePodTemplate` through a bare
/// `PrefixWriter` with no tab writer behind it, so the tabs stay in the text (as `kubectl rollout
/// history --revision=N` prints them).
pub(crate) fn pod_template_text(t: &PodTemplateSpec) -> String {
    let mut w = Writer::new();
    describe_pod_template(&mut w, Some(t));
    w.pending
}

/// `printReplicaSetsByLabels`: `name (status/spec replicas created), ...` or `<none>`.
fn print_replica_sets_by_labels(rss: &[ReplicaSet]) -> String {
    if rss.is_empty() {
        return "<none>".into();
    }
    rss.iter()
        .map(|rs| {
            format!(
                "{} ({}/{} replicas created)",
                rs.metadata.name,
                rs.status.replicas,
                rs.replicas()
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `DeploymentDescriber` / `describeDeployment`.
fn describe_deployment(sim: &Simulation, d: &Deployment, show_events: bool) -> String {
    let mut w = Writer::new();
    // `LabelSelectorAsSelector(...).String()`: empty for a missing or empty selector.
    let selector = match d.spec.selector.as_ref().map(|s| (s, s.to_selector())) {
        Some((_, Err(e))) => return format!("error: {e}"),
        Some((s, Ok(_))) if !s.is_empty() => s.to_kubectl_string(),
        _ => String::new(),
    };
    w.w(0, &format!("Name:\t{}\n", d.metadata.name));
    w.w(0, &format!("Namespace:\t{}\n", d.metadata.namespace));
    w.w(
        0,
        &format!(
            "CreationTimestamp:\t{}\n",
            time_or_zero(d.metadata.creation_timestamp)
        ),
    );
    print_labels_multiline(&mut w, "Labels", &d.metadata.labels);
    print_annotations_multiline(&mut w, "Annotations", &d.metadata.annotations);
    w.w(0, &format!("Selector:\t{selector}\n"));
    let s = &d.status;
    w.w(
        0,
        &format!(
            "Replicas:\t{} desired | {} updated | {} total | {} available | {} unavailable\n",
            d.replicas(),
            s.updated_replicas,
            s.replicas,
            s.available_replicas,
            s.unavailable_replicas
        ),
    );
    w.w(0, &format!("StrategyType:\t{}\n", d.spec.strategy.type_));
    w.w(
        0,
        &format!("MinReadySeconds:\t{}\n", d.spec.min_ready_seconds),
    );
    if let Some(ru) = &d.spec.strategy.rolling_update {
        // `(*IntOrString).String()` prints `<nil>` for a nil pointer.
        let show = |v: &Option<crate::api::IntOrString>| {
            v.as_ref()
                .map_or_else(|| "<nil>".to_string(), ToString::to_string)
        };
        w.w(
            0,
            &format!(
                "RollingUpdateStrategy:\t{} max unavailable, {} max surge\n",
                show(&ru.max_unavailable),
                show(&ru.max_surge)
            ),
        );
    }
    describe_pod_template(&mut w, Some(&d.spec.template));
    if !s.conditions.is_empty() {
        w.w(0, "Conditions:\n  Type\tStatus\tReason\n");
        w.w(1, "----\t------\t------\n");
        for c in &s.conditions {
            w.w(1, &format!("{} \t{}\t{}\n", c.type_, c.status, c.reason));
        }
    }
    let (old, _, new_rs) = super::rollout::get_all_replica_sets(d, &sim.api.store);
    let new: Vec<ReplicaSet> = new_rs.into_iter().collect();
    if !old.is_empty() || !new.is_empty() {
        w.w(
            0,
            &format!("OldReplicaSets:\t{}\n", print_replica_sets_by_labels(&old)),
        );
        w.w(
            0,
            &format!("NewReplicaSet:\t{}\n", print_replica_sets_by_labels(&new)),
        );
    }
    if show_events {
        let evs = events::for_object(
            &sim.api.events,
            "Deployment",
            &d.metadata.namespace,
            &d.metadata.name,
            &d.metadata.uid,
        );
        describe_events(&mut w, &evs, sim.now());
    }
    w.finish()
}

fn describe_pod(sim: &Simulation, pod: &Pod, show_events: bool) -> String {
    let now = sim.now();
    let mut w = Writer::new();
    w.w(0, &format!("Name:\t{}\n", pod.metadata.name));
    w.w(0, &format!("Namespace:\t{}\n", pod.metadata.namespace));
    if let Some(p) = pod.spec.priority {
        w.w(0, &format!("Priority:\t{p}\n"));
    }
    for (k, title) in [
        ("priorityClassName", "Priority Class Name"),
        ("runtimeClassName", "Runtime Class Name"),
        ("serviceAccountName", "Service Account"),
    ] {
        let v = extra_str(&pod.spec.extra, k);
        if !v.is_empty() {
            w.w(0, &format!("{title}:\t{v}\n"));
        }
    }
    if pod.spec.node_name.is_empty() {
        w.w(0, "Node:\t<none>\n");
    } else {
        w.w(
            0,
            &format!("Node:\t{}/{}\n", pod.spec.node_name, pod.status.host_ip),
        );
    }
    if let Some(t) = pod.status.start_time {
        w.w(0, &format!("Start Time:\t{}\n", rfc1123z(t)));
    }
    print_labels_multiline(&mut w, "Labels", &pod.metadata.labels);
    print_annotations_multiline(&mut w, "Annotations", &pod.metadata.annotations);
    let terminal = pod.status.phase == "Failed" || pod.status.phase == "Succeeded";
    match pod.metadata.deletion_timestamp {
        Some(dt) if !terminal => {
            w.w(
                0,
                &format!(
                    "Status:\tTerminating (lasts {})\n",
                    translate_timestamp_since(Some(dt), now)
                ),
            );
            w.w(
                0,
                &format!(
                    "Termination Grace Period:\t{}s\n",
                    pod.metadata.deletion_grace_period_seconds.unwrap_or(0)
                ),
            );
        }
        _ => w.w(0, &format!("Status:\t{}\n", pod.status.phase)),
    }
    if !pod.status.reason.is_empty() {
        w.w(0, &format!("Reason:\t{}\n", pod.status.reason));
    }
    if !pod.status.message.is_empty() {
        w.w(0, &format!("Message:\t{}\n", pod.status.message));
    }
    describe_seccomp_profile(&mut w, pod.spec.extra.get("securityContext"), 0, 0);
    w.w(0, &format!("IP:\t{}\n", pod.status.pod_ip));
    let ips: Vec<String> = pod
        .status
        .extra
        .get("podIPs")
        .and_then(Value::as_array)
        .map(|a| a.iter().map(|x| extra_v(x, "ip")).collect())
        .unwrap_or_else(|| {
            if pod.status.pod_ip.is_empty() {
                vec![]
            } else {
                vec![pod.status.pod_ip.clone()]
            }
        });
    if ips.is_empty() {
        w.w(0, "IPs:\t<none>\n");
    } else {
        w.w(0, "IPs:\n");
        for ip in ips {
            w.w(1, &format!("IP:\t{ip}\n"));
        }
    }
    if let Some(r) = pod.metadata.controller_ref() {
        w.w(0, &format!("Controlled By:\t{}/{}\n", r.kind, r.name));
    }
    let nominated = extra_str(&pod.status.extra, "nominatedNodeName");
    if !nominated.is_empty() {
        w.w(0, &format!("NominatedNodeName:\t{nominated}\n"));
    }
    if !pod.spec.init_containers.is_empty() {
        describe_containers(
            &mut w,
            "Init Containers",
            &pod.spec.init_containers,
            &pod.status.init_container_statuses,
            Some(pod),
            "",
        );
    }
    describe_containers(
        &mut w,
        "Containers",
        &pod.spec.containers,
        &pod.status.container_statuses,
        Some(pod),
        "",
    );
    // Ephemeral containers (kept in the spec's and status's unmodelled fields), described
    // like containers when there are any.
    let ephemeral: Vec<Container> = pod
        .spec
        .extra
        .get("ephemeralContainers")
        .and_then(|v| crate::api::value_de::from_value(v.clone()).ok())
        .unwrap_or_default();
    if !ephemeral.is_empty() {
        let statuses: Vec<ContainerStatus> = pod
            .status
            .extra
            .get("ephemeralContainerStatuses")
            .and_then(|v| crate::api::value_de::from_value(v.clone()).ok())
            .unwrap_or_default();
        describe_containers(
            &mut w,
            "Ephemeral Containers",
            &ephemeral,
            &statuses,
            Some(pod),
            "",
        );
    }
    if let Some(gates) = pod
        .spec
        .extra
        .get("readinessGates")
        .and_then(Value::as_array)
        .filter(|g| !g.is_empty())
    {
        w.w(0, "Readiness Gates:\n  Type\tStatus\n");
        for g in gates {
            let ct = extra_v(g, "conditionType");
            let status = pod
                .status
                .conditions
                .iter()
                .find(|c| c.type_ == ct)
                .map(|c| c.status.clone())
                .unwrap_or_else(|| "<none>".into());
            w.w(1, &format!("{ct} \t{status} \n"));
        }
    }
    if !pod.status.conditions.is_empty() {
        w.w(0, "Conditions:\n  Type\tStatus\n");
        for c in &pod.status.conditions {
            w.w(1, &format!("{} \t{} \n", c.type_, c.status));
        }
    }
    describe_volumes(&mut w, pod.spec.extra.get("volumes"), "");
    let qos = if pod.status.qos_class.is_empty() {
        crate::api::defaults::qos_class(&pod.spec).to_string()
    } else {
        pod.status.qos_class.clone()
    };
    w.w(0, &format!("QoS Class:\t{qos}\n"));
    print_labels_multiline(&mut w, "Node-Selectors", &pod.spec.node_selector);
    print_tolerations(&mut w, "Tolerations", &pod.spec.tolerations);
    describe_topology_spread_constraints(
        &mut w,
        pod.spec.extra.get("topologySpreadConstraints"),
        "",
    );
    if show_events {
        let evs = events::for_object(
            &sim.api.events,
            "Pod",
            &pod.metadata.namespace,
            &pod.metadata.name,
            &pod.metadata.uid,
        );
        describe_events(&mut w, &evs, now);
    }
    w.finish()
}

/// `getPodStatusForController`: pods matching the selector and controlled by `uid`, by phase.
fn pod_status_counts(
    sim: &Simulation,
    ns: &str,
    sel: &crate::api::Selector,
    uid: &str,
) -> (usize, usize, usize, usize) {
    let (mut r, mut w, mut s, mut f) = (0, 0, 0, 0);
    for p in sim.api.store.list::<Pod>(Some(ns)) {
        if !sel.matches(&p.metadata.labels)
            || p.metadata.controller_ref().is_none_or(|c| c.uid != uid)
        {
            continue;
        }
        match p.status.phase.as_str() {
            "Running" => r += 1,
            "Pending" => w += 1,
            "Succeeded" => s += 1,
            "Failed" => f += 1,
            _ => {}
        }
    }
    (r, w, s, f)
}

fn describe_replica_set(sim: &Simulation, rs: &ReplicaSet, show_events: bool) -> String {
    let mut w = Writer::new();
    let selector = rs.spec.selector.clone().unwrap_or_default();
    w.w(0, &format!("Name:\t{}\n", rs.metadata.name));
    w.w(0, &format!("Namespace:\t{}\n", rs.metadata.namespace));
    w.w(0, &format!("Selector:\t{}\n", selector.to_kubectl_string()));
    print_labels_multiline(&mut w, "Labels", &rs.metadata.labels);
    print_annotations_multiline(&mut w, "Annotations", &rs.metadata.annotations);
    if let Some(r) = rs.metadata.controller_ref() {
        w.w(0, &format!("Controlled By:\t{}/{}\n", r.kind, r.name));
    }
    w.w(
        0,
        &format!(
            "Replicas:\t{} current / {} desired\n",
            rs.status.replicas,
            rs.replicas()
        ),
    );
    w.w(0, "Pods Status:\t");
    match selector.to_selector() {
        Ok(sel) => {
            let (r, wa, s, f) =
                pod_status_counts(sim, &rs.metadata.namespace, &sel, &rs.metadata.uid);
            w.w(
                0,
                &format!("{r} Running / {wa} Waiting / {s} Succeeded / {f} Failed\n"),
            );
        }
        Err(e) => w.w(0, &format!("error in fetching pods: {e}\n")),
    }
    describe_pod_template(&mut w, Some(&rs.spec.template));
    if !rs.status.conditions.is_empty() {
        w.w(0, "Conditions:\n  Type\tStatus\tReason\n");
        w.w(1, "----\t------\t------\n");
        for c in &rs.status.conditions {
            w.w(1, &format!("{} \t{}\t{}\n", c.type_, c.status, c.reason));
        }
    }
    if show_events {
        let evs = events::for_object(
            &sim.api.events,
            "ReplicaSet",
            &rs.metadata.namespace,
            &rs.metadata.name,
            &rs.metadata.uid,
        );
        describe_events(&mut w, &evs, sim.now());
    }
    w.finish()
}

fn describe_replication_controller(
    sim: &Simulation,
    rc: &ReplicationController,
    show_events: bool,
) -> String {
    let mut w = Writer::new();
    w.w(0, &format!("Name:\t{}\n", rc.metadata.name));
    w.w(0, &format!("Namespace:\t{}\n", rc.metadata.namespace));
    w.w(
        0,
        &format!("Selector:\t{}\n", labels_string(&rc.spec.selector)),
    );
    print_labels_multiline(&mut w, "Labels", &rc.metadata.labels);
    print_annotations_multiline(&mut w, "Annotations", &rc.metadata.annotations);
    w.w(
        0,
        &format!(
            "Replicas:\t{} current / {} desired\n",
            rc.status.replicas,
            rc.replicas()
        ),
    );
    let sel = crate::api::Selector::from_map(&rc.spec.selector);
    let (r, wa, s, f) = pod_status_counts(sim, &rc.metadata.namespace, &sel, &rc.metadata.uid);
    w.w(
        0,
        &format!("Pods Status:\t{r} Running / {wa} Waiting / {s} Succeeded / {f} Failed\n"),
    );
    describe_pod_template(&mut w, rc.spec.template.as_ref());
    if !rc.status.conditions.is_empty() {
        w.w(0, "Conditions:\n  Type\tStatus\tReason\n");
        w.w(1, "----\t------\t------\n");
        for c in &rc.status.conditions {
            w.w(1, &format!("{} \t{}\t{}\n", c.type_, c.status, c.reason));
        }
    }
    if show_events {
        let evs = events::for_object(
            &sim.api.events,
            "ReplicationController",
            &rc.metadata.namespace,
            &rc.metadata.name,
            &rc.metadata.uid,
        );
        describe_events(&mut w, &evs, sim.now());
    }
    w.finish()
}

/// One resource of `resourcehelper.PodRequests` / `PodLimits` (k8s.io/component-helpers, with
/// `SkipPodLevelResources: false`): regular containers and sidecars summed, each regular init
/// container counted with the sidecars started before it, the maximum of both; pod-level
/// `spec.resources` (cpu, memory, hugepages-*) replacing that aggregate; `spec.overhead`
/// added (to limits only where a limit exists). The flag is the quantity's format (binary).
fn pod_resource(p: &Pod, resource: &str, limits: bool) -> (i128, Option<bool>) {
    let pick = |r: Option<&crate::api::ResourceRequirements>| -> Option<Quantity> {
        let r = r?;
        if limits {
            r.limits.get(resource).cloned()
        } else {
            r.requests
                .get(resource)
                .or_else(|| r.limits.get(resource))
                .cloned()
        }
    };
    let mut sum: Option<i128> = None;
    let mut binary = None;
    let mut add = |acc: &mut Option<i128>, q: &Quantity| {
        binary.get_or_insert(is_binary(q));
        *acc = Some(acc.unwrap_or(0) + parse_quantity_milli(&q.0).unwrap_or(0));
    };
    for c in &p.spec.containers {
        if let Some(q) = pick(c.resources.as_ref()) {
            add(&mut sum, &q);
        }
    }
    let mut sidecars: Option<i128> = None;
    let mut init_max: Option<i128> = None;
    for c in &p.spec.init_containers {
        let q = pick(c.resources.as_ref());
        let v = if c.restart_policy.as_deref() == Some("Always") {
            if let Some(q) = &q {
                add(&mut sum, q);
                add(&mut sidecars, q);
            }
            sidecars
        } else {
            match &q {
                Some(q) => {
                    let mut tmp = None;
                    add(&mut tmp, q);
                    tmp.map(|t| t + sidecars.unwrap_or(0))
                }
                None => sidecars,
            }
        };
        if let Some(v) = v {
            init_max = Some(init_max.map_or(v, |m| m.max(v)));
        }
    }
    if let Some(m) = init_max {
        sum = Some(sum.map_or(m, |s| s.max(m)));
    }
    // IsPodLevelRequestsSet / IsPodLevelResourcesSet, for the supported resources.
    let supported = |k: &str| k == "cpu" || k == "memory" || k.starts_with("hugepages-");
    if let Some(r) = p.spec.resources.as_ref() {
        let set = r.requests.keys().any(|k| supported(k))
            || (limits && r.limits.keys().any(|k| supported(k)));
        let own = if limits {
            r.limits.get(resource)
        } else {
            r.requests.get(resource)
        };
        if let Some(q) = own.filter(|_| set && supported(resource)) {
            binary = Some(is_binary(q));
            sum = Some(parse_quantity_milli(&q.0).unwrap_or(0));
        }
    }
    if let Some(o) = p
        .spec
        .extra
        .get("overhead")
        .and_then(Value::as_object)
        .and_then(|o| o.get(resource))
        .and_then(Value::as_str)
    {
        let q = Quantity(o.to_string());
        if !limits || sum.is_some() {
            binary.get_or_insert(is_binary(&q));
            sum = Some(sum.unwrap_or(0) + parse_quantity_milli(&q.0).unwrap_or(0));
        }
    }
    (sum.unwrap_or(0), binary)
}

fn percent(v: i128, total: i128) -> i64 {
    if total == 0 {
        0
    } else {
        (v as f64 / total as f64 * 100.0) as i64
    }
}

fn describe_node(sim: &Simulation, n: &Node, show_events: bool) -> String {
    let now = sim.now();
    let mut w = Writer::new();
    w.w(0, &format!("Name:\t{}\n", n.metadata.name));
    let roles = find_node_roles(n);
    w.w(
        0,
        &format!(
            "Roles:\t{}\n",
            if roles.is_empty() {
                "<none>".to_string()
            } else {
                roles.join(",")
            }
        ),
    );
    print_labels_multiline(&mut w, "Labels", &n.metadata.labels);
    print_annotations_multiline(&mut w, "Annotations", &n.metadata.annotations);
    w.w(
        0,
        &format!(
            "CreationTimestamp:\t{}\n",
            time_or_zero(n.metadata.creation_timestamp)
        ),
    );
    // printNodeTaintsMultiline: sorted by effect, then key.
    w.w(0, "Taints:\t");
    let mut taints = n.spec.taints.clone();
    crate::sort::sort_by(&mut taints, |a, b| {
        (&a.effect, &a.key).cmp(&(&b.effect, &b.key))
    });
    if taints.is_empty() {
        w.w(0, "<none>\n");
    }
    for (i, t) in taints.iter().enumerate() {
        if i != 0 {
            w.w(0, "\t");
        }
        let s = if t.value.is_empty() {
            format!("{}:{}", t.key, t.effect)
        } else {
            format!("{}={}:{}", t.key, t.value, t.effect)
        };
        w.w(0, &format!("{s}\n"));
    }
    w.w(0, &format!("Unschedulable:\t{}\n", n.spec.unschedulable));
    // kubeplay keeps no Lease objects: the kubelet's lease is renewed with its heartbeat.
    w.w(0, "Lease:\n");
    w.w(1, &format!("HolderIdentity:\t{}\n", n.metadata.name));
    w.w(1, "AcquireTime:\t<unset>\n");
    let renew = n
        .condition("Ready")
        .and_then(|c| c.last_heartbeat_time)
        .map(rfc1123z)
        .unwrap_or_else(|| "<unset>".into());
    w.w(1, &format!("RenewTime:\t{renew}\n"));
    if !n.status.conditions.is_empty() {
        w.w(
            0,
            "Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n",
        );
        w.w(
            1,
            "----\t------\t-----------------\t------------------\t------\t-------\n",
        );
        for c in &n.status.conditions {
            w.w(
                1,
                &format!(
                    "{} \t{} \t{} \t{} \t{} \t{}\n",
                    c.type_,
                    c.status,
                    time_or_zero(c.last_heartbeat_time),
                    time_or_zero(c.last_transition_time),
                    c.reason,
                    c.message
                ),
            );
        }
    }
    w.w(0, "Addresses:\n");
    for (t, a) in addresses(n) {
        w.w(1, &format!("{t}:\t{a}\n"));
    }
    for (title, list) in [
        ("Capacity", &n.status.capacity),
        ("Allocatable", &n.status.allocatable),
    ] {
        if !list.is_empty() {
            w.w(0, &format!("{title}:\n"));
            for (k, q) in list {
                w.w(0, &format!("  {k}:\t{}\n", quantity_string(q)));
            }
        }
    }
    w.w(0, "System Info:\n");
    for (title, field) in [
        ("Machine ID", "machineID"),
        ("System UUID", "systemUUID"),
        ("Boot ID", "bootID"),
        ("Kernel Version", "kernelVersion"),
        ("OS Image", "osImage"),
        ("Operating System", "operatingSystem"),
        ("Architecture", "architecture"),
        ("Container Runtime Version", "containerRuntimeVersion"),
        ("Kubelet Version", "kubeletVersion"),
        ("Kube-Proxy Version", "kubeProxyVersion"),
    ] {
        w.w(0, &format!("  {title}:\t{}\n", node_info(n, field)));
    }
    let cidr = extra_str(&n.spec.extra, "podCIDR");
    if !cidr.is_empty() {
        w.w(0, &format!("PodCIDR:\t{cidr}\n"));
    }
    if let Some(c) = n
        .spec
        .extra
        .get("podCIDRs")
        .and_then(Value::as_array)
        .filter(|c| !c.is_empty())
    {
        let cs: Vec<&str> = c.iter().filter_map(Value::as_str).collect();
        w.w(0, &format!("PodCIDRs:\t{}\n", cs.join(",")));
    }
    let provider = extra_str(&n.spec.extra, "providerID");
    if !provider.is_empty() {
        w.w(0, &format!("ProviderID:\t{provider}\n"));
    }
    // describeNodeResource.
    let pods: Vec<&Pod> = sim
        .api
        .store
        .pods_on_node(&n.metadata.name)
        .filter(|p| p.status.phase != "Succeeded" && p.status.phase != "Failed")
        .collect();
    // Upstream uses the capacity map unless the allocatable map has entries.
    let allocatable = if n.status.allocatable.is_empty() {
        &n.status.capacity
    } else {
        &n.status.allocatable
    };
    let alloc = |r: &str| -> i128 {
        allocatable
            .get(r)
            .and_then(|q| parse_quantity_milli(&q.0).ok())
            .unwrap_or(0)
    };
    w.w(
        0,
        &format!("Non-terminated Pods:\t({} in total)\n", pods.len()),
    );
    w.w(
        1,
        "Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n",
    );
    w.w(
        1,
        "---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n",
    );
    let q = |v: (i128, Option<bool>)| format_quantity(v.0, v.1.unwrap_or(false));
    for p in &pods {
        let cr = pod_resource(p, "cpu", false);
        let cl = pod_resource(p, "cpu", true);
        let mr = pod_resource(p, "memory", false);
        let ml = pod_resource(p, "memory", true);
        w.w(
            1,
            &format!(
                "{}\t{}\t\t{} ({}%)\t{} ({}%)\t{} ({}%)\t{} ({}%)\t{}\n",
                p.metadata.namespace,
                p.metadata.name,
                q(cr),
                percent(cr.0, alloc("cpu")),
                q(cl),
                percent(cl.0, alloc("cpu")),
                q(mr),
                percent(mr.0, alloc("memory")),
                q(ml),
                percent(ml.0, alloc("memory")),
                translate_timestamp_since(p.metadata.creation_timestamp, now)
            ),
        );
    }
    w.w(
        0,
        "Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n",
    );
    w.w(1, "Resource\tRequests\tLimits\n");
    w.w(1, "--------\t--------\t------\n");
    let total = |r: &str| {
        let (mut req, mut lim) = ((0i128, None), (0i128, None));
        for p in &pods {
            let a = pod_resource(p, r, false);
            let b = pod_resource(p, r, true);
            req.0 += a.0;
            lim.0 += b.0;
            if req.1.is_none() {
                req.1 = a.1;
            }
            if lim.1.is_none() {
                lim.1 = b.1;
            }
        }
        (req, lim)
    };
    for r in ["cpu", "memory", "ephemeral-storage"] {
        let (req, lim) = total(r);
        w.w(
            1,
            &format!(
                "{r}\t{} ({}%)\t{} ({}%)\n",
                q(req),
                percent(req.0, alloc(r)),
                q(lim),
                percent(lim.0, alloc(r))
            ),
        );
    }
    // Huge pages with their share of the allocatable amount, then extended resources
    // (neither standard container resources nor `pods`), each sorted by name.
    for r in allocatable.keys().filter(|r| r.starts_with("hugepages-")) {
        let (req, lim) = total(r);
        w.w(
            1,
            &format!(
                "{r}\t{} ({}%)\t{} ({}%)\n",
                q(req),
                percent(req.0, alloc(r)),
                q(lim),
                percent(lim.0, alloc(r))
            ),
        );
    }
    for r in allocatable.keys().filter(|r| {
        !r.starts_with("hugepages-")
            && !matches!(r.as_str(), "cpu" | "memory" | "ephemeral-storage" | "pods")
    }) {
        let (req, lim) = total(r);
        w.w(1, &format!("{r}\t{}\t{}\n", q(req), q(lim)));
    }
    if show_events {
        let evs = events::for_object(&sim.api.events, "Node", "", &n.metadata.name, "");
        describe_events(&mut w, &evs, now);
    }
    w.finish()
}

/// `camelcase.Split` then `smartLabelFor`: `apiVersion` → `API Version`, `uid` → `UID`.
pub fn smart_label_for(field: &str) -> String {
    if field.chars().any(|c| !c.is_alphabetic() && c != '-') {
        return field.to_string();
    }
    let class = |c: char| {
        if c.is_lowercase() {
            1
        } else if c.is_uppercase() {
            2
        } else if c.is_numeric() {
            3
        } else {
            4
        }
    };
    let mut runs: Vec<Vec<char>> = vec![];
    let mut last = 0;
    for c in field.chars() {
        let k = class(c);
        if k == last {
            if let Some(r) = runs.last_mut() {
                r.push(c);
            }
        } else {
            runs.push(vec![c]);
        }
        last = k;
    }
    for i in 0..runs.len().saturating_sub(1) {
        let upper = runs[i].first().is_some_and(|c| c.is_uppercase());
        let lower_next = runs[i + 1].first().is_some_and(|c| c.is_lowercase());
        if upper && lower_next {
            if let Some(c) = runs[i].pop() {
                runs[i + 1].insert(0, c);
            }
        }
    }
    const ACRONYMS: &[&str] = &["API", "URL", "UID", "OSB", "GUID"];
    runs.into_iter()
        .filter(|r| !r.is_empty())
        .map(|r| r.into_iter().collect::<String>())
        .filter(|p| p != "_")
        .map(|p| {
            let up = p.to_uppercase();
            if ACRONYMS.contains(&up.as_str()) {
                up
            } else {
                let mut cs = p.chars();
                match cs.next() {
                    Some(f) => f.to_uppercase().collect::<String>() + cs.as_str(),
                    None => String::new(),
                }
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Go's `%v` for a decoded JSON value.
fn go_value(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".into(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// `printUnstructuredContent`.
fn print_unstructured(
    w: &mut Writer,
    level: usize,
    content: &serde_json::Map<String, Value>,
    prefix: &str,
    skip: &[&str],
) {
    for (field, value) in content {
        let expr = format!("{prefix}.{field}");
        if skip.contains(&expr.as_str()) {
            continue;
        }
        match value {
            Value::Object(m) => {
                w.w(level, &format!("{}:\n", smart_label_for(field)));
                print_unstructured(w, level + 1, m, &expr, skip);
            }
            Value::Array(a) => {
                w.w(level, &format!("{}:\n", smart_label_for(field)));
                for child in a {
                    match child {
                        Value::Object(m) => print_unstructured(w, level + 1, m, &expr, skip),
                        other => w.w(level + 1, &format!("{}\n", go_value(other))),
                    }
                }
            }
            other => w.w(
                level,
                &format!("{}:\t{}\n", smart_label_for(field), go_value(other)),
            ),
        }
    }
}

/// The generic describer (`genericDescriber`) for kinds without their own describer.
fn describe_generic(sim: &Simulation, kind: &str, v: &Value, show_events: bool) -> String {
    let mut w = Writer::new();
    let meta = v.get("metadata").cloned().unwrap_or(Value::Null);
    let s = |k: &str| {
        meta.get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let map = |k: &str| -> BTreeMap<String, String> {
        meta.get(k)
            .and_then(Value::as_object)
            .map(|m| {
                m.iter()
                    .map(|(k, v)| (k.clone(), go_value(v)))
                    .collect_btree_map()
            })
            .unwrap_or_default()
    };
    w.w(0, &format!("Name:\t{}\n", s("name")));
    w.w(0, &format!("Namespace:\t{}\n", s("namespace")));
    print_labels_multiline(&mut w, "Labels", &map("labels"));
    print_annotations_multiline(&mut w, "Annotations", &map("annotations"));
    if let Some(m) = v.as_object() {
        print_unstructured(
            &mut w,
            0,
            m,
            "",
            &[
                ".metadata.managedFields",
                ".metadata.name",
                ".metadata.namespace",
                ".metadata.labels",
                ".metadata.annotations",
            ],
        );
    }
    if show_events {
        let evs = events::for_object(
            &sim.api.events,
            kind,
            &s("namespace"),
            &s("name"),
            &s("uid"),
        );
        describe_events(&mut w, &evs, sim.now());
    }
    w.finish()
}

/// Describes one object or Event.
fn describe_item(sim: &Simulation, item: &Item, show_events: bool) -> String {
    match item {
        Item::Obj(Object::Pod(p)) => describe_pod(sim, p, show_events),
        Item::Obj(Object::Node(n)) => describe_node(sim, n, show_events),
        Item::Obj(Object::ReplicaSet(rs)) => describe_replica_set(sim, rs, show_events),
        Item::Obj(Object::Deployment(d)) => describe_deployment(sim, d, show_events),
        Item::Obj(Object::ReplicationController(rc)) => {
            describe_replication_controller(sim, rc, show_events)
        }
        Item::Obj(Object::Job(j)) => workloads::describe_job(sim, j, show_events),
        Item::Obj(Object::CronJob(c)) => workloads::describe_cron_job(sim, c, show_events),
        Item::Obj(Object::StatefulSet(s)) => workloads::describe_stateful_set(sim, s, show_events),
        Item::Obj(Object::DaemonSet(d)) => workloads::describe_daemon_set(sim, d, show_events),
        Item::Obj(Object::PersistentVolumeClaim(p)) => workloads::describe_pvc(sim, p, show_events),
        Item::Obj(Object::Service(s)) => workloads::describe_service(sim, s, show_events),
        Item::Obj(Object::HorizontalPodAutoscaler(h)) => hpa::describe_hpa(sim, h, show_events),
        Item::Obj(Object::PodDisruptionBudget(p)) => pdb::describe_pdb(sim, p, show_events),
        #[allow(unreachable_patterns)]
        Item::Obj(o) => {
            describe_generic(sim, o.kind(), &super::output::object_value(o), show_events)
        }
        Item::Event(e) => describe_generic(sim, "Event", &e.to_value(), show_events),
    }
}

pub(crate) fn run(sim: &mut Simulation, words: &[String], out: &mut Out) -> Result<(), String> {
    let p = args::parse("kubectl describe", words, FLAGS)?;
    let ns = Namespace::from(&p);
    let show_events = !p.changed("show-events") || p.bool("show-events");
    let all_ns = p.bool("all-namespaces");
    if p.args.is_empty() {
        return Err("error: You must specify the type of resource to describe. Use \"kubectl api-resources\" for a complete list of supported resources.\n".trim_end().to_string());
    }
    let req = resource::build(&p.args, true, p.str("selector"), false)?;
    let namespace = if all_ns { None } else { Some(ns.name.as_str()) };
    let (infos, errs) = resource::visit(sim, &req, namespace, "");
    let items: Vec<Item> = infos.into_iter().flat_map(|i| i.items).collect();
    // DescribeMatchingResources: `describe TYPE PREFIX` describes every object whose name
    // starts with PREFIX when no object has that exact name.
    if items.is_empty() && p.args.len() == 2 && errs.len() == 1 && errs[0].contains("(NotFound)") {
        if let Request::Named(v) = &req {
            let (kind, prefix) = (v[0].0, v[0].1.clone());
            if let Kind::Obj(k) = kind {
                let ns_name = if kind.namespaced() {
                    Some(ns.name.as_str())
                } else {
                    None
                };
                let matching: Vec<Item> = sim
                    .api
                    .store
                    .list_kind(k, ns_name)
                    .filter(|o| o.meta().name.starts_with(&prefix))
                    .map(|o| Item::Obj(o.clone()))
                    .collect();
                if !matching.is_empty() {
                    for o in &matching {
                        out.print(&(describe_item(sim, o, show_events) + "\n"));
                    }
                    return Ok(());
                }
            }
        }
    }
    let mut text = String::new();
    for (i, o) in items.iter().enumerate() {
        if i > 0 {
            text.push_str("\n\n");
        }
        text.push_str(&describe_item(sim, o, show_events));
    }
    out.print(&text);
    if items.is_empty() && errs.is_empty() {
        if all_ns {
            out.eprint("No resources found");
        } else {
            out.eprint(&format!("No resources found in {} namespace.", ns.name));
        }
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs.join("\n"))
    }
}

#[cfg(test)]
#[path = "describe_containers_tests.rs"]
mod containers_tests;

#[cfg(test)]
mod tests {
    use super::super::execute;
    use super::super::testutil::*;
    use super::*;

    #[test]
    fn time_and_quantity_formats() {
        assert_eq!(rfc1123z(now()), "Wed, 01 Jan 2025 01:00:00 +0000");
        let q = |s: &str| quantity_string(&Quantity(s.into()));
        assert_eq!(q("0.5"), "500m");
        assert_eq!(q("1500m"), "1500m");
        assert_eq!(q("2000m"), "2");
        assert_eq!(q("1000"), "1k");
        assert_eq!(q("1500"), "1500");
        assert_eq!(q("128Mi"), "128Mi");
        assert_eq!(q("1024Mi"), "1Gi");
        assert_eq!(q("1.5Gi"), "1536Mi");
        assert_eq!(q("512"), "512");
        assert_eq!(q("0"), "0");
        assert_eq!(format_quantity(350, false), "350m");
    }

    #[test]
    fn describe_pod_layout() {
        let mut sim = sim();
        load_fixture(&mut sim);
        let pod = sim
            .api
            .store
            .get::<Pod>("default", "frontend-a")
            .cloned()
            .unwrap();
        sim.api.now = ago(100);
        sim.api.record_event(
            &Object::Pod(pod.clone()),
            "Normal",
            "Scheduled",
            "Successfully assigned default/frontend-a to node-1",
            "default-scheduler",
        );
        sim.api.now = ago(95);
        sim.api.record_event(
            &Object::Pod(pod.clone()),
            "Warning",
            "BackOff",
            "Back-off pulling image",
            "kubelet",
        );
        sim.api.now = ago(35);
        sim.api.record_event(
            &Object::Pod(pod),
            "Warning",
            "BackOff",
            "Back-off pulling image",
            "kubelet",
        );
        sim.api.now = now();
        assert_eq!(
            execute(&mut sim, "describe pod frontend-a").unwrap(),
            "Name:         frontend-a
Namespace:    default
Node:         node-1/10.0.0.1
Start Time:   Wed, 01 Jan 2025 00:55:00 +0000
Labels:       app=web
Annotations:  <none>
Status:       Running
IP:           10.244.1.5
IPs:
  IP:           10.244.1.5
Controlled By:  ReplicaSet/frontend
Containers:
  nginx:
    Container ID:   
    Image:          nginx:1.27
    Image ID:       
    Port:           80/TCP
    Host Port:      0/TCP
    State:          Running
      Started:      Wed, 01 Jan 2025 00:55:05 +0000
    Ready:          True
    Restart Count:  0
    Environment:    <none>
    Mounts:         <none>
Conditions:
  Type           Status
  Ready          True 
  PodScheduled   True 
Volumes:         <none>
QoS Class:       BestEffort
Node-Selectors:  <none>
Tolerations:     <none>
Events:
  Type     Reason     Age                From               Message
  ----     ------     ----               ----               -------
  Normal   Scheduled  100s               default-scheduler  Successfully assigned default/frontend-a to node-1
  Warning  BackOff    35s (x2 over 95s)  kubelet            Back-off pulling image"
        );
    }

    #[test]
    fn describe_replica_set_layout() {
        let mut sim = sim();
        load_fixture(&mut sim);
        assert_eq!(
            execute(&mut sim, "describe rs frontend").unwrap(),
            "Name:         frontend
Namespace:    default
Selector:     app=web
Labels:       app=web
Annotations:  <none>
Replicas:     2 current / 2 desired
Pods Status:  2 Running / 0 Waiting / 0 Succeeded / 0 Failed
Pod Template:
  Labels:  app=web
  Containers:
   nginx:
    Image:         nginx:1.27
    Port:          80/TCP
    Host Port:     0/TCP
    Environment:   <none>
    Mounts:        <none>
  Volumes:         <none>
  Node-Selectors:  <none>
  Tolerations:     <none>
Events:            <none>"
        );
    }

    #[test]
    fn describe_node_layout() {
        let mut sim = sim();
        load_fixture(&mut sim);
        sim.api
            .update(Object::Node({
                let mut n = sim.api.store.get::<Node>("", "node-2").cloned().unwrap();
                n.spec.unschedulable = true;
                n
            }))
            .unwrap();
        let out = execute(&mut sim, "describe node node-2").unwrap();
        let want_start = "Name:               node-2
Roles:              <none>
Labels:             kubernetes.io/hostname=node-2
Annotations:        <none>
CreationTimestamp:  Tue, 31 Dec 2024 01:00:00 +0000
Taints:             <none>
Unschedulable:      true
Lease:
  HolderIdentity:  node-2
  AcquireTime:     <unset>
  RenewTime:       Wed, 01 Jan 2025 00:59:50 +0000
Conditions:
  Type    Status  LastHeartbeatTime                 LastTransitionTime                Reason         Message
  ----    ------  -----------------                 ------------------                ------         -------
  Ready   True    Wed, 01 Jan 2025 00:59:50 +0000   Tue, 31 Dec 2024 01:00:00 +0000   KubeletReady   kubelet is posting ready status
Addresses:
  InternalIP:  10.0.0.1
Capacity:
  cpu:     4
  memory:  8Gi
  pods:    110
Allocatable:
  cpu:     4
  memory:  8Gi
  pods:    110
System Info:
  Machine ID:                 
";
        assert!(out.starts_with(want_start), "{out}");
        assert!(out.contains("Non-terminated Pods:          (1 in total)\n  Namespace                   Name    CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age\n  ---------                   ----    ------------  ----------  ---------------  -------------  ---\n  default                     bare    0 (0%)        0 (0%)      0 (0%)           0 (0%)         5m\n"), "{out}");
        assert!(out.contains("Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n  Resource           Requests  Limits\n  --------           --------  ------\n  cpu                0 (0%)    0 (0%)\n  memory             0 (0%)    0 (0%)\n  ephemeral-storage  0 (0%)    0 (0%)\nEvents:              <none>"), "{out}");
    }

    #[test]
    fn smart_labels() {
        assert_eq!(smart_label_for("apiVersion"), "API Version");
        assert_eq!(smart_label_for("uid"), "UID");
        assert_eq!(smart_label_for("creationTimestamp"), "Creation Timestamp");
        assert_eq!(smart_label_for("involvedObject"), "Involved Object");
        assert_eq!(smart_label_for("HTTPServer"), "HTTP Server");
        assert_eq!(smart_label_for("foo_bar"), "foo_bar");
    }

    #[test]
    fn describe_event_generically() {
        let mut sim = sim();
        load_fixture(&mut sim);
        let rs = Object::ReplicaSet(
            sim.api
                .store
                .get::<ReplicaSet>("default", "frontend")
                .cloned()
                .unwrap(),
        );
        sim.api.now = ago(60);
        sim.api.record_event(
            &rs,
            "Normal",
            "SuccessfulCreate",
            "Created pod: frontend-a",
            "replicaset-controller",
        );
        sim.api.now = now();
        let name = super::events::aggregate(&sim.api.events)[0].name.clone();
        let out = execute(&mut sim, &format!("describe ev {name}")).unwrap();
        assert!(out.starts_with(&format!("Name:             {name}\nNamespace:        default\nLabels:           <none>\nAnnotations:      <none>\nAPI Version:      v1\nCount:            1\nEvent Time:       <nil>\nFirst Timestamp:  2025-01-01T00:59:00Z\nInvolved Object:\n  API Version:   apps/v1\n  Kind:          ReplicaSet\n")), "{out}");
        assert!(out.ends_with("Source:\n  Component:  replicaset-controller\nType:         Normal\nEvents:       <none>"), "{out}");
    }

    /// The objects of TestDescribeDeployment (pkg/describe/describe_test.go), stored as the
    /// fake clientset holds them (no API defaulting).
    fn describe_deployment_fixture(
        sim: &mut Simulation,
        status: crate::api::DeploymentStatus,
        replicas: i32,
        image: &str,
        rss: &[(&str, &str, i32, &str, i32)],
    ) -> Deployment {
        use crate::api::{DeploymentSpec, LabelSelector, ObjectMeta, OwnerReference, PodSpec};
        let l = labels(&[("k8s-app", "bar")]);
        let template = |image: &str| PodTemplateSpec {
            metadata: ObjectMeta {
                name: "bar".into(),
                namespace: "foo".into(),
                labels: l.clone().into(),
                ..Default::default()
            },
            spec: std::sync::Arc::new(PodSpec {
                containers: vec![Container {
                    image: image.into(),
                    extra: serde_json::from_value(serde_json::json!({"volumeMounts": [
                        {"name": "vol-foo", "mountPath": "/tmp/vol-foo"},
                        {"name": "vol-bar", "mountPath": "/tmp/vol-bar"},
                    ]}))
                    .unwrap(),
                    ..Default::default()
                }],
                extra: serde_json::from_value(serde_json::json!({"volumes": [
                    {"name": "vol-foo", "emptyDir": {}},
                    {"name": "vol-bar", "emptyDir": {}},
                ]}))
                .unwrap(),
                ..Default::default()
            }),
        };
        let d = Deployment {
            metadata: ObjectMeta {
                name: "bar".into(),
                namespace: "foo".into(),
                labels: l.clone().into(),
                uid: "00000000-0000-0000-0000-000000000001".into(),
                creation_timestamp: Some(Time::parse_rfc3339("2021-01-01T00:00:00Z").unwrap()),
                ..Default::default()
            },
            spec: (DeploymentSpec {
                replicas: Some(replicas),
                selector: Some(LabelSelector::from_labels(&l)),
                template: std::sync::Arc::new(template(image)),
                ..Default::default()
            })
            .into(),
            status: status.into(),
            ..Default::default()
        };
        sim.api.store.put(Object::Deployment(d.clone()));
        for &(name, uid, spec, image, status) in rss {
            sim.api.store.put(Object::ReplicaSet(ReplicaSet {
                metadata: ObjectMeta {
                    name: name.into(),
                    namespace: "foo".into(),
                    uid: uid.into(),
                    labels: l.clone().into(),
                    owner_references: vec![OwnerReference {
                        controller: Some(true),
                        uid: "00000000-0000-0000-0000-000000000001".into(),
                        ..Default::default()
                    }]
                    .into(),
                    ..Default::default()
                },
                spec: (crate::api::ReplicaSetSpec {
                    replicas: Some(spec),
                    selector: Some(LabelSelector::from_labels(&l)),
                    template: std::sync::Arc::new(template(image)),
                    ..Default::default()
                })
                .into(),
                status: (crate::api::ReplicaSetStatus {
                    replicas: status,
                    ready_replicas: status,
                    available_replicas: status,
                    ..Default::default()
                })
                .into(),
                ..Default::default()
            }));
        }
        d
    }

    /// Port of TestDescribeDeployment (pkg/describe/describe_test.go). The rollout case's
    /// event stream drops its fourth Event: kubeplay's event log aggregates identical
    /// emissions, so a second "Scaled up replica set bar-002 from 0 to 1" would join the series.
    #[test]
    fn describe_deployment_upstream_cases() {
        use crate::api::DeploymentStatus;
        // "deployment with two mounted volumes"
        let mut sim = sim();
        describe_deployment_fixture(
            &mut sim,
            DeploymentStatus::default(),
            1,
            "mytest-image:latest",
            &[("bar-001", "rs-1", 1, "mytest-image:latest", 1)],
        );
        let out = execute(&mut sim, "describe deployment bar -n foo").unwrap();
        for want in [
            "Name:               bar\nNamespace:          foo",
            "CreationTimestamp:  Fri, 01 Jan 2021 00:00:00 +0000",
            "Labels:             k8s-app=bar",
            "Selector:           k8s-app=bar",
            "Replicas:           1 desired | 0 updated | 0 total | 0 available | 0 unavailable",
            "Image:        mytest-image:latest",
            "Mounts:\n      /tmp/vol-bar from vol-bar (rw)\n      /tmp/vol-foo from vol-foo (rw)",
            "OldReplicaSets:    <none>",
            "NewReplicaSet:     bar-001 (1/1 replicas created)",
            "Events:            <none>",
            "Node-Selectors:  <none>",
            "Tolerations:     <none>",
        ] {
            assert!(out.contains(want), "{want:?} not in\n{out}");
        }

        // "deployment during the process of rolling out"
        let mut sim = super::super::testutil::sim();
        let d = describe_deployment_fixture(
            &mut sim,
            DeploymentStatus {
                replicas: 3,
                updated_replicas: 1,
                available_replicas: 2,
                unavailable_replicas: 1,
                ..Default::default()
            },
            2,
            "mytest-image:v2.0",
            &[
                (
                    "bar-001",
                    "00000000-0000-0000-0000-000000000001",
                    2,
                    "mytest-image:v1.0",
                    2,
                ),
                (
                    "bar-002",
                    "00000000-0000-0000-0000-000000000002",
                    1,
                    "mytest-image:v2.0",
                    1,
                ),
            ],
        );
        let obj = Object::Deployment(d);
        for (ago_secs, msg) in [
            (20 * 60, "Scaled up replica set bar-002 from 0 to 1"),
            (16 * 60, "Scaled up replica set bar-002 from 0 to 1"),
            (12 * 60, "Scaled up replica set bar-002 from 0 to 1"),
            (10 * 60, "Scaled up replica set bar-001 from 0 to 2"),
            (60, "Scaled down replica set bar-002 from 2 to 1"),
        ] {
            sim.api.now = ago(ago_secs);
            sim.api.record_event(
                &obj,
                "Normal",
                "ScalingReplicaSet",
                msg,
                "deployment-controller",
            );
        }
        sim.api.now = now();
        let out = execute(&mut sim, "describe deployment bar -n foo").unwrap();
        for want in [
            "Replicas:           2 desired | 1 updated | 3 total | 2 available | 1 unavailable",
            "Image:        mytest-image:v2.0",
            "OldReplicaSets:    bar-001 (2/2 replicas created)",
            "NewReplicaSet:     bar-002 (1/1 replicas created)",
            "Events:\n",
            "Normal  ScalingReplicaSet  12m (x3 over 20m)  deployment-controller  Scaled up replica set bar-002 from 0 to 1",
            "Normal  ScalingReplicaSet  10m                deployment-controller  Scaled up replica set bar-001 from 0 to 2",
            "Normal  ScalingReplicaSet  60s                deployment-controller  Scaled down replica set bar-002 from 2 to 1",
        ] {
            assert!(out.contains(want), "{want:?} not in\n{out}");
        }

        // "deployment after successful rollout"
        let mut sim = super::super::testutil::sim();
        describe_deployment_fixture(
            &mut sim,
            DeploymentStatus {
                replicas: 2,
                updated_replicas: 2,
                available_replicas: 2,
                ..Default::default()
            },
            2,
            "mytest-image:v2.0",
            &[
                ("bar-001", "rs-1", 0, "mytest-image:v1.0", 0),
                ("bar-002", "rs-2", 2, "mytest-image:v2.0", 2),
            ],
        );
        let out = execute(&mut sim, "describe deployment bar -n foo").unwrap();
        for want in [
            "Replicas:           2 desired | 2 updated | 2 total | 2 available | 0 unavailable",
            "OldReplicaSets:    <none>",
            "NewReplicaSet:     bar-002 (2/2 replicas created)",
        ] {
            assert!(out.contains(want), "{want:?} not in\n{out}");
        }
        assert!(!out.contains("RollingUpdateStrategy"), "{out}");
    }

    /// The whole layout, with the API defaults (strategy, rolling update) and conditions.
    #[test]
    fn describe_deployment_layout() {
        use crate::api::{DeploymentCondition, DeploymentStatus};
        let mut sim = sim();
        let mut d = describe_deployment_fixture(
            &mut sim,
            DeploymentStatus {
                observed_generation: 1,
                replicas: 2,
                updated_replicas: 2,
                ready_replicas: 2,
                available_replicas: 2,
                conditions: vec![
                    DeploymentCondition {
                        type_: "Available".into(),
                        status: "True".into(),
                        reason: "MinimumReplicasAvailable".into(),
                        ..Default::default()
                    },
                    DeploymentCondition {
                        type_: "Progressing".into(),
                        status: "True".into(),
                        reason: "NewReplicaSetAvailable".into(),
                        ..Default::default()
                    },
                ],
                ..Default::default()
            },
            2,
            "nginx",
            &[("bar-002", "rs-2", 2, "nginx", 2)],
        );
        d.metadata
            .annotations
            .insert("deployment.kubernetes.io/revision".into(), "2".into());
        d.spec.template_mut().spec_mut().containers[0].name = "web".into();
        d.spec.template_mut().spec_mut().containers[0].extra.clear();
        d.spec.template_mut().spec_mut().extra.clear();
        d.spec.min_ready_seconds = 5;
        sim.api
            .store
            .remove(&crate::store::ObjectRef::new("Deployment", "foo", "bar"));
        let loaded = sim.api.load(Object::Deployment(d)).unwrap();
        // The new ReplicaSet carries the (defaulted) template plus its hash label.
        let Object::Deployment(loaded) = loaded else {
            unreachable!()
        };
        let mut rs = sim
            .api
            .store
            .get::<ReplicaSet>("foo", "bar-002")
            .cloned()
            .unwrap();
        rs.spec.template = loaded.spec.template.clone();
        rs.spec
            .template_mut()
            .metadata
            .labels
            .insert("pod-template-hash".into(), "5d9f8c7b6".into());
        sim.api.store.put(Object::ReplicaSet(rs));
        assert_eq!(
            execute(&mut sim, "describe deploy bar -n foo").unwrap(),
            "Name:                   bar
Namespace:              foo
CreationTimestamp:      Fri, 01 Jan 2021 00:00:00 +0000
Labels:                 k8s-app=bar
Annotations:            deployment.kubernetes.io/revision: 2
Selector:               k8s-app=bar
Replicas:               2 desired | 2 updated | 2 total | 2 available | 0 unavailable
StrategyType:           RollingUpdate
MinReadySeconds:        5
RollingUpdateStrategy:  25% max unavailable, 25% max surge
Pod Template:
  Labels:  k8s-app=bar
  Containers:
   web:
    Image:         nginx
    Port:          <none>
    Host Port:     <none>
    Environment:   <none>
    Mounts:        <none>
  Volumes:         <none>
  Node-Selectors:  <none>
  Tolerations:     <none>
Conditions:
  Type           Status  Reason
  ----           ------  ------
  Available      True    MinimumReplicasAvailable
  Progressing    True    NewReplicaSetAvailable
OldReplicaSets:  <none>
NewReplicaSet:   bar-002 (2/2 replicas created)
Events:          <none>"
        );
    }

    #[test]
    fn describe_prefix_match_and_errors() {
        let mut sim = sim();
        load_fixture(&mut sim);
        let out = execute(&mut sim, "describe pods frontend").unwrap();
        assert_eq!(out.matches("Name:         frontend-").count(), 2, "{out}");
        assert_eq!(
            execute(&mut sim, "describe rs nope").unwrap_err(),
            "Error from server (NotFound): replicasets.apps \"nope\" not found"
        );
        assert_eq!(
            execute(&mut sim, "describe rc").unwrap(),
            "No resources found in default namespace."
        );
        let two = execute(&mut sim, "describe pods -l app=web").unwrap();
        assert!(
            two.contains(
                "Tolerations:     <none>\nEvents:          <none>\n\n\nName:         frontend-b"
            ),
            "{two}"
        );
    }
}
