// The CronJob tab's "» Fast-forward a week" on cronjob-hello, end to end: the pipelined chunks
// (the worker runs the next chunk while the page draws), the events read as capped JSON and the
// Events panel that keeps only its newest rows must show what one seek to the same time shows.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { baseUrl, problems, root, settled, openPage, setup } from "./harness.mjs";
import { encodeShare } from "../../www/share.js";

setup();

const WEEK = 7 * 86400;
const rows = (p) => p.$$eval("#events-body tr", (trs) => trs.map((tr) => tr.textContent));

test("fast-forward a week of cronjob-hello lands on the week and shows the week's newest events", async () => {
  const p = await openPage(`${baseUrl}?scenario=cronjob-hello`);
  assert.equal(await settled(p), "ready");
  await p.click("#tab-cronjob");
  const t0 = Date.now();
  await p.click("#cronjob-ff");
  await p.waitForFunction((w) => Number(document.body.dataset.time) >= w &&
    /Fast-forward a week/.test(document.getElementById("cronjob-ff").textContent), WEEK, { timeout: 300_000, polling: 50 });
  console.log(`fast-forward a week of cronjob-hello: ${Date.now() - t0} ms`);
  assert.equal(Number(await p.evaluate(() => document.body.dataset.time)), WEEK);
  const ff = await rows(p);
  assert.equal(ff.length, 1500, "the Events panel keeps its newest 1,500 rows");
  // The newest tick of the week (2025-01-08 08:00:00Z, minute 28,938,720 since the epoch) has its Job.
  const runs = await p.$$eval("#cronjob-runs li", (els) => els.map((e) => e.textContent));
  assert.match(runs[0], /^2025-01-08 08:00:00Z .* hello-28938720 /);

  // The same scenario opened at the week's end by a share link: one run to the week.
  const scenario = readFileSync(path.join(root, "scenarios/cronjob-hello.yaml"), "utf8");
  const fragment = await encodeShare({ scenario, time: WEEK, journal: [] });
  const q = await openPage(`${baseUrl}?watchdog=600000#${fragment}`);
  await q.waitForFunction((w) => Number(document.body.dataset.time) === w, WEEK, { timeout: 600_000 });
  assert.equal(await settled(q), "ready");
  assert.deepEqual(await rows(q), ff, "the share link at the week shows the same Events rows");
  assert.deepEqual(problems, []);
  await p.close();
  await q.close();
});
