//! Determinism native vs WebAssembly: built-in scenarios run in the browser must produce the
//! very bytes of the reviewed native traces in tests/traces/ (same trace renderer, same final
//! status section as tests/scenario_traces.rs). Run with
//! `cargo test --target wasm32-unknown-unknown --test web_determinism` (wasm-bindgen-test-runner).
#![cfg(target_arch = "wasm32")]

use kubeplay::scenario::{builtin::BUILTIN, Scenario};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn trace_of(name: &str) -> String {
    let text = BUILTIN
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no built-in {name}"))
        .1;
    let s = Scenario::parse(text).expect("parses");
    let mut sim = s.build().expect("builds");
    let end = sim.start + s.default_duration().expect("duration");
    sim.run_until(end).expect("runs");
    kubeplay::trace::render_trace(&sim) + &kubeplay::trace::final_status(&sim)
}

macro_rules! same_as_native {
    ($test:ident, $name:literal) => {
        #[wasm_bindgen_test]
        fn $test() {
            let native = include_str!(concat!("traces/", $name, ".trace"));
            let wasm = trace_of($name);
            if wasm != native {
                let line = wasm
                    .lines()
                    .zip(native.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or(0);
                panic!(
                    "{}: wasm trace differs from native at line {}:\n wasm:   {:?}\n native: {:?}",
                    $name,
                    line + 1,
                    wasm.lines().nth(line),
                    native.lines().nth(line)
                );
            }
        }
    };
}

// Every built-in scenario with a reviewed trace: rollouts (surge/unavailable arithmetic),
// CronJobs across time zones (cron + tz data), HPAs (utilization ratios in floating point),
// StatefulSets, DaemonSets, Jobs and node failures (taint eviction timing).
same_as_native!(bare_pods_after_matches_native, "bare-pods-after");
same_as_native!(bare_pods_before_matches_native, "bare-pods-before");
same_as_native!(
    cronjob_downtime_deadline_matches_native,
    "cronjob-downtime-deadline"
);
same_as_native!(
    cronjob_downtime_no_deadline_matches_native,
    "cronjob-downtime-no-deadline"
);
same_as_native!(cronjob_forbid_matches_native, "cronjob-forbid");
same_as_native!(cronjob_friday_13_matches_native, "cronjob-friday-13");
same_as_native!(cronjob_hello_matches_native, "cronjob-hello");
same_as_native!(cronjob_replace_matches_native, "cronjob-replace");
same_as_native!(daemonset_fluentd_matches_native, "daemonset-fluentd");
same_as_native!(
    daemonset_node_eligibility_matches_native,
    "daemonset-node-eligibility"
);
same_as_native!(
    daemonset_rolling_update_matches_native,
    "daemonset-rolling-update"
);
same_as_native!(
    deployment_pause_resume_matches_native,
    "deployment-pause-resume"
);
same_as_native!(
    deployment_progress_deadline_matches_native,
    "deployment-progress-deadline"
);
same_as_native!(
    deployment_proportional_scaling_matches_native,
    "deployment-proportional-scaling"
);
same_as_native!(deployment_recreate_matches_native, "deployment-recreate");
same_as_native!(deployment_rollback_matches_native, "deployment-rollback");
same_as_native!(deployment_rollover_matches_native, "deployment-rollover");
same_as_native!(frontend_matches_native, "frontend");
same_as_native!(
    hpa_behavior_policies_matches_native,
    "hpa-behavior-policies"
);
same_as_native!(hpa_frontend_matches_native, "hpa-frontend");
same_as_native!(isolate_pod_matches_native, "isolate-pod");
same_as_native!(job_active_deadline_matches_native, "job-active-deadline");
same_as_native!(job_backoff_limit_matches_native, "job-backoff-limit");
same_as_native!(
    job_backoff_limit_per_index_matches_native,
    "job-backoff-limit-per-index"
);
same_as_native!(job_indexed_matches_native, "job-indexed");
same_as_native!(job_parallel_matches_native, "job-parallel");
same_as_native!(job_pi_matches_native, "job-pi");
same_as_native!(job_pi_with_ttl_matches_native, "job-pi-with-ttl");
same_as_native!(
    job_pod_failure_policy_matches_native,
    "job-pod-failure-policy"
);
same_as_native!(
    job_pod_failure_policy_ignore_matches_native,
    "job-pod-failure-policy-ignore"
);
same_as_native!(job_suspend_matches_native, "job-suspend");
same_as_native!(job_work_queue_matches_native, "job-work-queue");
same_as_native!(nginx_deployment_matches_native, "nginx-deployment");
same_as_native!(node_failure_matches_native, "node-failure");
same_as_native!(orphan_readopt_matches_native, "orphan-readopt");
same_as_native!(
    replication_controller_matches_native,
    "replication-controller"
);
same_as_native!(
    scale_down_deletion_cost_matches_native,
    "scale-down-deletion-cost"
);
same_as_native!(
    scale_down_doubled_up_matches_native,
    "scale-down-doubled-up"
);
same_as_native!(statefulset_canary_matches_native, "statefulset-canary");
same_as_native!(
    statefulset_forced_rollback_matches_native,
    "statefulset-forced-rollback"
);
same_as_native!(
    statefulset_ordered_failure_matches_native,
    "statefulset-ordered-failure"
);
same_as_native!(statefulset_parallel_matches_native, "statefulset-parallel");
same_as_native!(
    statefulset_rolling_update_matches_native,
    "statefulset-rolling-update"
);
same_as_native!(statefulset_web_matches_native, "statefulset-web");
