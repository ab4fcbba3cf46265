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
    pub first: Time,
    pub last: Time,
    pub count: i32,
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
        json!({
            "apiVersion": "v1",
            "kind": "Event",
            "count": self.count,
            "eventTime": null,
            "firstTimestamp": self.first.trunc_secs().to_rfc3339(),
            "involvedObject": involved,
            "lastTimestamp": self.last.trunc_secs().to_rfc3339(),
            "message": self.message,
            "metadata": {
                "creationTimestamp": self.first.trunc_secs().to_rfc3339(),
                "name": self.name,
                "namespace": self.namespace,
            },
            "reason": self.reason,
            "reportingComponent": self.source,
            "reportingInstance": "",
            "source": {"component": self.source},
            "type": self.type_,
        })
    }
}

/// Aggregates the log into Events, in the API's list order (namespace, then name).
pub fn aggregate(records: &[EventRecord]) -> Vec<Event> {
    type Key = (
        String,
        String,
        String,
        String,
        String,
        String,
        String,
        String,
    );
    let mut groups: BTreeMap<Key, (usize, Event)> = BTreeMap::new();
    for (idx, r) in records.iter().enumerate() {
        let key: Key = (
            r.kind.clone(),
            r.namespace.clone(),
            r.name.clone(),
            r.uid.clone(),
            r.type_.clone(),
            r.reason.clone(),
            r.message.clone(),
            r.source.clone(),
        );
        let n = r.count.max(1);
        groups
            .entry(key)
            .and_modify(|(_, e)| {
                e.count += n;
                e.first = e.first.min(r.time);
                e.last = e.last.max(r.time);
            })
            .or_insert_with(|| {
                (
                    idx,
                    Event {
                        name: String::new(),
                        namespace: if r.namespace.is_empty() {
                            "default".into()
                        } else {
                            r.namespace.clone()
                        },
                        involved_kind: r.kind.clone(),
                        involved_name: r.name.clone(),
                        involved_namespace: r.namespace.clone(),
                        involved_uid: r.uid.clone(),
                        type_: r.type_.clone(),
                        reason: r.reason.clone(),
                        message: r.message.clone(),
                        source: r.source.clone(),
                        first: r.time,
                        last: r.time,
                        count: n,
                    },
                )
            });
    }
    // The recorder names events `<object>.<UnixNano of the first emission>`; the simulated
    // clock has millisecond resolution, so the emission index stands in for the nanoseconds
    // and keeps same-millisecond events in emission order.
    let mut out: Vec<Event> = groups
        .into_values()
        .map(|(idx, mut e)| {
            let nanos = (e.first.0 as i128 * 1_000_000).max(0) + (idx % 1_000_000) as i128;
            e.name = format!("{}.{:x}", e.involved_name, nanos);
            e
        })
        .collect();
    out.sort_by(|a, b| {
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
/// both are known), sorted by last timestamp as `describe` sorts them.
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
    evs.sort_by(|a, b| (a.last, a.first, &a.name).cmp(&(b.last, b.first, &b.name)));
    evs
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
}
