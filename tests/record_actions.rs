//! `Simulation::set_record_actions`: the client-call log can be switched off (as the page
//! does) without changing what the simulation does.

use kubeplay::api::Duration;
use kubeplay::scenario::Scenario;

fn run(record: bool) -> (usize, String) {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/cronjob-hello.yaml"
    ))
    .expect("built-in scenario");
    let mut sim = Scenario::parse(&text)
        .and_then(|s| s.build())
        .expect("scenario builds");
    sim.set_record_actions(record);
    let until = sim.start + Duration::from_secs(600);
    sim.run_until(until).expect("runs");
    (sim.actions.len(), kubeplay::trace::render_trace(&sim))
}

#[test]
fn switching_the_action_log_off_keeps_it_empty_and_the_trace_identical() {
    let (with, trace_with) = run(true);
    let (without, trace_without) = run(false);
    assert!(
        with > 50,
        "ten minutes of an every-minute CronJob make many calls: {with}"
    );
    assert_eq!(without, 0);
    assert!(trace_with.contains("SuccessfulCreate"), "{trace_with}");
    assert_eq!(trace_with, trace_without);
}
