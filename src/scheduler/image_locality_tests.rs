use super::*;
use crate::api::{Container, Object, Quantity};
use crate::scheduler::{schedule_pod, Outcome};
use crate::store::Store;

/// `makeImageNode(name, status)`: a node whose `status.images` lists (names, size in MiB).
fn image_node(name: &str, images: &[(&[&str], i64)]) -> Node {
    let mut n = Node::default();
    n.metadata.name = name.into();
    if !images.is_empty() {
        let list: Vec<serde_json::Value> = images
            .iter()
            .map(|(names, mb)| serde_json::json!({"names": names, "sizeBytes": mb * MB}))
            .collect();
        n.status.extra.insert("images".into(), list.into());
    }
    n
}

fn pod_spec(init: &[&str], containers: &[&str]) -> Pod {
    let c = |i: &&str| Container {
        name: i.replace(['/', '.'], "-"),
        image: i.to_string(),
        ..Default::default()
    };
    let mut p = Pod::default();
    p.spec_mut().init_containers = init.iter().map(c).collect();
    p.spec_mut().containers = containers.iter().map(c).collect();
    p
}

fn node_403002000(name: &str) -> Node {
    image_node(
        name,
        &[
            (&["gcr.io/40:latest", "gcr.io/40:v1", "gcr.io/40:v1"], 40),
            (&["gcr.io/300:latest", "gcr.io/300:v1"], 300),
            (&["gcr.io/2000:latest"], 2000),
        ],
    )
}

fn node_25010(name: &str) -> Node {
    image_node(
        name,
        &[
            (&["gcr.io/250:latest"], 250),
            (&["gcr.io/10:latest", "gcr.io/10:v1"], 10),
        ],
    )
}

fn node_60040900(name: &str) -> Node {
    image_node(
        name,
        &[
            (&["gcr.io/600:latest"], 600),
            (&["gcr.io/40:latest"], 40),
            (&["gcr.io/900:latest"], 900),
        ],
    )
}

fn node_300600900(name: &str) -> Node {
    image_node(
        name,
        &[
            (&["gcr.io/300:latest"], 300),
            (&["gcr.io/600:latest"], 600),
            (&["gcr.io/900:latest"], 900),
        ],
    )
}

fn node_400030(name: &str) -> Node {
    image_node(
        name,
        &[(&["gcr.io/4000:latest"], 4000), (&["gcr.io/30:latest"], 30)],
    )
}

fn node_203040(name: &str) -> Node {
    image_node(
        name,
        &[
            (&["gcr.io/20:latest"], 20),
            (&["gcr.io/30:latest"], 30),
            (&["gcr.io/40:latest"], 40),
        ],
    )
}

fn scores(pod: &Pod, nodes: &[Node]) -> Vec<i64> {
    let states =
        image_states(nodes.iter()).unwrap_or_else(|| vec![ImageStates::new(); nodes.len()]);
    states.iter().map(|s| score(pod, s, nodes.len())).collect()
}

