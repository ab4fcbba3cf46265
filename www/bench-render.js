// Rendering bench for scripts/bench.sh: the cluster view (views/cluster.js) fed a rolling update
// of `?pods=2000` pods on `?nodes=20` nodes, one snapshot per animation frame, each snapshot
// passed through a MessageChannel (structured clone, as the worker's frames are). Independent
// of how fast the simulator produces frames: this measures the view. `window.benchResult` =
// {fps, worst, frames, renderMs} after `?ms=5000` of animation (plus 1 s of warm-up).
import { ClusterView } from "./views/cluster.js";

const q = new URLSearchParams(location.search);
const POD_COUNT = Number(q.get("pods") ?? 2000);
const NODE_COUNT = Number(q.get("nodes") ?? 20);
const MS = Number(q.get("ms") ?? 5000);
if (q.get("still") === "1") document.body.classList.add("still");

const nodes = Array.from({ length: NODE_COUNT }, (_, i) => ({
  name: `node-${i}`, ready: "True", unschedulable: false, down: false, labels: {}, taints: [],
  cpuMilli: 64000, memoryBytes: 2 ** 36, podsCapacity: 120, cpuRequestedMilli: 0, memoryRequestedBytes: 0,
}));
const rsUid = (rev) => `rs-${rev}`;
let serial = 0;
function newPod(rev) {
  serial++;
  return {
    uid: `uid-${serial}`, namespace: "default", name: `web-${rev}-${serial.toString(36)}`, node: "",
    phase: "Pending", ready: false, terminating: false, reason: "", restarts: 0,
    ownerKind: "ReplicaSet", ownerName: `web-${rev}`, ownerUid: rsUid(rev), revision: rev, deletionCost: "", age: 0,
  };
}

// The rolling update: every frame, STEP old pods start terminating (and go two frames later),
// STEP new pods appear, get scheduled, start and turn ready over the next frames.
const STEP = Math.max(1, Math.round(POD_COUNT / 200));
let pods = Array.from({ length: POD_COUNT }, (_, i) => ({ ...newPod("aaaa"), node: `node-${i % NODE_COUNT}`, phase: "Running", ready: true }));
let rev = "bbbb";
let time = 0;
function nextSnapshot() {
  time += 1;
  const out = [];
  let terminating = 0;
  for (const p of pods) {
    if (p.terminating && ++p.age > 2) continue; // gone
    if (!p.terminating && p.revision !== rev && terminating < STEP) {
      p.terminating = true;
      p.ready = false;
      p.age = 0;
      terminating++;
    }
    if (p.revision === rev && !p.ready) {
      p.age++;
      if (p.age === 1) p.node = `node-${serial % NODE_COUNT}`;
      if (p.age === 2) p.phase = "Running";
      if (p.age === 3) p.ready = true;
    }
    out.push(p);
  }
  let alive = out.reduce((n, p) => n + (p.terminating ? 0 : 1), 0);
  for (let i = 0; i < STEP && alive < POD_COUNT + STEP; i++, alive++) out.push(newPod(rev));
  pods = out;
  if (pods.every((p) => p.revision === rev)) rev = rev === "bbbb" ? "aaaa" : "bbbb";
  const perNode = new Map();
  for (const p of pods) perNode.set(p.node, (perNode.get(p.node) ?? 0) + 1);
  for (const n of nodes) n.cpuRequestedMilli = 100 * (perNode.get(n.name) ?? 0);
  return { time, now: "", nodes, pods, workloads: [], controllerManagerRunning: true, eventCount: time };
}

const view = new ClusterView(document.getElementById("cluster"), { onSelect: () => {} });
const channel = new MessageChannel();
let renderMs = 0;
let rendered = 0;
channel.port1.onmessage = (m) => {
  const t = performance.now();
  view.render(m.data);
  renderMs += performance.now() - t;
  rendered++;
};

function run(ms, frames) {
  return new Promise((resolve) => {
    const start = performance.now();
    const loop = (now) => {
      frames?.push(now);
      channel.port2.postMessage(nextSnapshot());
      if (now - start < ms) requestAnimationFrame(loop);
      else resolve();
    };
    requestAnimationFrame(loop);
  });
}

async function main() {
  view.render(nextSnapshot());
  await run(1000); // warm-up
  renderMs = 0;
  rendered = 0;
  const frames = [];
  await run(MS, frames);
  let worst = 0;
  for (let i = 1; i < frames.length; i++) worst = Math.max(worst, frames[i] - frames[i - 1]);
  return {
    fps: ((frames.length - 1) * 1000) / (frames[frames.length - 1] - frames[0]),
    worst,
    frames: frames.length,
    renderMs: renderMs / Math.max(1, rendered),
    tiles: document.querySelectorAll("#cluster .pod").length || view.painted.length,
  };
}

main().then((r) => (window.benchResult = r), (e) => (window.benchResult = { error: String(e?.message ?? e) }));
