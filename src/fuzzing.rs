//! Bodies of the fuzz targets (fuzz/fuzz_targets/*.rs), shared with `tests/fuzz_corpus.rs`,
//! which replays the committed corpus on machines without cargo-fuzz. Each takes arbitrary
//! bytes and must neither panic nor hang; the round trip also checks identity.
//!
//! Every input must be cheap (the targets run a million inputs each, docs/hardening.md): the
//! kubectl fixture is built once per thread and copied per input, and simulations run under
//! [`run_bounded`] (a few seconds of virtual time and a cap on reconciles) instead of an
//! unbounded `run_for`.

use crate::api::{Duration, Time};
use crate::features::FeatureGates;
use crate::scenario::Scenario;
use crate::share::{self, JournalEntry, Share};
use crate::sim::{Simulation, TimelineAction};
use crate::store::apiserver::ApiServer;
use crate::world::World;

fn text(data: &[u8]) -> &str {
    std::str::from_utf8(data).unwrap_or("")
}

const EMPTY: &str = "apiVersion: kubeplay.dev/v1alpha1\nkind: Scenario\n";

/// The empty scenario with its control loops.
fn empty_sim() -> Simulation {
    Scenario::parse(EMPTY)
        .and_then(|s| s.build())
        .expect("the empty scenario builds")
}

/// The empty cluster without control loops: enough for kubectl commands that only talk to
/// the API server (`create`, `apply`), and much cheaper to build.
fn api_only_sim() -> Simulation {
    thread_local! {
        static BASE: (ApiServer, World, FeatureGates, Time) = {
            let sim = empty_sim();
            (sim.api.clone(), sim.world.clone(), sim.gates().clone(), sim.start)
        };
    }
    BASE.with(|(api, world, gates, start)| {
        let mut sim = Simulation::new(0, *start, gates.clone(), world.clone());
        sim.api = api.clone();
        sim
    })
}

/// The manifest the kubectl target's cluster runs.
const KUBECTL_FIXTURE: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c, image: nginx}]}\n";

/// A cluster with the Deployment `web` rolled out (2 ready pods). Built and run once per
/// thread; each call copies its API server and world and starts fresh control loops on them,
/// as a restarted controller manager would (they list everything and find it up to date).
fn kubectl_sim() -> Simulation {
    thread_local! {
        static BASE: (ApiServer, World, FeatureGates, Time) = {
            let mut sim = empty_sim();
            crate::kubectl::execute_with_input(&mut sim, "apply -f -", Some(KUBECTL_FIXTURE))
                .expect("the fixture applies");
            sim.run_for(Duration::from_secs(5)).expect("the fixture runs");
            (sim.api.clone(), sim.world.clone(), sim.gates().clone(), sim.start)
        };
    }
    BASE.with(|(api, world, gates, start)| {
        let mut sim = Simulation::new(0, *start, gates.clone(), world.clone());
        sim.api = api.clone();
        for l in crate::controllers::default_loops() {
            sim.add_loop(l);
        }
        sim
    })
}

/// Runs `sim` for at most `d` of virtual time and at most `max_syncs` reconciles, applying
/// `actions` (offsets from now) when due, so a fuzz input can never make a run long: a
/// manifest with a billion replicas creates pods in bounded batches and stops at the cap.
/// A livelock error ends the run (it is reported by the scenario tests, not here).
pub fn run_bounded(
    sim: &mut Simulation,
    d: Duration,
    max_syncs: u64,
    actions: Vec<(Duration, TimelineAction)>,
) {
    let start = sim.now();
    let until = start + d;
    let cap = sim.syncs.saturating_add(max_syncs);
    let mut actions = actions
        .into_iter()
        .map(|(at, a)| (start + at, a))
        .filter(|(at, _)| *at <= until)
        .collect::<Vec<_>>();
    // Stable: actions at the same instant keep the scenario's order.
    actions.sort_by_key(|(at, _)| *at);
    let mut actions = actions.into_iter().peekable();
    loop {
        while let Some((_, a)) = actions.next_if(|(at, _)| *at <= sim.now()) {
            sim.apply_action(a);
        }
        loop {
            if sim.syncs >= cap {
                return;
            }
            match sim.step() {
                Ok(true) => {}
                Ok(false) => break,
                Err(_) => return,
            }
        }
        let next = [sim.next_event_time(), actions.peek().map(|(at, _)| *at)]
            .into_iter()
            .flatten()
            .min();
        match next {
            Some(t) if t <= until => sim.api.now = t.max(sim.api.now),
            _ => return,
        }
    }
}

