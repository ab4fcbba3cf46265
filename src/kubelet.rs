//! `kubelet`: every node's kubelet, simulated — node registration and status, and the pod lifecycle from sandbox to deletion.
//!
//! For a pod bound to a node whose kubelet is up, containers go through image pull, create and
//! start (events `Pulling`, `Pulled`, `Created`, `Started` with kubelet's messages), become
//! ready after the readiness delay, and follow the scenario's fault rules: image pull errors
//! (`ErrImagePull`, then `ImagePullBackOff` with the image back-off of 10 s doubling to 5 min),
//! crash loops (`CrashLoopBackOff`, the container back-off of `doBackOff`: the first restart is
//! immediate, then 10 s doubling to 5 min, keyed on the container's finish time and reset when
//! the container ran more than 10 minutes since its last restart), run to completion
//! (`restartPolicy` Never/OnFailure; sidecars are stopped once the regular containers are done)
//! and readiness overrides. The pod status is generated as `generateAPIPodStatus` does, with the
//! ports of [`crate::kubelet_status`] (phase by `getPhase`, conditions
//! PodReadyToStartContainers, Initialized, Ready, ContainersReady with upstream's reasons; Ready
//! also waits for the pod's `readinessGates`, as `GeneratePodReadyCondition` does).
//!
//! Graceful deletion: containers get `Killing "Stopping container <c>"`, stop after
//! `containerStop` (capped by the grace period; a container that ignores SIGTERM is killed with
//! exit code 137 when the grace period ends), the pod reaches a terminal phase and the kubelet
//! deletes it with grace period 0.
//!
//! Modelling choices (documented deviations): the kubelet syncs exactly when something is due
//! (upstream's pod workers resync on PLEG events and a jittered period); `ImagePullBackOff` is
//! shown 1 s after a failed pull; node heartbeats are not simulated (the node lifecycle
//! controller reads [`crate::world::World::nodes_down`]); image digests, container ids and image
//! sizes are deterministic hashes, not registry data; pods on a down node are not advanced and
//! catch up when it recovers.

use crate::api::{
    ApiError, ContainerState, ContainerStateRunning, ContainerStateTerminated,
    ContainerStateWaiting, ContainerStatus, Duration, Node, NodeCondition, Object, Pod,
    PodCondition, PodStatus, Resource, Time,
};
use crate::controllers::{Controller, Ctx};
use crate::kubelet_status::{
    generate_containers_ready_condition, generate_pod_initialized_condition,
    generate_pod_ready_to_start_containers_condition, get_phase, is_in_backoff_since,
    pod_ready_condition_from,
};
use crate::queue::WorkQueue;
use crate::store::apiserver::DeleteOptions;
use crate::store::{Change, Store};
use crate::world::{FaultRule, KubeletConfig};
use std::collections::{BTreeMap, BTreeSet};

pub const COMPONENT: &str = "kubelet";
pub use crate::kubelet_status::{backoff_next, BACKOFF_INITIAL, MAX_CONTAINER_BACKOFF};
/// When `ImagePullBackOff` replaces `ErrImagePull` after a failed pull (kubeplay's model).
pub const IMAGE_BACKOFF_SHOWN_AFTER: Duration = Duration::from_secs(1);
/// The kubelet version reported in `status.nodeInfo` (the release whose feature-gate defaults
/// kubeplay follows).
pub const KUBELET_VERSION: &str = "v1.35.0";

// ---------------------------------------------------------------------------------------------
// Pure helpers
// ---------------------------------------------------------------------------------------------

/// FNV-1a, the deterministic hash behind ids, digests and sizes.
fn fnv(data: &str, seed: u64) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64 ^ seed;
    for b in data.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// 64 hex digits derived from `data` (stands in for a sha256 / container id).
pub fn hex64(data: &str) -> String {
    (0..4).map(|i| format!("{:016x}", fnv(data, i))).collect()
}

/// The fully qualified reference a container runtime reports (`nginx` →
/// `docker.io/library/nginx:latest`).
pub fn normalize_image(image: &str) -> String {
    let (name, digest) = match image.split_once('@') {
        Some((n, d)) => (n, Some(d)),
        None => (image, None),
    };
    let first = name.split('/').next().unwrap_or_default();
    let has_domain =
        name.contains('/') && (first.contains('.') || first.contains(':') || first == "localhost");
    // Concatenated rather than formatted: this runs for every container on every kubelet sync.
    let mut full = if has_domain {
        name.to_string()
    } else if name.contains('/') {
        ["docker.io/", name].concat()
    } else {
        ["docker.io/library/", name].concat()
    };
    let last = full.rsplit('/').next().unwrap_or_default();
    if digest.is_none() && !last.contains(':') {
        full.push_str(":latest");
    }
    if let Some(d) = digest {
        full.push('@');
        full.push_str(d);
    }
    full
}

/// The `imageID` (repo digest) a runtime reports for an image.
pub fn image_id(image: &str) -> String {
    let full = normalize_image(image);
    if full.contains('@') {
        return full;
    }
    let repo = match full.rfind(':') {
        Some(i) if i > full.rfind('/').unwrap_or(0) => &full[..i],
        _ => full.as_str(),
    };
    format!("{repo}@sha256:{}", hex64(&full))
}

/// A plausible, stable image size in bytes (20–200 MB).
pub fn image_size(image: &str) -> u64 {
    20_000_000 + fnv(&normalize_image(image), 7) % 180_000_000
}

/// `format.Pod`: `name_namespace(uid)`.
pub fn format_pod(p: &Pod) -> String {
    format!(
        "{}_{}({})",
        p.metadata.name, p.metadata.namespace, p.metadata.uid
    )
}

/// The error a registry returns for an image that does not exist (containerd's wording).
pub fn pull_error(image: &str) -> String {
    let full = normalize_image(image);
    format!(
        "rpc error: code = NotFound desc = failed to pull and unpack image \"{full}\": failed to resolve reference \"{full}\": {full}: not found"
    )
}

