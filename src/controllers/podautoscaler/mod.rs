//! The horizontal pod autoscaler (`pkg/controller/podautoscaler`): controller, replica
//! calculator and the scale subresource helper.

pub mod horizontal;
pub mod replica_calculator;
pub mod scale;
pub mod view;

pub use horizontal::{new_horizontal_controller, HorizontalController};

#[cfg(test)]
mod batch_upstream_tests;
