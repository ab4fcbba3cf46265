//! DaemonSet rolling updates and history (`pkg/controller/daemon/update.go`): which old pods to
//! delete (maxUnavailable) or which nodes get a surge pod (maxSurge), ControllerRevision
//! snapshots, deduplication and cleanup.
//!
//! Concrete example (maxUnavailable 1, three nodes with available old pods): the first pass
//! finds three candidates and deletes one; the manage loop creates its replacement at the new
//! hash; while that pod is not yet available it counts as unavailable, so nothing else is
//! deleted; once it is available the next old pod goes.

use super::daemon_controller::{node_should_run_daemon_pod, DaemonSetsController};
use super::util::{
    get_template_generation, is_pod_updated, surge_count, unavailable_count,
    DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY,
};
use crate::api::{ApiError, ControllerRevision, DaemonSet, Node, Object, ObjectMeta, Pod};
use crate::controllers::controller_ref_manager::{claim_objects, internal_error, ClaimOwner};
use crate::controllers::controller_utils::{
    is_pod_available, label_selector_as_selector, new_controller_ref,
};
use crate::controllers::deployment::util::compute_hash;
use crate::controllers::history::{raw_data, template_patch};
use crate::controllers::into_owned;
use crate::controllers::Ctx;
use crate::store::apiserver::DeleteOptions;
use std::collections::{BTreeMap, BTreeSet};

/// `findUpdatedPodsOnNode`: among the node's non-deleted pods, at most one new and one old —
/// `None` when there are more (the manage loop prunes them first).
pub fn find_updated_pods_on_node<'a>(
    ds: &DaemonSet,
    pods: &'a [Pod],
    hash: &str,
) -> Option<(Option<&'a Pod>, Option<&'a Pod>)> {
    let generation = get_template_generation(ds).unwrap_or(None);
    let (mut new_pod, mut old_pod) = (None, None);
    for pod in pods {
        if pod.metadata.deletion_timestamp.is_some() {
            continue;
        }
        if is_pod_updated(pod, hash, generation) {
            if new_pod.is_some() {
                return None;
            }
            new_pod = Some(pod);
        } else {
            if old_pod.is_some() {
                return None;
            }
            old_pod = Some(pod);
        }
    }
    Some((new_pod, old_pod))
}

/// `maxRevision`.
pub fn max_revision(histories: &[ControllerRevision]) -> i64 {
    histories
        .iter()
        .map(|h| h.revision)
        .max()
        .unwrap_or(0)
        .max(0)
}

/// `Match`: the revision stores exactly the DaemonSet's current template patch.
pub fn revision_matches(ds: &DaemonSet, history: &ControllerRevision) -> bool {
    crate::api::go_json(&template_patch(&ds.spec.template)).into_bytes() == raw_data(history)
}

/// The result of the surge/unavailable plan for one rolling-update pass.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RollingPlan {
    pub pods_to_delete: Vec<String>,
    pub nodes_to_create: Vec<String>,
}

impl DaemonSetsController {
    /// `updatedDesiredNodeCounts`: (maxSurge, maxUnavailable, desiredNumberScheduled), adding an
    /// empty entry for every wanted node without pods. With both limits 0 the DaemonSet accepts
    /// one unavailable pod.
    ///
    /// # Errors
    /// `invalid value for MaxUnavailable/MaxSurge: ...`.
    pub fn updated_desired_node_counts(
        ds: &DaemonSet,
        nodes: &[Node],
        node_to_daemon_pods: &mut BTreeMap<String, Vec<Pod>>,
    ) -> Result<(i32, i32, i32), String> {
        let mut desired = 0;
        for node in nodes {
            if !node_should_run_daemon_pod(node, ds).0 {
                continue;
            }
            desired += 1;
            node_to_daemon_pods
                .entry(node.metadata.name.clone())
                .or_default();
        }
        let mut max_unavailable = unavailable_count(ds, desired)
            .map_err(|e| format!("invalid value for MaxUnavailable: {e}"))?;
        let max_surge =
            surge_count(ds, desired).map_err(|e| format!("invalid value for MaxSurge: {e}"))?;
        if desired > 0 && max_unavailable == 0 && max_surge == 0 {
            max_unavailable = 1;
        }
        Ok((max_surge, max_unavailable, desired))
    }

