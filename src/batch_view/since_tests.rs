//! `tick_history` for the shown ticks only (from the oldest one on) classifies every tick as the
//! whole history does: the page's fast-forward relies on it to keep each frame's CronJob view
//! from scanning a week of runs (no upstream test: the classification is kubeplay's own view).

use super::*;
use crate::api::Duration;

fn builtin(name: &str) -> Simulation {
    crate::scenario::Scenario::parse(crate::scenario::builtin::get(name).unwrap())
        .unwrap()
        .build()
        .unwrap()
}

/// Every CronJob's past ticks at the view's windows, classified from the history since the
/// oldest tick and from the whole history.
fn check(sim: &Simulation) -> usize {
    let mut compared = 0;
    for window in [600.0, 3600.0, 8.0 * 86400.0] {
        for v in of(sim, window).cron_jobs {
            let cj = sim
                .api
                .store
                .list::<CronJob>(Some(&v.namespace))
                .find(|c| c.metadata.name == v.name)
                .unwrap();
            let ticks: Vec<Time> = v
                .past_ticks
                .iter()
                .map(|&t| Time::from_unix_secs(sim.start.unix_secs() + t as i64))
                .collect();
            let everything = tick_history(sim, cj, Time::from_unix_secs(0));
            let mut whole = classify_ticks(&ticks, &everything, sim.now());
            for i in &mut whole {
                i.time -= sim.start.unix_secs() as f64;
            }
            assert_eq!(
                v.past_tick_info,
                whole,
                "{} at {:?}, window {window}",
                v.name,
                sim.now()
            );
            compared += whole.len();
        }
    }
    compared
}

#[test]
fn shown_ticks_classify_as_with_the_whole_history() {
    for name in [
        "cronjob-hello",
        "cronjob-forbid",
        "cronjob-replace",
        "cronjob-downtime-deadline",
        "cronjob-downtime-no-deadline",
        "cronjob-friday-13",
    ] {
        let mut sim = builtin(name);
        let mut compared = 0;
        // Past the 10-minute window and the 2,000-tick cap of an every-minute schedule; the
        // Friday-the-13th schedule needs days for a tick.
        let last = if name == "cronjob-friday-13" {
            30 * 86400
        } else {
            36 * 3600
        };
        for step in [5 * 60, 20 * 60, 3600, 2 * 3600, last] {
            sim.run_for(Duration::from_secs(step)).unwrap();
            compared += check(&sim);
        }
        assert!(compared > 0, "{name}: no tick compared");
    }
}