/// The kubelet-owned parts of a node as it registers and posts status: hostname/os/arch labels,
/// capacity and allocatable (defaults from the scenario when absent), addresses, nodeInfo,
/// podCIDR, and the conditions of a healthy kubelet (`KubeletReady`). `index` numbers the node
/// (see [`default_internal_ip`] and [`default_pod_cidr_prefix`]) when it has none.
pub fn registered_node(node: &Node, cfg: &KubeletConfig, index: u32, now: Time) -> Node {
    let mut n = node.clone();
    let name = n.metadata.name.clone();
    let labels = &mut n.metadata.labels;
    for (k, v) in [
        ("kubernetes.io/hostname", name.as_str()),
        ("kubernetes.io/os", "linux"),
        ("kubernetes.io/arch", "amd64"),
        ("beta.kubernetes.io/os", "linux"),
        ("beta.kubernetes.io/arch", "amd64"),
    ] {
        labels.entry(k.into()).or_insert_with(|| v.into());
    }
    if !n.spec.extra.contains_key("podCIDR") {
        let cidr = format!("{}.0/24", default_pod_cidr_prefix(index));
        n.spec.extra.insert("podCIDR".into(), cidr.clone().into());
        n.spec
            .extra
            .insert("podCIDRs".into(), serde_json::json!([cidr]));
    }
    let st = &mut n.status;
    if st.capacity.is_empty() && st.allocatable.is_empty() {
        st.capacity = cfg.node_capacity.clone();
    }
    if st.allocatable.is_empty() {
        st.allocatable = st.capacity.clone();
    }
    if st.capacity.is_empty() {
        st.capacity = st.allocatable.clone();
    }
    st.extra.entry("addresses").or_insert_with(|| {
        serde_json::json!([
            {"type": "InternalIP", "address": default_internal_ip(index)},
            {"type": "Hostname", "address": name},
        ])
    });
    st.extra.entry("nodeInfo").or_insert_with(|| {
        // Stable per node name (FNV-1a), so the same scenario reports the same ids.
        let h = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        let id = format!("{h:016x}{:016x}", h.rotate_left(29) ^ 0x9e37_79b9_7f4a_7c15);
        let uuid = format!(
            "{}-{}-{}-{}-{}",
            &id[0..8],
            &id[8..12],
            &id[12..16],
            &id[16..20],
            &id[20..32]
        );
        serde_json::json!({
            "architecture": "amd64",
            "bootID": uuid,
            "machineID": id,
            "systemUUID": uuid,
            "containerRuntimeVersion": "containerd://2.1.3",
            "kernelVersion": "6.8.0",
            // DisableNodeKubeProxyVersion (on since 1.33, locked in 1.34): the kubelet no longer
            // fills in the deprecated field.
            "kubeProxyVersion": "",
            "kubeletVersion": KUBELET_VERSION,
            "operatingSystem": "linux",
            "osImage": "Debian GNU/Linux 12 (bookworm)",
        })
    });
    let now = now.trunc_secs();
    let wanted = [
        (
            "MemoryPressure",
            "False",
            "KubeletHasSufficientMemory",
            "kubelet has sufficient memory available",
        ),
        (
            "DiskPressure",
            "False",
            "KubeletHasNoDiskPressure",
            "kubelet has no disk pressure",
        ),
        (
            "PIDPressure",
            "False",
            "KubeletHasSufficientPID",
            "kubelet has sufficient PID available",
        ),
        (
            "Ready",
            "True",
            "KubeletReady",
            "kubelet is posting ready status",
        ),
    ];
    let healthy = wanted.iter().all(|(t, s, r, _)| {
        st.conditions
            .iter()
            .any(|c| c.type_ == *t && c.status == *s && c.reason == *r)
    });
    if !healthy {
        for (t, s, r, m) in wanted {
            match st.conditions.iter_mut().find(|c| c.type_ == t) {
                Some(c) => {
                    if c.status != s {
                        c.last_transition_time = Some(now);
                    }
                    c.status = s.into();
                    c.reason = r.into();
                    c.message = m.into();
                    c.last_heartbeat_time = Some(now);
                }
                None => st.conditions.push(NodeCondition {
                    type_: t.into(),
                    status: s.into(),
                    last_heartbeat_time: Some(now),
                    last_transition_time: Some(now),
                    reason: r.into(),
                    message: m.into(),
                }),
            }
        }
    }
    n
}

fn node_internal_ip(node: &Node) -> Option<String> {
    node.status
        .extra
        .get("addresses")?
        .as_array()?
        .iter()
        .find(|a| a["type"] == "InternalIP")
        .and_then(|a| a["address"].as_str())
        .map(String::from)
}

/// The InternalIP of the node numbered `index` when the scenario gives none: kind's node network
/// 172.18.0.0/16 from .0.2 on (172.18.0.2, 172.18.0.3, …, 172.18.1.0, …), so every node of a
/// large cluster gets a valid, distinct address.
pub fn default_internal_ip(index: u32) -> String {
    let host = index + 2;
    format!("172.18.{}.{}", (host >> 8) & 0xff, host & 0xff)
}

/// The first three octets of the /24 podCIDR of the node numbered `index` when the scenario
/// gives none: 10.244.<index>.0/24 for the first 256 nodes (kind's 10.244.0.0/16), then the
/// following /16s (10.245.0.0/24, …), as a node IPAM with a larger `--cluster-cidr` hands out;
/// always a valid CIDR, distinct for the first 65,536 nodes.
pub fn default_pod_cidr_prefix(index: u32) -> String {
    let second = (244 + (index >> 8)) & 0xff;
    format!("10.{second}.{}", index & 0xff)
}

fn pod_cidr_prefix(node: &Node) -> Option<String> {
    let cidr = node.spec.extra.get("podCIDR")?.as_str()?;
    let ip = cidr.split('/').next()?;
    let parts: Vec<&str> = ip.split('.').collect();
    (parts.len() == 4).then(|| parts[..3].join("."))
}

// ---------------------------------------------------------------------------------------------
// The container runtime model
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
enum St {
    /// Not started yet (waiting for init containers, or never started).
    Waiting,
    Pulling {
        until: Time,
        started: Time,
    },
    PullFailed {
        err: String,
        show_at: Time,
        shown: bool,
        retry_at: Time,
    },
    NeverPull,
    Creating {
        until: Time,
    },
    Running {
        since: Time,
        exit: Option<(Time, i32)>,
        ready_at: Option<Time>,
    },
    BackOff {
        until: Time,
        message: String,
    },
    /// Exited for good (completed init container, run-to-completion, or stopped on deletion).
    Done,
}

#[derive(Clone, Debug)]
struct Ctr {
    name: String,
    image: String,
    /// `normalize_image(image)`, computed once: the status reports it on every sync.
    image_ref: String,
    pull_policy: String,
    init: bool,
    sidecar: bool,
    state: St,
    restart_count: i32,
    last_term: Option<ContainerStateTerminated>,
    crash_backoff: Option<(Duration, Time)>,
    pull_backoff: Option<(Duration, Time)>,
    container_id: String,
    image_id: String,
    /// A sidecar the kubelet is stopping because every regular container finished.
    stopping: bool,
}

