// The playground in headless Chromium: `node --test tests/e2e/` (scripts/test.sh).
//
// Starts the README's serve command (scripts/serve.sh with PORT=0, so a free port), opens
// /www/ with playwright-core driving Debian's /usr/bin/chromium, and checks the page as a user
// meets it: loading, a lesson played step by step, the deletion order against explainScaleDown,
// share links reopening the same state, and hostile links that must neither run nor break it.
// Screenshots go to test-artifacts/ (gitignored).
import { test } from "node:test";
import assert from "node:assert/strict";
import { deflateRawSync } from "node:zlib";
import { baseUrl, page, problems, shot, settled, openPage, seekTo, podRows, shareFragment, setup } from "./harness.mjs";

setup();

test("the playground loads the wasm module in a worker and shows the cluster", async () => {
  const wasm = page.waitForResponse((r) => r.url().endsWith(".wasm"));
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.goto(baseUrl);
  const response = await wasm;
  assert.equal(response.status(), 200);
  assert.equal(response.headers()["content-type"], "application/wasm");
  assert.equal(await settled(), "ready");
  assert.equal(page.workers().length, 1, "the simulation runs in a Web Worker");
  const csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', "content");
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
  assert.doesNotMatch(csp, /unsafe-inline/);
  assert.equal(await page.inputValue("#scenario-select"), "nginx-deployment");
  assert.match(await page.locator("#cluster-summary").textContent(), /^3 nodes \(3 Ready\) · \d+ pods/);
  const nodeStates = await page.$$eval(".cluster-svg .node-state", (els) => els.map((e) => e.textContent));
  assert.deepEqual(nodeStates, ["Ready", "Ready", "Ready"]);
  // Stepping moves virtual time to the next event, until the pods are ready.
  const time = () => page.evaluate(() => Number(document.body.dataset.time));
  const ready = async () => (await podRows(page)).filter((p) => p.state === "Ready").length;
  for (let i = 0; i < 60 && (await ready()) < 3; i++) {
    const t0 = await time();
    await page.click("#step");
    await page.waitForFunction((t) => Number(document.body.dataset.time) > t, t0);
    await settled();
  }
  assert.equal(await ready(), 3);
  assert.ok((await time()) > 0);
  // Keyboard: R rewinds to 0.
  await page.locator("body").press("r");
  await page.waitForFunction(() => document.body.dataset.time === "0");
  await shot(page, "01-loaded");
  assert.deepEqual(problems, []);
});

test("the rolling-update lesson turns its steps green as the rollout proceeds", async () => {
  await page.goto(`${baseUrl}?lesson=rolling-update`);
  assert.equal(await settled(), "ready");
  assert.equal(await page.locator("#lesson-title").textContent(), "A rolling update");
  const passed = () => page.$$eval("#lesson-steps li", (els) => els.map((e) => e.classList.contains("passed")));
  assert.deepEqual(await passed(), [false, false, false, false]);

  await seekTo(page, 40);
  assert.deepEqual(await passed(), [true, false, false, false]);
  let legend = await page.locator("#rollout-legend").textContent();
  assert.match(legend, /revision 1, new\): 3 pods, 3 available/);
  await shot(page, "02-lesson-step1");

  await seekTo(page, 62);
  assert.deepEqual((await passed()).slice(0, 2), [true, true]);
  legend = await page.locator("#rollout-legend").textContent();
  assert.match(legend, /revision 1, old\)/);
  assert.match(legend, /revision 2, new\)/);
  assert.match(await page.locator("#rollout-status").textContent(), /maxSurge 1 · maxUnavailable 0/);
  await shot(page, "03-lesson-rollout");

  await page.selectOption("#speed", "1000");
  await page.click("#play");
  await page.waitForSelector("#lesson-done:not([hidden])", { timeout: 60_000 });
  await settled();
  assert.deepEqual(await passed(), [true, true, true, true]);
  legend = await page.locator("#rollout-legend").textContent();
  assert.match(legend, /revision 2, new\): 3 pods, 3 available/);
  assert.match(legend, /revision 1, old\): 0 pods/);
  await shot(page, "04-lesson-done");
  assert.deepEqual(problems, []);
});

