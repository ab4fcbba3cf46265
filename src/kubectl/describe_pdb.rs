//! `kubectl describe pdb` (`PodDisruptionBudgetDescriber`, `describePodDisruptionBudgetV1` in
//! describe.go).

use super::*;
use crate::api::policy::PodDisruptionBudget;
use crate::kubectl::printers::format_label_selector;

/// `describePodDisruptionBudgetV1`: name, namespace, the bound (`Min available` when set, else
/// `Max unavailable`), the selector (`<unset>` when nil), the status counts, then events.
pub(super) fn describe_pdb(
    sim: &Simulation,
    pdb: &PodDisruptionBudget,
    show_events: bool,
) -> String {
    let mut w = Writer::new();
    let m = &pdb.metadata;
    w.w(0, &format!("Name:\t{}\n", m.name));
    w.w(0, &format!("Namespace:\t{}\n", m.namespace));
    if let Some(v) = &pdb.spec.min_available {
        w.w(0, &format!("Min available:\t{v}\n"));
    } else if let Some(v) = &pdb.spec.max_unavailable {
        w.w(0, &format!("Max unavailable:\t{v}\n"));
    }
    match &pdb.spec.selector {
        Some(s) => w.w(
            0,
            &format!("Selector:\t{}\n", format_label_selector(Some(s))),
        ),
        None => w.w(0, "Selector:\t<unset>\n"),
    }
    w.w(0, "Status:\n");
    let s = &pdb.status;
    w.w(
        2,
        &format!("Allowed disruptions:\t{}\n", s.disruptions_allowed),
    );
    w.w(2, &format!("Current:\t{}\n", s.current_healthy));
    w.w(2, &format!("Desired:\t{}\n", s.desired_healthy));
    w.w(2, &format!("Total:\t{}\n", s.expected_pods));
    if show_events {
        let evs = events::for_object(
            &sim.api.events,
            "PodDisruptionBudget",
            &m.namespace,
            &m.name,
            &m.uid,
        );
        describe_events(&mut w, &evs, sim.now());
    }
    w.finish()
}