/// YAML → objects → strict decoding → validation, through `kubectl create -f -` and
/// `kubectl apply -f -` on an empty cluster.
pub fn yaml_objects(data: &[u8]) {
    let t = text(data);
    if let Ok(docs) = crate::scenario::parse_documents(t) {
        for v in crate::scenario::expand_lists(docs) {
            let kind = v
                .get("kind")
                .and_then(|k| k.as_str())
                .unwrap_or_default()
                .to_string();
            let _ = crate::api::schema::check(&kind, &v, false);
            if let Ok(o) = crate::api::Object::from_value(v) {
                let _ = crate::api::validation::validate_object(&o, None);
            }
        }
    }
    let mut sim = api_only_sim();
    let _ = crate::kubectl::execute_with_input(&mut sim, "create -f -", Some(t));
    let _ = crate::kubectl::execute_with_input(&mut sim, "apply -f -", Some(t));
}

/// Scenario decoding and building, then a short bounded run (30 s of virtual time, at most
/// 100 reconciles, the timeline applied as it falls due) when the cluster is small.
pub fn scenario(data: &[u8]) {
    let Ok(mut s) = Scenario::parse(text(data)) else {
        return;
    };
    let Ok(actions) = s.timeline_actions() else {
        return;
    };
    let small = s
        .nodes
        .as_ref()
        .is_none_or(|n| n.iter().map(|e| e.count.unwrap_or(1)).sum::<u32>() <= 20);
    if !small || s.objects.len() > 20 {
        return;
    }
    // The timeline is applied by run_bounded, which steps the clock itself.
    s.timeline.clear();
    if let Ok(mut sim) = s.build() {
        run_bounded(&mut sim, Duration::from_secs(30), 100, actions);
    }
}

/// Share-link decoding (bounded memory: the inflater stops at the cap).
pub fn share_link(data: &[u8]) {
    let t = text(data);
    if let Ok(Some(s)) = share::decode(t) {
        assert!(s.scenario.len() <= share::MAX_DECODED_BYTES);
    }
    let _ = share::decode(&format!("v=1&s={}", share::to_base64url(data)));
}

/// The kubectl command parser and dispatcher on a cluster with one rolled-out Deployment,
/// then the controllers' reaction (5 s of virtual time, at most 100 reconciles).
pub fn kubectl(data: &[u8]) {
    let mut sim = kubectl_sim();
    let t = text(data);
    let (cmd, stdin) = t.split_once('\0').map_or((t, None), |(a, b)| (a, Some(b)));
    let _ = crate::kubectl::execute_with_input(&mut sim, cmd, stdin);
    run_bounded(&mut sim, Duration::from_secs(5), 100, vec![]);
}

/// scenario → link → scenario is the identity (the input bytes are split into the scenario
/// text and journal commands at NUL bytes).
pub fn share_round_trip(data: &[u8]) {
    let t = String::from_utf8_lossy(data);
    let mut parts = t.split('\0');
    let scenario = parts.next().unwrap_or_default().to_string();
    let time = f64::from(data.first().copied().unwrap_or(0)) * 1.5;
    let journal: Vec<JournalEntry> = parts
        .take(1000)
        .enumerate()
        .map(|(i, c)| JournalEntry {
            at: i as f64 * 0.25,
            cmd: c.to_string(),
            stdin: (i % 2 == 1).then(|| c.chars().rev().collect()),
        })
        .collect();
    let s = Share {
        scenario,
        time,
        journal,
    };
    let link = share::encode(&s);
    match share::decode(&link) {
        Ok(Some(back)) => assert_eq!(back, s, "round trip changed the share"),
        Ok(None) => panic!("an encoded link is not recognised"),
        Err(e) => {
            // Only the size cap may refuse a link we made.
            assert!(e.contains("larger than"), "{e}");
        }
    }
}
