//! kubeplay: Kubernetes workload controllers on a virtual clock. Start at `sim.rs`.
//!
//! Data flows one way: scenario → store → watch → work queues → reconcile → API server → store,
//! with the clock deciding what happens next.
pub mod admission;
pub mod api;
pub mod controllers;
pub mod cron;
pub mod features;
pub mod interop;
pub mod kubectl;
pub mod kubelet;
pub mod queue;
pub mod rng;
pub mod scenario;
pub mod scheduler;
pub mod sim;
pub mod store;
pub mod trace;
/// The JavaScript boundary; compiled only for WebAssembly, so the core never depends on JS.
#[cfg(target_arch = "wasm32")]
pub mod wasm;
pub mod world;
