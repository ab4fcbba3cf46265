//! `kubectl get -f` (`FilenameParam` in cli-runtime's builder, `printGeneric` in
//! pkg/cmd/get/get.go), after upstream's TestGetObjectsIdentifiedByFile: the objects named in
//! the files, as the server has them.

use super::testutil::sim;
use super::{execute, execute_with, Input};
use crate::sim::Simulation;
use std::collections::BTreeMap;

fn rc_yaml(name: &str) -> String {
    format!("apiVersion: v1\nkind: ReplicationController\nmetadata:\n  name: {name}\nspec:\n  replicas: 1\n  selector:\n    app: redis\n  template:\n    metadata:\n      labels:\n        app: redis\n    spec:\n      containers:\n      - name: master\n        image: redis\n")
}

fn svc_yaml(name: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: {name}\nspec:\n  ports:\n  - port: 80\n"
    )
}

fn files() -> BTreeMap<String, String> {
    BTreeMap::from([
        ("rc.yaml".into(), rc_yaml("redis-master")),
        ("svc.yaml".into(), svc_yaml("frontend")),
        (
            "both.yaml".into(),
            format!("{}---\n{}", rc_yaml("redis-master"), svc_yaml("frontend")),
        ),
        ("missing.yaml".into(), rc_yaml("nope")),
    ])
}

fn run(sim: &mut Simulation, cmd: &str) -> Result<String, String> {
    let f = files();
    execute_with(
        sim,
        cmd,
        Input {
            stdin: None,
            files: Some(&f),
            fs: None,
        },
    )
}

fn cluster() -> Simulation {
    let mut sim = sim();
    for y in [rc_yaml("redis-master"), svc_yaml("frontend")] {
        super::execute_with_input(&mut sim, "create -f -", Some(&y)).unwrap();
    }
    sim
}

// Upstream: TestGetObjectsIdentifiedByFile (pkg/cmd/get/get_test.go): `get -f FILE` prints the
// object the file names, from the server.
#[test]
fn get_objects_identified_by_file() {
    let mut sim = cluster();
    let out = run(&mut sim, "get -f rc.yaml").unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("NAME "), "{out}");
    assert!(lines[0].contains("DESIRED"), "{out}");
    assert!(lines[1].starts_with("redis-master "), "{out}");
    assert_eq!(lines.len(), 2, "{out}");
    // The name printer, and two files of two kinds in file order.
    assert_eq!(
        run(&mut sim, "get -f svc.yaml -f rc.yaml -o name"),
        Ok("service/frontend\nreplicationcontroller/redis-master".into())
    );
    // Resource arguments cannot be mixed with files.
    assert_eq!(
        run(&mut sim, "get pods -f rc.yaml"),
        Err("error: when paths, URLs, or stdin is provided as input, you may not specify resource arguments as well".into())
    );
    assert_eq!(
        run(&mut sim, "get -f absent.yaml"),
        Err("error: the path \"absent.yaml\" does not exist".into())
    );
}

// printGeneric: one path implies a single item, so one object prints as itself and an error is
// printed alone; two objects from that path, or objects from standard input, print as a List.
#[test]
fn get_from_file_single_item_implied() {
    let mut sim = cluster();
    let one = run(&mut sim, "get -f rc.yaml -o yaml").unwrap();
    assert!(
        one.starts_with("apiVersion: v1\nkind: ReplicationController\n"),
        "{one}"
    );
    let two = run(&mut sim, "get -f both.yaml -o yaml").unwrap();
    assert!(two.starts_with("apiVersion: v1\nitems:\n"), "{two}");
    assert!(two.contains("kind: List"), "{two}");
    let stdin =
        super::execute_with_input(&mut sim, "get -f - -o yaml", Some(&rc_yaml("redis-master")))
            .unwrap();
    assert!(stdin.contains("kind: List"), "{stdin}");
    assert_eq!(
        run(&mut sim, "get -f missing.yaml -o yaml"),
        Err("Error from server (NotFound): replicationcontrollers \"nope\" not found".into())
    );
    // As a table the objects found are printed and the rest reported.
    let err = run(&mut sim, "get -f missing.yaml").unwrap_err();
    assert!(
        err.ends_with("Error from server (NotFound): replicationcontrollers \"nope\" not found"),
        "{err}"
    );
    assert!(run(&mut sim, "get -f missing.yaml --ignore-not-found").is_ok());
    // Without -f or a resource type the usual error stays.
    assert!(execute(&mut sim, "get")
        .unwrap_err()
        .starts_with("You must specify the type of resource to get."));
}
