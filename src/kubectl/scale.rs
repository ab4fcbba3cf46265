//! `kubectl scale` (`pkg/cmd/scale/scale.go`, `pkg/scale/scale.go`): sets `spec.replicas`
//! through the scale subresource, with the `--current-replicas` and `--resource-version`
//! preconditions.

use super::args::{self, Flag};
use super::resource::{self, Item, Kind};
use super::{apply, DryRun, Input, Namespace, Out, DRY_RUN_FLAG};
use crate::api::Object;
use crate::sim::Simulation;
use serde_json::Value;

const FLAGS: &[Flag] = &[
    Flag::int("replicas"),
    Flag::int("current-replicas"),
    Flag::str("resource-version"),
    Flag::str("selector").short('l'),
    Flag::bool("all"),
    Flag::bool("all-namespaces").short('A'),
    Flag::strings("filename").short('f'),
    Flag::str("timeout"),
    Flag::str("output").short('o'),
    Flag::bool("recursive").short('R'),
    DRY_RUN_FLAG,
];

/// Kinds with a `scale` subresource.
pub const SCALABLE: &[&str] = &[
    "ReplicaSet",
    "ReplicationController",
    "Deployment",
    "StatefulSet",
];

/// `spec.replicas` of a scalable object (defaulted to 1 when unset).
pub fn replicas_of(o: &Object) -> Option<i64> {
    if !SCALABLE.contains(&o.kind()) {
        return None;
    }
    let v = serde_json::to_value(o).ok()?;
    Some(
        v.pointer("/spec/replicas")
            .and_then(Value::as_i64)
            .unwrap_or(1),
    )
}

/// The object with `spec.replicas` set.
fn with_replicas(o: &Object, n: i64) -> Result<Object, String> {
    let mut v = serde_json::to_value(o).map_err(|e| e.to_string())?;
    if let Some(spec) = v.get_mut("spec").and_then(Value::as_object_mut) {
        spec.insert("replicas".into(), Value::from(n));
    }
    Object::from_value(v)
}

