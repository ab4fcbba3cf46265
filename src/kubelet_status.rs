//! Pure ports of the kubelet's pod-status logic, over API types, as upstream computes it:
//! `getPhase` (pkg/kubelet/kubelet_pods.go), the condition generators of
//! pkg/kubelet/status/generate.go, and the container restart back-off (client-go
//! util/flowcontrol `Backoff` as kubelet.go configures it). [`crate::kubelet`] builds its pod
//! statuses with them.
//!
//! Not modelled: static pods (`getPhase` gives them no terminal phase), container-level
//! `restartPolicy` / `restartPolicyRules` of regular containers (ContainerRestartRules) and the
//! sandbox checks behind `GeneratePodReadyToStartContainersCondition` (the caller says whether a
//! new sandbox is needed).

use crate::api::errors::go_quote;
use crate::api::{
    Container, ContainerStateTerminated, ContainerStatus, Duration, Pod, PodCondition, PodSpec,
    Time,
};
use crate::controllers::controller_utils::pod_readiness_gate_types;

/// `IsRestartableInitContainer`: an init container with `restartPolicy: Always` (a sidecar).
pub fn is_restartable_init_container(c: &Container) -> bool {
    c.restart_policy.as_deref() == Some("Always")
}

/// `podutil.GetContainerStatus`: the first status of that name.
pub fn get_container_status<'a>(
    statuses: &'a [ContainerStatus],
    name: &str,
) -> Option<&'a ContainerStatus> {
    statuses.iter().find(|s| s.name == name)
}

/// The three pointers of `v1.ContainerState` (all unset when the status has no state).
fn state(cs: &ContainerStatus) -> (bool, Option<&ContainerStateTerminated>, bool) {
    match &cs.state {
        Some(s) => (
            s.running.is_some(),
            s.terminated.as_ref(),
            s.waiting.is_some(),
        ),
        None => (false, None, false),
    }
}

fn last_terminated(cs: &ContainerStatus) -> Option<&ContainerStateTerminated> {
    cs.last_state.as_ref().and_then(|s| s.terminated.as_ref())
}

/// `kubecontainer.HasAnyRegularContainerStarted`: a regular container's status is running or
/// terminated.
pub fn has_any_regular_container_started(spec: &PodSpec, statuses: &[ContainerStatus]) -> bool {
    statuses.iter().any(|s| {
        spec.containers.iter().any(|c| c.name == s.name) && {
            let (running, terminated, _) = state(s);
            running || terminated.is_some()
        }
    })
}

