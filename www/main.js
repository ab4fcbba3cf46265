// Smoke page: load the wasm module, run the scenario in the textarea, list the snapshot.
// Everything user- or simulation-provided is inserted with textContent, never innerHTML.
import init, { Simulation } from "../pkg/kubeplay.js";

const DEFAULT_SCENARIO = `apiVersion: kubeplay.dev/v1alpha1
kind: Scenario
metadata:
  name: smoke
seed: 1
nodes:
- count: 3
  namePrefix: node-
objects:
- apiVersion: apps/v1
  kind: ReplicaSet
  metadata:
    name: frontend
  spec:
    replicas: 3
    selector:
      matchLabels: {app: frontend}
    template:
      metadata:
        labels: {app: frontend}
      spec:
        containers:
        - name: web
          image: nginx:1.27
          resources:
            requests: {cpu: 100m, memory: 64Mi}
- apiVersion: v1
  kind: Pod
  metadata:
    name: standalone
  spec:
    containers:
    - name: app
      image: busybox:1.36
`;

const $ = (id) => document.getElementById(id);

function item(text) {
  const li = document.createElement("li");
  li.textContent = text;
  return li;
}

function showError(message) {
  $("error").textContent = message;
  $("error").hidden = false;
  $("status").textContent = "Error";
  document.body.dataset.state = "error";
}

function run() {
  $("error").hidden = true;
  $("error").textContent = "";
  for (const id of ["nodes", "pods", "events"]) $(id).replaceChildren();
  let sim;
  try {
    sim = new Simulation($("scenario").value);
    sim.runFor(Number($("seconds").value) || 0);
    const snap = sim.snapshot();
    $("nodes").replaceChildren(
      ...snap.nodes.map((n) =>
        item(`${n.name}  Ready=${n.ready}${n.down ? " (down)" : ""}  cpu ${n.cpuRequestedMilli}m/${n.cpuMilli}m`),
      ),
    );
    $("pods").replaceChildren(
      ...snap.pods.map((p) =>
        item(`${p.namespace}/${p.name}  ${p.phase || "Pending"}${p.ready ? " ready" : ""}  node=${p.node || "<none>"}`),
      ),
    );
    $("events").replaceChildren(
      ...sim.events(0).map((e) => item(`${e.time}s  ${e.type}  ${e.reason}  ${e.kind}/${e.name}: ${e.message}`)),
    );
    $("status").textContent =
      `t = ${snap.time}s (${snap.now}): ${snap.nodes.length} nodes, ${snap.pods.length} pods, ` +
      `${snap.workloads.length} workloads, ${snap.eventCount} events`;
    document.body.dataset.state = "ready";
  } catch (e) {
    showError(e instanceof Error ? e.message : String(e));
  } finally {
    sim?.free();
  }
}

try {
  await init();
  $("scenario").value = DEFAULT_SCENARIO;
  $("run").addEventListener("click", run);
  $("run").disabled = false;
  run();
} catch (e) {
  showError(`Could not load the simulator: ${e instanceof Error ? e.message : String(e)}`);
}
