//! Resource arguments as cli-runtime's `resource.Builder` reads them (`TYPE NAME...`,
//! `TYPE/NAME...`, `TYPE1,TYPE2 NAME`, `all`, `-l`, `--all`) and fetching what they name.

use super::events::{self, Event};
use crate::api::{kind_info, ApiError, Object, Selector};
use crate::sim::Simulation;
use crate::store::ObjectRef;

/// A resource kubectl can name: a stored kind or the Events derived from the event log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Obj(&'static str),
    Event,
}

impl Kind {
    pub fn kind_name(self) -> &'static str {
        match self {
            Kind::Obj(k) => k,
            Kind::Event => "Event",
        }
    }
    fn info(self) -> (&'static str, &'static str, &'static str, bool) {
        match self {
            Kind::Obj(k) => kind_info(k).unwrap_or(("v1", "unknown", "", true)),
            Kind::Event => ("v1", "events", "", true),
        }
    }
    pub fn api_version(self) -> &'static str {
        self.info().0
    }
    pub fn plural(self) -> &'static str {
        self.info().1
    }
    pub fn group(self) -> &'static str {
        self.info().2
    }
    pub fn namespaced(self) -> bool {
        self.info().3
    }
    /// `replicasets.apps` (as API errors name the resource).
    pub fn qualified_resource(self) -> String {
        if self.group().is_empty() {
            self.plural().to_string()
        } else {
            format!("{}.{}", self.plural(), self.group())
        }
    }
    /// `replicaset.apps` (as the name printer and `delete` name the kind).
    pub fn kind_group(self) -> String {
        let k = self.kind_name().to_lowercase();
        if self.group().is_empty() {
            k
        } else {
            format!("{k}.{}", self.group())
        }
    }
    /// `apps/v1, Resource=replicasets` (`schema.GroupVersionResource.String()`).
    pub fn gvr(self) -> String {
        let api = self.api_version();
        let gv = if api.contains('/') {
            api.to_string()
        } else {
            format!("/{api}")
        };
        format!("{gv}, Resource={}", self.plural())
    }
    pub fn not_found(self, name: &str) -> ApiError {
        ApiError::not_found(&self.qualified_resource(), name)
    }
}

/// The `all` category, in discovery order; only kinds kubeplay stores are used.
const ALL_CATEGORY: &[&str] = &[
    "Pod",
    "ReplicationController",
    "Service",
    "DaemonSet",
    "Deployment",
    "ReplicaSet",
    "StatefulSet",
    "HorizontalPodAutoscaler",
    "CronJob",
    "Job",
];

/// Resolves one resource name (`pods`, `po`, `pod`, `replicasets.apps`, `events`).
///
/// # Errors
/// `error: the server doesn't have a resource type "foo"`.
pub fn resolve(s: &str) -> Result<Kind, String> {
    let l = s.to_ascii_lowercase();
    if matches!(l.as_str(), "events" | "event" | "ev") {
        return Ok(Kind::Event);
    }
    let err = || format!("error: the server doesn't have a resource type {s:?}");
    let kind = crate::api::resolve_kind(s)
        .filter(|_| !s.is_empty() && !s.starts_with('.'))
        .ok_or_else(err)?;
    // `replicasets.apps` and `replicasets.v1.apps` name the group (and version) explicitly.
    if let Some((_, rest)) = s.split_once('.') {
        let (api, _, group, _) = kind_info(kind).ok_or_else(err)?;
        let version = api.rsplit('/').next().unwrap_or(api);
        if group.is_empty() || (rest != group && rest != format!("{version}.{group}")) {
            return Err(err());
        }
    }
    Ok(Kind::Obj(kind))
}

/// Splits `a,b,a` into unique names (`SplitResourceArgument`).
fn split_resource_argument(arg: &str) -> Vec<String> {
    let mut out: Vec<String> = vec![];
    for s in arg.split(',') {
        if !out.iter().any(|o| o == s) {
            out.push(s.to_string());
        }
    }
    out
}

