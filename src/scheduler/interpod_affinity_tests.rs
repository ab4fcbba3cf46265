//! Ports of upstream's InterPodAffinity tests
//! (`pkg/scheduler/framework/plugins/interpodaffinity/filtering_test.go`, `scoring_test.go`)
//! and of the `matchLabelKeys` / `mismatchLabelKeys` merge at pod creation
//! (`pkg/registry/core/pod/strategy.go`).

use super::interpod_affinity::*;
use super::{Code, NodeInfo};
use crate::api::{Affinity, Labels, Node, Pod};
use crate::test_fixtures::snapshot;
use serde_json::{json, Map, Value};

const REQ: &str = "requiredDuringSchedulingIgnoredDuringExecution";
const PREF: &str = "preferredDuringSchedulingIgnoredDuringExecution";

/// A pod builder after upstream's `st.MakePod()`.
#[derive(Clone, Default)]
struct P {
    ns: String,
    name: String,
    node: String,
    labels: Labels,
    aff: Map<String, Value>,
}

fn mk() -> P {
    P::default()
}

/// A term whose label selector has the given expressions (`values` left out when empty).
fn term_exprs(exprs: &[(&str, &str, &[&str])], topo: &str) -> Value {
    let exprs: Vec<Value> = exprs
        .iter()
        .map(|(k, op, vals)| {
            if vals.is_empty() {
                json!({"key": k, "operator": op})
            } else {
                json!({"key": k, "operator": op, "values": vals})
            }
        })
        .collect();
    json!({"labelSelector": {"matchExpressions": exprs}, "topologyKey": topo})
}

fn term(key: &str, op: &str, vals: &[&str], topo: &str) -> Value {
    term_exprs(&[(key, op, vals)], topo)
}

fn weighted(weight: i32, t: Value) -> Value {
    json!({"weight": weight, "podAffinityTerm": t})
}

impl P {
    fn ns(mut self, ns: &str) -> Self {
        self.ns = ns.into();
        self
    }
    fn name(mut self, n: &str) -> Self {
        self.name = n.into();
        self
    }
    fn node(mut self, n: &str) -> Self {
        self.node = n.into();
        self
    }
    fn label(mut self, k: &str, v: &str) -> Self {
        self.labels.insert(k.into(), v.into());
        self
    }
    fn labels(mut self, l: &[(&str, &str)]) -> Self {
        for (k, v) in l {
            self.labels.insert((*k).into(), (*v).into());
        }
        self
    }
    /// Appends `item` to `spec.affinity.<field>.<list>`.
    fn push(mut self, field: &str, list: &str, item: Value) -> Self {
        let f = self.aff.entry(field).or_insert_with(|| json!({}));
        let l = f
            .as_object_mut()
            .expect("object")
            .entry(list)
            .or_insert_with(|| json!([]));
        l.as_array_mut().expect("array").push(item);
        self
    }
    /// `podAffinity` / `podAntiAffinity` set but empty (as `createPodWithAffinityTerms`).
    fn touch(mut self, field: &str) -> Self {
        self.aff.entry(field).or_insert_with(|| json!({}));
        self
    }
    fn req(self, field: &str, t: Value) -> Self {
        self.push(field, REQ, t)
    }
    fn pref(self, field: &str, weight: i32, t: Value) -> Self {
        self.push(field, PREF, weighted(weight, t))
    }
    /// `PodAffinityIn(key, topo, vals, PodAffinityWithRequiredReq)` and friends.
    fn aff_in(self, key: &str, topo: &str, vals: &[&str]) -> Self {
        self.req("podAffinity", term(key, "In", vals, topo))
    }
    fn aff_not_in(self, key: &str, topo: &str, vals: &[&str]) -> Self {
        self.req("podAffinity", term(key, "NotIn", vals, topo))
    }
    fn aff_exists(self, key: &str, topo: &str) -> Self {
        self.req("podAffinity", term(key, "Exists", &[], topo))
    }
    fn anti_in(self, key: &str, topo: &str, vals: &[&str]) -> Self {
        self.req("podAntiAffinity", term(key, "In", vals, topo))
    }
    fn anti_not_in(self, key: &str, topo: &str, vals: &[&str]) -> Self {
        self.req("podAntiAffinity", term(key, "NotIn", vals, topo))
    }
    fn anti_exists(self, key: &str, topo: &str) -> Self {
        self.req("podAntiAffinity", term(key, "Exists", &[], topo))
    }
    fn obj(self) -> Pod {
        let mut p = Pod::default();
        p.metadata.namespace = self.ns;
        p.metadata.name = self.name;
        p.metadata.labels = self.labels.into();
        p.spec_mut().node_name = self.node;
        if !self.aff.is_empty() {
            p.spec_mut().affinity = Some(Affinity {
                node_affinity: None,
                extra: self.aff,
            });
        }
        p
    }
}

fn node(name: &str, labels: &[(&str, &str)]) -> Node {
    let mut n = Node::default();
    n.metadata.name = name.into();
    n.metadata.labels = labels
        .iter()
        .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
        .collect();
    n
}

/// The namespaces of upstream's `namespaces` fixture (scoring_test.go).
fn team_namespaces() -> NamespaceLabels {
    [
        ("subteam1.team1", "team1"),
        ("subteam2.team1", "team1"),
        ("subteam1.team2", "team2"),
        ("subteam2.team2", "team2"),
    ]
    .iter()
    .map(|(n, t)| (n.to_string(), [("team".to_string(), t.to_string())].into()))
    .collect()
}

#[derive(Debug, PartialEq)]
enum Pre {
    Skip,
    Run,
    Reject(String),
}

type Want = Option<(Code, &'static str)>;
const OK: Want = None;
const AFF: Want = Some((
    Code::UnschedulableAndUnresolvable,
    ERR_REASON_AFFINITY_RULES_NOT_MATCH,
));
const ANTI: Want = Some((
    Code::Unschedulable,
    ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
));
const EXISTING: Want = Some((
    Code::Unschedulable,
    ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
));

/// PreFilter, then Filter on every node when PreFilter ran.
fn run_filter(pod: &Pod, pods: &[Pod], nodes: &[Node], ns: &NamespaceLabels) -> (Pre, Vec<Want>) {
    let infos = snapshot(nodes, pods);
    let all: Vec<(&Node, &NodeInfo)> = nodes.iter().zip(infos.iter()).collect();
    match pre_filter(pod, &all, ns) {
        PreFilter::Skip => (Pre::Skip, vec![]),
        PreFilter::Reject(s) => {
            assert_eq!(s.code, Code::UnschedulableAndUnresolvable);
            (Pre::Reject(s.reasons.join(", ")), vec![])
        }
        PreFilter::Run(s) => {
            let got = nodes
                .iter()
                .zip(infos.iter())
                .map(|(n, ni)| {
                    filter_node(&s, n, ni).map(|st| {
                        assert_eq!(st.plugin, NAME);
                        assert_eq!(st.reasons.len(), 1);
                        let r: &'static str = match st.reasons[0].as_str() {
                            ERR_REASON_AFFINITY_RULES_NOT_MATCH => {
                                ERR_REASON_AFFINITY_RULES_NOT_MATCH
                            }
                            ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH => {
                                ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH
                            }
                            ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH => {
                                ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH
                            }
                            other => panic!("unexpected reason {other}"),
                        };
                        (st.code, r)
                    })
                })
                .collect();
            (Pre::Run, got)
        }
    }
}

const BAD_VALUE: &str = r#"values[0][service]: Invalid value: "{{.bad-value.}}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"#;

