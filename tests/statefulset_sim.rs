//! StatefulSet scenarios on the full simulation (scheduler, kubelets, volume binder, garbage
//! collector): the seed's `web` example through creation, scaling, rolling and partitioned
//! updates and its failure cases, asserted on the event trace. Timeline steps are driven through
//! the API (what `kubectl scale/apply/delete` do), so the tests do not depend on kubectl.

use kubeplay::api::{Duration, EventRecord, Object, PersistentVolumeClaim, Pod, StatefulSet};
use kubeplay::controllers::statefulset::stateful_set_utils::{
    get_ordinal, get_pod_revision, is_running_and_ready,
};
use kubeplay::scenario::{builtin, Scenario};
use kubeplay::sim::Simulation;
use kubeplay::store::apiserver::DeleteOptions;

fn build(name: &str) -> Simulation {
    let mut s = Scenario::parse(builtin::get(name).expect("builtin")).expect("parses");
    // The timelines speak kubectl; these tests drive the same steps through the API.
    s.timeline.clear();
    s.build().expect("builds")
}

fn at(sim: &mut Simulation, secs: i64) {
    let t = sim.start + Duration::from_secs(secs);
    sim.run_until(t).unwrap();
}

fn sts(sim: &Simulation) -> StatefulSet {
    sim.api
        .store
        .get::<StatefulSet>("default", "web")
        .cloned()
        .unwrap()
}

fn update_sts(sim: &mut Simulation, f: impl FnOnce(&mut StatefulSet)) {
    let mut s = sts(sim);
    f(&mut s);
    s.metadata.resource_version.clear();
    sim.api.update(Object::StatefulSet(s)).unwrap();
}

fn pod(sim: &Simulation, name: &str) -> Option<Pod> {
    sim.api.store.get::<Pod>("default", name).cloned()
}

fn sts_events(sim: &Simulation) -> Vec<&EventRecord> {
    sim.api
        .events
        .iter()
        .filter(|e| e.kind == "StatefulSet" && e.source == "statefulset-controller")
        .collect()
}

/// (seconds since start, message) of the StatefulSet's events.
fn trace(sim: &Simulation) -> Vec<(i64, String)> {
    sts_events(sim)
        .iter()
        .map(|e| ((e.time - sim.start).0 / 1000, e.message.clone()))
        .collect()
}

fn time_of(sim: &Simulation, message: &str) -> i64 {
    trace(sim)
        .iter()
        .find(|(_, m)| m == message)
        .unwrap_or_else(|| panic!("no event {message:?} in {:#?}", trace(sim)))
        .0
}

fn times_of(sim: &Simulation, message: &str) -> Vec<i64> {
    trace(sim)
        .iter()
        .filter(|(_, m)| m == message)
        .map(|(t, _)| *t)
        .collect()
}

/// When the pod's Ready condition last became True (seconds since start).
fn ready_at(sim: &Simulation, name: &str) -> i64 {
    let p = pod(sim, name).unwrap();
    let c = p.condition("Ready").unwrap();
    assert_eq!(c.status, "True", "{name} ready");
    (c.last_transition_time.unwrap() - sim.start).0 / 1000
}

fn create_msg(o: i32) -> String {
    format!("create Pod web-{o} in StatefulSet web successful")
}

fn claim_msg(o: i32) -> String {
    format!("create Claim www-web-{o} Pod web-{o} in StatefulSet web success")
}

fn delete_msg(o: i32) -> String {
    format!("delete Pod web-{o} in StatefulSet web successful")
}

#[test]
fn web_is_created_in_order_claims_first() {
    let mut sim = build("statefulset-web");
    at(&mut sim, 60);
    let t = trace(&sim);
    let msgs: Vec<&str> = t.iter().map(|(_, m)| m.as_str()).collect();
    assert_eq!(
        msgs,
        [
            claim_msg(0).as_str(),
            &create_msg(0),
            &claim_msg(1),
            &create_msg(1),
            &claim_msg(2),
            &create_msg(2),
        ]
    );
    // web-1 is created exactly when web-0 became Running and Ready, web-2 when web-1 did.
    assert_eq!(time_of(&sim, &create_msg(1)), ready_at(&sim, "web-0"));
    assert_eq!(time_of(&sim, &create_msg(2)), ready_at(&sim, "web-1"));
    assert!(ready_at(&sim, "web-0") > 0);
    // Identity: hostname, subdomain, labels, storage.
    for o in 0..3 {
        let p = pod(&sim, &format!("web-{o}")).unwrap();
        assert_eq!(p.spec.hostname, format!("web-{o}"));
        assert_eq!(p.spec.subdomain, "nginx");
        assert_eq!(
            p.metadata.labels["statefulset.kubernetes.io/pod-name"],
            format!("web-{o}")
        );
        assert_eq!(
            p.metadata.labels["apps.kubernetes.io/pod-index"],
            o.to_string()
        );
        let vols = serde_json::to_value(&p.spec).unwrap()["volumes"].clone();
        assert_eq!(
            vols[0]["persistentVolumeClaim"]["claimName"],
            format!("www-web-{o}")
        );
        let c = sim
            .api
            .store
            .get::<PersistentVolumeClaim>("default", &format!("www-web-{o}"))
            .unwrap();
        assert_eq!(c.status.phase, "Bound");
    }
    let s = sts(&sim).status;
    assert_eq!(
        (
            s.replicas,
            s.ready_replicas,
            s.available_replicas,
            s.current_replicas,
            s.updated_replicas
        ),
        (3, 3, 3, 3, 3)
    );
    assert!(!s.current_revision.is_empty());
    assert_eq!(s.current_revision, s.update_revision);
}

