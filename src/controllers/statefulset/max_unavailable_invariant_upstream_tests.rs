//! Port of `TestStatefulSetControlRollingUpdateWithMaxUnavailableInOrderedModeVerifyInvariant`
//! (pkg/controller/statefulset/stateful_set_control_test.go): `updateStatefulSetAfterInvariantEstablished`
//! called directly with some pods terminating.

use super::pod_control_tests::Env;
use super::stateful_set_control::update_stateful_set_after_invariant_established;
use super::stateful_set_utils::*;
use super::tests::{new_pod, new_stateful_set};
use crate::api::{IntOrString, Object, Pod, StatefulSet, StatefulSetStatus, Time};

// upstream: TestStatefulSetControlRollingUpdateWithMaxUnavailableInOrderedModeVerifyInvariant
// (every row): 6 Running and Ready pods of an old revision, partition 3, maxUnavailable 2; the
// pods at the listed ordinals are terminating. Every terminating pod (inside or below the
// partition) counts as unavailable, so max(0, 2 − terminating) pods are deleted, highest
// ordinal first, skipping the terminating ones.
#[test]
fn max_unavailable_counts_terminating_pods() {
    let rows: [&[i32]; 10] = [
        &[],
        &[5],
        &[3],
        &[4],
        &[5, 4],
        &[5, 3],
        &[4, 3],
        &[5, 4, 3],
        &[2],
        &[1],
    ];
    for terminating in rows {
        let mut env = Env::new();
        let mut set = new_stateful_set(6);
        set.spec.update_strategy.rolling_update =
            Some(crate::api::RollingUpdateStatefulSetStrategy {
                partition: Some(3),
                max_unavailable: Some(IntOrString::Int(2)),
            });
        let set = match env.api.load(Object::StatefulSet(set)).unwrap() {
            Object::StatefulSet(s) => s,
            o => panic!("not a StatefulSet: {o:?}"),
        };
        let now = Time::from_unix_secs(1_735_689_600);
        let mut replicas: Vec<Pod> = vec![];
        for o in 0..6 {
            let mut p = new_pod(&set, o);
            set_pod_revision(&mut p, "rev-old");
            p.status.phase = "Running".into();
            p.set_condition("Ready", "True", "", "", now);
            let p = match env.api.load(Object::Pod(p)).unwrap() {
                Object::Pod(p) => p,
                o => panic!("not a Pod: {o:?}"),
            };
            replicas.push(p);
        }
        for &o in terminating {
            replicas[o as usize].metadata.deletion_timestamp = Some(now);
        }
        let status = StatefulSetStatus {
            replicas: 6,
            current_replicas: 6,
            ..Default::default()
        };
        let mut set_now: StatefulSet = set.clone();
        set_now.spec.template_mut().spec_mut().containers[0].image = "foo".into();
        let (st, err) = update_stateful_set_after_invariant_established(
            &mut env.ctx(),
            &set_now,
            &replicas,
            "",
            status,
            now,
        );
        assert!(err.is_none(), "{terminating:?}: {err:?}");
        let want_deleted = (2 - terminating.len() as i32).max(0);
        let left = env.api.store.list::<Pod>(Some("default")).count() as i32;
        assert_eq!(left, 6 - want_deleted, "{terminating:?}");
        assert_eq!(
            st.map(|s| s.current_replicas),
            Some(6 - want_deleted),
            "{terminating:?}"
        );
        // The deleted pods are the highest non-terminating ordinals at or above the partition.
        let mut expect_gone: Vec<i32> = (3..6).rev().filter(|o| !terminating.contains(o)).collect();
        expect_gone.truncate(want_deleted as usize);
        for o in expect_gone {
            assert!(
                env.api
                    .store
                    .get::<Pod>("default", &format!("foo-{o}"))
                    .is_none(),
                "{terminating:?}: foo-{o} deleted"
            );
        }
    }
}