/// `getPhase`: the pod phase from the container statuses (init and regular, in any order).
/// `pod_has_initialized` is what the kubelet passes as
/// `HasAnyActiveRegularContainerStarted`: a restarting sidecar does not put an initialized pod
/// back into `Pending`. An empty `restartPolicy` counts as `Always` (the API default).
pub fn get_phase(
    spec: &PodSpec,
    info: &[ContainerStatus],
    pod_is_terminal: bool,
    pod_has_initialized: bool,
) -> &'static str {
    let (mut pending_regular_init, mut pending_restartable_init, mut failed_init) = (0, 0, 0);
    let (mut unknown, mut running, mut waiting, mut stopped, mut succeeded) = (0, 0, 0, 0, 0);
    for c in &spec.init_containers {
        let Some(cs) = get_container_status(info, &c.name) else {
            if is_restartable_init_container(c) {
                unknown += 1;
            } else {
                pending_regular_init += 1;
            }
            continue;
        };
        let (is_running, terminated, is_waiting) = state(cs);
        let last = last_terminated(cs);
        if !is_restartable_init_container(c) {
            match (is_running, terminated, is_waiting) {
                (true, _, _) => pending_regular_init += 1,
                (_, Some(t), _) => failed_init += i32::from(t.exit_code != 0),
                (_, _, true) => match last {
                    Some(t) => failed_init += i32::from(t.exit_code != 0),
                    None => pending_regular_init += 1,
                },
                _ => pending_regular_init += 1,
            }
        } else {
            // Terminated sidecars (now or before a restart) do not count for the phase.
            match (is_running, terminated, is_waiting) {
                (true, _, _) => {
                    if cs.started != Some(true) {
                        pending_restartable_init += 1;
                    }
                    running += 1;
                }
                (_, Some(_), _) => {}
                (_, _, true) => {
                    if last.is_none() {
                        pending_restartable_init += 1;
                        waiting += 1;
                    }
                }
                _ => {
                    pending_restartable_init += 1;
                    unknown += 1;
                }
            }
        }
    }
    for c in &spec.containers {
        let Some(cs) = get_container_status(info, &c.name) else {
            unknown += 1;
            continue;
        };
        match state(cs) {
            (true, _, _) => running += 1,
            (_, Some(t), _) => {
                stopped += 1;
                succeeded += i32::from(t.exit_code == 0);
            }
            (_, _, true) => {
                if last_terminated(cs).is_some() {
                    stopped += 1;
                } else {
                    waiting += 1;
                }
            }
            _ => unknown += 1,
        }
    }
    let policy = match spec.restart_policy.as_str() {
        "" => "Always",
        p => p,
    };
    if failed_init > 0 && policy == "Never" {
        return "Failed";
    }
    if pending_regular_init > 0
        || (pending_restartable_init > 0 && !pod_has_initialized)
        || waiting > 0
    {
        "Pending"
    } else if running > 0 && unknown == 0 {
        "Running"
    } else if running == 0 && stopped > 0 && unknown == 0 {
        if pod_is_terminal {
            return if stopped == succeeded {
                "Succeeded"
            } else {
                "Failed"
            };
        }
        if policy == "Always" {
            "Running"
        } else if stopped == succeeded {
            "Succeeded"
        } else if policy == "Never" {
            "Failed"
        } else {
            "Running"
        }
    } else {
        "Pending"
    }
}

/// Go's `%s` of a `[]string`: `[a b]`.
fn go_list(names: &[&str]) -> String {
    format!("[{}]", names.join(" "))
}

fn condition(pod: &Pod, type_: &str, status: &str, reason: &str, message: String) -> PodCondition {
    PodCondition {
        type_: type_.into(),
        // GetPodObservedGenerationIfEnabledOnCondition (PodObservedGenerationTracking, GA).
        observed_generation: pod.metadata.generation,
        status: status.into(),
        last_probe_time: None,
        last_transition_time: None,
        reason: reason.into(),
        message,
    }
}

/// `GenerateContainersReadyCondition`: every sidecar and regular container is ready;
/// `None` statuses (Go's nil) give `UnknownContainerStatuses`.
pub fn generate_containers_ready_condition(
    pod: &Pod,
    statuses: Option<&[ContainerStatus]>,
    phase: &str,
) -> PodCondition {
    const T: &str = "ContainersReady";
    let Some(statuses) = statuses else {
        return condition(pod, T, "False", "UnknownContainerStatuses", String::new());
    };
    // The message is written in one string as the containers are walked (no list of names,
    // no `format!` per sync; ~1,000 builds a simulated hour): the unknown ones first, then the
    // unready ones, as upstream's two lists joined with ", ".
    let sidecars = || {
        pod.spec
            .init_containers
            .iter()
            .filter(|c| is_restartable_init_container(c))
    };
    let all = || sidecars().chain(pod.spec.containers.iter());
    let known = |c: &&crate::api::Container| get_container_status(statuses, &c.name).is_some();
    let any_unknown = all().any(|c| !known(&c));
    if (phase == "Succeeded" && !any_unknown) || phase == "Failed" {
        let reason = if phase == "Failed" {
            "PodFailed"
        } else {
            "PodCompleted"
        };
        return condition(pod, T, "False", reason, String::new());
    }
    let unready = |c: &&crate::api::Container| {
        get_container_status(statuses, &c.name).is_some_and(|cs| !cs.ready)
    };
    let any_unready = all().any(|c| unready(&c));
    if !any_unknown && !any_unready {
        return condition(pod, T, "True", "", String::new());
    }
    let mut msg = String::new();
    let list = |msg: &mut String, prefix: &str, pick: &dyn Fn(&&crate::api::Container) -> bool| {
        if !msg.is_empty() {
            msg.push_str(", ");
        }
        msg.push_str(prefix);
        msg.push('[');
        for (i, c) in all().filter(|c| pick(c)).enumerate() {
            if i > 0 {
                msg.push(' ');
            }
            msg.push_str(&c.name);
        }
        msg.push(']');
    };
    if any_unknown {
        list(&mut msg, "containers with unknown status: ", &|c| !known(c));
    }
    if any_unready {
        list(&mut msg, "containers with unready status: ", &unready);
    }
    condition(pod, T, "False", "ContainersNotReady", msg)
}