let shareSource;
test("the deletion order shown is explainScaleDown's, and a scale-down follows it", async () => {
  await page.goto(`${baseUrl}?scenario=frontend`);
  assert.equal(await settled(), "ready");
  await seekTo(page, 45);
  await page.click("#tab-deletion");
  await page.waitForSelector("#deletion-order .del-pod");
  assert.equal(await page.inputValue("#deletion-owner"), "ReplicaSet/default/frontend");
  await page.fill("#deletion-replicas", "1");
  await page.waitForFunction(() => document.querySelectorAll("#deletion-order .del-pod.delete").length === 2);
  const shown = await page.$$eval("#deletion-order .del-pod", (els) =>
    els.map((e) => ({ name: e.dataset.name, del: e.classList.contains("delete") })));
  const rules = await page.$$eval("#deletion-order .del-rule", (els) => els.map((e) => e.textContent));
  // The same question asked of a fresh simulation built from the same text, in the page.
  shareSource = await page.inputValue("#scenario");
  const expected = await page.evaluate(async (src) => {
    const m = await import("../pkg/kubeplay.js");
    await m.default();
    const sim = new m.Simulation(src);
    sim.runUntil(45);
    const e = sim.explainScaleDown("rs", "default", "frontend", 1);
    sim.free();
    return e;
  }, shareSource);
  assert.deepEqual(shown, expected.pods.map((p) => ({ name: p.name, del: p.delete })));
  assert.equal(rules.length, expected.comparisons.length);
  rules.forEach((r, i) => assert.ok(r.includes(expected.comparisons[i].rule ? expected.comparisons[i].text : "no rule"), r));
  await shot(page, "05-deletion-order");

  await page.click("#deletion-scale");
  await settled();
  await seekTo(page, 55);
  const alive = (await podRows(page)).filter((p) => p.state !== "Terminating").map((p) => p.name);
  assert.deepEqual(alive, expected.pods.filter((p) => !p.delete).map((p) => p.name));
  const console_ = await page.locator("#console-out").textContent();
  assert.match(console_, /kubectl scale rs frontend -n default --replicas=1/);
  assert.deepEqual(problems, []);
});

