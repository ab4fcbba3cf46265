//! The DaemonSet controller (`pkg/controller/daemon`), component `daemonset-controller`.
//!
//! * [`daemon_controller`]: informer handlers, `syncDaemonSet`, `nodeShouldRunDaemonPod`,
//!   `podsShouldBeOnNode`, `manage` / `syncNodes`, status.
//! * [`update`]: rolling update (maxUnavailable / maxSurge) and ControllerRevision history.
//! * [`util`]: daemon tolerations, pod templates, node pinning, surge arithmetic.
//! * [`explain`]: `nodeShouldRunDaemonPod` per node, with its reason, for the page (pure).

pub mod daemon_controller;
pub mod explain;
pub mod update;
pub mod util;

pub use daemon_controller::{
    node_should_run_daemon_pod, DaemonSetsController, BURST_REPLICAS, NAME,
};

#[cfg(test)]
mod apps_ports;
#[cfg(test)]
mod audit_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod unavailable_numbers_upstream_tests;
#[cfg(test)]
mod upstream_tests2;
