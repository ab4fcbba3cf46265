//! `kubectl cordon`, `uncordon` and `drain` (`pkg/cmd/drain/drain.go`, `pkg/drain/*.go`):
//! the cordon helper, the pod filters (DaemonSet, mirror, local storage, unreplicated) with
//! their warning and error texts, and eviction.

use super::args::{self, Flag};
use super::resource::{self, Item, Kind};
use super::{usage_error, DryRun, Out, DRY_RUN_FLAG};
use crate::api::{Duration, Node, Object, Pod, Selector};
use crate::sim::Simulation;
use crate::store::apiserver::DeleteOptions;
use crate::store::ObjectRef;
use serde_json::Value;

const CORDON_FLAGS: &[Flag] = &[Flag::str("selector").short('l'), DRY_RUN_FLAG];

const DRAIN_FLAGS: &[Flag] = &[
    Flag::str("selector").short('l'),
    Flag::str("pod-selector"),
    Flag::bool("force"),
    Flag::bool("ignore-daemonsets"),
    Flag::bool("delete-emptydir-data"),
    Flag::bool("disable-eviction"),
    Flag::int("grace-period"),
    Flag::str("timeout"),
    Flag::int("skip-wait-for-delete-timeout"),
    Flag::int("chunk-size"),
    DRY_RUN_FLAG,
];

/// kubeplay's bound on a drain without `--timeout` (upstream waits forever): it gives up after
/// this much virtual time, as with `--timeout=1h`.
const NO_TIMEOUT_CAP_SECS: i64 = 3600;

const DAEMONSET_FATAL: &str = "DaemonSet-managed Pods (use --ignore-daemonsets to ignore)";
const DAEMONSET_WARNING: &str = "ignoring DaemonSet-managed Pods";
const LOCAL_STORAGE_FATAL: &str =
    "Pods with local storage (use --delete-emptydir-data to override)";
const LOCAL_STORAGE_WARNING: &str = "deleting Pods with local storage";
const UNMANAGED_FATAL: &str =
    "cannot delete Pods that declare no controller (use --force to override)";
const UNMANAGED_WARNING: &str = "deleting Pods that declare no controller";
const MIRROR_POD_ANNOTATION: &str = "kubernetes.io/config.mirror";

/// The nodes named on the command line or selected by `-l`.
fn select_nodes(
    sim: &Simulation,
    cmd: &str,
    use_: &str,
    p: &args::Parsed,
) -> Result<Vec<Node>, String> {
    let selector = p.string("selector");
    if p.args.is_empty() && !p.changed("selector") {
        return Err(usage_error(
            &format!("kubectl {cmd}"),
            &format!("USAGE: {use_} [flags]"),
        ));
    }
    if !p.args.is_empty() && !selector.is_empty() {
        return Err(format!(
            "error: cannot specify both a node name and a --selector option\nSee 'kubectl {cmd} -h' for help and examples"
        ));
    }
    let mut nodes = vec![];
    if !p.args.is_empty() {
        for a in &p.args {
            let name = a
                .strip_prefix("nodes/")
                .or_else(|| a.strip_prefix("node/"))
                .or_else(|| a.strip_prefix("no/"))
                .unwrap_or(a);
            match sim.api.store.get::<Node>("", name) {
                Some(n) => nodes.push(n.clone()),
                None => return Err(Kind::Obj("Node").not_found(name).kubectl_message()),
            }
        }
    } else {
        for it in resource::list(sim, Kind::Obj("Node"), None, &selector, "")? {
            if let Item::Obj(Object::Node(n)) = it {
                nodes.push(n);
            }
        }
    }
    Ok(nodes)
}

