//! ControllerRevision history (`pkg/controller/history/controller_history.go`): revision hashing
//! and naming with collision counts, sorting, equality, and the API calls the StatefulSet and
//! DaemonSet controllers make on revisions.

use crate::api::{go_json, ApiError, ControllerRevision, Object, ObjectMeta, Selector};
use crate::controllers::controller_utils::new_controller_ref;
use crate::controllers::deployment::util::safe_encode_string;
use crate::controllers::into_owned;
use crate::controllers::Ctx;
use crate::store::apiserver::DeleteOptions;
use crate::store::Store;
use serde_json::Value;
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// `ControllerRevisionHashLabel`: the label holding the hash of a revision's data.
pub const CONTROLLER_REVISION_HASH_LABEL: &str = "controller.kubernetes.io/hash";

/// `ControllerRevisionName`: `<prefix>-<hash>`, the prefix cut to 223 bytes so the name stays
/// within 253.
pub fn controller_revision_name(prefix: &str, hash: &str) -> String {
    let mut end = prefix.len().min(223);
    while !prefix.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}-{hash}", &prefix[..end])
}

/// FNV-1 32-bit (`hash/fnv.New32`: multiply, then xor — not the 1a variant).
pub fn fnv32(bytes: &[u8], mut h: u32) -> u32 {
    for b in bytes {
        h = h.wrapping_mul(16_777_619);
        h ^= u32::from(*b);
    }
    h
}

/// The FNV-32 offset basis.
pub const FNV32_OFFSET: u32 = 2_166_136_261;

/// The raw bytes of a revision's data as upstream stores them: Go's `json.Marshal` (compact,
/// keys sorted).
pub fn raw_data(r: &ControllerRevision) -> Vec<u8> {
    r.data
        .as_ref()
        .map(go_json)
        .unwrap_or_default()
        .into_bytes()
}

/// `HashControllerRevision`: FNV-32 over the raw data, then — when `probe` is given — the
/// decimal collision count, printed in decimal and encoded with `rand.SafeEncodeString`.
pub fn hash_controller_revision(r: &ControllerRevision, probe: Option<i32>) -> String {
    let mut h = fnv32(&raw_data(r), FNV32_OFFSET);
    if let Some(p) = probe {
        h = fnv32(p.to_string().as_bytes(), h);
    }
    safe_encode_string(&h.to_string())
}

/// `NewControllerRevision`: a revision controlled by `parent` (of `kind`), labelled with the
/// template labels plus the hash label, named `<parent>-<hash>`.
pub fn new_controller_revision(
    parent: &ObjectMeta,
    api_version: &str,
    kind: &str,
    template_labels: &BTreeMap<String, String>,
    data: Value,
    revision: i64,
    collision_count: Option<i32>,
) -> ControllerRevision {
    let mut cr = ControllerRevision {
        api_version: "apps/v1".into(),
        kind: "ControllerRevision".into(),
        metadata: ObjectMeta {
            namespace: parent.namespace.clone(),
            labels: template_labels.clone(),
            owner_references: vec![new_controller_ref(parent, api_version, kind)],
            ..Default::default()
        },
        data: Some(data),
        revision,
    };
    let hash = hash_controller_revision(&cr, collision_count);
    cr.metadata.name = controller_revision_name(&parent.name, &hash);
    cr.metadata
        .labels
        .insert(CONTROLLER_REVISION_HASH_LABEL.into(), hash);
    cr
}

/// The patch both StatefulSet and DaemonSet revisions store (`getPatch`): a strategic-merge
/// patch replacing the pod template, `{"spec":{"template":{..., "$patch":"replace"}}}`. The
/// template is encoded as Go encodes it, so its metadata carries `creationTimestamp: null`.
pub fn template_patch(template: &crate::api::PodTemplateSpec) -> Value {
    let mut t = serde_json::to_value(template).unwrap_or(Value::Null);
    if let Some(m) = t.get_mut("metadata").and_then(Value::as_object_mut) {
        m.entry("creationTimestamp").or_insert(Value::Null);
    }
    if let Some(o) = t.as_object_mut() {
        o.insert("$patch".into(), Value::from("replace"));
    }
    serde_json::json!({"spec": {"template": t}})
}

