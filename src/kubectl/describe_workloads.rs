//! `kubectl describe` for Jobs, CronJobs, StatefulSets, DaemonSets, PersistentVolumeClaims and
//! Services (`describeJob`, `describeCronJob`, `describeStatefulSet`, `describeDaemonSet`,
//! `describePersistentVolumeClaim`, `describeService` in describe.go).

use super::*;
use crate::api::{CronJob, DaemonSet, IntOrString, Job, JobTemplateSpec, PersistentVolumeClaim};
use crate::api::{ObjectReference, Service, StatefulSet};
use crate::kubectl::printers::core_more::{access_modes_as_string, claim_class};
use crate::kubectl::printers::print_bool_ptr;

/// `printController`: `Kind/name` of the controller, if any.
fn print_controller(m: &crate::api::ObjectMeta) -> Option<String> {
    m.controller_ref().map(|r| format!("{}/{}", r.kind, r.name))
}

/// `LabelSelectorAsSelector(s).String()` (empty for a missing selector, as `labels.Nothing()`).
fn selector_string(s: Option<&crate::api::LabelSelector>) -> String {
    match s {
        None => String::new(),
        Some(s) => match s.to_selector() {
            Ok(_) => s.to_kubectl_string(),
            Err(e) => format!("Failed to get selector: {e}"),
        },
    }
}

fn show_events_for(
    w: &mut Writer,
    sim: &Simulation,
    kind: &str,
    m: &crate::api::ObjectMeta,
    show: bool,
) {
    if show {
        let evs = events::for_object(&sim.api.events, kind, &m.namespace, &m.name, &m.uid);
        describe_events(w, &evs, sim.now());
    }
}

/// `capIndexesListOrNone`.
pub fn cap_indexes_list_or_none(indexes: &str, soft_limit: usize) -> String {
    if indexes.is_empty() {
        return "<none>".into();
    }
    let b = indexes.as_bytes();
    let mut ix = soft_limit;
    while ix < b.len() && b[ix] != b',' {
        ix += 1;
    }
    if ix >= b.len() {
        return indexes.to_string();
    }
    format!("{}...", &indexes[..=ix])
}

pub(super) fn describe_job(sim: &Simulation, j: &Job, show_events: bool) -> String {
    let mut w = Writer::new();
    let m = &j.metadata;
    w.w(0, &format!("Name:\t{}\n", m.name));
    w.w(0, &format!("Namespace:\t{}\n", m.namespace));
    w.w(
        0,
        &format!("Selector:\t{}\n", selector_string(j.spec.selector.as_ref())),
    );
    print_labels_multiline(&mut w, "Labels", &m.labels);
    print_annotations_multiline(&mut w, "Annotations", &m.annotations);
    if let Some(c) = print_controller(m) {
        w.w(0, &format!("Controlled By:\t{c}\n"));
    }
    if let Some(p) = j.spec.parallelism {
        w.w(0, &format!("Parallelism:\t{p}\n"));
    }
    match j.spec.completions {
        Some(c) => w.w(0, &format!("Completions:\t{c}\n")),
        None => w.w(0, "Completions:\t<unset>\n"),
    }
    if let Some(cm) = &j.spec.completion_mode {
        w.w(0, &format!("Completion Mode:\t{cm}\n"));
    }
    if let Some(s) = j.spec.suspend {
        w.w(0, &format!("Suspend:\t{s}\n"));
    }
    if let Some(b) = j.spec.backoff_limit {
        w.w(0, &format!("Backoff Limit:\t{b}\n"));
    }
    if let Some(t) = j.spec.ttl_seconds_after_finished {
        w.w(0, &format!("TTL Seconds After Finished:\t{t}\n"));
    }
    if let Some(t) = j.status.start_time {
        w.w(0, &format!("Start Time:\t{}\n", rfc1123z(t)));
    }
    if let Some(t) = j.status.completion_time {
        w.w(0, &format!("Completed At:\t{}\n", rfc1123z(t)));
    }
    if let (Some(s), Some(c)) = (j.status.start_time, j.status.completion_time) {
        w.w(0, &format!("Duration:\t{}\n", human_duration(c - s)));
    }
    if let Some(a) = j.spec.active_deadline_seconds {
        w.w(0, &format!("Active Deadline Seconds:\t{a}s\n"));
    }
    let st = &j.status;
    match st.ready {
        None => w.w(
            0,
            &format!(
                "Pods Statuses:\t{} Active / {} Succeeded / {} Failed\n",
                st.active, st.succeeded, st.failed
            ),
        ),
        Some(r) => w.w(
            0,
            &format!(
                "Pods Statuses:\t{} Active ({r} Ready) / {} Succeeded / {} Failed\n",
                st.active, st.succeeded, st.failed
            ),
        ),
    }
    if j.is_indexed() {
        w.w(
            0,
            &format!(
                "Completed Indexes:\t{}\n",
                cap_indexes_list_or_none(&st.completed_indexes, 50)
            ),
        );
    }
    describe_pod_template(&mut w, Some(&j.spec.template));
    show_events_for(&mut w, sim, "Job", m, show_events);
    w.finish()
}