#[test]
fn web_scales_down_in_reverse_and_back_up_on_the_same_claims() {
    let mut sim = build("statefulset-web");
    at(&mut sim, 90);
    update_sts(&mut sim, |s| s.spec.replicas = Some(1));
    at(&mut sim, 150);
    assert!(pod(&sim, "web-2").is_none() && pod(&sim, "web-1").is_none());
    let d2 = time_of(&sim, &delete_msg(2));
    let d1 = time_of(&sim, &delete_msg(1));
    assert!(
        d2 >= 90 && d1 > d2,
        "web-2 first, web-1 after it is gone: {d2} {d1}"
    );
    assert!(pod(&sim, "web-0").is_some());
    // "Deleting and/or scaling a StatefulSet down will not delete the volumes."
    assert_eq!(sim.api.store.list::<PersistentVolumeClaim>(None).count(), 3);
    update_sts(&mut sim, |s| s.spec.replicas = Some(3));
    at(&mut sim, 240);
    let creates1 = times_of(&sim, &create_msg(1));
    let creates2 = times_of(&sim, &create_msg(2));
    assert_eq!((creates1.len(), creates2.len()), (2, 2));
    assert!(creates2[1] > creates1[1]);
    // No new claims: the pods come back to their old volumes.
    assert_eq!(times_of(&sim, &claim_msg(1)).len(), 1);
    assert_eq!(sts(&sim).status.ready_replicas, 3);
}

/// Drives a rolling update to the end and returns the order in which pods were deleted.
fn deletion_order(sim: &Simulation, since: i64) -> Vec<i32> {
    trace(sim)
        .iter()
        .filter(|(t, m)| *t >= since && m.starts_with("delete Pod"))
        .map(|(_, m)| {
            m.trim_start_matches("delete Pod web-")
                .split(' ')
                .next()
                .unwrap()
                .parse()
                .unwrap()
        })
        .collect()
}

#[test]
fn rolling_update_goes_from_the_largest_ordinal_one_at_a_time() {
    let mut sim = build("statefulset-rolling-update");
    at(&mut sim, 60);
    let old = sts(&sim).status.current_revision.clone();
    update_sts(&mut sim, |s| {
        s.spec.template_mut().spec_mut().containers[0].image =
            "registry.k8s.io/nginx-slim:0.25".into()
    });
    at(&mut sim, 180);
    assert_eq!(deletion_order(&sim, 60), [2, 1, 0]);
    // Each predecessor is deleted only after the updated pod is Running and Ready.
    let d1 = time_of(&sim, &delete_msg(1));
    let d0 = time_of(&sim, &delete_msg(0));
    assert!(d1 >= ready_at(&sim, "web-2"));
    assert!(d0 >= ready_at(&sim, "web-1"));
    let s = sts(&sim).status;
    assert_ne!(s.update_revision, old);
    assert_eq!(s.current_revision, s.update_revision, "rollout complete");
    for o in 0..3 {
        assert_eq!(
            get_pod_revision(&pod(&sim, &format!("web-{o}")).unwrap()),
            s.update_revision
        );
        assert_eq!(
            pod(&sim, &format!("web-{o}")).unwrap().spec.containers[0].image,
            "registry.k8s.io/nginx-slim:0.25"
        );
    }
}

