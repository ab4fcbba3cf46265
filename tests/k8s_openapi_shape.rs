//! Shape fidelity: every object kubeplay emits decodes as the real Kubernetes type (k8s-openapi)
//! and survives kubeplay → k8s-openapi → kubeplay unchanged.
#![cfg(not(target_arch = "wasm32"))]

use k8s_openapi::api::apps::v1 as apps;
use k8s_openapi::api::autoscaling::v2 as autoscaling;
use k8s_openapi::api::batch::v1 as batch;
use k8s_openapi::api::core::v1 as core;
use k8s_openapi::api::policy::v1 as policy;
use kubeplay::api::{Duration, Object, KINDS};
use kubeplay::scenario::Scenario;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeSet;

/// Nodes (one tainted and labelled), a ReplicaSet and a ReplicationController whose templates use
/// tolerations, affinity and resources, a running pod with full status (conditions, init and
/// regular container statuses, last state) owned by the ReplicaSet, and a crash-looping bare pod;
/// a headless and a ClusterIP Service, a StatefulSet with claim templates (whose claims and
/// ControllerRevisions the controllers emit) and a host-network DaemonSet.
const SCENARIO: &str = r#"
apiVersion: kubeplay.dev/v1alpha1
kind: Scenario
metadata:
  name: shape
seed: 3
nodes:
- count: 2
  namePrefix: node-
- name: gpu-1
  labels: {accelerator: nvidia, topology.kubernetes.io/zone: zone-b}
  taints:
  - {key: dedicated, value: gpu, effect: NoSchedule}
  capacity: {cpu: "8", memory: 32Gi, nvidia.com/gpu: "2"}
kubelet:
  rules:
  - match: {image: "busybox:1.37"}
    runFor: 10s
    exitCode: 0
objects:
- apiVersion: batch/v1
  kind: Job
  metadata:
    name: shape-job
  spec:
    completions: 3
    parallelism: 2
    completionMode: Indexed
    backoffLimitPerIndex: 1
    maxFailedIndexes: 1
    ttlSecondsAfterFinished: 3600
    activeDeadlineSeconds: 600
    successPolicy:
      rules:
      - {succeededIndexes: "0-2", succeededCount: 3}
    podFailurePolicy:
      rules:
      - action: FailJob
        onExitCodes: {containerName: main, operator: In, values: [42]}
      - action: Ignore
        onPodConditions:
        - type: DisruptionTarget
    template:
      spec:
        restartPolicy: Never
        containers:
        - name: main
          image: busybox:1.37
          command: [sh, -c, "echo $JOB_COMPLETION_INDEX"]
- apiVersion: batch/v1
  kind: CronJob
  metadata:
    name: shape-cron
  spec:
    schedule: "*/2 * * * *"
    timeZone: Europe/Rome
    startingDeadlineSeconds: 100
    concurrencyPolicy: Forbid
    jobTemplate:
      metadata:
        labels: {app: cron}
      spec:
        template:
          spec:
            restartPolicy: OnFailure
            containers:
            - name: main
              image: busybox:1.37
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web
    annotations: {kubernetes.io/change-cause: "first"}
  spec:
    replicas: 2
    minReadySeconds: 5
    selector: {matchLabels: {app: web}}
    strategy:
      rollingUpdate: {maxSurge: 1, maxUnavailable: "25%"}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers:
        - name: nginx
          image: nginx:1.27
- apiVersion: v1
  kind: Service
  metadata:
    name: nginx
    labels: {app: nginx}
  spec:
    clusterIP: None
    selector: {app: nginx}
    ports:
    - {name: web, port: 80}
- apiVersion: v1
  kind: Service
  metadata:
    name: web-lb
  spec:
    selector: {app: web}
    ports:
    - {port: 8080, targetPort: http}
- apiVersion: apps/v1
  kind: StatefulSet
  metadata:
    name: db
  spec:
    serviceName: nginx
    replicas: 2
    podManagementPolicy: Parallel
    selector: {matchLabels: {app: nginx}}
    persistentVolumeClaimRetentionPolicy: {whenDeleted: Delete, whenScaled: Delete}
    updateStrategy:
      rollingUpdate: {partition: 1, maxUnavailable: 2}
    ordinals: {start: 1}
    template:
      metadata:
        labels: {app: nginx}
      spec:
        containers:
        - name: nginx
          image: registry.k8s.io/nginx-slim:0.24
          ports: [{containerPort: 80, name: web}]
          volumeMounts: [{name: www, mountPath: /usr/share/nginx/html}]
    volumeClaimTemplates:
    - metadata:
        name: www
      spec:
        accessModes: [ReadWriteOnce]
        storageClassName: standard
        resources:
          requests: {storage: 1Gi}
