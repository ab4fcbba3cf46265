//! API types in Kubernetes' JSON/YAML shape, selectors, time, quantities and API errors.
pub mod apps;
pub mod apps_more;
pub mod autoscaling;
pub mod autoscaling_validation;
pub mod batch;
pub mod core;
pub mod core_more;
pub mod errors;
pub mod intstr;
pub mod meta;
pub mod object;
pub mod policy;
pub mod schema;
pub mod semantic;
pub mod shared_str;
#[rustfmt::skip]
mod schema_gen;
pub mod time;
pub mod value_de;
#[cfg(test)]
mod value_de_tests;

pub use self::core::*;
pub use apps::*;
pub use apps_more::*;
pub use autoscaling::HorizontalPodAutoscaler;
pub use batch::*;
pub use core_more::*;
pub use errors::*;
pub use intstr::*;
pub use meta::*;
pub use object::*;
pub use policy::PodDisruptionBudget;
pub use shared_str::{SharedStr, StrInterner};
pub use time::*;
pub mod batch_defaults;
pub mod batch_validation;
pub mod defaults;
pub mod deployment_defaults;
pub mod deployment_validation;
pub mod sts_ds_defaults;
pub mod sts_ds_validation;
pub mod validation;
pub mod warnings;
#[cfg(test)]
mod warnings_job_strategy_tests;
#[cfg(test)]
mod warnings_memo_tests;
#[cfg(test)]
mod warnings_strategy_tests;
#[cfg(test)]
mod warnings_upstream_tests;

#[cfg(test)]
mod feature_gate_tests;
#[cfg(test)]
mod service_defaults_tests;
