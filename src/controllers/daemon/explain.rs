//! Why a DaemonSet does or does not run on each node: `nodeShouldRunDaemonPod`, per node, with
//! the predicate that decided it in words (what the page shows).

use super::daemon_controller::{new_pod, node_should_run_daemon_pod, predicates};
use crate::api::{DaemonSet, Node, Pod, Selector, Taint};
use crate::scheduler::{find_matching_untolerated_taint, pod_matches_node_affinity};
use crate::store::Store;
use serde::Serialize;

/// A daemon pod on a node.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DaemonPodView {
    pub name: String,
    pub phase: String,
    pub ready: bool,
    pub terminating: bool,
    /// controller-revision-hash.
    pub revision: String,
}

/// One node as the DaemonSet controller sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DaemonNodeExplanation {
    pub node: String,
    /// `nodeShouldRunDaemonPod`'s first result: a daemon pod should be created here.
    pub should_run: bool,
    /// Its second result: a daemon pod already here may stay.
    pub should_continue_running: bool,
    /// The predicate that decided, in words.
    pub reason: String,
    /// Notes that did not change the answer (cordoned, tolerated node-problem taints).
    pub notes: Vec<String>,
    /// The DaemonSet's pods bound to this node.
    pub pods: Vec<DaemonPodView>,
}

/// A DaemonSet with its per-node explanation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DaemonSetExplanation {
    pub namespace: String,
    pub name: String,
    pub uid: String,
    pub desired: i32,
    pub current: i32,
    pub ready: i32,
    pub updated: i32,
    pub available: i32,
    pub misscheduled: i32,
    pub nodes: Vec<DaemonNodeExplanation>,
}

fn taint_string(t: &Taint) -> String {
    if t.value.is_empty() {
        format!("{}:{}", t.key, t.effect)
    } else {
        format!("{}={}:{}", t.key, t.value, t.effect)
    }
}

/// `nodeShouldRunDaemonPod(node, ds)` and why, in the order the function decides.
pub fn explain_node(node: &Node, ds: &DaemonSet) -> (bool, bool, String, Vec<String>) {
    let (should_run, should_continue) = node_should_run_daemon_pod(node, ds);
    let name = &node.metadata.name;
    let pod = new_pod(ds, name);
    let mut notes = vec![];
    if node.spec.unschedulable {
        notes.push(
            "cordoned (spec.unschedulable): ignored, daemon pods tolerate node.kubernetes.io/unschedulable:NoSchedule"
                .to_string(),
        );
    }
    for t in &node.spec.taints {
        if (t.effect == "NoSchedule" || t.effect == "NoExecute")
            && pod.spec.tolerations.iter().any(|x| x.tolerates(t))
        {
            notes.push(format!("taint {} is tolerated", taint_string(t)));
        }
    }
    let tnn = &ds.spec.template.spec.node_name;
    let reason = if !(tnn.is_empty() || tnn == name) {
        format!("the template's nodeName is {tnn}")
    } else if !predicates(&pod, node).1 {
        if !Selector::from_map(&pod.spec.node_selector).matches(&node.metadata.labels) {
            let want: Vec<String> = pod
                .spec
                .node_selector
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            format!(
                "nodeSelector {} does not match the node's labels",
                want.join(",")
            )
        } else {
            debug_assert!(!pod_matches_node_affinity(&pod, node));
            "required node affinity (requiredDuringSchedulingIgnoredDuringExecution) does not match the node".to_string()
        }
    } else if let Some(t) =
        find_matching_untolerated_taint(&node.spec.taints, &pod.spec.tolerations, |t| {
            t.effect == "NoExecute"
        })
    {
        format!(
            "taint {} is not tolerated: no pod is placed, and a running one is evicted",
            taint_string(t)
        )
    } else if let Some(t) =
        find_matching_untolerated_taint(&node.spec.taints, &pod.spec.tolerations, |t| {
            t.effect == "NoSchedule"
        })
    {
        format!(
            "taint {} is not tolerated: no new pod, but a running one may stay",
            taint_string(t)
        )
    } else {
        "eligible: nodeSelector, node affinity and taints all allow a daemon pod".to_string()
    };
    (should_run, should_continue, reason, notes)
}

