//! More ports of pkg/controller/controller_utils_test.go.

use super::*;
use serde_json::json;

// upstream: TestCreatePods (pkg/controller/controller_utils_test.go): RealPodControl.CreatePods
// POSTs a pod built from the controller's template: the template's labels and spec,
// `generateName: <controller name>-`, in the controller's namespace (upstream compares with
// apiequality.Semantic.DeepDerivative, so only these fields are checked).
#[test]
fn create_pods_pod_shape() {
    // newReplicationController(1): name foobar in the default namespace, template labels
    // name=foo,type=production, one foo/bar container, restartPolicy Always, dnsPolicy Default,
    // nodeSelector baz=blah.
    let template: PodTemplateSpec = serde_json::from_value(json!({
        "metadata": {"labels": {"name": "foo", "type": "production"}},
        "spec": {
            "containers": [{"image": "foo/bar", "terminationMessagePath": "/dev/termination-log",
                "imagePullPolicy": "IfNotPresent"}],
            "restartPolicy": "Always",
            "dnsPolicy": "Default",
            "nodeSelector": {"baz": "blah"}
        }
    }))
    .expect("valid template JSON");
    let controller = ObjectMeta {
        name: "foobar".into(),
        namespace: "default".into(),
        uid: "rc-uid".into(),
        resource_version: "18".into(),
        ..Default::default()
    };
    let controller_ref = new_controller_ref(&controller, "v1", "ReplicationController");
    let pod = get_pod_from_template(&template, &controller, Some(&controller_ref));
    assert_eq!(pod.metadata.generate_name, "foobar-");
    assert_eq!(pod.metadata.namespace, "default");
    assert_eq!(pod.metadata.labels, template.metadata.labels);
    assert_eq!(pod.spec, template.spec);
    assert_eq!(pod.metadata.owner_references, vec![controller_ref]);
    // The pod is created by generateName: no name of its own.
    assert!(pod.metadata.name.is_empty());
}