#[test]
fn partition_is_a_canary_until_lowered() {
    let mut sim = build("statefulset-canary");
    at(&mut sim, 60);
    let old = sts(&sim).status.current_revision.clone();
    update_sts(&mut sim, |s| {
        s.spec.template_mut().spec_mut().containers[0].image =
            "registry.k8s.io/nginx-slim:0.25".into()
    });
    at(&mut sim, 120);
    let new = sts(&sim).status.update_revision.clone();
    let revs = |sim: &Simulation| -> Vec<String> {
        (0..3)
            .map(|o| get_pod_revision(&pod(sim, &format!("web-{o}")).unwrap()).to_string())
            .collect()
    };
    assert_eq!(revs(&sim), [old.clone(), old.clone(), new.clone()]);
    assert_eq!(sts(&sim).status.current_revision, old);
    // A deleted pod below the partition comes back at the old revision.
    sim.api
        .delete("Pod", "default", "web-1", &DeleteOptions::default())
        .unwrap();
    at(&mut sim, 160);
    assert_eq!(revs(&sim), [old.clone(), old.clone(), new.clone()]);
    update_sts(&mut sim, |s| {
        s.spec
            .update_strategy
            .rolling_update
            .as_mut()
            .unwrap()
            .partition = Some(0)
    });
    at(&mut sim, 240);
    assert_eq!(revs(&sim), [new.clone(), new.clone(), new.clone()]);
    assert_eq!(deletion_order(&sim, 160), [1, 0]);
    assert_eq!(sts(&sim).status.current_revision, new);
}

#[test]
fn a_failing_web_0_holds_back_web_2() {
    let mut sim = build("statefulset-ordered-failure");
    at(&mut sim, 35);
    // web-0 (Ready at 32 s) fails while web-1 is Running but not yet Ready.
    assert!(is_running_and_ready(&pod(&sim, "web-0").unwrap()));
    assert!(!is_running_and_ready(&pod(&sim, "web-1").unwrap()));
    sim.api
        .delete("Pod", "default", "web-0", &DeleteOptions::default())
        .unwrap();
    at(&mut sim, 120);
    let web1_ready = ready_at(&sim, "web-1");
    let web0_back = ready_at(&sim, "web-0");
    let web2_created = time_of(&sim, &create_msg(2));
    assert!(
        web1_ready < web0_back,
        "web-1 Ready ({web1_ready}) before web-0 is back ({web0_back})"
    );
    assert_eq!(
        web2_created, web0_back,
        "web-2 waits for the relaunched web-0"
    );
    assert_eq!(times_of(&sim, &create_msg(0)).len(), 2);
}

#[test]
fn forced_rollback_needs_a_manual_delete() {
    let mut sim = build("statefulset-forced-rollback");
    at(&mut sim, 60);
    let good = sts(&sim).status.current_revision.clone();
    update_sts(&mut sim, |s| {
        s.spec.template_mut().spec_mut().containers[0].image =
            "registry.k8s.io/nginx-slim:0.99-broken".into()
    });
    at(&mut sim, 120);
    let bad = sts(&sim).status.update_revision.clone();
    let broken = pod(&sim, "web-2").unwrap();
    assert_eq!(get_pod_revision(&broken), bad);
    assert!(!is_running_and_ready(&broken));
    let waiting = serde_json::to_value(&broken.status.container_statuses[0]).unwrap();
    assert!(
        waiting["state"]["waiting"]["reason"]
            .as_str()
            .is_some_and(|r| r == "ImagePullBackOff" || r == "ErrImagePull"),
        "{waiting}"
    );
    assert_eq!(
        deletion_order(&sim, 60),
        [2],
        "the rollout stopped at web-2"
    );
    // Revert the template: the good revision is the update revision again...
    update_sts(&mut sim, |s| {
        s.spec.template_mut().spec_mut().containers[0].image =
            "registry.k8s.io/nginx-slim:0.24".into()
    });
    at(&mut sim, 240);
    let s = sts(&sim);
    assert_eq!(s.status.update_revision, good);
    // ...but the broken pod is left alone.
    let still = pod(&sim, "web-2").unwrap();
    assert_eq!(still.metadata.uid, broken.metadata.uid);
    assert_eq!(get_pod_revision(&still), bad);
    assert_eq!(deletion_order(&sim, 60), [2]);
    // Deleting it by hand lets the set recover.
    sim.api
        .delete("Pod", "default", "web-2", &DeleteOptions::default())
        .unwrap();
    at(&mut sim, 360);
    let fixed = pod(&sim, "web-2").unwrap();
    assert_eq!(get_pod_revision(&fixed), good);
    assert!(is_running_and_ready(&fixed));
    assert_eq!(sts(&sim).status.current_revision, good);
    assert_eq!(sts(&sim).status.ready_replicas, 3);
}