/// Every node (by name) for `ds`, with the DaemonSet's pods on it.
pub fn explain_daemon_set(ds: &DaemonSet, nodes: &[&Node], pods: &[&Pod]) -> DaemonSetExplanation {
    let rows = nodes
        .iter()
        .map(|node| {
            let (should_run, should_continue_running, reason, notes) = explain_node(node, ds);
            let mut on: Vec<DaemonPodView> = pods
                .iter()
                .filter(|p| p.spec.node_name == node.metadata.name)
                .map(|p| DaemonPodView {
                    name: p.metadata.name.clone(),
                    phase: p.status.phase.clone(),
                    ready: p.condition("Ready").is_some_and(|c| c.status == "True"),
                    terminating: p.metadata.deletion_timestamp.is_some(),
                    revision: p
                        .metadata
                        .labels
                        .get("controller-revision-hash")
                        .cloned()
                        .unwrap_or_default(),
                })
                .collect();
            crate::sort::sort_by(&mut on, |a, b| a.name.cmp(&b.name));
            DaemonNodeExplanation {
                node: node.metadata.name.clone(),
                should_run,
                should_continue_running,
                reason,
                notes,
                pods: on,
            }
        })
        .collect();
    let s = &ds.status;
    DaemonSetExplanation {
        namespace: ds.metadata.namespace.clone(),
        name: ds.metadata.name.clone(),
        uid: ds.metadata.uid.clone(),
        desired: s.desired_number_scheduled,
        current: s.current_number_scheduled,
        ready: s.number_ready,
        updated: s.updated_number_scheduled,
        available: s.number_available,
        misscheduled: s.number_misscheduled,
        nodes: rows,
    }
}