/// `RunCordonOrUncordon`: sets `spec.unschedulable` and prints `node/x cordoned`,
/// `already cordoned`, `uncordoned` or `already uncordoned`.
fn cordon_nodes(sim: &mut Simulation, nodes: &[Node], desired: bool, dry: DryRun, out: &mut Out) {
    let verb = if desired { "cordon" } else { "uncordon" };
    for n in nodes {
        let name = &n.metadata.name;
        if n.spec.unschedulable == desired {
            out.print(&format!("node/{name} already {verb}ed{}", dry.suffix()));
            continue;
        }
        if dry != DryRun::Client {
            let mut updated = n.clone();
            updated.spec.unschedulable = desired;
            let res = if dry == DryRun::Server {
                sim.api.clone().update(Object::Node(updated))
            } else {
                sim.api.update(Object::Node(updated))
            };
            if let Err(e) = res {
                out.fail(&format!("error: unable to {verb} node {name:?}: {e}"));
                continue;
            }
        }
        out.print(&format!("node/{name} {verb}ed{}", dry.suffix()));
    }
}

pub(crate) fn run_cordon(
    sim: &mut Simulation,
    words: &[String],
    desired: bool,
    out: &mut Out,
) -> Result<(), String> {
    let cmd = if desired { "cordon" } else { "uncordon" };
    let p = args::parse(&format!("kubectl {cmd}"), words, CORDON_FLAGS)?;
    let dry = DryRun::from(&p)?;
    let nodes = select_nodes(sim, cmd, &format!("{cmd} NODE"), &p)?;
    cordon_nodes(sim, &nodes, desired, dry, out);
    Ok(())
}

/// A filter's verdict on one pod (`PodDeleteStatus`).
#[derive(Clone, Debug, PartialEq)]
enum Verdict {
    Okay,
    Skip,
    Warning { delete: bool, message: String },
    Error(String),
}

impl Verdict {
    fn delete(&self) -> bool {
        matches!(self, Verdict::Okay | Verdict::Warning { delete: true, .. })
    }
}

/// The drain options the filters read.
struct Filters {
    force: bool,
    ignore_daemonsets: bool,
    delete_emptydir_data: bool,
    skip_wait_timeout: i64,
}

fn terminal(p: &Pod) -> bool {
    p.status.phase == "Succeeded" || p.status.phase == "Failed"
}

fn has_local_storage(p: &Pod) -> bool {
    p.spec
        .extra
        .get("volumes")
        .and_then(Value::as_array)
        .is_some_and(|vs| vs.iter().any(|v| v.get("emptyDir").is_some()))
}

impl Filters {
    /// `makeFilters`: skipDeleted, daemonSet, mirrorPod, localStorage, unreplicated; the
    /// first filter that does not delete decides, otherwise the last verdict stands.
    fn verdict(&self, sim: &Simulation, p: &Pod) -> Verdict {
        let filters: [&dyn Fn() -> Verdict; 5] = [
            &|| self.skip_deleted(sim, p),
            &|| self.daemon_set(sim, p),
            &|| self.mirror_pod(p),
            &|| self.local_storage(p),
            &|| self.unreplicated(p),
        ];
        let mut v = Verdict::Okay;
        for f in filters {
            v = f();
            if !v.delete() {
                break;
            }
        }
        v
    }

    fn skip_deleted(&self, sim: &Simulation, p: &Pod) -> Verdict {
        match p.metadata.deletion_timestamp {
            Some(t)
                if self.skip_wait_timeout > 0
                    && (sim.now() - t).as_millis() / 1000 > self.skip_wait_timeout =>
            {
                Verdict::Skip
            }
            _ => Verdict::Okay,
        }
    }

    fn daemon_set(&self, sim: &Simulation, p: &Pod) -> Verdict {
        let Some(r) = p.metadata.controller_ref() else {
            return Verdict::Okay;
        };
        if r.kind != "DaemonSet" || r.api_version != "apps/v1" || terminal(p) {
            return Verdict::Okay;
        }
        let exists = crate::api::resolve_kind("DaemonSet")
            .filter(|k| *k == "DaemonSet")
            .is_some_and(|k| {
                sim.api
                    .store
                    .get_ref(&ObjectRef::new(k, &p.metadata.namespace, &r.name))
                    .is_some()
            });
        if !exists {
            let msg = format!("daemonsets.apps {:?} not found", r.name);
            return if self.force {
                Verdict::Warning {
                    delete: true,
                    message: msg,
                }
            } else {
                Verdict::Error(msg)
            };
        }
        if !self.ignore_daemonsets {
            return Verdict::Error(DAEMONSET_FATAL.into());
        }
        Verdict::Warning {
            delete: false,
            message: DAEMONSET_WARNING.into(),
        }
    }

