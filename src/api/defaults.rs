//! API-server defaulting (`pkg/apis/*/v1/defaults.go`) and create/update strategies.

use super::core::{PodSpec, PodStatus};
use super::object::Object;

/// `PrepareForCreate` of each kind's REST strategy: a client cannot set status on create.
pub fn prepare_for_create(o: &mut Object) {
    match o {
        Object::Pod(p) => {
            p.status = PodStatus {
                phase: "Pending".into(),
                ..Default::default()
            };
            p.status.qos_class = qos_class(&p.spec).into();
        }
        Object::ReplicaSet(rs) => rs.status = Default::default(),
        Object::ReplicationController(rc) => rc.status = Default::default(),
        Object::Node(_) => {}
        Object::Deployment(d) => super::deployment_defaults::prepare_for_create(d),
    }
}

/// Copies `status` of `from` into `to` (same kind); used by update strategies.
pub fn copy_status(from: &Object, to: &mut Object) {
    match (from, to) {
        (Object::Pod(a), Object::Pod(b)) => b.status = a.status.clone(),
        (Object::Node(a), Object::Node(b)) => b.status = a.status.clone(),
        (Object::ReplicaSet(a), Object::ReplicaSet(b)) => b.status = a.status.clone(),
        (Object::ReplicationController(a), Object::ReplicationController(b)) => {
            b.status = a.status.clone()
        }
        (Object::Deployment(a), Object::Deployment(b)) => b.status = a.status.clone(),
        _ => {}
    }
}

/// `SetDefaults_PodSpec` and friends (the fields kubeplay reads or prints).
pub fn default_pod_spec(s: &mut PodSpec) {
    if s.restart_policy.is_empty() {
        s.restart_policy = "Always".into();
    }
    if s.termination_grace_period_seconds.is_none() {
        s.termination_grace_period_seconds = Some(30);
    }
    if s.scheduler_name.is_empty() {
        s.scheduler_name = "default-scheduler".into();
    }
    if !s.extra.contains_key("dnsPolicy") {
        s.extra.insert("dnsPolicy".into(), "ClusterFirst".into());
    }
    for c in s.containers.iter_mut().chain(s.init_containers.iter_mut()) {
        if !c.extra.contains_key("imagePullPolicy") && !c.image.is_empty() {
            let latest = !c.image.contains(':') || c.image.ends_with(":latest");
            let policy = if latest && !c.image.contains('@') {
                "Always"
            } else {
                "IfNotPresent"
            };
            c.extra.insert("imagePullPolicy".into(), policy.into());
        }
        if !c.extra.contains_key("terminationMessagePath") {
            c.extra.insert(
                "terminationMessagePath".into(),
                "/dev/termination-log".into(),
            );
        }
        if !c.extra.contains_key("terminationMessagePolicy") {
            c.extra
                .insert("terminationMessagePolicy".into(), "File".into());
        }
        for p in c.ports.iter_mut() {
            if p.protocol.is_none() {
                p.protocol = Some("TCP".into());
            }
        }
    }
}

/// `GetPodQOS`: BestEffort without requests/limits, Guaranteed when every container's requests
/// equal its limits for cpu and memory, else Burstable.
pub fn qos_class(s: &PodSpec) -> &'static str {
    let mut any = false;
    let mut guaranteed = true;
    for c in s.containers.iter().chain(s.init_containers.iter()) {
        let Some(r) = &c.resources else {
            guaranteed = false;
            continue;
        };
        if !r.requests.is_empty() || !r.limits.is_empty() {
            any = true;
        }
        for res in ["cpu", "memory"] {
            let lim = r.limits.get(res).and_then(|q| q.milli_value().ok());
            let req = r
                .requests
                .get(res)
                .and_then(|q| q.milli_value().ok())
                .or(lim);
            if lim.is_none() || req != lim {
                guaranteed = false;
            }
        }
    }
    if !any {
        "BestEffort"
    } else if guaranteed {
        "Guaranteed"
    } else {
        "Burstable"
    }
}

/// Applies the API defaults of the object's kind.
pub fn default_object(o: &mut Object) {
    match o {
        Object::Pod(p) => {
            default_pod_spec(&mut p.spec);
            if p.status.qos_class.is_empty() {
                p.status.qos_class = qos_class(&p.spec).into();
            }
        }
        Object::Node(_) => {}
        Object::ReplicaSet(rs) => {
            if rs.spec.replicas.is_none() {
                rs.spec.replicas = Some(1);
            }
            default_pod_spec(&mut rs.spec.template.spec);
        }
        Object::ReplicationController(rc) => {
            // SetDefaults_ReplicationController: selector and labels from the template labels.
            if let Some(t) = &rc.spec.template {
                if rc.spec.selector.is_empty() {
                    rc.spec.selector = t.metadata.labels.clone();
                }
                if rc.metadata.labels.is_empty() {
                    rc.metadata.labels = t.metadata.labels.clone();
                }
            }
            if rc.spec.replicas.is_none() {
                rc.spec.replicas = Some(1);
            }
            if let Some(t) = &mut rc.spec.template {
                default_pod_spec(&mut t.spec);
            }
        }
        Object::Deployment(d) => super::deployment_defaults::set_defaults_deployment(d),
    }
}