impl Ctr {
    /// `GenerateContainerRef`'s field path (`fieldPath` of the container's events):
    /// `spec.initContainers{name}` or `spec.containers{name}`.
    fn field_path(&self) -> String {
        if self.init {
            format!("spec.initContainers{{{}}}", self.name)
        } else {
            format!("spec.containers{{{}}}", self.name)
        }
    }

    fn done_ok(&self) -> bool {
        self.state == St::Done && self.last_term.as_ref().is_some_and(|t| t.exit_code == 0)
    }
    fn running(&self) -> bool {
        matches!(self.state, St::Running { .. })
    }
    fn ready(&self, now: Time) -> bool {
        match &self.state {
            St::Running { ready_at, .. } => ready_at.is_some_and(|t| t <= now),
            St::Done => self.init && self.done_ok(),
            _ => false,
        }
    }
}

#[derive(Clone, Debug)]
struct Stop {
    done: Time,
    exit_code: i32,
}

#[derive(Clone, Debug)]
struct PodRt {
    uid: String,
    started: Time,
    host_ip: String,
    pod_ip: String,
    init: Vec<Ctr>,
    ctrs: Vec<Ctr>,
    stop: Option<Stop>,
    /// The inputs of the last status build that equalled the stored status (see
    /// [`StatusMemo`]); cleared whenever a container changes.
    memo: Option<StatusMemo>,
}

/// What `pod_status` read when its result equalled the stored status: the stored status and
/// spec (held, so their addresses cannot be reused for other values), the generation and which
/// containers were ready then (the one input that changes with time alone). While all of these
/// and the containers are unchanged, a rebuild would give the stored status again, so the
/// kubelet skips it.
#[derive(Clone, Debug)]
struct StatusMemo {
    status: crate::api::meta::Shared<PodStatus>,
    spec: std::sync::Arc<crate::api::PodSpec>,
    generation: i64,
    ready: u64,
}

#[derive(Clone, Debug, Default)]
struct NodeRt {
    index: u32,
    next_host: u32,
    images: BTreeSet<String>,
}

/// An event to record: (type, reason, message, `involvedObject.fieldPath` of the container).
type Ev = (&'static str, &'static str, String, String);

struct Env<'a> {
    cfg: &'a KubeletConfig,
    rule: Option<&'a FaultRule>,
    pod: &'a Pod,
}

impl Env<'_> {
    fn restart_policy(&self) -> &str {
        match self.pod.spec.restart_policy.as_str() {
            "" => "Always",
            p => p,
        }
    }
}

/// Starts (or restarts) a container: pull if the policy says so, else create.
fn start_container(
    c: &mut Ctr,
    images: &mut BTreeSet<String>,
    env: &Env,
    now: Time,
    ev: &mut Vec<Ev>,
) {
    let present = images.contains(&c.image_ref);
    let pull = match c.pull_policy.as_str() {
        "Never" => false,
        "Always" => true,
        _ => !present,
    };
    if c.pull_policy == "Never" && !present {
        ev.push((
            "Warning",
            "ErrImageNeverPull",
            format!(
                "Container image {:?} is not present with pull policy of Never",
                c.image
            ),
            c.field_path(),
        ));
        ev.push((
            "Warning",
            "Failed",
            "Error: ErrImageNeverPull".into(),
            c.field_path(),
        ));
        c.state = St::NeverPull;
        return;
    }
    if pull {
        ev.push((
            "Normal",
            "Pulling",
            format!("Pulling image {:?}", c.image),
            c.field_path(),
        ));
        c.state = St::Pulling {
            until: now + env.cfg.image_pull,
            started: now,
        };
    } else {
        ev.push((
            "Normal",
            "Pulled",
            format!("Container image {:?} already present on machine", c.image),
            c.field_path(),
        ));
        c.image_id = image_id(&c.image);
        c.state = St::Creating {
            until: now + env.cfg.container_start,
        };
    }
}

