//! Compare: a real run's `kubectl get events -o json` (and optionally a final object dump)
//! against kubeplay's run of the same scenario.
//!
//! Events are keyed by (reason, involved object kind, normalised name): generated suffixes
//! (pod `-x7k2q`, pod-template-hash, a CronJob's scheduled-minute Job suffix) become `*`, since
//! a real cluster generates different ones. The report lists keys seen more often in one run
//! than the other, and keys whose first occurrence is out of order (those outside the longest
//! common subsequence of first occurrences). With object dumps it also compares final replica
//! counts per workload.

use super::{ierr, InteropError};
use crate::api::{Duration, Object, Time};
use crate::scenario::{expand_lists, parse_documents, Scenario};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// `rand.String`'s alphabet (no vowels, no confusable digits): generated names use it.
const RAND_ALPHABET: &str = "bcdfghjklmnpqrstvwxz2456789";

fn generated_segment(seg: &str) -> bool {
    let n = seg.len();
    let in_alphabet = !seg.is_empty() && seg.chars().all(|c| RAND_ALPHABET.contains(c));
    (n == 5 && in_alphabet)
        // pod-template-hash / controller-revision-hash (SafeEncodeString of a uint32)
        || ((6..=10).contains(&n) && in_alphabet && seg.chars().any(|c| c.is_ascii_digit()))
        // CronJob Jobs: scheduled time in minutes since the epoch
        || (n >= 8 && seg.chars().all(|c| c.is_ascii_digit()))
}

/// Replaces generated name segments by `*`: `web-7b6f9d4c8-2xkqp` → `web-*-*`,
/// `backup-29146290` → `backup-*`; `db-0` and `node-1` stay.
pub fn normalize_name(name: &str) -> String {
    let mut parts: Vec<&str> = name.split('-').collect();
    for p in parts.iter_mut().skip(1) {
        if generated_segment(p) {
            *p = "*";
        }
    }
    parts.join("-")
}

/// An event's identity across runs.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct EventKey {
    pub reason: String,
    pub kind: String,
    pub name: String,
}

impl std::fmt::Display for EventKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}/{}", self.reason, self.kind, self.name)
    }
}

/// A key seen a different number of times in the two runs.
#[derive(Clone, Debug, PartialEq)]
pub struct CountDiff {
    pub key: EventKey,
    pub real: u32,
    pub kubeplay: u32,
}

/// A key present in both runs whose first occurrence is ordered differently.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderDiff {
    pub key: EventKey,
    /// Position among the first occurrences of the common keys (0-based).
    pub real_position: usize,
    pub kubeplay_position: usize,
}

/// A workload whose final counts differ (or that exists in one run only).
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectDiff {
    pub kind: String,
    pub name: String,
    pub field: String,
    pub real: Option<i64>,
    pub kubeplay: Option<i64>,
}

/// The structured comparison.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CompareReport {
    pub real_events: usize,
    pub kubeplay_events: usize,
    /// Seen (more often) in the real cluster only: kubeplay misses them.
    pub missing_in_kubeplay: Vec<CountDiff>,
    /// Seen (more often) in kubeplay only: the real control plane did not emit them.
    pub extra_in_kubeplay: Vec<CountDiff>,
    pub out_of_order: Vec<OrderDiff>,
    /// Present when an object dump was given.
    pub objects: Option<Vec<ObjectDiff>>,
}

impl CompareReport {
    pub fn diverges(&self) -> bool {
        !self.missing_in_kubeplay.is_empty()
            || !self.extra_in_kubeplay.is_empty()
            || !self.out_of_order.is_empty()
            || self.objects.as_ref().is_some_and(|o| !o.is_empty())
    }
}

/// One event occurrence, in time order.
#[derive(Clone, Debug, PartialEq)]
pub struct Occurrence {
    /// Whole seconds (real events have second resolution; kubeplay's are truncated to match).
    pub second: i64,
    pub key: EventKey,
    pub count: u32,
    pub namespace: String,
}

