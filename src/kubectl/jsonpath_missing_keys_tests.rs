//! `--allow-missing-template-keys` for `-o jsonpath` (cli-runtime `JSONPathPrinter`,
//! `AllowMissingKeys`; client-go jsonpath `evalField`: with missing keys not allowed, a field no
//! current value has is `NAME is not found`).

use super::jsonpath::{eval_opts, parse, relaxed_path};
use serde_json::json;

// After client-go jsonpath `evalField` (staging/src/k8s.io/client-go/util/jsonpath/jsonpath.go).
#[test]
fn missing_keys_error_only_when_not_allowed() {
    let v = json!({"kind": "Pod", "metadata": {"name": "a"}});
    let t = parse("{.metadata.name}/{.spec.nodeName}").unwrap();
    assert_eq!(t.execute_opts(&v, true).unwrap(), "a/");
    assert_eq!(t.execute_opts(&v, false).unwrap_err(), "spec is not found");
    // A field some value has is no error, even if others lack it.
    let list = json!({"items": [{"a": 1}, {"b": 2}]});
    let p = relaxed_path("{.items[*].a}").unwrap();
    assert_eq!(eval_opts(&p, &list, false).unwrap(), [&json!(1)]);
    // No input, no output: fields below an empty result are not missing.
    let empty = json!({"items": []});
    let p = relaxed_path("{.items[*].a}").unwrap();
    assert!(eval_opts(&p, &empty, false).unwrap().is_empty());
}

// upstream: TestAllowMissingKeys, jsonpath rows (pkg/printers/internalversion/printers_test.go):
// `{.blarg}` prints nothing when missing keys are allowed and fails with
// `error executing jsonpath "{.blarg}"` when they are not.
#[test]
fn get_with_allow_missing_template_keys_false() {
    let mut sim = super::testutil::sim();
    super::testutil::load_fixture(&mut sim);
    let ok = super::execute(&mut sim, "get nodes -o jsonpath={.items[0].metadata.nope}").unwrap();
    assert_eq!(ok, "");
    let err = super::execute(
        &mut sim,
        "get nodes -o jsonpath={.items[0].metadata.nope} --allow-missing-template-keys=false",
    )
    .unwrap_err();
    assert!(
        err.starts_with("error: error executing jsonpath \"{.items[0].metadata.nope}\": Error executing template: nope is not found. Printing more information for debugging the template:\n\ttemplate was:\n\t\t{.items[0].metadata.nope}\n\tobject given to jsonpath engine was:\n\t\tmap[string]interface {}{"),
        "{err}"
    );
}