/// `GeneratePodReadyCondition`: ContainersReady, then every readiness gate needs a `True`
/// condition among `conditions`.
pub fn generate_pod_ready_condition(
    pod: &Pod,
    conditions: &[PodCondition],
    statuses: Option<&[ContainerStatus]>,
    phase: &str,
) -> PodCondition {
    let cr = generate_containers_ready_condition(pod, statuses, phase);
    pod_ready_condition_from(pod, conditions, cr)
}

/// [`generate_pod_ready_condition`] given the `ContainersReady` condition it starts from (the
/// kubelet computes that one for the status anyway).
pub fn pod_ready_condition_from(
    pod: &Pod,
    conditions: &[PodCondition],
    cr: PodCondition,
) -> PodCondition {
    if cr.status != "True" {
        return PodCondition {
            type_: "Ready".into(),
            ..cr
        };
    }
    let msgs: Vec<String> = pod_readiness_gate_types(pod)
        .iter()
        .filter_map(|t| match conditions.iter().find(|c| &c.type_ == t) {
            None => Some(format!(
                "corresponding condition of pod readiness gate {} does not exist.",
                go_quote(t)
            )),
            Some(c) if c.status != "True" => Some(format!(
                "the status of pod readiness gate {} is not \"True\", but {}",
                go_quote(t),
                c.status
            )),
            Some(_) => None,
        })
        .collect();
    if msgs.is_empty() {
        condition(pod, "Ready", "True", "", String::new())
    } else {
        condition(
            pod,
            "Ready",
            "False",
            "ReadinessGatesNotReady",
            msgs.join(", "),
        )
    }
}

/// `GeneratePodInitializedCondition`: every init container ready (sidecars: started), or the
/// pod completed, or a regular container has started before.
pub fn generate_pod_initialized_condition(
    pod: &Pod,
    statuses: Option<&[ContainerStatus]>,
    phase: &str,
) -> PodCondition {
    const T: &str = "Initialized";
    let statuses = match statuses {
        Some(s) => s,
        None if pod.spec.init_containers.is_empty() => &[],
        None => return condition(pod, T, "False", "UnknownContainerStatuses", String::new()),
    };
    let (mut unknown, mut incomplete) = (vec![], vec![]);
    for c in &pod.spec.init_containers {
        match get_container_status(statuses, &c.name) {
            None => unknown.push(c.name.as_str()),
            Some(cs) => {
                let done = if is_restartable_init_container(c) {
                    cs.started == Some(true)
                } else {
                    cs.ready
                };
                if !done {
                    incomplete.push(c.name.as_str());
                }
            }
        }
    }
    if phase == "Succeeded" && unknown.is_empty() {
        return condition(pod, T, "True", "PodCompleted", String::new());
    }
    if has_any_regular_container_started(&pod.spec, statuses) {
        return condition(pod, T, "True", "", String::new());
    }
    let mut msgs = vec![];
    if !unknown.is_empty() {
        msgs.push(format!(
            "containers with unknown status: {}",
            go_list(&unknown)
        ));
    }
    if !incomplete.is_empty() {
        msgs.push(format!(
            "containers with incomplete status: {}",
            go_list(&incomplete)
        ));
    }
    if msgs.is_empty() {
        condition(pod, T, "True", "", String::new())
    } else {
        condition(pod, T, "False", "ContainersNotInitialized", msgs.join(", "))
    }
}

