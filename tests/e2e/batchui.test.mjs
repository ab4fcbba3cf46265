// The CronJob timeline, the Job view and the batch lessons in headless Chromium (the shared
// harness is harness.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { baseUrl, problems, shot, settled, openPage, seekTo, setup } from "./harness.mjs";

setup();

/** Seeks forward in steps of `step` seconds up to `end` (so lessons observe every stage). */
async function walk(p, end, step) {
  let t = Number(await p.evaluate(() => document.body.dataset.time));
  while (t < end) {
    t = Math.min(end, t + step);
    await seekTo(p, t);
  }
}

async function openScenario(name, tab) {
  const p = await openPage(`${baseUrl}?scenario=${name}`);
  assert.equal(await settled(p), "ready");
  await p.click(`#tab-${tab}`);
  return p;
}

const texts = (p, sel) => p.$$eval(sel, (els) => els.map((e) => e.textContent));

test("CronJob timeline: hello's ticks, Jobs, history cleanup and next runs", async () => {
  const p = await openScenario("cronjob-hello", "cronjob");
  await walk(p, 320, 16);
  assert.match(await p.locator("#cronjob-summary").textContent(), /\* \* \* \* \* — At every minute\. concurrencyPolicy Allow;/);
  const runs = (await texts(p, "#cronjob-runs li")).filter((r) => !/due now/.test(r));
  // Ticks 08:01 .. 08:05, newest first: three kept (✓), the two oldest deleted by the limit.
  assert.equal(runs.length, 5, runs.join("\n"));
  assert.match(runs[0], /^2025-01-01 08:05:00Z ✓ hello-\d+ — Complete in \S+s$/);
  assert.equal(runs.filter((r) => / ✓ hello-/.test(r)).length, 3, runs.join("\n"));
  assert.equal(runs.filter((r) => /deleted at .*history limit/.test(r)).length, 2, runs.join("\n"));
  const next = await texts(p, "#cronjob-next li");
  assert.equal(next.length, 10);
  assert.match(next[0], /^2025-01-01T08:06:00Z \(in 10s\)/);
  assert.equal(await p.locator(".cron-svg .tick-run").count(), 5);
  assert.ok((await p.locator(".cron-svg .tick-future").count()) >= 10);
  // The schedule preview (pure Rust through the wasm API).
  await p.fill("#cron-try", "0 0 13 * 5");
  await p.click("#cron-try-run");
  await p.waitForFunction(() => /Friday/.test(document.getElementById("cron-try-out").textContent));
  assert.match(await p.locator("#cron-try-out").textContent(), /At 00:00 on day-of-month 13 or on Friday.*2025-01-03T00:00:00Z/);
  await p.fill("#cron-try", "61 * * * *");
  await p.click("#cron-try-run");
  await p.waitForFunction(() => /✗/.test(document.getElementById("cron-try-out").textContent));
  await shot(p, "batchui-01-cronjob-hello");

  // Fast-forward: one-hour chunks until stopped (hello fires every minute: slow going).
  await p.click("#cronjob-ff");
  await p.waitForFunction(() => Number(document.body.dataset.time) >= 320 + 3600, null, { timeout: 120_000 });
  await p.click("#cronjob-ff"); // stop
  await p.waitForFunction(() => /Fast-forward a week/.test(document.getElementById("cronjob-ff").textContent), null, { timeout: 120_000 });
  await settled(p);
  const after = await texts(p, "#cronjob-runs li");
  assert.match(after.find((r) => !/due now/.test(r)), /^2025-01-0\d (09|1\d|2\d):\d\d:00Z ✓ hello-\d+ — Complete in \S+s$/);
  await p.close();

  // A sparse schedule: a whole week in a few seconds.
  const q = await openScenario("cronjob-friday-13", "cronjob");
  const t0 = Date.now();
  await q.click("#cronjob-ff");
  await q.waitForFunction(() => Number(document.body.dataset.time) >= 7 * 86400 && /Fast-forward a week/.test(document.getElementById("cronjob-ff").textContent), null, { timeout: 120_000 });
  await settled(q);
  console.log(`fast-forward a week of cronjob-friday-13: ${Date.now() - t0} ms`);
  await q.selectOption("#cronjob-window", "604800");
  const week = await texts(q, "#cronjob-runs li");
  assert.ok(week.some((r) => /^2025-06-06 00:00:00Z ✓ lucky-\d+ — Complete/.test(r)), week.join("\n"));
  assert.match(await q.locator("#cronjob-summary").textContent(), /At 00:00 on day-of-month 13 or on Friday/);
  await shot(q, "batchui-02-cronjob-week");
  await q.close();
  assert.deepEqual(problems, []);
});
test("CronJob timeline: Forbid skips, Replace replaces, downtime misses", async () => {
  let p = await openScenario("cronjob-forbid", "cronjob");
  await walk(p, 330, 10);
  let runs = await texts(p, "#cronjob-runs li");
  assert.ok(runs.some((r) => /✗ skipped: concurrencyPolicy Forbid/.test(r)), runs.join("\n"));
  assert.ok(runs.some((r) => /started \S+ late/.test(r)), runs.join("\n"));
  await shot(p, "batchui-03-cronjob-forbid");
  await p.close();

  p = await openScenario("cronjob-replace", "cronjob");
  await walk(p, 300, 10);
  runs = await texts(p, "#cronjob-runs li");
  assert.ok(runs.filter((r) => /↺ report-\d+ — replaced by a newer Job/.test(r)).length >= 3, runs.join("\n"));
  assert.equal(await p.locator(".cron-svg .job-replaced").count() >= 3, true);
  await shot(p, "batchui-04-cronjob-replace");
  await p.close();

  p = await openScenario("cronjob-downtime-deadline", "cronjob");
  await seekTo(p, 6800);
  assert.match(await p.locator("#cronjob-summary").textContent(), /startingDeadlineSeconds 200;/);
  assert.equal(await p.locator(".cron-svg .deadline-window").count(), 1);
  runs = await texts(p, "#cronjob-runs li");
  assert.ok(runs.some((r) => /^2025-01-01 10:20:00Z ✗ missed/.test(r)), runs.join("\n"));
  assert.ok(runs.some((r) => /^2025-01-01 10:21:00Z ✓/.test(r)), runs.join("\n"));
  await shot(p, "batchui-05-cronjob-downtime");
  await p.close();
  assert.deepEqual(problems, []);
});