// Port of TestRequiredAffinitySingleNode (filtering_test.go). Pods on `node2`, which is not in
// the snapshot, are left out of every NodeInfo as upstream's snapshot leaves them.
#[test]
fn test_required_affinity_single_node() {
    let pod_label = [("service", "securityscan")];
    let pod_label2 = [("security", "S1")];
    let existing = mk().labels(&pod_label).node("node1").obj();
    let node1 = node("node1", &[("region", "r1"), ("zone", "z11")]);
    let ns = team_namespaces();
    let with_terms = |ns: &str, aff: Vec<Value>, anti: Vec<Value>| {
        let mut b = mk()
            .ns(ns)
            .labels(&pod_label2)
            .touch("podAffinity")
            .touch("podAntiAffinity");
        for t in aff {
            b = b.req("podAffinity", t);
        }
        for t in anti {
            b = b.req("podAntiAffinity", t);
        }
        b.obj()
    };
    let ns_sel = |key: &str, topo: &str| -> Value {
        let mut t = term("service", "In", &["securityscan", "value2"], topo);
        t["namespaceSelector"] =
            json!({"matchExpressions": [{"key": "team", "operator": "In", "values": [key]}]});
        t
    };
    let rows: Vec<(&str, Pod, Vec<Pod>, Pre, Want)> = vec![
        (
            "A pod that has no required pod affinity scheduling rules can schedule onto a node with no existing pods",
            Pod::default(),
            vec![],
            Pre::Skip,
            OK,
        ),
        (
            "satisfies with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using In operator that matches the existing pod",
            mk().labels(&pod_label2).aff_in("service", "region", &["securityscan", "value2"]).obj(),
            vec![existing.clone()],
            Pre::Run,
            OK,
        ),
        (
            "satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using not in operator in labelSelector that matches the existing pod",
            mk().labels(&pod_label2).aff_not_in("service", "region", &["securityscan3", "value3"]).obj(),
            vec![existing.clone()],
            Pre::Run,
            OK,
        ),
        (
            "Does not satisfy the PodAffinity with labelSelector because of diff Namespace",
            with_terms("", vec![{
                let mut t = term("service", "In", &["securityscan", "value2"], "");
                t["namespaces"] = json!(["DiffNameSpace"]);
                t
            }], vec![]),
            vec![mk().ns("ns").label("service", "securityscan").node("node1").obj()],
            Pre::Run,
            AFF,
        ),
        (
            "Doesn't satisfy the PodAffinity because of unmatching labelSelector with the existing pod",
            mk().labels(&pod_label).aff_in("service", "", &["antivirusscan", "value2"]).obj(),
            vec![existing.clone()],
            Pre::Run,
            AFF,
        ),
        (
            "satisfies the PodAffinity with different label Operators in multiple RequiredDuringSchedulingIgnoredDuringExecution ",
            with_terms("", vec![
                term_exprs(&[("service", "Exists", &[]), ("wrongkey", "DoesNotExist", &[])], "region"),
                term_exprs(&[("service", "In", &["securityscan"]), ("service", "NotIn", &["WrongValue"])], "region"),
            ], vec![]),
            vec![existing.clone()],
            Pre::Run,
            OK,
        ),
        (
            "The labelSelector requirements(items of matchExpressions) are ANDed, the pod cannot schedule onto the node because one of the matchExpression item don't match.",
            with_terms("", vec![
                term_exprs(&[("service", "Exists", &[]), ("wrongkey", "DoesNotExist", &[])], "region"),
                term_exprs(&[("service", "In", &["securityscan2"]), ("service", "NotIn", &["WrongValue"])], "region"),
            ], vec![]),
            vec![existing.clone()],
            Pre::Run,
            AFF,
        ),
        (
            "satisfies the PodAffinity and PodAntiAffinity with the existing pod",
            mk().labels(&pod_label2)
                .aff_in("service", "region", &["securityscan", "value2"])
                .anti_in("service", "node", &["antivirusscan", "value2"]).obj(),
            vec![existing.clone()],
            Pre::Run,
            OK,
        ),
        (
            "satisfies the PodAffinity and PodAntiAffinity and PodAntiAffinity symmetry with the existing pod",
            mk().labels(&pod_label2)
                .aff_in("service", "region", &["securityscan", "value2"])
                .anti_in("service", "node", &["antivirusscan", "value2"]).obj(),
            vec![mk().node("node1").labels(&pod_label).anti_in("service", "node", &["antivirusscan", "value2"]).obj()],
            Pre::Run,
            OK,
        ),
        (
            "satisfies the PodAffinity but doesn't satisfy the PodAntiAffinity with the existing pod",
            mk().labels(&pod_label2)
                .aff_in("service", "region", &["securityscan", "value2"])
                .anti_in("service", "zone", &["securityscan", "value2"]).obj(),
            vec![existing.clone()],
            Pre::Run,
            ANTI,
        ),
        (
            "satisfies the PodAffinity and PodAntiAffinity but doesn't satisfy PodAntiAffinity symmetry with the existing pod",
            mk().labels(&pod_label)
                .aff_in("service", "region", &["securityscan", "value2"])
                .anti_in("service", "node", &["antivirusscan", "value2"]).obj(),
            vec![mk().labels(&pod_label).node("node1").anti_in("service", "zone", &["securityscan", "value2"]).obj()],
            Pre::Run,
            EXISTING,
        ),
        (
            "pod matches its own Label in PodAffinity and that matches the existing pod Labels",
            mk().labels(&pod_label).aff_not_in("service", "region", &["securityscan", "value2"]).obj(),
            vec![mk().label("service", "securityscan").node("node2").obj()],
            Pre::Run,
            AFF,
        ),
        (
            "verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. doesn't satisfy PodAntiAffinity symmetry with the existing pod",
            mk().labels(&pod_label).obj(),
            vec![mk().node("node1").labels(&pod_label).anti_in("service", "zone", &["securityscan", "value2"]).obj()],
            Pre::Run,
            EXISTING,
        ),
        (
            "verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. satisfy PodAntiAffinity symmetry with the existing pod",
            mk().labels(&pod_label).obj(),
            vec![mk().node("node1").labels(&pod_label).anti_not_in("service", "zone", &["securityscan", "value2"]).obj()],
            Pre::Skip,
            OK,
        ),
        (
            "satisfies the PodAntiAffinity with existing pod but doesn't satisfy PodAntiAffinity symmetry with incoming pod",
            mk().labels(&pod_label).anti_exists("service", "region").anti_exists("security", "region").obj(),
            vec![mk().node("node1").labels(&pod_label2).anti_exists("security", "zone").obj()],
            Pre::Run,
            ANTI,
        ),
        (
            "PodAntiAffinity symmetry check a1: incoming pod and existing pod partially match each other on AffinityTerms",
            mk().labels(&pod_label).anti_exists("service", "zone").anti_exists("security", "zone").obj(),
            vec![mk().node("node1").labels(&pod_label2).anti_exists("security", "zone").obj()],
            Pre::Run,
            ANTI,
        ),
        (
            "PodAntiAffinity symmetry check a2: incoming pod and existing pod partially match each other on AffinityTerms",
            mk().labels(&pod_label2).anti_exists("security", "zone").obj(),
            vec![mk().node("node1").labels(&pod_label).anti_exists("service", "zone").anti_exists("security", "zone").obj()],
            Pre::Run,
            EXISTING,
        ),
        (
            "PodAntiAffinity symmetry check b1: incoming pod and existing pod partially match each other on AffinityTerms",
            mk().labels(&[("abc", ""), ("xyz", "")]).anti_exists("abc", "zone").anti_exists("def", "zone").obj(),
            vec![mk().node("node1").labels(&[("def", ""), ("xyz", "")]).anti_exists("abc", "zone").anti_exists("def", "zone").obj()],
            Pre::Run,
            ANTI,
        ),
        (
            "PodAntiAffinity symmetry check b2: incoming pod and existing pod partially match each other on AffinityTerms",
            mk().labels(&[("def", ""), ("xyz", "")]).anti_exists("abc", "zone").anti_exists("def", "zone").obj(),
            vec![mk().node("node1").labels(&[("abc", ""), ("xyz", "")]).anti_exists("abc", "zone").anti_exists("def", "zone").obj()],
            Pre::Run,
            ANTI,
        ),
        (
            "PodAffinity fails PreFilter with an invalid affinity label syntax",
            mk().labels(&pod_label)
                .aff_in("service", "region", &["{{.bad-value.}}"])
                .aff_in("service", "node", &["antivirusscan", "value2"]).obj(),
            vec![],
            Pre::Reject(format!("parsing pod: requiredAffinityTerms: {BAD_VALUE}")),
            OK,
        ),
        (
            "PodAntiAffinity fails PreFilter with an invalid antiaffinity label syntax",
            mk().labels(&pod_label)
                .aff_in("service", "region", &["foo"])
                .aff_in("service", "node", &["{{.bad-value.}}"]).obj(),
            vec![],
            Pre::Reject(format!("parsing pod: requiredAffinityTerms: {BAD_VALUE}")),
            OK,
        ),
        (
            "affinity with NamespaceSelector",
            with_terms("", vec![ns_sel("team1", "region")], vec![]),
            vec![mk().ns("subteam1.team1").labels(&pod_label).node("node1").obj()],
            Pre::Run,
            OK,
        ),
        (
            "affinity with non-matching NamespaceSelector",
            with_terms("", vec![ns_sel("team1", "region")], vec![]),
            vec![mk().ns("subteam1.team2").labels(&pod_label).node("node1").obj()],
            Pre::Run,
            AFF,
        ),
        (
            "anti-affinity with matching NamespaceSelector",
            with_terms("subteam1.team1", vec![], vec![ns_sel("team1", "zone")]),
            vec![mk().ns("subteam2.team1").labels(&pod_label).node("node1").obj()],
            Pre::Run,
            ANTI,
        ),
        (
            "anti-affinity with matching all NamespaceSelector",
            with_terms("subteam1.team1", vec![], vec![{
                let mut t = term("service", "In", &["securityscan", "value2"], "zone");
                t["namespaceSelector"] = json!({});
                t
            }]),
            vec![mk().ns("subteam2.team1").labels(&pod_label).node("node1").obj()],
            Pre::Run,
            ANTI,
        ),
        (
            "anti-affinity with non-matching NamespaceSelector",
            with_terms("subteam1.team1", vec![], vec![ns_sel("team1", "zone")]),
            vec![mk().ns("subteam1.team2").labels(&pod_label).node("node1").obj()],
            Pre::Run,
            OK,
        ),
    ];
    for (name, pod, pods, want_pre, want) in rows {
        let (pre, got) = run_filter(&pod, &pods, std::slice::from_ref(&node1), &ns);
        assert_eq!(pre, want_pre, "{name}: PreFilter");
        if pre == Pre::Run {
            assert_eq!(got, vec![want], "{name}: Filter");
        }
    }
}

