//! Hand-derived edge cases of `pkg/controller/history/controller_history.go`.

use super::*;
use crate::api::Time;
use serde_json::json;

fn with_ctx<R>(f: impl FnOnce(&mut Ctx) -> R) -> R {
    let mut api = crate::store::apiserver::ApiServer::new(1, Time::from_unix_secs(0));
    let gates = crate::features::FeatureGates::default();
    let mut queue = crate::queue::WorkQueue::new();
    let mut world = crate::world::World::default();
    let mut actions = vec![];
    let mut ctx = Ctx {
        api: &mut api,
        gates: &gates,
        queue: &mut queue,
        world: &mut world,
        actions: &mut actions,
        component: "statefulset-controller",
    };
    f(&mut ctx)
}

fn parent() -> ObjectMeta {
    ObjectMeta {
        name: "web".into(),
        namespace: "default".into(),
        uid: "uid-web".into(),
        ..Default::default()
    }
}

fn revision_with(data: serde_json::Value, collision_count: Option<i32>) -> ControllerRevision {
    let labels: BTreeMap<String, String> = [("app".to_string(), "web".to_string())].into();
    new_controller_revision(
        &parent(),
        "apps/v1",
        "StatefulSet",
        &labels,
        data,
        1,
        collision_count,
    )
}

/// `CreateControllerRevision` bumps the collision count with `*collisionCount++` on an int32:
/// at math.MaxInt32 a collision wraps it to math.MinInt32 and the next name is hashed with
/// "-2147483648" (strconv.FormatInt), instead of overflowing.
#[test]
fn collision_count_wraps_at_max_int32() {
    with_ctx(|ctx| {
        let mine = revision_with(json!({"spec": {"template": {"v": 1}}}), Some(i32::MAX));
        // Another revision already holds the name hashed with MaxInt32, with different data.
        let mut squatter = revision_with(json!({"spec": {"template": {"v": 2}}}), None);
        squatter.metadata.name = mine.metadata.name.clone();
        ctx.create(Object::ControllerRevision(squatter)).unwrap();

        let mut collision_count = i32::MAX;
        let created = create_controller_revision(ctx, &parent(), &mine, &mut collision_count)
            .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(collision_count, i32::MIN);
        let hash = safe_encode_string(
            &fnv32(b"-2147483648", fnv32(&raw_data(&mine), FNV32_OFFSET)).to_string(),
        );
        assert_eq!(
            created.metadata.name,
            controller_revision_name("web", &hash)
        );
        assert_eq!(
            created.metadata.name,
            controller_revision_name("web", &hash_controller_revision(&mine, Some(i32::MIN)))
        );
    });
}

/// `ControllerRevisionName` cuts the prefix to 223 bytes so that `prefix-hash` stays within
/// 253 characters for a 10-character hash; a shorter prefix is kept whole.
#[test]
fn revision_name_prefix_is_cut_at_223_bytes() {
    let long = "a".repeat(300);
    let name = controller_revision_name(&long, "0123456789");
    assert_eq!(name.len(), 223 + 1 + 10);
    assert!(name.starts_with(&"a".repeat(223)));
    assert_eq!(controller_revision_name("web", "abc"), "web-abc");
}

/// `EqualRevision`: hash labels that parse as int32 (strconv.ParseInt(hs, 10, 32), a sign
/// allowed) and differ make revisions unequal before the data is compared; labels that do not
/// parse (out of int32 range, safe-encoded letters) leave the decision to the data.
#[test]
fn equal_revision_hash_label_shortcut() {
    let data = json!({"k": "v"});
    let with_hash = |h: &str| {
        let mut r = revision_with(data.clone(), None);
        r.metadata
            .labels
            .insert(CONTROLLER_REVISION_HASH_LABEL.into(), h.into());
        r
    };
    assert!(equal_revision(&with_hash("+7"), &with_hash("7")));
    assert!(!equal_revision(&with_hash("7"), &with_hash("8")));
    assert!(equal_revision(&with_hash("2147483648"), &with_hash("1")));
    assert!(equal_revision(&with_hash("bcd"), &with_hash("xyz")));
}
