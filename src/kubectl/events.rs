//! `core/v1` Events as the API would serve them, built from the simulation's event log.
//!
//! The log keeps one record per emission; like client-go's `EventCorrelator`, identical
//! emissions (same source, involved object, type, reason and message) are one Event with a
//! count and first/last timestamps. Names follow the recorder: `<object>.<hex nanoseconds>`.

use crate::api::{EventRecord, Time};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// One aggregated Event.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    pub name: String,
    pub namespace: String,
    pub involved_kind: String,
    pub involved_name: String,
    pub involved_namespace: String,
    pub involved_uid: String,
    pub type_: String,
    pub reason: String,
    pub message: String,
    pub source: String,
    /// `source.host` (also `reportingInstance`, as client-go's recorder sets it).
    pub host: String,
    /// `involvedObject.fieldPath` (the SUBOBJECT column).
    pub field_path: String,
    /// `firstTimestamp` (`Time::ZERO` when unset).
    pub first: Time,
    /// `lastTimestamp` (`Time::ZERO` when unset).
    pub last: Time,
    pub count: i32,
    /// `eventTime`: unset (`None`) for the core/v1 `record.EventRecorder`, set by
    /// events.k8s.io recorders.
    pub event_time: Option<Time>,
    /// `series` (count, lastObservedTime): only events.k8s.io recorders write one.
    pub series: Option<(i32, Time)>,
    /// `reportingComponent`: client-go's recorder copies `source.component` into it.
    pub reporting_controller: String,
    /// `reportingInstance`: client-go's recorder copies `source.host` into it.
    pub reporting_instance: String,
}

impl Event {
    /// `kind/name` in lower case (the OBJECT column).
    pub fn object(&self) -> String {
        if self.involved_name.is_empty() {
            self.involved_kind.to_lowercase()
        } else {
            format!(
                "{}/{}",
                self.involved_kind.to_lowercase(),
                self.involved_name
            )
        }
    }

    /// The Event as `kubectl get -o yaml` shows it.
    pub fn to_value(&self) -> Value {
        let api_version = crate::api::kind_info(&self.involved_kind)
            .map(|(a, ..)| a)
            .unwrap_or("v1");
        let mut involved = json!({
            "apiVersion": api_version,
            "kind": self.involved_kind,
            "name": self.involved_name,
        });
        if !self.involved_namespace.is_empty() {
            involved["namespace"] = json!(self.involved_namespace);
        }
        if !self.involved_uid.is_empty() {
            involved["uid"] = json!(self.involved_uid);
        }
        if !self.field_path.is_empty() {
            involved["fieldPath"] = json!(self.field_path);
        }
        // EventSource's fields are both omitempty.
        let mut source = json!({});
        if !self.source.is_empty() {
            source["component"] = json!(self.source);
        }
        if !self.host.is_empty() {
            source["host"] = json!(self.host);
        }
        let mut v = json!({
            "apiVersion": "v1",
            "kind": "Event",
            "count": self.count,
            "eventTime": self.event_time.map(micro_time),
            "firstTimestamp": meta_time(self.first),
            "involvedObject": involved,
            "lastTimestamp": meta_time(self.last),
            "message": self.message,
            "metadata": {
                "creationTimestamp": self.first.trunc_secs().to_rfc3339(),
                "name": self.name,
                "namespace": self.namespace,
            },
            "reason": self.reason,
            "reportingComponent": self.reporting_controller,
            "reportingInstance": self.reporting_instance,
            "source": source,
            "type": self.type_,
        });
        if self.count == 0 {
            // `count` is omitempty.
            if let Some(m) = v.as_object_mut() {
                m.remove("count");
            }
        }
        if let Some((count, last)) = self.series {
            v["series"] = json!({"count": count, "lastObservedTime": micro_time(last)});
        }
        v
    }
}

/// A `metav1.Time` as JSON carries it: whole seconds, `null` for the zero time.
fn meta_time(t: Time) -> Value {
    if t.is_zero() {
        Value::Null
    } else {
        json!(t.trunc_secs().to_rfc3339())
    }
}

