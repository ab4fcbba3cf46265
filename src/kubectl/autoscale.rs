//! `kubectl autoscale` (`pkg/cmd/autoscale/autoscale.go`, kubectl 1.34): creates an
//! `autoscaling/v2` HorizontalPodAutoscaler for a Deployment, ReplicaSet, ReplicationController
//! or StatefulSet, falling back to `autoscaling/v1` when the v2 create fails and the flags fit v1.
//! `--cpu` / `--memory` take a utilization (`70%`) or an average value (`500m`, `256Mi`; a bare
//! number means millicores / mebibytes); `--cpu-percent` is deprecated.

use super::args::{self, Flag};
use super::resource::{self, Item};
use super::{DryRun, Namespace, Out, DRY_RUN_FLAG};
use crate::api::validation::quantity::parse_quantity;
use crate::api::Object;
use crate::sim::Simulation;
use serde_json::{json, Value};

const FLAGS: &[Flag] = &[
    Flag::int("min"),
    Flag::int("max"),
    Flag::int("cpu-percent"),
    Flag::str("cpu"),
    Flag::str("memory"),
    Flag::str("name"),
    Flag::strings("filename").short('f'),
    Flag::str("output").short('o'),
    Flag::bool("recursive").short('R'),
    DRY_RUN_FLAG,
];

/// pflag's `MarkDeprecated` notice for `--cpu-percent`, printed when the flag is given.
const CPU_PERCENT_DEPRECATED: &str = "Flag --cpu-percent has been deprecated, Use --cpu with percentage or resource quantity format (e.g., '70%' for utilization or '500m' for milliCPU).";

/// `AutoscaleOptions`: the flag values the HPA is built from.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Options {
    pub name: String,
    pub min: i64,
    pub max: i64,
    pub cpu_percent: i64,
    pub cpu: String,
    pub memory: String,
}

impl Default for Options {
    /// The flag defaults (`--min`, `--max`, `--cpu-percent` are -1).
    fn default() -> Options {
        Options {
            name: String::new(),
            min: -1,
            max: -1,
            cpu_percent: -1,
            cpu: String::new(),
            memory: String::new(),
        }
    }
}

/// A `--cpu` / `--memory` target as `parseResourceInput` reads it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Target {
    /// `Utilization` with `averageUtilization`.
    Utilization(i64),
    /// `AverageValue` with `averageValue` (the quantity's canonical string).
    AverageValue(String),
}

/// Go's `fmt.Sprintf("%g", f)` for a float64.
fn go_g(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf" } else { "-Inf" }.into();
    }
    // Shortest round-trip digits, as `{:e}` gives them: `d.ddde±x`.
    let e = format!("{f:e}");
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..6).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mant}e{sign}{:02}", exp.unsigned_abs())
    } else {
        format!("{f}")
    }
}

