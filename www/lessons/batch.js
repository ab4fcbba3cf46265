// Lessons on Jobs, CronJobs and TTL cleanup. Same shape as lessons/index.js; the checks read
// ctx.batch (the wasm `batch()` view: CronJobs with ticks, Jobs with pods and conditions),
// ctx.snap and ctx.events. `tab` opens the matching view.

const jobOf = (c, name) => c.batch?.jobs.find((j) => j.name === name);
const cronOf = (c, name) => c.batch?.cronJobs.find((j) => j.name === name);
const jobsOf = (c, cj) => c.batch?.jobs.filter((j) => j.ownerKind === "CronJob" && j.ownerName === cj) ?? [];
const ev = (c, reason, kind, name) => c.events.filter((e) => e.reason === reason && (!kind || e.kind === kind) && (!name || e.name === name));
const cond = (j, type, status = "True") => j?.conditions.find((x) => x.type === type && x.status === status);
const running = (j) => j?.pods.filter((p) => !p.terminating && (p.phase === "Running" || p.phase === "Pending")) ?? [];
/** The scheduled times (since start) of every Job a CronJob created, from its events. */
const createdJobs = (c, cj) => ev(c, "SuccessfulCreate", "CronJob", cj).map((e) => e.message.replace(/^Created job /, ""));

/** The most pods of a Job alive at once, from their [created, finished) intervals (so it holds
 * however coarse the frames), with the indexes alive at that moment. */
function peak(j) {
  let best = { n: 0, indexes: [] };
  for (const p of j?.pods ?? []) {
    if (p.created === null) continue;
    const alive = j.pods.filter((q) => q.created !== null && q.created <= p.created && (q.finished ?? Infinity) > p.created);
    if (alive.length > best.n) best = { n: alive.length, indexes: alive.map((q) => q.index) };
  }
  return best;
}

/** Remembers, per Job, the most pods seen running at once (mem.peak) and the pod names seen. */
function watchJobs(c, m) {
  m.peak ??= {};
  m.pods ??= {};
  for (const j of c.batch?.jobs ?? []) {
    m.peak[j.name] = Math.max(m.peak[j.name] ?? 0, running(j).length);
    m.pods[j.name] ??= new Set();
    for (const p of j.pods) m.pods[j.name].add(p.name);
  }
}