/// A `metav1.MicroTime` as JSON carries it (`RFC3339Micro`, `2006-01-02T15:04:05.000000Z`).
pub fn micro_time(t: Time) -> String {
    let ms = t.to_rfc3339_millis();
    format!("{}000Z", ms.trim_end_matches('Z'))
}

/// client-go's `EventCorrelator` defaults (tools/record/events_cache.go), which
/// kube-controller-manager, the scheduler and the kubelet record with.
pub mod correlator {
    /// `defaultSpamBurst`: events a source may send about one object at once.
    pub const SPAM_BURST: f64 = 25.0;
    /// `defaultSpamQPS` (a float32 1/300: one more event per five minutes).
    pub const SPAM_QPS: f32 = 1.0 / 300.0;
    /// `defaultAggregateMaxEvents`: distinct messages of one reason before they are combined.
    pub const AGGREGATE_MAX_EVENTS: usize = 10;
    /// `defaultAggregateIntervalInSeconds`.
    pub const AGGREGATE_INTERVAL_MS: i64 = 600_000;
    /// `EventAggregatorByReasonMessageFunc`'s prefix.
    pub const COMBINED_PREFIX: &str = "(combined from similar events): ";
}

/// A token bucket as `flowcontrol.NewTokenBucketRateLimiterWithClock` (x/time/rate): full at
/// first use, refilled continuously.
struct Bucket {
    tokens: f64,
    last_ms: i64,
}

