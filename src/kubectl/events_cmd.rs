//! `kubectl events` (`staging/src/k8s.io/kubectl/pkg/cmd/events/events.go` and
//! `event_printer.go`): the Events of a namespace (or all, `-A`), optionally only those about
//! one object (`--for TYPE/NAME`) or of some types (`--types Normal,Warning`), sorted by time
//! and printed by the `EventPrinter` (`LAST SEEN TYPE REASON OBJECT MESSAGE`, OBJECT as
//! `Kind/name`) or as an `EventList` (`-o json|yaml|name|jsonpath=...`).
//!
//! kubeplay never blocks, so `--watch` is refused as `get --watch` is: advance the simulation
//! and run the command again.

use super::args::{self, Flag};
use super::events::Event;
use super::jsonpath;
use super::output::{go_json_escape, no_printer};
use super::resource::{self, Kind};
use super::table::escape_terminal;
use super::tabwriter::{self, TABLE_MINWIDTH, TABLE_PADDING};
use super::{Namespace, Out};
use crate::api::{human_duration, Time};
use crate::sim::Simulation;
use serde::Serialize;

const CMD: &str = "kubectl events";

const FLAGS: &[Flag] = &[
    Flag::bool("watch").short('w'),
    Flag::bool("all-namespaces").short('A'),
    Flag::str("for"),
    Flag::strings("types"),
    Flag::bool("no-headers"),
    Flag::int("chunk-size"),
    // genericclioptions.PrintFlags.
    Flag::str("output").short('o'),
    Flag::bool("show-managed-fields"),
    Flag::bool("allow-missing-template-keys"),
    Flag::str("template"),
];

/// The `-o` formats kubeplay's `events` supports (kubectl's `PrintFlags` also has the
/// go-template family).
const FORMATS: &[&str] = &["json", "jsonpath", "name", "yaml"];

pub(crate) fn run(sim: &mut Simulation, words: &[String], out: &mut Out) -> Result<(), String> {
    let p = args::parse(CMD, words, FLAGS)?;
    // cobra accepts (and ignores) positional arguments: the command sets no `Args` validator.
    let ns = Namespace::from(&p);
    let all_ns = p.bool("all-namespaces");

    // ToOptions: --for, then the printer; then Validate (--types).
    let target = match p.str("for") {
        Some(f) if !f.is_empty() => Some(decode_resource_type_name(f)?),
        _ => None,
    };
    let output = p.string("output");
    let (format, template) = match output.split_once('=') {
        Some((f, t)) if f == "jsonpath" => (f.to_string(), t.to_string()),
        // `-o jsonpath --template '{...}'`.
        _ => (output.clone(), p.string("template")),
    };
    if !format.is_empty() && !FORMATS.contains(&format.as_str()) {
        return Err(no_printer(&output, FORMATS));
    }
    if format == "jsonpath" && template.is_empty() {
        return Err("error: template format specified but no template given".into());
    }
    let types = p.strings("types");
    validate_types(&types)?;
    if p.bool("watch") {
        return Err(
            "error: kubeplay cannot watch: advance the simulation and run events again".into(),
        );
    }

    // Run: list (namespace or all), the field selector from --for, the --types filter.
    let mut events: Vec<Event> = super::events::aggregate(&sim.api.events)
        .into_iter()
        .filter(|e| all_ns || e.namespace == ns.name)
        .filter(|e| match &target {
            Some((kind, name)) if !name.is_empty() => {
                e.involved_kind == kind.kind_name()
                    && involved_api_version(e) == kind.api_version()
                    && &e.involved_name == name
            }
            _ => true,
        })
        .filter(|e| filtered_event_type(&types, &e.type_))
        .collect();
    if events.is_empty() {
        // Printed on standard error; kubectl exits 0.
        out.eprint(&if all_ns {
            "No events found.".to_string()
        } else {
            format!("No events found in {} namespace.", ns.name)
        });
        return Ok(());
    }
    sort_by_time(&mut events, |e| e.last.trunc_secs());
    let now = sim.now();
    match format.as_str() {
        "" => {
            let views: Vec<EventView> = events.iter().map(EventView::from).collect();
            let table = render_table(views, &types, p.bool("no-headers"), all_ns, now);
            out.print(&table.unwrap_or_default());
        }
        "name" => {
            let names: String = events
                .iter()
                .map(|e| format!("event/{}\n", e.name))
                .collect();
            out.print(&names);
        }
        "json" => out.print(&to_go_json(&EventList::new(&events))),
        "yaml" => {
            // sigs.k8s.io/yaml: JSON, then YAML with sorted keys.
            let v = serde_json::to_value(EventList::new(&events)).unwrap_or_default();
            out.print(&super::yaml::to_yaml(&v));
        }
        _ => {
            let v = serde_json::to_value(EventList::new(&events)).unwrap_or_default();
            // The JSONPath printer writes no newline of its own.
            out.print_raw(&jsonpath::print(&template, &v)?);
        }
    }
    Ok(())
}

/// The involved object's apiVersion as the Event records it.
fn involved_api_version(e: &Event) -> &'static str {
    crate::api::kind_info(&e.involved_kind)
        .map(|(a, ..)| a)
        .unwrap_or("v1")
}

/// `decodeResourceTypeName`: `TYPE/NAME` resolved through the REST mapper (lower-cased, short
/// names and `resource.group` allowed). Upstream's `found == false` for a value without a
/// slash becomes `ToOptions`' `--for must be in resource/name form` here.
fn decode_resource_type_name(s: &str) -> Result<(Kind, String), String> {
    if !s.contains('/') {
        return Err("error: --for must be in resource/name form".into());
    }
    let seg: Vec<&str> = s.split('/').collect();
    if seg.len() != 2 {
        return Err(
            "error: arguments in resource/name form may not have more than one slash".into(),
        );
    }
    let (res, name) = (seg[0].to_lowercase(), seg[1].to_string());
    match resource::resolve(&res) {
        Ok(kind) => Ok((kind, name)),
        // `meta.NoResourceMatchError`, which `CheckErr` prints without an `error: ` prefix.
        Err(_) => Err(match res.split_once('.') {
            Some((r, group)) => {
                format!("the server doesn't have a resource type {r:?} in group {group:?}")
            }
            None => format!("the server doesn't have a resource type {res:?}"),
        }),
    }
}

