// The autoscaling view and lessons in headless Chromium (the shared harness is harness.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { baseUrl, page, problems, shot, settled, seekTo, setup } from "./harness.mjs";

setup();

test("the hpa-frontend lesson follows the autoscaler 3 → 10 → 3 on the Autoscaling tab", async () => {
  await page.goto(`${baseUrl}?lesson=hpa-frontend`);
  assert.equal(await settled(), "ready");
  assert.equal(await page.locator("#lesson-title").textContent(), "Autoscaling the frontend ReplicaSet");
  const passed = () => page.$$eval("#lesson-steps li", (els) => els.map((e) => e.classList.contains("passed")));
  assert.deepEqual(await passed(), [false, false, false, false]);
  assert.equal(await page.getAttribute("#tab-hpa", "aria-selected"), "true");
  assert.equal(await page.isHidden("#panel-hpa"), false);
  assert.match(await page.locator("#hpa-chart").textContent(), /No HorizontalPodAutoscaler/);

  await seekTo(page, 90);
  assert.deepEqual(await passed(), [true, false, false, false]);
  let status = await page.locator("#hpa-status").textContent();
  assert.match(status, /frontend → ReplicaSet\/frontend: 3 replicas \(min 3, max 10, desired 3\)/);
  assert.match(status, /cpu 40%\/50%/);
  assert.match(status, /load 0\.24 cores/);
  assert.match(status, /scale-down window 5m/);
  assert.equal(await page.locator("#hpa-chart path.hpa-load").count(), 1);
  assert.equal(await page.locator("#hpa-chart rect.hpa-window").count(), 1);

  await seekTo(page, 240);
  assert.deepEqual((await passed()).slice(0, 2), [true, true]);
  status = await page.locator("#hpa-status").textContent();
  assert.match(status, /10 replicas/);
  assert.match(status, /cpu 120%\/50%/);
  assert.match(await page.locator("#hpa-conditions").textContent(), /ScalingLimited: True \(TooManyReplicas\)/);
  await shot(page, "hpa-01-scaled-up");

  // The load dropped at 12m; the stabilization window keeps 10 replicas until 17m.
  await seekTo(page, 990);
  assert.deepEqual((await passed()).slice(0, 3), [true, true, true]);
  assert.match(await page.locator("#hpa-status").textContent(), /10 replicas .*cpu 12%\/50%/);
  await seekTo(page, 1030);
  assert.deepEqual(await passed(), [true, true, true, true]);
  assert.match(await page.locator("#hpa-status").textContent(), /3 replicas \(min 3, max 10, desired 3\)/);
  await shot(page, "hpa-02-scaled-back");
  assert.deepEqual(problems, []);
});

test("kubectl autoscale in the console creates an HPA the chart picks up", async () => {
  await page.goto(`${baseUrl}?scenario=frontend`);
  assert.equal(await settled(), "ready");
  await page.click("#tab-console");
  await page.fill("#console-input", "autoscale rs frontend --max=5 --cpu=50%");
  await page.press("#console-input", "Enter");
  await page.waitForFunction(() => /horizontalpodautoscaler.autoscaling\/frontend autoscaled/.test(document.getElementById("panel-console").textContent));
  await page.click("#tab-hpa");
  await page.waitForFunction(() => /frontend → ReplicaSet\/frontend/.test(document.getElementById("hpa-status").textContent));
  assert.match(await page.locator("#hpa-status").textContent(), /cpu <unknown>\/50%/);
  assert.match(await page.locator("#hpa-chart").textContent(), /no synthetic load covers this target/);
  assert.deepEqual(problems, []);
});