    /// The pure part of `rollingUpdate`: with `maxSurge == 0`, old pods to delete within the
    /// unavailability budget; with surge, nodes to get a new pod next to their old one and old
    /// pods whose new pod is available. Nodes are visited in name order (upstream: map order).
    ///
    /// # Errors
    /// With surge, an old pod (without a new one) on a node missing from `nodes` (a deleted node
    /// whose pods are not gone yet): upstream's node lister lookup fails and the whole pass
    /// returns `couldn't get node for nodeName "<node>": node "<node>" not found`.
    #[allow(clippy::too_many_arguments)]
    pub fn plan_rolling_update(
        ds: &DaemonSet,
        nodes: &[Node],
        node_to_daemon_pods: &BTreeMap<String, Vec<Pod>>,
        hash: &str,
        max_surge: i32,
        max_unavailable: i32,
        desired: i32,
        now: crate::api::Time,
    ) -> Result<RollingPlan, String> {
        let mrs = ds.spec.min_ready_seconds;
        let avail = |p: &Pod| is_pod_available(p, mrs, now);
        // dsc.nodeLister.Get(nodeName) then NodeShouldRunDaemonPod.
        let should_run = |name: &str| -> Result<bool, String> {
            let node = nodes
                .iter()
                .find(|n| n.metadata.name == name)
                .ok_or_else(|| {
                    format!("couldn't get node for nodeName {name:?}: node {name:?} not found")
                })?;
            Ok(node_should_run_daemon_pod(node, ds).0)
        };
        if max_surge == 0 {
            let mut num_unavailable = 0;
            let mut allowed_replacement: Vec<String> = vec![];
            let mut candidates: Vec<String> = vec![];
            for pods in node_to_daemon_pods.values() {
                let Some((new_pod, old_pod)) = find_updated_pods_on_node(ds, pods, hash) else {
                    num_unavailable += 1; // excess pods: the manage loop cleans up first
                    continue;
                };
                match (new_pod, old_pod) {
                    (None, None) | (Some(_), Some(_)) => num_unavailable += 1,
                    (Some(n), None) => {
                        if !avail(n) {
                            num_unavailable += 1;
                        }
                    }
                    (None, Some(o)) => {
                        if !avail(o) {
                            // An unavailable old pod is replaced right away.
                            allowed_replacement.push(o.metadata.name.clone());
                            num_unavailable += 1;
                        } else if num_unavailable < max_unavailable {
                            candidates.push(o.metadata.name.clone());
                        }
                    }
                }
            }
            let remaining = (max_unavailable - num_unavailable).max(0) as usize;
            let remaining = remaining.min(candidates.len());
            let mut pods_to_delete = allowed_replacement;
            pods_to_delete.extend(candidates.into_iter().take(remaining));
            return Ok(RollingPlan {
                pods_to_delete,
                nodes_to_create: vec![],
            });
        }

        let mut old_pods_to_delete: Vec<String> = vec![];
        let mut should_not_run_pods_to_delete: Vec<String> = vec![];
        let mut candidate_new_nodes: Vec<String> = vec![];
        let mut allowed_new_nodes: Vec<String> = vec![];
        let mut num_surge = 0;
        let mut num_available = 0;
        for (node_name, pods) in node_to_daemon_pods {
            let Some((new_pod, old_pod)) = find_updated_pods_on_node(ds, pods, hash) else {
                num_surge += 1; // excess pods: treated as a surge node
                continue;
            };
            if let Some(o) = old_pod {
                if avail(o) {
                    num_available += 1;
                }
            } else if let Some(n) = new_pod {
                if avail(n) {
                    num_available += 1;
                }
            }
            match (new_pod, old_pod) {
                (_, None) => {} // the manage loop handles this node
                (None, Some(o)) => {
                    if !avail(o) {
                        if !should_run(node_name)? {
                            old_pods_to_delete.push(o.metadata.name.clone());
                            continue;
                        }
                        allowed_new_nodes.push(node_name.clone());
                    } else {
                        if !should_run(node_name)? {
                            should_not_run_pods_to_delete.push(o.metadata.name.clone());
                            continue;
                        }
                        if num_surge >= max_surge {
                            continue;
                        }
                        candidate_new_nodes.push(node_name.clone());
                    }
                }
                (Some(n), Some(o)) => {
                    if !avail(n) {
                        num_surge += 1; // waiting for the new pod
                        continue;
                    }
                    old_pods_to_delete.push(o.metadata.name.clone());
                }
            }
        }
        // With maxSurge the owner expects full availability: a pod on a node that no longer
        // qualifies goes only once enough pods elsewhere are available.
        let deletable = num_available - desired;
        if deletable > 0 {
            let n = (deletable as usize).min(should_not_run_pods_to_delete.len());
            old_pods_to_delete.extend(should_not_run_pods_to_delete.into_iter().take(n));
        }
        let remaining = (max_surge - num_surge).max(0) as usize;
        let remaining = remaining.min(candidate_new_nodes.len());
        let mut nodes_to_create = allowed_new_nodes;
        nodes_to_create.extend(candidate_new_nodes.into_iter().take(remaining));
        Ok(RollingPlan {
            pods_to_delete: old_pods_to_delete,
            nodes_to_create,
        })
    }

