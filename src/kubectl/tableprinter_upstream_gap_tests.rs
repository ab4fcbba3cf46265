//! Ports of cli-runtime's `pkg/printers/tableprinter_test.go` (release-1.35):
//! TestPrintTable_WithLabels, TestPrintTable_ColumnHeaders (NoHeaders),
//! TestPrintTable_WithNamespace, TestPrintTable_WithKind and TestPrintTable_NonTable's option
//! rows, through `kubectl get pods` on upstream's `testPod` (labels `first-label=12`,
//! `second-label=label-value`, namespace `test-namespace`).

use super::execute;
use super::testutil::sim;
use crate::api::Object;
use crate::sim::Simulation;
use serde_json::json;

fn fixture() -> Simulation {
    let mut s = sim();
    for (name, ns) in [("test1", "test-namespace"), ("test2", "test-namespace")] {
        let p = json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": ns, "uid": format!("uid-{name}"),
                "labels": {"first-label": "12", "second-label": "label-value"}},
            "spec": {"containers": [{"name": "c", "image": "i"}]},
            "status": {"phase": "podPhase"}});
        s.api.store.put(Object::from_value(p).unwrap());
    }
    s
}

fn get(s: &mut Simulation, args: &str) -> String {
    execute(s, &format!("get pods test1 -n test-namespace {args}")).unwrap()
}

/// TestPrintTable_WithLabels: ShowLabels, one ColumnLabel and two ColumnLabels.
#[test]
fn print_table_with_labels() {
    let mut s = fixture();
    assert_eq!(
        get(&mut s, "--show-labels"),
        "NAME    READY   STATUS     RESTARTS   AGE         LABELS\n\
         test1   0/1     podPhase   0          <unknown>   first-label=12,second-label=label-value"
    );
    assert_eq!(
        get(&mut s, "-L second-label"),
        "NAME    READY   STATUS     RESTARTS   AGE         SECOND-LABEL\n\
         test1   0/1     podPhase   0          <unknown>   label-value"
    );
    assert_eq!(
        get(&mut s, "-L first-label,second-label"),
        "NAME    READY   STATUS     RESTARTS   AGE         FIRST-LABEL   SECOND-LABEL\n\
         test1   0/1     podPhase   0          <unknown>   12            label-value"
    );
    assert_eq!(
        get(&mut s, "-L first-label -L second-label"),
        "NAME    READY   STATUS     RESTARTS   AGE         FIRST-LABEL   SECOND-LABEL\n\
         test1   0/1     podPhase   0          <unknown>   12            label-value"
    );
}

/// TestPrintTable_ColumnHeaders: NoHeaders prints the rows alone, aligned among themselves.
#[test]
fn print_table_no_headers() {
    let mut s = fixture();
    assert_eq!(
        execute(&mut s, "get pods -n test-namespace --no-headers").unwrap(),
        "test1   0/1   podPhase   0     <unknown>\n\
         test2   0/1   podPhase   0     <unknown>"
    );
}

/// TestPrintTable_WithNamespace and TestPrintTable_WatchEvents' option row (NoHeaders,
/// WithNamespace, ShowLabels).
#[test]
fn print_table_with_namespace() {
    let mut s = fixture();
    assert_eq!(
        execute(&mut s, "get pods -A").unwrap(),
        "NAMESPACE        NAME    READY   STATUS     RESTARTS   AGE\n\
         test-namespace   test1   0/1     podPhase   0          <unknown>\n\
         test-namespace   test2   0/1     podPhase   0          <unknown>"
    );
    assert_eq!(
        execute(&mut s, "get pods -A --no-headers --show-labels").unwrap(),
        "test-namespace   test1   0/1   podPhase   0     <unknown>   first-label=12,second-label=label-value\n\
         test-namespace   test2   0/1   podPhase   0     <unknown>   first-label=12,second-label=label-value"
    );
}

/// TestPrintTable_WithKind.
#[test]
fn print_table_with_kind() {
    let mut s = fixture();
    assert_eq!(
        get(&mut s, "--show-kind"),
        "NAME        READY   STATUS     RESTARTS   AGE\n\
         pod/test1   0/1     podPhase   0          <unknown>"
    );
}

/// `formatLabelHeaders` (tableprinter.go): a label column's header is the upper-cased last
/// segment of the key.
#[test]
fn label_column_headers_use_the_last_key_segment() {
    let mut s = sim();
    let p = json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "p", "namespace": "default", "uid": "uid-p",
            "labels": {"example.com/tier": "fe"}},
        "spec": {"containers": [{"name": "c", "image": "i"}]}});
    s.api.store.put(Object::from_value(p).unwrap());
    assert_eq!(
        execute(&mut s, "get pods -L example.com/tier,missing").unwrap(),
        "NAME   READY   STATUS   RESTARTS   AGE         TIER   MISSING\n\
         p      0/1              0          <unknown>   fe     "
    );
}