impl Bucket {
    fn try_accept(&mut self, now_ms: i64) -> bool {
        let elapsed = (now_ms - self.last_ms).max(0) as f64 / 1000.0;
        self.tokens =
            (self.tokens + elapsed * f64::from(correlator::SPAM_QPS)).min(correlator::SPAM_BURST);
        self.last_ms = self.last_ms.max(now_ms);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Turns the log of emissions into the Events the API holds, as client-go's `EventCorrelator`
/// does before it writes: `EventSourceObjectSpamFilter` drops an emission once its source has
/// used up the 25-event burst for the object (one more every 5 minutes); `EventAggregator`
/// combines emissions of one reason that differ only in their message once 10 distinct
/// messages arrived within 10 minutes of each other (one Event, "(combined from similar
/// events): <latest message>", counted); `eventLogger` counts identical emissions into one Event
/// with first and last timestamps. Records that already carry a count (imported Events) are
/// taken as they are. In the API's list order (namespace, then name).
///
/// Where upstream's `PopAny` drops an arbitrary message from the aggregation set, the smallest
/// is dropped (it only matters when a dropped message comes back); the LRU caches' 4,096-entry
/// limit is not modelled.
pub fn aggregate(records: &[EventRecord]) -> Vec<Event> {
    use std::collections::BTreeSet;
    // (source, kind, namespace, name, uid): getSpamKey (apiVersion follows the kind).
    type SpamKey<'a> = (&'a str, &'a str, &'a str, &'a str, &'a str);
    // The spam key plus type and reason: EventAggregatorByReasonFunc's aggregate key.
    type AggKey<'a> = (SpamKey<'a>, &'a str, &'a str);
    let mut buckets: BTreeMap<SpamKey, Bucket> = BTreeMap::new();
    let mut similar: BTreeMap<AggKey, (BTreeSet<&str>, i64)> = BTreeMap::new();
    // The logger's key: the aggregate key with the exact field path and message (getEventKey),
    // or None for the combined one (the aggregate key).
    type LogKey<'a> = (AggKey<'a>, Option<(&'a str, &'a str)>);
    let mut events: BTreeMap<LogKey, (usize, Event)> = BTreeMap::new();
    for (idx, r) in records.iter().enumerate() {
        let spam: SpamKey = (&r.source, &r.kind, &r.namespace, &r.name, &r.uid);
        let agg: AggKey = (spam, &r.type_, &r.reason);
        let now = r.time.0;
        let (key, message, n) = if r.count > 1 {
            (
                (agg, Some((r.field_path.as_str(), r.message.as_str()))),
                r.message.clone(),
                r.count,
            )
        } else {
            let bucket = buckets.entry(spam).or_insert(Bucket {
                tokens: correlator::SPAM_BURST,
                last_ms: now,
            });
            if !bucket.try_accept(now) {
                continue;
            }
            let rec = similar
                .entry(agg)
                .or_insert_with(|| (BTreeSet::new(), i64::MIN));
            if rec.1 == i64::MIN || now - rec.1 > correlator::AGGREGATE_INTERVAL_MS {
                rec.0.clear();
            }
            rec.0.insert(&r.message);
            rec.1 = now;
            if rec.0.len() < correlator::AGGREGATE_MAX_EVENTS {
                (
                    (agg, Some((r.field_path.as_str(), r.message.as_str()))),
                    r.message.clone(),
                    1,
                )
            } else {
                rec.0.pop_first();
                (
                    (agg, None),
                    format!("{}{}", correlator::COMBINED_PREFIX, r.message),
                    1,
                )
            }
        };
        events
            .entry(key)
            .and_modify(|(_, e)| {
                e.count += n;
                e.first = e.first.min(r.time);
                e.last = e.last.max(r.time);
                // The logger's patch carries the latest message (the combined event's changes).
                e.message.clone_from(&message);
            })
            .or_insert_with(|| {
                (
                    idx,
                    Event {
                        name: String::new(),
                        namespace: if r.namespace.is_empty() {
                            "default".into()
                        } else {
                            r.namespace.to_string()
                        },
                        involved_kind: r.kind.to_string(),
                        involved_name: r.name.to_string(),
                        involved_namespace: r.namespace.to_string(),
                        involved_uid: r.uid.to_string(),
                        type_: r.type_.to_string(),
                        reason: r.reason.to_string(),
                        message: message.clone(),
                        source: r.source.to_string(),
                        host: r.host.to_string(),
                        field_path: r.field_path.to_string(),
                        first: r.time,
                        last: r.time,
                        count: n.max(1),
                        // generateEvent: `event.ReportingInstance = recorder.source.Host;
                        // event.ReportingController = recorder.source.Component`; eventTime
                        // and series stay unset (tools/record/event.go).
                        event_time: None,
                        series: None,
                        reporting_controller: r.source.to_string(),
                        reporting_instance: r.host.to_string(),
                    },
                )
            });
    }
    // The recorder names events `<object>.<UnixNano of the first emission>`; the simulated
    // clock has millisecond resolution, so the emission index stands in for the nanoseconds
    // and keeps same-millisecond events in emission order.
    let mut out: Vec<Event> = events
        .into_values()
        .map(|(idx, mut e)| {
            let nanos = (e.first.0 as i128 * 1_000_000).max(0) + (idx % 1_000_000) as i128;
            e.name = format!("{}.{:x}", e.involved_name, nanos);
            e
        })
        .collect();
    crate::sort::sort_by(&mut out, |a, b| {
        (&a.namespace, &a.name, &a.reason, &a.message).cmp(&(
            &b.namespace,
            &b.name,
            &b.reason,
            &b.message,
        ))
    });
    out
}

/// Events about one object, as `describe` searches them (kind, namespace, name and uid when
/// both are known), sorted as `DescribeEvents` sorts them.
pub fn for_object(
    records: &[EventRecord],
    kind: &str,
    namespace: &str,
    name: &str,
    uid: &str,
) -> Vec<Event> {
    let mut evs: Vec<Event> = aggregate(records)
        .into_iter()
        .filter(|e| {
            e.involved_kind == kind
                && e.involved_namespace == namespace
                && e.involved_name == name
                && (uid.is_empty() || e.involved_uid.is_empty() || e.involved_uid == uid)
        })
        .collect();
    // `sort.Sort(event.SortableEvents(...))` on the list in the API's order: by the
    // whole-second time the API serves, equal times left where Go's sort puts them.
    crate::kubectl::events_cmd::sort_by_time(&mut evs, sortable_time);
    evs
}

