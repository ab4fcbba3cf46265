//! Small object builders shared by the unit tests (test builds only).

use crate::api::{Taint, Toleration};

/// A taint without `timeAdded`.
pub fn taint(key: &str, value: &str, effect: &str) -> Taint {
    Taint {
        key: key.into(),
        value: value.into(),
        effect: effect.into(),
        time_added: None,
    }
}

/// A toleration without `tolerationSeconds`.
pub fn tol(key: &str, operator: &str, value: &str, effect: &str) -> Toleration {
    tol_secs(key, operator, value, effect, None)
}

/// A toleration with `tolerationSeconds`.
pub fn tol_secs(
    key: &str,
    operator: &str,
    value: &str,
    effect: &str,
    secs: Option<i64>,
) -> Toleration {
    Toleration {
        key: key.into(),
        operator: operator.into(),
        value: value.into(),
        effect: effect.into(),
        toleration_seconds: secs,
    }
}