/// The template stored in a revision's patch (the inverse of [`template_patch`]), if any.
pub fn template_from_patch(data: &Value) -> Option<crate::api::PodTemplateSpec> {
    let mut t = data.pointer("/spec/template")?.clone();
    let o = t.as_object_mut()?;
    o.remove("$patch");
    if let Some(m) = o.get_mut("metadata").and_then(Value::as_object_mut) {
        if m.get("creationTimestamp") == Some(&Value::Null) {
            m.remove("creationTimestamp");
        }
    }
    serde_json::from_value(t).ok()
}

/// `byRevision.Less`: revision ascending; ties by creation timestamp, then name.
pub fn cmp_by_revision(a: &ControllerRevision, b: &ControllerRevision) -> Ordering {
    a.revision
        .cmp(&b.revision)
        .then_with(|| {
            a.metadata
                .creation_timestamp
                .unwrap_or(crate::api::Time::ZERO)
                .cmp(
                    &b.metadata
                        .creation_timestamp
                        .unwrap_or(crate::api::Time::ZERO),
                )
        })
        .then_with(|| a.metadata.name.cmp(&b.metadata.name))
}

/// `SortControllerRevisions` (a stable sort by [`cmp_by_revision`]).
pub fn sort_controller_revisions(revisions: &mut [ControllerRevision]) {
    revisions.sort_by(cmp_by_revision);
}

/// `EqualRevision`: equal data (hash labels that parse as integers and differ short-circuit to
/// false, as upstream; safe-encoded hashes never parse, so in practice the data decides).
pub fn equal_revision(lhs: &ControllerRevision, rhs: &ControllerRevision) -> bool {
    let hash = |r: &ControllerRevision| {
        r.metadata
            .labels
            .get(CONTROLLER_REVISION_HASH_LABEL)
            .and_then(|h| h.parse::<i32>().ok())
    };
    if let (Some(a), Some(b)) = (hash(lhs), hash(rhs)) {
        if a != b {
            return false;
        }
    }
    raw_data(lhs) == raw_data(rhs)
}

/// `FindEqualRevisions`: the revisions equal to `needle`, in order.
pub fn find_equal_revisions<'a>(
    revisions: &'a [ControllerRevision],
    needle: &ControllerRevision,
) -> Vec<&'a ControllerRevision> {
    revisions
        .iter()
        .filter(|r| equal_revision(r, needle))
        .collect()
}

/// `nextRevision`: one more than the last (sorted) revision, 1 for an empty history.
pub fn next_revision(revisions: &[ControllerRevision]) -> i64 {
    revisions.last().map_or(1, |r| r.revision + 1)
}

/// `ListControllerRevisions`: revisions in the parent's namespace that match the selector and
/// are controlled by the parent or by nobody, in (name) order.
pub fn list_controller_revisions(
    store: &Store,
    parent: &ObjectMeta,
    selector: &Selector,
) -> Vec<ControllerRevision> {
    store
        .list::<ControllerRevision>(Some(&parent.namespace))
        .filter(|r| selector.matches(&r.metadata.labels))
        .filter(|r| {
            r.metadata
                .controller_ref()
                .is_none_or(|c| c.uid == parent.uid)
        })
        .cloned()
        .collect()
}

fn revision_of(o: Object) -> Option<ControllerRevision> {
    match o {
        Object::ControllerRevision(r) => Some(r),
        _ => None,
    }
}

