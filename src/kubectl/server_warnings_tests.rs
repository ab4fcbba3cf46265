//! Server warnings through kubectl: kube-apiserver's `WarningsOnCreate` / `WarningsOnUpdate`
//! (pkg/registry/*/strategy.go, pkg/api/pod/warnings.go, pkg/api/job/warnings.go,
//! pkg/api/service/warnings.go) printed by kubectl's warning handler as `Warning: <text>`
//! before the command's own line, in the server's order, once per text per command
//! (`rest.WarningWriterOptions{Deduplicate: true}`).

use super::testutil::*;
use super::{execute, execute_with_input};

fn deploy(name: &str, image: &str, ports: &str) -> String {
    format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {{app: web}}\n  template:\n    metadata:\n      labels: {{app: web}}\n    spec:\n      containers:\n      - name: nginx\n        image: {image}\n        ports: {ports}\n"
    )
}

fn rc(image: &str, ports: &str) -> String {
    format!(
        "apiVersion: v1\nkind: ReplicationController\nmetadata:\n  name: rc\nspec:\n  replicas: 1\n  selector: {{app: rc}}\n  template:\n    metadata:\n      labels: {{app: rc}}\n    spec:\n      containers:\n      - name: nginx\n        image: {image}\n        ports: {ports}\n"
    )
}

/// Two ports with the same containerPort and (defaulted) protocol, no hostPort: valid, warned.
const DUP: &str = "[{containerPort: 80}, {containerPort: 80}]";
const ONE: &str = "[{containerPort: 80}]";

/// A merge patch replacing the template's container list (client-side apply would merge the
/// ports by `containerPort`).
fn fix_ports(target: &str, image: &str, ports: &str) -> String {
    format!(
        "patch {target} --type=merge -p '{{\"spec\":{{\"template\":{{\"spec\":{{\"containers\":[{{\"name\":\"nginx\",\"image\":\"{image}\",\"ports\":{ports}}}]}}}}}}}}'"
    )
}
const DUP_WARNING: &str = "Warning: spec.template.spec.containers[0].ports[1]: duplicate port definition with spec.template.spec.containers[0].ports[0]";

fn apply(sim: &mut crate::sim::Simulation, yaml: &str) -> Result<String, String> {
    execute_with_input(sim, "apply -f -", Some(yaml))
}

#[test]
fn create_prints_the_template_warnings_before_the_created_line() {
    let mut sim = sim();
    assert_eq!(
        apply(&mut sim, &deploy("web", "nginx", DUP)).unwrap(),
        format!("{DUP_WARNING}\ndeployment.apps/web created")
    );
    // Nothing sent, nothing warned.
    assert_eq!(
        apply(&mut sim, &deploy("web", "nginx", DUP)).unwrap(),
        "deployment.apps/web unchanged"
    );
}

/// `deploymentStrategy.WarningsOnUpdate`: the template warnings when the generation moved —
/// any spec change (scale, pause, set image, restart), and annotation changes, which bump a
/// Deployment's generation — and none for a label change.
#[test]
fn deployment_updates_warn_only_when_the_generation_moves() {
    let mut sim = sim();
    apply(&mut sim, &deploy("web", "nginx", DUP)).unwrap();
    let warned = |line: &str| format!("{DUP_WARNING}\n{line}");
    for (cmd, want) in [
        (
            "scale deploy web --replicas=3",
            warned("deployment.apps/web scaled"),
        ),
        ("label deploy web a=b", "deployment.apps/web labeled".into()),
        (
            "annotate deploy web x=y",
            warned("deployment.apps/web annotated"),
        ),
        (
            "set image deploy/web nginx=nginx:2",
            warned("deployment.apps/web image updated"),
        ),
        (
            "patch deploy web --type=merge -p '{\"spec\":{\"minReadySeconds\":5}}'",
            warned("deployment.apps/web patched"),
        ),
        (
            "patch deploy web --type=merge -p '{\"metadata\":{\"labels\":{\"c\":\"d\"}}}'",
            "deployment.apps/web patched".into(),
        ),
        (
            "rollout pause deploy/web",
            warned("deployment.apps/web paused"),
        ),
        (
            "rollout resume deploy/web",
            warned("deployment.apps/web resumed"),
        ),
        (
            "rollout restart deploy/web",
            warned("deployment.apps/web restarted"),
        ),
    ] {
        assert_eq!(execute(&mut sim, cmd).unwrap(), want, "{cmd}");
    }
    // A fixed template no longer warns (a merge patch replaces the container list).
    assert_eq!(
        execute(
            &mut sim,
            &fix_ports("deploy web", "nginx:3", "[{\"containerPort\":80}]")
        )
        .unwrap(),
        "deployment.apps/web patched"
    );
}