    /// `rollingUpdate`: plan, then `syncNodes`.
    ///
    /// # Errors
    /// Claim errors, invalid surge/unavailable values, creation/deletion errors.
    pub fn rolling_update(
        &mut self,
        ctx: &mut Ctx,
        ds: &DaemonSet,
        nodes: &[Node],
        hash: &str,
    ) -> Result<(), ApiError> {
        let mut node_to_daemon_pods = self.get_nodes_to_daemon_pods(ctx, ds, false)?;
        let (max_surge, max_unavailable, desired) =
            Self::updated_desired_node_counts(ds, nodes, &mut node_to_daemon_pods)
                .map_err(|e| internal_error(format!("couldn't get unavailable numbers: {e}")))?;
        let plan = Self::plan_rolling_update(
            ds,
            nodes,
            &node_to_daemon_pods,
            hash,
            max_surge,
            max_unavailable,
            desired,
            ctx.now(),
        )
        .map_err(internal_error)?;
        self.sync_nodes(ctx, ds, &plan.pods_to_delete, &plan.nodes_to_create, hash)
    }

    /// `controlledHistories`: the namespace's revisions, claimed by the DaemonSet.
    ///
    /// # Errors
    /// Adoption/release errors.
    pub fn controlled_histories(
        &self,
        ctx: &mut Ctx,
        ds: &DaemonSet,
    ) -> Result<Vec<ControllerRevision>, ApiError> {
        let selector =
            label_selector_as_selector(ds.spec.selector.as_ref()).map_err(internal_error)?;
        let histories: Vec<ControllerRevision> = ctx
            .store()
            .list::<ControllerRevision>(Some(&ds.metadata.namespace))
            .cloned()
            .collect();
        let owner = ClaimOwner {
            meta: &ds.metadata,
            api_version: super::daemon_controller::CONTROLLER_API_VERSION,
            kind: super::daemon_controller::CONTROLLER_KIND,
            selector: &selector,
        };
        claim_objects(ctx, &owner, histories, |_: &ControllerRevision| true)
    }