/// `describeJobTemplate`.
fn describe_job_template(w: &mut Writer, t: &JobTemplateSpec) {
    match &t.spec.selector {
        Some(s) => w.w(0, &format!("Selector:\t{}\n", selector_string(Some(s)))),
        None => w.w(0, "Selector:\t<unset>\n"),
    }
    match t.spec.parallelism {
        Some(p) => w.w(0, &format!("Parallelism:\t{p}\n")),
        None => w.w(0, "Parallelism:\t<unset>\n"),
    }
    match t.spec.completions {
        Some(c) => w.w(0, &format!("Completions:\t{c}\n")),
        None => w.w(0, "Completions:\t<unset>\n"),
    }
    if let Some(a) = t.spec.active_deadline_seconds {
        w.w(0, &format!("Active Deadline Seconds:\t{a}s\n"));
    }
    describe_pod_template(w, Some(&t.spec.template));
}

/// `printActiveJobs`.
fn print_active_jobs(w: &mut Writer, title: &str, jobs: &[ObjectReference]) {
    w.w(0, &format!("{title}:\t"));
    if jobs.is_empty() {
        w.w(0, "<none>\n");
        return;
    }
    let names: Vec<&str> = jobs.iter().map(|j| j.name.as_str()).collect();
    w.w(0, &format!("{}\n", names.join(", ")));
}

pub(super) fn describe_cron_job(sim: &Simulation, cj: &CronJob, show_events: bool) -> String {
    let mut w = Writer::new();
    let m = &cj.metadata;
    let s = &cj.spec;
    w.w(0, &format!("Name:\t{}\n", m.name));
    w.w(0, &format!("Namespace:\t{}\n", m.namespace));
    print_labels_multiline(&mut w, "Labels", &m.labels);
    print_annotations_multiline(&mut w, "Annotations", &m.annotations);
    w.w(0, &format!("Schedule:\t{}\n", s.schedule));
    w.w(
        0,
        &format!("Concurrency Policy:\t{}\n", s.concurrency_policy),
    );
    w.w(0, &format!("Suspend:\t{}\n", print_bool_ptr(s.suspend)));
    let opt = |v: Option<i32>| v.map_or("<unset>".to_string(), |v| v.to_string());
    w.w(
        0,
        &format!(
            "Successful Job History Limit:\t{}\n",
            opt(s.successful_jobs_history_limit)
        ),
    );
    w.w(
        0,
        &format!(
            "Failed Job History Limit:\t{}\n",
            opt(s.failed_jobs_history_limit)
        ),
    );
    match s.starting_deadline_seconds {
        Some(d) => w.w(0, &format!("Starting Deadline Seconds:\t{d}s\n")),
        None => w.w(0, "Starting Deadline Seconds:\t<unset>\n"),
    }
    describe_job_template(&mut w, &s.job_template);
    match cj.status.last_schedule_time {
        Some(t) => w.w(0, &format!("Last Schedule Time:\t{}\n", rfc1123z(t))),
        None => w.w(0, "Last Schedule Time:\t<unset>\n"),
    }
    print_active_jobs(&mut w, "Active Jobs", &cj.status.active);
    show_events_for(&mut w, sim, "CronJob", m, show_events);
    w.finish()
}