- apiVersion: apps/v1
  kind: DaemonSet
  metadata:
    name: fluentd-elasticsearch
    namespace: kube-system
    labels: {k8s-app: fluentd-logging}
  spec:
    selector:
      matchLabels: {name: fluentd-elasticsearch}
    updateStrategy:
      rollingUpdate: {maxSurge: 1, maxUnavailable: 0}
    template:
      metadata:
        labels: {name: fluentd-elasticsearch}
      spec:
        hostNetwork: true
        tolerations:
        - {key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule}
        containers:
        - name: fluentd-elasticsearch
          image: quay.io/fluentd_elasticsearch/fluentd:v5.0.1
          resources:
            limits: {memory: 200Mi}
            requests: {cpu: 100m, memory: 200Mi}
        terminationGracePeriodSeconds: 30
- apiVersion: apps/v1
  kind: ReplicaSet
  metadata:
    name: frontend
    uid: 5a6b7c8d-0000-4000-8000-000000000001
    labels: {app: guestbook, tier: frontend}
    annotations: {deployment.kubernetes.io/revision: "1"}
  spec:
    replicas: 3
    minReadySeconds: 5
    selector:
      matchLabels: {tier: frontend}
      matchExpressions:
      - {key: app, operator: In, values: [guestbook]}
    template:
      metadata:
        labels: {app: guestbook, tier: frontend}
      spec:
        terminationGracePeriodSeconds: 30
        tolerations:
        - {key: dedicated, operator: Equal, value: gpu, effect: NoSchedule}
        - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
        affinity:
          nodeAffinity:
            requiredDuringSchedulingIgnoredDuringExecution:
              nodeSelectorTerms:
              - matchExpressions:
                - {key: kubernetes.io/os, operator: In, values: [linux]}
            preferredDuringSchedulingIgnoredDuringExecution:
            - weight: 10
              preference:
                matchExpressions:
                - {key: accelerator, operator: Exists}
          podAntiAffinity:
            preferredDuringSchedulingIgnoredDuringExecution:
            - weight: 100
              podAffinityTerm:
                topologyKey: kubernetes.io/hostname
                labelSelector:
                  matchLabels: {tier: frontend}
        containers:
        - name: php-redis
          image: us-docker.pkg.dev/google-samples/containers/gke/gb-frontend:v5
          ports:
          - {containerPort: 80, protocol: TCP, name: http}
          resources:
            requests: {cpu: 100m, memory: 100Mi}
            limits: {cpu: 500m, memory: 256Mi}
          env:
          - {name: GET_HOSTS_FROM, value: dns}
          readinessProbe:
            httpGet: {path: /, port: 80}
            periodSeconds: 5
  status:
    replicas: 1
    fullyLabeledReplicas: 1
    readyReplicas: 1
    availableReplicas: 1
    observedGeneration: 1
- apiVersion: v1
  kind: ReplicationController
  metadata:
    name: nginx
    labels: {app: nginx}
  spec:
    replicas: 2
    selector: {app: nginx}
    template:
      metadata:
        labels: {app: nginx}
      spec:
        containers:
        - name: nginx
          image: nginx:1.27
          ports: [{containerPort: 80}]
          resources:
            requests: {cpu: 50m}
  status:
    replicas: 0
    conditions:
    - type: ReplicaFailure
      status: "True"
      lastTransitionTime: "2024-12-31T23:59:00Z"
      reason: FailedCreate
      message: 'pods "nginx-" is forbidden: exceeded quota'