    /// `constructHistory`: the current revision (created, or deduplicated and renumbered to
    /// follow the old ones) and the old revisions.
    ///
    /// # Errors
    /// API errors, or a hash collision that needs a retry.
    pub fn construct_history(
        &self,
        ctx: &mut Ctx,
        ds: &DaemonSet,
    ) -> Result<(ControllerRevision, Vec<ControllerRevision>), ApiError> {
        let histories = self.controlled_histories(ctx, ds)?;
        let mut current: Vec<ControllerRevision> = vec![];
        let mut old: Vec<ControllerRevision> = vec![];
        for mut h in histories {
            if !h
                .metadata
                .labels
                .contains_key(DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY)
            {
                h.metadata.labels.insert(
                    DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY.into(),
                    h.metadata.name.clone(),
                );
                h.metadata.resource_version.clear();
                h = match into_owned(ctx.update(Object::ControllerRevision(h.clone()))?) {
                    Object::ControllerRevision(x) => x,
                    _ => h,
                };
            }
            if revision_matches(ds, &h) {
                current.push(h);
            } else {
                old.push(h);
            }
        }
        let curr_revision = max_revision(&old).wrapping_add(1);
        let cur = if current.is_empty() {
            self.snapshot(ctx, ds, curr_revision)?
        } else {
            let cur = self.dedup_cur_histories(ctx, ds, &current)?;
            if cur.revision < curr_revision {
                let mut to_update = cur.clone();
                to_update.revision = curr_revision;
                to_update.metadata.resource_version.clear();
                ctx.update(Object::ControllerRevision(to_update))?;
            }
            cur
        };
        Ok((cur, old))
    }

    /// `dedupCurHistories`: keep the highest-numbered of several equal current revisions,
    /// relabel pods to its hash and delete the others.
    fn dedup_cur_histories(
        &self,
        ctx: &mut Ctx,
        ds: &DaemonSet,
        cur_histories: &[ControllerRevision],
    ) -> Result<ControllerRevision, ApiError> {
        if cur_histories.len() == 1 {
            return Ok(cur_histories[0].clone());
        }
        let mut keep = &cur_histories[0];
        let mut max = i64::MIN;
        for c in cur_histories {
            if c.revision >= max {
                keep = c;
                max = c.revision;
            }
        }
        let keep = keep.clone();
        let keep_hash = keep
            .metadata
            .labels
            .get(DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY)
            .cloned()
            .unwrap_or_default();
        for pod in self.get_daemon_pods(ctx, ds)? {
            if pod.metadata.labels.get(DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY) != Some(&keep_hash) {
                let mut p = pod.clone();
                p.metadata.labels.insert(
                    DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY.into(),
                    keep_hash.clone(),
                );
                p.metadata.resource_version.clear();
                ctx.update(Object::Pod(p))?;
            }
        }
        for c in cur_histories {
            if c.metadata.name != keep.metadata.name {
                ctx.delete::<ControllerRevision>(
                    &ds.metadata.namespace,
                    &c.metadata.name,
                    &DeleteOptions::default(),
                )?;
            }
        }
        Ok(keep)
    }