export const BATCH_LESSONS = [
  {
    id: "job-patterns",
    title: "Job patterns: parallel, indexed, work queue",
    scenario: "job-parallel",
    tab: "job",
    text: "A Job with completions 5 and parallelism 2 runs at most two pods at a time, and never more than the completions still missing. Open the Job tab; then load job-indexed and job-work-queue from the Scenario list to compare.",
    observe: watchJobs,
    steps: [
      { text: "Two pods run at once, never more (parallelism 2).", check: (c) => { const j = jobOf(c, "process-items"); return j?.pods.length >= 3 && peak(j).n === 2; } },
      { text: "The Job completes with 5 succeeded pods — five pods in all, none wasted.", check: (c, m) => { const j = jobOf(c, "process-items"); return j?.state === "Complete" && j.succeeded === 5 && peak(j).n <= 2 && m.pods["process-items"].size === 5 && j.pods.length === 5; } },
    ],
  },
  {
    id: "job-indexed",
    title: "Indexed Jobs",
    scenario: "job-indexed",
    tab: "job",
    text: "An Indexed Job gives every pod a completion index 0..completions-1; the Job is done when every index succeeded once (status.completedIndexes).",
    observe: watchJobs,
    steps: [
      { text: "Three pods run at once, with three different indexes.", check: (c) => { const pk = peak(jobOf(c, "indexed-job")); return pk.n === 3 && new Set(pk.indexes).size === 3 && pk.indexes.every((i) => i >= 0); } },
      { text: "completedIndexes reaches 0-4 and the Job is Complete.", check: (c) => { const j = jobOf(c, "indexed-job"); return j?.completedIndexes === "0-4" && j.state === "Complete"; } },
    ],
  },
  {
    id: "job-backoff",
    title: "Back-off and backoffLimit",
    scenario: "job-backoff-limit",
    tab: "job",
    text: "Each pod exits with code 1. The controller waits 10 s, 20 s, 40 s, 80 s before each replacement (doubling), and fails the Job once failures exceed backoffLimit 4. The Job tab shows the back-off before each pod.",
    observe: (c, m) => {
      const j = jobOf(c, "flaky");
      m.created ??= new Map();
      for (const p of j?.pods ?? []) if (p.created !== null) m.created.set(p.name, p.created);
    },
    steps: [
      { text: "The second pod starts at least 10 s after the first failed.", check: (c) => { const j = jobOf(c, "flaky"); const f = j?.pods.find((p) => p.phase === "Failed"); const later = j?.pods.filter((p) => f && p.created > f.finished); return !!later?.length && later[0].created - f.finished >= 10; } },
      { text: "The gaps grow: the last gap between pod creations is at least twice the first.", check: (c, m) => { const t = [...m.created.values()].sort((a, b) => a - b); if (t.length < 4) return false; const gaps = t.slice(1).map((x, i) => x - t[i]); return gaps.at(-1) >= 2 * gaps[0]; } },
      { text: "After 5 failures the Job fails: BackoffLimitExceeded.", check: (c) => { const j = jobOf(c, "flaky"); return j?.failed === 5 && cond(j, "Failed")?.reason === "BackoffLimitExceeded"; } },
    ],
  },
  {
    id: "job-pod-failure-policy",
    title: "podFailurePolicy: fail fast",
    scenario: "job-pod-failure-policy",
    tab: "job",
    text: "A FailJob rule on exit code 42 ends the whole Job at the first matching exit instead of retrying up to backoffLimit 6. The Job tab explains the decision with the controller's condition message.",
    steps: [
      { text: "A pod exits with code 42.", check: (c) => jobOf(c, "job-pod-failure-policy-example")?.pods.some((p) => p.exitCode === 42) },
      { text: "The rule matches: FailureTarget, then Failed with reason PodFailurePolicy — after one failure, not seven.", check: (c) => { const j = jobOf(c, "job-pod-failure-policy-example"); return cond(j, "Failed")?.reason === "PodFailurePolicy" && /exit code 42/.test(cond(j, "Failed").message) && j.failed < 7; } },
    ],
  },
  {
    id: "job-suspend",
    title: "Suspending a Job",
    scenario: "job-suspend",
    tab: "job",
    text: "Setting spec.suspend deletes the Job's active pods without counting them as failures; resuming starts new pods. (Try it yourself: kubectl patch job myjob -p '{\"spec\":{\"suspend\":true}}'.)",
    steps: [
      { text: "Suspended at 10s: Suspended=True, no pod running, no failure counted.", check: (c) => { const j = jobOf(c, "myjob"); return !!cond(j, "Suspended") && running(j).length === 0 && j.failed === 0; } },
      { text: "Resumed at 1m: new pods (not the old ones) run.", check: (c) => { const j = jobOf(c, "myjob"); const r = running(j); return c.time >= 60 && ev(c, "Resumed", "Job", "myjob").length > 0 && r.length > 0 && r.every((p) => p.created >= 60); } },
      { text: "The Job completes.", check: (c) => jobOf(c, "myjob")?.state === "Complete" },
    ],
  },
  {
    id: "cronjob-schedules",
    title: "CronJob schedules and history",
    scenario: "cronjob-hello",
    tab: "cronjob",
    text: "hello runs every minute (* * * * *). Each Job is named after its scheduled minute; only the 3 newest successful Jobs are kept. The CronJob timeline shows ticks, Jobs and the next runs; try a schedule such as 0 0 13 * 5 in the preview box.",
    steps: [
      { text: "The first Job is created at its scheduled minute, 08:01.", check: (c) => { const cj = cronOf(c, "hello"); return jobsOf(c, "hello").some((j) => j.scheduled === cj?.pastTicks[0] && j.created - j.scheduled < 1); } },
      { text: "After 5 runs, only 3 successful Jobs remain: the older ones were deleted (history limit).", check: (c) => createdJobs(c, "hello").length >= 5 && jobsOf(c, "hello").filter((j) => j.state === "Complete").length === 3 && ev(c, "SuccessfulDelete", "CronJob", "hello").length >= 2 },
    ],
  },
  {
    id: "cronjob-missed",
    title: "Missed starts: controller downtime 08:29–10:21",
    scenario: "cronjob-downtime-no-deadline",
    tab: "cronjob",
    text: "The controller manager is down from 08:29 to 10:21. When it comes back it counts the missed schedules: more than 100 without startingDeadlineSeconds, so it warns TooManyMissedTimes — and still starts the most recent one (10:21). The timeline marks every missed tick with ✗. Compare cronjob-downtime-deadline (startingDeadlineSeconds 200).",
    steps: [
      { text: "While the controller is down, ticks pass with no Job (missed).", check: (c) => { const cj = cronOf(c, "every-minute"); const sched = new Set(jobsOf(c, "every-minute").map((j) => j.scheduled)); return !c.snap.controllerManagerRunning && (cj?.pastTicks.filter((t) => !sched.has(t)).length ?? 0) >= 10; } },
      { text: "Back at 10:21: a TooManyMissedTimes warning.", check: (c) => ev(c, "TooManyMissedTimes", "CronJob", "every-minute").length > 0 },
      { text: "The 10:21 Job is started at once, then 10:22 on schedule.", check: (c) => { const names = createdJobs(c, "every-minute"); const m = (iso) => `every-minute-${Date.parse(iso) / 60000}`; return names.includes(m("2025-01-01T10:21:00Z")) && names.includes(m("2025-01-01T10:22:00Z")); } },
    ],
  },
  {
    id: "cronjob-concurrency",
    title: "Concurrency policies: Forbid and Replace",
    scenario: "cronjob-forbid",
    tab: "cronjob",
    text: "Each run takes 90 s but the schedule fires every minute. With Forbid the due run waits (JobAlreadyActive) and runs never overlap; load cronjob-replace to see Replace delete the running Job instead.",
    observe: (c, m) => {
      const r = jobsOf(c, "report").filter((j) => j.state === "Running" && j.active > 0);
      m.overlap = m.overlap || r.length > 1;
    },
    steps: [
      { text: "A run is skipped while the previous Job is active: JobAlreadyActive.", check: (c) => ev(c, "JobAlreadyActive", "CronJob", "report").length > 0 },
      { text: "A Job starts late (after its scheduled minute), and two Jobs never ran at once.", check: (c, m) => !m.overlap && jobsOf(c, "report").some((j) => j.scheduled !== null && j.created - j.scheduled >= 10) },
    ],
  },
  {
    id: "cronjob-replace",
    title: "Concurrency policy Replace",
    scenario: "cronjob-replace",
    tab: "cronjob",
    text: "With Replace, the Job still running at the next schedule time is deleted and a new one created: no Job ever completes here.",
    steps: [
      { text: "A running Job is deleted at the next tick (SuccessfulDelete) and replaced.", check: (c) => ev(c, "SuccessfulDelete", "CronJob", "report").length > 0 && createdJobs(c, "report").length >= 2 },
      { text: "After 4 minutes, still no Job has completed.", check: (c) => c.time >= 240 && !ev(c, "SawCompletedJob", "CronJob", "report").length && jobsOf(c, "report").every((j) => j.state !== "Complete") },
    ],
  },
  {
    id: "ttl-cleanup",
    title: "TTL after finished",
    scenario: "job-pi-with-ttl",
    tab: "job",
    text: "ttlSecondsAfterFinished: 100 — the TTL-after-finished controller deletes the Job (and its pod) 100 s after it finishes. The Job tab counts down.",
    observe: (c, m) => {
      const j = jobOf(c, "pi-with-ttl");
      if (j?.finished !== null && j?.finished !== undefined) m.finished = j.finished;
      if (!j && m.finished !== undefined) m.goneAt ??= c.time;
    },
    steps: [
      { text: "The Job completes and is still there 50 s later: the countdown runs.", check: (c) => { const j = jobOf(c, "pi-with-ttl"); return j?.state === "Complete" && c.time >= j.finished + 50 && j.ttlExpires - c.time <= 50; } },
      { text: "About 100 s after it finished, the Job and its pod are gone — not earlier.", check: (c, m) => m.goneAt !== undefined && m.goneAt >= m.finished + 100 && !c.snap.pods.some((p) => p.ownerName === "pi-with-ttl") },
    ],
  },
];