/// name, incoming pod, existing pods, nodes, PreFilter, Filter per node.
type MultiRow<'a> = (&'a str, Pod, Vec<Pod>, Vec<Node>, Pre, Vec<Want>);

// Port of TestRequiredAffinityMultipleNodes (filtering_test.go); the namespace lister holds
// only `NS1`, as upstream's.
#[test]
fn test_required_affinity_multiple_nodes() {
    let rg_china = [("region", "China")];
    let rg_china_az1 = [("region", "China"), ("az", "az1")];
    let rg_india = [("region", "India")];
    let ns: NamespaceLabels = [("NS1".to_string(), Labels::new())].into();
    let abc = |name: &str, region: &str, zone: &str| {
        node(
            name,
            &[("region", region), ("zone", zone), ("hostname", name)],
        )
    };
    let rows: Vec<MultiRow> = vec![
        (
            "A pod can be scheduled onto all the nodes that have the same topology key & label value with one of them has an existing pod that matches the affinity rules",
            mk().aff_in("foo", "region", &["bar"]).obj(),
            vec![mk().name("p1").node("node1").label("foo", "bar").obj()],
            vec![node("node1", &rg_china), node("node2", &rg_china_az1), node("node3", &rg_india)],
            Pre::Run,
            vec![OK, OK, AFF],
        ),
        (
            "The affinity rule is to schedule all of the pods of this collection to the same zone. The first pod of the collection should not be blocked from being scheduled onto any node, even there's no existing pod that matches the rule anywhere.",
            mk().labels(&[("foo", "bar"), ("service", "securityscan")])
                .aff_in("foo", "zone", &["bar"]).aff_in("service", "zone", &["securityscan"]).obj(),
            vec![mk().name("p1").node("nodeA").label("foo", "bar").obj()],
            vec![node("nodeA", &[("zone", "az1"), ("hostname", "h1")]), node("nodeB", &[("zone", "az2"), ("hostname", "h2")])],
            Pre::Run,
            vec![OK, OK],
        ),
        (
            "The first pod of the collection can only be scheduled on nodes labelled with the requested topology keys",
            mk().labels(&[("foo", "bar"), ("service", "securityscan")])
                .aff_in("foo", "zone", &["bar"]).aff_in("service", "zone", &["securityscan"]).obj(),
            vec![mk().name("p1").node("nodeA").label("foo", "bar").obj()],
            vec![node("nodeA", &[("zoneLabel", "az1"), ("hostname", "h1")]), node("nodeB", &[("zoneLabel", "az2"), ("hostname", "h2")])],
            Pre::Run,
            vec![AFF, AFF],
        ),
        (
            "NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB.",
            mk().anti_in("foo", "region", &["abc"]).obj(),
            vec![mk().node("nodeA").label("foo", "abc").obj()],
            vec![node("nodeA", &[("region", "r1"), ("hostname", "nodeA")]), node("nodeB", &[("region", "r1"), ("hostname", "nodeB")])],
            Pre::Run,
            vec![ANTI, ANTI],
        ),
        (
            "This test ensures that anti-affinity matches a pod when any term of the anti-affinity rule matches a pod.",
            mk().anti_in("foo", "region", &["abc"]).anti_in("service", "zone", &["securityscan"]).obj(),
            vec![mk().node("nodeA").labels(&[("foo", "abc"), ("service", "securityscan")]).obj()],
            vec![node("nodeA", &[("region", "r1"), ("zone", "z1"), ("hostname", "nodeA")]), node("nodeB", &[("region", "r1"), ("zone", "z2"), ("hostname", "nodeB")])],
            Pre::Run,
            vec![ANTI, ANTI],
        ),
        (
            "NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB but can be scheduled onto nodeC",
            mk().anti_in("foo", "region", &["abc"]).obj(),
            vec![mk().node("nodeA").label("foo", "abc").obj()],
            vec![node("nodeA", &rg_china), node("nodeB", &rg_china_az1), node("nodeC", &rg_india)],
            Pre::Run,
            vec![ANTI, ANTI, OK],
        ),
        (
            "NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA, nodeB, but can be scheduled onto nodeC (NodeC has an existing pod that match the inter pod affinity rule but in different namespace)",
            mk().ns("NS1").label("foo", "123").anti_in("foo", "region", &["bar"]).obj(),
            vec![
                mk().node("nodeA").ns("NS1").label("foo", "bar").obj(),
                mk().node("nodeC").ns("NS2").anti_in("foo", "region", &["123"]).obj(),
            ],
            vec![node("nodeA", &rg_china), node("nodeB", &rg_china_az1), node("nodeC", &rg_india)],
            Pre::Run,
            vec![ANTI, ANTI, OK],
        ),
        (
            "Test existing pod's anti-affinity: if an existing pod has a term with invalid topologyKey, labelSelector of the term is firstly checked, and then topologyKey of the term is also checked",
            mk().label("foo", "").obj(),
            vec![mk().node("nodeA").anti_exists("foo", "invalid-node-label").obj()],
            vec![abc("nodeA", "r1", "z1"), abc("nodeB", "r1", "z1")],
            Pre::Skip,
            vec![OK, OK],
        ),
        (
            "Test incoming pod's anti-affinity: even if labelSelector matches, we still check if topologyKey matches",
            mk().node("nodeA").anti_exists("foo", "invalid-node-label").obj(),
            vec![mk().node("nodeA").label("foo", "").obj()],
            vec![abc("nodeA", "r1", "z1"), abc("nodeB", "r1", "z1")],
            Pre::Run,
            vec![OK, OK],
        ),
        (
            "Test existing pod's anti-affinity: incoming pod wouldn't considered as a fit as it violates each existingPod's terms on all nodes",
            mk().label("foo", "").label("bar", "").obj(),
            vec![
                mk().node("nodeA").anti_exists("foo", "zone").obj(),
                mk().node("nodeA").anti_exists("bar", "region").obj(),
            ],
            vec![abc("nodeA", "r1", "z1"), abc("nodeB", "r1", "z2")],
            Pre::Run,
            vec![EXISTING, EXISTING],
        ),
        (
            "Test incoming pod's anti-affinity: incoming pod wouldn't considered as a fit as it at least violates one anti-affinity rule of existingPod",
            mk().anti_exists("foo", "zone").anti_exists("bar", "region").obj(),
            vec![
                mk().node("nodeA").label("foo", "").obj(),
                mk().node("nodeB").label("bar", "").obj(),
            ],
            vec![abc("nodeA", "r1", "z1"), abc("nodeB", "r1", "z2")],
            Pre::Run,
            vec![ANTI, ANTI],
        ),
        (
            "Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when one term has invalid topologyKey",
            mk().label("foo", "").label("bar", "").obj(),
            vec![mk().node("nodeA").anti_exists("foo", "invalid-node-label").anti_exists("bar", "zone").obj()],
            vec![abc("nodeA", "r1", "z1"), abc("nodeB", "r1", "z2")],
            Pre::Run,
            vec![EXISTING, OK],
        ),
        (
            "Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when one term has invalid topologyKey",
            mk().anti_exists("foo", "invalid-node-label").anti_exists("bar", "zone").obj(),
            vec![mk().name("podA").node("nodeA").labels(&[("foo", ""), ("bar", "")]).obj()],
            vec![abc("nodeA", "r1", "z1"), abc("nodeB", "r1", "z2")],
            Pre::Run,
            vec![ANTI, OK],
        ),
        (
            "Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when all terms have valid topologyKey",
            mk().label("foo", "").label("bar", "").obj(),
            vec![mk().node("nodeA").anti_exists("foo", "region").anti_exists("bar", "zone").obj()],
            vec![abc("nodeA", "r1", "z1"), abc("nodeB", "r1", "z2")],
            Pre::Run,
            vec![EXISTING, EXISTING],
        ),
        (
            "Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when all terms have valid topologyKey",
            mk().anti_exists("foo", "region").anti_exists("bar", "zone").obj(),
            vec![mk().node("nodeA").labels(&[("foo", ""), ("bar", "")]).obj()],
            vec![abc("nodeA", "r1", "z1"), abc("nodeB", "r1", "z2")],
            Pre::Run,
            vec![ANTI, ANTI],
        ),
        (
            "Test existing pod's anti-affinity: existingPod on nodeA and nodeB has at least one anti-affinity term matches incoming pod, so incoming pod can only be scheduled to nodeC",
            mk().label("foo", "").label("bar", "").obj(),
            vec![
                mk().node("nodeA").anti_exists("foo", "zone").anti_exists("labelA", "zone").obj(),
                mk().node("nodeB").anti_exists("bar", "zone").anti_exists("labelB", "zone").obj(),
            ],
            vec![abc("nodeA", "r1", "z1"), abc("nodeB", "r1", "z2"), abc("nodeC", "r1", "z3")],
            Pre::Run,
            vec![EXISTING, EXISTING, OK],
        ),
        (
            "Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all topologyKeys match",
            mk().aff_exists("foo", "region").aff_exists("bar", "zone").obj(),
            vec![mk().name("pod1").labels(&[("foo", ""), ("bar", "")]).node("nodeA").obj()],
            vec![abc("nodeA", "r1", "z1"), abc("nodeB", "r1", "z1")],
            Pre::Run,
            vec![OK, OK],
        ),
        (
            "Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all topologyKeys match, and the match logic should be satisfied on the same pod",
            mk().aff_exists("foo", "region").aff_exists("bar", "zone").obj(),
            vec![
                mk().node("nodeA").name("pod1").label("foo", "").obj(),
                mk().node("nodeB").name("pod2").label("bar", "").obj(),
            ],
            vec![abc("nodeA", "r1", "z1"), abc("nodeB", "r1", "z2")],
            Pre::Run,
            vec![AFF, AFF],
        ),
    ];
    for (name, pod, pods, nodes, want_pre, want) in rows {
        let (pre, got) = run_filter(&pod, &pods, &nodes, &ns);
        assert_eq!(pre, want_pre, "{name}: PreFilter");
        if pre == Pre::Run {
            assert_eq!(got, want, "{name}: Filter");
        }
    }
}

