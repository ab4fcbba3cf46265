//! Rows of client-go's `util/jsonpath/jsonpath_test.go` (release-1.35) not ported before:
//! TestTypesInput, TestStructInput, TestEmptyRange, TestNestedRanges,
//! TestFilterPartialMatchesSometimesMissingAnnotations, TestNegativeIndex,
//! TestRunningPodsJSONPathOutput and TestStep. kubectl decodes objects into unstructured maps
//! before printing, so inputs here are JSON values (map keys print sorted, as kubectl's do).
//! Rows that expect an execution error check that the template prints nothing (the error itself
//! is checked in `jsonpath.rs`'s tests and through `get -o jsonpath`).

use super::jsonpath::{eval_checked, parse, parse_path};
use serde_json::{json, Value};

fn run(template: &str, input: &Value) -> String {
    parse(template)
        .unwrap_or_else(|e| panic!("parse {template}: {e}"))
        .execute(input)
        .unwrap_or_default()
}

fn check(rows: &[(&str, &str)], input: &Value) {
    for (template, want) in rows {
        assert_eq!(run(template, input), *want, "template {template}");
    }
}

/// TestTypesInput (jsonpath_test.go): slices of every JSON type, with indexes, sub-slices and
/// steps.
#[test]
fn types_input() {
    let types = json!({
        "bools": [true, false, true, false],
        "integers": [1, 2, 3, 4],
        "floats": [1, 2.2, 3.3, 4],
        "strings": ["one", "two", "three", "four"],
        "interfaces": [true, "one", 1, 1.1],
        "maps": [
            {"name": "one", "value": 1},
            {"name": "two", "value": 2.02},
            {"name": "three", "value": 3.03},
            {"name": "four", "value": 4.04},
        ],
    });
    check(
        &[
            ("{ .bools }", "[true,false,true,false]"),
            ("{ .bools[0] }", "true"),
            ("{ .bools[-1] }", "false"),
            ("{ .bools[0:2] }", "true false"),
            ("{ .bools[:2] }", "true false"),
            ("{ .bools[:4:2] }", "true true"),
            ("{ .integers }", "[1,2,3,4]"),
            ("{ .integers[0] }", "1"),
            ("{ .integers[-2] }", "3"),
            ("{ .integers[0:2] }", "1 2"),
            ("{ .integers[:2] }", "1 2"),
            ("{ .integers[:4:2] }", "1 3"),
            ("{ .floats }", "[1,2.2,3.3,4]"),
            ("{ .floats[0] }", "1"),
            ("{ .floats[-2] }", "3.3"),
            ("{ .floats[0:2] }", "1 2.2"),
            ("{ .floats[:2] }", "1 2.2"),
            ("{ .floats[:4:2] }", "1 3.3"),
            ("{ .strings }", r#"["one","two","three","four"]"#),
            ("{ .strings[0] }", "one"),
            ("{ .strings[-2] }", "three"),
            ("{ .strings[0:2] }", "one two"),
            ("{ .strings[:2] }", "one two"),
            ("{ .strings[:4:2] }", "one three"),
            ("{ .interfaces }", r#"[true,"one",1,1.1]"#),
            ("{ .interfaces[0] }", "true"),
            ("{ .interfaces[-2] }", "1"),
            ("{ .interfaces[0:2] }", "true one"),
            ("{ .interfaces[:2] }", "true one"),
            ("{ .interfaces[:4:2] }", "true 1"),
            (
                "{ .maps }",
                r#"[{"name":"one","value":1},{"name":"two","value":2.02},{"name":"three","value":3.03},{"name":"four","value":4.04}]"#,
            ),
            ("{ .maps[0] }", r#"{"name":"one","value":1}"#),
            ("{ .maps[-2] }", r#"{"name":"three","value":3.03}"#),
            (
                "{ .maps[0:2] }",
                r#"{"name":"one","value":1} {"name":"two","value":2.02}"#,
            ),
            (
                "{ .maps[:2] }",
                r#"{"name":"one","value":1} {"name":"two","value":2.02}"#,
            ),
            (
                "{ .maps[::2] }",
                r#"{"name":"one","value":1} {"name":"three","value":3.03}"#,
            ),
            (
                "{ .maps[1::2] }",
                r#"{"name":"two","value":2.02} {"name":"four","value":4.04}"#,
            ),
        ],
        &types,
    );
}

/// TestStructInput (jsonpath_test.go), the rows that do not depend on Go struct field order.
#[test]
fn struct_input() {
    let store = json!({
        "Name": "jsonpath",
        "Book": [
            {"Category": "reference", "Author": "Nigel Rees", "Title": "Sayings of the Centurey", "Price": 8.95},
            {"Category": "fiction", "Author": "Evelyn Waugh", "Title": "Sword of Honour", "Price": 12.99},
            {"Category": "fiction", "Author": "Herman Melville", "Title": "Moby Dick", "Price": 8.99},
        ],
        "Bicycle": [
            {"Color": "red", "Price": 19.95, "IsNew": true},
            {"Color": "green", "Price": 20.01, "IsNew": false},
        ],
        "Labels": {"engieer": 10, "web/html": 15, "k8s-app": 20},
        "Employees": {"jason": "manager", "dan": "clerk"},
    });
    assert_eq!(run("hello jsonpath", &Value::Null), "hello jsonpath");
    assert_eq!(run("{[?(@<5)]}", &json!([2, 6, 3, 7])), "2 3");
    assert_eq!(run(r#"{"{"}"#, &Value::Null), "{");
    assert_eq!(run("{[1,3,4]}", &json!([0, 1, 2, 3, 4])), "1 3 4");
    assert_eq!(
        run("{[0:2]}", &json!(["Monday", "Tudesday"])),
        "Monday Tudesday"
    );
    check(
        &[
            ("hello {.Name}", "hello jsonpath"),
            ("{$.Labels.web/html}", "15"),
            ("{$.Employees.jason}", "manager"),
            ("{$.Employees.dan}", "clerk"),
            ("{.Labels.k8s-app}", "20"),
            ("{.Bicycle[*].Color}", "red green"),
            (
                "{.Book[*].Author}",
                "Nigel Rees Evelyn Waugh Herman Melville",
            ),
            // Upstream walks struct fields in declaration order (Book, then Bicycle); a map's
            // order is unspecified in Go, and sorted here.
            ("{..Price}", "19.95 20.01 8.95 12.99 8.99"),
            ("{...Price}", "19.95 20.01 8.95 12.99 8.99"),
            (
                "{.Book[-1:]}",
                r#"{"Author":"Herman Melville","Category":"fiction","Price":8.99,"Title":"Moby Dick"}"#,
            ),
            (
                "{..Book[2]}",
                r#"{"Author":"Herman Melville","Category":"fiction","Price":8.99,"Title":"Moby Dick"}"#,
            ),
            (
                "{.Bicycle[?(@.IsNew==true)]}",
                r#"{"Color":"red","IsNew":true,"Price":19.95}"#,
            ),
            (
                r#"{range .Bicycle[*]}{ @ }{ " " }{end}"#,
                r#"{"Color":"red","IsNew":true,"Price":19.95} {"Color":"green","IsNew":false,"Price":20.01} "#,
            ),
            // missingKeyTests (allowMissingKeys, kubectl's default).
            ("{.hello}", ""),
            ("before-{.hello}after", "before-after"),
        ],
        &store,
    );
    // "superrecurfields" is an error upstream.
    assert!(parse("{............................................................Price}").is_err());
    // failStoreTests: "redundant end" fails to parse with upstream's message.
    assert_eq!(
        parse("{range .Labels.*}{@}{end}{end}").unwrap_err(),
        "not in range, nothing to end"
    );
}

/// TestEmptyRange (jsonpath_test.go).
#[test]
fn empty_range() {
    check(
        &[
            ("{range .items[*]}{.metadata.name}{end}", ""),
            (
                r#"{range .items[*]}{.metadata.name}{":"}{range @.spec.containers[*]}{.name}{","}{end}{"+"}{end}"#,
                "",
            ),
        ],
        &json!({"items": []}),
    );
}

/// TestNestedRanges (jsonpath_test.go).
#[test]
fn nested_ranges() {
    let another = json!([{"name": "value1"}, {"name": "value2"}]);
    let data = json!({"items": [
        {"metadata": {"name": "pod1"}, "spec": {"containers": [
            {"name": "foo", "another": another},
            {"name": "bar", "another": another},
        ]}},
        {"metadata": {"name": "pod2"}, "spec": {"containers": [
            {"name": "baz", "another": another},
        ]}},
    ]});
    check(
        &[
            (
                r#"{range .items[*]}{.metadata.name}{":"}{range @.spec.containers[*]}{.name}{","}{end}{"+"}{end}"#,
                "pod1:foo,bar,+pod2:baz,+",
            ),
            (
                r##"{range .items[*]}{.metadata.name}{"~"}{range @.spec.containers[*]}{.name}{":"}{range @.another[*]}{.name}{","}{end}{"+"}{end}{"#"}{end}"##,
                "pod1~foo:value1,value2,+bar:value1,value2,+#pod2~baz:value1,value2,+#",
            ),
            (
                r#"{range .items[*]}{.metadata.name}{"\t"}{range @.spec.containers[*]}{.name}{" "}{end}{"\t"}{range @.spec.containers[*]}{.name}{" "}{end}{"\n"}{end}"#,
                "pod1\tfoo bar \tfoo bar \npod2\tbaz \tbaz \n",
            ),
        ],
        &data,
    );
}

/// TestFilterPartialMatchesSometimesMissingAnnotations (jsonpath_test.go), the
/// allow-missing-keys row (issues.k8s.io/45546).
#[test]
fn filter_partial_matches_sometimes_missing_annotations() {
    let data = json!({"kind": "List", "items": [
        {"kind": "Pod", "metadata": {"name": "pod1", "annotations": {"color": "blue"}}},
        {"kind": "Pod", "metadata": {"name": "pod2"}},
        {"kind": "Pod", "metadata": {"name": "pod3", "annotations": {"color": "green"}}},
        {"kind": "Pod", "metadata": {"name": "pod4", "annotations": {"color": "blue"}}},
    ]});
    check(
        &[(
            r#"{.items[?(@.metadata.annotations.color=="blue")].metadata.name}"#,
            "pod1 pod4",
        )],
        &data,
    );
}

fn containers(n: usize) -> Value {
    let cs: Vec<Value> = (0..n)
        .map(|i| json!({"image": "radial/busyboxplus:curl", "name": format!("fake{i}")}))
        .collect();
    json!({"apiVersion": "v1", "kind": "Pod", "spec": {"containers": cs}})
}

/// TestNegativeIndex (jsonpath_test.go).
#[test]
fn negative_index() {
    let data = containers(4);
    check(
        &[
            ("{.spec.containers[0].name}", "fake0"),
            ("{.spec.containers[0:0].name}", ""),
            ("{.spec.containers[0:-1].name}", "fake0 fake1 fake2"),
            ("{.spec.containers[-1].name}", "fake3"),
            ("{.spec.containers[-1:].name}", "fake3"),
            ("{.spec.containers[-2].name}", "fake2"),
            ("{.spec.containers[-2:].name}", "fake2 fake3"),
            ("{.spec.containers[-3].name}", "fake1"),
            ("{.spec.containers[-4].name}", "fake0"),
            ("{.spec.containers[-4:].name}", "fake0 fake1 fake2 fake3"),
            ("{.spec.containers[5:5].name}", ""),
            ("{.spec.containers[-5:-5].name}", ""),
            // Rows upstream expects to fail ([-1:0], [-5], [3:1], [-1:-2]) print nothing.
            ("{.spec.containers[-1:0].name}", ""),
            ("{.spec.containers[-5].name}", ""),
            ("{.spec.containers[3:1].name}", ""),
            ("{.spec.containers[-1:-2].name}", ""),
        ],
        &data,
    );
}

/// TestRunningPodsJSONPathOutput (jsonpath_test.go): a filter path without `@`, over a list
/// whose last item has no status.
#[test]
fn running_pods_jsonpath_output() {
    let data = json!({"kind": "List", "items": [
        {"kind": "Pod", "metadata": {"name": "pod1"}, "status": {"phase": "Running"}},
        {"kind": "Pod", "metadata": {"name": "pod2"}, "status": {"phase": "Running"}},
        {"kind": "Pod", "metadata": {"name": "pod3"}, "status": {"phase": "Running"}},
        {"resourceVersion": ""},
    ]});
    check(
        &[(
            r#"{range .items[?(.status.phase=="Running")]}{.metadata.name}{" is Running\n"}{end}"#,
            "pod1 is Running\npod2 is Running\npod3 is Running\n",
        )],
        &data,
    );
}

/// TestStep (jsonpath_test.go).
#[test]
fn step() {
    let data = containers(6);
    check(
        &[
            (
                "{.spec.containers[0:].name}",
                "fake0 fake1 fake2 fake3 fake4 fake5",
            ),
            (
                "{.spec.containers[0:6:].name}",
                "fake0 fake1 fake2 fake3 fake4 fake5",
            ),
            (
                "{.spec.containers[0:6:1].name}",
                "fake0 fake1 fake2 fake3 fake4 fake5",
            ),
            ("{.spec.containers[1:4:2].name}", "fake1 fake3"),
            ("{.spec.containers[1:4:3].name}", "fake1"),
            ("{.spec.containers[1:4:4].name}", "fake1"),
            ("{.spec.containers[0:6:2].name}", "fake0 fake2 fake4"),
            ("{.spec.containers[0:6:3].name}", "fake0 fake3"),
            ("{.spec.containers[0:6:5].name}", "fake0 fake5"),
            ("{.spec.containers[0:6:6].name}", "fake0"),
            // Steps 0 and -1 are errors upstream ("step must be > 0"): nothing prints.
            ("{.spec.containers[0:6:0].name}", ""),
            ("{.spec.containers[0:6:-1].name}", ""),
        ],
        &data,
    );
}

/// The error rows of TestNegativeIndex and TestStep (jsonpath_test.go), with evalArray's
/// messages.
#[test]
fn index_and_step_errors() {
    let data = containers(4);
    for (path, want) in [
        ("[-1:0]", "starting index 3 is greater than ending index 0"),
        ("[-5]", "array index out of bounds: index -1, length 4"),
        ("[3:1]", "starting index 3 is greater than ending index 1"),
        ("[-1:-2]", "starting index 3 is greater than ending index 2"),
        ("[5]", "array index out of bounds: index 5, length 4"),
        ("[0:6]", "array index out of bounds: index 5, length 4"),
        ("[0:4:0]", "step must be > 0"),
        ("[0:4:-1]", "step must be > 0"),
    ] {
        let p = parse_path(&format!(".spec.containers{path}.name")).unwrap();
        assert_eq!(eval_checked(&p, &data).unwrap_err(), want, "{path}");
    }
    // An index into an empty list is out of bounds too; an empty slice is not.
    let empty = json!({"items": []});
    let p = parse_path(".items[0]").unwrap();
    assert_eq!(
        eval_checked(&p, &empty).unwrap_err(),
        "array index out of bounds: index 0, length 0"
    );
    let p = parse_path(".items[0:0]").unwrap();
    assert!(eval_checked(&p, &empty).unwrap().is_empty());
}