/// `CreateControllerRevision`: create `revision` under a name hashed with the collision count;
/// on a name clash with different data, bump the collision count and try again; on a clash with
/// the same data, return the existing revision.
///
/// # Errors
/// The API server's error (other than AlreadyExists).
pub fn create_controller_revision(
    ctx: &mut Ctx,
    parent: &ObjectMeta,
    revision: &ControllerRevision,
    collision_count: &mut i32,
) -> Result<ControllerRevision, ApiError> {
    let mut clone = revision.clone();
    clone.metadata.namespace = parent.namespace.clone();
    // A real hash collision needs 2^32 tries in theory; bound the loop anyway.
    for _ in 0..1000 {
        let hash = hash_controller_revision(revision, Some(*collision_count));
        clone.metadata.name = controller_revision_name(&parent.name, &hash);
        match ctx.create(Object::ControllerRevision(clone.clone())) {
            Ok(o) => return Ok(revision_of(into_owned(o)).unwrap_or(clone)),
            Err(e) if e.is_already_exists() => {
                let existing = ctx
                    .store()
                    .get::<ControllerRevision>(&parent.namespace, &clone.metadata.name)
                    .cloned()
                    .ok_or_else(|| {
                        ApiError::not_found("controllerrevisions.apps", &clone.metadata.name)
                    })?;
                if raw_data(&existing) == raw_data(&clone) {
                    return Ok(existing);
                }
                *collision_count += 1;
            }
            Err(e) => return Err(e),
        }
    }
    Err(crate::controllers::controller_ref_manager::internal_error(
        "too many ControllerRevision name collisions",
    ))
}

/// `UpdateControllerRevision`: set the revision number (no-op when it already has it).
///
/// # Errors
/// The API server's error.
pub fn update_controller_revision(
    ctx: &mut Ctx,
    revision: &ControllerRevision,
    new_revision: i64,
) -> Result<ControllerRevision, ApiError> {
    if revision.revision == new_revision {
        return Ok(revision.clone());
    }
    let mut clone = revision.clone();
    clone.revision = new_revision;
    clone.metadata.resource_version.clear();
    ctx.update(Object::ControllerRevision(clone.clone()))
        .map(|o| revision_of(into_owned(o)).unwrap_or(clone))
}

/// `DeleteControllerRevision`.
///
/// # Errors
/// The API server's error.
pub fn delete_controller_revision(
    ctx: &mut Ctx,
    revision: &ControllerRevision,
) -> Result<(), ApiError> {
    ctx.delete::<ControllerRevision>(
        &revision.metadata.namespace,
        &revision.metadata.name,
        &DeleteOptions::default(),
    )
    .map(|_| ())
}

