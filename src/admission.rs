//! Admission plugins as pure functions: DefaultTolerationSeconds and RuntimeClass's overhead check.

use crate::api::errors::ApiError;
use crate::api::{Pod, PodSpec, Toleration};

/// `--default-not-ready-toleration-seconds` and `--default-unreachable-toleration-seconds`.
pub const DEFAULT_TOLERATION_SECONDS: i64 = 300;

pub const TAINT_NODE_NOT_READY: &str = "node.kubernetes.io/not-ready";
pub const TAINT_NODE_UNREACHABLE: &str = "node.kubernetes.io/unreachable";

/// The DefaultTolerationSeconds admission plugin, applied on pod create: unless the pod already
/// tolerates `node.kubernetes.io/not-ready:NoExecute` (a toleration with that key or an empty
/// key, and effect NoExecute or empty), append `{key: not-ready, operator: Exists, effect:
/// NoExecute, tolerationSeconds: 300}`; the same for `node.kubernetes.io/unreachable`.
/// not-ready is appended before unreachable, as upstream does.
pub fn default_toleration_seconds(pod: &mut Pod) {
    default_toleration_seconds_spec(pod.spec_mut());
}

/// [`default_toleration_seconds`] on a pod spec (used by the API server's create path).
pub fn default_toleration_seconds_spec(spec: &mut PodSpec) {
    let covers = |t: &Toleration, key: &str| {
        (t.key == key || t.key.is_empty()) && (t.effect == "NoExecute" || t.effect.is_empty())
    };
    let not_ready = spec
        .tolerations
        .iter()
        .any(|t| covers(t, TAINT_NODE_NOT_READY));
    let unreachable = spec
        .tolerations
        .iter()
        .any(|t| covers(t, TAINT_NODE_UNREACHABLE));
    let make = |key: &str| Toleration {
        key: key.into(),
        operator: "Exists".into(),
        value: String::new(),
        effect: "NoExecute".into(),
        toleration_seconds: Some(DEFAULT_TOLERATION_SECONDS),
    };
    if !not_ready {
        spec.tolerations.push(make(TAINT_NODE_NOT_READY));
    }
    if !unreachable {
        spec.tolerations.push(make(TAINT_NODE_UNREACHABLE));
    }
}