/// The pod counts of `getPodStatusForController`, or the selector error.
fn pods_status_line(
    sim: &Simulation,
    m: &crate::api::ObjectMeta,
    s: Option<&crate::api::LabelSelector>,
) -> String {
    match s.cloned().unwrap_or_default().to_selector() {
        Ok(sel) => {
            let (r, wa, su, f) = pod_status_counts(sim, &m.namespace, &sel, &m.uid);
            format!("Pods Status:\t{r} Running / {wa} Waiting / {su} Succeeded / {f} Failed\n")
        }
        Err(e) => format!("Pods Status:\terror in fetching pods: {e}\n"),
    }
}

/// `describeVolumeClaimTemplates`.
fn describe_volume_claim_templates(w: &mut Writer, templates: &[PersistentVolumeClaim]) {
    if templates.is_empty() {
        w.w(0, "Volume Claims:\t<none>\n");
        return;
    }
    w.w(0, "Volume Claims:\n");
    for pvc in templates {
        w.w(1, &format!("Name:\t{}\n", pvc.metadata.name));
        w.w(1, &format!("StorageClass:\t{}\n", claim_class(pvc)));
        print_labels_multiline(w, "  Labels", &pvc.metadata.labels);
        print_labels_multiline(w, "  Annotations", &pvc.metadata.annotations);
        match pvc.spec.resources.requests.get("storage") {
            Some(q) => w.w(1, &format!("Capacity:\t{}\n", quantity_string(q))),
            None => w.w(1, "Capacity:\t<default>\n"),
        }
        // `%s` of a []PersistentVolumeAccessMode: `[ReadWriteOnce ReadOnlyMany]`.
        w.w(
            1,
            &format!("Access Modes:\t[{}]\n", pvc.spec.access_modes.join(" ")),
        );
    }
}

pub(super) fn describe_stateful_set(
    sim: &Simulation,
    s: &StatefulSet,
    show_events: bool,
) -> String {
    let mut w = Writer::new();
    let m = &s.metadata;
    w.w(0, &format!("Name:\t{}\n", m.name));
    w.w(0, &format!("Namespace:\t{}\n", m.namespace));
    w.w(
        0,
        &format!(
            "CreationTimestamp:\t{}\n",
            time_or_zero(m.creation_timestamp)
        ),
    );
    w.w(
        0,
        &format!("Selector:\t{}\n", selector_string(s.spec.selector.as_ref())),
    );
    print_labels_multiline(&mut w, "Labels", &m.labels);
    print_annotations_multiline(&mut w, "Annotations", &m.annotations);
    w.w(
        0,
        &format!(
            "Replicas:\t{} desired | {} total\n",
            s.replicas(),
            s.status.replicas
        ),
    );
    w.w(
        0,
        &format!("Update Strategy:\t{}\n", s.spec.update_strategy.type_),
    );
    if let Some(ru) = &s.spec.update_strategy.rolling_update {
        if let Some(p) = ru.partition {
            w.w(1, &format!("Partition:\t{p}\n"));
            if let Some(mu) = &ru.max_unavailable {
                w.w(1, &format!("MaxUnavailable:\t{mu}\n"));
            }
        }
    }
    w.w(0, &pods_status_line(sim, m, s.spec.selector.as_ref()));
    describe_pod_template(&mut w, Some(&s.spec.template));
    describe_volume_claim_templates(&mut w, &s.spec.volume_claim_templates);
    show_events_for(&mut w, sim, "StatefulSet", m, show_events);
    w.finish()
}