fn s<'a>(v: &'a Value, p: &str) -> &'a str {
    v.pointer(p).and_then(Value::as_str).unwrap_or("")
}

/// Parses `kubectl get events -o json` (core/v1 `Event`s or events.k8s.io/v1 with `regarding`),
/// a List, several documents or a bare array, sorted by time (eventTime, else firstTimestamp,
/// else lastTimestamp, else creationTimestamp; ties keep file order).
///
/// # Errors
/// Syntax errors, or items that are not events (with their path).
pub fn parse_real_events(text: &str) -> Result<Vec<Occurrence>, InteropError> {
    let docs = parse_documents(text).map_err(|e| ierr(e.location, e.message))?;
    let mut items = vec![];
    for d in docs {
        match d {
            Value::Array(a) => items.extend(expand_lists(a)),
            other => items.extend(expand_lists(vec![other])),
        }
    }
    let mut out = vec![];
    for (i, e) in items.iter().enumerate() {
        let kind = e.get("kind").and_then(Value::as_str).unwrap_or("Event");
        if kind != "Event" {
            return Err(ierr(
                format!("items[{i}]"),
                format!("expected kind Event, got {kind:?}"),
            ));
        }
        let obj = e
            .get("involvedObject")
            .or_else(|| e.get("regarding"))
            .ok_or_else(|| ierr(format!("items[{i}]"), "involvedObject: Required value"))?;
        let time = [
            "/eventTime",
            "/firstTimestamp",
            "/lastTimestamp",
            "/metadata/creationTimestamp",
        ]
        .iter()
        .find_map(|p| Time::parse_rfc3339(s(e, p)).ok())
        .unwrap_or(Time(i64::MIN));
        let count = e
            .get("count")
            .or_else(|| e.pointer("/series/count"))
            .and_then(Value::as_u64)
            .unwrap_or(1)
            .max(1) as u32;
        out.push((
            time,
            i,
            Occurrence {
                second: time.0.div_euclid(1000),
                key: EventKey {
                    reason: s(e, "/reason").to_string(),
                    kind: s(obj, "/kind").to_string(),
                    name: normalize_name(s(obj, "/name")),
                },
                count,
                namespace: s(obj, "/namespace").to_string(),
            },
        ));
    }
    crate::sort::sort_by_key(&mut out, |(t, i, _)| (*t, *i));
    Ok(out.into_iter().map(|(_, _, o)| o).collect())
}

fn counts(list: &[Occurrence]) -> BTreeMap<EventKey, u32> {
    let mut m = BTreeMap::new();
    for o in list {
        *m.entry(o.key.clone()).or_insert(0) += o.count;
    }
    m
}

/// The keys in `keep` ordered by their first second, ties by key: events within one second
/// have no reliable order in a real cluster, so both runs put them in the same canonical order.
fn first_occurrences(list: &[Occurrence], keep: &BTreeSet<EventKey>) -> Vec<EventKey> {
    let mut first: BTreeMap<&EventKey, i64> = BTreeMap::new();
    for o in list.iter().filter(|o| keep.contains(&o.key)) {
        let e = first.entry(&o.key).or_insert(o.second);
        *e = (*e).min(o.second);
    }
    let mut v: Vec<(i64, &EventKey)> = first.into_iter().map(|(k, t)| (t, k)).collect();
    crate::sort::sort(&mut v);
    v.into_iter().map(|(_, k)| k.clone()).collect()
}

