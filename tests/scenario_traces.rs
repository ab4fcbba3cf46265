//! Every built-in scenario's full trace, compared with the reviewed file in tests/traces/.
//! Set `UPDATE_TRACES=1` to rewrite them (then review the diff like code).

use kubeplay::scenario::{builtin::BUILTIN, Scenario};

fn run(text: &str) -> (String, String) {
    let s = Scenario::parse(text).expect("parses");
    let mut sim = s.build().expect("builds");
    let end = sim.start + s.default_duration().expect("duration");
    sim.run_until(end).expect("runs");
    let json = serde_json::to_string(&kubeplay::trace::RunDocument::of(&sim)).expect("json");
    (
        kubeplay::trace::render_trace(&sim) + &kubeplay::trace::final_status(&sim),
        json,
    )
}

#[test]
fn builtin_traces_match_reviewed_files() {
    let update = std::env::var("UPDATE_TRACES").is_ok();
    let mut failures = vec![];
    for (name, text) in BUILTIN {
        let (trace, _) = run(text);
        let path = format!("{}/tests/traces/{name}.trace", env!("CARGO_MANIFEST_DIR"));
        if update {
            std::fs::write(&path, &trace).expect("write trace");
            continue;
        }
        let want = std::fs::read_to_string(&path).unwrap_or_default();
        if want != trace {
            failures.push(format!("--- {name}: trace differs from {path}\n{trace}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Same scenario + seed → byte-identical run document.
#[test]
fn runs_are_deterministic() {
    for (name, text) in BUILTIN {
        let a = run(text);
        let b = run(text);
        assert_eq!(a, b, "{name} is not deterministic");
    }
}
