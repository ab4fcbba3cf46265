use super::*;
use serde_json::json;

fn template(spec: Value) -> PodTemplateSpec {
    serde_json::from_value(json!({"metadata": {"labels": {"app": "web"}}, "spec": spec}))
        .expect("a pod template")
}

/// `semantic_equal` both ways (Go's DeepEqual is symmetric).
fn eq(a: &Value, b: &Value) -> bool {
    let (x, y) = (template(a.clone()), template(b.clone()));
    let r = semantic_equal(&x, &y);
    assert_eq!(r, semantic_equal(&y, &x), "asymmetric for {a} / {b}");
    r
}

fn containers(c: Value) -> Value {
    json!({"containers": [c]})
}

/// The nil/empty rows of TestEqualities (third_party/forked/golang/reflect/deep_equal_test.go,
/// the `deepEqual` column), on the JSON shapes kubeplay keeps for unmodelled fields.
#[test]
fn test_equalities_nil_and_empty() {
    let list = Some(T::List(&T::Str));
    let map = Some(T::Map(&T::I32));
    let map_of_lists = Some(T::Map(&T::List(&T::I32)));
    let p = Field::Pointer;
    type Row = (Option<Value>, Option<Value>, Option<T>, bool);
    let rows: &[Row] = &[
        // {map[string]int{}, map[string]int(nil), true, false}
        (Some(json!({})), None, map, true),
        // {[]string(nil), []string(nil), true, true}
        (None, None, list, true),
        // {[]string{}, []string(nil), true, false} and the reverse
        (Some(json!([])), None, list, true),
        (None, Some(json!([])), list, true),
        (Some(json!([])), Some(Value::Null), list, true),
        // {[]string{"1"}, []string(nil), false, false}
        (Some(json!(["1"])), None, list, false),
        // {[]string{}, []string{"1"}, false, false}
        (Some(json!([])), Some(json!(["1"])), list, false),
        (Some(json!([])), Some(json!(["1", "2", "3"])), list, false),
        // {map[string]int{}, map[string]int{"foo": 1}, false, false}
        (Some(json!({})), Some(json!({"foo": 1})), map, false),
        // {[]string{"1"}, []string{"1", "2", "3"}, false, false}
        (
            Some(json!(["1"])),
            Some(json!(["1", "2", "3"])),
            list,
            false,
        ),
        // {map[string][]int{}, map[string][]int(nil), true, false}
        (Some(json!({})), None, map_of_lists, true),
        // {map[string][]int{"foo": nil}, map[string][]int{"foo": {}}, true, false}
        (
            Some(json!({"foo": null})),
            Some(json!({"foo": []})),
            map_of_lists,
            true,
        ),
        // A key present on one side only still makes the maps differ (their lengths do).
        (
            Some(json!({"foo": []})),
            Some(json!({})),
            map_of_lists,
            false,
        ),
    ];
    for (a, b, t, want) in rows {
        assert_eq!(
            value_equal(a.as_ref(), b.as_ref(), *t, p),
            *want,
            "{a:?} / {b:?}"
        );
        assert_eq!(
            value_equal(b.as_ref(), a.as_ref(), *t, p),
            *want,
            "{b:?} / {a:?}"
        );
    }
    // {Zap{A: nil, B: map[string][]int{"foo": nil}}, Zap{A: []int{}, B: {"foo": {}}}, true, false},
    // as an object of unknown Go type whose fields are a slice and a map of slices.
    let (a, b) = (
        json!({"B": {"foo": null}}),
        json!({"A": [], "B": {"foo": []}}),
    );
    assert!(present_equal(&a, &b, None));
}