/// `GeneratePodReadyToStartContainersCondition`: `True` unless the runtime needs a new sandbox
/// (`PodSandboxChanged`; after the pod finished its sandbox is gone).
pub fn generate_pod_ready_to_start_containers_condition(
    pod: &Pod,
    new_sandbox_needed: bool,
) -> PodCondition {
    let status = if new_sandbox_needed { "False" } else { "True" };
    condition(pod, "PodReadyToStartContainers", status, "", String::new())
}

// ---------------------------------------------------------------------------------------------
// Container restart back-off: client-go util/flowcontrol `Backoff` as kubelet.go sets it up
// ---------------------------------------------------------------------------------------------

/// `containerBackOffPeriod`: the first back-off.
pub const BACKOFF_INITIAL: Duration = Duration::from_secs(10);
/// `MaxContainerBackOff` (also the image pull back-off cap). With KubeletCrashLoopBackOffMax
/// (beta, on in 1.35) the cap is `crashLoopBackOff.maxContainerRestartPeriod`, 300 s unless
/// configured; ReduceDefaultCrashLoopBackOffDecay (alpha, off in 1.35) is not modelled.
pub const MAX_CONTAINER_BACKOFF: Duration = Duration::from_mins(5);
/// A `flowcontrol.Backoff` without jitter: initial period, cap, and the age (event time minus
/// the entry's last `Next`) past which an entry starts over (`hasExpired`: 2 × cap, unless a
/// `HasExpiredFunc` is set).
#[derive(Clone, Copy, Debug)]
pub struct BackoffPolicy {
    pub initial: Duration,
    pub max: Duration,
    pub reset_after: Duration,
}

/// The kubelet's container back-off: 10 s doubling to 300 s, and its `HasExpiredFunc`: an
/// entry whose last `Next` is more than 10 minutes before the exit (the container ran that
/// long) starts over. The image puller uses the same periods with the default 2 × cap expiry.
pub const CONTAINER_BACKOFF: BackoffPolicy = BackoffPolicy {
    initial: BACKOFF_INITIAL,
    max: MAX_CONTAINER_BACKOFF,
    reset_after: Duration::from_mins(10),
};

/// A `flowcontrol.Backoff` entry: `(backoff, lastUpdate)`.
pub type BackoffEntry = (Duration, Time);

impl BackoffPolicy {
    fn expired(&self, e: BackoffEntry, event_time: Time) -> bool {
        event_time - e.1 > self.reset_after
    }

    /// `Backoff.Next(id, eventTime)` at `now`: a missing or expired entry starts at the
    /// initial period, otherwise the period doubles up to the cap; `lastUpdate` is `now`.
    pub fn next(&self, entry: Option<BackoffEntry>, event_time: Time, now: Time) -> BackoffEntry {
        match entry {
            Some(e) if !self.expired(e, event_time) => {
                (Duration((e.0 .0 * 2).min(self.max.0)), now)
            }
            _ => (self.initial, now),
        }
    }

    /// `Backoff.IsInBackOffSince(id, eventTime)` at `now`: an unexpired entry and less than
    /// its period since the event.
    pub fn is_in_backoff_since(
        &self,
        entry: Option<BackoffEntry>,
        event_time: Time,
        now: Time,
    ) -> bool {
        entry.is_some_and(|e| !self.expired(e, event_time) && now - event_time < e.0)
    }

    /// `Backoff.IsInBackOffSinceUpdate(id, eventTime)`: an unexpired entry and less than its
    /// period from its last `Next` to the event.
    pub fn is_in_backoff_since_update(
        &self,
        entry: Option<BackoffEntry>,
        event_time: Time,
    ) -> bool {
        entry.is_some_and(|e| !self.expired(e, event_time) && event_time - e.1 < e.0)
    }
}

/// [`CONTAINER_BACKOFF`]'s `Next`.
pub fn backoff_next(entry: Option<BackoffEntry>, event_time: Time, now: Time) -> BackoffEntry {
    CONTAINER_BACKOFF.next(entry, event_time, now)
}

