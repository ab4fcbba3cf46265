//! Row-level audit of kubectl texts against the kubectl releases of Kubernetes 1.35
//! (staging/src/k8s.io/kubectl): changes merged for 1.35 that the earlier ports predate.

use super::execute;
use super::testutil::{labels, load_pod, running_pod, sim};
use crate::api::Object;
use serde_json::json;

// upstream: DescribeEvents (staging/src/k8s.io/kubectl/pkg/describe/describe.go), as changed
// by kubernetes/kubernetes#133627 (1.35, "kubectl: include container fieldPath in event
// messages"): an event about a part of the object prefixes its message with
// `involvedObject.fieldPath`; an event about the whole object keeps its message alone.
#[test]
fn describe_events_prefix_the_field_path() {
    let mut sim = sim();
    let pod = Object::from_value(json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "bar", "namespace": "foo"},
        "spec": {"containers": [{"name": "nginx", "image": "nginx"}]}}))
    .unwrap();
    sim.api.store.put(pod.clone());
    sim.api.record_event_from_host(
        "Pod",
        pod.meta(),
        "Normal",
        "Pulling",
        "Pulling image \"nginx\"  ",
        "kubelet",
        "node-1",
        "spec.containers{nginx}",
    );
    sim.api.record_event(
        &pod,
        "Normal",
        "Scheduled",
        "Successfully assigned",
        "default-scheduler",
    );
    let out = execute(&mut sim, "describe pod bar -n foo").unwrap();
    let line = |reason: &str| {
        out.lines()
            .find(|l| l.contains(reason))
            .unwrap_or_else(|| panic!("{reason} not in\n{out}"))
            .to_string()
    };
    // From is source.component alone in describe (the host shows in `get events -o wide`).
    let pulling = line("Pulling");
    assert!(
        pulling.ends_with(" kubelet            spec.containers{nginx}: Pulling image \"nginx\""),
        "{out}"
    );
    assert!(
        line("Scheduled").ends_with(" default-scheduler  Successfully assigned"),
        "{out}"
    );
}

// upstream: RunScale (staging/src/k8s.io/kubectl/pkg/cmd/scale/scale.go), as changed by
// kubernetes/kubernetes commit bb21080626de (1.35, "standardize not found error message of
// kubectl scale"): with nothing to scale, the visit error is returned unwrapped, so a missing
// object reads as every other command's NotFound.
#[test]
fn scale_missing_object_is_a_plain_not_found() {
    let mut sim = sim();
    assert_eq!(
        execute(&mut sim, "scale deployment nope --replicas=1").unwrap_err(),
        "Error from server (NotFound): deployments.apps \"nope\" not found"
    );
    assert_eq!(
        execute(&mut sim, "scale statefulset nope --replicas=1").unwrap_err(),
        "Error from server (NotFound): statefulsets.apps \"nope\" not found"
    );
}

// upstream: TestLabelMsg (staging/src/k8s.io/kubectl/pkg/cmd/label/label_test.go), 1.35
// (kubernetes#134849): the message counts the keys actually added and removed, so adding and
// removing is `modified`, removing a missing key beside an addition is only `labeled`, and
// re-setting a label to its value is `not labeled`.
#[test]
fn label_msg_counts_actual_changes() {
    let put = |sim: &mut crate::sim::Simulation, l: &[(&str, &str)]| {
        let mut p = running_pod("p", "default", "node-1");
        p.metadata.labels = labels(l).into();
        load_pod(sim, p);
    };
    let cases = [
        (&[("a", "b"), ("c", "d")][..], "e=f a-", "pod/p modified"),
        (
            &[("a", "b")],
            "e=f zz- --dry-run=client",
            "pod/p labeled (dry run)",
        ),
        (&[("a", "b")], "a=b --overwrite", "pod/p not labeled"),
    ];
    for (labels, args, want) in cases {
        let mut s = sim();
        put(&mut s, labels);
        assert_eq!(
            execute(&mut s, &format!("label pod p {args}")).unwrap(),
            want,
            "{args}"
        );
    }
}
