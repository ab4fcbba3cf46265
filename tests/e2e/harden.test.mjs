// Hardening of the playground in headless Chromium (harness: tests/e2e/harness.mjs):
// the scenario text survives reloads and simulator crashes (autosave), a request that hangs the
// worker is cut off by the watchdog (banner, restart, text kept), script and HTML in names,
// labels, annotations, images and event messages are shown as text, and the CSP allows no
// inline script or eval.
import { test } from "node:test";
import assert from "node:assert/strict";
import { baseUrl, page, problems, shot, settled, openPage, shareFragment, setup } from "./harness.mjs";

setup();

const EVIL = "<img src=x onerror=window.pwned=1><script>window.pwned=2</script>";

test("the CSP allows no inline script, no eval and no foreign origin", async () => {
  const p = await openPage(baseUrl);
  assert.equal(await settled(p), "ready");
  const csp = await p.getAttribute('meta[http-equiv="Content-Security-Policy"]', "content");
  assert.doesNotMatch(csp, /unsafe-inline|(?<!wasm-)unsafe-eval|\*|https?:/);
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'(;|$)/);
  assert.equal(await p.locator("script:not([src])").count(), 0, "no inline scripts in the page");
  await p.close();
  assert.deepEqual(problems, []);
});

test("the scenario text is autosaved and survives a reload", async () => {
  const p = await openPage(baseUrl);
  assert.equal(await settled(p), "ready");
  const mine = "# my own work, not yet loaded\napiVersion: kubeplay.dev/v1alpha1\nkind: Scenario\nobjects: []\n";
  await p.fill("#scenario", mine);
  await p.waitForFunction((t) => localStorage.getItem("kubeplay.draft.v1") === t, mine);
  await p.reload();
  await settled(p);
  assert.equal(await p.inputValue("#scenario"), mine, "the draft is back in the editor");
  // Explicitly asking for a built-in scenario still works, and the draft stays stored.
  await p.goto(`${baseUrl}?scenario=frontend`);
  assert.equal(await settled(p), "ready");
  assert.equal(await p.inputValue("#scenario-select"), "frontend");
  assert.equal(await p.evaluate(() => localStorage.getItem("kubeplay.draft.v1")), mine);
  await p.evaluate(() => localStorage.removeItem("kubeplay.draft.v1"));
  await p.close();
  assert.deepEqual(problems, []);
});

test("a request that hangs the worker is stopped by the watchdog; the text is kept", async () => {
  // 3 s: enough for the page's own first load (compiling the module and loading the default
  // scenario took more than 0.3 s on a cold, busy 2-core machine, which tripped the watchdog
  // before the test began), far too little for the heavy scenario below.
  const p = await openPage(`${baseUrl}?watchdog=3000`);
  assert.equal(await settled(p), "ready");
  // Many nodes and pods: loading takes far longer than 3 s in the worker (20,000 pods created
  // and scheduled at the first instant; natively over ten seconds).
  const heavy = "apiVersion: kubeplay.dev/v1alpha1\nkind: Scenario\nnodes: [{count: 2000, namePrefix: n-}]\nobjects:\n- apiVersion: apps/v1\n  kind: Deployment\n  metadata: {name: big}\n  spec:\n    replicas: 20000\n    selector: {matchLabels: {app: big}}\n    template:\n      metadata: {labels: {app: big}}\n      spec: {containers: [{name: c, image: nginx}]}\n";
  await p.fill("#scenario", heavy);
  await p.click("#run-scenario");
  await p.waitForFunction(() => document.body.dataset.state === "crashed", null, { timeout: 60_000 });
  assert.match(await p.locator("#banner-text").textContent(), /stopped answering \(load took longer than 3 s\).*safe in the editor/);
  assert.equal(await p.inputValue("#scenario"), heavy, "the text survives the restart");
  assert.equal(await p.evaluate(() => localStorage.getItem("kubeplay.draft.v1")), heavy, "and is autosaved");
  // The user trims the scenario and restarts: the fresh worker loads the editor's text.
  const light = heavy.replace("count: 2000", "count: 2").replace("replicas: 20000", "replicas: 2");
  await p.fill("#scenario", light);
  await p.click("#banner-restart");
  assert.equal(await settled(p), "ready");
  assert.match(await p.locator("#cluster-summary").textContent(), /^2 nodes/);
  await p.evaluate(() => localStorage.removeItem("kubeplay.draft.v1"));
  await p.close();
  assert.deepEqual(problems.filter((x) => !/terminated|worker/i.test(x)), []);
});

test("script and HTML in labels, annotations, images and event messages are shown as text", async () => {
  // Label values cannot hold markup (validation), so the markup goes where it is allowed:
  // annotations, the image (and so the kubelet's "Pulling image" event), and a label key prefix.
  const scenario = `apiVersion: kubeplay.dev/v1alpha1
kind: Scenario
objects:
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: evil
    labels: {app: evil}
    annotations: {note: ${JSON.stringify(EVIL)}}
  spec:
    replicas: 2
    selector: {matchLabels: {app: evil}}
    template:
      metadata:
        labels: {app: evil}
        annotations: {note: ${JSON.stringify(EVIL)}}
      spec:
        containers:
        - name: c
          image: ${JSON.stringify(EVIL.replace(/ /g, "_"))}
`;
  const p = await openPage(`${baseUrl}#${shareFragment({ s: scenario, t: 30 })}`);
  assert.equal(await settled(p), "ready");
  await shot(p, "harden-evil");
  // The image shows up in events (Pulling image "...") as text.
  const eventsText = await p.evaluate(() => document.getElementById("panel-events").textContent);
  assert.match(eventsText, /<img_src=x_onerror=window\.pwned=1>/);
  await p.click(".pod >> nth=0");
  await p.waitForFunction(() => document.getElementById("detail-yaml").textContent.includes("note:"));
  assert.match(await p.locator("#detail-yaml").textContent(), /onerror=window\.pwned=1/);
  assert.equal(await p.locator("body img, body script:not([src])").count(), 0, "nothing was parsed as HTML");
  assert.equal(await p.evaluate(() => window.pwned), undefined);
  await p.close();
  assert.deepEqual(problems, []);
});