- apiVersion: v1
  kind: Pod
  metadata:
    name: frontend-abcde
    labels: {app: guestbook, tier: frontend}
    annotations: {controller.kubernetes.io/pod-deletion-cost: "-5"}
    ownerReferences:
    - apiVersion: apps/v1
      kind: ReplicaSet
      name: frontend
      uid: 5a6b7c8d-0000-4000-8000-000000000001
      controller: true
      blockOwnerDeletion: true
    creationTimestamp: "2024-12-31T23:50:00Z"
  spec:
    nodeName: node-1
    restartPolicy: Always
    terminationGracePeriodSeconds: 30
    tolerations:
    - {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
    initContainers:
    - name: init-db
      image: busybox:1.36
      command: [sh, -c, "true"]
    - name: log-shipper
      image: fluent-bit:3
      restartPolicy: Always
      resources:
        requests: {cpu: 10m, memory: 16Mi}
    containers:
    - name: php-redis
      image: us-docker.pkg.dev/google-samples/containers/gke/gb-frontend:v5
      resources:
        requests: {cpu: 100m, memory: 100Mi}
        limits: {cpu: 500m, memory: 256Mi}
  status:
    phase: Running
    qosClass: Burstable
    hostIP: 10.0.0.1
    podIP: 10.244.1.7
    startTime: "2024-12-31T23:50:01Z"
    conditions:
    - {type: PodReadyToStartContainers, status: "True", lastTransitionTime: "2024-12-31T23:50:02Z"}
    - {type: Initialized, status: "True", lastTransitionTime: "2024-12-31T23:50:03Z"}
    - {type: Ready, status: "True", lastTransitionTime: "2024-12-31T23:50:10Z"}
    - {type: ContainersReady, status: "True", lastTransitionTime: "2024-12-31T23:50:10Z"}
    - {type: PodScheduled, status: "True", lastTransitionTime: "2024-12-31T23:50:00Z"}
    initContainerStatuses:
    - name: init-db
      ready: true
      restartCount: 0
      image: docker.io/library/busybox:1.36
      imageID: docker.io/library/busybox@sha256:0000
      containerID: containerd://aaaa
      started: false
      state:
        terminated: {exitCode: 0, reason: Completed, startedAt: "2024-12-31T23:50:02Z", finishedAt: "2024-12-31T23:50:03Z"}
    - name: log-shipper
      ready: true
      restartCount: 0
      image: docker.io/library/fluent-bit:3
      imageID: docker.io/library/fluent-bit@sha256:1111
      started: true
      state:
        running: {startedAt: "2024-12-31T23:50:03Z"}
    containerStatuses:
    - name: php-redis
      ready: true
      restartCount: 2
      image: us-docker.pkg.dev/google-samples/containers/gke/gb-frontend:v5
      imageID: us-docker.pkg.dev/google-samples/containers/gke/gb-frontend@sha256:2222
      started: true
      state:
        running: {startedAt: "2024-12-31T23:50:08Z"}
      lastState:
        terminated: {exitCode: 137, reason: OOMKilled, startedAt: "2024-12-31T23:50:04Z", finishedAt: "2024-12-31T23:50:07Z"}
- apiVersion: v1
  kind: Pod
  metadata:
    name: crasher
  spec:
    nodeName: node-2
    containers:
    - name: app
      image: busybox:1.36
      command: [sh, -c, "exit 1"]
  status:
    phase: Running
    conditions:
    - {type: Ready, status: "False", reason: ContainersNotReady, message: "containers with unready status: [app]", lastTransitionTime: "2024-12-31T23:55:00Z"}
    containerStatuses:
    - name: app
      ready: false
      restartCount: 4
      image: docker.io/library/busybox:1.36
      imageID: ""
      started: false
      state:
        waiting: {reason: CrashLoopBackOff, message: "back-off 1m20s restarting failed container=app pod=crasher_default(uid)"}
      lastState:
        terminated: {exitCode: 1, reason: Error, startedAt: "2024-12-31T23:54:00Z", finishedAt: "2024-12-31T23:54:01Z"}
- apiVersion: autoscaling/v2
  kind: HorizontalPodAutoscaler
  metadata:
    name: frontend
  spec:
    scaleTargetRef: {apiVersion: apps/v1, kind: ReplicaSet, name: frontend}
    minReplicas: 1
    maxReplicas: 5
    metrics:
    - type: Resource
      resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}
    - type: Resource
      resource: {name: memory, target: {type: AverageValue, averageValue: 100Mi}}
    behavior:
      scaleDown:
        stabilizationWindowSeconds: 60
- apiVersion: policy/v1
  kind: PodDisruptionBudget
  metadata:
    name: frontend
  spec:
    maxUnavailable: 34%
    unhealthyPodEvictionPolicy: AlwaysAllow
    selector:
      matchLabels: {tier: frontend}
load:
- workload: ReplicaSet/frontend
  cpu: {base: 300m}
  memoryPerPod: 50Mi
"#;

/// Every stored object after the scenario has run for a while (long enough for any controllers,
/// scheduler and kubelets registered in `default_loops` to create, bind and run pods).
fn emitted_objects() -> Vec<Object> {
    let mut sim = Scenario::parse(SCENARIO)
        .expect("scenario parses")
        .build()
        .expect("scenario builds");
    sim.run_for(Duration::from_mins(3)).expect("runs");
    sim.api.store.all().cloned().collect()
}