/// Indices (into `a`) of a longest common subsequence of `a` and `b` (ties: the earliest).
fn lcs_in_a(a: &[EventKey], b: &[EventKey]) -> BTreeSet<usize> {
    let (n, m) = (a.len(), b.len());
    let mut dp = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            dp[i][j] = if a[i] == b[j] {
                dp[i + 1][j + 1] + 1
            } else {
                dp[i + 1][j].max(dp[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut keep = BTreeSet::new();
    while i < n && j < m {
        if a[i] == b[j] {
            keep.insert(i);
            i += 1;
            j += 1;
        } else if dp[i + 1][j] >= dp[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    keep
}

/// Compares two event sequences (pure).
pub fn compare_events(real: &[Occurrence], kubeplay: &[Occurrence]) -> CompareReport {
    let rc = counts(real);
    let kc = counts(kubeplay);
    let keys: BTreeSet<EventKey> = rc.keys().chain(kc.keys()).cloned().collect();
    let mut report = CompareReport {
        real_events: real.iter().map(|o| o.count as usize).sum(),
        kubeplay_events: kubeplay.iter().map(|o| o.count as usize).sum(),
        ..Default::default()
    };
    for k in &keys {
        let (r, p) = (
            rc.get(k).copied().unwrap_or(0),
            kc.get(k).copied().unwrap_or(0),
        );
        let d = CountDiff {
            key: k.clone(),
            real: r,
            kubeplay: p,
        };
        if r > p {
            report.missing_in_kubeplay.push(d);
        } else if p > r {
            report.extra_in_kubeplay.push(d);
        }
    }
    let common: BTreeSet<EventKey> = rc.keys().filter(|k| kc.contains_key(*k)).cloned().collect();
    let a = first_occurrences(real, &common);
    let b = first_occurrences(kubeplay, &common);
    let keep = lcs_in_a(&a, &b);
    for (i, k) in a.iter().enumerate() {
        if !keep.contains(&i) {
            report.out_of_order.push(OrderDiff {
                key: k.clone(),
                real_position: i,
                kubeplay_position: b.iter().position(|x| x == k).unwrap_or(0),
            });
        }
    }
    report
}

/// Final counts per workload: (kind, normalised name) → field → value.
pub type WorkloadCounts = BTreeMap<(String, String), BTreeMap<String, i64>>;

fn workload_counts_of(kind: &str, v: &Value) -> Option<Vec<(&'static str, i64)>> {
    let n = |p: &str| v.pointer(p).and_then(Value::as_i64).unwrap_or(0);
    Some(match kind {
        "Deployment" | "ReplicaSet" | "StatefulSet" | "ReplicationController" => vec![
            (
                "spec.replicas",
                v.pointer("/spec/replicas")
                    .and_then(Value::as_i64)
                    .unwrap_or(1),
            ),
            ("status.replicas", n("/status/replicas")),
            ("status.readyReplicas", n("/status/readyReplicas")),
        ],
        "DaemonSet" => vec![
            (
                "status.desiredNumberScheduled",
                n("/status/desiredNumberScheduled"),
            ),
            ("status.numberReady", n("/status/numberReady")),
        ],
        "Job" => vec![
            ("status.succeeded", n("/status/succeeded")),
            ("status.failed", n("/status/failed")),
        ],
        _ => return None,
    })
}

/// Final counts from JSON objects (a dump's items, or kubeplay's store).
pub fn workload_counts<'a>(objects: impl IntoIterator<Item = &'a Value>) -> WorkloadCounts {
    let mut out = WorkloadCounts::new();
    for v in objects {
        let kind = v.get("kind").and_then(Value::as_str).unwrap_or("");
        let Some(fields) = workload_counts_of(kind, v) else {
            continue;
        };
        // A Deployment's ReplicaSets are named by hash: sum those that normalise alike.
        let name = normalize_name(s(v, "/metadata/name"));
        let e = out.entry((kind.to_string(), name)).or_default();
        for (f, x) in fields {
            *e.entry(f.to_string()).or_insert(0) += x;
        }
    }
    out
}

/// Compares final counts (pure).
pub fn compare_objects(real: &WorkloadCounts, kubeplay: &WorkloadCounts) -> Vec<ObjectDiff> {
    let keys: BTreeSet<&(String, String)> = real.keys().chain(kubeplay.keys()).collect();
    let mut out = vec![];
    for k in keys {
        let (r, p) = (real.get(k), kubeplay.get(k));
        let fields: BTreeSet<&String> = r.into_iter().chain(p).flat_map(|m| m.keys()).collect();
        for f in fields {
            let rv = r.and_then(|m| m.get(f)).copied();
            let pv = p.and_then(|m| m.get(f)).copied();
            if rv != pv {
                out.push(ObjectDiff {
                    kind: k.0.clone(),
                    name: k.1.clone(),
                    field: f.clone(),
                    real: rv,
                    kubeplay: pv,
                });
            }
        }
    }
    out
}

/// Runs the scenario for `until` (default: its duration) and compares it with the real run.
///
/// # Errors
/// Scenario errors, a livelock, or unreadable event / object files.
pub fn compare_run(
    scenario: &Scenario,
    until: Option<Duration>,
    real_events: &str,
    real_objects: Option<&str>,
) -> Result<CompareReport, InteropError> {
    let mut sim = scenario.build().map_err(|e| ierr(e.location, e.message))?;
    let until = match until {
        Some(d) => d,
        None => scenario
            .default_duration()
            .map_err(|e| ierr(e.location, e.message))?,
    };
    let end = sim.start + until;
    sim.run_until(end).map_err(|e| ierr("", e))?;
    let mine: Vec<Occurrence> = sim
        .api
        .events
        .iter()
        .map(|e| Occurrence {
            second: e.time.0.div_euclid(1000),
            key: EventKey {
                reason: e.reason.to_string(),
                kind: e.kind.to_string(),
                name: normalize_name(&e.name),
            },
            count: 1,
            namespace: e.namespace.to_string(),
        })
        .collect();
    // Only the real events about what the scenario can know: its namespaces and its nodes.
    let namespaces: BTreeSet<String> = mine
        .iter()
        .map(|o| o.namespace.clone())
        .chain(sim.api.store.all().map(|o| o.meta().namespace.clone()))
        .filter(|n| !n.is_empty())
        .collect();
    let nodes: BTreeSet<String> = sim
        .api
        .store
        .list::<crate::api::Node>(None)
        .map(|n| n.metadata.name.clone())
        .collect();
    let real: Vec<Occurrence> = parse_real_events(real_events)?
        .into_iter()
        .filter(|o| {
            if o.namespace.is_empty() {
                o.key.kind == "Node" && nodes.contains(&o.key.name)
            } else {
                namespaces.contains(&o.namespace)
            }
        })
        .collect();
    let mut report = compare_events(&real, &mine);
    if let Some(text) = real_objects {
        let docs = parse_documents(text).map_err(|e| ierr(e.location, e.message))?;
        let items = expand_lists(docs);
        let real_counts = workload_counts(items.iter());
        let mine: Vec<Value> = sim
            .api
            .store
            .all()
            .filter(|o| !matches!(o, Object::Pod(_) | Object::Node(_)))
            .filter_map(|o| serde_json::to_value(o).ok())
            .collect();
        report.objects = Some(compare_objects(&real_counts, &workload_counts(mine.iter())));
    }
    Ok(report)
}

/// Renders a report as text.
pub fn render(r: &CompareReport) -> String {
    let mut out = format!(
        "events: {} in the real run, {} in kubeplay\n",
        r.real_events, r.kubeplay_events
    );
    let diff_line = |d: &CountDiff| {
        format!(
            "  {:<28} {:<40} real {:>3}  kubeplay {:>3}\n",
            d.key.reason,
            format!("{}/{}", d.key.kind, d.key.name),
            d.real,
            d.kubeplay
        )
    };
    if !r.missing_in_kubeplay.is_empty() {
        out.push_str("\nonly in the real run (kubeplay did not emit them):\n");
        for d in &r.missing_in_kubeplay {
            out.push_str(&diff_line(d));
        }
    }
    if !r.extra_in_kubeplay.is_empty() {
        out.push_str("\nonly in kubeplay (the real control plane did not emit them):\n");
        for d in &r.extra_in_kubeplay {
            out.push_str(&diff_line(d));
        }
    }
    if !r.out_of_order.is_empty() {
        out.push_str("\nout of order (first occurrence):\n");
        for d in &r.out_of_order {
            out.push_str(&format!(
                "  {:<28} {:<40} real #{}  kubeplay #{}\n",
                d.key.reason,
                format!("{}/{}", d.key.kind, d.key.name),
                d.real_position + 1,
                d.kubeplay_position + 1
            ));
        }
    }
    if let Some(objs) = &r.objects {
        if !objs.is_empty() {
            out.push_str("\nfinal state differs:\n");
            let show = |x: Option<i64>| x.map_or("-".to_string(), |v| v.to_string());
            for d in objs {
                out.push_str(&format!(
                    "  {:<40} {:<30} real {:>3}  kubeplay {:>3}\n",
                    format!("{}/{}", d.kind, d.name),
                    d.field,
                    show(d.real),
                    show(d.kubeplay)
                ));
            }
        }
    }
    out.push_str(if r.diverges() {
        "\nresult: DIVERGES\n"
    } else {
        "\nresult: same events and final counts\n"
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_suffixes_are_normalised() {
        assert_eq!(normalize_name("web-7b6f9d4c8-2xkqp"), "web-*-*");
        assert_eq!(normalize_name("web-7b6f9d4c8"), "web-*");
        assert_eq!(normalize_name("backup-29146290"), "backup-*");
        assert_eq!(normalize_name("backup-29146290-p7v2c"), "backup-*-*");
        assert_eq!(normalize_name("db-0"), "db-0");
        assert_eq!(normalize_name("node-exporter"), "node-exporter");
        assert_eq!(normalize_name("kind-worker2"), "kind-worker2");
        assert_eq!(normalize_name("frontend"), "frontend");
    }

    fn occ(second: i64, reason: &str, kind: &str, name: &str) -> Occurrence {
        Occurrence {
            second,
            key: EventKey {
                reason: reason.into(),
                kind: kind.into(),
                name: name.into(),
            },
            count: 1,
            namespace: "default".into(),
        }
    }

    #[test]
    fn missing_extra_and_reordered() {
        let mine = vec![
            occ(0, "ScalingReplicaSet", "Deployment", "web"),
            occ(1, "SuccessfulCreate", "ReplicaSet", "web-*"),
            occ(2, "Scheduled", "Pod", "web-*-*"),
            occ(2, "Pulling", "Pod", "web-*-*"),
            occ(3, "Started", "Pod", "web-*-*"),
        ];
        let real = vec![
            occ(0, "ScalingReplicaSet", "Deployment", "web"),
            occ(1, "Scheduled", "Pod", "web-*-*"),
            occ(2, "SuccessfulCreate", "ReplicaSet", "web-*"),
            occ(3, "Started", "Pod", "web-*-*"),
            occ(3, "Killing", "Pod", "web-*-*"),
        ];
        let r = compare_events(&real, &mine);
        assert_eq!(
            r.missing_in_kubeplay
                .iter()
                .map(|d| d.key.to_string())
                .collect::<Vec<_>>(),
            ["Killing Pod/web-*-*"]
        );
        assert_eq!(
            r.extra_in_kubeplay
                .iter()
                .map(|d| d.key.to_string())
                .collect::<Vec<_>>(),
            ["Pulling Pod/web-*-*"]
        );
        // One of the swapped pair is outside the LCS.
        assert_eq!(r.out_of_order.len(), 1);
        assert!(r.diverges());
        let same = compare_events(&mine, &mine);
        assert!(!same.diverges(), "{}", render(&same));
        // Within one second, order is not a divergence.
        let a = vec![occ(5, "A", "Pod", "x"), occ(5, "B", "Pod", "x")];
        let b = vec![occ(9, "B", "Pod", "x"), occ(9, "A", "Pod", "x")];
        assert!(!compare_events(&a, &b).diverges());
    }
}