/// [`CONTAINER_BACKOFF`]'s `IsInBackOffSince`.
pub fn is_in_backoff_since(entry: Option<BackoffEntry>, event_time: Time, now: Time) -> bool {
    CONTAINER_BACKOFF.is_in_backoff_since(entry, event_time, now)
}

// ---------------------------------------------------------------------------------------------
// pkg/kubelet/status/status_manager.go
// ---------------------------------------------------------------------------------------------

/// `kubetypes.PodConditionByKubelet`: the conditions the kubelet owns.
pub fn pod_condition_by_kubelet(t: &str) -> bool {
    matches!(
        t,
        "PodScheduled" | "Ready" | "Initialized" | "ContainersReady" | "PodReadyToStartContainers"
    )
}

fn is_terminal_phase(phase: &str) -> bool {
    phase == "Succeeded" || phase == "Failed"
}

/// `podutil.UpdatePodCondition` at `now`: replaces the condition of that type (its transition
/// time is `now` unless the status did not change) or appends it; whether anything changed.
pub fn update_pod_condition(
    conditions: &mut Vec<PodCondition>,
    mut c: PodCondition,
    now: Time,
) -> bool {
    c.last_transition_time = Some(now);
    match conditions.iter_mut().find(|o| o.type_ == c.type_) {
        None => {
            conditions.push(c);
            true
        }
        Some(o) => {
            if c.status == o.status {
                c.last_transition_time = o.last_transition_time;
            }
            let changed = c.status != o.status
                || c.reason != o.reason
                || c.message != o.message
                || c.last_probe_time != o.last_probe_time
                || c.last_transition_time != o.last_transition_time;
            *o = c;
            changed
        }
    }
}

/// `mergePodStatus`: the kubelet's new status keeps the API's conditions it does not own;
/// `DisruptionTarget` (shared) is taken from the new status only when the pod turns terminal
/// with no container left running, stamped `now` unless its status is unchanged; a terminal
/// phase waits until no container can run; a terminal pod is never Ready.
pub fn merge_pod_status(
    old: &crate::api::PodStatus,
    new: &crate::api::PodStatus,
    could_have_running_containers: bool,
    now: Time,
) -> crate::api::PodStatus {
    let mut out = new.clone();
    let mut conds: Vec<PodCondition> = old
        .conditions
        .iter()
        .filter(|c| !pod_condition_by_kubelet(&c.type_))
        .cloned()
        .collect();
    let to_terminal = !is_terminal_phase(&old.phase) && is_terminal_phase(&new.phase);
    for c in &new.conditions {
        if pod_condition_by_kubelet(&c.type_) {
            conds.push(c.clone());
        } else if c.type_ == "DisruptionTarget" && to_terminal && !could_have_running_containers {
            // updateLastTransitionTime, then ReplaceOrAppendPodCondition.
            let mut c = c.clone();
            c.last_transition_time = match old.conditions.iter().find(|o| o.type_ == c.type_) {
                Some(o) if o.status == c.status => o.last_transition_time,
                _ => Some(now),
            };
            match conds.iter_mut().find(|o| o.type_ == c.type_) {
                Some(o) => *o = c,
                None => conds.push(c),
            }
        }
    }
    out.conditions = conds;
    if to_terminal && could_have_running_containers {
        out.phase = old.phase.clone();
        out.reason = old.reason.clone();
        out.message = old.message.clone();
    }
    if is_terminal_phase(&out.phase) {
        let is_true = |t: &str| {
            out.conditions
                .iter()
                .any(|c| c.type_ == t && c.status == "True")
        };
        if is_true("Ready") || is_true("ContainersReady") {
            let reason = if out.phase == "Failed" {
                "PodFailed"
            } else {
                "PodCompleted"
            };
            for t in ["ContainersReady", "Ready"] {
                let c = PodCondition {
                    type_: t.into(),
                    status: "False".into(),
                    reason: reason.into(),
                    ..Default::default()
                };
                update_pod_condition(&mut out.conditions, c, now);
            }
        }
    }
    out
}