/// `SortableEvents`' key (kubectl/pkg/util/event): the series' last observation, else
/// lastTimestamp (whole seconds, as stored), else eventTime.
pub(crate) fn sortable_time(e: &Event) -> Time {
    if let Some((_, last)) = e.series {
        return last;
    }
    if !e.last.is_zero() {
        return e.last.trunc_secs();
    }
    e.event_time.unwrap_or(Time::ZERO)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(t: i64, name: &str, reason: &str, msg: &str) -> EventRecord {
        EventRecord {
            time: Time::from_unix_secs(t),
            kind: "ReplicaSet".into(),
            namespace: "default".into(),
            name: name.into(),
            uid: "u1".into(),
            type_: "Normal".into(),
            reason: reason.into(),
            message: msg.into(),
            source: "replicaset-controller".into(),
            host: Default::default(),
            field_path: Default::default(),
            count: 1,
        }
    }

    #[test]
    fn identical_emissions_are_counted() {
        let recs = vec![
            rec(100, "web", "SuccessfulCreate", "Created pod: web-a"),
            rec(110, "web", "SuccessfulCreate", "Created pod: web-b"),
            rec(120, "web", "FailedCreate", "quota"),
            rec(130, "web", "FailedCreate", "quota"),
        ];
        let evs = aggregate(&recs);
        assert_eq!(evs.len(), 3);
        let failed = evs.iter().find(|e| e.reason == "FailedCreate").unwrap();
        assert_eq!(failed.count, 2);
        assert_eq!(failed.first, Time::from_unix_secs(120));
        assert_eq!(failed.last, Time::from_unix_secs(130));
        assert_eq!(failed.name, format!("web.{:x}", 120_000_000_002i128));
        assert_eq!(failed.object(), "replicaset/web");
        // Names sort by creation time within an object.
        assert_eq!(evs[0].message, "Created pod: web-a");
        let mine = for_object(&recs, "ReplicaSet", "default", "web", "u1");
        assert_eq!(mine.len(), 3);
        assert_eq!(mine.last().unwrap().reason, "FailedCreate");
        assert!(for_object(&recs, "ReplicaSet", "default", "web", "other").is_empty());
    }

    fn at(t_ms: i64, reason: &str, msg: &str) -> EventRecord {
        EventRecord {
            time: Time(t_ms),
            kind: "Pod".into(),
            namespace: "my-ns".into(),
            name: "my-pod".into(),
            uid: "C934D34AFB20242".into(),
            type_: "Normal".into(),
            reason: reason.into(),
            message: msg.into(),
            source: "kubelet".into(),
            host: "node-1".into(),
            field_path: Default::default(),
            count: 1,
        }
    }

    /// `previous` emissions `interval` seconds apart, then `new` one interval later: the Event
    /// the new emission ends up in (None when the spam filter dropped it).
    fn correlate(previous: &[(&str, String)], new: (&str, &str), interval: i64) -> Option<Event> {
        let mut recs: Vec<EventRecord> = previous
            .iter()
            .enumerate()
            .map(|(i, (r, m))| at(i as i64 * interval * 1000, r, m))
            .collect();
        let t = previous.len() as i64 * interval * 1000;
        recs.push(at(t, new.0, new.1));
        aggregate(&recs)
            .into_iter()
            .find(|e| e.reason == new.0 && e.last == Time(t))
    }

    fn repeat(n: usize, r: &'static str, m: &str) -> Vec<(&'static str, String)> {
        (0..n).map(|_| (r, m.to_string())).collect()
    }

    /// makeSimilarEvents: the same reason, messages `<prefix>-<i>-<message>`.
    fn similar(n: usize) -> Vec<(&'static str, String)> {
        (0..n)
            .map(|i| ("similar", format!("similar message-{i}-similar message")))
            .collect()
    }

    // Port of TestEventCorrelator (staging/src/k8s.io/client-go/tools/record/
    // events_cache_test.go). upstream's IntervalClock advances on every clock read, several
    // per correlation, so its gaps between emissions are a few times `intervalSeconds`; here
    // the gaps are exact, and the interval row uses 601 s (just over the 600 s window).
    // "events-from-different-containers-do-not-aggregate" is not ported: kubeplay's events
    // carry no involvedObject.fieldPath.
    #[test]
    fn event_correlator_upstream_rows() {
        // create-a-single-event
        let e = correlate(&[], ("first", "i am first"), 5).unwrap();
        assert_eq!((e.count, e.message.as_str()), (1, "i am first"));
        // the-same-event-should-just-count
        let e = correlate(
            &repeat(1, "duplicate", "me again"),
            ("duplicate", "me again"),
            5,
        );
        assert_eq!(e.unwrap().count, 2);
        // the-same-event-should-just-count-even-if-more-than-aggregate
        let prev = repeat(correlator::AGGREGATE_MAX_EVENTS, "duplicate", "me again");
        let e = correlate(&prev, ("duplicate", "me again"), 30).unwrap();
        assert_eq!(
            (e.count, e.message.as_str()),
            (correlator::AGGREGATE_MAX_EVENTS as i32 + 1, "me again")
        );
        // the-same-event-is-spam-if-happens-too-frequently
        let prev = repeat(26, "duplicate", "me again");
        assert!(correlate(&prev, ("duplicate", "me again"), 1).is_none());
        // similar-events-should-aggregate-event
        let e = correlate(&similar(9), ("similar", "similar message"), 5).unwrap();
        assert_eq!(
            (e.count, e.message.as_str()),
            (1, "(combined from similar events): similar message")
        );
        // similar-events-many-times-should-count-the-aggregate
        let e = correlate(&similar(10), ("similar", "similar message"), 5).unwrap();
        assert_eq!(
            (e.count, e.message.as_str()),
            (2, "(combined from similar events): similar message")
        );
        // similar-events-whose-interval-is-greater-than-aggregate-interval-do-not-aggregate
        let e = correlate(&similar(9), ("similar", "similar message"), 601).unwrap();
        assert_eq!((e.count, e.message.as_str()), (1, "similar message"));
    }

    // Port of TestEventSpamFilter (events_cache_test.go), the default spam key's row: the
    // filter keys on source and object only, so another reason about the same object is
    // spam too once the burst is used up (upstream's row uses a burst of 1; here the default
    // 25 is used up first).
    #[test]
    fn spam_filter_keys_on_source_and_object_not_reason() {
        let mut prev = repeat(25, "original", "i am first");
        prev.push(("other", "something else".into()));
        assert!(correlate(&prev[..25], ("duplicate", "me again"), 1).is_none());
        // Five minutes later one more token has been refilled.
        let recs: Vec<EventRecord> = (0..25)
            .map(|i| at(i * 1000, "original", "i am first"))
            .chain([at(24_000 + 300_000, "later", "refilled")])
            .collect();
        let evs = aggregate(&recs);
        assert!(evs.iter().any(|e| e.reason == "later"));
        assert_eq!(
            evs.iter().find(|e| e.reason == "original").unwrap().count,
            25
        );
    }
}