/// Go's `strconv.ParseFloat(s, 64)` succeeding (decimal forms, `inf`, `infinity`, `nan`).
fn go_parse_float(s: &str) -> Option<f64> {
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    let lower = body.to_ascii_lowercase();
    let special = matches!(lower.as_str(), "inf" | "infinity") || (lower == "nan" && body == s);
    if special
        || (!body.is_empty()
            && body
                .bytes()
                .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-')))
    {
        // Go reports ErrRange for a finite literal beyond f64 (`1e400`); Rust returns ±inf.
        s.parse::<f64>().ok().filter(|f| special || f.is_finite())
    } else {
        None
    }
}

/// `parseResourceInput`: `70%` is a utilization, a bare number gets the resource's default unit
/// (`m` for cpu, `Mi` for memory), anything else must be a quantity.
///
/// # Errors
/// Upstream's messages: `empty input`, `invalid percentage value: X`, a quantity parse error for
/// a bare number, `invalid resource cpu value: X`.
pub(crate) fn parse_resource_input(input: &str, resource: &str) -> Result<Target, String> {
    let input = input.trim();
    if input.is_empty() {
        return Err("empty input".into());
    }
    if let Some(trimmed) = input.strip_suffix('%') {
        return match go_parse_int32(trimmed) {
            Some(v) if v >= 0 => Ok(Target::Utilization(v)),
            _ => Err(format!("invalid percentage value: {trimmed}")),
        };
    }
    if let Some(f) = go_parse_float(input) {
        let unit = if resource == "cpu" { "m" } else { "Mi" };
        let with_unit = format!("{}{unit}", go_g(f));
        return parse_quantity(&with_unit)
            .map(|q| Target::AverageValue(q.canonical()))
            .map_err(str::to_string);
    }
    parse_quantity(input)
        .map(|q| Target::AverageValue(q.canonical()))
        .map_err(|_| format!("invalid resource {resource} value: {input}"))
}

/// Go's `strconv.ParseInt(s, 10, 32)`.
fn go_parse_int32(s: &str) -> Option<i64> {
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse::<i32>().ok().map(i64::from)
}

impl Options {
    fn from(p: &args::Parsed) -> Options {
        Options {
            name: p.string("name"),
            min: p.int("min", -1),
            max: p.int("max", -1),
            cpu_percent: p.int("cpu-percent", -1),
            cpu: p.string("cpu"),
            memory: p.string("memory"),
        }
    }

    /// `Validate`.
    ///
    /// # Errors
    /// kubectl's message, without the `error: ` prefix.
    pub(crate) fn validate(&self) -> Result<(), String> {
        if self.max < 1 {
            return Err(format!(
                "--max=MAXPODS is required and must be at least 1, max: {}",
                self.max
            ));
        }
        if self.max < self.min {
            return Err(format!(
                "--max=MAXPODS must be larger or equal to --min=MINPODS, max: {}, min: {}",
                self.max, self.min
            ));
        }
        if self.cpu_percent > 0 && !self.cpu.is_empty() {
            return Err("--cpu-percent and --cpu are mutually exclusive".into());
        }
        if !self.cpu.is_empty() {
            parse_resource_input(&self.cpu, "cpu")?;
        }
        if !self.memory.is_empty() {
            parse_resource_input(&self.memory, "memory")?;
        }
        Ok(())
    }

    fn hpa_name(&self, ref_name: &str) -> String {
        if self.name.is_empty() {
            ref_name.to_string()
        } else {
            self.name.clone()
        }
    }

    /// `createHorizontalPodAutoscalerV2`: the object as kubectl sends it (no namespace; the
    /// caller adds it).
    ///
    /// # Errors
    /// A `--cpu` / `--memory` parse error.
    pub(crate) fn hpa_v2(
        &self,
        ref_name: &str,
        api_version: &str,
        kind: &str,
    ) -> Result<Value, String> {
        let mut spec = json!({
            "scaleTargetRef": {"apiVersion": api_version, "kind": kind, "name": ref_name},
            "maxReplicas": self.max,
        });
        if self.min > 0 {
            spec["minReplicas"] = self.min.into();
        }
        let mut metrics = vec![];
        let resource_metric = |name: &str, target: Value| json!({"type": "Resource", "resource": {"name": name, "target": target}});
        if self.cpu_percent > 0 {
            metrics.push(resource_metric(
                "cpu",
                json!({"type": "Utilization", "averageUtilization": self.cpu_percent}),
            ));
        }
        for (flag, resource) in [(&self.cpu, "cpu"), (&self.memory, "memory")] {
            if flag.is_empty() {
                continue;
            }
            let target = match parse_resource_input(flag, resource)? {
                Target::Utilization(v) => json!({"type": "Utilization", "averageUtilization": v}),
                Target::AverageValue(q) => json!({"type": "AverageValue", "averageValue": q}),
            };
            metrics.push(resource_metric(resource, target));
        }
        if !metrics.is_empty() {
            spec["metrics"] = Value::Array(metrics);
        }
        Ok(json!({
            "apiVersion": "autoscaling/v2",
            "kind": "HorizontalPodAutoscaler",
            "metadata": {"name": self.hpa_name(ref_name)},
            "spec": spec,
        }))
    }

    /// `createHorizontalPodAutoscalerV1`.
    pub(crate) fn hpa_v1(&self, ref_name: &str, api_version: &str, kind: &str) -> Value {
        let mut spec = json!({
            "scaleTargetRef": {"apiVersion": api_version, "kind": kind, "name": ref_name},
            "maxReplicas": self.max,
        });
        if self.min > 0 {
            spec["minReplicas"] = self.min.into();
        }
        if self.cpu_percent >= 0 {
            spec["targetCPUUtilizationPercentage"] = self.cpu_percent.into();
        }
        json!({
            "apiVersion": "autoscaling/v1",
            "kind": "HorizontalPodAutoscaler",
            "metadata": {"name": self.hpa_name(ref_name)},
            "spec": spec,
        })
    }

    /// `canCreateHPAV1`: `Ok(false)` prints as Go's `%!w(<nil>)`.
    fn can_create_v1(&self) -> Result<bool, String> {
        let t = parse_resource_input(&self.cpu, "cpu")?;
        Ok((self.cpu_percent >= 0 && self.memory.is_empty())
            || (self.memory.is_empty() && matches!(t, Target::Utilization(_))))
    }
}

pub(crate) fn run(sim: &mut Simulation, words: &[String], out: &mut Out) -> Result<(), String> {
    let p = args::parse("kubectl autoscale", words, FLAGS)?;
    // pflag prints the notice each time the flag is set.
    for _ in p.ordered().iter().filter(|(n, _)| *n == "cpu-percent") {
        out.eprint(CPU_PERCENT_DEPRECATED);
    }
    let ns = Namespace::from(&p);
    let dry = DryRun::from(&p)?;
    let opts = Options::from(&p);
    opts.validate().map_err(|e| format!("error: {e}"))?;
    let output = p.string("output");
    if !output.is_empty() && !matches!(output.as_str(), "name" | "yaml" | "json") {
        return Err(super::output::no_printer(
            &output,
            &["json", "name", "yaml"],
        ));
    }
    if p.args.is_empty() {
        return Err(super::usage_error(
            "kubectl autoscale",
            "You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'",
        ));
    }
    let req = resource::build(&p.args, false, None, false)?;
    let (infos, errs) = resource::visit(sim, &req, Some(ns.name.as_str()), "");
    if let Some(e) = errs.first() {
        return Err(e.clone());
    }
    for info in infos {
        for it in info.items {
            let Item::Obj(o) = it else { continue };
            let kind = o.kind();
            if !super::scale::SCALABLE.contains(&kind) {
                let group = info.kind.group();
                let gk = if group.is_empty() {
                    kind.to_string()
                } else {
                    format!("{kind}.{group}")
                };
                return Err(format!(
                    "error: cannot autoscale a {gk}: cannot autoscale a {gk}"
                ));
            }
            let api_version = info.kind.api_version();
            let ref_name = o.meta().name.clone();
            let namespace = o.meta().namespace.clone();
            let build = |mut v: Value| -> Result<Object, String> {
                v["metadata"]["namespace"] = namespace.clone().into();
                Object::from_value(v)
            };
            let v2 = opts.hpa_v2(&ref_name, api_version, kind).map_err(|e| {
                format!(
                    "error: failed to create HorizontalPodAutoscaler using autoscaling/v2 API: {e}"
                )
            })?;
            let hpa = build(v2)?;
            let name = hpa.meta().name.clone();
            let result = match dry {
                DryRun::Client => hpa,
                DryRun::Server | DryRun::None => {
                    let mut create = |h: Object| {
                        let res = if dry == DryRun::Server {
                            sim.api.clone().create(h)
                        } else {
                            sim.api.create(h)
                        };
                        res.map_err(|e| e.kubectl_message())
                    };
                    match create(hpa) {
                        Ok(created) => created,
                        // The v2 create failed: fall back to autoscaling/v1 when the flags fit it.
                        Err(_) => {
                            match opts.can_create_v1() {
                                Ok(true) => {}
                                Ok(false) => return Err("error: failed to create autoscaling/v2 HPA and the configuration is incompatible with autoscaling/v1: %!w(<nil>)".into()),
                                Err(e) => return Err(format!("error: failed to create autoscaling/v2 HPA and the configuration is incompatible with autoscaling/v1: {e}")),
                            }
                            create(build(opts.hpa_v1(&ref_name, api_version, kind))?)?
                        }
                    }
                }
            };
            let k = resource::Kind::Obj("HorizontalPodAutoscaler");
            let operation = if dry == DryRun::Client {
                "created"
            } else {
                "autoscaled"
            };
            match output.as_str() {
                "name" => out.print(&super::output::name_of(k, &name)),
                "yaml" | "json" => {
                    let mut v = super::output::object_value(&result);
                    // kubectl prints the object it built: the namespace only with `-n`.
                    if dry == DryRun::Client && !ns.explicit {
                        if let Some(m) = v.get_mut("metadata").and_then(Value::as_object_mut) {
                            m.remove("namespace");
                        }
                    }
                    out.print(&super::output::print_value(&output, &v));
                }
                _ => out.print(&format!(
                    "{} {operation}{}",
                    super::output::name_of(k, &name),
                    dry.suffix()
                )),
            }
        }
    }
    Ok(())
}

#[cfg(test)]
#[path = "autoscale_tests.rs"]
mod tests;
