//! Ports of `staging/src/k8s.io/kubectl/pkg/cmd/get/customcolumn_test.go` (release-1.35):
//! TestMassageJSONPath, TestNewColumnPrinterFromSpec, TestColumnPrint,
//! TestIndividualPrintObjOnExistingTabWriter and TestSliceColumnPrint, through
//! `kubectl get -o custom-columns=...`.

use super::execute;
use super::jsonpath::{eval, relaxed_path};
use super::testutil::sim;
use crate::api::Object;
use crate::sim::Simulation;
use serde_json::{json, Value};

fn load(sim: &mut Simulation, v: Value) {
    sim.api.load(Object::from_value(v).unwrap()).unwrap();
}

fn pod(name: &str, labels: Value, containers: &[&str]) -> Value {
    let cs: Vec<Value> = containers
        .iter()
        .map(|c| json!({"name": c, "image": "i"}))
        .collect();
    json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": "default", "uid": format!("uid-{name}"), "labels": labels},
        "spec": {"containers": cs}})
}

fn cc(sim: &mut Simulation, args: &str) -> Result<String, String> {
    execute(sim, &format!("get pods {args}"))
}

/// TestMassageJSONPath (customcolumn_test.go): `RelaxedJSONPathExpression`.
#[test]
fn massage_json_path() {
    let v = json!({"foo": {"bar": "x"}});
    for input in ["foo.bar", "{foo.bar}", ".foo.bar", "{.foo.bar}"] {
        assert_eq!(
            eval(&relaxed_path(input).unwrap(), &v),
            vec![&json!("x")],
            "{input}"
        );
    }
    for input in ["{foo.bar", "foo.bar}", "{foo.bar}}", "{{foo.bar}"] {
        assert_eq!(
            relaxed_path(input).unwrap_err(),
            "unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'",
            "{input}"
        );
    }
}

/// TestNewColumnPrinterFromSpec (customcolumn_test.go).
#[test]
fn new_column_printer_from_spec() {
    let mut s = sim();
    load(&mut s, pod("foo", json!({}), &["c"]));
    assert_eq!(
        cc(&mut s, "-o custom-columns=").unwrap_err(),
        "error: custom-columns format specified but no custom columns given"
    );
    for (spec, part) in [
        ("invalid", "invalid"),
        ("invalid=foobar", "invalid=foobar"),
        ("invalid,foobar:blah", "invalid"),
    ] {
        assert_eq!(
            cc(&mut s, &format!("-o custom-columns={spec}")).unwrap_err(),
            format!(
                "error: unexpected custom-columns spec: {part}, expected <header>:<json-path-expr>"
            )
        );
    }
    assert_eq!(
        cc(
            &mut s,
            "-o custom-columns=NAME:metadata.name,API_VERSION:apiVersion"
        )
        .unwrap(),
        "NAME   API_VERSION\nfoo    v1"
    );
    // "no-headers"
    assert_eq!(
        cc(
            &mut s,
            "-o custom-columns=API_VERSION:apiVersion --no-headers"
        )
        .unwrap(),
        "v1"
    );
}

/// TestColumnPrint (customcolumn_test.go): one object, a list, a missing field (`<none>`) and
/// terminal escapes.
#[test]
fn column_print() {
    let mut s = sim();
    load(&mut s, pod("foo", json!({}), &["c"]));
    assert_eq!(
        cc(&mut s, "foo -o custom-columns=NAME:{.metadata.name}").unwrap(),
        "NAME\nfoo"
    );
    load(&mut s, pod("bar", json!({}), &["c"]));
    assert_eq!(
        cc(&mut s, "-o custom-columns=NAME:{.metadata.name}").unwrap(),
        "NAME\nbar\nfoo"
    );
    assert_eq!(
        cc(
            &mut s,
            "foo -o custom-columns=NAME:{.metadata.name},API_VERSION:{.apiVersion},NOT_FOUND:{.notFound}"
        )
        .unwrap(),
        "NAME   API_VERSION   NOT_FOUND\nfoo    v1            <none>"
    );
    // An empty path is an empty template.
    assert_eq!(
        cc(&mut s, "foo -o custom-columns=NAME:.metadata.name,EMPTY:").unwrap(),
        "NAME   EMPTY\nfoo    <none>"
    );
}