/// Advances one container to `now`. Returns whether its state changed.
fn step_container(
    c: &mut Ctr,
    images: &mut BTreeSet<String>,
    env: &Env,
    now: Time,
    ev: &mut Vec<Ev>,
) -> bool {
    match c.state.clone() {
        St::Waiting => {
            start_container(c, images, env, now, ev);
            true
        }
        St::Pulling { until, started } if until <= now => {
            if env.rule.is_some_and(|r| r.image_pull_error) && !c.init {
                let err = pull_error(&c.image);
                ev.push((
                    "Warning",
                    "Failed",
                    format!("Failed to pull image {:?}: {err}", c.image),
                    c.field_path(),
                ));
                ev.push((
                    "Warning",
                    "Failed",
                    "Error: ErrImagePull".into(),
                    c.field_path(),
                ));
                let b = backoff_next(c.pull_backoff, until, until);
                c.pull_backoff = Some(b);
                c.state = St::PullFailed {
                    err,
                    show_at: until + IMAGE_BACKOFF_SHOWN_AFTER,
                    shown: false,
                    retry_at: until + b.0,
                };
            } else {
                images.insert(c.image_ref.clone());
                let took = until - started;
                ev.push((
                    "Normal",
                    "Pulled",
                    format!(
                        "Successfully pulled image {:?} in {took} ({took} including waiting). Image size: {} bytes.",
                        c.image,
                        image_size(&c.image)
                    ), c.field_path()));
                c.image_id = image_id(&c.image);
                c.pull_backoff = None;
                c.state = St::Creating {
                    until: until + env.cfg.container_start,
                };
            }
            true
        }
        St::PullFailed {
            err,
            show_at,
            shown,
            retry_at,
        } => {
            if retry_at <= now {
                ev.push((
                    "Normal",
                    "Pulling",
                    format!("Pulling image {:?}", c.image),
                    c.field_path(),
                ));
                c.state = St::Pulling {
                    until: retry_at + env.cfg.image_pull,
                    started: retry_at,
                };
                true
            } else if !shown && show_at <= now {
                ev.push((
                    "Normal",
                    "BackOff",
                    format!("Back-off pulling image {:?}", c.image),
                    c.field_path(),
                ));
                ev.push((
                    "Warning",
                    "Failed",
                    "Error: ImagePullBackOff".into(),
                    c.field_path(),
                ));
                c.state = St::PullFailed {
                    err,
                    show_at,
                    shown: true,
                    retry_at,
                };
                true
            } else {
                false
            }
        }
        St::Creating { until } if until <= now => {
            c.container_id = format!(
                "containerd://{}",
                hex64(&format!(
                    "{}/{}/{}",
                    env.pod.metadata.uid, c.name, c.restart_count
                ))
            );
            ev.push((
                "Normal",
                "Created",
                format!("Created container: {}", c.name),
                c.field_path(),
            ));
            ev.push((
                "Normal",
                "Started",
                format!("Started container {}", c.name),
                c.field_path(),
            ));
            let (exit, ready_at) = if c.init && !c.sidecar {
                (Some((until + env.cfg.init_container_run, 0)), None)
            } else if c.sidecar {
                (None, Some(until))
            } else {
                let exit = env
                    .rule
                    .and_then(|r| r.run_for.map(|d| (until + d, r.exit_code)));
                let ready = if env.rule.is_some_and(|r| r.never_ready) {
                    None
                } else {
                    Some(
                        until
                            + env
                                .rule
                                .and_then(|r| r.ready_after)
                                .unwrap_or(env.cfg.readiness),
                    )
                };
                (exit, ready)
            };
            c.state = St::Running {
                since: until,
                exit,
                ready_at,
            };
            true
        }
        St::Running {
            since,
            exit: Some((at, code)),
            ..
        } if at <= now => {
            c.last_term = Some(ContainerStateTerminated {
                exit_code: code,
                reason: if code == 0 { "Completed" } else { "Error" }.into(),
                message: String::new(),
                started_at: Some(since.trunc_secs()),
                finished_at: Some(at.trunc_secs()),
            });
            let restart = if c.sidecar {
                !c.stopping
            } else if c.init {
                code != 0 && env.restart_policy() != "Never"
            } else {
                match env.restart_policy() {
                    "Always" => true,
                    "OnFailure" => code != 0,
                    _ => false,
                }
            };
            if !restart {
                c.state = St::Done;
                return true;
            }
            // doBackOff (kuberuntime_manager.go) at this sync: in back-off while less than the
            // entry's period has passed since the finish time (`IsInBackOffSince`); otherwise
            // Next() and restart right away.
            match c.crash_backoff {
                Some((d, _)) if is_in_backoff_since(c.crash_backoff, at, now) => {
                    ev.push((
                        "Warning",
                        "BackOff",
                        format!(
                            "Back-off restarting failed container {} in pod {}",
                            c.name,
                            format_pod(env.pod)
                        ),
                        c.field_path(),
                    ));
                    c.state = St::BackOff {
                        until: at + d,
                        message: format!(
                            "back-off {d} restarting failed container={} pod={}",
                            c.name,
                            format_pod(env.pod)
                        ),
                    };
                }
                _ => {
                    c.crash_backoff = Some(backoff_next(c.crash_backoff, at, now));
                    c.restart_count += 1;
                    start_container(c, images, env, now, ev);
                }
            }
            true
        }
        St::BackOff { until, .. } if until <= now => {
            let finished = c
                .last_term
                .as_ref()
                .and_then(|t| t.finished_at)
                .unwrap_or(until);
            // Next() stamps `lastUpdate` with the restart time (flowcontrol's Clock.Now()), so
            // the 10-minute reset counts from the restart, not from the previous exit.
            c.crash_backoff = Some(backoff_next(c.crash_backoff, finished, until));
            c.restart_count += 1;
            start_container(c, images, env, until, ev);
            true
        }
        _ => false,
    }
}

fn next_due(c: &Ctr, now: Time) -> Option<Time> {
    match &c.state {
        St::Pulling { until, .. } | St::Creating { until } | St::BackOff { until, .. } => {
            Some(*until)
        }
        St::PullFailed {
            show_at,
            shown,
            retry_at,
            ..
        } => Some(if *shown { *retry_at } else { *show_at }),
        St::Running { exit, ready_at, .. } => {
            let r = ready_at.filter(|t| *t > now);
            match (exit.map(|e| e.0), r) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            }
        }
        _ => None,
    }
}

impl PodRt {
    /// Whether every init container finished (sidecars: started).
    fn initialized(&self) -> bool {
        self.init
            .iter()
            .all(|c| if c.sidecar { c.running() } else { c.done_ok() })
    }

    fn init_failed(&self, env: &Env) -> bool {
        env.restart_policy() == "Never"
            && self
                .init
                .iter()
                .any(|c| c.state == St::Done && !c.done_ok())
    }

    /// Runs every transition due at or before `now`, in order. Returns whether any container
    /// changed.
    fn advance(
        &mut self,
        images: &mut BTreeSet<String>,
        env: &Env,
        now: Time,
        ev: &mut Vec<Ev>,
    ) -> bool {
        let mut any = false;
        for _ in 0..10_000 {
            let mut changed = false;
            if !self.initialized() {
                if self.init_failed(env) {
                    return any;
                }
                // The first init container not done (sidecars count once running).
                if let Some(c) = self
                    .init
                    .iter_mut()
                    .find(|c| !(if c.sidecar { c.running() } else { c.done_ok() }))
                {
                    changed |= step_container(c, images, env, now, ev);
                }
                for c in self.init.iter_mut().filter(|c| c.sidecar && c.running()) {
                    changed |= step_container(c, images, env, now, ev);
                }
            } else {
                // Once every regular container exited for good, the kubelet stops the sidecars
                // (computePodActions kills the restartable init containers of a pod whose
                // regular containers are done): `Killing`, then they exit and are not
                // restarted, and the pod reaches its terminal phase.
                let finished = self.ctrs.iter().all(|c| c.state == St::Done);
                for c in self.init.iter_mut().filter(|c| c.sidecar) {
                    if finished && !c.stopping {
                        if let St::Running {
                            since, ready_at, ..
                        } = c.state
                        {
                            c.stopping = true;
                            ev.push((
                                "Normal",
                                "Killing",
                                format!("Stopping container {}", c.name),
                                c.field_path(),
                            ));
                            let grace = Duration::from_secs(
                                env.pod.spec.termination_grace_period_seconds.unwrap_or(30),
                            );
                            let exit = if env.rule.is_some_and(|r| r.ignore_sigterm) {
                                (now + grace, 137)
                            } else {
                                (now + Duration(env.cfg.container_stop.0.min(grace.0)), 0)
                            };
                            c.state = St::Running {
                                since,
                                exit: Some(exit),
                                ready_at,
                            };
                            changed = true;
                        }
                    }
                    changed |= step_container(c, images, env, now, ev);
                }
                for c in self.ctrs.iter_mut() {
                    changed |= step_container(c, images, env, now, ev);
                }
            }
            if !changed {
                return any;
            }
            any = true;
        }
        any
    }

