//! kubectl's tables, describers and rollouts for Jobs, CronJobs, StatefulSets, DaemonSets,
//! ControllerRevisions, PersistentVolumeClaims and Services, driven through the real controllers.

use super::{execute, execute_with_input};
use crate::api::Duration;
use crate::sim::Simulation;

pub(crate) const STS: &str = "apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  clusterIP: None
  selector: {app: web}
  ports:
  - port: 80
    name: http
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
spec:
  serviceName: web
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
  volumeClaimTemplates:
  - metadata:
      name: www
    spec:
      accessModes: [ReadWriteOnce]
      resources:
        requests:
          storage: 1Gi
";

pub(crate) const DS: &str = "apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
spec:
  selector:
    matchLabels: {app: agent}
  template:
    metadata:
      labels: {app: agent}
    spec:
      containers:
      - name: agent
        image: agent:1.0
";

pub(crate) const JOB: &str = "apiVersion: batch/v1
kind: Job
metadata:
  name: pi
spec:
  completions: 2
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: pi
        image: perl:5.34
";

pub(crate) const CRON: &str = "apiVersion: batch/v1
kind: CronJob
metadata:
  name: hello
spec:
  schedule: \"*/1 * * * *\"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
          - name: hello
            image: busybox:1.28
";

pub(crate) fn cluster() -> Simulation {
    crate::scenario::Scenario::parse("kind: Scenario\nmetadata: {name: e2e}\n")
        .unwrap()
        .build()
        .unwrap()
}

pub(crate) fn run(sim: &mut Simulation, cmd: &str) -> String {
    execute(sim, cmd).unwrap_or_else(|e| panic!("{cmd}: {e}"))
}

pub(crate) fn apply(sim: &mut Simulation, manifest: &str) -> String {
    execute_with_input(sim, "apply -f -", Some(manifest)).unwrap_or_else(|e| panic!("apply: {e}"))
}