test("a share link reopens the same scenario, commands and time in a fresh page", async () => {
  await page.click("#share");
  await page.waitForFunction(() => document.body.dataset.shareLink);
  const link = await page.evaluate(() => document.body.dataset.shareLink);
  assert.match(link, /#v=1&s=[A-Za-z0-9_-]+$/);
  const expect = {
    clock: await page.locator("#clock").textContent(),
    pods: await podRows(page),
    summary: await page.locator("#cluster-summary").textContent(),
  };
  const fresh = await openPage(link);
  assert.equal(await settled(fresh), "ready");
  assert.equal(await fresh.inputValue("#scenario"), shareSource);
  assert.equal(await fresh.locator("#clock").textContent(), expect.clock);
  assert.deepEqual(await podRows(fresh), expect.pods);
  assert.equal(await fresh.locator("#cluster-summary").textContent(), expect.summary);
  await shot(fresh, "06-shared");
  await fresh.close();
  assert.deepEqual(problems, []);
});

test("hostile and broken links run nothing and leave the page usable", async () => {
  const evil = "<img src=x onerror=window.pwned=1><script>window.pwned=2</script>";
  const scenario = `apiVersion: kubeplay.dev/v1alpha1\nkind: Scenario\nmetadata:\n  name: evil\n  description: "${evil}"\nobjects:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: "${evil}"\n  spec:\n    containers:\n    - name: c\n      image: busybox\n`;
  let p = await openPage(`${baseUrl}#${shareFragment({ s: scenario, t: 30 })}`);
  assert.equal(await settled(p), "error");
  assert.equal(await p.inputValue("#scenario"), scenario, "the linked text is kept in the editor");
  assert.match(await p.locator("#editor-error").textContent(), /<img src=x onerror=window\.pwned=1>/);
  // objects[0] is marked inline: line 7 of the text.
  assert.equal(await p.locator("#editor .ln-error").textContent(), "7");
  assert.match(await p.locator("#banner-text").textContent(), /shared scenario has an error/);
  assert.equal(await p.locator("body img, body script:not([src])").count(), 0, "nothing was parsed as HTML");
  assert.equal(await p.evaluate(() => window.pwned), undefined);
  await shot(p, "07-hostile");
  // Still usable: a built-in scenario loads and runs.
  await p.selectOption("#scenario-select", "frontend");
  assert.equal(await settled(p), "ready");
  assert.match(await p.locator("#cluster-summary").textContent(), /^3 nodes/);
  await p.close();

  // An annotation that passes validation is shown as text in the object panel.
  const annotated = `apiVersion: v1\nkind: Pod\nmetadata:\n  name: tricky\n  annotations:\n    note: "${evil}"\nspec:\n  containers:\n  - name: c\n    image: busybox\n`;
  p = await openPage(`${baseUrl}#${shareFragment({ s: annotated, t: 20 })}`);
  assert.equal(await settled(p), "ready");
  await p.click('.pod[data-name="tricky"]');
  await p.waitForFunction(() => document.getElementById("detail-yaml").textContent.includes("note:"));
  assert.match(await p.locator("#detail-yaml").textContent(), /onerror=window\.pwned=1/);
  assert.equal(await p.locator("body img").count(), 0);
  assert.equal(await p.evaluate(() => window.pwned), undefined);
  await p.close();

  // A payload that inflates past the cap is refused before it is inflated in full.
  const huge = shareFragment({ s: "a".repeat(4 * 1024 * 1024), t: 0 });
  assert.ok(huge.length < 20_000, "deflate makes it small on the wire");
  p = await openPage(`${baseUrl}#${huge}`);
  assert.equal(await settled(p), "ready");
  assert.match(await p.locator("#banner-text").textContent(), /larger than 256 KiB.*default scenario is loaded/);
  assert.equal(await p.inputValue("#scenario-select"), "nginx-deployment");
  await p.close();

  // Garbage, a wrong version, and a valid deflate stream of something that is not our JSON.
  for (const [frag, why] of [
    ["v=1&s=%%%not-base64", /damaged/],
    ["v=9&s=AAAA", /unsupported share link version/],
    [`v=1&s=${deflateRawSync(Buffer.from("[1,2,3]")).toString("base64url")}`, /holds no scenario/],
    [shareFragment({ s: "kind: Pod", t: -5 }), /time is invalid/],
  ]) {
    p = await openPage(`${baseUrl}#${frag}`);
    assert.equal(await settled(p), "ready", frag);
    assert.match(await p.locator("#banner-text").textContent(), why);
    await p.close();
  }
  assert.deepEqual(problems, []);
});

test("embed mode shows the cluster and the controls only", async () => {
  const p = await openPage(`${baseUrl}?embed=1&scenario=daemonset-fluentd`);
  assert.equal(await settled(p), "ready");
  assert.equal(await p.locator("header.top").isVisible(), false);
  assert.equal(await p.locator("#editor").isVisible(), false);
  assert.equal(await p.locator("#cluster").isVisible(), true);
  assert.equal(await p.locator("#play").isVisible(), true);
  await seekTo(p, 260);
  const states = await p.$$eval(".cluster-svg .node-state", (els) => els.map((e) => e.textContent));
  assert.ok(states.some((s) => s.startsWith("NotReady")), states.join());
  await shot(p, "08-embed");
  await p.close();
  assert.deepEqual(problems, []);
});

test("every lesson's steps all turn green when its scenario is played to the end", async () => {
  const ids = await page.evaluate(async () => (await import("./lessons/index.js")).LESSONS.filter((l) => !l.import).map((l) => l.id));
  assert.equal(ids.length, 34);
  const unfinished = [];
  for (const id of ids) {
    await page.goto(`${baseUrl}?lesson=${id}`);
    assert.equal(await settled(), "ready", id);
    await page.selectOption("#speed", "1000");
    await page.click("#play");
    await page.waitForFunction(() => /End of the scenario/.test(document.getElementById("status").textContent), null, { timeout: 120_000 });
    const steps = await page.$$eval("#lesson-steps li", (els) => els.map((e) => [e.classList.contains("passed"), e.textContent]));
    for (const [ok, text] of steps) if (!ok) unfinished.push(`${id}: ${text}`);
    if (id === "node-failure") await shot(page, "09-lesson-node-failure");
  }
  assert.deepEqual(unfinished, []);
  assert.deepEqual(problems, []);
});

test("editing a pod's deletion cost in the deletion view re-ranks it first", async () => {
  await page.goto(`${baseUrl}?scenario=frontend`);
  assert.equal(await settled(), "ready");
  await seekTo(page, 45);
  await page.click("#tab-deletion");
  await page.fill("#deletion-replicas", "2");
  await page.waitForFunction(() => document.querySelectorAll("#deletion-order .del-pod.delete").length === 1);
  const before = await page.$$eval("#deletion-order .del-pod", (els) => els.map((e) => e.dataset.name));
  const last = before[before.length - 1];
  // A lower pod-deletion-cost outranks every later rule (rule 4 of the ranking).
  await page.fill(`#deletion-order input[data-pod="${last}"]`, "-5");
  await page.click(`#deletion-order .del-pod[data-name="${last}"] .cost-set`);
  await page.waitForFunction(
    (name) => document.querySelector("#deletion-order .del-pod.delete")?.dataset.name === name, last);
  const row = await page.locator(`#deletion-order .del-pod[data-name="${last}"]`).textContent();
  assert.match(row, /cost -5/);
  const rule = await page.locator("#deletion-order .del-rule").first().textContent();
  assert.match(rule, /deletion.cost/i);
  assert.match(await page.locator("#console-out").textContent(),
    new RegExp(`kubectl annotate pod ${last} -n default controller.kubernetes.io/pod-deletion-cost=-5 --overwrite`));
  // Not an int32: the API server's own error reaches the console, the page stays usable.
  await page.fill(`#deletion-order input[data-pod="${before[0]}"]`, "99999999999");
  await page.click(`#deletion-order .del-pod[data-name="${before[0]}"] .cost-set`);
  await page.waitForFunction(() => /Invalid value/.test(document.querySelector("#console-out").textContent));
  await shot(page, "05b-deletion-cost");
  assert.deepEqual(problems, []);
});
