// Lessons on StatefulSets and DaemonSets (spread into LESSONS in index.js). Same shape as there:
// each step's `check(ctx, mem)` turns green on the simulator's real state; `tab` opens the view
// that shows what the lesson is about.

const pod = (ctx, name) => ctx.snap.pods.find((p) => p.name === name && !p.terminating) ?? ctx.snap.pods.find((p) => p.name === name);
const live = (ctx, pred = () => true) => ctx.snap.pods.filter((p) => !p.terminating && pred(p));
const node = (ctx, name) => ctx.snap.nodes.find((n) => n.name === name);
const web = (ctx) => live(ctx, (p) => p.ownerKind === "StatefulSet" && p.ownerName === "web");
const ready = (ctx, names) => names.every((n) => pod(ctx, n)?.ready && !pod(ctx, n).terminating);
const daemonOn = (ctx, ds, n) => live(ctx, (p) => p.ownerKind === "DaemonSet" && p.ownerName === ds && p.node === n);
const broken = (p) => /Image|ErrImage/.test(p?.reason ?? "");
const WEB3 = ["web-0", "web-1", "web-2"];

/** Times of the StatefulSet controller's `create Pod <name> ...` (or delete) events. */
const podEvents = (ctx, verb, name) => ctx.events
  .filter((e) => e.kind === "StatefulSet" && e.message === `${verb} Pod ${name} in StatefulSet web successful`)
  .map((e) => e.time);
const creates = (ctx, name) => podEvents(ctx, "create", name);
const deletes = (ctx, name) => podEvents(ctx, "delete", name);
/** All defined and equal. */
const sameTime = (ts) => ts.every((t) => t !== undefined && t === ts[0]);

/** Remembers the first uid of each pod name (mem.uid) and which names got a new uid (mem.replaced). */
function rememberUids(ctx, mem) {
  mem.uid ??= {};
  mem.replaced ??= {};
  for (const p of ctx.snap.pods) {
    if (mem.uid[p.name] === undefined) mem.uid[p.name] = p.uid;
    else if (mem.uid[p.name] !== p.uid) mem.replaced[p.name] = true;
  }
}

/** The revision shared by the three web pods, or null. */
function oneRevision(ctx) {
  const revs = new Set(WEB3.map((n) => pod(ctx, n)?.revision));
  return revs.size === 1 && ready(ctx, WEB3) ? [...revs][0] : null;
}