/// Decodes `v` as the k8s-openapi type `K`, re-encodes it, and checks that nothing was lost or
/// renamed on the way (k8s-openapi drops fields it does not know, so a JSON difference means
/// kubeplay emitted a field Kubernetes does not have, or a value in the wrong type).
fn through_k8s_openapi<K: DeserializeOwned + Serialize>(what: &str, v: &Value) -> Value {
    let typed: K = serde_json::from_value(v.clone()).unwrap_or_else(|e| {
        panic!(
            "{what} does not decode as {}: {e}\n{}",
            std::any::type_name::<K>(),
            serde_json::to_string_pretty(v).unwrap_or_default()
        )
    });
    serde_json::to_value(&typed).expect("k8s-openapi serialises")
}

/// The k8s-openapi round trip for one kubeplay object, dispatched by kind.
fn round_trip(o: &Object) -> Value {
    let what = format!("{} {}/{}", o.kind(), o.meta().namespace, o.meta().name);
    let v = serde_json::to_value(o).expect("kubeplay serialises");
    match o {
        Object::Pod(_) => through_k8s_openapi::<core::Pod>(&what, &v),
        Object::Node(_) => through_k8s_openapi::<core::Node>(&what, &v),
        Object::ReplicaSet(_) => through_k8s_openapi::<apps::ReplicaSet>(&what, &v),
        Object::Deployment(_) => through_k8s_openapi::<apps::Deployment>(&what, &v),
        Object::StatefulSet(_) => through_k8s_openapi::<apps::StatefulSet>(&what, &v),
        Object::DaemonSet(_) => through_k8s_openapi::<apps::DaemonSet>(&what, &v),
        Object::ControllerRevision(_) => through_k8s_openapi::<apps::ControllerRevision>(&what, &v),
        Object::PersistentVolumeClaim(_) => {
            through_k8s_openapi::<core::PersistentVolumeClaim>(&what, &v)
        }
        Object::Service(_) => through_k8s_openapi::<core::Service>(&what, &v),
        Object::ReplicationController(_) => {
            through_k8s_openapi::<core::ReplicationController>(&what, &v)
        }
        Object::Job(_) => through_k8s_openapi::<batch::Job>(&what, &v),
        Object::CronJob(_) => through_k8s_openapi::<batch::CronJob>(&what, &v),
        Object::HorizontalPodAutoscaler(_) => {
            through_k8s_openapi::<autoscaling::HorizontalPodAutoscaler>(&what, &v)
        }
        Object::PodDisruptionBudget(_) => {
            through_k8s_openapi::<policy::PodDisruptionBudget>(&what, &v)
        }
        // A kind added to `kinds!` without a line here fails loudly instead of going unchecked.
        #[allow(unreachable_patterns)]
        _ => panic!("no k8s-openapi type mapped for kind {}", o.kind()),
    }
}

/// Paths where two JSON values differ (`metadata.labels.app: "a" != "b"`), for readable failures.
fn json_diff(path: &str, a: &Value, b: &Value, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                let p = format!("{path}.{k}");
                match (x.get(k), y.get(k)) {
                    (Some(l), Some(r)) => json_diff(&p, l, r, out),
                    // An unset non-pointer `metav1.Time` is written as `null` by the API server
                    // (`lastProbeTime: null`); k8s-openapi leaves an unset field out.
                    (Some(Value::Null), None) => {}
                    (Some(l), None) => {
                        out.push(format!("{p}: {l} (kubeplay) missing after k8s-openapi"))
                    }
                    (None, Some(r)) => out.push(format!("{p}: added by k8s-openapi as {r}")),
                    (None, None) => unreachable!("key from one side"),
                }
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (l, r)) in x.iter().zip(y).enumerate() {
                json_diff(&format!("{path}[{i}]"), l, r, out);
            }
        }
        _ if a != b => out.push(format!("{path}: {a} (kubeplay) != {b} (k8s-openapi)")),
        _ => {}
    }
}

#[test]
fn every_emitted_object_decodes_as_its_kubernetes_type() {
    let objects = emitted_objects();
    let kinds: BTreeSet<&str> = objects.iter().map(Object::kind).collect();
    // The scenario covers every kind kubeplay can store.
    let all: BTreeSet<&str> = KINDS.iter().map(|(k, ..)| *k).collect();
    assert_eq!(kinds, all, "scenario should emit every kind");
    assert!(objects.len() >= 7, "{} objects", objects.len());
    for o in &objects {
        round_trip(o);
    }
}

