//! The ReplicaSet and ReplicationController controller (`pkg/controller/replicaset`), and the
//! "explain scale-down" view of its deletion order.
//!
//! * [`replica_set`]: the controller — informer handlers, `syncReplicaSet`, `claimPods`,
//!   `manageReplicas`, `getPodsToDelete`.
//! * [`replica_set_utils`]: `calculateStatus`, `updateReplicaSetStatus`, conditions.
//! * [`explain`]: which pods a scale-down deletes and which rule ordered them.

pub mod explain;
pub mod replica_set;
pub mod replica_set_utils;

pub use explain::{
    explain_scale_down, explain_scale_down_in_store, ExplainScaleDown, ExplainedPod,
    PairExplanation, ScaleDownExplanation,
};
pub use replica_set::{
    get_pod_keys, get_pods_ranked_by_related_pods_on_same_node, get_pods_to_delete, OwnerKind,
    ReplicaSetController, BURST_REPLICAS,
};
pub use replica_set_utils::{calculate_status, update_replica_set_status};

#[cfg(test)]
mod upstream_tests2;