/// `EventsOptions.Validate`.
fn validate_types(types: &[String]) -> Result<(), String> {
    for t in types {
        if !t.eq_ignore_ascii_case("Normal") && !t.eq_ignore_ascii_case("Warning") {
            return Err("error: valid --types are Normal or Warning".into());
        }
    }
    Ok(())
}

/// `filteredEventType`: every type when `--types` is not given, else a case-insensitive match.
fn filtered_event_type(types: &[String], et: &str) -> bool {
    types.is_empty() || types.iter().any(|t| t.eq_ignore_ascii_case(et))
}

/// `SortableEvents`' key, `eventTime`: the series' last observation, else lastTimestamp (whole
/// seconds, as the API serves it), else eventTime.
fn event_time(e: &EventView) -> Time {
    if let Some((_, last)) = e.series {
        return last;
    }
    match e.last_timestamp {
        Some(t) if !t.is_zero() => t.trunc_secs(),
        _ => e.event_time.unwrap_or(Time::ZERO),
    }
}

/// `sort.Sort(SortableEvents(items))`: ascending by the key, with Go's (unstable) algorithm.
pub(crate) fn sort_by_time<T>(items: &mut [T], key: impl Fn(&T) -> Time) {
    gosort::sort(items, |a, b| key(a) < key(b));
}

/// Filters by `--types`, sorts and prints views as `kubectl events` does (table through the
/// tab writer); `None` when nothing is left (kubectl's `No events found` case).
fn render_table(
    mut views: Vec<EventView>,
    types: &[String],
    no_headers: bool,
    all_namespaces: bool,
    now: Time,
) -> Option<String> {
    views.retain(|v| filtered_event_type(types, &v.type_));
    if views.is_empty() {
        return None;
    }
    sort_by_time(&mut views, event_time);
    let raw = print_table(&views, no_headers, all_namespaces, now);
    Some(tabwriter::format(&raw, TABLE_MINWIDTH, TABLE_PADDING))
}

/// What the `EventPrinter` reads from a core/v1 Event.
#[derive(Clone, Debug, Default)]
pub(crate) struct EventView {
    pub namespace: String,
    pub type_: String,
    pub reason: String,
    pub kind: String,
    pub name: String,
    pub message: String,
    /// `eventTime` (events.k8s.io recorders); `None` is the zero MicroTime.
    pub event_time: Option<Time>,
    /// `series`: (count, lastObservedTime).
    pub series: Option<(i32, Time)>,
    pub first_timestamp: Option<Time>,
    pub last_timestamp: Option<Time>,
    pub count: i32,
}

impl From<&Event> for EventView {
    fn from(e: &Event) -> EventView {
        EventView {
            namespace: e.namespace.clone(),
            type_: e.type_.clone(),
            reason: e.reason.clone(),
            kind: e.involved_kind.clone(),
            name: e.involved_name.clone(),
            message: e.message.clone(),
            event_time: e.event_time,
            series: e.series,
            // metav1.Time as the API serves it: whole seconds.
            first_timestamp: (!e.first.is_zero()).then(|| e.first.trunc_secs()),
            last_timestamp: (!e.last.is_zero()).then(|| e.last.trunc_secs()),
            count: e.count,
        }
    }
}

/// `translateTimestampSince` / `translateMicroTimestampSince`.
fn since(t: Option<Time>, now: Time) -> String {
    match t {
        Some(t) if !t.is_zero() => human_duration(now - t),
        _ => "<unknown>".into(),
    }
}

/// `getInterval`: `<age>` or `<last> (xN over <first>)`.
pub(crate) fn get_interval(e: &EventView, now: Time) -> String {
    let first = if e.event_time.is_some_and(|t| !t.is_zero()) {
        since(e.event_time, now)
    } else {
        since(e.first_timestamp, now)
    };
    if let Some((count, last)) = e.series {
        format!("{} (x{count} over {first})", since(Some(last), now))
    } else if e.count > 1 {
        format!(
            "{} (x{} over {first})",
            since(e.last_timestamp, now),
            e.count
        )
    } else {
        first
    }
}

/// `escapeCell`: cut at the first form feed, newline or carriage return (adding `...`), then
/// `printers.EscapeTerminal`.
fn escape_cell(s: &str) -> String {
    match s.find(['\x0c', '\n', '\r']) {
        Some(i) => escape_terminal(&format!("{}...", &s[..i])),
        None => escape_terminal(s),
    }
}

/// `EventPrinter.PrintObj` for a list: tab-separated lines before the tab writer.
pub(crate) fn print_table(
    events: &[EventView],
    no_headers: bool,
    all_namespaces: bool,
    now: Time,
) -> String {
    let mut s = String::new();
    if !no_headers {
        if all_namespaces {
            s.push_str("NAMESPACE\t");
        }
        s.push_str("LAST SEEN\tTYPE\tREASON\tOBJECT\tMESSAGE\n");
    }
    for e in events {
        if all_namespaces {
            s.push_str(&e.namespace);
            s.push('\t');
        }
        s.push_str(&format!(
            "{}\t{}\t{}\t{}/{}\t{}\n",
            get_interval(e, now),
            escape_cell(&e.type_),
            escape_cell(&e.reason),
            escape_cell(&e.kind),
            escape_cell(&e.name),
            escape_cell(e.message.trim()),
        ));
    }
    s
}

/// `corev1.EventList` as `json.Marshal` writes the typed struct (fields in Go declaration
/// order, `omitempty` honoured).
#[derive(Serialize)]
struct EventList {
    kind: &'static str,
    #[serde(rename = "apiVersion")]
    api_version: &'static str,
    metadata: EmptyMeta,
    items: Vec<EventOut>,
}