// upstream: TestImageLocalityPriority (pkg/scheduler/framework/plugins/imagelocality/image_locality_test.go), all 7 rows.
#[test]
fn image_locality_priority() {
    let test_40_250 = pod_spec(&[], &["gcr.io/40", "gcr.io/250"]);
    let test_40_300 = pod_spec(&[], &["gcr.io/40", "gcr.io/300"]);
    let test_min_max = pod_spec(&[], &["gcr.io/10", "gcr.io/4000"]);
    let test_300_600_900 = pod_spec(&[], &["gcr.io/300", "gcr.io/600", "gcr.io/900"]);
    let test_30_40 = pod_spec(&[], &["gcr.io/30", "gcr.io/40"]);
    let test_30_init_300 = pod_spec(&["gcr.io/300"], &["gcr.io/30"]);
    let cases: Vec<(&str, &Pod, Vec<Node>, Vec<i64>)> = vec![
        (
            "two images spread on two nodes, prefer the larger image one",
            &test_40_250,
            vec![node_403002000("node1"), node_25010("node2")],
            vec![0, 5],
        ),
        (
            "two images on one node, prefer this node",
            &test_40_300,
            vec![node_403002000("node1"), node_25010("node2")],
            vec![7, 0],
        ),
        (
            "if exceed limit, use limit",
            &test_min_max,
            vec![node_400030("node1"), node_25010("node2")],
            vec![100, 0],
        ),
        (
            "if exceed limit, use limit (with node which has no images present)",
            &test_min_max,
            vec![
                node_400030("node1"),
                node_25010("node2"),
                image_node("node3", &[]),
            ],
            vec![66, 0, 0],
        ),
        (
            "pod with multiple large images, node2 is preferred",
            &test_300_600_900,
            vec![
                node_60040900("node1"),
                node_300600900("node2"),
                image_node("node3", &[]),
            ],
            vec![32, 36, 0],
        ),
        (
            "pod with multiple small images",
            &test_30_40,
            vec![node_203040("node1"), node_400030("node2")],
            vec![1, 0],
        ),
        (
            "include InitContainers: two images spread on two nodes, prefer the larger image one",
            &test_30_init_300,
            vec![node_403002000("node1"), node_203040("node2")],
            vec![6, 0],
        ),
    ];
    for (name, pod, nodes, want) in cases {
        assert_eq!(scores(pod, &nodes), want, "{name}");
    }
}

// upstream: TestNormalizedImageName (pkg/scheduler/framework/plugins/imagelocality/image_locality_test.go).
#[test]
fn normalized_image_name_rows() {
    let digest = "sha256:4813494d137e1631bba301d5acab6e7bb7aa74ce1185d456565ef51d737677b2";
    for (name, input, output) in [
        (
            "add :latest postfix 1",
            "root".to_string(),
            "root:latest".to_string(),
        ),
        (
            "add :latest postfix 2",
            "gcr.io:5000/root".into(),
            "gcr.io:5000/root:latest".into(),
        ),
        ("keep it as is 1", "root:tag".into(), "root:tag".into()),
        (
            "keep it as is 2",
            format!("root@{digest}"),
            format!("root@{digest}"),
        ),
    ] {
        assert_eq!(normalized_image_name(&input), output, "{name}");
    }
}

/// Hand-derived: two otherwise identical nodes; the one holding the pod's 500 MiB image (on 1 of
/// 2 nodes: 250 MiB scaled, score 100 × (250 − 23) / (1000 − 23) = 23) wins the weighted sum,
/// where without ImageLocality the tie would go to the first node by name.
#[test]
fn image_locality_decides_a_tie() {
    let cap = |mut n: Node| {
        for (k, v) in [("cpu", "4"), ("memory", "8Gi"), ("pods", "110")] {
            n.status.capacity.insert(k.into(), Quantity(v.into()));
            n.status.allocatable.insert(k.into(), Quantity(v.into()));
        }
        n
    };
    let mut store = Store::new();
    store.put(Object::Node(cap(image_node("node-a", &[]))));
    store.put(Object::Node(cap(image_node(
        "node-b",
        &[(&["docker.io/library/nginx:1.27", "nginx:latest"], 500)],
    ))));
    let mut p = pod_spec(&[], &["nginx"]);
    p.metadata.name = "web".into();
    p.metadata.namespace = "default".into();
    let states = image_states([
        store.get::<Node>("", "node-a").expect("node-a"),
        store.get::<Node>("", "node-b").expect("node-b"),
    ])
    .expect("images listed");
    assert_eq!(score(&p, &states[1], 2), 23);
    assert_eq!(schedule_pod(&p, &store), Outcome::Bind("node-b".into()));
    // A tagged reference must match a listed name exactly.
    let mut tagged = p.clone();
    tagged.spec_mut().containers[0].image = "nginx:1.27".into();
    assert_eq!(
        schedule_pod(&tagged, &store),
        Outcome::Bind("node-a".into())
    );
}