pub(super) fn describe_daemon_set(sim: &Simulation, d: &DaemonSet, show_events: bool) -> String {
    let mut w = Writer::new();
    let m = &d.metadata;
    let st = &d.status;
    w.w(0, &format!("Name:\t{}\n", m.name));
    w.w(0, &format!("Namespace:\t{}\n", m.namespace));
    w.w(
        0,
        &format!("Selector:\t{}\n", selector_string(d.spec.selector.as_ref())),
    );
    w.w(
        0,
        &format!(
            "Node-Selector:\t{}\n",
            labels_string(&d.spec.template.spec.node_selector)
        ),
    );
    print_labels_multiline(&mut w, "Labels", &m.labels);
    print_annotations_multiline(&mut w, "Annotations", &m.annotations);
    w.w(
        0,
        &format!(
            "Desired Number of Nodes Scheduled: {}\n",
            st.desired_number_scheduled
        ),
    );
    w.w(
        0,
        &format!(
            "Current Number of Nodes Scheduled: {}\n",
            st.current_number_scheduled
        ),
    );
    w.w(
        0,
        &format!(
            "Number of Nodes Scheduled with Up-to-date Pods: {}\n",
            st.updated_number_scheduled
        ),
    );
    w.w(
        0,
        &format!(
            "Number of Nodes Scheduled with Available Pods: {}\n",
            st.number_available
        ),
    );
    w.w(
        0,
        &format!("Number of Nodes Misscheduled: {}\n", st.number_misscheduled),
    );
    w.w(0, &pods_status_line(sim, m, d.spec.selector.as_ref()));
    describe_pod_template(&mut w, Some(&d.spec.template));
    show_events_for(&mut w, sim, "DaemonSet", m, show_events);
    w.finish()
}

/// `getPodsForPVC`: pods mounting the claim, then pods owning it, by name.
fn pods_for_pvc(sim: &Simulation, pvc: &PersistentVolumeClaim) -> Vec<String> {
    let pods: Vec<&Pod> = sim
        .api
        .store
        .list::<Pod>(Some(&pvc.metadata.namespace))
        .collect();
    let mut out: Vec<String> = vec![];
    for p in &pods {
        let vols = p.spec.extra.get("volumes").and_then(Value::as_array);
        for v in vols.into_iter().flatten() {
            let claim = v
                .get("persistentVolumeClaim")
                .and_then(|c| c.get("claimName"))
                .and_then(Value::as_str);
            if claim == Some(pvc.metadata.name.as_str()) {
                out.push(p.metadata.name.clone());
            }
        }
    }
    for r in pvc
        .metadata
        .owner_references
        .iter()
        .filter(|r| r.kind == "Pod")
    {
        if let Some(p) = pods.iter().find(|p| p.metadata.uid == r.uid) {
            if !out.contains(&p.metadata.name) {
                out.push(p.metadata.name.clone());
            }
        }
    }
    crate::sort::sort(&mut out);
    out
}

