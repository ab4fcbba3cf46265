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