#[test]
fn identical_warnings_print_once_per_command() {
    let mut sim = sim();
    let two = format!(
        "{}---\n{}",
        deploy("a", "nginx", DUP),
        deploy("b", "nginx", DUP)
    );
    assert_eq!(
        apply(&mut sim, &two).unwrap(),
        format!("{DUP_WARNING}\ndeployment.apps/a created\ndeployment.apps/b created")
    );
    // A new command prints it again.
    assert_eq!(
        execute(&mut sim, "scale deploy a b --replicas=2").unwrap(),
        format!("{DUP_WARNING}\ndeployment.apps/a scaled\ndeployment.apps/b scaled")
    );
}

/// The name warning comes first (`IsDNS1123Label` on a valid subdomain name), then the
/// template's; a server dry run warns too, a client dry run sends nothing.
#[test]
fn dotted_names_and_dry_runs() {
    let mut sim = sim();
    let name_warning = "Warning: metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]";
    assert_eq!(
        execute_with_input(
            &mut sim,
            "create -f - --dry-run=server",
            Some(&deploy("web.v1", "nginx", DUP))
        )
        .unwrap(),
        format!("{name_warning}\n{DUP_WARNING}\ndeployment.apps/web.v1 created (server dry run)")
    );
    assert_eq!(
        execute_with_input(
            &mut sim,
            "create -f - --dry-run=client",
            Some(&deploy("web.v1", "nginx", DUP))
        )
        .unwrap(),
        "deployment.apps/web.v1 created (dry run)"
    );
    assert_eq!(
        execute_with_input(
            &mut sim,
            "create -f -",
            Some(&deploy("web.v1", "nginx", ONE))
        )
        .unwrap(),
        format!("{name_warning}\ndeployment.apps/web.v1 created")
    );
}

/// `podStrategy.WarningsOnCreate`: the Pod's own name warning wording, then
/// `GetWarningsForPod` in upstream's order (node selector, ports, grace period); the port is
/// printed as Go's `%+v` of the defaulted `ContainerPort`. Pods never warn on update.
#[test]
fn pod_create_warnings_and_silent_updates() {
    let mut sim = sim();
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p.x}\nspec:\n  terminationGracePeriodSeconds: -1\n  nodeSelector: {beta.kubernetes.io/os: linux}\n  containers: [{name: c, image: nginx, ports: [{containerPort: 80, hostIP: 10.0.0.1}]}]\n";
    assert_eq!(
        apply(&mut sim, pod).unwrap(),
        "Warning: metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]\n\
         Warning: spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use \"kubernetes.io/os\" instead\n\
         Warning: spec.containers[0].ports[0]: hostIP set without hostPort: {Name: HostPort:0 ContainerPort:80 Protocol:TCP HostIP:10.0.0.1}\n\
         Warning: spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1\n\
         pod/p.x created"
    );
    assert_eq!(
        execute(&mut sim, "label pod p.x a=b").unwrap(),
        "pod/p.x labeled"
    );
}

