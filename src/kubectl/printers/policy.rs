//! The PodDisruptionBudget table: `printPodDisruptionBudget` (MIN AVAILABLE, MAX UNAVAILABLE,
//! ALLOWED DISRUPTIONS) in pkg/printers/internalversion/printers.go.

use super::{translate_timestamp_since, PrintOptions};
use crate::api::Object;
use crate::kubectl::table::Column;

pub const PDB_COLUMNS: &[Column] = &[
    Column::name("Name"),
    Column::std("Min Available"),
    Column::std("Max Unavailable"),
    Column::std("Allowed Disruptions"),
    Column::std("Age"),
];

/// `printPodDisruptionBudget`: `IntOrString.String()` of each bound, `N/A` when unset.
pub fn pdb_row(o: &Object, opts: &PrintOptions) -> Vec<String> {
    let Object::PodDisruptionBudget(p) = o else {
        return vec![];
    };
    let bound = |v: &Option<crate::api::IntOrString>| {
        v.as_ref()
            .map_or_else(|| "N/A".to_string(), |v| v.to_string())
    };
    vec![
        p.metadata.name.clone(),
        bound(&p.spec.min_available),
        bound(&p.spec.max_unavailable),
        p.status.disruptions_allowed.to_string(),
        translate_timestamp_since(p.metadata.creation_timestamp, opts.now),
    ]
}