    /// Which containers (init, then regular) are ready at `now`, as bits; `None` past 64.
    fn ready_bits(&self, now: Time) -> Option<u64> {
        let mut bits = 0u64;
        for (i, c) in self.init.iter().chain(self.ctrs.iter()).enumerate() {
            if i >= 64 {
                return None;
            }
            if c.ready(now) {
                bits |= 1 << i;
            }
        }
        Some(bits)
    }

    /// Whether `pod_status(pod, self, now, false)` is known to equal `pod.status` (see
    /// [`StatusMemo`]).
    fn status_unchanged(&self, pod: &Pod, now: Time) -> bool {
        self.memo.as_ref().is_some_and(|m| {
            crate::api::Shared::ptr_eq(&m.status, &pod.status)
                && std::sync::Arc::ptr_eq(&m.spec, &pod.spec)
                && m.generation == pod.metadata.generation
                && self.ready_bits(now) == Some(m.ready)
        })
    }

    fn next_wake(&self, now: Time) -> Option<Time> {
        self.init
            .iter()
            .chain(self.ctrs.iter())
            .filter_map(|c| next_due(c, now))
            .filter(|t| *t > now)
            .min()
    }
}

fn container_status(c: &Ctr, pod_initializing: bool, now: Time) -> ContainerStatus {
    let waiting = |reason: &str, message: String| ContainerState {
        waiting: Some(ContainerStateWaiting {
            reason: reason.into(),
            message,
        }),
        ..Default::default()
    };
    let state = match &c.state {
        St::Waiting | St::Pulling { .. } | St::Creating { .. } => {
            if c.init || pod_initializing {
                waiting("PodInitializing", String::new())
            } else {
                waiting("ContainerCreating", String::new())
            }
        }
        St::PullFailed { err, shown, .. } => {
            if *shown {
                waiting(
                    "ImagePullBackOff",
                    format!("Back-off pulling image {:?}", c.image),
                )
            } else {
                waiting("ErrImagePull", err.clone())
            }
        }
        St::NeverPull => waiting(
            "ErrImageNeverPull",
            format!(
                "Container image {:?} is not present with pull policy of Never",
                c.image
            ),
        ),
        St::BackOff { message, .. } => waiting("CrashLoopBackOff", message.clone()),
        St::Running { since, .. } => ContainerState {
            running: Some(ContainerStateRunning {
                started_at: Some(since.trunc_secs()),
            }),
            ..Default::default()
        },
        St::Done => ContainerState {
            terminated: c.last_term.clone(),
            ..Default::default()
        },
    };
    let last_state = if c.state == St::Done {
        None
    } else {
        c.last_term.clone().map(|t| ContainerState {
            terminated: Some(t),
            ..Default::default()
        })
    };
    let mut extra = serde_json::Map::new();
    if !c.container_id.is_empty() {
        extra.insert("containerID".into(), c.container_id.clone().into());
    }
    ContainerStatus {
        name: c.name.clone(),
        ready: c.ready(now),
        restart_count: c.restart_count,
        state: Some(state),
        last_state,
        image: c.image_ref.clone(),
        image_id: c.image_id.clone(),
        started: Some(c.running()),
        extra,
    }
}

/// Builds the pod status the kubelet posts (`generateAPIPodStatus`), keeping the conditions it
/// does not own (PodScheduled, DisruptionTarget, ...) and transition times that did not change.
/// The status-update request: the pod's metadata and spec with a new status (the old status is
/// not copied).
fn with_status(pod: &Pod, status: impl Into<crate::api::Shared<PodStatus>>) -> Object {
    Pod {
        api_version: pod.api_version.clone(),
        kind: pod.kind.clone(),
        metadata: pod.metadata.clone(),
        spec: pod.spec.clone(),
        status: status.into(),
    }
    .into_object()
}

/// Sets `status.hostIPs`/`podIPs` to `[{"ip": ip}]`, leaving an equal value in place (the
/// common case: the kubelet rewrites the status many times with the same addresses).
fn set_ip_list(extra: &mut serde_json::Map<String, serde_json::Value>, field: &str, ip: &str) {
    let same = extra
        .get(field)
        .and_then(serde_json::Value::as_array)
        .is_some_and(|a| {
            a.len() == 1
                && a[0].as_object().is_some_and(|o| {
                    o.len() == 1 && o.get("ip").and_then(serde_json::Value::as_str) == Some(ip)
                })
        });
    if !same {
        extra.insert(field.into(), serde_json::json!([{ "ip": ip }]));
    }
}

fn pod_status(pod: &Pod, rt: &PodRt, now: Time, terminal: bool) -> PodStatus {
    // Everything but message, reason, qosClass and the verbatim fields is rebuilt below, so
    // only those are copied from the current status.
    let mut st = PodStatus {
        message: pod.status.message.clone(),
        reason: pod.status.reason.clone(),
        qos_class: pod.status.qos_class.clone(),
        extra: pod.status.extra.clone(),
        ..PodStatus::default()
    };
    st.host_ip = rt.host_ip.clone();
    st.pod_ip = rt.pod_ip.clone();
    set_ip_list(&mut st.extra, "hostIPs", &rt.host_ip);
    set_ip_list(&mut st.extra, "podIPs", &rt.pod_ip);
    st.start_time = Some(rt.started.trunc_secs());
    let initializing = !rt.initialized();
    // Regular then init statuses in one list (moved, not cloned), as generateAPIPodStatus
    // hands them to getPhase and the condition generators.
    let mut all: Vec<ContainerStatus> = rt
        .ctrs
        .iter()
        .chain(rt.init.iter())
        .map(|c| container_status(c, initializing, now))
        .collect();
    // HasAnyActiveRegularContainerStarted: a regular container runs or has run.
    let has_initialized = rt.ctrs.iter().any(|c| c.running() || c.last_term.is_some());
    let mut phase = get_phase(&pod.spec, &all, terminal, has_initialized);
    // TerminatePod (status/status_manager.go): a terminated pod still Pending or Running is
    // marked Failed.
    if terminal && phase != "Succeeded" && phase != "Failed" {
        phase = "Failed";
    }
    st.phase = phase.into();
    let terminal_phase = phase == "Succeeded" || phase == "Failed";
    // `mergePodStatus` (kubelet/status/status_manager.go): conditions the kubelet does not own
    // stay first, in their order; then the ones `generateAPIPodStatus` builds, PodScheduled
    // last. Each carries the pod's generation (`CalculatePodConditionObservedGeneration`, with
    // PodObservedGenerationTracking GA in 1.35).
    let owned = [
        "PodReadyToStartContainers",
        "Initialized",
        "Ready",
        "ContainersReady",
        "PodScheduled",
    ];
    let generation = pod.metadata.generation;
    let mut out: Vec<PodCondition> = pod
        .status
        .conditions
        .iter()
        .filter(|c| !owned.contains(&c.type_.as_str()))
        .cloned()
        .collect();
    let kept = out.len();
    out.push(generate_pod_ready_to_start_containers_condition(
        pod,
        terminal_phase,
    ));
    out.push(generate_pod_initialized_condition(pod, Some(&all), phase));
    // GeneratePodReadyCondition starts from GenerateContainersReadyCondition: computed once.
    let containers_ready = generate_containers_ready_condition(pod, Some(&all), phase);
    let ready = pod_ready_condition_from(pod, &out, containers_ready.clone());
    out.push(ready);
    out.push(containers_ready);
    out.push(PodCondition {
        type_: "PodScheduled".into(),
        observed_generation: generation,
        status: "True".into(),
        ..Default::default()
    });
    let now_s = now.trunc_secs();
    for c in &mut out[kept..] {
        let old = pod.status.conditions.iter().find(|o| o.type_ == c.type_);
        c.last_transition_time = match old {
            Some(o) if o.status == c.status => o.last_transition_time,
            _ => Some(now_s),
        };
    }
    // `CalculatePodStatusObservedGeneration`.
    st.observed_generation = generation;
    st.conditions = out;
    st.init_container_statuses = all.split_off(rt.ctrs.len());
    st.container_statuses = all;
    st
}