pub(crate) fn run(
    sim: &mut Simulation,
    words: &[String],
    input: Input,
    out: &mut Out,
) -> Result<(), String> {
    let p = args::parse("kubectl scale", words, FLAGS)?;
    if !p.changed("replicas") {
        return Err("error: required flag(s) \"replicas\" not set".into());
    }
    let ns = Namespace::from(&p);
    let dry = DryRun::from(&p)?;
    let replicas = p.int("replicas", -1);
    let current = p.int("current-replicas", -1);
    if replicas < 0 {
        return Err("error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0".into());
    }
    if current < -1 {
        return Err(
            "error: The --current-replicas must specify an integer of -1 or greater".into(),
        );
    }
    let output = p.string("output");
    if !output.is_empty() && !matches!(output.as_str(), "name" | "yaml" | "json") {
        return Err(super::output::no_printer(
            &output,
            &["json", "name", "yaml"],
        ));
    }

    let mut items: Vec<(Kind, Object)> = vec![];
    let mut errs: Vec<String> = vec![];
    let files = p.strings("filename");
    if !files.is_empty() {
        let (objs, e) = apply::read_objects(&files, p.bool("recursive"), input, &ns)?;
        errs.extend(e);
        for doc in objs {
            let o = doc.obj;
            let kind = Kind::Obj(o.kind());
            match resource::get(sim, kind, &o.meta().namespace, &o.meta().name) {
                Ok(Item::Obj(live)) => items.push((kind, live)),
                Ok(Item::Event(_)) => {}
                Err(e) => errs.push(e),
            }
        }
    } else {
        let sel = p.str("selector").filter(|s| !s.is_empty());
        let req = resource::build(&p.args, p.bool("all"), sel, false)?;
        let namespace = if p.bool("all-namespaces") {
            None
        } else {
            Some(ns.name.as_str())
        };
        let (infos, e) = resource::visit(sim, &req, namespace, "");
        errs.extend(e);
        for info in infos {
            for it in info.items {
                if let Item::Obj(o) = it {
                    items.push((info.kind, o));
                }
            }
        }
    }
    if !p.string("resource-version").is_empty() && items.len() > 1 {
        return Err("error: cannot use --resource-version with multiple resources".into());
    }
    if items.is_empty() {
        // kubernetes/kubernetes bb21080 (1.35, "standardize not found error message of kubectl
        // scale"): the visit error is returned as is, no longer wrapped in "no objects passed".
        if errs.is_empty() {
            return Err("error: no objects passed to scale".into());
        }
        return Err(errs.join("\n"));
    }
    for (kind, obj) in items {
        let name = obj.meta().name.clone();
        let Some(cur) = replicas_of(&obj) else {
            return Err(
                "Error from server (NotFound): the server could not find the requested resource"
                    .into(),
            );
        };
        if current != -1 && cur != current {
            return Err(format!(
                "error: Expected replicas to be {current}, was {cur}"
            ));
        }
        let rv = p.string("resource-version");
        if !rv.is_empty() && obj.meta().resource_version != rv {
            return Err(format!(
                "error: Expected resource version to be {rv}, was {}",
                obj.meta().resource_version
            ));
        }
        let mut result = obj.clone();
        if dry != DryRun::Client {
            let scaled = with_replicas(&obj, replicas)?;
            let res =
                super::server_write(sim, dry == DryRun::Server, out, |api| api.update(scaled));
            result = res.map_err(|e| e.kubectl_message())?;
        }
        match output.as_str() {
            "name" => out.print(&super::output::name_of(kind, &name)),
            "yaml" | "json" => out.print(&super::output::print_value(
                &output,
                &super::output::object_value(&result),
            )),
            _ => out.print(&format!(
                "{} scaled{}",
                super::output::name_of(kind, &name),
                dry.suffix()
            )),
        }
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::super::execute;
    use super::super::testutil::*;
    use crate::api::{Object, ReplicaSet, ReplicationController};

    fn replicas(sim: &crate::sim::Simulation) -> Option<i32> {
        sim.api
            .store
            .get::<ReplicaSet>("default", "frontend")
            .and_then(|r| r.spec.replicas)
    }

    #[test]
    fn scale_forms() {
        let mut sim = sim();
        load_fixture(&mut sim);
        assert_eq!(
            execute(&mut sim, "scale rs frontend --replicas=5").unwrap(),
            "replicaset.apps/frontend scaled"
        );
        assert_eq!(replicas(&sim), Some(5));
        assert_eq!(
            execute(&mut sim, "scale --replicas 0 rs/frontend").unwrap(),
            "replicaset.apps/frontend scaled"
        );
        assert_eq!(replicas(&sim), Some(0));
        let g = sim
            .api
            .store
            .get::<ReplicaSet>("default", "frontend")
            .unwrap()
            .metadata
            .generation;
        assert_eq!(g, 3, "each spec change bumps the generation");
        sim.api
            .load(Object::ReplicationController(replication_controller(
                "nginx", 3,
            )))
            .unwrap();
        assert_eq!(
            execute(&mut sim, "scale rc nginx --replicas=1 -o name").unwrap(),
            "replicationcontroller/nginx"
        );
        assert_eq!(
            sim.api
                .store
                .get::<ReplicationController>("default", "nginx")
                .unwrap()
                .spec
                .replicas,
            Some(1)
        );
    }

    /// `--current-replicas` is a precondition (`ScalePrecondition.validate`).
    #[test]
    fn current_replicas_precondition() {
        let mut sim = sim();
        load_fixture(&mut sim);
        assert_eq!(
            execute(
                &mut sim,
                "scale rs frontend --current-replicas=3 --replicas=5"
            )
            .unwrap_err(),
            "error: Expected replicas to be 3, was 2"
        );
        assert_eq!(replicas(&sim), Some(2));
        assert_eq!(
            execute(
                &mut sim,
                "scale rs frontend --current-replicas=2 --replicas=5"
            )
            .unwrap(),
            "replicaset.apps/frontend scaled"
        );
        assert_eq!(replicas(&sim), Some(5));
    }

    #[test]
    fn scale_errors() {
        let mut sim = sim();
        load_fixture(&mut sim);
        assert_eq!(
            execute(&mut sim, "scale rs frontend").unwrap_err(),
            "error: required flag(s) \"replicas\" not set"
        );
        assert_eq!(
            execute(&mut sim, "scale rs frontend --replicas=-1").unwrap_err(),
            "error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0"
        );
        assert_eq!(
            execute(&mut sim, "scale rs nope --replicas=1").unwrap_err(),
            "Error from server (NotFound): replicasets.apps \"nope\" not found"
        );
        assert_eq!(
            execute(&mut sim, "scale rs --replicas=1").unwrap_err(),
            "error: resource(s) were provided, but no name was specified"
        );
        assert_eq!(
            execute(&mut sim, "scale pod bare --replicas=1").unwrap_err(),
            "Error from server (NotFound): the server could not find the requested resource"
        );
        assert_eq!(
            execute(&mut sim, "scale rs frontend --replicas=x").unwrap_err(),
            "error: invalid argument \"x\" for \"--replicas\" flag: strconv.ParseInt: parsing \"x\": invalid syntax\nSee 'kubectl scale --help' for usage."
        );
        assert_eq!(
            execute(&mut sim, "scale rs frontend --replicas=4 --dry-run=client").unwrap(),
            "replicaset.apps/frontend scaled (dry run)"
        );
        assert_eq!(replicas(&sim), Some(2));
    }

    #[test]
    fn scale_all_of_a_kind() {
        let mut sim = sim();
        load_fixture(&mut sim);
        assert_eq!(
            execute(&mut sim, "scale rs --all --replicas=1").unwrap(),
            "replicaset.apps/frontend scaled"
        );
        assert_eq!(replicas(&sim), Some(1));
    }
}
