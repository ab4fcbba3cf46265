// The CronJob timeline's ticks outside startingDeadlineSeconds (distinct kind, symbol and legend
// entry) versus other missed ticks, in headless Chromium (the shared harness is harness.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { baseUrl, problems, shot, settled, openPage, seekTo, setup } from "./harness.mjs";

setup();

const texts = (p, sel) => p.$$eval(sel, (els) => els.map((e) => e.textContent));

async function openScenario(name) {
  const p = await openPage(`${baseUrl}?scenario=${name}`);
  assert.equal(await settled(p), "ready");
  await p.click("#tab-cronjob");
  return p;
}

test("CronJob timeline: ticks outside startingDeadlineSeconds are told apart", async () => {
  let p = await openScenario("cronjob-downtime-deadline");
  await seekTo(p, 6800);
  await p.selectOption("#cronjob-window", "86400");
  assert.match(await p.locator(".legend-deadline").textContent(), /◇ tick outside startingDeadlineSeconds/);
  const runs = await texts(p, "#cronjob-runs li");
  // The controller came back at 10:21:00 and looked back 200 s (to 10:17:40): 10:17 and older
  // were never considered; 10:18 .. 10:20 were, but only the most recent (10:21) started.
  const row = (hm) => runs.find((r) => r.startsWith(`2025-01-01 ${hm}:00Z`)) ?? "";
  assert.match(row("10:17"), /◇ missed: outside startingDeadlineSeconds \(200s\): when the controller next started a Job \(at 2025-01-01T10:21:00Z\) it looked back only to 2025-01-01T10:17:40Z/, runs.join("\n"));
  assert.match(row("10:20"), /✗ missed: kube-controller-manager was not running at this time; at 2025-01-01T10:21:00Z only the most recent schedule time \(2025-01-01T10:21:00Z\) was started/, runs.join("\n"));
  assert.match(row("10:21"), /✓/);
  assert.ok((await p.locator("#cronjob-runs li.run-deadline").count()) >= 20);
  assert.equal(await p.locator("#cronjob-runs li.run-deadline", { hasText: "10:20:00Z" }).count(), 0);
  assert.ok((await p.locator(".cron-svg .tick-deadline").count()) > 100);
  assert.equal(await p.locator(".cron-svg .tick-missed").count(), 3);
  await shot(p, "jobtables-01-cronjob-deadline");
  await p.close();

  // Without a deadline nothing is told as outside it.
  p = await openScenario("cronjob-downtime-no-deadline");
  await seekTo(p, 6800);
  await p.selectOption("#cronjob-window", "86400");
  assert.equal(await p.locator(".cron-svg .tick-deadline").count(), 0);
  assert.equal(await p.locator("#cronjob-runs li.run-deadline").count(), 0);
  assert.ok((await texts(p, "#cronjob-runs li")).some((r) => /✗ missed: .*TooManyMissedTimes/.test(r)));
  await p.close();
  assert.deepEqual(problems, []);
});