/// Adopts a pod whose status was written elsewhere (loaded running): running containers keep
/// running from their `startedAt`, terminated ones stay terminated.
fn adopt(c: &mut Ctr, cs: &ContainerStatus, env: &Env) {
    c.restart_count = cs.restart_count;
    c.image_id = cs.image_id.clone();
    c.container_id = cs
        .extra
        .get("containerID")
        .and_then(|v| v.as_str())
        .unwrap_or_default()
        .to_string();
    c.last_term = cs.last_state.as_ref().and_then(|s| s.terminated.clone());
    let Some(state) = &cs.state else { return };
    if let Some(r) = &state.running {
        let since = r.started_at.unwrap_or(Time(0));
        let ready_at = if cs.ready {
            Some(since)
        } else if env.rule.is_some_and(|r| r.never_ready) {
            None
        } else {
            Some(
                since
                    + env
                        .rule
                        .and_then(|r| r.ready_after)
                        .unwrap_or(env.cfg.readiness),
            )
        };
        let exit = env
            .rule
            .and_then(|r| r.run_for.map(|d| (since + d, r.exit_code)));
        c.state = St::Running {
            since,
            exit: if c.init && !c.sidecar { None } else { exit },
            ready_at,
        };
    } else if let Some(t) = &state.terminated {
        c.last_term = Some(t.clone());
        c.state = St::Done;
    }
}

fn new_ctr(c: &crate::api::Container, init: bool) -> Ctr {
    Ctr {
        name: c.name.clone(),
        image: c.image.clone(),
        image_ref: normalize_image(&c.image),
        pull_policy: c
            .extra
            .get("imagePullPolicy")
            .and_then(|v| v.as_str())
            .unwrap_or("IfNotPresent")
            .to_string(),
        init,
        sidecar: init && c.restart_policy.as_deref() == Some("Always"),
        state: St::Waiting,
        restart_count: 0,
        last_term: None,
        crash_backoff: None,
        pull_backoff: None,
        container_id: String::new(),
        image_id: String::new(),
        stopping: false,
    }
}

// ---------------------------------------------------------------------------------------------
// The control loop
// ---------------------------------------------------------------------------------------------

/// All kubelets of the cluster. Keys: `pod:<ns>/<name>` and `node:<name>`.
#[derive(Default)]
pub struct Kubelet {
    pods: BTreeMap<String, PodRt>,
    nodes: BTreeMap<String, NodeRt>,
    next_index: u32,
}

/// A boxed kubelet for `Simulation::add_loop`.
pub fn new_kubelet() -> Box<dyn Controller> {
    Box::new(Kubelet::default())
}

impl Kubelet {
    fn node_rt(&mut self, name: &str) -> &mut NodeRt {
        if !self.nodes.contains_key(name) {
            let idx = self.next_index;
            self.next_index += 1;
            self.nodes.insert(
                name.to_string(),
                NodeRt {
                    index: idx,
                    next_host: 2,
                    images: BTreeSet::new(),
                },
            );
        }
        self.nodes.get_mut(name).expect("inserted")
    }

    fn sync_node(&mut self, name: &str, ctx: &mut Ctx) -> Result<(), ApiError> {
        let Some(node) = ctx.store().get::<Node>("", name).cloned() else {
            self.nodes.remove(name);
            return Ok(());
        };
        if ctx.world.nodes_down.contains_key(name) {
            return Ok(());
        }
        let index = self.node_rt(name).index;
        let want = registered_node(&node, &ctx.world.kubelet, index, ctx.now());
        let mut cur = node.clone();
        if want.metadata != node.metadata || want.spec != node.spec {
            let mut upd = want.clone();
            upd.status = node.status.clone();
            cur = match crate::controllers::into_owned(ctx.update(upd.into_object())?) {
                Object::Node(n) => n,
                _ => cur,
            };
        }
        if want.status != cur.status {
            let mut upd = cur.clone();
            upd.status = want.status;
            ctx.update_status(upd.into_object())?;
        }
        Ok(())
    }