/// Every DaemonSet in the store (by namespace and name), or only `ns/name` when given.
pub fn explain_daemon_sets_in_store(
    store: &Store,
    only: Option<(&str, &str)>,
) -> Vec<DaemonSetExplanation> {
    let nodes: Vec<&Node> = store.list::<Node>(None).collect();
    store
        .list::<DaemonSet>(None)
        .filter(|ds| {
            only.is_none_or(|(ns, n)| ds.metadata.namespace == ns && ds.metadata.name == n)
        })
        .map(|ds| {
            let pods: Vec<&Pod> = store
                .list::<Pod>(Some(&ds.metadata.namespace))
                .filter(|p| {
                    p.metadata
                        .controller_ref()
                        .is_some_and(|r| r.uid == ds.metadata.uid)
                })
                .collect();
            explain_daemon_set(ds, &nodes, &pods)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Duration;
    use crate::sim::Simulation;

    fn scenario_at(name: &str, secs: i64) -> Simulation {
        let text = crate::scenario::builtin::get(name).unwrap();
        let mut sim = crate::scenario::Scenario::parse(text)
            .unwrap()
            .build()
            .unwrap();
        sim.run_for(Duration::from_secs(secs)).unwrap();
        sim
    }

    fn rows(sim: &Simulation) -> Vec<(String, bool, bool, String, usize)> {
        let e = explain_daemon_sets_in_store(
            &sim.api.store,
            Some(("kube-system", "fluentd-elasticsearch")),
        );
        assert_eq!(e.len(), 1);
        e[0].nodes
            .iter()
            .map(|n| {
                (
                    n.node.clone(),
                    n.should_run,
                    n.should_continue_running,
                    n.reason.clone(),
                    n.pods.iter().filter(|p| !p.terminating).count(),
                )
            })
            .collect()
    }

    const OK: &str = "eligible: nodeSelector, node affinity and taints all allow a daemon pod";

    /// The fluentd DaemonSet tolerates the control-plane taint; worker-1's NoExecute taint is not
    /// tolerated; an unreachable node keeps its pod (NoExecute tolerated) but gets no new one.
    #[test]
    fn fluentd_nodes() {
        let sim = scenario_at("daemonset-fluentd", 30);
        let r = rows(&sim);
        assert_eq!(
            r,
            [
                ("control-plane".into(), true, true, OK.into(), 1),
                ("worker-1".into(), true, true, OK.into(), 1),
                ("worker-2".into(), true, true, OK.into(), 1),
            ]
        );
        let e = explain_daemon_sets_in_store(&sim.api.store, None);
        assert_eq!(
            e[0].nodes[0].notes,
            ["taint node-role.kubernetes.io/control-plane:NoSchedule is tolerated"]
        );
        let sim = scenario_at("daemonset-fluentd", 170);
        let r = rows(&sim);
        assert_eq!(r[1].0, "worker-1");
        assert_eq!(
            (r[1].1, r[1].2, r[1].3.as_str(), r[1].4),
            (
                false,
                false,
                "taint dedicated=logging-off:NoExecute is not tolerated: no pod is placed, and a running one is evicted",
                0
            )
        );
        assert_eq!(r[3].0, "worker-3");
        assert_eq!((r[3].1, r[3].4), (true, 1));
        // worker-2's kubelet stopped at 3m: unreachable.
        let sim = scenario_at("daemonset-fluentd", 280);
        let r = rows(&sim);
        assert_eq!(r[2].0, "worker-2");
        assert_eq!(
            (r[2].1, r[2].2, r[2].3.as_str()),
            (
                false,
                true,
                "taint node.kubernetes.io/unreachable:NoSchedule is not tolerated: no new pod, but a running one may stay"
            )
        );
    }

    /// nodeSelector, required node affinity, nodeName and cordoned nodes, each with its reason
    /// (the predicate itself is covered by the port of TestNodeShouldRunDaemonPod in tests.rs).
    #[test]
    fn selector_affinity_and_cordon() {
        let text = "kind: Scenario\nmetadata: {name: t}\nnodes:\n- {name: a, labels: {disk: ssd}}\n- {name: b}\n- {name: c, labels: {disk: ssd}, unschedulable: true}\n";
        let mut sim = crate::scenario::Scenario::parse(text)
            .unwrap()
            .build()
            .unwrap();
        let ds = "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: d}\nspec:\n  selector: {matchLabels: {app: d}}\n  template:\n    metadata: {labels: {app: d}}\n    spec:\n      nodeSelector: {disk: ssd}\n      containers: [{name: d, image: d}]\n---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: aff}\nspec:\n  selector: {matchLabels: {app: aff}}\n  template:\n    metadata: {labels: {app: aff}}\n    spec:\n      affinity:\n        nodeAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n            nodeSelectorTerms:\n            - matchExpressions: [{key: disk, operator: DoesNotExist}]\n      containers: [{name: d, image: d}]\n---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: pinned}\nspec:\n  selector: {matchLabels: {app: p}}\n  template:\n    metadata: {labels: {app: p}}\n    spec:\n      nodeName: a\n      containers: [{name: d, image: d}]\n";
        crate::kubectl::execute_with(
            &mut sim,
            "apply -f -",
            crate::kubectl::Input {
                stdin: Some(ds),
                files: None,
                fs: None,
            },
        )
        .unwrap();
        sim.run_for(Duration::from_secs(30)).unwrap();
        let e = explain_daemon_sets_in_store(&sim.api.store, None);
        let by = |name: &str| e.iter().find(|x| x.name == name).unwrap();
        let d = by("d");
        let r: Vec<(&str, bool, &str)> = d
            .nodes
            .iter()
            .map(|n| (n.node.as_str(), n.should_run, n.reason.as_str()))
            .collect();
        assert_eq!(
            r,
            [
                ("a", true, OK),
                (
                    "b",
                    false,
                    "nodeSelector disk=ssd does not match the node's labels"
                ),
                ("c", true, OK),
            ]
        );
        assert!(d.nodes[2].notes[0].starts_with("cordoned (spec.unschedulable)"));
        // The cordoned node still gets its daemon pod.
        assert_eq!(d.nodes[2].pods.len(), 1);
        let aff = by("aff");
        assert_eq!(
            aff.nodes
                .iter()
                .map(|n| (n.should_run, n.should_continue_running))
                .collect::<Vec<_>>(),
            [(false, false), (true, true), (false, false)]
        );
        assert!(aff.nodes[0].reason.starts_with("required node affinity"));
        let pinned = by("pinned");
        assert_eq!(pinned.nodes[1].reason, "the template's nodeName is a");
        assert!(pinned.nodes[0].should_run);
    }

    // Port of TestTaintToString (staging/src/k8s.io/api/core/v1/taint_test.go): the explain
    // output prints taints the way `Taint.ToString` does.
    #[test]
    fn test_taint_to_string() {
        let t = |key: &str, value: &str| Taint {
            key: key.into(),
            value: value.into(),
            effect: "NoSchedule".into(),
            time_added: None,
        };
        assert_eq!(taint_string(&t("foo", "bar")), "foo=bar:NoSchedule");
        assert_eq!(taint_string(&t("foo", "")), "foo:NoSchedule");
    }
}