#[derive(Serialize)]
struct EmptyMeta {}

#[derive(Serialize)]
struct EventOut {
    kind: &'static str,
    #[serde(rename = "apiVersion")]
    api_version: &'static str,
    metadata: EventMeta,
    #[serde(rename = "involvedObject")]
    involved_object: ObjectRef,
    #[serde(skip_serializing_if = "String::is_empty")]
    reason: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    message: String,
    source: Source,
    #[serde(rename = "firstTimestamp")]
    first_timestamp: String,
    #[serde(rename = "lastTimestamp")]
    last_timestamp: String,
    #[serde(skip_serializing_if = "is_zero")]
    count: i32,
    #[serde(rename = "type", skip_serializing_if = "String::is_empty")]
    type_: String,
    #[serde(rename = "eventTime")]
    event_time: Option<String>,
    #[serde(rename = "reportingComponent")]
    reporting_component: String,
    #[serde(rename = "reportingInstance")]
    reporting_instance: String,
}

fn is_zero(n: &i32) -> bool {
    *n == 0
}

#[derive(Serialize)]
struct EventMeta {
    name: String,
    namespace: String,
    #[serde(rename = "creationTimestamp")]
    creation_timestamp: String,
}

#[derive(Serialize)]
struct ObjectRef {
    kind: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    namespace: String,
    name: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    uid: String,
    #[serde(rename = "apiVersion")]
    api_version: &'static str,
    #[serde(rename = "fieldPath", skip_serializing_if = "String::is_empty")]
    field_path: String,
}

#[derive(Serialize)]
struct Source {
    #[serde(skip_serializing_if = "String::is_empty")]
    component: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    host: String,
}

impl EventList {
    fn new(events: &[Event]) -> EventList {
        EventList {
            kind: "EventList",
            api_version: "v1",
            metadata: EmptyMeta {},
            items: events.iter().map(EventOut::from).collect(),
        }
    }
}

impl From<&Event> for EventOut {
    fn from(e: &Event) -> EventOut {
        let first = e.first.trunc_secs().to_rfc3339();
        EventOut {
            kind: "Event",
            api_version: "v1",
            metadata: EventMeta {
                name: e.name.clone(),
                namespace: e.namespace.clone(),
                creation_timestamp: first.clone(),
            },
            involved_object: ObjectRef {
                kind: e.involved_kind.clone(),
                namespace: e.involved_namespace.clone(),
                name: e.involved_name.clone(),
                uid: e.involved_uid.clone(),
                api_version: involved_api_version(e),
                field_path: e.field_path.clone(),
            },
            reason: e.reason.clone(),
            message: e.message.clone(),
            source: Source {
                component: e.source.clone(),
                host: e.host.clone(),
            },
            first_timestamp: first,
            last_timestamp: e.last.trunc_secs().to_rfc3339(),
            count: e.count,
            type_: e.type_.clone(),
            event_time: e.event_time.map(crate::kubectl::events::micro_time),
            reporting_component: e.reporting_controller.clone(),
            reporting_instance: e.reporting_instance.clone(),
        }
    }
}

/// `json.MarshalIndent(obj, "", "    ")` of a typed struct (field order kept) plus a newline.
fn to_go_json<T: Serialize>(v: &T) -> String {
    let mut buf = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, fmt);
    if v.serialize(&mut ser).is_err() {
        return "{}\n".into();
    }
    let mut s = go_json_escape(&String::from_utf8_lossy(&buf));
    s.push('\n');
    s
}

