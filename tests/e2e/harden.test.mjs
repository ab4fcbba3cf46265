// Hardening of the playground in headless Chromium (harness as tests/e2e/page.test.mjs):
// the scenario text survives reloads and simulator crashes (autosave), a request that hangs the
// worker is cut off by the watchdog (banner, restart, text kept), script and HTML in names,
// labels, annotations, images and event messages are shown as text, and the CSP allows no
// inline script or eval.
import { after, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm, mkdir } from "node:fs/promises";
import { deflateRawSync } from "node:zlib";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

let server;
let baseUrl;
let profile;
let context;
let page;
const problems = []; // console errors and uncaught page errors, checked after each test

/** Runs scripts/serve.sh on a free port; resolves with the URL it prints once listening. */
function startServer() {
  return new Promise((resolve, reject) => {
    server = spawn(path.join(root, "scripts/serve.sh"), [], {
      cwd: root,
      env: { ...process.env, PORT: "0" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true, // own process group, so the build and the server are stopped together
    });
    let out = "";
    const timer = setTimeout(() => reject(new Error(`serve.sh printed no URL in time:\n${out}`)), 600_000);
    const onData = (chunk) => {
      out += chunk;
      const m = out.match(/kubeplay playground: (http:\/\/127\.0\.0\.1:\d+\/www\/)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    server.stdout.setEncoding("utf8").on("data", onData);
    server.stderr.setEncoding("utf8").on("data", (c) => (out += c));
    server.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve.sh exited with ${code} before serving:\n${out}`));
    });
  });
}


before(async () => {
  baseUrl = await startServer();
  profile = await mkdtemp(path.join(tmpdir(), "kubeplay-e2e-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: CHROMIUM_ARGS,
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
});

beforeEach(() => {
  problems.length = 0;
});

after(async () => {
  await context?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
  if (server?.exitCode === null) process.kill(-server.pid, "SIGTERM");
});

const artifacts = path.join(root, "test-artifacts");

async function shot(p, name) {
  await mkdir(artifacts, { recursive: true });
  await p.waitForTimeout(600); // let pod tiles finish gliding
  await p.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });
}

/** Waits until the page has settled (not loading, not playing) and returns its state. */
async function settled(p = page) {
  await p.waitForFunction(() => !["loading", "playing"].includes(document.body.dataset.state), null, { timeout: 60_000 });
  return p.evaluate(() => document.body.dataset.state);
}

async function openPage(url) {
  const p = await context.newPage();
  await p.setViewportSize({ width: 1440, height: 1000 });
  p.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  p.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  await p.goto(url);
  return p;
}

async function seekTo(p, t) {
  const before = await p.evaluate(() => document.body.dataset.time);
  await p.evaluate((v) => {
    const r = document.getElementById("scrubber");
    r.value = String(v);
    r.dispatchEvent(new Event("input", { bubbles: true }));
  }, t);
  await p.waitForFunction((v) => document.body.dataset.time === String(v), t, { timeout: 60_000 }).catch(async () => {
    throw new Error(`seek to ${t} from ${before} did not land: time=${await p.evaluate(() => document.body.dataset.time)}`);
  });
  await settled(p);
}

/** Pod rows of the cluster view's table: [{name, node, state}]. */
async function podRows(p) {
  return p.$$eval("#pod-table tbody tr", (rows) =>
    rows.map((r) => {
      const c = [...r.children].map((td) => td.textContent);
      return { name: c[1], node: c[2], state: c[3] };
    }));
}

function shareFragment(obj) {
  return `v=1&s=${deflateRawSync(Buffer.from(JSON.stringify(obj))).toString("base64url")}`;
}


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
  const p = await openPage(`${baseUrl}?watchdog=300`);
  assert.equal(await settled(p), "ready");
  // Many nodes and pods: loading takes far longer than 300 ms in the worker.
  const heavy = "apiVersion: kubeplay.dev/v1alpha1\nkind: Scenario\nnodes: [{count: 2000, namePrefix: n-}]\nobjects:\n- apiVersion: apps/v1\n  kind: Deployment\n  metadata: {name: big}\n  spec:\n    replicas: 20000\n    selector: {matchLabels: {app: big}}\n    template:\n      metadata: {labels: {app: big}}\n      spec: {containers: [{name: c, image: nginx}]}\n";
  await p.fill("#scenario", heavy);
  await p.click("#run-scenario");
  await p.waitForFunction(() => document.body.dataset.state === "crashed", null, { timeout: 60_000 });
  assert.match(await p.locator("#banner-text").textContent(), /stopped answering \(load took longer than 0\.3 s\).*safe in the editor/);
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