    fn mirror_pod(&self, p: &Pod) -> Verdict {
        if p.metadata.annotations.contains_key(MIRROR_POD_ANNOTATION) {
            Verdict::Skip
        } else {
            Verdict::Okay
        }
    }

    fn local_storage(&self, p: &Pod) -> Verdict {
        if !has_local_storage(p) || terminal(p) {
            return Verdict::Okay;
        }
        if !self.delete_emptydir_data {
            return Verdict::Error(LOCAL_STORAGE_FATAL.into());
        }
        Verdict::Warning {
            delete: true,
            message: LOCAL_STORAGE_WARNING.into(),
        }
    }

    fn unreplicated(&self, p: &Pod) -> Verdict {
        if terminal(p) || p.metadata.controller_ref().is_some() {
            return Verdict::Okay;
        }
        if self.force {
            Verdict::Warning {
                delete: true,
                message: UNMANAGED_WARNING.into(),
            }
        } else {
            Verdict::Error(UNMANAGED_FATAL.into())
        }
    }
}

/// Groups `namespace/name`s by message in order of first appearance.
fn grouped(list: &[(String, String)]) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = vec![];
    for (msg, pod) in list {
        match out.iter_mut().find(|(m, _)| m == msg) {
            Some((_, pods)) => pods.push(pod.clone()),
            None => out.push((msg.clone(), vec![pod.clone()])),
        }
    }
    out
}

/// `utilerrors.Aggregate.Error()`: one message, or `[a, b]`.
fn aggregate(errs: &[String]) -> String {
    if errs.len() == 1 {
        errs[0].clone()
    } else {
        format!("[{}]", errs.join(", "))
    }
}

