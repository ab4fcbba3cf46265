// Lessons: short guided tours over the built-in scenarios. Each step's `check(ctx, mem)` looks at
// the current frame — ctx = {time, snap, rollouts, autoscalers, samples, events, batch, pdbs, evictions} — and turns green once it
// holds (samples: the rollouts the worker sampled at each event since the previous frame).
// `observe(ctx, mem)` (optional) runs on every frame first to remember things across time.
import { BATCH_LESSONS } from "./batch.js";
import { WORKLOAD_LESSONS } from "./workloads.js";
import { HPA_LESSONS } from "./hpa.js";

const pods = (ctx, pred = () => true) => ctx.snap.pods.filter(pred);
const live = (ctx, pred = () => true) => pods(ctx, (p) => !p.terminating && pred(p));
const owned = (ctx, kind, name) => live(ctx, (p) => p.ownerKind === kind && p.ownerName === name);
const pod = (ctx, name) => ctx.snap.pods.find((p) => p.name === name);
const node = (ctx, name) => ctx.snap.nodes.find((n) => n.name === name);
const deploy = (ctx, name) => ctx.rollouts.find((d) => d.name === name);
const newRs = (d) => d?.replicaSets.find((r) => r.isNew);
const oldRss = (d) => d?.replicaSets.filter((r) => !r.isNew) ?? [];
const sum = (list, f) => list.reduce((n, x) => n + f(x), 0);
const event = (ctx, reason) => ctx.events.some((e) => e.reason === reason);
const cost = (p) => Number(p.deletionCost || 0) || 0;

/** Remembers every pod seen (uid -> pod) in mem.seen. */
function rememberPods(ctx, mem) {
  mem.seen ??= new Map();
  for (const p of ctx.snap.pods) mem.seen.set(p.uid, p);
}

