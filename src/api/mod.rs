//! API types in Kubernetes' JSON/YAML shape, selectors, time, quantities and API errors.
pub mod apps;
pub mod batch;
pub mod core;
pub mod errors;
pub mod intstr;
pub mod meta;
pub mod object;
pub mod time;

pub use self::core::*;
pub use apps::*;
pub use batch::*;
pub use errors::*;
pub use intstr::*;
pub use meta::*;
pub use object::*;
pub use time::*;
pub mod batch_defaults;
pub mod batch_validation;
pub mod defaults;
pub mod deployment_defaults;
pub mod deployment_validation;
pub mod validation;
