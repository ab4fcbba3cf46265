//! `--sort-by` with a jsonpath execution error (`SortObjects` in pkg/cmd/get/sorter.go: the
//! objects are searched in order for the field, and `findJSONPathResults`' error — client-go's
//! `array index out of bounds` — is returned as the command's error).

use super::testutil::{load_fixture, sim};

#[test]
fn sort_by_index_out_of_bounds_is_an_error() {
    let mut sim = sim();
    load_fixture(&mut sim);
    let err =
        super::execute(&mut sim, "get pods -A --sort-by={.spec.containers[5].name}").unwrap_err();
    assert!(
        err.starts_with("error: array index out of bounds: index 5, length "),
        "{err}"
    );
    // A field found nowhere is sorter.go's own error.
    let err = super::execute(&mut sim, "get pods -A --sort-by=.spec.nope").unwrap_err();
    assert_eq!(
        err,
        "error: couldn't find any field with path \"{.spec.nope}\" in the list of objects"
    );
}