#[test]
fn kubeplay_json_is_kubernetes_json() {
    let mut problems = vec![];
    for o in emitted_objects() {
        let ours = serde_json::to_value(&o).expect("kubeplay serialises");
        let theirs = round_trip(&o);
        let mut diffs = vec![];
        json_diff("", &ours, &theirs, &mut diffs);
        for d in diffs {
            problems.push(format!(
                "{} {}/{}: {d}",
                o.kind(),
                o.meta().namespace,
                o.meta().name
            ));
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

#[test]
fn round_trip_through_k8s_openapi_gives_back_the_same_object() {
    for o in emitted_objects() {
        let back = Object::from_value(round_trip(&o))
            .unwrap_or_else(|e| panic!("{} {}: {e}", o.kind(), o.meta().name));
        assert_eq!(back, o, "{} {}", o.kind(), o.meta().name);
    }
}

#[test]
fn the_shape_check_can_fail() {
    // A status field of the wrong type, and a field Kubernetes does not have.
    let mut o = emitted_objects()
        .into_iter()
        .find(|o| o.kind() == "Pod")
        .expect("a pod");
    let mut v = serde_json::to_value(&o).expect("serialises");
    v["status"]["containerStatuses"][0]["restartCount"] = Value::from("two");
    assert!(serde_json::from_value::<core::Pod>(v).is_err());
    if let Object::Pod(p) = &mut o {
        p.spec_mut()
            .extra
            .insert("notAPodField".into(), Value::from(true));
    }
    let mut diffs = vec![];
    json_diff(
        "",
        &serde_json::to_value(&o).expect("serialises"),
        &round_trip(&o),
        &mut diffs,
    );
    assert_eq!(
        diffs,
        [".spec.notAPodField: true (kubeplay) missing after k8s-openapi"]
    );
}

#[test]
fn fields_kubeplay_writes_use_kubernetes_names() {
    use kubeplay::api::{
        ContainerState, ContainerStateRunning, ContainerStatus, PodCondition, PodStatus, Time,
    };
    // Kubernetes JSON fills kubeplay's typed fields (not the pass-through `extra` maps)...
    let loaded = emitted_objects()
        .into_iter()
        .find(|o| o.meta().name == "frontend-abcde")
        .expect("the fixture pod");
    let Object::Pod(p) = &loaded else {
        panic!("a pod")
    };
    assert_eq!(p.status.host_ip, "10.0.0.1");
    assert_eq!(p.status.pod_ip, "10.244.1.7");
    assert_eq!(
        p.status.container_statuses[0].image_id,
        "us-docker.pkg.dev/google-samples/containers/gke/gb-frontend@sha256:2222"
    );
    // Only the list forms the kubelet writes next to hostIP/podIP go to the pass-through map.
    let extra: Vec<&str> = p.status.extra.keys().map(String::as_str).collect();
    assert!(
        extra.iter().all(|k| ["hostIPs", "podIPs"].contains(k)),
        "{:?}",
        p.status.extra
    );

    // ...and what kubeplay writes itself (as the kubelet will) keeps those names on the way out.
    let t = Time::parse_rfc3339("2025-01-01T00:01:00Z").expect("time");
    let mut pod = p.clone();
    pod.status = (PodStatus {
        phase: "Running".into(),
        conditions: vec![PodCondition {
            type_: "Ready".into(),
            status: "True".into(),
            last_transition_time: Some(t),
            ..Default::default()
        }],
        host_ip: "10.0.0.2".into(),
        pod_ip: "10.244.2.9".into(),
        start_time: Some(t),
        qos_class: "Burstable".into(),
        container_statuses: vec![ContainerStatus {
            name: "php-redis".into(),
            ready: true,
            restart_count: 1,
            state: Some(ContainerState {
                running: Some(ContainerStateRunning {
                    started_at: Some(t),
                }),
                ..Default::default()
            }),
            image: "gb-frontend:v5".into(),
            image_id: "gb-frontend@sha256:3333".into(),
            started: Some(true),
            ..Default::default()
        }],
        ..Default::default()
    })
    .into();
    let pod = Object::Pod(pod);
    let mut diffs = vec![];
    json_diff(
        "",
        &serde_json::to_value(&pod).expect("serialises"),
        &round_trip(&pod),
        &mut diffs,
    );
    assert!(diffs.is_empty(), "{diffs:#?}");
}