#[test]
fn tables_of_the_workload_kinds() {
    let mut sim = cluster();
    apply(&mut sim, STS);
    apply(&mut sim, DS);
    apply(&mut sim, JOB);
    apply(&mut sim, CRON);
    sim.run_for(Duration::from_secs(90)).unwrap();
    let t = |sim: &mut Simulation, cmd: &str| run(sim, cmd);
    assert_eq!(
        t(&mut sim, "get sts"),
        "NAME   READY   AGE\nweb    2/2     90s"
    );
    assert_eq!(
        t(&mut sim, "get sts -o wide"),
        "NAME   READY   AGE   CONTAINERS   IMAGES\nweb    2/2     90s   nginx        nginx:1.27"
    );
    assert_eq!(
        t(&mut sim, "get ds"),
        "NAME    DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR   AGE\nagent   3         3         3       3            3           <none>          90s"
    );
    assert_eq!(
        t(&mut sim, "get ds -o wide"),
        "NAME    DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR   AGE   CONTAINERS   IMAGES      SELECTOR\nagent   3         3         3       3            3           <none>          90s   agent        agent:1.0   app=agent"
    );
    // The CronJob started its first Job at the first minute boundary, 30s ago.
    assert_eq!(
        t(&mut sim, "get jobs"),
        "NAME             STATUS    COMPLETIONS   DURATION   AGE\nhello-28928161   Running   0/1           30s        30s\npi               Running   0/2           90s        90s"
    );
    let wide = t(&mut sim, "get jobs -o wide");
    let lines: Vec<&str> = wide.lines().collect();
    assert_eq!(
        lines[0],
        "NAME             STATUS    COMPLETIONS   DURATION   AGE   CONTAINERS   IMAGES         SELECTOR"
    );
    assert!(
        lines[2].starts_with("pi               Running   0/2           90s        90s   pi           perl:5.34      batch.kubernetes.io/controller-uid="),
        "{wide}"
    );
    assert_eq!(
        t(&mut sim, "get cronjobs"),
        "NAME    SCHEDULE      TIMEZONE   SUSPEND   ACTIVE   LAST SCHEDULE   AGE\nhello   */1 * * * *   <none>     False     1        30s             90s"
    );
    assert_eq!(
        t(&mut sim, "get cj -o wide"),
        "NAME    SCHEDULE      TIMEZONE   SUSPEND   ACTIVE   LAST SCHEDULE   AGE   CONTAINERS   IMAGES         SELECTOR\nhello   */1 * * * *   <none>     False     1        30s             90s   hello        busybox:1.28   <none>"
    );
    // Claims are bound to dynamically provisioned volumes named after their UIDs.
    let pvc = t(&mut sim, "get pvc -o wide");
    let masked: Vec<String> = pvc
        .lines()
        .map(|l| {
            l.split_whitespace()
                .map(|w| if w.starts_with("pvc-") { "pvc-UID" } else { w })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert_eq!(
        masked,
        [
            "NAME STATUS VOLUME CAPACITY ACCESS MODES STORAGECLASS VOLUMEATTRIBUTESCLASS AGE VOLUMEMODE",
            "www-web-0 Bound pvc-UID 1Gi RWO <unset> 90s Filesystem",
            "www-web-1 Bound pvc-UID 1Gi RWO <unset> 88s Filesystem",
        ]
    );
    assert_eq!(
        t(&mut sim, "get svc -o wide"),
        "NAME   TYPE        CLUSTER-IP   EXTERNAL-IP   PORT(S)   AGE   SELECTOR\nweb    ClusterIP   None         <none>        80/TCP    90s   app=web"
    );
    let revs = t(&mut sim, "get controllerrevisions");
    let rows: Vec<Vec<&str>> = revs
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows[0], ["NAME", "CONTROLLER", "REVISION", "AGE"]);
    assert_eq!(rows[1][1..], ["daemonset.apps/agent", "1", "90s"]);
    assert!(rows[1][0].starts_with("agent-"));
    assert_eq!(rows[2][1..], ["statefulset.apps/web", "1", "90s"]);
}

#[test]
fn describe_the_workload_kinds() {
    let mut sim = cluster();
    apply(&mut sim, STS);
    apply(&mut sim, DS);
    apply(&mut sim, JOB);
    apply(&mut sim, CRON);
    sim.run_for(Duration::from_secs(90)).unwrap();
    // UIDs come from the seeded generator; mask them so the layout is what is pinned.
    let uids: Vec<String> = sim
        .api
        .store
        .list_kind("Job", None)
        .chain(sim.api.store.list_kind("PersistentVolumeClaim", None))
        .map(|o| o.meta().uid.clone())
        .collect();
    let mut d = |cmd: &str| {
        let mut text = run(&mut sim, cmd);
        for u in &uids {
            text = text.replace(u.as_str(), "UID");
        }
        text
    };
    assert_eq!(
        d("describe sts web"),
        "Name:               web
Namespace:          default
CreationTimestamp:  Wed, 01 Jan 2025 00:00:00 +0000
Selector:           app=web
Labels:             <none>
Annotations:        <none>
Replicas:           2 desired | 2 total
Update Strategy:    RollingUpdate
  Partition:        0
Pods Status:        2 Running / 0 Waiting / 0 Succeeded / 0 Failed
Pod Template:
  Labels:  app=web
  Containers:
   nginx:
    Image:         nginx:1.27
    Port:          <none>
    Host Port:     <none>
    Environment:   <none>
    Mounts:        <none>
  Volumes:         <none>
  Node-Selectors:  <none>
  Tolerations:     <none>
Volume Claims:
  Name:          www
  StorageClass:  
  Labels:        <none>
  Annotations:   <none>
  Capacity:      1Gi
  Access Modes:  [ReadWriteOnce]
Events:
  Type    Reason            Age   From                    Message
  ----    ------            ----  ----                    -------
  Normal  SuccessfulCreate  90s   statefulset-controller  create Claim www-web-0 Pod web-0 in StatefulSet web success
  Normal  SuccessfulCreate  90s   statefulset-controller  create Pod web-0 in StatefulSet web successful
  Normal  SuccessfulCreate  88s   statefulset-controller  create Claim www-web-1 Pod web-1 in StatefulSet web success
  Normal  SuccessfulCreate  88s   statefulset-controller  create Pod web-1 in StatefulSet web successful"
    );
    let ds = d("describe ds agent");
    let (head, events) = ds.split_once("Events:\n").unwrap();
    assert_eq!(
        head,
        "Name:           agent
Namespace:      default
Selector:       app=agent
Node-Selector:  <none>
Labels:         <none>
Annotations:    deprecated.daemonset.template.generation: 1
Desired Number of Nodes Scheduled: 3
Current Number of Nodes Scheduled: 3
Number of Nodes Scheduled with Up-to-date Pods: 3
Number of Nodes Scheduled with Available Pods: 3
Number of Nodes Misscheduled: 0
Pods Status:  3 Running / 0 Waiting / 0 Succeeded / 0 Failed
Pod Template:
  Labels:  app=agent
  Containers:
   agent:
    Image:         agent:1.0
    Port:          <none>
    Host Port:     <none>
    Environment:   <none>
    Mounts:        <none>
  Volumes:         <none>
  Node-Selectors:  <none>
  Tolerations:     <none>
"
    );
    assert_eq!(
        events
            .lines()
            .filter(|l| l.contains("daemonset-controller  Created pod: agent-"))
            .count(),
        3,
        "{events}"
    );
    let job = d("describe job pi");
    let (head, events) = job.split_once("Events:\n").unwrap();
    assert_eq!(
        head,
        "Name:             pi
Namespace:        default
Selector:         batch.kubernetes.io/controller-uid=UID
Labels:           batch.kubernetes.io/controller-uid=UID
                  batch.kubernetes.io/job-name=pi
                  controller-uid=UID
                  job-name=pi
Annotations:      <none>
Parallelism:      1
Completions:      2
Completion Mode:  NonIndexed
Suspend:          false
Backoff Limit:    6
Start Time:       Wed, 01 Jan 2025 00:00:00 +0000
Pods Statuses:    1 Active (1 Ready) / 0 Succeeded / 0 Failed
Pod Template:
  Labels:  batch.kubernetes.io/controller-uid=UID
           batch.kubernetes.io/job-name=pi
           controller-uid=UID
           job-name=pi
  Containers:
   pi:
    Image:         perl:5.34
    Port:          <none>
    Host Port:     <none>
    Environment:   <none>
    Mounts:        <none>
  Volumes:         <none>
  Node-Selectors:  <none>
  Tolerations:     <none>
"
    );
    assert!(
        events.contains("  Normal  SuccessfulCreate  90s   job-controller  Created pod: pi-"),
        "{events}"
    );
    // The Job is created just after 00:01:00; the stored firstTimestamp is whole seconds
    // (00:01:00), so at 00:01:30 the event is 30s old.
    assert_eq!(
        d("describe cronjob hello"),
        "Name:                          hello
Namespace:                     default
Labels:                        <none>
Annotations:                   <none>
Schedule:                      */1 * * * *
Concurrency Policy:            Allow
Suspend:                       False
Successful Job History Limit:  3
Failed Job History Limit:      1
Starting Deadline Seconds:     <unset>
Selector:                      <unset>
Parallelism:                   <unset>
Completions:                   <unset>
Pod Template:
  Labels:  <none>
  Containers:
   hello:
    Image:           busybox:1.28
    Port:            <none>
    Host Port:       <none>
    Environment:     <none>
    Mounts:          <none>
  Volumes:           <none>
  Node-Selectors:    <none>
  Tolerations:       <none>
Last Schedule Time:  Wed, 01 Jan 2025 00:01:00 +0000
Active Jobs:         hello-28928161
Events:
  Type    Reason            Age   From                Message
  ----    ------            ----  ----                -------
  Normal  SuccessfulCreate  30s   cronjob-controller  Created job hello-28928161"
    );
    assert_eq!(
        d("describe pvc www-web-0"),
        "Name:          www-web-0
Namespace:     default
StorageClass:  
Status:        Bound
Volume:        pvc-UID
Labels:        app=web
Annotations:   pv.kubernetes.io/bind-completed: yes
               pv.kubernetes.io/bound-by-controller: yes
Finalizers:    []
Capacity:      1Gi
Access Modes:  RWO
VolumeMode:    Filesystem
Used By:       web-0
Events:        <none>"
    );
    assert_eq!(
        d("describe svc web"),
        "Name:                     web
Namespace:                default
Labels:                   <none>
Annotations:              <none>
Selector:                 app=web
Type:                     ClusterIP
IP Family Policy:         SingleStack
IP Families:              IPv4
IP:                       None
IPs:                      None
Port:                     http  80/TCP
TargetPort:               80/TCP
Endpoints:                <none>
Session Affinity:         None
Internal Traffic Policy:  Cluster
Events:                   <none>"
    );
}

#[test]
fn rollout_status_restart_and_scale_of_sets() {
    let mut sim = cluster();
    apply(&mut sim, STS);
    apply(&mut sim, DS);
    // Before the controllers observed the new objects.
    assert_eq!(
        run(&mut sim, "rollout status sts/web"),
        "Waiting for statefulset spec update to be observed..."
    );
    sim.run_for(Duration::from_secs(1)).unwrap();
    let mut check = |cmd: &str, want: &str| assert_eq!(run(&mut sim, cmd), want, "{cmd}");
    check(
        "rollout status sts/web",
        "Waiting for 2 pods to be ready...",
    );
    check(
        "rollout status ds/agent",
        "Waiting for daemon set \"agent\" rollout to finish: 0 of 3 updated pods are available...",
    );
    sim.run_for(Duration::from_secs(90)).unwrap();
    let mut check = |cmd: &str, want: &str| assert_eq!(run(&mut sim, cmd), want, "{cmd}");
    check(
        "rollout status sts/web",
        "partitioned roll out complete: 2 new pods have been updated...",
    );
    check(
        "rollout status ds/agent",
        "daemon set \"agent\" successfully rolled out",
    );
    check(
        "rollout restart sts/web ds/agent",
        "statefulset.apps/web restarted\ndaemonset.apps/agent restarted",
    );
    check(
        "rollout status statefulset web",
        "Waiting for statefulset spec update to be observed...",
    );
    check(
        "rollout status daemonset agent",
        "Waiting for daemon set spec update to be observed...",
    );
    check("scale sts web --replicas=3", "statefulset.apps/web scaled");
    sim.run_for(Duration::from_secs(120)).unwrap();
    let mut check = |cmd: &str, want: &str| assert_eq!(run(&mut sim, cmd), want, "{cmd}");
    check(
        "rollout status sts/web",
        "partitioned roll out complete: 3 new pods have been updated...",
    );
    check(
        "rollout status ds/agent",
        "daemon set \"agent\" successfully rolled out",
    );
    check(
        "get sts,ds",
        "NAME                   READY   AGE\nstatefulset.apps/web   3/3     3m31s\n\nNAME                   DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR   AGE\ndaemonset.apps/agent   3         3         3       3            3           <none>          3m31s",
    );
    // Both restarted templates are new revisions.
    let revs = run(&mut sim, "get controllerrevisions --no-headers");
    assert_eq!(revs.lines().count(), 4, "{revs}");
    assert_eq!(
        execute(&mut sim, "rollout pause sts/web").unwrap_err(),
        "error: statefulsets.apps \"web\" pausing is not supported"
    );
}

#[test]
fn history_and_undo_of_sets_through_controller_revisions() {
    let mut sim = cluster();
    apply(&mut sim, STS);
    apply(&mut sim, DS);
    sim.run_for(Duration::from_secs(60)).unwrap();
    check_result(
        &mut sim,
        "rollout history sts/web",
        Ok("statefulset.apps/web \nREVISION  CHANGE-CAUSE\n1         <none>"),
    );
    check_result(
        &mut sim,
        "rollout undo sts/web",
        Err("error: no last revision to roll back to"),
    );
    apply(&mut sim, &STS.replace("nginx:1.27", "nginx:1.28"));
    apply(&mut sim, &DS.replace("agent:1.0", "agent:2.0"));
    sim.run_for(Duration::from_secs(120)).unwrap();
    check_result(
        &mut sim,
        "rollout history sts/web",
        Ok("statefulset.apps/web \nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>"),
    );
    check_result(&mut sim,
        "rollout history ds/agent --revision=1",
        Ok("daemonset.apps/agent with revision #1\nPod Template:\n  Labels:\tapp=agent\n  Containers:\n   agent:\n    Image:\tagent:1.0\n    Port:\t<none>\n    Host Port:\t<none>\n    Environment:\t<none>\n    Mounts:\t<none>\n  Volumes:\t<none>\n  Node-Selectors:\t<none>\n  Tolerations:\t<none>"),
    );
    check_result(
        &mut sim,
        "rollout history ds/agent --revision=3",
        Err("error: unable to find the specified revision"),
    );
    check_result(
        &mut sim,
        "rollout undo sts/web --to-revision=5",
        Err("error: unable to find specified revision 5 in history"),
    );
    check_result(
        &mut sim,
        "rollout undo sts/web --to-revision=2",
        Ok("statefulset.apps/web skipped rollback (current template already matches revision 2)"),
    );
    let dry = execute(&mut sim, "rollout undo sts/web --dry-run=client").unwrap();
    assert!(
        dry.starts_with("statefulset.apps/web will roll back to Pod Template:\n")
            && dry.contains("Image:\tnginx:1.27")
            && dry.ends_with(" (dry run)"),
        "{dry}"
    );
    check_result(
        &mut sim,
        "rollout undo sts/web",
        Ok("statefulset.apps/web rolled back"),
    );
    check_result(
        &mut sim,
        "rollout undo ds/agent --to-revision=1",
        Ok("daemonset.apps/agent rolled back"),
    );
    sim.run_for(Duration::from_secs(180)).unwrap();
    // The restored template becomes revision 3 (revision 1 is re-numbered, as upstream does).
    check_result(
        &mut sim,
        "rollout history sts/web",
        Ok("statefulset.apps/web \nREVISION  CHANGE-CAUSE\n2         <none>\n3         <none>"),
    );
    check_result(
        &mut sim,
        "get sts,ds -o wide",
        Ok("NAME                   READY   AGE   CONTAINERS   IMAGES\nstatefulset.apps/web   2/2     6m    nginx        nginx:1.27\n\nNAME                   DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR   AGE   CONTAINERS   IMAGES      SELECTOR\ndaemonset.apps/agent   3         3         3       3            3           <none>          6m    agent        agent:1.0   app=agent"),
    );
    check_result(
        &mut sim,
        "rollout status sts/web",
        Ok("partitioned roll out complete: 2 new pods have been updated..."),
    );
}

fn check_result(sim: &mut Simulation, cmd: &str, want: Result<&str, &str>) {
    assert_eq!(
        execute(sim, cmd),
        want.map(str::to_string).map_err(str::to_string),
        "{cmd}"
    );
}

#[test]
fn create_job_from_cron_job() {
    let mut sim = cluster();
    apply(&mut sim, CRON);
    check_result(
        &mut sim,
        "create job manual --from=cronjob/hello",
        Ok("job.batch/manual created"),
    );
    check_result(
        &mut sim,
        "create job x --from=cronjob/nope",
        Err("Error from server (NotFound): cronjobs.batch \"nope\" not found"),
    );
    check_result(
        &mut sim,
        "create job y",
        Err("error: either --image or --from must be specified"),
    );
    let j = sim
        .api
        .store
        .get::<crate::api::Job>("default", "manual")
        .unwrap()
        .clone();
    assert_eq!(
        j.metadata
            .annotations
            .get("cronjob.kubernetes.io/instantiate"),
        Some(&"manual".to_string())
    );
    let r = &j.metadata.owner_references[0];
    assert_eq!(
        (r.kind.as_str(), r.name.as_str(), r.controller),
        ("CronJob", "hello", Some(true))
    );
    sim.run_for(Duration::from_secs(20)).unwrap();
    let jobs = run(&mut sim, "get jobs");
    assert!(jobs.contains("\nmanual   Running   0/1"), "{jobs}");
}