pub(crate) fn run_drain(
    sim: &mut Simulation,
    words: &[String],
    out: &mut Out,
) -> Result<(), String> {
    let p = args::parse("kubectl drain", words, DRAIN_FLAGS)?;
    let dry = DryRun::from(&p)?;
    let nodes = select_nodes(sim, "drain", "drain NODE", &p)?;
    let pod_selector = match Selector::parse(&p.string("pod-selector")) {
        Ok(s) => s,
        Err(_) => {
            return Err(
                "error: --pod-selector=<pod_selector> must be a valid label selector".into(),
            )
        }
    };
    let filters = Filters {
        force: p.bool("force"),
        ignore_daemonsets: p.bool("ignore-daemonsets"),
        delete_emptydir_data: p.bool("delete-emptydir-data"),
        skip_wait_timeout: p.int("skip-wait-for-delete-timeout", 0),
    };
    let grace = p.int("grace-period", -1);
    let disable_eviction = p.bool("disable-eviction");
    // `--timeout` (pflag DurationVar; 0, the default, waits forever).
    let timeout_nanos = match p.str("timeout") {
        Some(t) => match crate::cron::parser::parse_go_duration(t) {
            Ok(n) => n,
            Err(e) => {
                return Err(format!(
                    "error: invalid argument {} for \"--timeout\" flag: {e}\nSee 'kubectl drain --help' for usage.",
                    crate::api::errors::go_quote(t)
                ))
            }
        },
        None => 0,
    };
    let timeout_secs = i64::try_from(timeout_nanos / 1_000_000_000).unwrap_or(i64::MAX);

    cordon_nodes(sim, &nodes, true, dry, out);
    let mut fatal: Vec<String> = vec![];
    let mut remaining: Vec<String> = vec![];
    for n in &nodes {
        let name = &n.metadata.name;
        let pods: Vec<Pod> = sim
            .api
            .store
            .pods_on_node(name)
            .filter(|pod| pod_selector.matches(&pod.metadata.labels))
            .cloned()
            .collect();
        let verdicts: Vec<(Pod, Verdict)> = pods
            .into_iter()
            .map(|pod| {
                let v = filters.verdict(sim, &pod);
                (pod, v)
            })
            .collect();
        let key = |pod: &Pod| format!("{}/{}", pod.metadata.namespace, pod.metadata.name);
        let errors: Vec<(String, String)> = verdicts
            .iter()
            .filter_map(|(pod, v)| match v {
                Verdict::Error(m) => Some((
                    if m.is_empty() {
                        "unexpected error".to_string()
                    } else {
                        m.clone()
                    },
                    key(pod),
                )),
                _ => None,
            })
            .collect();
        if !errors.is_empty() {
            let errs: Vec<String> = grouped(&errors)
                .into_iter()
                .map(|(m, pods)| format!("cannot delete {m}: {}", pods.join(", ")))
                .collect();
            out.eprint(&format!(
                "error: unable to drain node {name:?} due to error: {}, continuing command...",
                aggregate(&errs)
            ));
            fatal.extend(errs);
            remaining.push(name.clone());
            continue;
        }
        let warnings: Vec<(String, String)> = verdicts
            .iter()
            .filter_map(|(pod, v)| match v {
                Verdict::Warning { message, .. } => Some((message.clone(), key(pod))),
                _ => None,
            })
            .collect();
        if !warnings.is_empty() {
            let w: Vec<String> = grouped(&warnings)
                .into_iter()
                .map(|(m, pods)| format!("{m}: {}", pods.join(", ")))
                .collect();
            out.warn(&w.join("; "));
        }
        let to_delete: Vec<Pod> = verdicts
            .into_iter()
            .filter(|(_, v)| v.delete())
            .map(|(pod, _)| pod)
            .collect();
        if dry == DryRun::Client {
            for pod in &to_delete {
                out.print(&format!("evicting pod {} (dry run)", key(pod)));
            }
        } else {
            let opts = DeleteOptions {
                grace_period_seconds: if grace >= 0 { Some(grace) } else { None },
                propagation: None,
                uid: None,
            };
            let mut api_clone = (dry == DryRun::Server).then(|| sim.api.clone());
            let mut finished = vec![];
            // evictPods: every pod is evicted (each in its goroutine upstream, in pod order
            // here); a refusal (429, a PodDisruptionBudget allowing no disruption) is retried
            // every 5 s of virtual time, the cluster running meanwhile, until `--timeout`.
            let started = sim.now();
            let mut pending: Vec<&Pod> = to_delete.iter().collect();
            while !pending.is_empty() {
                let mut retry = vec![];
                for pod in pending {
                    if !disable_eviction {
                        out.print(&format!(
                            "evicting pod {}{}",
                            key(pod),
                            if dry == DryRun::Server {
                                " (server dry run)"
                            } else {
                                ""
                            }
                        ));
                    }
                    let api = match api_clone.as_mut() {
                        Some(a) => a,
                        None => &mut sim.api,
                    };
                    let (ns, pod_name) = (&pod.metadata.namespace, &pod.metadata.name);
                    let res = if disable_eviction {
                        api.delete("Pod", ns, pod_name, &opts).map(|_| ())
                    } else {
                        api.evict(ns, pod_name, &opts, false)
                    };
                    match res {
                        Ok(()) => finished.push(pod),
                        Err(e) if e.is_not_found() => {}
                        Err(e)
                            if e.reason == crate::api::Reason::TooManyRequests
                                && dry != DryRun::Server =>
                        {
                            out.print(&format!(
                                "error when evicting pods/{pod_name:?} -n {ns:?} (will retry after 5s): {}",
                                e.message
                            ));
                            retry.push(pod);
                        }
                        Err(e) => {
                            let msg = format!(
                                "error when evicting pods/{pod_name:?} -n {ns:?}: {}",
                                e.message
                            );
                            out.print(&format!("error: unable to drain node {name:?} due to error: {msg}, continuing command..."));
                            fatal.push(msg);
                            remaining.push(name.clone());
                        }
                    }
                }
                if retry.is_empty() {
                    break;
                }
                sim.run_for_blocked(Duration::from_secs(5))?;
                // The goroutines' `ctx.Done()` check before the next attempt.
                let waited = (sim.now() - started).as_millis() / 1000;
                let limit = if timeout_secs > 0 {
                    timeout_secs
                } else {
                    NO_TIMEOUT_CAP_SECS
                };
                if waited >= limit {
                    for pod in retry {
                        let msg = format!(
                            "error when evicting pods/{:?} -n {:?}: global timeout reached: {}",
                            pod.metadata.name,
                            pod.metadata.namespace,
                            crate::cron::go_duration_string(limit)
                        );
                        out.eprint(&format!("error: unable to drain node {name:?} due to error: {msg}, continuing command..."));
                        fatal.push(msg);
                        if !remaining.contains(name) {
                            remaining.push(name.clone());
                        }
                    }
                    break;
                }
                pending = retry;
            }
            if dry != DryRun::Server {
                let verb = if disable_eviction {
                    "deleted"
                } else {
                    "evicted"
                };
                for pod in finished {
                    out.print(&format!("pod/{} {verb}", pod.metadata.name));
                }
            }
        }
        if !remaining.contains(name) {
            out.print(&format!("node/{name} drained{}", dry.suffix()));
        }
    }
    if !remaining.is_empty() {
        out.eprint("There are pending nodes to be drained:");
        for n in &remaining {
            out.eprint(&format!(" {n}"));
        }
        let lines: Vec<String> = fatal.iter().map(|e| format!("error: {e}")).collect();
        return Err(lines.join("\n"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::execute;
    use super::super::testutil::*;
    use crate::api::{Node, Pod};

    fn unschedulable(sim: &crate::sim::Simulation, n: &str) -> bool {
        sim.api.store.get::<Node>("", n).unwrap().spec.unschedulable
    }

    #[test]
    fn cordon_and_uncordon() {
        let mut sim = sim();
        load_fixture(&mut sim);
        assert_eq!(
            execute(&mut sim, "cordon node-1").unwrap(),
            "node/node-1 cordoned"
        );
        assert!(unschedulable(&sim, "node-1"));
        assert_eq!(
            execute(&mut sim, "cordon node-1").unwrap(),
            "node/node-1 already cordoned"
        );
        assert_eq!(
            execute(&mut sim, "get nodes node-1").unwrap(),
            "NAME     STATUS                     ROLES    AGE   VERSION\nnode-1   Ready,SchedulingDisabled   <none>   24h   v1.34.0"
        );
        assert_eq!(
            execute(&mut sim, "uncordon node-1").unwrap(),
            "node/node-1 uncordoned"
        );
        assert_eq!(
            execute(&mut sim, "uncordon node-1").unwrap(),
            "node/node-1 already uncordoned"
        );
        assert_eq!(
            execute(
                &mut sim,
                "cordon -l kubernetes.io/hostname=node-2 --dry-run=client"
            )
            .unwrap(),
            "node/node-2 cordoned (dry run)"
        );
        assert!(!unschedulable(&sim, "node-2"));
        assert_eq!(
            execute(&mut sim, "cordon").unwrap_err(),
            "error: USAGE: cordon NODE [flags]\nSee 'kubectl cordon -h' for help and examples"
        );
        assert_eq!(
            execute(&mut sim, "cordon nope").unwrap_err(),
            "Error from server (NotFound): nodes \"nope\" not found"
        );
    }

    #[test]
    fn drain_evicts_managed_pods() {
        let mut sim = sim();
        load_fixture(&mut sim);
        assert_eq!(
            execute(&mut sim, "drain node-1").unwrap(),
            "node/node-1 cordoned\nevicting pod default/frontend-a\nevicting pod default/frontend-b\npod/frontend-a evicted\npod/frontend-b evicted\nnode/node-1 drained"
        );
        assert!(unschedulable(&sim, "node-1"));
        let p = sim.api.store.get::<Pod>("default", "frontend-a").unwrap();
        assert!(p.metadata.deletion_timestamp.is_some());
        assert_eq!(p.metadata.deletion_grace_period_seconds, Some(30));
    }

    /// The unreplicatedFilter error without --force, and its warning with it (filters.go).
    #[test]
    fn drain_unmanaged_pods() {
        let mut sim = sim();
        load_fixture(&mut sim);
        assert_eq!(
            execute(&mut sim, "drain node-2").unwrap_err(),
            "node/node-2 cordoned\nerror: unable to drain node \"node-2\" due to error: cannot delete cannot delete Pods that declare no controller (use --force to override): default/bare, continuing command...\nThere are pending nodes to be drained:\n node-2\nerror: cannot delete cannot delete Pods that declare no controller (use --force to override): default/bare"
        );
        assert!(sim
            .api
            .store
            .get::<Pod>("default", "bare")
            .unwrap()
            .metadata
            .deletion_timestamp
            .is_none());
        assert_eq!(
            execute(&mut sim, "drain node-2 --force --grace-period=5").unwrap(),
            "node/node-2 already cordoned\nWarning: deleting Pods that declare no controller: default/bare\nevicting pod default/bare\npod/bare evicted\nnode/node-2 drained"
        );
        let p = sim.api.store.get::<Pod>("default", "bare").unwrap();
        assert_eq!(p.metadata.deletion_grace_period_seconds, Some(5));
    }

    #[test]
    fn drain_daemonset_and_local_storage_pods() {
        let mut sim = sim();
        load_fixture(&mut sim);
        let mut ds_pod = running_pod("agent-x", "kube-system", "node-2");
        ds_pod.metadata.owner_references = vec![crate::api::OwnerReference {
            api_version: "apps/v1".into(),
            kind: "DaemonSet".into(),
            name: "agent".into(),
            uid: "uid-agent".into(),
            controller: Some(true),
            block_owner_deletion: Some(true),
        }]
        .into();
        load_pod(&mut sim, ds_pod);
        let mut cache = running_pod("cache", "default", "node-2");
        cache.metadata.owner_references =
            vec![owner("ReplicaSet", "frontend", "uid-frontend")].into();
        cache.spec_mut().extra.insert(
            "volumes".into(),
            serde_json::json!([{"name": "tmp", "emptyDir": {}}]),
        );
        load_pod(&mut sim, cache);
        // The DaemonSet does not exist (kubeplay has no DaemonSets yet): an error without
        // --force, as for an orphaned DaemonSet pod upstream.
        let e = execute(&mut sim, "drain node-2").unwrap_err();
        assert_eq!(
            e,
            "node/node-2 cordoned\nerror: unable to drain node \"node-2\" due to error: [cannot delete cannot delete Pods that declare no controller (use --force to override): default/bare, cannot delete Pods with local storage (use --delete-emptydir-data to override): default/cache, cannot delete daemonsets.apps \"agent\" not found: kube-system/agent-x], continuing command...\nThere are pending nodes to be drained:\n node-2\nerror: cannot delete cannot delete Pods that declare no controller (use --force to override): default/bare\nerror: cannot delete Pods with local storage (use --delete-emptydir-data to override): default/cache\nerror: cannot delete daemonsets.apps \"agent\" not found: kube-system/agent-x"
        );
        // --force deletes the orphan; only the last filter's verdict is kept, so the
        // DaemonSet warning is dropped for it (filters.go).
        let e = execute(&mut sim, "drain node-2 --force").unwrap_err();
        assert!(e.ends_with("\nerror: cannot delete Pods with local storage (use --delete-emptydir-data to override): default/cache"), "{e}");
        assert_eq!(
            execute(&mut sim, "drain node-2 --force --delete-emptydir-data --dry-run=client").unwrap(),
            "node/node-2 already cordoned (dry run)\nWarning: deleting Pods that declare no controller: default/bare\nevicting pod default/bare (dry run)\nevicting pod default/cache (dry run)\nevicting pod kube-system/agent-x (dry run)\nnode/node-2 drained (dry run)"
        );
    }

    #[test]
    fn drain_with_disable_eviction_deletes() {
        let mut sim = sim();
        load_fixture(&mut sim);
        assert_eq!(
            execute(&mut sim, "drain node-1 --disable-eviction --pod-selector app=web").unwrap(),
            "node/node-1 cordoned\npod/frontend-a deleted\npod/frontend-b deleted\nnode/node-1 drained"
        );
    }
}
