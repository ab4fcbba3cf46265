//! `ControllerRefManager` (`pkg/controller/controller_ref_manager.go`) for any kind: claim the
//! objects an owner's selector matches — keep owned ones, adopt matching orphans, release owned
//! ones that no longer match — as the StatefulSet and DaemonSet controllers do for their pods and
//! ControllerRevisions.

use crate::api::{ApiError, Object, ObjectMeta, Reason, Resource, Selector, Time};
use crate::controllers::controller_utils::new_controller_ref;
use crate::controllers::Ctx;

/// The owner doing the claiming: its metadata (as listed at the start of the sync), its
/// `apiVersion`/`kind`, and its selector.
#[derive(Clone, Debug)]
pub struct ClaimOwner<'a> {
    pub meta: &'a ObjectMeta,
    pub api_version: &'static str,
    pub kind: &'static str,
    pub selector: &'a Selector,
}

/// An error that is not an API status (the ref manager's own messages).
pub fn internal_error(message: impl Into<String>) -> ApiError {
    ApiError {
        reason: Reason::InternalError,
        message: message.into(),
        causes: vec![],
        kind: String::new(),
        name: String::new(),
    }
}

/// Go's `time.Time` `%v` for a UTC instant: `2025-01-01 00:00:00 +0000 UTC`.
fn go_time_string(t: Time) -> String {
    let (y, mo, d, h, mi, s, _) = t.civil();
    format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02} +0000 UTC")
}

/// `RecheckDeletionTimestamp` with an uncached read of the owner (the store is the API server's
/// own): the owner must still exist with the same uid and not be being deleted.
///
/// # Errors
/// Upstream's messages: `can't recheck DeletionTimestamp: ...` or `ns/name has just been deleted
/// at ...`.
pub fn recheck_deletion_timestamp(ctx: &Ctx, owner: &ClaimOwner) -> Result<(), String> {
    let (_, plural, group, _) = crate::api::kind_info(owner.kind).unwrap_or(("", "", "", true));
    let resource = if group.is_empty() {
        plural.to_string()
    } else {
        format!("{plural}.{group}")
    };
    let fresh = ctx
        .store()
        .get_ref(&crate::store::ObjectRef::new(
            owner.kind,
            &owner.meta.namespace,
            &owner.meta.name,
        ))
        .map(|o| o.meta().clone());
    let Some(fresh) = fresh else {
        let e = ApiError::not_found(&resource, &owner.meta.name);
        return Err(format!("can't recheck DeletionTimestamp: {e}"));
    };
    if fresh.uid != owner.meta.uid {
        return Err(format!(
            "can't recheck DeletionTimestamp: original {} {}/{} is gone: got uid {}, wanted {}",
            owner.kind, owner.meta.namespace, owner.meta.name, fresh.uid, owner.meta.uid
        ));
    }
    if let Some(t) = fresh.deletion_timestamp {
        return Err(format!(
            "{}/{} has just been deleted at {}",
            fresh.namespace,
            fresh.name,
            go_time_string(t)
        ));
    }
    Ok(())
}

/// `utilerrors.NewAggregate(errs).Error()`: one message, or `[m1, m2]` without duplicates.
pub fn aggregate(errs: Vec<ApiError>) -> Option<ApiError> {
    if errs.len() <= 1 {
        return errs.into_iter().next();
    }
    let mut msgs: Vec<String> = vec![];
    for e in &errs {
        if !msgs.contains(&e.message) {
            msgs.push(e.message.clone());
        }
    }
    if msgs.len() == 1 {
        return errs.into_iter().next();
    }
    Some(internal_error(format!("[{}]", msgs.join(", "))))
}