/// The RuntimeClass admission plugin's validation on pod create
/// (plugin/pkg/admission/runtimeclass `validateOverhead`): a pod may carry `spec.overhead` only as
/// set from its RuntimeClass, so a pod with an overhead and no `runtimeClassName` is refused with
/// `pods "<name>" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass
/// defined Overhead` (the generated name when the pod has `generateName`).
///
/// kubeplay has no RuntimeClass objects: a pod naming a class is accepted as it is (upstream
/// would look the class up, refuse an unknown one and compare the overhead with the class's).
///
/// # Errors
/// Forbidden, as above.
pub fn validate_runtime_class_overhead(pod: &Pod) -> Result<(), ApiError> {
    let has_class = pod
        .spec
        .extra
        .get("runtimeClassName")
        .is_some_and(|v| !v.is_null());
    let has_overhead = pod.spec.extra.get("overhead").is_some_and(|v| !v.is_null());
    if has_overhead && !has_class {
        return Err(ApiError::forbidden(format!(
            "pods {} is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead",
            crate::api::errors::go_quote(&pod.metadata.name)
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn create_pod(spec: serde_json::Value) -> Result<crate::api::Object, ApiError> {
        let mut api =
            crate::store::apiserver::ApiServer::new(1, crate::api::Time::from_unix_secs(0));
        let o = crate::api::Object::from_value(serde_json::json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"generateName": "web-"},
            "spec": spec,
        }))
        .unwrap();
        api.create(o)
    }

    // RuntimeClass admission, validateOverhead (plugin/pkg/admission/runtimeclass/admission.go):
    // TestValidateOverhead's "No RunntimeClass, Overhead set in pod" row (admission_test.go),
    // through the API server's create.
    #[test]
    fn overhead_without_a_runtime_class_is_forbidden() {
        let err = create_pod(serde_json::json!({
            "overhead": {"cpu": "250m"},
            "containers": [{"name": "c", "image": "nginx"}],
        }))
        .unwrap_err();
        assert_eq!(err.reason, crate::api::errors::Reason::Forbidden);
        assert!(
            err.message.starts_with("pods \"web-")
                && err.message.ends_with(
                    "\" is forbidden: pod rejected: Pod Overhead set without corresponding \
RuntimeClass defined Overhead"
                ),
            "{}",
            err.message
        );
        // Without the overhead, or naming a class (not modelled, so accepted), the pod is
        // created.
        assert!(create_pod(serde_json::json!({
            "containers": [{"name": "c", "image": "nginx"}],
        }))
        .is_ok());
        assert!(create_pod(serde_json::json!({
            "runtimeClassName": "kata",
            "overhead": {"cpu": "250m"},
            "containers": [{"name": "c", "image": "nginx"}],
        }))
        .is_ok());
    }

    fn tol(key: &str, op: &str, effect: &str, secs: Option<i64>) -> Toleration {
        Toleration {
            key: key.into(),
            operator: op.into(),
            value: String::new(),
            effect: effect.into(),
            toleration_seconds: secs,
        }
    }

    fn run(tols: Vec<Toleration>) -> Vec<Toleration> {
        let mut p = Pod::default();
        p.spec_mut().tolerations = tols;
        default_toleration_seconds(&mut p);
        p.spec.tolerations.clone()
    }

    // Port of TestForgivenessAdmission (plugin/pkg/admission/defaulttolerationseconds/admission_test.go).
    #[test]
    fn forgiveness_admission() {
        let nr = tol(TAINT_NODE_NOT_READY, "Exists", "NoExecute", Some(300));
        let un = tol(TAINT_NODE_UNREACHABLE, "Exists", "NoExecute", Some(300));
        // "pod has no tolerations, expect add tolerations for `not-ready:NoExecute` and `unreachable:NoExecute`"
        assert_eq!(run(vec![]), vec![nr.clone(), un.clone()]);
        // "pod has alpha tolerations, expect add tolerations ..." (an unrelated toleration is kept first)
        let foo = tol("foo", "Equal", "NoSchedule", None);
        assert_eq!(
            run(vec![foo.clone()]),
            vec![foo.clone(), nr.clone(), un.clone()]
        );
        // "pod specified a toleration for not-ready taint, expect add toleration for unreachable"
        let own_nr = tol(TAINT_NODE_NOT_READY, "Exists", "NoExecute", Some(700));
        assert_eq!(run(vec![own_nr.clone()]), vec![own_nr.clone(), un.clone()]);
        // "pod specified a toleration for unreachable taint, expect add toleration for not-ready"
        let own_un = tol(TAINT_NODE_UNREACHABLE, "Exists", "NoExecute", Some(700));
        assert_eq!(run(vec![own_un.clone()]), vec![own_un.clone(), nr.clone()]);
        // "pod specified tolerations for both taints, expect no change"
        assert_eq!(
            run(vec![own_nr.clone(), own_un.clone()]),
            vec![own_nr.clone(), own_un.clone()]
        );
        // "pod specified toleration for all taints (empty key, Exists), expect no change"
        let all = tol("", "Exists", "", None);
        assert_eq!(run(vec![all.clone()]), vec![all.clone()]);
        // "pod specified toleration for all NoExecute taints, expect no change"
        let all_ne = tol("", "Exists", "NoExecute", None);
        assert_eq!(run(vec![all_ne.clone()]), vec![all_ne]);
        // A NoSchedule toleration for not-ready does not count.
        let nr_ns = tol(TAINT_NODE_NOT_READY, "Exists", "NoSchedule", None);
        assert_eq!(run(vec![nr_ns.clone()]), vec![nr_ns, nr, un]);
    }
}
