//! kubeplay: Kubernetes workload controllers on a virtual clock. Start at `sim.rs`.
//!
//! Data flows one way: scenario → store → watch → work queues → reconcile → API server → store,
//! with the clock deciding what happens next.
pub mod admission;
pub mod api;
pub mod batch_view;
pub mod controllers;
pub mod cron;
pub mod features;
/// Fuzz-target bodies (native only).
#[cfg(not(target_arch = "wasm32"))]
pub mod fuzzing;
pub mod interop;
pub mod invariants;
pub mod kubectl;
pub mod kubelet;
pub mod kubelet_status;
pub mod mem_compare;
pub mod queue;
pub mod rng;
pub mod scenario;
pub mod scheduler;
/// Share-link decoding (native only: the page decodes links in JavaScript).
#[cfg(not(target_arch = "wasm32"))]
pub mod share;
pub mod sim;
pub mod size_class_alloc;
pub mod sort;
pub mod store;
#[cfg(test)]
mod test_fixtures;
pub mod trace;
/// The JavaScript boundary; compiled only for WebAssembly, so the core never depends on JS.
#[cfg(target_arch = "wasm32")]
pub mod wasm;
pub mod world;

/// The page's allocator: small blocks from size-class free lists over `dlmalloc`.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOC: size_class_alloc::SizeClassAlloc<std::alloc::System> =
    size_class_alloc::SizeClassAlloc::new(std::alloc::System);