/// `ClaimPods` / `ClaimControllerRevisions`: the objects (in the given order) this owner
/// controls after adopting and releasing. `filter` narrows what may be claimed (the
/// StatefulSet controller only claims pods named after the set).
///
/// # Errors
/// The aggregated adoption/release errors.
pub fn claim_objects<T: Resource>(
    ctx: &mut Ctx,
    owner: &ClaimOwner,
    objects: Vec<T>,
    filter: impl Fn(&T) -> bool,
) -> Result<Vec<T>, ApiError> {
    let mut claimed = vec![];
    let mut errs = vec![];
    // `RecheckDeletionTimestamp`, evaluated at most once per claim (sync.Once upstream).
    let mut can_adopt: Option<Result<(), String>> = None;
    for o in objects {
        match claim_object(ctx, owner, &o, &filter, &mut can_adopt) {
            Ok(true) => claimed.push(o),
            Ok(false) => {}
            Err(e) => errs.push(e),
        }
    }
    match aggregate(errs) {
        Some(e) => Err(e),
        None => Ok(claimed),
    }
}

/// `BaseControllerRefManager.ClaimObject` for one object.
fn claim_object<T: Resource>(
    ctx: &mut Ctx,
    owner: &ClaimOwner,
    o: &T,
    filter: &impl Fn(&T) -> bool,
    can_adopt: &mut Option<Result<(), String>>,
) -> Result<bool, ApiError> {
    let m = o.meta();
    let matches = owner.selector.matches(&m.labels) && filter(o);
    if let Some(cref) = m.controller_ref() {
        if cref.uid != owner.meta.uid {
            return Ok(false); // owned by someone else
        }
        if matches {
            return Ok(true);
        }
        if owner.meta.deletion_timestamp.is_some() {
            return Ok(false);
        }
        return match release(ctx, owner, o) {
            Err(e) if !e.is_not_found() => Err(e),
            _ => Ok(false),
        };
    }
    // An orphan.
    if owner.meta.deletion_timestamp.is_some() || !matches {
        return Ok(false);
    }
    if m.deletion_timestamp.is_some() {
        return Ok(false);
    }
    if !owner.meta.namespace.is_empty() && owner.meta.namespace != m.namespace {
        return Ok(false);
    }
    match adopt(ctx, owner, o, can_adopt) {
        Ok(()) => Ok(true),
        Err(e) if e.is_not_found() => Ok(false),
        Err(e) => Err(e),
    }
}

/// `AdoptPod` / `AdoptControllerRevision`: add the owner as controller (a patch on
/// ownerReferences, no resourceVersion precondition).
fn adopt<T: Resource>(
    ctx: &mut Ctx,
    owner: &ClaimOwner,
    o: &T,
    can_adopt: &mut Option<Result<(), String>>,
) -> Result<(), ApiError> {
    if can_adopt.is_none() {
        *can_adopt = Some(recheck_deletion_timestamp(ctx, owner));
    }
    if let Some(Err(e)) = can_adopt {
        let m = o.meta();
        return Err(internal_error(format!(
            "can't adopt {} {}/{} ({}): {e}",
            T::KIND,
            m.namespace,
            m.name,
            m.uid
        )));
    }
    let r = new_controller_ref(owner.meta, owner.api_version, owner.kind);
    let mut x = o.clone();
    let m = x.meta_mut();
    m.resource_version.clear();
    match m.owner_references.iter_mut().find(|o| o.uid == r.uid) {
        Some(existing) => *existing = r,
        None => m.owner_references.push(r),
    }
    ctx.update(x.into_object()).map(|_| ())
}

/// `ReleasePod` / `ReleaseControllerRevision`: remove the owner from ownerReferences. NotFound
/// and Invalid are ignored, as upstream.
fn release<T: Resource>(ctx: &mut Ctx, owner: &ClaimOwner, o: &T) -> Result<(), ApiError> {
    let mut x = o.clone();
    let m = x.meta_mut();
    m.resource_version.clear();
    m.owner_references.retain(|r| r.uid != owner.meta.uid);
    let obj: Object = x.into_object();
    match ctx.update(obj) {
        Ok(_) => Ok(()),
        Err(e) if e.is_not_found() || e.reason == Reason::Invalid => Ok(()),
        Err(e) => Err(e),
    }
}