    fn sync_pod(&mut self, key: &str, ctx: &mut Ctx) -> Result<(), ApiError> {
        let (ns, name) = key.split_once('/').unwrap_or(("", key));
        // The stored object itself (shared), as an informer cache hands it out.
        let shared = ctx.store().get_arc_by_parts("Pod", ns, name);
        let Some(pod) = shared.as_deref().and_then(Pod::from_object) else {
            self.pods.remove(key);
            return Ok(());
        };
        if self
            .pods
            .get(key)
            .is_some_and(|rt| rt.uid != pod.metadata.uid)
        {
            self.pods.remove(key);
        }
        let node_name = pod.spec.node_name.clone();
        if node_name.is_empty() || ctx.world.nodes_down.contains_key(&node_name) {
            return Ok(());
        }
        let node_shared = ctx.store().get_arc_by_parts("Node", "", &node_name);
        let Some(node) = node_shared.as_deref().and_then(Node::from_object) else {
            return Ok(());
        };
        let now = ctx.now();
        let cfg = ctx.world.kubelet.clone();
        let rule_index = ctx.world.claim_rule(pod);
        let env = Env {
            cfg: &cfg,
            rule: rule_index.and_then(|i| cfg.rules.get(i)),
            pod,
        };
        let frozen = cfg.is_frozen(pod);
        let terminal = pod.status.phase == "Succeeded" || pod.status.phase == "Failed";

        if !self.pods.contains_key(key) {
            if frozen || (terminal && pod.metadata.deletion_timestamp.is_none()) {
                // Nothing to run; a frozen pod keeps its status as written.
                if pod.metadata.deletion_timestamp.is_none() {
                    return Ok(());
                }
            }
            let nrt = self.node_rt(&node_name);
            let prefix =
                pod_cidr_prefix(node).unwrap_or_else(|| default_pod_cidr_prefix(nrt.index));
            let pod_ip = if pod.status.pod_ip.is_empty() {
                // host-local IPAM hands out .2 to .254 of the node's /24 in turn and wraps
                // around (addresses of finished pods are free again by then).
                let ip = format!("{prefix}.{}", 2 + (nrt.next_host - 2) % 253);
                nrt.next_host += 1;
                ip
            } else {
                pod.status.pod_ip.clone()
            };
            // An imported pod keeps the addresses it was written with.
            let host_ip = if pod.status.host_ip.is_empty() {
                node_internal_ip(node).unwrap_or_else(|| default_internal_ip(nrt.index))
            } else {
                pod.status.host_ip.clone()
            };
            let mut rt = PodRt {
                uid: pod.metadata.uid.clone(),
                started: pod.status.start_time.unwrap_or(now),
                host_ip,
                pod_ip,
                init: pod
                    .spec
                    .init_containers
                    .iter()
                    .map(|c| new_ctr(c, true))
                    .collect(),
                ctrs: pod
                    .spec
                    .containers
                    .iter()
                    .map(|c| new_ctr(c, false))
                    .collect(),
                stop: None,
                memo: None,
            };
            for c in rt.init.iter_mut() {
                if let Some(cs) = pod
                    .status
                    .init_container_statuses
                    .iter()
                    .find(|s| s.name == c.name)
                {
                    adopt(c, cs, &env);
                }
            }
            for c in rt.ctrs.iter_mut() {
                if let Some(cs) = pod
                    .status
                    .container_statuses
                    .iter()
                    .find(|s| s.name == c.name)
                {
                    adopt(c, cs, &env);
                }
            }
            self.pods.insert(key.to_string(), rt);
        }

        let mut events: Vec<Ev> = vec![];
        let rt = self.pods.get_mut(key).expect("present");
        let images = &mut self
            .nodes
            .get_mut(&node_name)
            .expect("node runtime registered")
            .images;

        if pod.metadata.deletion_timestamp.is_some() {
            rt.memo = None;
            // Graceful termination.
            if rt.stop.is_none() {
                let grace =
                    Duration::from_secs(pod.metadata.deletion_grace_period_seconds.unwrap_or(30));
                let running: Vec<&Ctr> = rt
                    .ctrs
                    .iter()
                    .chain(rt.init.iter().filter(|c| c.sidecar))
                    .filter(|c| c.running())
                    .collect();
                for c in &running {
                    events.push((
                        "Normal",
                        "Killing",
                        format!("Stopping container {}", c.name),
                        c.field_path(),
                    ));
                }
                let ignores = env.rule.is_some_and(|r| r.ignore_sigterm);
                let (dur, code) = if running.is_empty() {
                    (Duration::ZERO, 0)
                } else if ignores {
                    (grace, 137)
                } else {
                    (Duration(cfg.container_stop.0.min(grace.0)), 0)
                };
                rt.stop = Some(Stop {
                    done: now + dur,
                    exit_code: code,
                });
            }
            let stop = rt.stop.clone().expect("set");
            record(ctx, pod, &events);
            if stop.done > now {
                ctx.requeue_after(&["pod:", key].concat(), stop.done - now);
                return Ok(());
            }
            if !frozen {
                for c in rt.ctrs.iter_mut().chain(rt.init.iter_mut()) {
                    if let St::Running { since, .. } = c.state {
                        c.last_term = Some(ContainerStateTerminated {
                            exit_code: stop.exit_code,
                            reason: if stop.exit_code == 0 {
                                "Completed"
                            } else {
                                "Error"
                            }
                            .into(),
                            message: String::new(),
                            started_at: Some(since.trunc_secs()),
                            finished_at: Some(stop.done.trunc_secs()),
                        });
                        c.state = St::Done;
                    }
                }
                let status = pod_status(pod, rt, now, true);
                if status != *pod.status {
                    match ctx.update_status(with_status(pod, status)) {
                        Ok(_) => {}
                        Err(e) if e.is_not_found() => {}
                        Err(e) => return Err(e),
                    }
                }
            }
            let opts = DeleteOptions {
                grace_period_seconds: Some(0),
                uid: Some(pod.metadata.uid.clone()),
                ..Default::default()
            };
            match ctx.delete::<Pod>(ns, name, &opts) {
                Ok(_) => {}
                Err(e) if e.is_not_found() => {}
                Err(e) => return Err(e),
            }
            self.pods.remove(key);
            return Ok(());
        }

        if frozen || terminal {
            return Ok(());
        }
        if rt.advance(images, &env, now, &mut events) {
            rt.memo = None;
        }
        let wake = rt.next_wake(now);
        if !rt.status_unchanged(pod, now) {
            let status = pod_status(pod, rt, now, false);
            if status != *pod.status {
                rt.memo = None;
                // The status written is what a rebuild from it would give again (the kept
                // conditions and times come back unchanged): remember it, if the API server
                // stored it as sent.
                let sent = crate::api::Shared::from(status);
                let stored = ctx.update_status(with_status(pod, sent.clone()))?;
                if Pod::from_object(&stored)
                    .is_some_and(|p| crate::api::Shared::ptr_eq(&p.status, &sent))
                {
                    rt.memo = rt.ready_bits(now).map(|ready| StatusMemo {
                        status: sent,
                        spec: pod.spec.clone(),
                        generation: pod.metadata.generation,
                        ready,
                    });
                }
            } else {
                rt.memo = rt.ready_bits(now).map(|ready| StatusMemo {
                    status: pod.status.clone(),
                    spec: pod.spec.clone(),
                    generation: pod.metadata.generation,
                    ready,
                });
            }
        }
        record(ctx, pod, &events);
        if let Some(t) = wake {
            ctx.requeue_after(&["pod:", key].concat(), t - now);
        }
        Ok(())
    }
}

