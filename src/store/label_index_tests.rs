//! The label index's sets of one pod (held without a map) and of several, through adds,
//! replacements and removals.

use super::*;
use crate::api::meta::ObjectMeta;
use crate::api::{Pod, Requirement, Selector};

fn pod(name: &str, labels: &[(&str, &str)]) -> Object {
    Pod {
        metadata: ObjectMeta {
            name: name.into(),
            namespace: "default".into(),
            uid: format!("u-{name}"),
            labels: labels
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect::<BTreeMap<_, _>>()
                .into(),
            ..Default::default()
        },
        ..Default::default()
    }
    .into_object()
}

fn names<'a>(pods: impl IntoIterator<Item = &'a Pod>) -> Vec<String> {
    pods.into_iter().map(|p| p.metadata.name.clone()).collect()
}

fn with_label(s: &Store, value: &str) -> Vec<String> {
    names(s.pods_with_label("default", "app", value))
}

#[test]
fn one_pod_sets_grow_shrink_and_follow_new_versions() {
    let mut s = Store::new();
    s.put(pod("b", &[("app", "web")]));
    assert_eq!(with_label(&s, "web"), ["b"]);
    // A second pod, named before the first: name order.
    s.put(pod("a", &[("app", "web")]));
    assert_eq!(with_label(&s, "web"), ["a", "b"]);
    s.remove(&ObjectRef::new("Pod", "default", "a"));
    assert_eq!(with_label(&s, "web"), ["b"]);
    // A new version of a pod alone in its set is the one returned.
    let mut newer = pod("b", &[("app", "web")]);
    newer.meta_mut().generation = 7;
    s.put(newer);
    let got: Vec<i64> = s
        .pods_with_label("default", "app", "web")
        .map(|p| p.metadata.generation)
        .collect();
    assert_eq!(got, [7]);
    // Relabelled away: the value's set is gone.
    s.put(pod("b", &[("app", "api")]));
    assert!(with_label(&s, "web").is_empty());
    assert_eq!(with_label(&s, "api"), ["b"]);
    s.remove(&ObjectRef::new("Pod", "default", "b"));
    assert!(s.pods_by_label.is_empty());
}

#[test]
fn selector_candidates_merge_single_and_shared_sets_in_name_order() {
    let mut s = Store::new();
    s.put(pod("c", &[("app", "x")]));
    s.put(pod("a", &[("app", "y")]));
    s.put(pod("b", &[("app", "y")]));
    s.put(pod("d", &[("app", "z")]));
    let sel = Selector::Requirements(vec![Requirement::In(
        "app".into(),
        vec!["x".into(), "y".into(), "z".into()],
    )]);
    assert_eq!(
        names(s.pods_selector_candidates("default", &sel)),
        ["a", "b", "c", "d"]
    );
    let one = Selector::Requirements(vec![Requirement::In("app".into(), vec!["x".into()])]);
    assert_eq!(names(s.pods_selector_candidates("default", &one)), ["c"]);
}