/// PreScore (with every node as a candidate), Score and NormalizeScore; `None` is Skip.
fn run_score(
    pod: &Pod,
    pods: &[Pod],
    nodes: &[Node],
    ns: &NamespaceLabels,
    hard_weight: i64,
) -> Option<Vec<i64>> {
    let infos = snapshot(nodes, pods);
    let all: Vec<(&Node, &NodeInfo)> = nodes.iter().zip(infos.iter()).collect();
    let feasible: Vec<&Node> = nodes.iter().collect();
    scores(pod, &feasible, &all, ns, hard_weight)
}

/// name, incoming pod, existing pods, nodes, normalized scores (`None`: PreScore skips).
type ScoreRow<'a> = (&'a str, Pod, Vec<Pod>, Vec<Node>, Option<Vec<i64>>);

// Port of TestPreferredAffinity (scoring_test.go). Left out: "Ignore preferred terms of
// existing pods" (IgnorePreferredTermsOfExistingPods is an InterPodAffinityArgs option off in
// the default profile, not modelled) and the two "invalid (Anti)Affinity fails PreScore" rows,
// which PreFilter rejects first in a scheduling cycle: they are checked against PreFilter below.
#[test]
fn test_preferred_affinity() {
    let s1 = [("security", "S1")];
    let s2 = [("security", "S2")];
    let rg_china = [("region", "China")];
    let rg_india = [("region", "India")];
    let az1 = [("az", "az1")];
    let az2 = [("az", "az2")];
    let rg_china_az1 = [("region", "China"), ("az", "az1")];
    let stay_s1_region = |b: P| b.pref("podAffinity", 5, term("security", "In", &["S1"], "region"));
    let stay_s2_region = |b: P| b.pref("podAffinity", 6, term("security", "In", &["S2"], "region"));
    let affinity3 = |b: P| {
        b.pref(
            "podAffinity",
            8,
            term_exprs(
                &[("security", "NotIn", &["S1"]), ("security", "In", &["S2"])],
                "region",
            ),
        )
        .pref(
            "podAffinity",
            2,
            term_exprs(
                &[
                    ("security", "Exists", &[]),
                    ("wrongkey", "DoesNotExist", &[]),
                ],
                "region",
            ),
        )
    };
    let hard_affinity = |b: P| {
        b.req(
            "podAffinity",
            term("security", "In", &["S1", "value2"], "region"),
        )
        .req(
            "podAffinity",
            term_exprs(
                &[
                    ("security", "Exists", &[]),
                    ("wrongkey", "DoesNotExist", &[]),
                ],
                "region",
            ),
        )
    };
    let away_s1_az = |b: P| b.pref("podAntiAffinity", 5, term("security", "In", &["S1"], "az"));
    let away_s2_az = |b: P| b.pref("podAntiAffinity", 5, term("security", "In", &["S2"], "az"));
    let stay_s1_region_away_s2_az = |b: P| {
        b.pref("podAffinity", 8, term("security", "In", &["S1"], "region"))
            .pref("podAntiAffinity", 5, term("security", "In", &["S2"], "az"))
    };
    let ns_sel_term = || {
        let mut t = term("security", "In", &["S1"], "region");
        t["namespaces"] = json!(["subteam2.team2"]);
        t["namespaceSelector"] =
            json!({"matchExpressions": [{"key": "team", "operator": "In", "values": ["team1"]}]});
        t
    };
    let affinity_ns_sel = |b: P| b.pref("podAffinity", 5, ns_sel_term());
    let anti_affinity_ns_sel = |b: P| b.pref("podAntiAffinity", 5, ns_sel_term());
    let on = |n: &str, l: &[(&str, &str)]| mk().node(n).labels(l).obj();
    let nodes3 = || {
        vec![
            node("node1", &rg_china),
            node("node2", &rg_india),
            node("node3", &az1),
        ]
    };
    let rows: Vec<ScoreRow> = vec![
        (
            "all nodes are same priority as Affinity is nil",
            mk().labels(&s1).obj(),
            vec![],
            nodes3(),
            None,
        ),
        (
            "Affinity: pod that matches topology key & pods in nodes will get high scorecomparing to otherswhich doesn't match either pods in nodes or in topology key",
            stay_s1_region(mk().labels(&s1)).obj(),
            vec![on("node1", &s1), on("node2", &s2), on("node3", &s1)],
            nodes3(),
            Some(vec![100, 0, 0]),
        ),
        (
            "All the nodes that have the same topology key & label value with one of them has an existing pod that match the affinity rules, have the same score",
            stay_s1_region(mk()).obj(),
            vec![on("node1", &s1)],
            vec![node("node1", &rg_china), node("node2", &rg_china_az1), node("node3", &rg_india)],
            Some(vec![100, 100, 0]),
        ),
        (
            "Affinity: nodes in one region has more matching pods comparing to other region, so the region which has more matches will get high score",
            stay_s2_region(mk().labels(&s1)).obj(),
            vec![
                on("node1", &s2),
                on("node1", &s2),
                on("node2", &s2),
                on("node3", &s2),
                on("node4", &s2),
                on("node5", &s2),
            ],
            vec![
                node("node1", &rg_china),
                node("node2", &rg_india),
                node("node3", &rg_china),
                node("node4", &rg_china),
                node("node5", &rg_india),
            ],
            Some(vec![100, 0, 100, 100, 0]),
        ),
        (
            "Affinity: different Label operators and values for pod affinity scheduling preference, including some match failures ",
            affinity3(mk().labels(&s1)).obj(),
            vec![on("node1", &s1), on("node2", &s2), on("node3", &s1)],
            nodes3(),
            Some(vec![20, 100, 0]),
        ),
        (
            "Affinity symmetry: considered only the preferredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry",
            mk().labels(&s2).obj(),
            vec![
                stay_s1_region(mk().node("node1").labels(&s1)).obj(),
                stay_s2_region(mk().node("node2").labels(&s2)).obj(),
            ],
            nodes3(),
            Some(vec![0, 100, 0]),
        ),
        (
            "Affinity symmetry with namespace selector",
            mk().ns("subteam1.team1").labels(&s1).obj(),
            vec![
                affinity_ns_sel(mk().node("node1").labels(&s1)).obj(),
                stay_s2_region(mk().node("node2").labels(&s2)).obj(),
            ],
            nodes3(),
            Some(vec![100, 0, 0]),
        ),
        (
            "AntiAffinity symmetry with namespace selector",
            mk().ns("subteam1.team1").labels(&s1).obj(),
            vec![
                anti_affinity_ns_sel(mk().node("node1").labels(&s1)).obj(),
                stay_s2_region(mk().node("node2").labels(&s2)).obj(),
            ],
            nodes3(),
            Some(vec![0, 100, 100]),
        ),
        (
            "Affinity symmetry: considered RequiredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry",
            mk().labels(&s1).obj(),
            vec![
                hard_affinity(mk().node("node1").labels(&s1)).obj(),
                hard_affinity(mk().node("node2").labels(&s2)).obj(),
            ],
            nodes3(),
            Some(vec![100, 100, 0]),
        ),
        (
            "Anti Affinity: pod that does not match existing pods in node will get high score ",
            away_s1_az(mk().labels(&s1)).obj(),
            vec![on("node1", &s1), on("node2", &s2)],
            vec![node("node1", &az1), node("node2", &rg_china)],
            Some(vec![0, 100]),
        ),
        (
            "Anti Affinity: pod that does not match topology key & match the pods in nodes will get higher score comparing to others ",
            away_s1_az(mk().labels(&s1)).obj(),
            vec![on("node1", &s1), on("node2", &s1)],
            vec![node("node1", &az1), node("node2", &rg_china)],
            Some(vec![0, 100]),
        ),
        (
            "Anti Affinity: one node has more matching pods comparing to other node, so the node which has more unmatches will get high score",
            away_s1_az(mk().labels(&s1)).obj(),
            vec![on("node1", &s1), on("node1", &s1), on("node2", &s2)],
            vec![node("node1", &az1), node("node2", &rg_india)],
            Some(vec![0, 100]),
        ),
        (
            "Anti Affinity symmetry: the existing pods in node which has anti affinity match will get high score",
            mk().labels(&s2).obj(),
            vec![
                away_s2_az(mk().node("node1").labels(&s1)).obj(),
                away_s1_az(mk().node("node2").labels(&s2)).obj(),
            ],
            vec![node("node1", &az1), node("node2", &az2)],
            Some(vec![0, 100]),
        ),
        (
            "Affinity and Anti Affinity: considered only preferredDuringSchedulingIgnoredDuringExecution in both pod affinity & anti affinity",
            stay_s1_region_away_s2_az(mk().labels(&s1)).obj(),
            vec![on("node1", &s1), on("node2", &s1)],
            vec![node("node1", &rg_china), node("node2", &az1)],
            Some(vec![100, 0]),
        ),
        (
            "Affinity and Anti Affinity: considering both affinity and anti-affinity, the pod to schedule and existing pods have the same labels",
            stay_s1_region_away_s2_az(mk().labels(&s1)).obj(),
            vec![
                on("node1", &s1),
                on("node1", &s1),
                on("node2", &s1),
                on("node3", &s1),
                on("node3", &s1),
                on("node4", &s1),
                on("node5", &s1),
            ],
            vec![
                node("node1", &rg_china_az1),
                node("node2", &rg_india),
                node("node3", &rg_china),
                node("node4", &rg_china),
                node("node5", &rg_india),
            ],
            Some(vec![100, 0, 100, 100, 0]),
        ),
        (
            "Affinity and Anti Affinity and symmetry: considered only preferredDuringSchedulingIgnoredDuringExecution in both pod affinity & anti affinity & symmetry",
            stay_s1_region_away_s2_az(mk().labels(&s1)).obj(),
            vec![
                on("node1", &s1),
                on("node2", &s2),
                stay_s1_region_away_s2_az(mk().node("node3")).obj(),
                away_s1_az(mk().node("node4")).obj(),
            ],
            vec![
                node("node1", &rg_china),
                node("node2", &az1),
                node("node3", &rg_india),
                node("node4", &az2),
            ],
            Some(vec![100, 0, 100, 0]),
        ),
        (
            "Avoid panic when partial nodes in a topology don't have pods with affinity",
            mk().labels(&s1).obj(),
            vec![
                on("node1", &s1),
                stay_s1_region_away_s2_az(mk().node("node2")).obj(),
            ],
            vec![node("node1", &rg_china), node("node2", &rg_china)],
            Some(vec![0, 0]),
        ),
        (
            "Affinity with pods matching NamespaceSelector",
            affinity_ns_sel(mk().ns("subteam1.team1").labels(&s1)).obj(),
            vec![
                mk().node("node1").ns("subteam1.team1").labels(&s1).obj(),
                mk().node("node1").ns("subteam1.team1").labels(&s1).obj(),
                mk().node("node1").ns("subteam1.team2").labels(&s1).obj(),
                mk().node("node2").ns("subteam2.team1").labels(&s1).obj(),
            ],
            vec![node("node1", &rg_china), node("node2", &rg_india)],
            Some(vec![100, 0]),
        ),
        (
            "Affinity with pods matching both NamespaceSelector and Namespaces fields",
            affinity_ns_sel(mk().ns("subteam1.team1").labels(&s1)).obj(),
            vec![
                mk().node("node1").ns("subteam1.team1").labels(&s1).obj(),
                mk().node("node1").ns("subteam1.team1").labels(&s1).obj(),
                mk().node("node1").ns("subteam2.team2").labels(&s1).obj(),
                mk().node("node2").ns("subteam2.team1").labels(&s1).obj(),
            ],
            vec![node("node1", &rg_china), node("node2", &rg_india)],
            Some(vec![100, 0]),
        ),
        (
            "Affinity with pods matching NamespaceSelector (anti-affinity)",
            anti_affinity_ns_sel(mk().ns("subteam1.team1").labels(&s1)).obj(),
            vec![
                mk().node("node1").ns("subteam1.team1").labels(&s1).obj(),
                mk().node("node1").ns("subteam1.team1").labels(&s1).obj(),
                mk().node("node1").ns("subteam1.team2").labels(&s1).obj(),
                mk().node("node2").ns("subteam2.team1").labels(&s1).obj(),
            ],
            vec![node("node1", &rg_china), node("node2", &rg_india)],
            Some(vec![0, 100]),
        ),
        (
            "Affinity with pods matching both NamespaceSelector and Namespaces fields (anti-affinity)",
            anti_affinity_ns_sel(mk().ns("subteam1.team1").labels(&s1)).obj(),
            vec![
                mk().node("node1").ns("subteam1.team1").labels(&s1).obj(),
                mk().node("node1").ns("subteam1.team1").labels(&s1).obj(),
                mk().node("node1").ns("subteam2.team2").labels(&s1).obj(),
                mk().node("node2").ns("subteam2.team1").labels(&s1).obj(),
            ],
            vec![node("node1", &rg_china), node("node2", &rg_india)],
            Some(vec![0, 100]),
        ),
        (
            "Do not ignore preferred terms of existing pods",
            mk().labels(&s2).obj(),
            vec![
                stay_s1_region_away_s2_az(mk().node("node1").labels(&s1)).obj(),
                stay_s2_region(mk().node("node2").labels(&s2)).obj(),
            ],
            vec![node("node1", &rg_china), node("node2", &rg_india)],
            Some(vec![0, 100]),
        ),
        (
            "No nodes to score",
            mk().labels(&s2).obj(),
            vec![],
            vec![],
            None,
        ),
    ];
    let ns = team_namespaces();
    for (name, pod, pods, nodes, want) in rows {
        let got = run_score(&pod, &pods, &nodes, &ns, DEFAULT_HARD_POD_AFFINITY_WEIGHT);
        assert_eq!(got, want, "{name}");
    }
    // "invalid Affinity fails PreScore" / "invalid AntiAffinity fails PreScore": the parse
    // error of a preferred term (`Invalid value: "{{.bad-value.}}"`) rejects the pod at
    // PreFilter, before any scoring.
    for (field, topo) in [("podAffinity", "region"), ("podAntiAffinity", "az")] {
        let pod = mk()
            .pref(field, 8, term("security", "In", &["{{.bad-value.}}"], topo))
            .obj();
        let nodes = [node("node1", &rg_china), node("node2", &rg_china)];
        let (pre, _) = run_filter(&pod, &[], &nodes, &ns);
        let Pre::Reject(msg) = pre else {
            panic!("{field}: PreFilter should reject, got {pre:?}");
        };
        assert!(msg.contains(r#"Invalid value: "{{.bad-value.}}""#), "{msg}");
    }
}

// Port of TestPreferredAffinityWithHardPodAffinitySymmetricWeight (scoring_test.go).
#[test]
fn test_preferred_affinity_with_hard_pod_affinity_symmetric_weight() {
    let service_s1 = [("service", "S1")];
    let mut hard = term("service", "In", &["S1"], "region");
    hard["namespaces"] = json!(["", "subteam2.team2"]);
    hard["namespaceSelector"] =
        json!({"matchExpressions": [{"key": "team", "operator": "In", "values": ["team1"]}]});
    let pods = vec![
        mk().node("node1").req("podAffinity", hard.clone()).obj(),
        mk().node("node2").req("podAffinity", hard.clone()).obj(),
    ];
    let nodes = vec![
        node("node1", &[("region", "China")]),
        node("node2", &[("region", "India")]),
        node("node3", &[("az", "az1")]),
    ];
    let rows: Vec<(&str, &str, i64, Option<Vec<i64>>)> = vec![
        ("with default weight", "", 1, Some(vec![100, 100, 0])),
        ("with zero weight", "", 0, None),
        ("with no matching namespace", "subteam1.team2", 1, None),
        (
            "with matching NamespaceSelector",
            "subteam1.team1",
            1,
            Some(vec![100, 100, 0]),
        ),
        (
            "with matching Namespaces",
            "subteam2.team2",
            1,
            Some(vec![100, 100, 0]),
        ),
    ];
    let ns = team_namespaces();
    for (name, pod_ns, weight, want) in rows {
        let pod = mk().ns(pod_ns).labels(&service_s1).obj();
        assert_eq!(run_score(&pod, &pods, &nodes, &ns, weight), want, "{name}");
    }
}

#[test]
fn normalize_score_min_max() {
    // All negative: the least negative gets 100 (min/max start from the first score).
    let mut s = vec![-10, -5, -10];
    normalize_score(&mut s);
    assert_eq!(s, vec![0, 100, 0]);
    let mut s = vec![3, 3];
    normalize_score(&mut s);
    assert_eq!(s, vec![0, 0]);
    // 100 * (8 - -5) / 15 = 86.67 → 86.
    let mut s = vec![-5, 8, 10];
    normalize_score(&mut s);
    assert_eq!(s, vec![0, 86, 100]);
}

// Port of Test_mutatePodAffinity (pkg/registry/core/pod/strategy_test.go). The row "the feature
// gate is disabled and matchLabelKeys is ignored" is left out: MatchLabelKeysInPodAffinity is GA
// (1.33) and kubeplay does not model turning it off.
#[test]
fn test_mutate_pod_affinity() {
    use crate::api::validation::affinity::mutate_pod_affinity;
    let labels = [("country", "Japan"), ("city", "Kyoto")];
    let asia = |extra: Value| -> Value {
        let mut t = json!({"labelSelector": {"matchLabels": {"region": "Asia"}}});
        for (k, v) in extra.as_object().expect("object") {
            t[k] = v.clone();
        }
        t
    };
    let keys = json!({"matchLabelKeys": ["country"], "mismatchLabelKeys": ["city"]});
    let merged = json!([
        {"key": "country", "operator": "In", "values": ["Japan"]},
        {"key": "city", "operator": "NotIn", "values": ["Kyoto"]},
    ]);
    let four = |t: Value| -> P {
        mk().labels(&labels)
            .req("podAffinity", t.clone())
            .pref("podAffinity", 0, t.clone())
            .req("podAntiAffinity", t.clone())
            .pref("podAntiAffinity", 0, t)
    };
    // matchLabelKeys are merged into labelSelector with In and mismatchLabelKeys are merged
    // with NotIn.
    let mut pod = four(asia(keys.clone())).obj();
    mutate_pod_affinity(&mut pod);
    let mut t = asia(keys.clone());
    t["labelSelector"]["matchExpressions"] = merged.clone();
    let want = four(t).obj();
    assert_eq!(pod.spec.affinity, want.spec.affinity);

    // keys, which are not found in Pod labels, are ignored.
    let keys2 = json!({"matchLabelKeys": ["city", "not-found"]});
    let mut pod = mk()
        .labels(&labels)
        .req("podAffinity", asia(keys2.clone()))
        .obj();
    mutate_pod_affinity(&mut pod);
    let mut t = asia(keys2);
    t["labelSelector"]["matchExpressions"] =
        json!([{"key": "city", "operator": "In", "values": ["Kyoto"]}]);
    let want = mk().labels(&labels).req("podAffinity", t).obj();
    assert_eq!(pod.spec.affinity, want.spec.affinity);

    // matchLabelKeys is ignored if the labelSelector is nil.
    let mut pod = mk().labels(&labels).req("podAffinity", keys.clone()).obj();
    let before = pod.clone();
    mutate_pod_affinity(&mut pod);
    assert_eq!(pod, before);
}

// After TestPodAffinityMatchLabelKeyEnablement (test/integration/scheduler/filters): a pod
// created through the API server has its matchLabelKeys merged, and the scheduler then uses
// the merged selector.
#[test]
fn match_label_keys_merged_at_creation_and_used_by_the_filter() {
    let mut pod = mk()
        .ns("default")
        .name("p")
        .labels(&[("foo", ""), ("bar", "a")])
        .req("podAffinity", {
            let mut t = term("foo", "Exists", &[], "node");
            t["matchLabelKeys"] = json!(["bar"]);
            t
        })
        .obj();
    pod.api_version = "v1".into();
    pod.kind = "Pod".into();
    let mut o = crate::api::Object::Pod(pod);
    crate::api::defaults::prepare_for_create(&mut o);
    let crate::api::Object::Pod(pod) = o else {
        panic!("pod")
    };
    let spec = pod_affinity_spec(&pod, "podAffinity").expect("podAffinity");
    let terms = spec
        .required_during_scheduling_ignored_during_execution
        .expect("terms");
    let exprs = terms[0]
        .label_selector
        .as_ref()
        .and_then(|s| s.match_expressions.clone())
        .expect("expressions");
    assert_eq!(exprs.len(), 2);
    assert_eq!(
        (exprs[1].key.as_str(), exprs[1].operator.as_str()),
        ("bar", "In")
    );
    assert_eq!(exprs[1].values, Some(vec!["a".to_string()]));
    // An existing pod with foo but bar=b does not satisfy the merged term; bar=a does.
    let nodes = [node("n1", &[("node", "n1")]), node("n2", &[("node", "n2")])];
    let pods = [
        mk().ns("default")
            .node("n1")
            .labels(&[("foo", ""), ("bar", "b")])
            .obj(),
        mk().ns("default")
            .node("n2")
            .labels(&[("foo", ""), ("bar", "a")])
            .obj(),
    ];
    let (pre, got) = run_filter(&pod, &pods, &nodes, &NamespaceLabels::new());
    assert_eq!(pre, Pre::Run);
    assert_eq!(got, vec![AFF, OK]);
}

fn counts(pairs: &[(&str, &str, i64)]) -> TopologyCounts {
    pairs
        .iter()
        .map(|(k, v, c)| ((k.to_string(), v.to_string()), *c))
        .collect()
}

fn state_of(pod: &Pod, pods: &[Pod], nodes: &[Node], ns: &NamespaceLabels) -> PreFilterState {
    let infos = snapshot(nodes, pods);
    let all: Vec<(&Node, &NodeInfo)> = nodes.iter().zip(infos.iter()).collect();
    match pre_filter(pod, &all, ns) {
        PreFilter::Run(s) => *s,
        other => panic!("PreFilter did not run: {other:?}"),
    }
}

// Port of TestPreFilterStateAddRemovePod (filtering_test.go): AddPod gives the state PreFilter
// computes with the pod present, RemovePod restores the original.
#[test]
fn test_pre_filter_state_add_remove_pod() {
    let label1 = [("region", "r1"), ("zone", "z11")];
    let label2 = [("region", "r1"), ("zone", "z12")];
    let label3 = [("region", "r2"), ("zone", "z21")];
    let nodes = vec![
        node("nodeA", &label1),
        node("nodeB", &label2),
        node("nodeC", &label3),
    ];
    let foo_bar = || term("foo", "In", &["bar"], "region");
    let complex = || {
        vec![
            term("foo", "In", &["bar", "buzz"], "region"),
            term("service", "NotIn", &["bar", "security", "test"], "zone"),
        ]
    };
    let with =
        |b: P, field: &str, terms: Vec<Value>| terms.into_iter().fold(b, |b, t| b.req(field, t));
    let sel1 = [("foo", "bar")];
    type Row<'a> = (&'a str, Pod, Vec<Pod>, Pod, TopologyCounts, TopologyCounts);
    let rows: Vec<Row> = vec![
        (
            "preFilterState anti-affinity terms are updated correctly after adding and removing a pod",
            mk().name("pending").labels(&sel1).req("podAntiAffinity", foo_bar()).obj(),
            vec![
                mk().name("p1").labels(&sel1).node("nodeA").obj(),
                mk().name("p2").node("nodeC").req("podAntiAffinity", foo_bar()).obj(),
            ],
            mk().name("addedPod").labels(&sel1).node("nodeB").req("podAntiAffinity", foo_bar()).obj(),
            counts(&[("region", "r1", 2)]),
            counts(&[]),
        ),
        (
            "preFilterState anti-affinity terms are updated correctly after adding and removing a pod (complex)",
            with(mk().name("pending").labels(&sel1), "podAntiAffinity", complex()).obj(),
            vec![
                mk().name("p1").labels(&sel1).node("nodeA").obj(),
                mk().name("p2").node("nodeC").req("podAntiAffinity", foo_bar()).obj(),
            ],
            with(mk().name("addedPod").labels(&sel1).node("nodeA"), "podAntiAffinity", complex()).obj(),
            counts(&[("region", "r1", 2), ("zone", "z11", 2), ("zone", "z21", 1)]),
            counts(&[]),
        ),
        (
            "preFilterState matching pod affinity and anti-affinity are updated correctly after adding and removing a pod",
            with(mk().name("pending").labels(&sel1), "podAffinity", complex()).obj(),
            vec![
                mk().name("p1").labels(&sel1).node("nodeA").obj(),
                with(mk().name("p2").node("nodeC").req("podAntiAffinity", foo_bar()), "podAffinity", complex()).obj(),
            ],
            with(mk().name("addedPod").labels(&sel1).node("nodeA"), "podAntiAffinity", complex()).obj(),
            counts(&[]),
            counts(&[("region", "r1", 2), ("zone", "z11", 2)]),
        ),
    ];
    let ns = NamespaceLabels::new();
    for (name, pending, existing, added, want_anti, want_aff) in rows {
        let mut all_pods = existing.clone();
        all_pods.push(added.clone());
        let all_state = state_of(&pending, &all_pods, &nodes, &ns);
        let mut state = state_of(&pending, &existing, &nodes, &ns);
        let original = state.clone();
        let added_node = nodes
            .iter()
            .find(|n| n.metadata.name == added.spec.node_name)
            .expect("node");
        state.update_with_pod(&added, added_node, 1);
        assert_eq!(state.anti_affinity_counts, want_anti, "{name}: anti");
        assert_eq!(state.affinity_counts, want_aff, "{name}: affinity");
        assert_eq!(state, all_state, "{name}: add");
        state.update_with_pod(&added, added_node, -1);
        assert_eq!(state, original, "{name}: remove");
    }
}

// Port of TestGetTPMapMatchingIncomingAffinityAntiAffinity (filtering_test.go), through
// PreFilter: the two rows whose incoming pod has no terms make PreFilter skip.
#[test]
fn test_get_tp_map_matching_incoming_affinity_anti_affinity() {
    let normal = |labels: &[&str]| {
        labels
            .iter()
            .fold(mk().name("normal").node("nodeA"), |b, l| b.label(l, ""))
            .obj()
    };
    let (a, b, ab) = (normal(&["aaa"]), normal(&["bbb"]), normal(&["aaa", "bbb"]));
    let nodes = vec![node("nodeA", &[("hostname", "nodeA")])];
    let ns = NamespaceLabels::new();
    let host1 = counts(&[("hostname", "nodeA", 1)]);
    type Row<'a> = (
        &'a str,
        Vec<Pod>,
        Pod,
        Option<(TopologyCounts, TopologyCounts)>,
    );
    let rows: Vec<Row> = vec![
        ("nil test", vec![], mk().name("aaa-normal").obj(), None),
        (
            "incoming pod without affinity/anti-affinity causes a no-op",
            vec![a.clone()],
            mk().name("aaa-normal").obj(),
            None,
        ),
        (
            "no pod has label that violates incoming pod's affinity and anti-affinity",
            vec![b.clone()],
            mk().aff_exists("aaa", "hostname").anti_exists("aaa", "hostname").obj(),
            Some((counts(&[]), counts(&[]))),
        ),
        (
            "existing pod matches incoming pod's affinity and anti-affinity - single term case",
            vec![a.clone()],
            mk().aff_exists("aaa", "hostname").anti_exists("aaa", "hostname").obj(),
            Some((host1.clone(), host1.clone())),
        ),
        (
            "existing pod matches incoming pod's affinity and anti-affinity - multiple terms case",
            vec![ab.clone()],
            mk().aff_exists("aaa", "hostname")
                .aff_exists("bbb", "hostname")
                .anti_exists("aaa", "hostname")
                .obj(),
            Some((counts(&[("hostname", "nodeA", 2)]), host1.clone())),
        ),
        (
            "existing pod not match incoming pod's affinity but matches anti-affinity",
            vec![a.clone()],
            mk().aff_exists("aaa", "hostname")
                .aff_exists("bbb", "hostname")
                .anti_exists("aaa", "hostname")
                .anti_exists("bbb", "hostname")
                .obj(),
            Some((counts(&[]), host1.clone())),
        ),
        (
            "incoming pod's anti-affinity has more than one term - existing pod violates partial term - case 1",
            vec![ab.clone()],
            mk().aff_exists("aaa", "hostname")
                .aff_exists("ccc", "hostname")
                .anti_exists("aaa", "hostname")
                .anti_exists("ccc", "hostname")
                .obj(),
            Some((counts(&[]), host1.clone())),
        ),
        (
            "incoming pod's anti-affinity has more than one term - existing pod violates partial term - case 2",
            vec![b.clone()],
            mk().aff_exists("aaa", "hostname")
                .aff_exists("bbb", "hostname")
                .anti_exists("aaa", "hostname")
                .anti_exists("bbb", "hostname")
                .obj(),
            Some((counts(&[]), host1.clone())),
        ),
    ];
    for (name, existing, pod, want) in rows {
        let infos = snapshot(&nodes, &existing);
        let all: Vec<(&Node, &NodeInfo)> = nodes.iter().zip(infos.iter()).collect();
        match (pre_filter(&pod, &all, &ns), want) {
            (PreFilter::Skip, None) => {}
            (PreFilter::Run(s), Some((aff, anti))) => {
                assert_eq!(s.affinity_counts, aff, "{name}: affinity");
                assert_eq!(s.anti_affinity_counts, anti, "{name}: anti-affinity");
            }
            (got, want) => panic!("{name}: got {got:?}, want {want:?}"),
        }
    }
}

