//! Bodies of the fuzz targets (fuzz/fuzz_targets/*.rs), shared with `tests/fuzz_corpus.rs`,
//! which replays the committed corpus on machines without cargo-fuzz. Each takes arbitrary
//! bytes and must neither panic nor hang; the round trip also checks identity.

use crate::api::Duration;
use crate::scenario::Scenario;
use crate::share::{self, JournalEntry, Share};
use crate::sim::Simulation;

fn text(data: &[u8]) -> &str {
    std::str::from_utf8(data).unwrap_or("")
}

fn empty_sim() -> Simulation {
    Scenario::parse("apiVersion: kubeplay.dev/v1alpha1\nkind: Scenario\n")
        .and_then(|s| s.build())
        .expect("the empty scenario builds")
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
    let mut sim = empty_sim();
    let _ = crate::kubectl::execute_with_input(&mut sim, "create -f -", Some(t));
    let _ = crate::kubectl::execute_with_input(&mut sim, "apply -f -", Some(t));
}

/// Scenario decoding and building, then a short bounded run when the cluster is small.
pub fn scenario(data: &[u8]) {
    let Ok(s) = Scenario::parse(text(data)) else {
        return;
    };
    let _ = s.timeline_actions();
    let small = s
        .nodes
        .as_ref()
        .is_none_or(|n| n.iter().map(|e| e.count.unwrap_or(1)).sum::<u32>() <= 20);
    if !small || s.objects.len() > 20 {
        return;
    }
    if let Ok(mut sim) = s.build() {
        let _ = sim.run_for(Duration::from_secs(30));
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

/// The kubectl command parser and dispatcher on a cluster with one Deployment.
pub fn kubectl(data: &[u8]) {
    let mut sim = empty_sim();
    let _ = crate::kubectl::execute_with_input(
        &mut sim,
        "apply -f -",
        Some("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c, image: nginx}]}\n"),
    );
    let t = text(data);
    let (cmd, stdin) = t.split_once('\0').map_or((t, None), |(a, b)| (a, Some(b)));
    let _ = crate::kubectl::execute_with_input(&mut sim, cmd, stdin);
    let _ = sim.run_for(Duration::from_secs(5));
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