#[cfg(test)]
mod field_path_tests {
    use super::*;

    fn pulling(t_ms: i64, field_path: &str) -> EventRecord {
        EventRecord {
            time: Time(t_ms),
            kind: "Pod".into(),
            namespace: "default".into(),
            name: "two".into(),
            uid: "u".into(),
            type_: "Normal".into(),
            reason: "Pulling".into(),
            message: "Pulling image \"nginx\"".into(),
            source: "kubelet".into(),
            host: "node-1".into(),
            field_path: field_path.into(),
            count: 1,
        }
    }

    /// `getEventKey` includes `involvedObject.fieldPath`: the same message about two containers
    /// is two Events (each with its SUBOBJECT), the same container twice is one with count 2.
    #[test]
    fn identical_messages_about_two_containers_are_two_events() {
        let recs = [
            pulling(0, "spec.containers{a}"),
            pulling(0, "spec.containers{b}"),
            pulling(1_000, "spec.containers{a}"),
        ];
        let evs = aggregate(&recs);
        let mut got: Vec<(String, i32)> = evs
            .iter()
            .map(|e| (e.field_path.clone(), e.count))
            .collect();
        crate::sort::sort(&mut got);
        assert_eq!(
            got,
            [
                ("spec.containers{a}".to_string(), 2),
                ("spec.containers{b}".to_string(), 1)
            ]
        );
        let v = evs[0].to_value();
        assert!(v["involvedObject"]["fieldPath"]
            .as_str()
            .is_some_and(|p| p.starts_with("spec.containers{")));
        assert_eq!(v["source"]["host"], "node-1");
        assert_eq!(v["reportingInstance"], "node-1");
    }
}