export const WORKLOAD_LESSONS = [
  {
    id: "sts-ordered-ready",
    title: "StatefulSet: OrderedReady waits for every predecessor",
    scenario: "statefulset-ordered-failure",
    tab: "statefulset",
    text: "With the default podManagementPolicy, OrderedReady, web-N is created only when web-0 … web-(N−1) are all Running and Ready. The StatefulSet tab shows which pod waits for which. Here web-0 needs 30 s to become ready, and is deleted at 35 s while web-1 is starting.",
    steps: [
      { text: "web-0 is created first; web-1 only once web-0 is Running and Ready, 30 s later.", check: (c) => creates(c, "web-1")[0] - creates(c, "web-0")[0] >= 30 },
      { text: "web-0 is deleted at 35 s and recreated at once, while web-1 is still starting.", check: (c) => creates(c, "web-0")[1] >= 35 },
      { text: "web-2 waits for the new web-0: it is created only once that one is Running and Ready (30 s later), then all three are ready.", check: (c) => creates(c, "web-2")[0] - creates(c, "web-0")[1] >= 30 && ready(c, WEB3) },
    ],
  },
  {
    id: "sts-parallel",
    title: "StatefulSet: Parallel pod management",
    scenario: "statefulset-parallel",
    tab: "statefulset",
    text: "podManagementPolicy: Parallel keeps the identities (web-N, claim www-web-N) but drops the ordering: pods are created and deleted together, without waiting for each other. web-0 is slow to become ready (30 s) and nothing waits for it.",
    steps: [
      { text: "web-0, web-1 and web-2 are created at the same instant.", check: (c) => sameTime(WEB3.map((n) => creates(c, n)[0])) },
      { text: "Scaled to 5 at 1m: web-3 and web-4 are created together and become ready.", check: (c) => sameTime(["web-3", "web-4"].map((n) => creates(c, n)[0])) && ready(c, ["web-3", "web-4"]) },
      { text: "Scaled to 1 at 2m: web-1 … web-4 are deleted together; web-0 stays.", check: (c) => sameTime(["web-1", "web-2", "web-3", "web-4"].map((n) => deletes(c, n)[0])) && web(c).map((p) => p.name).join() === "web-0" },
    ],
  },
  {
    id: "sts-canary",
    title: "StatefulSet: a partitioned canary",
    scenario: "statefulset-canary",
    tab: "statefulset",
    text: "rollingUpdate.partition: only ordinals ≥ partition get the update revision. With partition 2, web-2 is the canary; web-0 and web-1 keep the current revision — even when recreated. Watch the partition line in the StatefulSet tab.",
    observe: (c, m) => {
      rememberUids(c, m);
      if (c.time < 60) m.rev0 ??= oneRevision(c);
    },
    steps: [
      { text: "Three ready pods on one revision.", check: (c, m) => !!m.rev0 && oneRevision(c) === m.rev0 },
      { text: "At 1m the image changes: only web-2 is replaced, at the update revision.", check: (c, m) => c.time >= 60 && ready(c, WEB3) && pod(c, "web-2").revision !== m.rev0 && ["web-0", "web-1"].every((n) => pod(c, n).revision === m.rev0) },
      { text: "web-1 is deleted at 2m and recreated at the current revision (it is below the partition).", check: (c, m) => m.replaced["web-1"] && pod(c, "web-1")?.ready && pod(c, "web-1").revision === m.rev0 && c.time < 180 },
      { text: "The partition is lowered to 0 at 3m: web-1, then web-0 are updated.", check: (c, m) => c.time >= 180 && oneRevision(c) && oneRevision(c) !== m.rev0 },
    ],
  },
  {
    id: "sts-forced-rollback",
    title: "StatefulSet: the forced-rollback trap",
    scenario: "statefulset-forced-rollback",
    tab: "statefulset",
    text: "An update to an image that never pulls breaks web-2, and the rolling update stops there. Reverting the template is not enough: with OrderedReady the controller waits for the broken web-2 to become Running and Ready, which it never will. You must delete it; it is then recreated from the reverted template.",
    observe: (c, m) => {
      if (c.time < 60) m.rev0 ??= oneRevision(c);
    },
    steps: [
      { text: "At 1m the new image never pulls: web-2 is stuck (ImagePullBackOff); web-0 and web-1 are untouched.", check: (c) => broken(pod(c, "web-2")) && ready(c, ["web-0", "web-1"]) },
      { text: "The template is reverted at 3m — and web-2 stays broken: the controller still waits for it.", check: (c) => c.time >= 210 && c.time < 300 && broken(pod(c, "web-2")) },
      { text: "web-2 is deleted by hand at 5m and recreated from the reverted template: three ready pods at the old revision.", check: (c, m) => c.time >= 300 && oneRevision(c) === m.rev0 && !broken(pod(c, "web-2")) },
    ],
  },
  {
    id: "ds-follows-nodes",
    title: "DaemonSet: following nodes as they join, leave and get tainted",
    scenario: "daemonset-fluentd",
    tab: "daemonset",
    text: "A DaemonSet asks of every node nodeShouldRunDaemonPod: do nodeSelector, node affinity and taints allow a pod here, and may an existing one stay? The DaemonSet tab shows the answer and its reason for each node as nodes join, get tainted, fail and leave.",
    steps: [
      { text: "One fluentd pod per node — the control plane too: its NoSchedule taint is tolerated.", check: (c) => ["control-plane", "worker-1", "worker-2"].every((n) => daemonOn(c, "fluentd-elasticsearch", n).length === 1) },
      { text: "worker-3 joins at 1m and gets its pod.", check: (c) => daemonOn(c, "fluentd-elasticsearch", "worker-3").length === 1 },
      { text: "worker-1 is tainted dedicated=logging-off:NoExecute at 2m: not tolerated, its pod is deleted.", check: (c) => c.time >= 120 && node(c, "worker-1")?.taints.some((t) => t.endsWith(":NoExecute")) && !daemonOn(c, "fluentd-elasticsearch", "worker-1").length },
      { text: "worker-2 becomes unreachable at 3m: its pod stays (daemon pods tolerate unreachable:NoExecute), but no new one would be placed there.", check: (c) => c.time >= 180 && node(c, "worker-2")?.ready !== "True" && daemonOn(c, "fluentd-elasticsearch", "worker-2").length === 1 },
      { text: "worker-3 is deleted at 5m: its pod goes with it.", check: (c) => c.time >= 300 && !node(c, "worker-3") && !c.snap.pods.some((p) => p.node === "worker-3") },
    ],
  },
  {
    id: "ds-eligibility",
    title: "DaemonSet: which nodes are eligible",
    scenario: "daemonset-node-eligibility",
    tab: "daemonset",
    text: "ssd-monitor selects nodes labelled disk=ssd. A cordoned node still gets its daemon pod (daemon pods tolerate unschedulable); an untolerated NoSchedule taint keeps it away. Relabelling nodes moves the pods.",
    steps: [
      { text: "node-a and the cordoned node-d run a pod; node-b (no label) and node-c (tainted) do not.", check: (c) => ["node-a", "node-d"].every((n) => daemonOn(c, "ssd-monitor", n).length === 1) && ["node-b", "node-c"].every((n) => !daemonOn(c, "ssd-monitor", n).length) },
      { text: "node-b is labelled disk=ssd at 1m and gets a pod.", check: (c) => daemonOn(c, "ssd-monitor", "node-b").length === 1 },
      { text: "node-a loses its label at 2m: its pod is deleted.", check: (c) => c.time >= 120 && !daemonOn(c, "ssd-monitor", "node-a").length && !c.snap.pods.some((p) => p.node === "node-a" && p.ownerName === "ssd-monitor") },
    ],
  },
];
