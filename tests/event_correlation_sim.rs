//! Events as the API holds them after client-go's `EventCorrelator` (tools/record/
//! events_cache.go): seen through `kubectl describe` on whole runs. The per-object spam filter
//! (a burst of 25, then one event per 5 minutes) and the aggregation of ten or more distinct
//! messages of one reason into "(combined from similar events): ..." are what real clusters
//! show for busy objects such as an every-minute CronJob or a ReplicaSet scaling up.

use kubeplay::api::Duration;
use kubeplay::kubectl::execute;
use kubeplay::scenario::{builtin, Scenario};
use kubeplay::sim::Simulation;

fn run(name: &str, secs: i64) -> Simulation {
    let s = Scenario::parse(builtin::get(name).expect("builtin")).expect("parses");
    let mut sim = s.build().expect("builds");
    let t = sim.start + Duration::from_secs(secs);
    sim.run_until(t).unwrap();
    sim
}

fn event_lines(out: &str) -> Vec<&str> {
    out.split("Events:")
        .nth(1)
        .expect("an Events section")
        .lines()
        .filter(|l| l.trim_start().starts_with("Normal") || l.trim_start().starts_with("Warning"))
        .collect()
}

#[test]
fn an_every_minute_cronjob_runs_out_of_event_budget() {
    let mut sim = run("cronjob-hello", 3600);
    let out = execute(&mut sim, "describe cronjob hello").unwrap();
    let lines = event_lines(&out);
    // The controller emitted about three events a minute (SuccessfulCreate, SawCompletedJob,
    // SuccessfulDelete): 25 pass the spam filter at once, then one per five minutes.
    let raw = sim
        .api
        .events
        .iter()
        .filter(|e| e.kind == "CronJob" && e.name == "hello")
        .count();
    assert!(raw > 150, "{raw} emissions");
    let counted: i32 = lines
        .iter()
        .map(|l| {
            l.split("(x")
                .nth(1)
                .and_then(|r| r.split_whitespace().next())
                .map_or(1, |n| n.parse().unwrap())
        })
        .sum();
    // 25 + one per full 5 minutes after the burst was spent (about 50 minutes: 10 or 11).
    assert!(
        (35..=37).contains(&counted),
        "{counted} events recorded\n{out}"
    );
    // The later SuccessfulCreate events differ only in the job name: once ten distinct
    // messages arrived within ten minutes they are one combined Event, counted.
    let combined = lines
        .iter()
        .find(|l| l.contains("(combined from similar events): Created job hello-"))
        .unwrap_or_else(|| panic!("a combined event\n{out}"));
    assert!(combined.contains("SuccessfulCreate"), "{combined}");
    assert!(combined.contains("(x"), "{combined}");
}

#[test]
fn a_replicaset_scaling_to_ten_combines_the_tenth_created_pod() {
    let mut sim = run("hpa-frontend", 600);
    let out = execute(&mut sim, "describe rs frontend").unwrap();
    let creates: Vec<&str> = event_lines(&out)
        .into_iter()
        .filter(|l| l.contains("SuccessfulCreate"))
        .collect();
    // Nine "Created pod: <name>" events, then the tenth distinct message is the combined one.
    assert_eq!(creates.len(), 10, "{out}");
    assert_eq!(
        creates
            .iter()
            .filter(|l| l.contains("(combined from similar events): Created pod: frontend-"))
            .count(),
        1,
        "{out}"
    );
}