export const LESSONS = [
  {
    id: "rs-acquisition",
    title: "A ReplicaSet acquires bare pods",
    scenario: "bare-pods-before",
    text: "A ReplicaSet owns any pod its selector matches that has no controller yet — even pods it did not create. Here pod1 and pod2 exist first.",
    steps: [
      { text: "pod1 and pod2 run with no owner.", check: (c) => ["pod1", "pod2"].every((n) => pod(c, n)?.ready && !pod(c, n).ownerKind) },
      { text: "At 30s the frontend ReplicaSet is created and adopts both pods.", check: (c) => ["pod1", "pod2"].every((n) => pod(c, n)?.ownerName === "frontend") },
      { text: "It creates just one pod of its own: 3 replicas in total.", check: (c) => owned(c, "ReplicaSet", "frontend").length === 3 && live(c).length === 3 },
    ],
  },
  {
    id: "isolate-pod",
    title: "Isolating a pod",
    scenario: "isolate-pod",
    text: "Changing a pod's labels so the selector no longer matches releases it: the ReplicaSet drops its ownerReference and makes a replacement, while the pod keeps running for debugging.",
    steps: [
      { text: "The frontend ReplicaSet owns three ready pods.", check: (c) => owned(c, "ReplicaSet", "frontend").filter((p) => p.ready).length === 3 },
      { text: "At 30s frontend-b2zdv is relabelled and released: it has no owner.", check: (c) => pod(c, "frontend-b2zdv") && !pod(c, "frontend-b2zdv").ownerKind },
      { text: "A replacement is created: 3 owned pods plus the isolated one.", check: (c) => owned(c, "ReplicaSet", "frontend").filter((p) => p.ready).length === 3 && live(c).length === 4 },
    ],
  },
  {
    id: "deletion-cost",
    title: "Deletion order and pod-deletion-cost",
    scenario: "scale-down-deletion-cost",
    text: "When a ReplicaSet scales down it ranks its pods with 8 rules. The pod-deletion-cost annotation (rule 4) beats everything after it. Open the Deletion order tab to see the ranking live.",
    observe: rememberPods,
    steps: [
      { text: "Four web pods run.", check: (c) => owned(c, "ReplicaSet", "web").length === 4 },
      {
        text: "At 30s web is scaled to 2: the two lowest-cost pods are deleted.",
        check: (c, m) => {
          const kept = owned(c, "ReplicaSet", "web");
          if (kept.length !== 2 || c.time < 30) return false;
          const gone = [...m.seen.values()].filter((p) => p.ownerName === "web" && !kept.some((k) => k.uid === p.uid));
          return gone.length >= 2 && Math.max(...gone.map(cost)) <= Math.min(...kept.map(cost));
        },
      },
    ],
  },
  {
    id: "doubled-up",
    title: "Doubled-up nodes go first",
    scenario: "scale-down-doubled-up",
    text: "Rule 5: a pod sharing its node with more pods of the same Deployment is ranked higher and deleted first, spreading the survivors.",
    steps: [
      { text: "Four pods on three nodes: one node runs two.", check: (c) => { const n = live(c).map((p) => p.node).filter(Boolean); return n.length === 4 && new Set(n).size === 3; } },
      { text: "Scaled to 3 at 1m: a doubled-up pod goes, one pod per node remains.", check: (c) => { const n = live(c).map((p) => p.node); return c.time >= 60 && n.length === 3 && new Set(n).size === 3; } },
    ],
  },
  {
    id: "node-failure",
    title: "Node failure and eviction",
    scenario: "node-failure",
    text: "When a kubelet stops, the node lifecycle controller marks the node NotReady, taints it, and after the toleration (300 s) its pods are evicted and replaced.",
    steps: [
      { text: "node-2's kubelet stops at 1m: the node turns NotReady.", check: (c) => node(c, "node-2")?.ready !== "True" },
      { text: "Its pod is evicted (Terminating) and replaced: 3 ready pods on healthy nodes.", check: (c) => pods(c, (p) => p.terminating && p.node === "node-2").length > 0 && live(c, (p) => p.ready && p.node !== "node-2").length === 3 },
      { text: "node-2 recovers at 12m: Ready again, the evicted pod is gone.", check: (c) => c.time >= 720 && node(c, "node-2")?.ready === "True" && !pods(c, (p) => p.terminating).length },
    ],
  },
  {
    id: "orphan-cascade",
    title: "Orphan vs cascade",
    scenario: "orphan-readopt",
    text: "Deleting with --cascade=orphan removes the ReplicaSet but leaves its pods; a new ReplicaSet with the same selector adopts them instead of creating new ones.",
    observe: (c, m) => {
      if (c.time < 60 && owned(c, "ReplicaSet", "frontend").length === 3) m.before = owned(c, "ReplicaSet", "frontend").map((p) => p.uid).sort().join();
    },
    steps: [
      { text: "frontend owns three pods.", check: (c) => owned(c, "ReplicaSet", "frontend").length === 3 },
      { text: "Deleted with --cascade=orphan at 1m: the pods stay, with no owner.", check: (c) => c.time >= 60 && live(c).length === 3 && live(c).every((p) => !p.ownerKind) },
      { text: "Re-applied at 2m: the same three pods are adopted, none created.", check: (c, m) => c.time >= 120 && owned(c, "ReplicaSet", "frontend").map((p) => p.uid).sort().join() === m.before },
    ],
  },
  {
    id: "rolling-update",
    title: "A rolling update",
    scenario: "nginx-deployment",
    text: "Changing a Deployment's pod template creates a new ReplicaSet; the controller scales it up and the old one down, keeping at most desired + maxSurge pods and at least desired − maxUnavailable available. Watch the Rollout chart.",
    observe: (c, m) => {
      // Every sample the worker took on the way to this frame, then the frame itself.
      for (const { t, rollouts } of [...c.samples, { t: c.time, rollouts: c.rollouts }]) {
        const d = rollouts.find((x) => x.name === "nginx-deployment");
        if (!d || t < 60) continue;
        m.maxPods = Math.max(m.maxPods ?? 0, sum(d.replicaSets, (r) => r.replicas));
        m.minAvail = Math.min(m.minAvail ?? Infinity, sum(d.replicaSets, (r) => r.available));
      }
    },
    steps: [
      { text: "Three nginx:1.14.2 pods are available (revision 1).", check: (c) => { const d = deploy(c, "nginx-deployment"); return d?.replicaSets.length === 1 && d.replicaSets[0].available === 3; } },
      { text: "At 1m the image changes: a new ReplicaSet (revision 2) starts scaling up.", check: (c) => { const d = deploy(c, "nginx-deployment"); return newRs(d)?.revision === 2 && newRs(d).replicas >= 1; } },
      { text: "The rollout completes: 3 new pods available, the old ReplicaSet at 0.", check: (c) => { const d = deploy(c, "nginx-deployment"); return newRs(d)?.revision === 2 && newRs(d).available === 3 && sum(oldRss(d), (r) => r.replicas) === 0; } },
      { text: "Throughout, at most 4 pods existed (desired + maxSurge) and at least 3 were available (desired − maxUnavailable; 25% of 3 rounds down to 0).", check: (c, m) => { const d = deploy(c, "nginx-deployment"); return newRs(d)?.available === 3 && sum(oldRss(d), (r) => r.replicas) === 0 && m.maxPods <= 4 && m.minAvail >= 3; } },
    ],
  },
  {
    id: "typo-rollback",
    title: "A typo, and rolling back",
    scenario: "deployment-rollback",
    observe: (c, m) => {
      for (const { rollouts } of [...c.samples, { rollouts: c.rollouts }]) {
        if (rollouts.find((x) => x.name === "nginx-deployment")?.progressing === "False/ProgressDeadlineExceeded") m.deadline = true;
      }
    },
    text: "An image typo (nginx:1.161) never pulls: the rollout stops at maxUnavailable, the progress deadline passes, and `rollout undo` goes back.",
    steps: [
      { text: "Revision 2 (nginx:1.16.1) rolls out.", check: (c) => { const d = deploy(c, "nginx-deployment"); return newRs(d)?.revision === 2 && newRs(d).available === 3; } },
      { text: "The typo's pod cannot pull its image: the rollout is stuck.", check: (c) => live(c, (p) => /Image|ErrImage/.test(p.reason)).length > 0 },
      { text: "After the deadline the Progressing condition turns False: ProgressDeadlineExceeded.", check: (c, m) => m.deadline || event(c, "ProgressDeadlineExceeded") },
      { text: "`rollout undo` at 4m10s: 3 healthy pods again.", check: (c) => { const d = deploy(c, "nginx-deployment"); return c.time > 250 && newRs(d)?.available === 3 && !live(c, (p) => p.reason).length; } },
    ],
  },
  {
    id: "rollover",
    title: "Rollover",
    scenario: "deployment-rollover",
    text: "An update during an update: the controller does not wait for the old rollout to finish, it starts the new one at once.",
    steps: [
      { text: "The update at 6s arrives while the first ReplicaSet is still starting.", check: (c) => { const d = deploy(c, "nginx-deployment"); return d?.replicaSets.length >= 2 && sum(oldRss(d), (r) => r.available) < 5; } },
      { text: "The new ReplicaSet ends with 5 available pods; the old one is at 0.", check: (c) => { const d = deploy(c, "nginx-deployment"); return newRs(d)?.available === 5 && sum(oldRss(d), (r) => r.replicas) === 0; } },
    ],
  },
  {
    id: "proportional-scaling",
    title: "Proportional scaling",
    scenario: "deployment-proportional-scaling",
    text: "Scaling a Deployment mid-rollout spreads the extra replicas over its ReplicaSets in proportion to their size.",
    steps: [
      { text: "The rollout blocks at 8 old + 5 new pods (the new image cannot be pulled).", check: (c) => { const d = deploy(c, "nginx-deployment"); return sum(oldRss(d), (r) => r.desired) === 8 && newRs(d)?.desired === 5; } },
      { text: "Scaled to 15 at 2m: old gets 3 more (11), new gets 2 more (7).", check: (c) => { const d = deploy(c, "nginx-deployment"); return sum(oldRss(d), (r) => r.desired) === 11 && newRs(d)?.desired === 7; } },
    ],
  },
  {
    id: "pause-resume",
    title: "Pause and resume",
    scenario: "deployment-pause-resume",
    text: "A paused Deployment takes template edits without rolling them out; resuming starts one rollout with all the changes.",
    steps: [
      { text: "Paused, with a new image and new resources: still one ReplicaSet.", check: (c) => { const d = deploy(c, "nginx-deployment"); return c.time >= 60 && d?.paused && d.replicaSets.length === 1; } },
      { text: "Resumed at 1m30s: exactly one new ReplicaSet.", check: (c) => { const d = deploy(c, "nginx-deployment"); return d && !d.paused && d.replicaSets.length === 2; } },
      { text: "The single rollout completes.", check: (c) => { const d = deploy(c, "nginx-deployment"); return d?.replicaSets.length === 2 && newRs(d)?.available === 3; } },
    ],
  },
  {
    id: "progress-deadline",
    title: "The progress deadline",
    scenario: "deployment-progress-deadline",
    text: "progressDeadlineSeconds only reports: when no progress is made for that long, Progressing turns False. Nothing is rolled back.",
    steps: [
      { text: "At 30s the image changes; the new pods never become ready.", check: (c) => { const d = deploy(c, "web"); return c.time >= 30 && d?.replicaSets.length >= 2 && newRs(d)?.replicas > 0 && newRs(d).available === 0; } },
      { text: "Progressing turns False: ProgressDeadlineExceeded (and nothing else happens).", check: (c) => deploy(c, "web")?.progressing === "False/ProgressDeadlineExceeded" },
    ],
  },
  {
    id: "recreate",
    title: "The Recreate strategy",
    scenario: "deployment-recreate",
    text: "Recreate scales every old pod to zero and waits until they are gone before creating new ones: a short outage, never two versions at once.",
    observe: (c, m) => {
      const revs = new Set(live(c, (p) => p.ownerKind === "ReplicaSet").map((p) => p.revision));
      if (revs.size > 1) m.overlap = true;
      // The instant (in the worker's samples) when no ReplicaSet of db had a pod.
      for (const { t, rollouts } of [...c.samples, { t: c.time, rollouts: c.rollouts }]) {
        const d = rollouts.find((x) => x.name === "db");
        if (d && t >= 30 && sum(d.replicaSets, (r) => r.replicas) === 0) m.emptied = true;
      }
    },
    steps: [
      { text: "After the update at 30s every old pod terminates first: for a while, no pod at all.", check: (c, m) => !!m.emptied },
      { text: "Then 3 new pods come up — and the two versions never ran together.", check: (c, m) => newRs(deploy(c, "db"))?.available === 3 && c.time >= 30 && !m.overlap },
    ],
  },
  {
    id: "statefulset-ordering",
    title: "StatefulSet ordering",
    scenario: "statefulset-web",
    text: "A StatefulSet creates pods one at a time in ordinal order, each once its predecessor is Running and Ready, and scales down from the highest ordinal.",
    observe: (c, m) => {
      m.first ??= {};
      for (const p of c.snap.pods) if (/^web-\d+$/.test(p.name) && m.first[p.name] === undefined) m.first[p.name] = c.time;
    },
    steps: [
      { text: "web-0, web-1, web-2 are created in order and become ready.", check: (c, m) => ["web-0", "web-1", "web-2"].every((n) => pod(c, n)?.ready) && m.first["web-0"] <= m.first["web-1"] && m.first["web-1"] <= m.first["web-2"] },
      { text: "Scaled to 1 at 1m30s: web-2 and then web-1 go; web-0 stays.", check: (c) => c.time >= 90 && live(c, (p) => p.ownerKind === "StatefulSet").map((p) => p.name).join() === "web-0" },
      { text: "Scaled back to 3 at 3m: web-1 and web-2 return.", check: (c) => c.time >= 180 && ["web-0", "web-1", "web-2"].every((n) => pod(c, n)?.ready) },
    ],
  },
  {
    id: "daemonset",
    title: "DaemonSet: one pod per node",
    scenario: "daemonset-fluentd",
    text: "A DaemonSet runs one pod on every eligible node: new nodes get one, tainted nodes lose theirs.",
    steps: [
      { text: "One fluentd pod on each of the three nodes.", check: (c) => { const n = live(c, (p) => p.ownerKind === "DaemonSet" && p.node).map((p) => p.node); return n.length === 3 && new Set(n).size === 3; } },
      { text: "worker-3 joins at 1m and gets its pod.", check: (c) => live(c, (p) => p.ownerKind === "DaemonSet" && p.node === "worker-3").length === 1 },
      { text: "worker-1 is tainted NoExecute at 2m and loses its pod.", check: (c) => c.time >= 120 && !live(c, (p) => p.ownerKind === "DaemonSet" && p.node === "worker-1").length },
      { text: "worker-2's kubelet stops at 3m: the node goes NotReady.", check: (c) => node(c, "worker-2")?.ready !== "True" && c.time >= 180 },
    ],
  },
  {
    id: "pdb-drain",
    title: "Drain a node with a PodDisruptionBudget",
    scenario: "pdb-drain",
    tab: "pdb",
    text: "kubectl drain evicts through the eviction API, which deletes a pod covered by a PodDisruptionBudget only while its status allows a disruption, and takes one each time.",
    steps: [
      { text: "Three web pods on node-1; minAvailable 2 leaves 1 disruption allowed.", check: (c) => { const s = c.pdbs.items[0]?.[0].status; return s?.currentHealthy === 3 && s.desiredHealthy === 2 && s.disruptionsAllowed === 1; } },
      { text: "At 1m node-1 is drained: the first eviction takes it, the next are refused (429).", check: (c) => c.evictions.some((a) => a.ok) && c.evictions.some((a) => a.blocked && a.status?.disruptionsAllowed === 0) },
      { text: "Retrying every 5 s, one more goes each time a replacement on node-2 is ready.", check: (c) => new Set(c.evictions.filter((a) => a.ok).map((a) => a.time)).size === 3 && live(c, (p) => p.ready && p.node === "node-2").length === 3 },
      { text: "The controller never counted fewer than 2 healthy pods.", check: (c) => live(c, (p) => p.ready && p.node === "node-2").length === 3 && c.pdbs.history.every((r) => r[0] < 60 || r[4].currentHealthy >= 2) },
    ],
  },
  ...WORKLOAD_LESSONS,
  ...HPA_LESSONS,
  ...BATCH_LESSONS,
  {
    id: "your-cluster",
    title: "Your cluster: what if…",
    import: true, // opens "Load your cluster"; no built-in scenario
    text: "Load your own cluster's state (kubectl get … -o yaml), then ask what real Kubernetes would do. The imported pods are frozen as dumped; new pods run normally.",
    steps: [
      { text: "Paste or pick your dump under “Load your cluster” and press Import.", check: () => globalThis.document?.body.dataset.imported === "1" },
      { text: "Scale a ReplicaSet or Deployment down (kubectl scale deploy NAME --replicas=N); the Deletion order tab shows which pods go and why.", check: (c) => globalThis.document?.body.dataset.imported === "1" && event(c, "SuccessfulDelete") },
      { text: "Roll out a new image (kubectl set image deploy/NAME CONTAINER=IMAGE).", check: (c) => c.events.some((e) => e.reason === "ScalingReplicaSet" && /Scaled up/.test(e.message)) },
      { text: "Fast-forward (Play at 1000×) until a CronJob creates its next Job.", check: (c) => c.events.some((e) => e.kind === "CronJob" && e.reason === "SuccessfulCreate") },
    ],
  },
];

/** Tracks one lesson's progress: which steps passed and when. */
export class LessonRun {
  constructor(lesson) {
    this.lesson = lesson;
    this.reset();
  }

  reset() {
    this.mem = {};
    this.passed = this.lesson.steps.map(() => null);
  }

  /** Evaluates the steps on a frame; returns whether anything changed. */
  update(ctx) {
    let changed = false;
    if (this.lastTime !== undefined && ctx.time < this.lastTime) {
      this.mem = {};
      this.passed = this.passed.map((t) => (t !== null && t <= ctx.time ? t : null));
      changed = true;
    }
    this.lastTime = ctx.time;
    this.lesson.observe?.(ctx, this.mem);
    this.lesson.steps.forEach((step, i) => {
      if (this.passed[i] !== null) return;
      let ok = false;
      try {
        ok = !!step.check(ctx, this.mem);
      } catch {
        ok = false;
      }
      if (ok) {
        this.passed[i] = ctx.time;
        changed = true;
      }
    });
    return changed;
  }

  get done() {
    return this.passed.every((t) => t !== null);
  }
}