/// Expands the `all` category into resource names (`ReplaceAliases`).
fn replace_aliases(arg: &str) -> String {
    arg.split(',')
        .map(|a| {
            if a == "all" {
                ALL_CATEGORY
                    .iter()
                    .filter(|k| kind_info(k).is_some())
                    .map(|k| kind_info(k).map(|(_, p, _, _)| p).unwrap_or_default())
                    .collect::<Vec<_>>()
                    .join(",")
            } else {
                a.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// What the arguments and selector flags ask for.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// Every object of these kinds matching a label selector (`""` = everything).
    Selector { kinds: Vec<Kind>, selector: String },
    /// Named objects.
    Named(Vec<(Kind, String)>),
}

impl Request {
    /// `singleItemImplied`: one object named explicitly.
    pub fn single_item(&self) -> bool {
        matches!(self, Request::Named(v) if v.len() == 1)
    }
}

/// Interprets positional arguments as `ResourceTypeOrNameArgs(allowEmptySelector, args...)`
/// followed by `LabelSelectorParam(selector)` / `SelectAllParam(all)` would.
///
/// # Errors
/// The builder's messages, with kubectl's `error: ` prefix.
pub fn build(
    args: &[String],
    allow_empty_selector: bool,
    selector: Option<&str>,
    select_all: bool,
) -> Result<Request, String> {
    let e = |m: &str| format!("error: {m}");
    // normalizeMultipleResourcesArgs: `a,b x y` → `a/x a/y b/x b/y`.
    let mut args: Vec<String> = args.to_vec();
    if args.len() >= 2 {
        let resources = split_resource_argument(&args[0]);
        if resources.len() > 1 {
            let names = args[1..].to_vec();
            args = resources
                .iter()
                .flat_map(|r| names.iter().map(move |n| format!("{r}/{n}")))
                .collect();
        }
    }
    let slashes = args.iter().filter(|a| a.contains('/')).count();
    let mut selector = selector.filter(|s| !s.is_empty()).map(str::to_string);
    if select_all {
        if let Some(s) = &selector {
            return Err(e(&format!(
                "found non-empty label selector {s:?} with previously set 'all' parameter. "
            )));
        }
        selector = Some(String::new());
    }
    if slashes > 0 {
        if slashes != args.len() {
            return Err(e("there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'"));
        }
        let mut tuples = vec![];
        for a in &args {
            let seg: Vec<&str> = a.split('/').collect();
            if seg.len() != 2 {
                return Err(e(
                    "arguments in resource/name form may not have more than one slash",
                ));
            }
            if seg[0].is_empty() || seg[1].is_empty() || seg[0].contains(',') {
                return Err(e(
                    "arguments in resource/name form must have a single resource and name",
                ));
            }
            tuples.push((seg[0].to_string(), seg[1].to_string()));
        }
        if selector.is_some() {
            return Err(e(
                "selectors and the all flag cannot be used when passing resource/name arguments",
            ));
        }
        let mut out = vec![];
        for (r, n) in tuples {
            out.push((resolve(&r)?, n));
        }
        return Ok(Request::Named(out));
    }
    let (types, names): (Vec<String>, Vec<String>) = match args.len() {
        0 => (vec![], vec![]),
        _ => (
            split_resource_argument(&replace_aliases(&args[0])),
            args[1..].to_vec(),
        ),
    };
    if args.len() == 1 && selector.is_none() && allow_empty_selector {
        selector = Some(String::new());
    }
    if let Some(sel) = selector {
        if !names.is_empty() {
            return Err(e("name cannot be provided when a selector is specified"));
        }
        if types.is_empty() {
            return Err(e(
                "at least one resource must be specified to use a selector",
            ));
        }
        let kinds = types.iter().map(|t| resolve(t)).collect::<Result<_, _>>()?;
        return Ok(Request::Selector {
            kinds,
            selector: sel,
        });
    }
    if !names.is_empty() {
        let kind = resolve(&types[0])?;
        return Ok(Request::Named(
            names.into_iter().map(|n| (kind, n)).collect(),
        ));
    }
    if !types.is_empty() {
        for t in &types {
            resolve(t)?;
        }
        return Err(e("resource(s) were provided, but no name was specified"));
    }
    Err(e("You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'"))
}

/// An object or an Event, as a visited item.
#[allow(clippy::large_enum_variant)] // short-lived, never stored in bulk
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Obj(Object),
    Event(Event),
}

impl Item {
    pub fn name(&self) -> &str {
        match self {
            Item::Obj(o) => &o.meta().name,
            Item::Event(e) => &e.name,
        }
    }
    pub fn namespace(&self) -> &str {
        match self {
            Item::Obj(o) => &o.meta().namespace,
            Item::Event(e) => &e.namespace,
        }
    }
    /// The JSON a client would receive.
    pub fn to_value(&self) -> serde_json::Value {
        match self {
            Item::Obj(o) => super::output::object_value(o),
            Item::Event(e) => e.to_value(),
        }
    }
}

/// One visited result: a kind and its objects (a list, or one named object).
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    pub kind: Kind,
    pub items: Vec<Item>,
}

/// A field selector as the API server takes it for a list: each requirement's label goes
/// through the kind's field-label conversion (`AddFieldLabelConversionFunc` in
/// `pkg/apis/<group>/<version>/conversion.go`, or `runtime.DefaultMetaV1FieldSelectorConversion`
/// for kinds that register none: everything in `apps`, CronJob, PVC, HPA), and objects are
/// matched on the registry strategy's `ToSelectableFields` set.
#[derive(Clone, Debug, Default)]
pub struct FieldSelector {
    terms: Vec<(String, bool, String)>,
}

/// The labels a kind's field-label conversion accepts besides `metadata.name` (and
/// `metadata.namespace` for namespaced kinds); `None` for the metadata-only default.
fn accepted_field_labels(kind: Kind) -> Option<&'static [&'static str]> {
    Some(match kind {
        Kind::Obj("Pod") => &[
            "spec.nodeName",
            "spec.restartPolicy",
            "spec.schedulerName",
            "spec.serviceAccountName",
            "spec.hostNetwork",
            "status.phase",
            "status.podIP",
            "status.podIPs",
            "status.nominatedNodeName",
        ],
        Kind::Obj("Node") => &["spec.unschedulable"],
        Kind::Obj("ReplicationController") => &["status.replicas"],
        Kind::Obj("Service") => &["spec.clusterIP", "spec.type"],
        Kind::Obj("Job") => &["status.successful"],
        Kind::Event => &[
            "involvedObject.kind",
            "involvedObject.namespace",
            "involvedObject.name",
            "involvedObject.uid",
            "involvedObject.apiVersion",
            "involvedObject.resourceVersion",
            "involvedObject.fieldPath",
            "reason",
            "reportingComponent",
            "source",
            "type",
        ],
        _ => return None,
    })
}