    /// `snapshot`: create the revision `<ds>-<ComputeHash(template, collisionCount)>`. On a
    /// name clash with other data the DaemonSet's `status.collisionCount` is bumped and the
    /// sync retried.
    ///
    /// # Errors
    /// The API error, the AlreadyExists of a collision, or a stale collision count.
    pub fn snapshot(
        &self,
        ctx: &mut Ctx,
        ds: &DaemonSet,
        revision: i64,
    ) -> Result<ControllerRevision, ApiError> {
        let hash = compute_hash(&ds.spec.template, ds.status.collision_count);
        let name = format!("{}-{hash}", ds.metadata.name);
        let mut labels = ds.spec.template.metadata.labels.clone();
        labels.insert(DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY.into(), hash.clone());
        let history = ControllerRevision {
            api_version: "apps/v1".into(),
            kind: "ControllerRevision".into(),
            metadata: ObjectMeta {
                name: name.clone(),
                namespace: ds.metadata.namespace.clone(),
                labels,
                annotations: ds.metadata.annotations.clone(),
                owner_references: vec![new_controller_ref(
                    &ds.metadata,
                    super::daemon_controller::CONTROLLER_API_VERSION,
                    super::daemon_controller::CONTROLLER_KIND,
                )]
                .into(),
                ..Default::default()
            },
            data: Some(template_patch(&ds.spec.template)),
            revision,
        };
        match ctx
            .create(Object::ControllerRevision(history))
            .map(into_owned)
        {
            Ok(Object::ControllerRevision(h)) => Ok(h),
            Ok(_) => Err(internal_error("unexpected object")),
            Err(outer) if outer.is_already_exists() => {
                let existing = ctx
                    .store()
                    .get::<ControllerRevision>(&ds.metadata.namespace, &name)
                    .cloned()
                    .ok_or_else(|| ApiError::not_found("controllerrevisions.apps", &name))?;
                if revision_matches(ds, &existing) {
                    return Ok(existing);
                }
                let mut curr = ctx
                    .store()
                    .get::<DaemonSet>(&ds.metadata.namespace, &ds.metadata.name)
                    .cloned()
                    .ok_or_else(|| ApiError::not_found("daemonsets.apps", &ds.metadata.name))?;
                if curr.status.collision_count != ds.status.collision_count {
                    let show = |c: Option<i32>| c.map_or("<nil>".to_string(), |v| v.to_string());
                    return Err(internal_error(format!(
                        "found a stale collision count ({}, expected {}) of DaemonSet {:?} while processing; will retry until it is updated",
                        show(ds.status.collision_count),
                        show(curr.status.collision_count),
                        ds.metadata.name
                    )));
                }
                // Go's `*currDS.Status.CollisionCount++` on an int32 wraps at MaxInt32.
                curr.status.collision_count =
                    Some(curr.status.collision_count.unwrap_or(0).wrapping_add(1));
                curr.metadata.resource_version.clear();
                ctx.update_status(Object::DaemonSet(curr))?;
                Err(outer)
            }
            Err(e) => Err(e),
        }
    }

    /// `cleanupHistory`: delete the oldest old revisions not used by any pod until at most
    /// `revisionHistoryLimit` old ones remain.
    ///
    /// # Errors
    /// Claim or deletion errors.
    pub fn cleanup_history(
        &self,
        ctx: &mut Ctx,
        ds: &DaemonSet,
        old: &[ControllerRevision],
    ) -> Result<(), ApiError> {
        let node_to_daemon_pods = self.get_nodes_to_daemon_pods(ctx, ds, true)?;
        let to_keep = ds.spec.revision_history_limit.unwrap_or(10).max(0) as usize;
        if old.len() <= to_keep {
            return Ok(());
        }
        let live: BTreeSet<String> = node_to_daemon_pods
            .values()
            .flatten()
            .filter_map(|p| p.metadata.labels.get(DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY))
            .filter(|h| !h.is_empty())
            .cloned()
            .collect();
        for h in histories_to_clean_up(old, &live, to_keep) {
            ctx.delete::<ControllerRevision>(
                &ds.metadata.namespace,
                &h.metadata.name,
                &DeleteOptions::default(),
            )?;
        }
        Ok(())
    }
}

/// The pure part of `cleanupHistory`: by ascending revision (ties by name), the old revisions
/// to delete — skipping those whose hash a pod still carries — until `to_keep` remain.
pub fn histories_to_clean_up<'a>(
    old: &'a [ControllerRevision],
    live_hashes: &BTreeSet<String>,
    to_keep: usize,
) -> Vec<&'a ControllerRevision> {
    let mut to_kill = old.len().saturating_sub(to_keep);
    let mut sorted: Vec<&ControllerRevision> = old.iter().collect();
    crate::sort::sort_by(&mut sorted, |a, b| {
        a.revision
            .cmp(&b.revision)
            .then_with(|| a.metadata.name.cmp(&b.metadata.name))
    });
    let mut out = vec![];
    for h in sorted {
        if to_kill == 0 {
            break;
        }
        if h.metadata
            .labels
            .get(DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY)
            .is_some_and(|x| live_hashes.contains(x))
        {
            continue;
        }
        out.push(h);
        to_kill -= 1;
    }
    out
}
