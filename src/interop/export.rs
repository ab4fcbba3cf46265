//! Export: a scenario → plain manifests (`manifests/NN-kind-name.yaml`, in apply order), KWOK
//! node manifests (`nodes.yaml`) and `replay.sh`, the timeline as real `kubectl` commands.
//!
//! Nothing is dropped silently: what has no real equivalent (kubelet fault rules and timings,
//! frozen pods, node failures, controller-manager restarts, feature gates, the start instant)
//! is listed in the script's header and, for timeline entries, as a comment where it would run.

use super::import::LOAD_ORDER;
use super::{ierr, InteropError};
use crate::api::Duration;
use crate::scenario::{expand_lists, parse_documents, Scenario};
use serde_json::Value;
use std::collections::BTreeSet;

/// Annotation KWOK uses to recognise the fake nodes it manages.
pub const KWOK_NODE_ANNOTATION: &str = "kwok.x-k8s.io/node";

/// Strips what the API server sets (identity, status, managedFields) and what a controller owns.
/// Returns `None` for objects a controller creates (controller ownerReference, or a
/// ControllerRevision): applying them would only fight their controller.
pub fn clean_manifest(v: &Value) -> Option<Value> {
    let mut v = v.clone();
    let kind = v.get("kind").and_then(Value::as_str).unwrap_or("");
    if kind == "ControllerRevision" {
        return None;
    }
    let controlled = v
        .pointer("/metadata/ownerReferences")
        .and_then(Value::as_array)
        .is_some_and(|refs| refs.iter().any(|r| r["controller"] == Value::Bool(true)));
    if controlled {
        return None;
    }
    let o = v.as_object_mut()?;
    o.remove("status");
    if let Some(m) = o.get_mut("metadata").and_then(Value::as_object_mut) {
        for k in [
            "uid",
            "resourceVersion",
            "creationTimestamp",
            "generation",
            "managedFields",
            "selfLink",
            "ownerReferences",
            "deletionTimestamp",
            "deletionGracePeriodSeconds",
        ] {
            m.remove(k);
        }
        if let Some(a) = m.get_mut("annotations").and_then(Value::as_object_mut) {
            a.remove("kubectl.kubernetes.io/last-applied-configuration");
            a.remove(crate::world::FROZEN_ANNOTATION);
            a.remove("deployment.kubernetes.io/revision");
            if a.is_empty() {
                m.remove("annotations");
            }
        }
    }
    Some(v)
}

/// `kind-name` for file names: lower-case, only `[a-z0-9.-]`.
fn file_stem(v: &Value) -> String {
    let kind = v.get("kind").and_then(Value::as_str).unwrap_or("object");
    let name = v
        .pointer("/metadata/name")
        .or_else(|| v.pointer("/metadata/generateName"))
        .and_then(Value::as_str)
        .unwrap_or("unnamed");
    format!("{kind}-{name}")
        .to_ascii_lowercase()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect()
}

fn yaml(v: &Value) -> Result<String, InteropError> {
    serde_norway::to_string(v).map_err(|e| ierr("", e.to_string()))
}

/// Quotes a word for bash (single quotes).
pub fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,@%+".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// Whether a kubectl line can be pasted into bash as is (no expansions, balanced quotes).
fn shell_safe(line: &str) -> bool {
    let mut single = false;
    let mut double = false;
    for c in line.chars() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '$' | '`' | '\\' if !single => return false,
            ';' | '&' | '|' | '<' | '>' | '(' | ')' | '\n' | '#' | '*' | '?' | '['
                if !single && !double =>
            {
                return false
            }
            _ => {}
        }
    }
    !single && !double
}

/// One line of a rule, compact JSON.
fn compact<T: serde::Serialize>(x: &T) -> String {
    serde_json::to_string(x).unwrap_or_default()
}