// Port of Test_isSchedulableAfterPodChange (plugin_test.go). Test_isSchedulableAfterNodeChange
// is not ported: kubeplay retries a pod on a node event when it now passes every filter on
// that node (InterPodAffinity included), rather than through per-plugin node hints.
#[test]
fn test_is_schedulable_after_pod_change() {
    let aff = || {
        mk().name("p")
            .aff_in("service", "region", &["securityscan", "value2"])
            .obj()
    };
    let aff2 = || {
        mk().name("p")
            .aff_exists("aaa", "hostname")
            .aff_exists("bbb", "hostname")
            .obj()
    };
    let anti = || {
        mk().name("p")
            .anti_in("service", "region", &["securityscan", "value2"])
            .obj()
    };
    let on = |labels: &[(&str, &str)]| mk().node("fake-node").labels(labels).obj();
    let off = |labels: &[(&str, &str)]| mk().labels(labels).obj();
    type Row<'a> = (&'a str, Pod, Option<Pod>, Option<Pod>, bool);
    let rows: Vec<Row> = vec![
        ("add a pod which matches the pod affinity", aff(), None, Some(on(&[("service", "securityscan")])), true),
        ("add an un-scheduled pod", aff(), None, Some(off(&[("service", "securityscan")])), false),
        ("add a pod which doesn't match the pod affinity", aff(), None, Some(on(&[("aaa", "a")])), false),
        (
            "update a pod from non-match to match pod affinity",
            aff(),
            Some(on(&[("aaa", "a")])),
            Some(on(&[("service", "securityscan")])),
            true,
        ),
        (
            "the updating pod matches target pod's affinity both before and after label changes",
            aff(),
            Some(on(&[("service", "value2")])),
            Some(on(&[("service", "securityscan")])),
            false,
        ),
        (
            "update an un-scheduled pod",
            aff(),
            Some(off(&[("service", "securityscan")])),
            Some(off(&[("service", "securityscan")])),
            false,
        ),
        (
            "update a pod from match to non-match the pod affinity",
            aff(),
            Some(on(&[("service", "securityscan")])),
            Some(on(&[("aaa", "a")])),
            false,
        ),
        (
            "update a pod from match to non-match pod's affinity - multiple terms case",
            aff2(),
            Some(on(&[("aaa", "a")])),
            Some(on(&[("service", "securityscan")])),
            false,
        ),
        (
            "update a pod from non-match to match pod's affinity - multiple terms case",
            aff2(),
            Some(on(&[("aaa", "a")])),
            Some(on(&[("aaa", ""), ("bbb", "")])),
            true,
        ),
        (
            "modify pod label to change it from satisfying pod anti-affinity to not satisfying anti-affinity",
            anti(),
            Some(on(&[("service", "securityscan")])),
            Some(on(&[("service", "aaaa")])),
            true,
        ),
        (
            "modify pod label to change it from not satisfying pod anti-affinity to satisfying anti-affinity",
            anti(),
            Some(on(&[("service", "bbb")])),
            Some(on(&[("service", "securityscan")])),
            false,
        ),
        ("delete a pod which doesn't match pod's anti-affinity", anti(), Some(on(&[("aaa", "a")])), None, false),
        ("delete a pod which matches pod's anti-affinity", anti(), Some(on(&[("service", "securityscan")])), None, true),
    ];
    for (name, pod, old, new, want) in rows {
        assert_eq!(
            is_schedulable_after_pod_change(&pod, old.as_ref(), new.as_ref()),
            want,
            "{name}"
        );
    }
}