pub(super) fn describe_pvc(
    sim: &Simulation,
    pvc: &PersistentVolumeClaim,
    show_events: bool,
) -> String {
    let mut w = Writer::new();
    let m = &pvc.metadata;
    w.w(0, &format!("Name:\t{}\n", m.name));
    w.w(0, &format!("Namespace:\t{}\n", m.namespace));
    w.w(0, &format!("StorageClass:\t{}\n", claim_class(pvc)));
    match m.deletion_timestamp {
        Some(t) => w.w(
            0,
            &format!(
                "Status:\tTerminating (lasts {})\n",
                translate_timestamp_since(Some(t), sim.now())
            ),
        ),
        None => w.w(0, &format!("Status:\t{}\n", pvc.status.phase)),
    }
    w.w(0, &format!("Volume:\t{}\n", pvc.spec.volume_name));
    print_labels_multiline(&mut w, "Labels", &m.labels);
    print_annotations_multiline(&mut w, "Annotations", &m.annotations);
    w.w(0, &format!("Finalizers:\t[{}]\n", m.finalizers.join(" ")));
    let (capacity, access) = if pvc.spec.volume_name.is_empty() {
        (String::new(), String::new())
    } else {
        (
            pvc.status
                .capacity
                .get("storage")
                .map(quantity_string)
                .unwrap_or_else(|| "0".into()),
            access_modes_as_string(&pvc.status.access_modes),
        )
    };
    w.w(0, &format!("Capacity:\t{capacity}\n"));
    w.w(0, &format!("Access Modes:\t{access}\n"));
    if let Some(vm) = &pvc.spec.volume_mode {
        w.w(0, &format!("VolumeMode:\t{vm}\n"));
    }
    if let Some(ds) = pvc.spec.extra.get("dataSource") {
        w.w(0, "DataSource:\n");
        let api_group = ds.get("apiGroup").and_then(Value::as_str);
        if let Some(g) = api_group {
            w.w(1, &format!("APIGroup:\t{g}\n"));
        }
        w.w(1, &format!("Kind:\t{}\n", extra_v(ds, "kind")));
        w.w(1, &format!("Name:\t{}\n", extra_v(ds, "name")));
    }
    let used_by = pods_for_pvc(sim, pvc);
    w.w(0, "Used By:\t");
    if used_by.is_empty() {
        w.w(0, "<none>\n");
    } else {
        for (i, n) in used_by.iter().enumerate() {
            if i != 0 {
                w.w(0, "\t");
            }
            w.w(0, &format!("{n}\n"));
        }
    }
    if let Some(Value::Array(conds)) = pvc.status.extra.get("conditions") {
        if !conds.is_empty() {
            w.w(0, "Conditions:\n");
            w.w(
                1,
                "Type\tStatus\tLastProbeTime\tLastTransitionTime\tReason\tMessage\n",
            );
            w.w(
                1,
                "----\t------\t-----------------\t------------------\t------\t-------\n",
            );
            for c in conds {
                let t = |k: &str| {
                    c.get(k)
                        .and_then(Value::as_str)
                        .and_then(|s| Time::parse_rfc3339(s).ok())
                };
                w.w(
                    1,
                    &format!(
                        "{} \t{} \t{} \t{} \t{} \t{}\n",
                        extra_v(c, "type"),
                        extra_v(c, "status"),
                        time_or_zero(t("lastProbeTime")),
                        time_or_zero(t("lastTransitionTime")),
                        extra_v(c, "reason"),
                        extra_v(c, "message")
                    ),
                );
            }
        }
    }
    show_events_for(&mut w, sim, "PersistentVolumeClaim", m, show_events);
    w.finish()
}

