//! Real clusters: import live state as a scenario, export scenarios as manifests and a kubectl
//! replay script, and compare a real run's events with kubeplay's.
//!
//! Everything here is pure (text in, text or a report out); the CLI and the page do the I/O.

pub mod compare;
pub mod export;
pub mod import;

/// An error with the path of the offending item, as kubectl names it (`items[3] (Pod
/// default/web-1)`), or empty when it concerns the whole input.
#[derive(Clone, Debug, PartialEq)]
pub struct InteropError {
    pub path: String,
    pub message: String,
}

impl std::fmt::Display for InteropError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for InteropError {}

pub(crate) fn ierr(path: impl Into<String>, message: impl Into<String>) -> InteropError {
    InteropError {
        path: path.into(),
        message: message.into(),
    }
}
