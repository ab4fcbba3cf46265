//! The StatefulSet controller (`pkg/controller/statefulset`), component `statefulset-controller`.
//!
//! * [`stateful_set`]: the controller — informer handlers, `sync`, pod and revision claiming.
//! * [`stateful_set_control`]: one sync — revisions, ordered/parallel pod management, rolling
//!   update, status, history truncation.
//! * [`stateful_pod_control`]: pod and claim API calls with the set's events.
//! * [`stateful_set_utils`]: identity, storage, retention, predicates, revisions (pure).
//! * [`explain`]: the ordering gate, partition and revisions per ordinal, for the page (pure).

pub mod explain;
pub mod stateful_pod_control;
pub mod stateful_set;
pub mod stateful_set_control;
pub mod stateful_set_utils;

pub use stateful_set::{StatefulSetController, NAME};

#[cfg(test)]
mod apps_ports;
#[cfg(test)]
mod audit_tests;
#[cfg(test)]
mod claim_invariants_upstream_tests;
#[cfg(test)]
mod compatibility_upstream_tests;
#[cfg(test)]
mod max_unavailable_invariant_upstream_tests;
#[cfg(test)]
mod orphaned_pods_upstream_tests;
#[cfg(test)]
mod pod_control_tests;
#[cfg(test)]
mod status_updater_upstream_tests;
#[cfg(test)]
mod tests;