test("Job view: indexes, back-off, failure policy, TTL countdown", async () => {
  let p = await openScenario("job-indexed", "job");
  await seekTo(p, 3);
  let cells = await p.$$eval("#job-indexes li", (els) => els.map((e) => e.dataset.state));
  assert.equal(cells.length, 5);
  assert.equal(cells.filter((s) => s === "running").length, 3, cells.join());
  await shot(p, "batchui-06-job-indexed");
  await seekTo(p, 40);
  cells = await p.$$eval("#job-indexes li", (els) => els.map((e) => e.textContent));
  assert.deepEqual(cells.map((c) => c.slice(0, 3)), ["✓ 0", "✓ 1", "✓ 2", "✓ 3", "✓ 4"]);
  assert.match(await p.locator("#job-progress").textContent(), /5\/5 succeeded/);
  await p.close();

  p = await openScenario("job-backoff-limit", "job");
  await seekTo(p, 290);
  const backoffs = await p.$$eval("#job-pods tr", (rows) => rows.map((r) => r.lastChild.textContent));
  assert.equal(backoffs.length, 5, backoffs.join("\n"));
  assert.match(backoffs[1], /^1\d(\.\d)?s after the previous failure/);
  assert.match(await p.locator("#job-decisions").textContent(), /condition Failed=True \(BackoffLimitExceeded\): Job has reached the specified backoff limit/);
  await shot(p, "batchui-07-job-backoff");
  await p.close();

  p = await openScenario("job-pod-failure-policy", "job");
  await seekTo(p, 30);
  const dec = await p.locator("#job-decisions").textContent();
  assert.match(dec, /podFailurePolicy rule: FailJob on exit codes In \[42\] \(container main\)/);
  assert.match(dec, /condition FailureTarget=True \(PodFailurePolicy\)/);
  await p.close();

  p = await openScenario("job-pi-with-ttl", "job");
  await seekTo(p, 40);
  assert.match(await p.locator("#job-ttl").textContent(), /deleted by the ttl-after-finished controller in /);
  await shot(p, "batchui-08-job-ttl");
  await p.close();
  assert.deepEqual(problems, []);
});

const LESSON_PLAN = [
  ["job-patterns", 120, 2],
  ["job-indexed", 60, 2],
  ["job-backoff", 300, 3],
  ["job-pod-failure-policy", 60, 2],
  ["job-suspend", 180, 3],
  ["cronjob-schedules", 330, 10],
  ["cronjob-missed", 6900, 60],
  ["cronjob-concurrency", 360, 10],
  ["cronjob-replace", 330, 10],
  ["ttl-cleanup", 180, 2],
];

for (const [id, end, step] of LESSON_PLAN) {
  test(`lesson ${id} turns green`, async () => {
    const p = await openPage(`${baseUrl}?lesson=${id}`);
    assert.equal(await settled(p), "ready");
    const passed = () => p.$$eval("#lesson-steps li", (els) => els.map((e) => e.classList.contains("passed")));
    assert.ok(!(await passed()).every((x) => x), "the lesson is not complete at t = 0");
    await walk(p, end, step);
    assert.deepEqual(await passed(), (await passed()).map(() => true), `${id}: ${await p.locator("#lesson-steps").textContent()}`);
    assert.equal(await p.locator("#lesson-done").isVisible(), true);
    await shot(p, `batchui-lesson-${id}`);
    await p.close();
    assert.deepEqual(problems, []);
  });
}