/// TestColumnPrint's last row: ESC and CR in a value print as `^[` and `\r`
/// (`printers.EscapeTerminal`), here through an annotation.
#[test]
fn column_print_escapes_terminal() {
    let mut s = sim();
    let mut p = pod("foo", json!({}), &["c"]);
    p["metadata"]["annotations"] = json!({"x": "\u{1b} \r"});
    load(&mut s, p);
    assert_eq!(
        cc(&mut s, "foo -o custom-columns=X:.metadata.annotations.x").unwrap(),
        "X\n^[ \\r"
    );
}

/// Cells print as Go's `fmt.Sprint` of the unstructured value (printOneObject): maps as
/// `map[k:v]`, arrays as `[a b]`.
#[test]
fn column_print_non_string_values() {
    let mut s = sim();
    load(
        &mut s,
        pod("foo", json!({"app": "web", "tier": "fe"}), &["c"]),
    );
    assert_eq!(
        cc(
            &mut s,
            "foo -o custom-columns=LABELS:.metadata.labels,PORTS:.spec.containers[0].args,N:.spec.terminationGracePeriodSeconds"
        )
        .unwrap(),
        "LABELS                 PORTS    N\nmap[app:web tier:fe]   <none>   30"
    );
    let mut p = pod("bar", json!({}), &["c"]);
    p["spec"]["containers"][0]["args"] = json!(["a", "b"]);
    load(&mut s, p);
    assert_eq!(
        cc(
            &mut s,
            "bar -o custom-columns=ARGS:.spec.containers[0].args"
        )
        .unwrap(),
        "ARGS\n[a b]"
    );
}

/// TestIndividualPrintObjOnExistingTabWriter (customcolumn_test.go): a header wider than its
/// values sets the column width.
#[test]
fn individual_print_obj_on_existing_tab_writer() {
    let mut s = sim();
    load(
        &mut s,
        pod("foo", json!({"label1": "foo", "label2": "foo"}), &["c"]),
    );
    load(
        &mut s,
        pod("bar", json!({"label1": "bar", "label2": "bar"}), &["c"]),
    );
    assert_eq!(
        cc(
            &mut s,
            "-o custom-columns=NAME:{.metadata.name},LONG\\ COLUMN\\ NAME:{.metadata.labels.label1},LABEL\\ 2:{.metadata.labels.label2} --sort-by=.metadata.uid"
        )
        .unwrap(),
        "NAME   LONG COLUMN NAME   LABEL 2\nbar    bar                bar\nfoo    foo                foo"
    );
}

/// TestSliceColumnPrint (customcolumn_test.go), the rows that do not expect an error.
#[test]
fn slice_column_print() {
    let mut s = sim();
    load(
        &mut s,
        pod(
            "fake-name",
            json!({}),
            &["fake0", "fake1", "fake2", "fake3"],
        ),
    );
    for (path, want) in [
        ("[0]", "fake0"),
        ("[3]", "fake3"),
        ("[-1]", "fake3"),
        ("[-2]", "fake2"),
        ("[-4]", "fake0"),
        ("[0:0]", "<none>"),
        ("[0:3]", "fake0,fake1,fake2"),
        ("[1:]", "fake1,fake2,fake3"),
        ("[0:-1]", "fake0,fake1,fake2"),
        ("[-1:]", "fake3"),
        ("[-4:]", "fake0,fake1,fake2,fake3"),
        ("[-3:-1]", "fake1,fake2"),
        ("[4:4]", "<none>"),
        ("[-5:-5]", "<none>"),
    ] {
        assert_eq!(
            cc(
                &mut s,
                &format!("fake-name -o custom-columns=CONTAINER:.spec.containers{path}.name")
            )
            .unwrap(),
            format!("CONTAINER\n{want}"),
            "{path}"
        );
    }
}

/// TestSliceColumnPrint (customcolumn_test.go), the rows that expect an error: the header
/// prints, then the error of `JSONPath.FindResults`.
#[test]
fn slice_column_print_errors() {
    let mut s = sim();
    load(
        &mut s,
        pod(
            "fake-name",
            json!({}),
            &["fake0", "fake1", "fake2", "fake3"],
        ),
    );
    for (path, want) in [
        ("[5]", "array index out of bounds: index 5, length 4"),
        ("[-5]", "array index out of bounds: index -1, length 4"),
        ("[3:1]", "starting index 3 is greater than ending index 1"),
        ("[-2:-3]", "starting index 2 is greater than ending index 1"),
    ] {
        assert_eq!(
            cc(
                &mut s,
                &format!("fake-name -o custom-columns=CONTAINER:.spec.containers{path}.name")
            )
            .unwrap_err(),
            format!("CONTAINER\nerror: {want}"),
            "{path}"
        );
    }
}
