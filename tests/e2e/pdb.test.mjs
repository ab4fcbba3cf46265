// The PodDisruptionBudget view and the pdb-drain lesson in headless Chromium (the shared harness
// is harness.mjs): the budget's status and pods, every eviction of a drain with the status the
// eviction API decided on, and the tab hidden when a scenario has no budget.
import { test } from "node:test";
import assert from "node:assert/strict";
import { baseUrl, page, problems, shot, settled, seekTo, shareFragment, setup } from "./harness.mjs";

setup();

const text = (sel) => page.locator(sel).textContent();
const items = (sel) => page.$$eval(`${sel} > li`, (els) => els.map((e) => ({ ...e.dataset, text: e.textContent })));

test("the pdb-drain lesson: the budget's status, and why each eviction of the drain was refused", async () => {
  await page.goto(`${baseUrl}?lesson=pdb-drain`);
  assert.equal(await settled(), "ready");
  assert.equal(await text("#lesson-title"), "Drain a node with a PodDisruptionBudget");
  const passed = () => page.$$eval("#lesson-steps li", (els) => els.map((e) => e.classList.contains("passed")));
  assert.equal(await page.isHidden("#tab-pdb"), false);
  assert.equal(await page.getAttribute("#tab-pdb", "aria-selected"), "true");
  assert.equal(await page.isHidden("#panel-pdb"), false);

  await seekTo(page, 30);
  assert.deepEqual(await passed(), [true, false, false, false]);
  assert.equal(await text(".pdb-head"), "selector app=web · minAvailable 2");
  assert.equal(await text(".pdb-status"), "currentHealthy 3 · desiredHealthy 2 (minAvailable 2) · disruptionsAllowed 1 · expectedPods 3");
  assert.equal(await text(".pdb-cond"), "✓ DisruptionAllowed True (SufficientPods)");
  const before = await items(".pdb-pods");
  assert.equal(before.length, 3);
  for (const p of before) {
    assert.equal(p.healthy, "true");
    assert.match(p.text, /^✓ healthy: web-\S+ on node-1 \(Running, ready\)$/);
  }
  assert.equal(await text(".pdb-evictions"), "No eviction yet.");

  // node-1 is drained at 1m; kubectl drain retries the refused evictions every 5 s.
  await seekTo(page, 90);
  const ev = await items(".pdb-evictions");
  const [a, b, c] = before.map((p) => p.pod).sort((x, y) => ev.findIndex((e) => e.pod === x) - ev.findIndex((e) => e.pod === y));
  const rows = ev.map((e) => `${e.text.split(" ")[0]} ${e.pod} ${e.blocked}`);
  assert.deepEqual(rows, [`1m ${a} false`, `1m ${b} true`, `1m ${c} true`, `1m5s ${b} false`, `1m5s ${c} true`, `1m10s ${c} false`]);
  assert.equal(ev[0].text, `1m ✓ evicted ${a} (1 disruption allowed)`);
  const refused = "Cannot evict pod as it would violate the pod's disruption budget.";
  // The first eviction took the one allowed disruption; the API server refused the next ones.
  assert.equal(ev[1].text, `1m ✗ refused ${b}: ${refused}Why: 3 healthy, 2 desired → 1 disruption allowed, already taken by the eviction of ${a} → 0 left.`);
  assert.equal(ev[2].text, `1m ✗ refused ${c}: ${refused}Why: 3 healthy, 2 desired → 1 disruption allowed, already taken by the eviction of ${a} → 0 left.`);
  // 5 s later the replacement of the first pod is ready on node-2: one more disruption.
  assert.equal(ev[4].text, `1m5s ✗ refused ${c}: ${refused}Why: 3 healthy, 2 desired → 1 disruption allowed, already taken by the eviction of ${b} → 0 left.`);
  const after = await items(".pdb-pods");
  assert.equal(after.length, 3);
  for (const p of after) assert.match(p.text, /^✓ healthy: web-\S+ on node-2 \(Running, ready\)$/);
  assert.equal(await text(".pdb-status"), "currentHealthy 3 · desiredHealthy 2 (minAvailable 2) · disruptionsAllowed 1 · expectedPods 3");
  assert.deepEqual(await passed(), [true, true, true, true]);
  assert.equal(await page.locator("#lesson-done").isVisible(), true);
  await shot(page, "pdb-01-drain");
  assert.deepEqual(problems, []);
});

const NO_DISRUPTION = `apiVersion: kubeplay.dev/v1alpha1
kind: Scenario
nodes: [{name: node-1}, {name: node-2, unschedulable: true}]
objects:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: db}
  spec:
    replicas: 2
    selector: {matchLabels: {app: db}}
    template:
      metadata: {labels: {app: db}}
      spec: {containers: [{name: c, image: postgres}]}
- apiVersion: policy/v1
  kind: PodDisruptionBudget
  metadata: {name: db}
  spec:
    maxUnavailable: 0
    selector: {matchLabels: {app: db}}
duration: 2m
`;

test("a drain run in the console is explained too (maxUnavailable 0), and the tab hides without a budget", async () => {
  await page.goto(`${baseUrl}#${shareFragment({ s: NO_DISRUPTION, t: 30 })}`);
  assert.equal(await settled(), "ready");
  await page.click("#tab-pdb");
  assert.equal(await text(".pdb-status"), "currentHealthy 2 · desiredHealthy 2 (2 expected − maxUnavailable 0) · disruptionsAllowed 0 · expectedPods 2");
  assert.equal(await text(".pdb-cond"), "✗ DisruptionAllowed False (InsufficientPods)");

  await page.click("#tab-console");
  await page.fill("#console-input", "drain node-1 --timeout=12s");
  await page.press("#console-input", "Enter");
  await page.waitForFunction(() => /global timeout reached/.test(document.getElementById("console-out").textContent));
  await settled();
  await page.click("#tab-pdb");
  const ev = await items(".pdb-evictions");
  // Two pods, tried at 30 s, 35 s and 40 s, all refused: the budget never allows a disruption.
  assert.equal(ev.length, 6);
  assert.deepEqual(ev.map((e) => e.text.split(" ")[0]), ["30s", "30s", "35s", "35s", "40s", "40s"]);
  for (const e of ev) {
    assert.equal(e.blocked, "true");
    assert.match(e.text, /Why: 2 healthy, 2 desired → 0 disruptions allowed\.$/);
  }
  await shot(page, "pdb-02-console-drain");

  await page.goto(`${baseUrl}?scenario=frontend`);
  assert.equal(await settled(), "ready");
  assert.equal(await page.isHidden("#tab-pdb"), true);
  assert.deepEqual(problems, []);
});