/// Go's `sort.Sort` (pattern-defeating quicksort, `sort/zsortinterface.go` since Go 1.19), so
/// that events with the same timestamp come out in the order kubectl prints them: the sort
/// is not stable, and which of several equal events comes first depends on the algorithm.
mod gosort {
    struct Data<'a, T, F: Fn(&T, &T) -> bool> {
        v: &'a mut [T],
        less: F,
    }

    impl<T, F: Fn(&T, &T) -> bool> Data<'_, T, F> {
        fn less(&self, i: isize, j: isize) -> bool {
            (self.less)(&self.v[i as usize], &self.v[j as usize])
        }
        fn swap(&mut self, i: isize, j: isize) {
            self.v.swap(i as usize, j as usize);
        }
    }

    #[derive(PartialEq, Eq, Clone, Copy)]
    enum Hint {
        Unknown,
        Increasing,
        Decreasing,
    }

    /// `bits.Len`.
    fn bits_len(n: usize) -> isize {
        (usize::BITS - n.leading_zeros()) as isize
    }

    /// `sort.Sort(data)` with `Less(i, j) = less(&data[i], &data[j])`.
    pub fn sort<T>(v: &mut [T], less: impl Fn(&T, &T) -> bool) {
        let n = v.len();
        if n <= 1 {
            return;
        }
        let limit = bits_len(n);
        let mut d = Data { v, less };
        pdqsort(&mut d, 0, n as isize, limit);
    }

    fn insertion_sort<T, F: Fn(&T, &T) -> bool>(d: &mut Data<T, F>, a: isize, b: isize) {
        let mut i = a + 1;
        while i < b {
            let mut j = i;
            while j > a && d.less(j, j - 1) {
                d.swap(j, j - 1);
                j -= 1;
            }
            i += 1;
        }
    }

    fn sift_down<T, F: Fn(&T, &T) -> bool>(d: &mut Data<T, F>, lo: isize, hi: isize, first: isize) {
        let mut root = lo;
        loop {
            let mut child = 2 * root + 1;
            if child >= hi {
                return;
            }
            if child + 1 < hi && d.less(first + child, first + child + 1) {
                child += 1;
            }
            if !d.less(first + root, first + child) {
                return;
            }
            d.swap(first + root, first + child);
            root = child;
        }
    }

    fn heap_sort<T, F: Fn(&T, &T) -> bool>(d: &mut Data<T, F>, a: isize, b: isize) {
        let first = a;
        let hi = b - a;
        let mut i = (hi - 1) / 2;
        while i >= 0 {
            sift_down(d, i, hi, first);
            i -= 1;
        }
        let mut i = hi - 1;
        while i >= 0 {
            d.swap(first, first + i);
            sift_down(d, 0, i, first);
            i -= 1;
        }
    }

    fn pdqsort<T, F: Fn(&T, &T) -> bool>(
        d: &mut Data<T, F>,
        mut a: isize,
        mut b: isize,
        mut limit: isize,
    ) {
        const MAX_INSERTION: isize = 12;
        let mut was_balanced = true;
        let mut was_partitioned = true;
        loop {
            let length = b - a;
            if length <= MAX_INSERTION {
                insertion_sort(d, a, b);
                return;
            }
            if limit == 0 {
                heap_sort(d, a, b);
                return;
            }
            if !was_balanced {
                break_patterns(d, a, b);
                limit -= 1;
            }
            let (mut pivot, mut hint) = choose_pivot(d, a, b);
            if hint == Hint::Decreasing {
                reverse_range(d, a, b);
                pivot = (b - 1) - (pivot - a);
                hint = Hint::Increasing;
            }
            if was_balanced
                && was_partitioned
                && hint == Hint::Increasing
                && partial_insertion_sort(d, a, b)
            {
                return;
            }
            if a > 0 && !d.less(a - 1, pivot) {
                a = partition_equal(d, a, b, pivot);
                continue;
            }
            let (mid, already) = partition(d, a, b, pivot);
            was_partitioned = already;
            let (left, right) = (mid - a, b - mid);
            let threshold = length / 8;
            if left < right {
                was_balanced = left >= threshold;
                pdqsort(d, a, mid, limit);
                a = mid + 1;
            } else {
                was_balanced = right >= threshold;
                pdqsort(d, mid + 1, b, limit);
                b = mid;
            }
        }
    }

    fn partition<T, F: Fn(&T, &T) -> bool>(
        d: &mut Data<T, F>,
        a: isize,
        b: isize,
        pivot: isize,
    ) -> (isize, bool) {
        d.swap(a, pivot);
        let (mut i, mut j) = (a + 1, b - 1);
        while i <= j && d.less(i, a) {
            i += 1;
        }
        while i <= j && !d.less(j, a) {
            j -= 1;
        }
        if i > j {
            d.swap(j, a);
            return (j, true);
        }
        d.swap(i, j);
        i += 1;
        j -= 1;
        loop {
            while i <= j && d.less(i, a) {
                i += 1;
            }
            while i <= j && !d.less(j, a) {
                j -= 1;
            }
            if i > j {
                break;
            }
            d.swap(i, j);
            i += 1;
            j -= 1;
        }
        d.swap(j, a);
        (j, false)
    }

    fn partition_equal<T, F: Fn(&T, &T) -> bool>(
        d: &mut Data<T, F>,
        a: isize,
        b: isize,
        pivot: isize,
    ) -> isize {
        d.swap(a, pivot);
        let (mut i, mut j) = (a + 1, b - 1);
        loop {
            while i <= j && !d.less(a, i) {
                i += 1;
            }
            while i <= j && d.less(a, j) {
                j -= 1;
            }
            if i > j {
                break;
            }
            d.swap(i, j);
            i += 1;
            j -= 1;
        }
        i
    }

    fn partial_insertion_sort<T, F: Fn(&T, &T) -> bool>(
        d: &mut Data<T, F>,
        a: isize,
        b: isize,
    ) -> bool {
        const MAX_STEPS: usize = 5;
        const SHORTEST_SHIFTING: isize = 50;
        let mut i = a + 1;
        for _ in 0..MAX_STEPS {
            while i < b && !d.less(i, i - 1) {
                i += 1;
            }
            if i == b {
                return true;
            }
            if b - a < SHORTEST_SHIFTING {
                return false;
            }
            d.swap(i, i - 1);
            // Shift the smaller one to the left (down to index 1, as Go writes it).
            if i - a >= 2 {
                let mut j = i - 1;
                while j >= 1 {
                    if !d.less(j, j - 1) {
                        break;
                    }
                    d.swap(j, j - 1);
                    j -= 1;
                }
            }
            // Shift the greater one to the right.
            if b - i >= 2 {
                let mut j = i + 1;
                while j < b {
                    if !d.less(j, j - 1) {
                        break;
                    }
                    d.swap(j, j - 1);
                    j += 1;
                }
            }
        }
        false
    }

    fn break_patterns<T, F: Fn(&T, &T) -> bool>(d: &mut Data<T, F>, a: isize, b: isize) {
        let length = b - a;
        if length >= 8 {
            let mut random = length as u64;
            let modulus: u64 = 1u64 << bits_len(length as usize);
            let mut idx = a + (length / 4) * 2 - 1;
            while idx <= a + (length / 4) * 2 + 1 {
                // xorshift.Next
                random ^= random << 13;
                random ^= random >> 17;
                random ^= random << 5;
                let mut other = (random & (modulus - 1)) as isize;
                if other >= length {
                    other -= length;
                }
                d.swap(idx, a + other);
                idx += 1;
            }
        }
    }

    fn choose_pivot<T, F: Fn(&T, &T) -> bool>(
        d: &mut Data<T, F>,
        a: isize,
        b: isize,
    ) -> (isize, Hint) {
        const SHORTEST_NINTHER: isize = 50;
        const MAX_SWAPS: usize = 4 * 3;
        let l = b - a;
        let mut swaps = 0usize;
        let mut i = a + l / 4;
        let mut j = a + l / 4 * 2;
        let mut k = a + l / 4 * 3;
        if l >= 8 {
            if l >= SHORTEST_NINTHER {
                i = median(d, i - 1, i, i + 1, &mut swaps);
                j = median(d, j - 1, j, j + 1, &mut swaps);
                k = median(d, k - 1, k, k + 1, &mut swaps);
            }
            j = median(d, i, j, k, &mut swaps);
        }
        match swaps {
            0 => (j, Hint::Increasing),
            MAX_SWAPS => (j, Hint::Decreasing),
            _ => (j, Hint::Unknown),
        }
    }

    fn order2<T, F: Fn(&T, &T) -> bool>(
        d: &Data<T, F>,
        a: isize,
        b: isize,
        swaps: &mut usize,
    ) -> (isize, isize) {
        if d.less(b, a) {
            *swaps += 1;
            return (b, a);
        }
        (a, b)
    }

    fn median<T, F: Fn(&T, &T) -> bool>(
        d: &Data<T, F>,
        a: isize,
        b: isize,
        c: isize,
        swaps: &mut usize,
    ) -> isize {
        let (a, b) = order2(d, a, b, swaps);
        let (b, c) = order2(d, b, c, swaps);
        let _ = c;
        let (_, b) = order2(d, a, b, swaps);
        b
    }

    fn reverse_range<T, F: Fn(&T, &T) -> bool>(d: &mut Data<T, F>, a: isize, b: isize) {
        let (mut i, mut j) = (a, b - 1);
        while i < j {
            d.swap(i, j);
            i += 1;
            j -= 1;
        }
    }

    #[cfg(test)]
    mod tests {
        /// Sorts like Go: ordered output for any input, and small inputs keep ties in order.
        #[test]
        fn sorts_and_small_inputs_are_stable() {
            for n in 0..200u64 {
                let mut v: Vec<(u64, u64)> = (0..n).map(|i| ((i * 7919 + 13) % 11, i)).collect();
                super::sort(&mut v, |a, b| a.0 < b.0);
                assert!(v.windows(2).all(|w| w[0].0 <= w[1].0), "{n}");
                if n <= 12 {
                    assert!(v.windows(2).all(|w| w[0].0 < w[1].0 || w[0].1 < w[1].1));
                }
                let mut w: Vec<u64> = (0..n).rev().collect();
                super::sort(&mut w, |a, b| a < b);
                assert_eq!(w, (0..n).collect::<Vec<_>>());
            }
        }

        /// Go 1.19+'s `sort.Sort` on 60 items with 4 distinct keys (ninther pivots, equal
        /// partitions): the order below is what Go prints. (The port was also checked against
        /// Go for 2,000 generated slices of up to 400 items, identical permutations.)
        #[test]
        fn equal_keys_end_up_where_go_puts_them() {
            let mut v: Vec<(usize, usize)> = (0..60).map(|i| ((i * 7 + i / 5) % 4, i)).collect();
            super::sort(&mut v, |a, b| a.0 < b.0);
            let ids: Vec<usize> = v.iter().map(|x| x.1).collect();
            assert_eq!(
                ids,
                [
                    30, 24, 5, 59, 29, 55, 54, 9, 10, 50, 49, 45, 44, 40, 14, 15, 39, 35, 34, 19,
                    20, 0, 4, 25, 8, 13, 3, 53, 43, 23, 58, 28, 48, 33, 18, 38, 2, 37, 17, 7, 32,
                    22, 42, 57, 12, 27, 52, 47, 41, 6, 1, 51, 46, 11, 16, 36, 56, 31, 21, 26,
                ]
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Duration;
    use crate::kubectl::execute;
    use crate::kubectl::printers::testutil::now;

    fn mins_ago(m: i64) -> Time {
        now() - Duration::from_mins(m)
    }

    /// An Event as upstream's fixtures write it: `eventTime` and a `series`.
    fn series_event(
        ns: &str,
        name: &str,
        type_: &str,
        msg: &str,
        created: i64,
        observed: i64,
    ) -> EventView {
        EventView {
            namespace: ns.into(),
            type_: type_.into(),
            reason: "ScalingReplicaSet".into(),
            kind: "Deployment".into(),
            name: name.into(),
            message: msg.into(),
            event_time: Some(mins_ago(created)),
            series: Some((3, mins_ago(observed))),
            ..EventView::default()
        }
    }

    const FROM_0_TO_1: &str = "Scaled up replica set bar-002 from 0 to 1";

    /// event_printer_test.go `TestPrintObj`: every case, on the raw (pre-tabwriter) output.
    #[test]
    fn test_print_obj() {
        let one = || vec![series_event("foo", "bar", "Normal", FROM_0_TO_1, 20, 12)];
        let cases: Vec<(bool, bool, Vec<EventView>, String)> = vec![
            (
                false,
                false,
                one(),
                format!("LAST SEEN\tTYPE\tREASON\tOBJECT\tMESSAGE\n12m (x3 over 20m)\tNormal\tScalingReplicaSet\tDeployment/bar\t{FROM_0_TO_1}\n"),
            ),
            (
                false,
                true,
                vec![
                    series_event("foo", "bar", "Normal", FROM_0_TO_1, 20, 12),
                    series_event("bar", "bar2", "Normal", FROM_0_TO_1, 15, 11),
                ],
                format!("NAMESPACE\tLAST SEEN\tTYPE\tREASON\tOBJECT\tMESSAGE\nfoo\t12m (x3 over 20m)\tNormal\tScalingReplicaSet\tDeployment/bar\t{FROM_0_TO_1}\nbar\t11m (x3 over 15m)\tNormal\tScalingReplicaSet\tDeployment/bar2\t{FROM_0_TO_1}\n"),
            ),
            (
                true,
                false,
                one(),
                format!("12m (x3 over 20m)\tNormal\tScalingReplicaSet\tDeployment/bar\t{FROM_0_TO_1}\n"),
            ),
            (
                false,
                true,
                one(),
                format!("NAMESPACE\tLAST SEEN\tTYPE\tREASON\tOBJECT\tMESSAGE\nfoo\t12m (x3 over 20m)\tNormal\tScalingReplicaSet\tDeployment/bar\t{FROM_0_TO_1}\n"),
            ),
            (
                true,
                true,
                one(),
                format!("foo\t12m (x3 over 20m)\tNormal\tScalingReplicaSet\tDeployment/bar\t{FROM_0_TO_1}\n"),
            ),
            (
                false,
                false,
                vec![EventView {
                    type_: "test\x1b".into(),
                    reason: "test\x1b".into(),
                    name: "bar\x1b".into(),
                    message: "\x1b".into(),
                    series: Some((3, mins_ago(1))),
                    ..series_event("foo", "", "", "", 20, 1)
                }],
                "LAST SEEN\tTYPE\tREASON\tOBJECT\tMESSAGE\n60s (x3 over 20m)\ttest^[\ttest^[\tDeployment/bar^[\t^[\n".into(),
            ),
        ];
        for (i, (no_headers, all_ns, evs, want)) in cases.into_iter().enumerate() {
            assert_eq!(
                print_table(&evs, no_headers, all_ns, now()),
                want,
                "case {i}"
            );
        }
    }

    /// events_test.go `getFakeEvents`.
    fn fake_events() -> Vec<EventView> {
        let msg = "Scaled up replica set bar-002 to 1";
        vec![
            series_event("foo", "bar", "Normal", msg, 30, 20),
            series_event("foo", "bar", "Warning", msg, 28, 18),
            series_event("otherfoo", "bar", "Normal", msg, 25, 15),
        ]
    }

    /// events_test.go `TestEventIsSorted` (the list is handed over reversed, so the sort matters).
    #[test]
    fn test_event_is_sorted() {
        let mut evs = fake_events();
        evs.reverse();
        assert_eq!(
            render_table(evs, &[], false, true, now()).unwrap(),
            "NAMESPACE   LAST SEEN           TYPE      REASON              OBJECT           MESSAGE
foo         20m (x3 over 30m)   Normal    ScalingReplicaSet   Deployment/bar   Scaled up replica set bar-002 to 1
foo         18m (x3 over 28m)   Warning   ScalingReplicaSet   Deployment/bar   Scaled up replica set bar-002 to 1
otherfoo    15m (x3 over 25m)   Normal    ScalingReplicaSet   Deployment/bar   Scaled up replica set bar-002 to 1
"
        );
    }

    /// events_test.go `TestEventNoHeaders`.
    #[test]
    fn test_event_no_headers() {
        assert_eq!(
            render_table(fake_events(), &[], true, true, now()).unwrap(),
            "foo        20m (x3 over 30m)   Normal    ScalingReplicaSet   Deployment/bar   Scaled up replica set bar-002 to 1
foo        18m (x3 over 28m)   Warning   ScalingReplicaSet   Deployment/bar   Scaled up replica set bar-002 to 1
otherfoo   15m (x3 over 25m)   Normal    ScalingReplicaSet   Deployment/bar   Scaled up replica set bar-002 to 1
"
        );
    }

    /// events_test.go `TestEventFiltered` (`FilterTypes: ["WARNING"]`: matched case-insensitively).
    #[test]
    fn test_event_filtered() {
        assert_eq!(
            render_table(fake_events(), &["WARNING".into()], false, true, now()).unwrap(),
            "NAMESPACE   LAST SEEN           TYPE      REASON              OBJECT           MESSAGE
foo         18m (x3 over 28m)   Warning   ScalingReplicaSet   Deployment/bar   Scaled up replica set bar-002 to 1
"
        );
        assert!(
            render_table(fake_events(), &["normal".into()], false, true, now())
                .unwrap()
                .contains("otherfoo")
        );
    }

    /// `getInterval` without a series: core/v1 events from the legacy recorder.
    #[test]
    fn interval_from_timestamps_and_count() {
        let mut e = EventView {
            first_timestamp: Some(mins_ago(90)),
            last_timestamp: Some(mins_ago(5)),
            count: 1,
            ..EventView::default()
        };
        assert_eq!(get_interval(&e, now()), "90m");
        e.count = 4;
        assert_eq!(get_interval(&e, now()), "5m (x4 over 90m)");
        e.first_timestamp = None;
        assert_eq!(get_interval(&e, now()), "5m (x4 over <unknown>)");
    }

    /// `escapeCell`: a message is cut at its first line break, and trimmed first.
    #[test]
    fn cells_are_cut_at_line_breaks() {
        assert_eq!(escape_cell("a\nb"), "a...");
        assert_eq!(escape_cell("a\x0cb\rc"), "a...");
        let e = EventView {
            kind: "Pod".into(),
            name: "p".into(),
            message: "  two\nlines  ".into(),
            first_timestamp: Some(mins_ago(1)),
            last_timestamp: Some(mins_ago(1)),
            count: 1,
            ..EventView::default()
        };
        assert_eq!(
            print_table(&[e], true, false, now()),
            "60s\t\t\tPod/p\ttwo...\n"
        );
    }

    /// `Validate` and `decodeResourceTypeName`.
    #[test]
    fn flag_validation() {
        assert!(validate_types(&["normal".into(), "WARNING".into()]).is_ok());
        assert_eq!(
            validate_types(&["Normal".into(), "Error".into()]).unwrap_err(),
            "error: valid --types are Normal or Warning"
        );
        let (k, n) = decode_resource_type_name("deploy/web").unwrap();
        assert_eq!((k.kind_name(), n.as_str()), ("Deployment", "web"));
        let (k, _) = decode_resource_type_name("Pod/x").unwrap();
        assert_eq!(k.kind_name(), "Pod");
        let (k, _) = decode_resource_type_name("replicasets.apps/x").unwrap();
        assert_eq!(k.kind_name(), "ReplicaSet");
        assert_eq!(
            decode_resource_type_name("pod").unwrap_err(),
            "error: --for must be in resource/name form"
        );
        assert_eq!(
            decode_resource_type_name("pod/a/b").unwrap_err(),
            "error: arguments in resource/name form may not have more than one slash"
        );
        assert_eq!(
            decode_resource_type_name("foo/x").unwrap_err(),
            "the server doesn't have a resource type \"foo\""
        );
        assert_eq!(
            decode_resource_type_name("foos.example.com/x").unwrap_err(),
            "the server doesn't have a resource type \"foos\" in group \"example.com\""
        );
    }

    fn nginx_at(secs: i64) -> Simulation {
        let yaml = crate::scenario::builtin::BUILTIN
            .iter()
            .find(|(n, _)| *n == "nginx-deployment")
            .unwrap()
            .1;
        let mut sim = crate::scenario::Scenario::parse(yaml)
            .unwrap()
            .build()
            .unwrap();
        sim.run_for(Duration::from_secs(secs)).unwrap();
        sim
    }

    #[test]
    fn events_for_a_deployment_through_the_simulation() {
        let mut sim = nginx_at(60);
        let want = "LAST SEEN   TYPE     REASON              OBJECT                        MESSAGE
60s         Normal   ScalingReplicaSet   Deployment/nginx-deployment   Scaled up replica set nginx-deployment-fc78f5885 from 0 to 3
0s          Normal   ScalingReplicaSet   Deployment/nginx-deployment   Scaled up replica set nginx-deployment-7f9b675c7b from 0 to 1";
        assert_eq!(
            execute(&mut sim, "events --for deployment/nginx-deployment").unwrap(),
            want
        );
        assert_eq!(
            execute(&mut sim, "events --for=deploy/nginx-deployment -n default").unwrap(),
            want
        );
        assert_eq!(
            execute(&mut sim, "events --for deployments.apps/nginx-deployment").unwrap(),
            want
        );
        // kind and name both have to match; another namespace has none of them.
        assert_eq!(
            execute(&mut sim, "events --for rs/nginx-deployment").unwrap(),
            "No events found in default namespace."
        );
        assert_eq!(
            execute(
                &mut sim,
                "events --for deploy/nginx-deployment -n kube-system"
            )
            .unwrap(),
            "No events found in kube-system namespace."
        );
        assert_eq!(
            execute(
                &mut sim,
                "events --for deploy/nginx-deployment --no-headers --types normal"
            )
            .unwrap(),
            "60s   Normal   ScalingReplicaSet   Deployment/nginx-deployment   Scaled up replica set nginx-deployment-fc78f5885 from 0 to 3
0s    Normal   ScalingReplicaSet   Deployment/nginx-deployment   Scaled up replica set nginx-deployment-7f9b675c7b from 0 to 1"
        );
        // `--for pod/` names no object: every event is listed.
        assert_eq!(
            execute(&mut sim, "events --for pod/").unwrap(),
            execute(&mut sim, "events").unwrap()
        );
        let pods = execute(&mut sim, "events --for pod/x").unwrap();
        assert_eq!(pods, "No events found in default namespace.");
    }

    #[test]
    fn events_tables_all_namespaces_and_types() {
        let mut sim = nginx_at(60);
        assert_eq!(
            execute(&mut sim, "events --types Warning").unwrap(),
            "No events found in default namespace."
        );
        assert_eq!(
            execute(&mut sim, "events -A --types=Warning").unwrap(),
            "No events found."
        );
        let all = execute(&mut sim, "events -A").unwrap();
        let lines: Vec<&str> = all.lines().collect();
        assert_eq!(
            lines[0],
            "NAMESPACE   LAST SEEN   TYPE     REASON              OBJECT                                   MESSAGE"
        );
        assert!(
            lines[1..].iter().all(|l| l.starts_with("default     ")),
            "{all}"
        );
        // Oldest first; the OBJECT column carries the kind as the API spells it.
        assert!(lines[1].starts_with("default     60s "), "{all}");
        assert!(
            lines.last().unwrap().starts_with("default     0s "),
            "{all}"
        );
        assert!(all.contains("Node/node-1 "), "{all}");
        assert!(
            all.contains("ReplicaSet/nginx-deployment-fc78f5885 "),
            "{all}"
        );
        let plain = execute(&mut sim, "events").unwrap();
        assert_eq!(plain.lines().count(), lines.len());
        // Equal timestamps (whole seconds) come out in the order Go's unstable sort.Sort
        // leaves them, from the API's list order (namespace, then name).
        assert_eq!(
            plain,
            r#"LAST SEEN   TYPE     REASON              OBJECT                                   MESSAGE
60s         Normal   Scheduled           Pod/nginx-deployment-fc78f5885-gj798     Successfully assigned default/nginx-deployment-fc78f5885-gj798 to node-1
60s         Normal   RegisteredNode      Node/node-1                              Node node-1 event: Registered Node node-1 in Controller
60s         Normal   RegisteredNode      Node/node-2                              Node node-2 event: Registered Node node-2 in Controller
60s         Normal   Scheduled           Pod/nginx-deployment-fc78f5885-7z4g4     Successfully assigned default/nginx-deployment-fc78f5885-7z4g4 to node-2
60s         Normal   SuccessfulCreate    ReplicaSet/nginx-deployment-fc78f5885    Created pod: nginx-deployment-fc78f5885-gj798
60s         Normal   Pulling             Pod/nginx-deployment-fc78f5885-w862n     Pulling image "nginx:1.14.2"
60s         Normal   RegisteredNode      Node/node-3                              Node node-3 event: Registered Node node-3 in Controller
60s         Normal   ScalingReplicaSet   Deployment/nginx-deployment              Scaled up replica set nginx-deployment-fc78f5885 from 0 to 3
60s         Normal   Pulling             Pod/nginx-deployment-fc78f5885-7z4g4     Pulling image "nginx:1.14.2"
60s         Normal   Pulling             Pod/nginx-deployment-fc78f5885-gj798     Pulling image "nginx:1.14.2"
60s         Normal   Scheduled           Pod/nginx-deployment-fc78f5885-w862n     Successfully assigned default/nginx-deployment-fc78f5885-w862n to node-3
60s         Normal   SuccessfulCreate    ReplicaSet/nginx-deployment-fc78f5885    Created pod: nginx-deployment-fc78f5885-w862n
60s         Normal   SuccessfulCreate    ReplicaSet/nginx-deployment-fc78f5885    Created pod: nginx-deployment-fc78f5885-7z4g4
59s         Normal   Pulled              Pod/nginx-deployment-fc78f5885-gj798     Successfully pulled image "nginx:1.14.2" in 1s (1s including waiting). Image size: 128163977 bytes.
59s         Normal   Pulled              Pod/nginx-deployment-fc78f5885-7z4g4     Successfully pulled image "nginx:1.14.2" in 1s (1s including waiting). Image size: 128163977 bytes.
59s         Normal   Pulled              Pod/nginx-deployment-fc78f5885-w862n     Successfully pulled image "nginx:1.14.2" in 1s (1s including waiting). Image size: 128163977 bytes.
58s         Normal   Created             Pod/nginx-deployment-fc78f5885-7z4g4     Created container: nginx
58s         Normal   Started             Pod/nginx-deployment-fc78f5885-w862n     Started container nginx
58s         Normal   Created             Pod/nginx-deployment-fc78f5885-w862n     Created container: nginx
58s         Normal   Started             Pod/nginx-deployment-fc78f5885-gj798     Started container nginx
58s         Normal   Created             Pod/nginx-deployment-fc78f5885-gj798     Created container: nginx
58s         Normal   Started             Pod/nginx-deployment-fc78f5885-7z4g4     Started container nginx
0s          Normal   ScalingReplicaSet   Deployment/nginx-deployment              Scaled up replica set nginx-deployment-7f9b675c7b from 0 to 1
0s          Normal   Scheduled           Pod/nginx-deployment-7f9b675c7b-vp7hk    Successfully assigned default/nginx-deployment-7f9b675c7b-vp7hk to node-1
0s          Normal   SuccessfulCreate    ReplicaSet/nginx-deployment-7f9b675c7b   Created pod: nginx-deployment-7f9b675c7b-vp7hk
0s          Normal   Pulling             Pod/nginx-deployment-7f9b675c7b-vp7hk    Pulling image "nginx:1.16.1""#
        );
    }

    #[test]
    fn events_as_an_event_list() {
        let mut sim = nginx_at(60);
        let json = execute(&mut sim, "events --for deploy/nginx-deployment -o json").unwrap();
        assert!(
            json.starts_with("{\n    \"kind\": \"EventList\",\n    \"apiVersion\": \"v1\",\n    \"metadata\": {},\n    \"items\": [\n        {\n            \"kind\": \"Event\",\n            \"apiVersion\": \"v1\",\n            \"metadata\": {\n                \"name\": \"nginx-deployment."),
            "{json}"
        );
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["items"].as_array().unwrap().len(), 2);
        assert_eq!(v["items"][0]["involvedObject"]["apiVersion"], "apps/v1");
        assert_eq!(v["items"][0]["eventTime"], serde_json::Value::Null);
        let yaml = execute(&mut sim, "events --for deploy/nginx-deployment -o yaml").unwrap();
        assert!(
            yaml.starts_with("apiVersion: v1\nitems:\n- apiVersion: v1\n  count: 1\n  eventTime: null\n  firstTimestamp: "),
            "{yaml}"
        );
        assert!(yaml.ends_with("\nkind: EventList\nmetadata: {}"), "{yaml}");
        let names = execute(&mut sim, "events --for deploy/nginx-deployment -o name").unwrap();
        assert_eq!(names.lines().count(), 2);
        assert!(names.starts_with("event/nginx-deployment."), "{names}");
        assert_eq!(
            execute(
                &mut sim,
                "events --for deploy/nginx-deployment -o jsonpath --template {.kind}"
            )
            .unwrap(),
            "EventList"
        );
        assert_eq!(
            execute(
                &mut sim,
                "events --for deploy/nginx-deployment -o jsonpath={.items[*].reason}"
            )
            .unwrap(),
            "ScalingReplicaSet ScalingReplicaSet"
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
        /// No `events` command line panics.
        #[test]
        fn random_events_command_lines_never_panic(
            words in proptest::collection::vec(proptest::sample::select(vec![
                "--for", "--for=", "pod/", "/", "deploy/nginx-deployment", "a/b/c", "x.y.z/w",
                "--types", "normal,WARNING", ",", "-A", "-n", "default", "-o", "json", "yaml",
                "name", "jsonpath={.items[*].type}", "jsonpath", "--template", "{.kind}",
                "--no-headers", "-w", "--chunk-size=0", "'", "\u{1b}", "é",
            ]), 0..8)
        ) {
            let mut sim = crate::kubectl::testutil::sim();
            let _ = execute(&mut sim, &format!("events {}", words.join(" ")));
        }
    }

    #[test]
    fn events_errors() {
        let mut sim = nginx_at(10);
        assert_eq!(
            execute(&mut sim, "events --for foo/x").unwrap_err(),
            "the server doesn't have a resource type \"foo\""
        );
        assert_eq!(
            execute(&mut sim, "events --for deployment").unwrap_err(),
            "error: --for must be in resource/name form"
        );
        assert_eq!(
            execute(&mut sim, "events --for a/b/c").unwrap_err(),
            "error: arguments in resource/name form may not have more than one slash"
        );
        assert_eq!(
            execute(&mut sim, "events --types Normal,Info").unwrap_err(),
            "error: valid --types are Normal or Warning"
        );
        assert_eq!(
            execute(&mut sim, "events --foo").unwrap_err(),
            "error: unknown flag: --foo\nSee 'kubectl events --help' for usage."
        );
        assert_eq!(
            execute(&mut sim, "events -o wide").unwrap_err(),
            "error: unable to match a printer suitable for the output format \"wide\", allowed formats are: json,jsonpath,name,yaml"
        );
        // ToOptions (--for, the printer) runs before Validate (--types).
        assert_eq!(
            execute(&mut sim, "events --types x --for foo/y").unwrap_err(),
            "the server doesn't have a resource type \"foo\""
        );
        assert!(execute(&mut sim, "events -w")
            .unwrap_err()
            .contains("cannot watch"));
        assert!(execute(&mut sim, "evnts").unwrap_err().contains("\tevents"));
    }
}