/// `describeService`. kubeplay runs no EndpointSlice controller, so `Endpoints:` prints
/// `<none>` as kubectl does when a Service has no slices.
pub(super) fn describe_service(sim: &Simulation, svc: &Service, show_events: bool) -> String {
    let mut w = Writer::new();
    let m = &svc.metadata;
    let s = &svc.spec;
    let extra = |k: &str| extra_str(&s.extra, k).to_string();
    let strings = |k: &str| -> Vec<String> {
        s.extra
            .get(k)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    w.w(0, &format!("Name:\t{}\n", m.name));
    w.w(0, &format!("Namespace:\t{}\n", m.namespace));
    print_labels_multiline(&mut w, "Labels", &m.labels);
    print_annotations_multiline(&mut w, "Annotations", &m.annotations);
    w.w(0, &format!("Selector:\t{}\n", labels_string(&s.selector)));
    w.w(0, &format!("Type:\t{}\n", s.type_));
    if let Some(p) = &s.ip_family_policy {
        w.w(0, &format!("IP Family Policy:\t{p}\n"));
    }
    if s.ip_families.is_empty() {
        w.w(0, "IP Families:\t<none>\n");
    } else {
        w.w(0, &format!("IP Families:\t{}\n", s.ip_families.join(",")));
    }
    w.w(0, &format!("IP:\t{}\n", s.cluster_ip));
    if s.cluster_ips.is_empty() {
        w.w(0, "IPs:\t<none>\n");
    } else {
        w.w(0, &format!("IPs:\t{}\n", s.cluster_ips.join(",")));
    }
    let external_ips = strings("externalIPs");
    if !external_ips.is_empty() {
        w.w(0, &format!("External IPs:\t{}\n", external_ips.join(",")));
    }
    if !extra("loadBalancerIP").is_empty() {
        w.w(
            0,
            &format!("Desired LoadBalancer IP:\t{}\n", extra("loadBalancerIP")),
        );
    }
    if !extra("externalName").is_empty() {
        w.w(0, &format!("External Name:\t{}\n", extra("externalName")));
    }
    if let Some(Value::Array(ing)) = svc.status.load_balancer.get("ingress") {
        if !ing.is_empty() {
            // `buildIngressString`: IP with its ` (ipMode)` when set, else hostname,
            // comma-separated in order.
            let list: Vec<String> = ing
                .iter()
                .map(|i| {
                    let ip = extra_v(i, "ip");
                    if ip.is_empty() {
                        extra_v(i, "hostname")
                    } else if let Some(mode) = i.get("ipMode").and_then(Value::as_str) {
                        format!("{ip} ({mode})")
                    } else {
                        ip
                    }
                })
                .collect();
            w.w(0, &format!("LoadBalancer Ingress:\t{}\n", list.join(", ")));
        }
    }
    for sp in &s.ports {
        let name = if sp.name.is_empty() {
            "<unset>"
        } else {
            sp.name.as_str()
        };
        w.w(0, &format!("Port:\t{name}\t{}/{}\n", sp.port, sp.protocol));
        match &sp.target_port {
            Some(IntOrString::String(t)) => {
                w.w(0, &format!("TargetPort:\t{t}/{}\n", sp.protocol));
            }
            Some(IntOrString::Int(t)) => {
                w.w(0, &format!("TargetPort:\t{t}/{}\n", sp.protocol));
            }
            // The API server defaults targetPort to port.
            None => w.w(0, &format!("TargetPort:\t{}/{}\n", sp.port, sp.protocol)),
        }
        if sp.node_port != 0 {
            w.w(
                0,
                &format!("NodePort:\t{name}\t{}/{}\n", sp.node_port, sp.protocol),
            );
        }
        w.w(0, "Endpoints:\t<none>\n");
    }
    w.w(0, &format!("Session Affinity:\t{}\n", s.session_affinity));
    if !extra("externalTrafficPolicy").is_empty() {
        w.w(
            0,
            &format!(
                "External Traffic Policy:\t{}\n",
                extra("externalTrafficPolicy")
            ),
        );
    }
    if let Some(p) = &s.internal_traffic_policy {
        w.w(0, &format!("Internal Traffic Policy:\t{p}\n"));
    }
    if let Some(n) = s.extra.get("healthCheckNodePort").and_then(Value::as_i64) {
        if n != 0 {
            w.w(0, &format!("HealthCheck NodePort:\t{n}\n"));
        }
    }
    let ranges = strings("loadBalancerSourceRanges");
    if !ranges.is_empty() {
        w.w(
            0,
            &format!("LoadBalancer Source Ranges:\t{}\n", ranges.join(",")),
        );
    }
    if !extra("trafficDistribution").is_empty() {
        w.w(
            0,
            &format!("Traffic Distribution:\t{}\n", extra("trafficDistribution")),
        );
    }
    show_events_for(&mut w, sim, "Service", m, show_events);
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `capIndexesListOrNone`: cut after the first comma at or beyond the soft limit.
    #[test]
    fn cap_indexes() {
        assert_eq!(cap_indexes_list_or_none("", 50), "<none>");
        assert_eq!(cap_indexes_list_or_none("0-5", 50), "0-5");
        assert_eq!(cap_indexes_list_or_none("0,2,4,6,8", 4), "0,2,4,...");
        assert_eq!(cap_indexes_list_or_none("0,2,4,6,8", 100), "0,2,4,6,8");
    }
}