/// `Scheme.ConvertFieldLabel`: the canonical label, or the conversion func's error.
///
/// Concrete example: `kubectl get deploy --field-selector status.replicas=3` is rejected with
/// `"status.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"`
/// (apps/v1 registers no conversion), while the same label on a ReplicationController is
/// accepted.
pub fn convert_field_label(kind: Kind, label: &str) -> Result<String, String> {
    let Some(extra) = accepted_field_labels(kind) else {
        return match label {
            "metadata.name" | "metadata.namespace" => Ok(label.to_string()),
            _ => Err(format!(
                "{label:?} is not a known field selector: only \"metadata.name\", \"metadata.namespace\""
            )),
        };
    };
    // Cluster-scoped kinds (Node) do not take metadata.namespace.
    let meta = label == "metadata.name" || (label == "metadata.namespace" && kind.namespaced());
    if meta || extra.contains(&label) {
        return Ok(label.to_string());
    }
    if kind == Kind::Obj("Pod") && label == "spec.host" {
        // Backwards compatibility with old v1 clients.
        return Ok("spec.nodeName".to_string());
    }
    Err(match kind {
        Kind::Obj("Job") => format!("field label {label:?} not supported for Job"),
        _ => format!("field label not supported: {label}"),
    })
}

/// A dotted path in an object's JSON, as a selectable-field string (`""` when absent).
fn json_field(v: &serde_json::Value, path: &str) -> String {
    let mut cur = v;
    for part in path.split('.') {
        match cur.get(part) {
            Some(next) => cur = next,
            None => return String::new(),
        }
    }
    match cur {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// One canonical label's value in the kind's `ToSelectableFields` set, read from the object's
/// JSON. Every label the strategy sets is present even when the field is unset (`false`, `0`);
/// a label the conversion accepts but the strategy never sets (`status.podIPs`) reads `""`.
pub fn selectable_field(kind: Kind, v: &serde_json::Value, label: &str) -> String {
    let or = |s: String, d: &str| if s.is_empty() { d.to_string() } else { s };
    match (kind, label) {
        (Kind::Obj("Pod"), "spec.hostNetwork") => or(json_field(v, "spec.hostNetwork"), "false"),
        (Kind::Obj("Pod"), "status.podIP") => v
            .pointer("/status/podIPs/0/ip")
            .and_then(|x| x.as_str())
            .map(str::to_string)
            .unwrap_or_else(|| json_field(v, "status.podIP")),
        (Kind::Obj("Pod"), "status.podIPs") => String::new(),
        (Kind::Obj("Node"), "spec.unschedulable") => {
            or(json_field(v, "spec.unschedulable"), "false")
        }
        (Kind::Obj("ReplicationController"), "status.replicas") => {
            or(json_field(v, "status.replicas"), "0")
        }
        (Kind::Obj("Job"), "status.successful") => or(json_field(v, "status.succeeded"), "0"),
        (Kind::Event, "source") => or(
            json_field(v, "source.component"),
            &json_field(v, "reportingComponent"),
        ),
        _ => json_field(v, label),
    }
}

impl FieldSelector {
    /// Parses `a=b,c==d,e!=f` (`fields.ParseSelector`) and converts every label for `kind`.
    ///
    /// # Errors
    /// The server's message for an invalid or unsupported selector.
    pub fn parse(s: &str, kind: Kind) -> Result<FieldSelector, String> {
        let mut terms = vec![];
        for part in s.split(',').filter(|p| !p.trim().is_empty()) {
            let (k, eq, v) = if let Some((k, v)) = part.split_once("!=") {
                (k, false, v)
            } else if let Some((k, v)) = part.split_once("==") {
                (k, true, v)
            } else if let Some((k, v)) = part.split_once('=') {
                (k, true, v)
            } else {
                return Err(format!(
                    "invalid selector: '{s}'; can't understand '{part}'"
                ));
            };
            let k = convert_field_label(kind, k.trim())?;
            terms.push((k, eq, v.trim().to_string()));
        }
        Ok(FieldSelector { terms })
    }

    fn meta_value(name: &str, namespace: &str, field: &str) -> Option<String> {
        match field {
            "metadata.name" => Some(name.to_string()),
            "metadata.namespace" => Some(namespace.to_string()),
            _ => None,
        }
    }

    fn matches_with(
        &self,
        kind: Kind,
        name: &str,
        namespace: &str,
        json: impl Fn() -> serde_json::Value,
    ) -> bool {
        let mut v: Option<serde_json::Value> = None;
        self.terms.iter().all(|(k, eq, want)| {
            let got = Self::meta_value(name, namespace, k)
                .unwrap_or_else(|| selectable_field(kind, v.get_or_insert_with(&json), k));
            (got == *want) == *eq
        })
    }

    pub fn matches(&self, o: &Object) -> bool {
        let kind = Kind::Obj(o.kind());
        let m = o.meta();
        self.matches_with(kind, &m.name, &m.namespace, || {
            super::output::object_value(o)
        })
    }

    /// Whether an Event (as the API serves it) matches.
    pub fn matches_event(&self, e: &Event) -> bool {
        self.matches_with(Kind::Event, &e.name, &e.namespace, || e.to_value())
    }
}

/// Lists one kind (all namespaces when `namespace` is `None`) filtered by selectors.
///
/// # Errors
/// The server's BadRequest for a bad label or field selector.
pub fn list(
    sim: &Simulation,
    kind: Kind,
    namespace: Option<&str>,
    selector: &str,
    field_selector: &str,
) -> Result<Vec<Item>, String> {
    let bad = |m: String| {
        format!(
            "Error from server (BadRequest): Unable to find {:?} that match label selector {selector:?}, field selector {field_selector:?}: {m}",
            kind.gvr()
        )
    };
    let sel = Selector::parse(selector).map_err(bad)?;
    let fsel = FieldSelector::parse(field_selector, kind).map_err(bad)?;
    let ns = if kind.namespaced() { namespace } else { None };
    match kind {
        Kind::Obj(k) => Ok(sim
            .api
            .store
            .list_kind(k, ns)
            .filter(|o| sel.matches(&o.meta().labels) && fsel.matches(o))
            .map(|o| Item::Obj(o.clone()))
            .collect()),
        Kind::Event => {
            if !sel.is_empty() {
                // Events carry no labels; a selector other than everything matches nothing.
                return Ok(vec![]);
            }
            Ok(events::aggregate(&sim.api.events)
                .into_iter()
                .filter(|e| ns.is_none_or(|n| e.namespace == n) && fsel.matches_event(e))
                .map(Item::Event)
                .collect())
        }
    }
}

/// Gets one named object.
///
/// # Errors
/// NotFound in kubectl's wording.
pub fn get(sim: &Simulation, kind: Kind, namespace: &str, name: &str) -> Result<Item, String> {
    let ns = if kind.namespaced() { namespace } else { "" };
    match kind {
        Kind::Obj(k) => sim
            .api
            .store
            .get_ref(&ObjectRef::new(k, ns, name))
            .map(|o| Item::Obj(o.clone()))
            .ok_or_else(|| kind.not_found(name).kubectl_message()),
        Kind::Event => events::aggregate(&sim.api.events)
            .into_iter()
            .find(|e| e.namespace == ns && e.name == name)
            .map(Item::Event)
            .ok_or_else(|| kind.not_found(name).kubectl_message()),
    }
}

/// Visits a request: one [`Info`] per kind for selectors (empty lists included), one per found
/// name otherwise, plus the errors met on the way (in order).
pub fn visit(
    sim: &Simulation,
    req: &Request,
    namespace: Option<&str>,
    field_selector: &str,
) -> (Vec<Info>, Vec<String>) {
    let mut infos = vec![];
    let mut errs = vec![];
    match req {
        Request::Selector { kinds, selector } => {
            for k in kinds {
                match list(sim, *k, namespace, selector, field_selector) {
                    Ok(items) => infos.push(Info { kind: *k, items }),
                    Err(e) => errs.push(e),
                }
            }
        }
        Request::Named(v) => {
            for (k, n) in v {
                match get(sim, *k, namespace.unwrap_or("default"), n) {
                    Ok(item) => infos.push(Info {
                        kind: *k,
                        items: vec![item],
                    }),
                    Err(e) => errs.push(e),
                }
            }
        }
    }
    (infos, errs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn builder_forms() {
        assert_eq!(
            build(&a("pods"), true, None, false),
            Ok(Request::Selector {
                kinds: vec![Kind::Obj("Pod")],
                selector: String::new()
            })
        );
        assert_eq!(
            build(&a("po a b"), true, None, false),
            Ok(Request::Named(vec![
                (Kind::Obj("Pod"), "a".into()),
                (Kind::Obj("Pod"), "b".into())
            ]))
        );
        assert_eq!(
            build(&a("rs/x pod/y"), true, None, false),
            Ok(Request::Named(vec![
                (Kind::Obj("ReplicaSet"), "x".into()),
                (Kind::Obj("Pod"), "y".into())
            ]))
        );
        assert_eq!(
            build(&a("pods,rs x"), true, None, false),
            Ok(Request::Named(vec![
                (Kind::Obj("Pod"), "x".into()),
                (Kind::Obj("ReplicaSet"), "x".into())
            ]))
        );
        assert_eq!(
            build(&a("all"), true, None, false),
            Ok(Request::Selector {
                kinds: vec![
                    Kind::Obj("Pod"),
                    Kind::Obj("ReplicationController"),
                    Kind::Obj("Service"),
                    Kind::Obj("DaemonSet"),
                    Kind::Obj("Deployment"),
                    Kind::Obj("ReplicaSet"),
                    Kind::Obj("StatefulSet"),
                    Kind::Obj("HorizontalPodAutoscaler"),
                    Kind::Obj("CronJob"),
                    Kind::Obj("Job")
                ],
                selector: String::new()
            })
        );
        assert_eq!(
            build(&a("ev"), true, Some("a=b"), false),
            Ok(Request::Selector {
                kinds: vec![Kind::Event],
                selector: "a=b".into()
            })
        );
    }

    /// Error texts from cli-runtime's builder.go.
    #[test]
    fn builder_errors() {
        assert_eq!(
            build(&a("pods"), false, None, false).unwrap_err(),
            "error: resource(s) were provided, but no name was specified"
        );
        assert_eq!(
            build(&a("foo"), true, None, false).unwrap_err(),
            "error: the server doesn't have a resource type \"foo\""
        );
        assert_eq!(
            build(&a("foo x"), false, None, false).unwrap_err(),
            "error: the server doesn't have a resource type \"foo\""
        );
        assert!(build(&a("pods pod/x"), true, None, false)
            .unwrap_err()
            .starts_with("error: there is no need to specify a resource type"));
        assert_eq!(
            build(&a("pod/x/y"), true, None, false).unwrap_err(),
            "error: arguments in resource/name form may not have more than one slash"
        );
        assert_eq!(
            build(&a("pods x"), true, Some("app=web"), false).unwrap_err(),
            "error: name cannot be provided when a selector is specified"
        );
        assert_eq!(
            build(&a("pod/x"), false, None, true).unwrap_err(),
            "error: selectors and the all flag cannot be used when passing resource/name arguments"
        );
        assert!(build(&[], false, None, false)
            .unwrap_err()
            .starts_with("error: You must provide one or more resources by argument or filename."));
        assert_eq!(
            build(&[], false, Some("a=b"), false).unwrap_err(),
            "error: at least one resource must be specified to use a selector"
        );
    }

    #[test]
    fn kind_names() {
        let rs = resolve("rs").unwrap();
        assert_eq!(rs.qualified_resource(), "replicasets.apps");
        assert_eq!(rs.kind_group(), "replicaset.apps");
        assert_eq!(rs.gvr(), "apps/v1, Resource=replicasets");
        assert_eq!(resolve("PODS").unwrap().gvr(), "/v1, Resource=pods");
        assert_eq!(resolve("ev").unwrap(), Kind::Event);
        assert!(resolve("").is_err());
        assert_eq!(resolve("replicasets.v1.apps"), Ok(Kind::Obj("ReplicaSet")));
        assert!(resolve("rs.batch").is_err());
        assert!(resolve("pods.apps").is_err());
    }

    // The field-label conversion funcs of pkg/apis/core/v1/conversion.go and
    // pkg/apis/batch/v1/conversion.go, and runtime.DefaultMetaV1FieldSelectorConversion for kinds
    // that register none (apps/v1, CronJob, PVC, HPA).
    #[test]
    fn field_label_conversion_per_kind() {
        let pod = Kind::Obj("Pod");
        assert_eq!(
            convert_field_label(pod, "spec.host").unwrap(),
            "spec.nodeName"
        );
        for l in ["status.podIPs", "spec.schedulerName", "metadata.namespace"] {
            assert_eq!(convert_field_label(pod, l).unwrap(), l);
        }
        assert_eq!(
            convert_field_label(pod, "spec.containers").unwrap_err(),
            "field label not supported: spec.containers"
        );
        // Node is cluster-scoped: its func takes metadata.name and spec.unschedulable only.
        let node = Kind::Obj("Node");
        assert!(convert_field_label(node, "spec.unschedulable").is_ok());
        assert_eq!(
            convert_field_label(node, "metadata.namespace").unwrap_err(),
            "field label not supported: metadata.namespace"
        );
        assert!(convert_field_label(Kind::Obj("ReplicationController"), "status.replicas").is_ok());
        assert_eq!(
            convert_field_label(Kind::Obj("ReplicaSet"), "status.replicas").unwrap_err(),
            r#""status.replicas" is not a known field selector: only "metadata.name", "metadata.namespace""#
        );
        assert!(convert_field_label(Kind::Obj("Deployment"), "metadata.namespace").is_ok());
        assert_eq!(
            convert_field_label(Kind::Obj("Job"), "status.failed").unwrap_err(),
            r#"field label "status.failed" not supported for Job"#
        );
        assert!(convert_field_label(Kind::Obj("CronJob"), "status.successful").is_err());
        for l in [
            "reason",
            "type",
            "source",
            "involvedObject.name",
            "reportingComponent",
        ] {
            assert!(convert_field_label(Kind::Event, l).is_ok(), "{l}");
        }
        assert_eq!(
            convert_field_label(Kind::Event, "message").unwrap_err(),
            "field label not supported: message"
        );
        assert!(FieldSelector::parse("a", pod)
            .unwrap_err()
            .starts_with("invalid selector: 'a'; can't understand 'a'"));
    }

    // ToSelectableFields: every label the strategy sets reads a value even when the field is
    // unset; status.podIPs is accepted but never set; Job's status.successful reads
    // status.succeeded; an Event's source falls back to reportingComponent.
    #[test]
    fn selectable_field_values() {
        let pod = serde_json::json!({"metadata": {"name": "p"}, "spec": {},
            "status": {"podIPs": [{"ip": "10.0.0.7"}], "podIP": "10.0.0.7"}});
        assert_eq!(
            selectable_field(Kind::Obj("Pod"), &pod, "spec.hostNetwork"),
            "false"
        );
        assert_eq!(
            selectable_field(Kind::Obj("Pod"), &pod, "status.podIP"),
            "10.0.0.7"
        );
        assert_eq!(
            selectable_field(Kind::Obj("Pod"), &pod, "status.podIPs"),
            ""
        );
        let job = serde_json::json!({"status": {"succeeded": 2}});
        assert_eq!(
            selectable_field(Kind::Obj("Job"), &job, "status.successful"),
            "2"
        );
        assert_eq!(
            selectable_field(
                Kind::Obj("Job"),
                &serde_json::json!({}),
                "status.successful"
            ),
            "0"
        );
        let rc = serde_json::json!({"status": {}});
        assert_eq!(
            selectable_field(Kind::Obj("ReplicationController"), &rc, "status.replicas"),
            "0"
        );
        let ev = serde_json::json!({"source": {}, "reportingComponent": "kubelet"});
        assert_eq!(selectable_field(Kind::Event, &ev, "source"), "kubelet");
    }
}