#[test]
fn deleting_the_set_with_when_deleted_delete_collects_claims() {
    let mut sim = build("statefulset-web");
    update_sts(&mut sim, |s| {
        s.spec.persistent_volume_claim_retention_policy = Some(
            kubeplay::api::StatefulSetPersistentVolumeClaimRetentionPolicy {
                when_deleted: "Delete".into(),
                when_scaled: "Delete".into(),
            },
        )
    });
    at(&mut sim, 60);
    // Scale down: the claim of the condemned pod goes after its pod.
    update_sts(&mut sim, |s| s.spec.replicas = Some(2));
    at(&mut sim, 120);
    let claims = |sim: &Simulation| -> Vec<String> {
        sim.api
            .store
            .list::<PersistentVolumeClaim>(Some("default"))
            .map(|c| c.metadata.name.clone())
            .collect()
    };
    assert_eq!(claims(&sim), ["www-web-0", "www-web-1"]);
    // Delete the set: its pods and the remaining claims are garbage-collected.
    sim.api
        .delete("StatefulSet", "default", "web", &DeleteOptions::default())
        .unwrap();
    at(&mut sim, 240);
    assert!(sim.api.store.list::<Pod>(Some("default")).next().is_none());
    assert!(claims(&sim).is_empty());
}

#[test]
fn scenarios_are_deterministic() {
    let run = |name: &str| {
        let mut sim = build(name);
        at(&mut sim, 200);
        serde_json::to_string(&kubeplay::trace::RunDocument::of(&sim)).unwrap()
    };
    for name in [
        "statefulset-web",
        "statefulset-ordered-failure",
        "statefulset-forced-rollback",
    ] {
        assert_eq!(run(name), run(name), "{name}");
    }
}

#[test]
fn ordinals_are_parsed_from_names() {
    let mut p = Pod::default();
    p.metadata.name = "web-12".into();
    assert_eq!(get_ordinal(&p), 12);
}

/// Runs a built-in scenario as written (its kubectl timeline included) to its end.
fn run_builtin(name: &str) -> Simulation {
    let s = Scenario::parse(builtin::get(name).expect("builtin")).expect("parses");
    let mut sim = s.build().expect("builds");
    let end = sim.start + s.default_duration().expect("duration");
    sim.run_until(end).unwrap();
    for l in &sim.log {
        assert!(l.ok, "{name}: `{}` failed: {}", l.action, l.output);
    }
    sim
}

/// The StatefulSet's pod creations and deletions, in order, as ("create"|"delete", ordinal).
fn pod_ops(sim: &Simulation) -> Vec<(&'static str, i32)> {
    trace(sim)
        .iter()
        .filter_map(|(_, m)| {
            let (verb, rest) = if let Some(r) = m.strip_prefix("create Pod web-") {
                ("create", r)
            } else if let Some(r) = m.strip_prefix("delete Pod web-") {
                ("delete", r)
            } else {
                return None;
            };
            Some((verb, rest.split(' ').next()?.parse().ok()?))
        })
        .collect()
}

#[test]
fn builtin_web_timeline_as_written() {
    let sim = run_builtin("statefulset-web");
    assert_eq!(
        pod_ops(&sim),
        [
            ("create", 0),
            ("create", 1),
            ("create", 2),
            ("delete", 2),
            ("delete", 1),
            ("create", 1),
            ("create", 2),
        ]
    );
    let out: Vec<&str> = sim.log.iter().map(|l| l.output.as_str()).collect();
    assert!(out
        .iter()
        .any(|o| o.contains("statefulset.apps/web scaled")));
}

#[test]
fn builtin_rollouts_as_written() {
    let sim = run_builtin("statefulset-rolling-update");
    let ops = pod_ops(&sim);
    assert_eq!(
        &ops[3..],
        [
            ("delete", 2),
            ("create", 2),
            ("delete", 1),
            ("create", 1),
            ("delete", 0),
            ("create", 0)
        ]
    );
    let sim = run_builtin("statefulset-canary");
    assert_eq!(
        &pod_ops(&sim)[3..],
        [
            ("delete", 2),
            ("create", 2),
            ("create", 1),
            ("delete", 1),
            ("create", 1),
            ("delete", 0),
            ("create", 0)
        ]
    );
    let sim = run_builtin("statefulset-forced-rollback");
    assert_eq!(
        &pod_ops(&sim)[3..],
        [("delete", 2), ("create", 2), ("create", 2)]
    );
    assert_eq!(sts(&sim).status.ready_replicas, 3);
    assert_eq!(
        sts(&sim).status.current_revision,
        sts(&sim).status.update_revision
    );
    let sim = run_builtin("statefulset-ordered-failure");
    assert_eq!(
        pod_ops(&sim),
        [("create", 0), ("create", 1), ("create", 0), ("create", 2)]
    );
}