/// semantic.go's `resource.Quantity` equality (`a.Cmp(b) == 0`), with TestQuantityCmp's rows
/// (apimachinery pkg/api/resource/quantity_test.go) and the formatting it ignores.
#[test]
fn test_quantity_semantic_equality() {
    let rows = [
        ("0", "0", true),
        ("100m", "50m", false),
        ("10000T", "100Gi", false),
        ("1", "1000m", true),
        ("1Gi", "1024Mi", true),
        ("1k", "1000", true),
        ("0.5", "500m", true),
        ("1e3", "1k", true),
        ("1Ki", "1000", false),
        ("1n", "1m", false),
    ];
    for (a, b, want) in rows {
        assert_eq!(
            Quantity(a.into()).sem(&Quantity(b.into())),
            want,
            "{a} / {b}"
        );
        let (x, y) = (
            containers(json!({"name": "c", "resources": {"requests": {"cpu": a}}})),
            containers(json!({"name": "c", "resources": {"requests": {"cpu": b}}})),
        );
        assert_eq!(eq(&x, &y), want, "container requests {a} / {b}");
        // Quantity-typed fields kubeplay does not model compare by value too.
        let (x, y) = (
            json!({"overhead": {"cpu": a}}),
            json!({"overhead": {"cpu": b}}),
        );
        assert_eq!(eq(&x, &y), want, "overhead {a} / {b}");
        let vol = |q: &str| json!({"volumes": [{"name": "v", "emptyDir": {"sizeLimit": q}}]});
        assert_eq!(eq(&vol(a), &vol(b)), want, "emptyDir.sizeLimit {a} / {b}");
    }
    // A quantity that does not parse equals only itself.
    assert!(!Quantity("x".into()).sem(&Quantity("y".into())));
    assert!(Quantity("x".into()).sem(&Quantity("x".into())));
    // Numbers in YAML are quantities too.
    assert!(eq(
        &json!({"overhead": {"cpu": 1}}),
        &json!({"overhead": {"cpu": "1000m"}})
    ));
    // A different number of resources is not equal, whatever the values.
    assert!(!eq(
        &containers(json!({"name": "c", "resources": {"requests": {"cpu": "0"}}})),
        &containers(json!({"name": "c"}))
    ));
}

/// Modelled fields follow their Go types: pointers keep nil apart from a zero value, values
/// do not.
#[test]
fn test_modelled_fields_follow_go_types() {
    let rows = [
        // *int64 / *int32: nil is not 0.
        (
            json!({}),
            json!({"terminationGracePeriodSeconds": 0}),
            false,
        ),
        (json!({}), json!({"activeDeadlineSeconds": 0}), false),
        (json!({}), json!({"priority": 0}), false),
        // *Affinity: nil is not an empty Affinity; inside it, *NodeAffinity likewise.
        (json!({}), json!({"affinity": {}}), false),
        (
            json!({"affinity": {}}),
            json!({"affinity": {"nodeAffinity": {}}}),
            false,
        ),
        // []NodeSelectorTerm inside: nil equals empty.
        (
            json!({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {}}}}),
            json!({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": []}}}}),
            true,
        ),
        // *ResourceRequirements at pod level: nil is not empty.
        (json!({}), json!({"resources": {}}), false),
        // Plain strings and slices: absent is "" and nil is empty.
        (
            json!({}),
            json!({"restartPolicy": "", "nodeName": "", "tolerations": []}),
            true,
        ),
        (
            json!({}),
            json!({"nodeSelector": {}, "initContainers": []}),
            true,
        ),
        // Container.resources is a value: absent equals empty.
        (
            containers(json!({"name": "c"})),
            containers(json!({"name": "c", "resources": {}})),
            true,
        ),
        (
            containers(json!({"name": "c"})),
            containers(json!({"name": "c", "resources": {"limits": {}}})),
            true,
        ),
        // *ContainerRestartPolicy: nil is not "".
        (
            containers(json!({"name": "c"})),
            containers(json!({"name": "c", "restartPolicy": ""})),
            false,
        ),
        // ContainerPort.name and protocol are plain strings.
        (
            containers(json!({"name": "c", "ports": [{"containerPort": 80}]})),
            containers(
                json!({"name": "c", "ports": [{"containerPort": 80, "name": "", "protocol": ""}]}),
            ),
            true,
        ),
        (
            containers(json!({"name": "c", "ports": [{"containerPort": 80}]})),
            containers(json!({"name": "c", "ports": [{"containerPort": 80, "protocol": "TCP"}]})),
            false,
        ),
        // Tolerations: *int64 tolerationSeconds.
        (
            json!({"tolerations": [{"key": "k", "operator": "Exists"}]}),
            json!({"tolerations": [{"key": "k", "operator": "Exists", "tolerationSeconds": 0}]}),
            false,
        ),
        // Different images are different templates.
        (
            containers(json!({"name": "c", "image": "a"})),
            containers(json!({"name": "c", "image": "b"})),
            false,
        ),
    ];
    for (a, b, want) in rows {
        assert_eq!(eq(&a, &b), want, "{a} / {b}");
    }
}