/// `AdoptControllerRevision`: make `parent` the controller of an orphaned revision.
///
/// # Errors
/// `attempt to adopt revision owned by ...` for an owned revision, or the API server's error.
pub fn adopt_controller_revision(
    ctx: &mut Ctx,
    parent: &ObjectMeta,
    api_version: &str,
    kind: &str,
    revision: &ControllerRevision,
) -> Result<ControllerRevision, ApiError> {
    if let Some(owner) = revision.metadata.controller_ref() {
        return Err(crate::controllers::controller_ref_manager::internal_error(
            format!("attempt to adopt revision owned by {owner:?}"),
        ));
    }
    let mut clone = revision.clone();
    clone.metadata.resource_version.clear();
    clone
        .metadata
        .owner_references
        .push(new_controller_ref(parent, api_version, kind));
    ctx.update(Object::ControllerRevision(clone.clone()))
        .map(|o| revision_of(into_owned(o)).unwrap_or(clone))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Time;
    use serde_json::json;

    fn rev(name: &str, revision: i64, created: i64, data: Value) -> ControllerRevision {
        ControllerRevision {
            metadata: ObjectMeta {
                name: name.into(),
                namespace: "default".into(),
                creation_timestamp: Some(Time::from_unix_secs(created)),
                ..Default::default()
            },
            data: Some(data),
            revision,
            ..Default::default()
        }
    }

    /// FNV-1 test vectors (Go's hash/fnv tests, golden32).
    #[test]
    fn fnv1_32_vectors() {
        assert_eq!(fnv32(b"", FNV32_OFFSET), 0x811c9dc5);
        assert_eq!(fnv32(b"a", FNV32_OFFSET), 0x050c5d7e);
        assert_eq!(fnv32(b"ab", FNV32_OFFSET), 0x70772d38);
        assert_eq!(fnv32(b"abc", FNV32_OFFSET), 0x439c2f4b);
    }

    #[test]
    fn names_are_truncated_to_fit() {
        assert_eq!(controller_revision_name("web", "abc"), "web-abc");
        let long = "a".repeat(300);
        let n = controller_revision_name(&long, "hash");
        assert_eq!(n.len(), 223 + 5);
    }

    // Port of TestRealHistory_CreateControllerRevision's hashing rule and TestHashing
    // (pkg/controller/history/controller_history_test.go): the hash depends on the data and the
    // collision count, and equal data hashes equally.
    #[test]
    fn hash_depends_on_data_and_collision_count() {
        let a = rev("a", 1, 0, json!({"spec": {"template": {"x": 1}}}));
        let b = rev("b", 2, 0, json!({"spec": {"template": {"x": 1}}}));
        let c = rev("c", 1, 0, json!({"spec": {"template": {"x": 2}}}));
        assert_eq!(
            hash_controller_revision(&a, None),
            hash_controller_revision(&b, None)
        );
        assert_ne!(
            hash_controller_revision(&a, None),
            hash_controller_revision(&c, None)
        );
        assert_ne!(
            hash_controller_revision(&a, Some(0)),
            hash_controller_revision(&a, Some(1))
        );
        // With a probe of 0 the decimal "0" is hashed too.
        assert_ne!(
            hash_controller_revision(&a, None),
            hash_controller_revision(&a, Some(0))
        );
        let h = hash_controller_revision(&a, None);
        assert!(h.bytes().all(|c| crate::rng::NAME_ALPHABET.contains(&c)));
    }

    // Port of TestSortControllerRevisions (controller_history_test.go).
    #[test]
    fn sorting_by_revision_then_creation_then_name() {
        let mut revs = vec![
            rev("c", 3, 0, json!({})),
            rev("b", 1, 5, json!({})),
            rev("a", 1, 5, json!({})),
            rev("z", 1, 1, json!({})),
            rev("y", 2, 0, json!({})),
        ];
        sort_controller_revisions(&mut revs);
        let names: Vec<&str> = revs.iter().map(|r| r.metadata.name.as_str()).collect();
        assert_eq!(names, ["z", "a", "b", "y", "c"]);
        assert_eq!(next_revision(&revs), 4);
        assert_eq!(next_revision(&[]), 1);
    }

    // Port of TestEqualRevision / TestFindEqualRevisions (controller_history_test.go).
    #[test]
    fn equality_is_by_data() {
        let a = rev("a", 1, 0, json!({"k": "v"}));
        let b = rev("b", 7, 0, json!({"k": "v"}));
        let c = rev("c", 1, 0, json!({"k": "w"}));
        assert!(equal_revision(&a, &b));
        assert!(!equal_revision(&a, &c));
        // Integer hash labels that differ decide.
        let mut a2 = a.clone();
        a2.metadata
            .labels
            .insert(CONTROLLER_REVISION_HASH_LABEL.into(), "1".into());
        let mut b2 = b.clone();
        b2.metadata
            .labels
            .insert(CONTROLLER_REVISION_HASH_LABEL.into(), "2".into());
        assert!(!equal_revision(&a2, &b2));
        let all = vec![a.clone(), c.clone(), b.clone()];
        let eq: Vec<&str> = find_equal_revisions(&all, &a)
            .iter()
            .map(|r| r.metadata.name.as_str())
            .collect();
        assert_eq!(eq, ["a", "b"]);
    }

    #[test]
    fn new_revision_is_owned_labelled_and_named_by_hash() {
        let parent = ObjectMeta {
            name: "web".into(),
            namespace: "default".into(),
            uid: "u1".into(),
            ..Default::default()
        };
        let labels: BTreeMap<String, String> = [("app".to_string(), "nginx".to_string())].into();
        let cr = new_controller_revision(
            &parent,
            "apps/v1",
            "StatefulSet",
            &labels,
            json!({"spec": {}}),
            3,
            Some(0),
        );
        let hash = cr.metadata.labels[CONTROLLER_REVISION_HASH_LABEL].clone();
        assert_eq!(cr.metadata.name, format!("web-{hash}"));
        assert_eq!(cr.metadata.labels["app"], "nginx");
        assert_eq!(cr.revision, 3);
        let r = cr.metadata.controller_ref().unwrap();
        assert_eq!((r.kind.as_str(), r.uid.as_str()), ("StatefulSet", "u1"));
        assert_eq!(hash, hash_controller_revision(&cr, Some(0)));
    }
}