fn record(ctx: &mut Ctx, pod: &Pod, events: &[Ev]) {
    if events.is_empty() {
        return;
    }
    // The kubelet's recorder: `EventSource{Component: "kubelet", Host: nodeName}`.
    for (t, r, m, field_path) in events {
        ctx.event_from_host(pod, t, r, m, &pod.spec.node_name, field_path);
    }
}

impl Controller for Kubelet {
    fn name(&self) -> &'static str {
        COMPONENT
    }

    fn in_controller_manager(&self) -> bool {
        false
    }

    fn watch(&mut self, change: &Change, store: &Store, queue: &mut WorkQueue, _now: Time) {
        match change.object() {
            Object::Node(n) => {
                queue.add_prefixed("node:", &n.metadata.name);
                // A (re)appearing node: its kubelet resyncs every pod it runs.
                if change.old.is_none() {
                    for p in store.pods_on_node(&n.metadata.name) {
                        queue.add_prefixed("pod:", &p.metadata.key());
                    }
                }
            }
            Object::Pod(p) => {
                let bound = !p.spec.node_name.is_empty()
                    || matches!(change.old_obj(), Some(Object::Pod(o)) if !o.spec.node_name.is_empty());
                if bound {
                    queue.add_prefixed("pod:", &p.metadata.key());
                }
            }
            _ => {}
        }
    }

    fn sync(&mut self, key: &str, ctx: &mut Ctx) -> Result<(), ApiError> {
        if let Some(n) = key.strip_prefix("node:") {
            self.sync_node(n, ctx)
        } else if let Some(k) = key.strip_prefix("pod:") {
            self.sync_pod(k, ctx)
        } else {
            Ok(())
        }
    }

    fn resync_all(&mut self, store: &Store, queue: &mut WorkQueue) {
        for n in store.list::<Node>(None) {
            queue.add_prefixed("node:", &n.metadata.name);
        }
        for p in store.list::<Pod>(None) {
            if !p.spec.node_name.is_empty() {
                queue.add_prefixed("pod:", &p.metadata.key());
            }
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_names() {
        assert_eq!(normalize_image("nginx"), "docker.io/library/nginx:latest");
        // A digest reference keeps its digest and gets no `:latest`.
        assert_eq!(
            normalize_image("nginx@sha256:0123abcd"),
            "docker.io/library/nginx@sha256:0123abcd"
        );
        assert_eq!(
            normalize_image("quay.io/org/app:v1@sha256:0123abcd"),
            "quay.io/org/app:v1@sha256:0123abcd"
        );
        assert_eq!(
            normalize_image("nginx:1.25"),
            "docker.io/library/nginx:1.25"
        );
        assert_eq!(
            normalize_image("bitnami/redis"),
            "docker.io/bitnami/redis:latest"
        );
        assert_eq!(
            normalize_image("registry.k8s.io/pause:3.10"),
            "registry.k8s.io/pause:3.10"
        );
        assert_eq!(
            normalize_image("localhost:5000/app"),
            "localhost:5000/app:latest"
        );
        let id = image_id("nginx:1.25");
        assert!(id.starts_with("docker.io/library/nginx@sha256:"), "{id}");
        assert_eq!(id.len(), "docker.io/library/nginx@sha256:".len() + 64);
        assert_eq!(image_id("nginx:1.25"), id);
        assert_ne!(image_size("nginx"), image_size("redis"));
    }

    // The container back-off sequence of kuberuntime's doBackOff with flowcontrol.Backoff
    // (10 s initial, 300 s max): 10, 20, 40, 80, 160, 300, 300; an entry older than 2 × max
    // starts over (TestBackoffReset-style, client-go util/flowcontrol/backoff_test.go).
    #[test]
    fn backoff_sequence() {
        let mut e = None;
        let mut seen = vec![];
        let mut t = Time(0);
        for _ in 0..7 {
            let n = backoff_next(e, t, t);
            seen.push(n.0.as_millis() / 1000);
            e = Some(n);
            t = t + Duration::from_secs(1);
        }
        assert_eq!(seen, vec![10, 20, 40, 80, 160, 300, 300]);
        let late = t + Duration::from_secs(601);
        assert_eq!(backoff_next(e, late, late).0, BACKOFF_INITIAL);
    }

    #[test]
    fn registration_fills_kubelet_fields_once() {
        let mut n = Node::default();
        n.metadata.name = "w1".into();
        let cfg = KubeletConfig::default();
        let r = registered_node(&n, &cfg, 1, Time(5_500));
        assert_eq!(r.metadata.labels["kubernetes.io/hostname"], "w1");
        assert_eq!(r.status.allocatable["pods"].0, "110");
        assert!(r.is_ready());
        assert_eq!(r.spec.extra["podCIDR"], "10.244.1.0/24");
        let ready = r.condition("Ready").unwrap();
        assert_eq!(ready.reason, "KubeletReady");
        assert_eq!(ready.last_transition_time, Some(Time(5_000)));
        // Idempotent: a healthy registered node is left unchanged.
        assert_eq!(registered_node(&r, &cfg, 1, Time(99_000)), r);
    }

    /// Clusters of more than 254 nodes: every node gets a valid, distinct InternalIP and podCIDR
    /// (they were 172.18.0.256 and 10.244.256.0/24 from node 256 on, and the API server rightly
    /// refused the pod status those nodes' kubelets wrote).
    #[test]
    fn default_addresses_stay_valid_and_distinct_past_256_nodes() {
        use crate::api::validation::ip::{is_valid_cidr, is_valid_ip};
        assert_eq!(default_internal_ip(0), "172.18.0.2");
        assert_eq!(default_internal_ip(253), "172.18.0.255");
        assert_eq!(default_internal_ip(254), "172.18.1.0");
        assert_eq!(default_pod_cidr_prefix(0), "10.244.0");
        assert_eq!(default_pod_cidr_prefix(255), "10.244.255");
        assert_eq!(default_pod_cidr_prefix(256), "10.245.0");
        let mut ips = BTreeSet::new();
        let mut cidrs = BTreeSet::new();
        for i in (0..3_000).chain([65_533]) {
            let ip = default_internal_ip(i);
            let cidr = format!("{}.0/24", default_pod_cidr_prefix(i));
            assert!(is_valid_ip("ip", &ip).is_empty(), "{ip}");
            assert!(is_valid_cidr("cidr", &cidr).is_empty(), "{cidr}");
            assert!(is_valid_ip("ip", &format!("{}.254", default_pod_cidr_prefix(i))).is_empty());
            assert!(ips.insert(ip), "node {i}");
            assert!(cidrs.insert(cidr), "node {i}");
        }
    }
}
