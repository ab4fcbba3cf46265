//! API validation (`pkg/apis/*/validation`) with `field.Error` lists in Kubernetes' wording.

use super::errors::FieldError;
use super::object::Object;

/// Validates an object on create (`old == None`) or update.
pub fn validate_object(o: &Object, old: Option<&Object>) -> Vec<FieldError> {
    let mut errs = vec![];
    let m = o.meta();
    if m.name.is_empty() {
        errs.push(FieldError::required(
            "metadata.name",
            "name or generateName is required",
        ));
    }
    if let (Object::ReplicaSet(rs), None) = (o, old) {
        match &rs.spec.selector {
            None => errs.push(FieldError::required("spec.selector", "")),
            Some(sel) => {
                if let Ok(s) = sel.to_selector() {
                    if !s.is_empty() && !s.matches(&rs.spec.template.metadata.labels) {
                        errs.push(FieldError::invalid(
                            "spec.template.metadata.labels",
                            serde_json::to_value(&rs.spec.template.metadata.labels)
                                .unwrap_or_default(),
                            "`selector` does not match template `labels`",
                        ));
                    }
                }
            }
        }
    }
    if let Object::Deployment(d) = o {
        errs.extend(super::deployment_validation::validate_deployment_object(
            d, old,
        ))
    }
    errs
}