/// `rcStrategy.WarningsOnUpdate` passes the OLD template to `GetWarningsForPodTemplate`, so an
/// update that fixes the template still reports the stored one's problems, and the next one
/// does not.
#[test]
fn replication_controller_updates_warn_about_the_stored_template() {
    let mut sim = sim();
    assert_eq!(
        apply(&mut sim, &rc("nginx", DUP)).unwrap(),
        format!("{DUP_WARNING}\nreplicationcontroller/rc created")
    );
    assert_eq!(
        execute(
            &mut sim,
            &fix_ports("rc rc", "nginx:2", "[{\"containerPort\":80}]")
        )
        .unwrap(),
        format!("{DUP_WARNING}\nreplicationcontroller/rc patched")
    );
    assert_eq!(
        execute(
            &mut sim,
            &fix_ports(
                "rc rc",
                "nginx:3",
                "[{\"containerPort\":80},{\"containerPort\":80}]"
            )
        )
        .unwrap(),
        "replicationcontroller/rc patched"
    );
}

/// `statefulSetStrategy`: the negative revisionHistoryLimit warning on
/// every update, whether or not the template changed.
#[test]
fn statefulset_revision_history_limit() {
    let mut sim = sim();
    let sts = "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: s}\nspec:\n  revisionHistoryLimit: -1\n  selector: {matchLabels: {app: s}}\n  template:\n    metadata: {labels: {app: s}}\n    spec: {containers: [{name: c, image: nginx}]}\n";
    let w = "Warning: spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended";
    assert_eq!(
        apply(&mut sim, sts).unwrap(),
        format!("{w}\nstatefulset.apps/s created")
    );
    assert_eq!(
        execute(&mut sim, "label sts s a=b").unwrap(),
        format!("{w}\nstatefulset.apps/s labeled")
    );
}

/// `jobStrategy.WarningsOnCreate` → `WarningsForJobSpec` with the template under `spec`.
#[test]
fn job_create_warnings() {
    let mut sim = sim();
    let job = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j.x}\nspec:\n  template:\n    spec: {restartPolicy: Never, containers: [{name: c, image: busybox, resources: {requests: {memory: 4m}}}]}\n";
    assert_eq!(
        apply(&mut sim, job).unwrap(),
        "Warning: metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]\n\
         Warning: spec.template.spec.containers[0].resources.requests[memory]: fractional byte value \"4m\" is invalid, must be an integer\n\
         job.batch/j.x created"
    );
}

/// `svcStrategy` warns on create and on every update (`GetWarningsForService`).
#[test]
fn service_warnings_on_create_and_update() {
    let mut sim = sim();
    let svc = "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  selector: {app: s}\n  externalIPs: [10.1.2.3]\n  ports: [{port: 80}]\n";
    let w =
        "Warning: spec.externalIPs is deprecated and may no longer be implemented in some clusters";
    assert_eq!(
        apply(&mut sim, svc).unwrap(),
        format!("{w}\nservice/s created")
    );
    assert_eq!(
        execute(&mut sim, "label svc s a=b").unwrap(),
        format!("{w}\nservice/s labeled")
    );
}

/// A scenario's timeline commands keep kubectl's output, warnings included (the page's
/// command log shows them).
#[test]
fn timeline_log_keeps_the_warnings() {
    let yaml = deploy("web", "nginx", DUP)
        .lines()
        .map(|l| format!("    {l}"))
        .collect::<Vec<_>>()
        .join("\n");
    let s = crate::scenario::Scenario::parse(&format!(
        "kind: Scenario\nmetadata: {{name: t}}\ntimeline:\n- at: 0s\n  apply: |\n{yaml}\n"
    ))
    .unwrap();
    let mut sim = s.build().unwrap();
    sim.run_for(crate::api::Duration::from_secs(5)).unwrap();
    let first = sim.log.first().expect("logged");
    assert_eq!(
        first.output,
        format!("{DUP_WARNING}\ndeployment.apps/web created")
    );
    assert!(first.ok);
}
