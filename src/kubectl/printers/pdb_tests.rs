//! PodDisruptionBudget table tests.

use super::testutil::now;
use super::{policy, rows, PrintOptions};
use crate::api::policy::{PodDisruptionBudgetSpec, PodDisruptionBudgetStatus};
use crate::api::{Duration, IntOrString, Object, ObjectMeta, PodDisruptionBudget};
use crate::kubectl::table::{render, TableOptions};

fn pdb(ns: &str, name: &str, spec: PodDisruptionBudgetSpec) -> Object {
    Object::PodDisruptionBudget(PodDisruptionBudget {
        metadata: ObjectMeta {
            namespace: ns.into(),
            name: name.into(),
            // `time.Now().Add(1.9e9)`: 1.9 s in the future prints as 0s.
            creation_timestamp: Some(now() + Duration(1900)),
            ..Default::default()
        },
        spec,
        status: PodDisruptionBudgetStatus {
            disruptions_allowed: 5,
            ..Default::default()
        },
        ..Default::default()
    })
}

// upstream: TestPrintPodDisruptionBudget (pkg/printers/internalversion/printers_test.go)
#[test]
fn print_pod_disruption_budget() {
    let opts = PrintOptions {
        wide: false,
        now: now(),
    };
    let min = pdb(
        "ns1",
        "pdb1",
        PodDisruptionBudgetSpec {
            min_available: Some(IntOrString::Int(22)),
            ..Default::default()
        },
    );
    assert_eq!(
        (policy::pdb_row)(&min, &opts),
        ["pdb1", "22", "N/A", "5", "0s"]
    );
    let max = pdb(
        "ns2",
        "pdb2",
        PodDisruptionBudgetSpec {
            max_unavailable: Some(IntOrString::Int(11)),
            ..Default::default()
        },
    );
    assert_eq!(
        (policy::pdb_row)(&max, &opts),
        ["pdb2", "N/A", "11", "5", "0s"]
    );
    // The table kubectl prints (headers upper-cased, tab-aligned).
    let table = render(
        policy::PDB_COLUMNS,
        &rows(&[&min, &max], &opts),
        &TableOptions::default(),
    );
    assert_eq!(
        table,
        "NAME   MIN AVAILABLE   MAX UNAVAILABLE   ALLOWED DISRUPTIONS   AGE\n\
         pdb1   22              N/A               5                     0s\n\
         pdb2   N/A             11                5                     0s\n"
    );
}