// `metav1.LabelSelectorAsSelector` / `labels.NewRequirement` errors, as PreFilter reports
// them inside `parsing pod: ...`.
#[test]
fn label_selector_parse_errors() {
    use crate::api::{LabelSelector, LabelSelectorRequirement};
    let expr = |key: &str, op: &str, vals: Option<&[&str]>| LabelSelector {
        match_labels: None,
        match_expressions: Some(vec![LabelSelectorRequirement {
            key: key.into(),
            operator: op.into(),
            values: vals.map(|v| v.iter().map(|s| s.to_string()).collect()),
        }]),
    };
    let err = |ls: LabelSelector| label_selector_as_selector(Some(&ls)).unwrap_err();
    assert_eq!(
        err(expr("a", "In", None)),
        "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty"
    );
    assert_eq!(
        err(expr("a", "Exists", Some(&["x", "y"]))),
        r#"values: Invalid value: []string{"x", "y"}: values set must be empty for exists and does not exist"#
    );
    assert_eq!(
        err(expr("a", "Gt", Some(&["1"]))),
        r#""Gt" is not a valid label selector operator"#
    );
    let long = "x".repeat(64);
    assert_eq!(
        err(expr("a", "In", Some(&[long.as_str()]))),
        format!("values[0][a]: Invalid value: \"{long}\": must be no more than 63 characters")
    );
    let e = err(expr("bad key", "In", Some(&["-v"])));
    assert!(
        e.starts_with("[key: Invalid value: \"bad key\": name part must consist of"),
        "{e}"
    );
    assert!(
        e.contains(", values[0][bad key]: Invalid value: \"-v\": a valid label"),
        "{e}"
    );
    // nil matches nothing, {} everything.
    assert_eq!(
        label_selector_as_selector(None),
        Ok(crate::api::Selector::Nothing)
    );
    assert!(label_selector_as_selector(Some(&LabelSelector::default()))
        .unwrap()
        .is_empty());
}