/// Builds the export: `(relative path, contents)` in write order.
///
/// # Errors
/// Anything wrong in the scenario (objects, timeline), with its location.
pub fn export_scenario(s: &Scenario) -> Result<Vec<(String, String)>, InteropError> {
    let start = s.start_time().map_err(|e| ierr(e.location, e.message))?;
    let mut raw = expand_lists(s.objects.clone());
    if !s.manifests.trim().is_empty() {
        let docs = parse_documents(&s.manifests)
            .map_err(|e| ierr(format!("manifests: {}", e.location), e.message))?;
        raw.extend(expand_lists(docs));
    }
    // Validate the way `kubeplay run` would.
    s.initial_objects()
        .map_err(|e| ierr(e.location, e.message))?;
    let actions = s
        .timeline_actions()
        .map_err(|e| ierr(e.location, e.message))?;

    let mut notes: Vec<String> = vec![];
    let mut files = vec![];

    // Nodes: the scenario's node entries plus Node objects, as KWOK fake nodes.
    let mut nodes: Vec<Value> = vec![];
    for n in s
        .node_objects(start)
        .map_err(|e| ierr(e.location, e.message))?
    {
        nodes.push(serde_json::to_value(&n).map_err(|e| ierr("nodes", e.to_string()))?);
    }
    let mut objects = vec![];
    let mut left_out = 0;
    for v in &raw {
        if v.get("kind").and_then(Value::as_str) == Some("Node") {
            nodes.push(v.clone());
            continue;
        }
        match clean_manifest(v) {
            Some(c) => objects.push(c),
            None => left_out += 1,
        }
    }
    if left_out > 0 {
        notes.push(format!(
            "{left_out} initial object(s) created by controllers (controller ownerReference, \
             ControllerRevisions) are not exported: their controllers create them anew"
        ));
    }
    let mut node_docs = vec![];
    let mut node_names = vec![];
    for n in &nodes {
        let name = n
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        node_names.push(name.clone());
        let mut m = serde_json::json!({
            "apiVersion": "v1",
            "kind": "Node",
            "metadata": {
                "name": name,
                "annotations": {KWOK_NODE_ANNOTATION: "fake"},
                "labels": n.pointer("/metadata/labels").cloned().unwrap_or(Value::Null),
            },
            "spec": {},
            "status": {
                "allocatable": n.pointer("/status/allocatable").cloned().unwrap_or(Value::Null),
                "capacity": n.pointer("/status/capacity").cloned().unwrap_or(Value::Null),
            },
        });
        if let Some(t) = n.pointer("/spec/taints") {
            m["spec"]["taints"] = t.clone();
        }
        if n.pointer("/spec/unschedulable") == Some(&Value::Bool(true)) {
            m["spec"]["unschedulable"] = Value::Bool(true);
        }
        node_docs.push(yaml(&m)?);
    }
    files.push((
        "nodes.yaml".to_string(),
        format!(
            "# The scenario's nodes as KWOK fake nodes (kwok.x-k8s.io/node: fake).\n# Apply with KWOK running; on kind, use a cluster with nodes of these names instead.\n{}",
            node_docs.join("---\n")
        ),
    ));

    // Namespaces first, then kinds in load order, keeping the scenario's order within a kind.
    let namespaces: BTreeSet<String> = objects
        .iter()
        .filter_map(|v| v.pointer("/metadata/namespace").and_then(Value::as_str))
        .filter(|ns| !ns.is_empty() && *ns != "default")
        .map(String::from)
        .collect();
    let mut ordered: Vec<Value> = namespaces
        .iter()
        .map(|ns| serde_json::json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}}))
        .collect();
    let mut rest: Vec<(usize, usize, Value)> = objects
        .into_iter()
        .enumerate()
        .map(|(i, v)| {
            let k = v.get("kind").and_then(Value::as_str).unwrap_or("");
            let r = LOAD_ORDER
                .iter()
                .position(|x| *x == k)
                .unwrap_or(LOAD_ORDER.len());
            (r, i, v)
        })
        .collect();
    crate::sort::sort_by_key(&mut rest, |(r, i, _)| (*r, *i));
    ordered.extend(rest.into_iter().map(|(_, _, v)| v));
    let mut manifest_names = vec![];
    for (i, v) in ordered.iter().enumerate() {
        let name = format!("manifests/{:02}-{}.yaml", i + 1, file_stem(v));
        if v.pointer("/spec/nodeName")
            .and_then(Value::as_str)
            .is_some_and(|n| !n.is_empty())
        {
            notes.push(format!(
                "{name} is bound to node {} (spec.nodeName): the cluster needs a node of that name",
                v.pointer("/spec/nodeName")
                    .and_then(Value::as_str)
                    .unwrap_or("")
            ));
        }
        manifest_names.push(name.clone());
        files.push((name, yaml(v)?));
    }

    // Header notes about the kubelet and the cluster.
    let k = &s.kubelet;
    let d = crate::world::KubeletConfig::default();
    notes.push(format!(
        "kubelet timings (imagePull {}, containerStart {}, readiness {}, containerStop {}) are the real cluster's own",
        k.image_pull, k.container_start, k.readiness, k.container_stop
    ));
    if k.init_container_run != d.init_container_run {
        notes.push(format!("kubelet.initContainerRun {}", k.init_container_run));
    }
    for (i, r) in k.rules.iter().enumerate() {
        notes.push(format!(
            "kubelet.rules[{i}] {} has no real equivalent: build an image that behaves so",
            compact(r)
        ));
    }
    for (i, m) in k.frozen.iter().enumerate() {
        notes.push(format!(
            "kubelet.frozen[{i}] {}: frozen pod status has no real equivalent",
            compact(m)
        ));
    }
    if !s.feature_gates.is_empty() {
        notes.push(format!(
            "featureGates {}: set them on kube-controller-manager (kind: featureGates in the cluster config)",
            compact(&s.feature_gates)
        ));
    }
    notes.push(format!(
        "t = 0 is {} in the scenario; here it is when the script starts (CronJob schedules follow the real clock)",
        start.to_rfc3339()
    ));

    // The script.
    let mut body = String::new();
    let mut last = Duration::ZERO;
    for (i, (at, action)) in actions.iter().enumerate() {
        let secs = at.0.div_euclid(1000) + i64::from(at.0.rem_euclid(1000) > 0);
        last = last.max(*at);
        body.push_str(&format!("\n# timeline[{i}] at {at}\nat {secs}\n"));
        use crate::sim::TimelineAction as A;
        match action {
            A::Kubectl(cmd) => {
                if shell_safe(cmd) {
                    body.push_str(&format!("\"$KUBECTL\" {cmd} || true\n"));
                } else {
                    let words = crate::kubectl::args::tokenize(cmd)
                        .map_err(|e| ierr(format!("timeline[{i}].kubectl"), e))?;
                    let q: Vec<String> = words.iter().map(|w| shell_quote(w)).collect();
                    body.push_str(&format!("\"$KUBECTL\" {} || true\n", q.join(" ")));
                }
            }
            A::KubectlWithInput(cmd, input) => {
                let mut delim = "KUBEPLAY_EOF".to_string();
                while input.lines().any(|l| l == delim) {
                    delim.push('_');
                }
                let input = if input.ends_with('\n') {
                    input.clone()
                } else {
                    format!("{input}\n")
                };
                body.push_str(&format!(
                    "\"$KUBECTL\" {cmd} <<'{delim}' || true\n{input}{delim}\n"
                ));
            }
            A::NodeFail(n) => {
                notes.push(format!(
                    "timeline[{i}] at {at}: nodeFail {n} (set NODE_FAIL_CMD, e.g. \"docker stop\" on kind)"
                ));
                body.push_str(&format!(
                    "# nodeFail {n}: no kubectl equivalent; the kubelet must stop.\nif [[ -n \"${{NODE_FAIL_CMD:-}}\" ]]; then $NODE_FAIL_CMD {} || true; else echo \"skipped: nodeFail {n}\" >&2; fi\n",
                    shell_quote(n)
                ));
            }
            A::NodeRecover(n) => {
                notes.push(format!(
                    "timeline[{i}] at {at}: nodeRecover {n} (set NODE_RECOVER_CMD, e.g. \"docker start\" on kind)"
                ));
                body.push_str(&format!(
                    "# nodeRecover {n}: no kubectl equivalent; the kubelet must come back.\nif [[ -n \"${{NODE_RECOVER_CMD:-}}\" ]]; then $NODE_RECOVER_CMD {} || true; else echo \"skipped: nodeRecover {n}\" >&2; fi\n",
                    shell_quote(n)
                ));
            }
            A::ControllerManager(on) => {
                let what = if *on { "start" } else { "stop" };
                notes.push(format!(
                    "timeline[{i}] at {at}: controllerManager {what} has no kubectl equivalent (not run)"
                ));
                body.push_str(&format!(
                    "# controllerManager {what}: no kubectl equivalent (on kind: move kube-controller-manager.yaml out of /etc/kubernetes/manifests and back)\necho \"skipped: controllerManager {what}\" >&2\n"
                ));
            }
        }
    }
    let end = s
        .default_duration()
        .map_err(|e| ierr(e.location, e.message))?
        .max(last);
    let end_secs = end.0.div_euclid(1000);
    let ns_list: Vec<String> = std::iter::once("default".to_string())
        .chain(namespaces.iter().cloned())
        .collect();

    let mut script = String::new();
    script.push_str("#!/usr/bin/env bash\n");
    script.push_str(&format!(
        "# Replays the kubeplay scenario {:?} on a real cluster (generated by `kubeplay export`).\n",
        s.metadata.name
    ));
    script.push_str("# Usage: ./replay.sh   (current kubectl context; KUBECTL=... to override)\n");
    script.push_str(
        "# At the end it records events.json and objects.yaml for `kubeplay compare`.\n#\n",
    );
    script.push_str(&format!(
        "# Nodes the scenario expects: {} (nodes.yaml has them as KWOK fake nodes).\n#\n",
        node_names.join(", ")
    ));
    script.push_str("# Not replayed as in kubeplay (no real equivalent):\n");
    for n in &notes {
        script.push_str(&format!("#   - {n}\n"));
    }
    script.push_str("set -euo pipefail\n");
    script.push_str("KUBECTL=\"${KUBECTL:-kubectl}\"\n");
    script.push_str("cd \"$(dirname \"$0\")\"\n");
    script.push_str("start=$(date +%s)\n");
    script.push_str("# at SECONDS: sleep until that many seconds after the start.\n");
    script.push_str("at() { local now=$(( $(date +%s) - start )); if (( $1 > now )); then sleep $(( $1 - now )); fi; echo \"t=$1s\" >&2; }\n");
    script.push_str("\n# t = 0: the initial objects, in apply order.\n");
    for m in &manifest_names {
        script.push_str(&format!("\"$KUBECTL\" apply -f {m}\n"));
    }
    script.push_str(&body);
    script.push_str(&format!(
        "\n# The end of the scenario ({end}): record what happened.\nat {end_secs}\n"
    ));
    let ns_args = ns_list.join(" ");
    script.push_str(&format!(
        "for ns in {ns_args}; do \"$KUBECTL\" get events -n \"$ns\" -o json; done | jq -s '{{apiVersion: \"v1\", kind: \"List\", items: (map(.items) | add)}}' > events.json 2>/dev/null || \"$KUBECTL\" get events -A -o json > events.json\n"
    ));
    script.push_str(
        "\"$KUBECTL\" get deploy,rs,sts,ds,jobs,cronjobs,pods -A -o yaml > objects.yaml\n",
    );
    script.push_str("echo \"recorded events.json and objects.yaml\" >&2\n");
    files.push(("replay.sh".to_string(), script));
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `shell_quote` writes, the console's tokenizer reads back as the same one word.
    #[test]
    fn quoted_words_tokenize_back_unchanged() {
        for w in [
            "web",
            "",
            "a b",
            "it's",
            r#"{"spec":{"replicas":2}}"#,
            r#"a\b"c"$x`y`"#,
            "tab\there\nnew\nline",
            "'''",
            "\\",
        ] {
            let line = format!("x {} y", shell_quote(w));
            assert_eq!(
                crate::kubectl::args::tokenize(&line).unwrap(),
                vec!["x".to_string(), w.to_string(), "y".to_string()],
                "{w:?}"
            );
        }
    }

    #[test]
    fn quoting() {
        assert_eq!(shell_quote("web"), "web");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert!(shell_safe("scale rs web --replicas=2"));
        assert!(shell_safe(
            r#"patch deploy web -p '{"spec":{"paused":true}}'"#
        ));
        assert!(!shell_safe("get pods; rm -rf /"));
        assert!(!shell_safe("get pods $(id)"));
    }

    #[test]
    fn controlled_objects_are_left_to_their_controllers() {
        let pod = serde_json::json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a",
            "uid": "1", "ownerReferences": [{"kind": "ReplicaSet", "name": "x", "uid": "2", "controller": true}]}});
        assert_eq!(clean_manifest(&pod), None);
        let bare = serde_json::json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a",
            "uid": "1", "resourceVersion": "5", "annotations": {"kubeplay.dev/frozen": "true"}},
            "status": {"phase": "Running"}});
        assert_eq!(
            clean_manifest(&bare),
            Some(serde_json::json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a"}}))
        );
    }
}