/// Unmodelled fields (`extra`): the documented rules.
#[test]
fn test_extra_fields() {
    let rows = [
        // Rule 1: null, absent and [] are equal, at any depth.
        (
            containers(json!({"name": "c"})),
            containers(json!({"name": "c", "env": []})),
            true,
        ),
        (
            containers(json!({"name": "c"})),
            containers(json!({"name": "c", "env": null})),
            true,
        ),
        (
            json!({}),
            json!({"imagePullSecrets": [], "volumes": null}),
            true,
        ),
        (
            containers(
                json!({"name": "c", "env": [{"name": "A", "valueFrom": {"fieldRef": {"fieldPath": "x"}}}]}),
            ),
            containers(
                json!({"name": "c", "env": [{"name": "A", "valueFrom": {"fieldRef": {"fieldPath": "x"}}, "value": ""}]}),
            ),
            true,
        ),
        (
            containers(json!({"name": "c"})),
            containers(json!({"name": "c", "env": [{"name": "A"}]})),
            false,
        ),
        (
            json!({"securityContext": {"supplementalGroups": []}}),
            json!({"securityContext": {}}),
            true,
        ),
        // Unknown fields: rule 1 only.
        (json!({"futureField": []}), json!({}), true),
        (json!({"futureField": {}}), json!({}), false),
        // Rule 2: {} is absent for maps, not for pointers to structs.
        (json!({"overhead": {}}), json!({}), true),
        (json!({"securityContext": {}}), json!({}), false),
        (
            json!({"volumes": [{"name": "v", "emptyDir": {}}]}),
            json!({"volumes": [{"name": "v"}]}),
            false,
        ),
        (
            json!({"affinity": {"podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1}]}}}),
            json!({"affinity": {"podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1, "podAffinityTerm": {}}]}}}),
            true,
        ),
        (
            json!({"affinity": {"podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1}]}}}),
            json!({"affinity": {"podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1, "podAffinityTerm": {"topologyKey": "z"}}]}}}),
            false,
        ),
        // Rule 3: zero scalars equal absent only for Go value fields.
        (
            json!({}),
            json!({"dnsPolicy": "", "hostNetwork": false, "serviceAccountName": ""}),
            true,
        ),
        (
            json!({}),
            json!({"automountServiceAccountToken": false}),
            false,
        ),
        (json!({}), json!({"enableServiceLinks": false}), false),
        (json!({}), json!({"runtimeClassName": ""}), false),
        (
            containers(json!({"name": "c"})),
            containers(json!({"name": "c", "imagePullPolicy": "", "tty": false, "workingDir": ""})),
            true,
        ),
        (
            containers(json!({"name": "c", "readinessProbe": {"exec": {"command": ["true"]}}})),
            containers(
                json!({"name": "c", "readinessProbe": {"exec": {"command": ["true"]}, "periodSeconds": 0}}),
            ),
            true,
        ),
        (
            containers(json!({"name": "c", "readinessProbe": {"exec": {"command": ["true"]}}})),
            containers(
                json!({"name": "c", "readinessProbe": {"exec": {"command": ["true"]}, "terminationGracePeriodSeconds": 0}}),
            ),
            false,
        ),
        (
            containers(json!({"name": "c", "ports": [{"containerPort": 80}]})),
            containers(
                json!({"name": "c", "ports": [{"containerPort": 80, "hostPort": 0, "hostIP": ""}]}),
            ),
            true,
        ),
        // Rule 4: everything else exactly.
        (
            json!({"dnsPolicy": "ClusterFirst"}),
            json!({"dnsPolicy": "Default"}),
            false,
        ),
        (
            containers(json!({"name": "c", "readinessProbe": {"httpGet": {"port": 80}}})),
            containers(json!({"name": "c", "readinessProbe": {"httpGet": {"port": "80"}}})),
            false,
        ),
        (
            containers(json!({"name": "c", "args": ["a", "b"]})),
            containers(json!({"name": "c", "args": ["b", "a"]})),
            false,
        ),
    ];
    for (a, b, want) in rows {
        assert_eq!(eq(&a, &b), want, "{a} / {b}");
    }
}

#[test]
fn test_metadata_and_ignored_label() {
    let mut a = template(json!({}));
    let mut b = a.clone();
    b.metadata.annotations = [("k".to_string(), String::new())].into();
    assert!(!semantic_equal(&a, &b));
    b.metadata.annotations = Default::default();
    b.metadata
        .labels
        .insert("pod-template-hash".into(), "abc".into());
    assert!(!semantic_equal(&a, &b));
    assert!(semantic_equal_ignoring_label(&a, &b, "pod-template-hash"));
    assert!(semantic_equal_ignoring_label(&b, &a, "pod-template-hash"));
    a.metadata
        .labels
        .insert("pod-template-hash".into(), "def".into());
    assert!(semantic_equal_ignoring_label(&a, &b, "pod-template-hash"));
    a.metadata.labels.insert("x".into(), "y".into());
    assert!(!semantic_equal_ignoring_label(&a, &b, "pod-template-hash"));
    // []ManagedFieldsEntry: nil equals empty.
    let mut c = template(json!({}));
    c.metadata.managed_fields = Some(json!([]));
    assert!(semantic_equal(&template(json!({})), &c));
}

/// The schema knows the structs the walk starts from.
#[test]
fn test_root_types_are_in_the_schema() {
    for r in [
        Root::PodSpec,
        Root::Container,
        Root::ContainerPort,
        Root::Affinity,
        Root::NodeAffinity,
    ] {
        assert!(root_type(r).is_some());
    }
    for (s, f) in VALUE_FIELDS {
        let i = type_index(s).unwrap_or_else(|| panic!("{s} is not in the schema"));
        assert!(
            TYPES[i].fields.iter().any(|(n, _)| n == f),
            "{s}.{f} is not in the schema"
        );
    }
}

/// The update strategies bump `metadata.generation` on `!apiequality.Semantic.DeepEqual(new.Spec,
/// old.Spec)` (rsStrategy / deploymentStrategy / daemonSetStrategy `PrepareForUpdate`): an
/// update that only adds empty lists to the pod template does not bump it, a real change does.
#[test]
fn test_generation_bumps_on_semantic_spec_change_only() {
    let d: Object = Object::Deployment(
        serde_json::from_value(json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "default"},
            "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "web"}},
                     "template": {"metadata": {"labels": {"app": "web"}},
                                  "spec": {"containers": [{"name": "c", "image": "i"}]}}}}))
        .unwrap(),
    );
    let mut api = crate::store::apiserver::ApiServer::new(1, crate::api::Time(0));
    let Object::Deployment(created) = api.create(d).unwrap() else {
        unreachable!()
    };
    assert_eq!(created.metadata.generation, 1);
    let mut same = created.clone();
    let spec = same.spec.template_mut().spec_mut();
    spec.extra.insert("imagePullSecrets".into(), json!([]));
    spec.containers[0].extra.insert("env".into(), json!([]));
    let Object::Deployment(n) = api.update(Object::Deployment(same)).unwrap() else {
        unreachable!()
    };
    assert_eq!(n.metadata.generation, 1);
    let mut changed = n.clone();
    changed.spec.template_mut().spec_mut().containers[0].image = "j".into();
    let Object::Deployment(n) = api.update(Object::Deployment(changed)).unwrap() else {
        unreachable!()
    };
    assert_eq!(n.metadata.generation, 2);
    let mut scaled = n.clone();
    scaled.spec.replicas = Some(3);
    let Object::Deployment(n) = api.update(Object::Deployment(scaled)).unwrap() else {
        unreachable!()
    };
    assert_eq!(n.metadata.generation, 3);
}

#[test]
fn test_spec_semantically_equal_per_kind() {
    let tpl = |extra: Value| {
        let mut t = json!({"metadata": {"labels": {"app": "a"}},
                           "spec": {"containers": [{"name": "c", "image": "i"}]}});
        t["spec"]["containers"][0]
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        t
    };
    let objs = |kind: &str, extra: Value, replicas: i32| -> Object {
        let v = match kind {
            "ReplicationController" => json!({"kind": kind, "apiVersion": "v1",
                "metadata": {"name": "x"},
                "spec": {"replicas": replicas, "selector": {"app": "a"}, "template": tpl(extra)}}),
            "CronJob" => json!({"kind": kind, "apiVersion": "batch/v1",
                "metadata": {"name": "x"},
                "spec": {"schedule": format!("{replicas} * * * *"),
                         "jobTemplate": {"spec": {"template": tpl(extra)}}}}),
            "Job" => json!({"kind": kind, "apiVersion": "batch/v1",
                "metadata": {"name": "x"},
                "spec": {"parallelism": replicas, "template": tpl(extra)}}),
            _ => json!({"kind": kind, "apiVersion": "apps/v1",
                "metadata": {"name": "x"},
                "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": "a"}},
                         "template": tpl(extra)}}),
        };
        Object::from_value(v).unwrap()
    };
    for kind in [
        "Deployment",
        "ReplicaSet",
        "StatefulSet",
        "DaemonSet",
        "Job",
        "ReplicationController",
        "CronJob",
    ] {
        let base = objs(kind, json!({}), 1);
        let empty = objs(kind, json!({"env": [], "args": null}), 1);
        assert!(!base.spec_eq(&empty), "{kind}");
        assert!(spec_semantically_equal(&base, &empty), "{kind}");
        assert!(spec_semantically_equal(&empty, &base), "{kind}");
        let other = objs(kind, json!({"env": [], "args": ["x"]}), 1);
        assert!(!spec_semantically_equal(&base, &other), "{kind}");
        if kind != "DaemonSet" {
            let rescaled = objs(kind, json!({"env": []}), 2);
            assert!(!spec_semantically_equal(&base, &rescaled), "{kind}");
        }
    }
}
