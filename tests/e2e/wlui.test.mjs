// StatefulSet and DaemonSet views and lessons in headless Chromium: `node --test tests/e2e/`.
//
// Same harness as page.test.mjs (scripts/serve.sh with PORT=0, playwright-core driving
// /usr/bin/chromium). Opens each view on its scenario and checks the DOM against what the
// controllers do — ordinal order, the OrderedReady gate, the partition line, per-node eligibility
// reasons — then plays every StatefulSet/DaemonSet lesson until all its steps are green.
// Screenshots go to test-artifacts/ (gitignored).
import { after, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"];

let server;
let baseUrl;
let profile;
let context;
let page;
const problems = [];

function startServer() {
  return new Promise((resolve, reject) => {
    server = spawn(path.join(root, "scripts/serve.sh"), [], {
      cwd: root,
      env: { ...process.env, PORT: "0" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
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
  profile = await mkdtemp(path.join(tmpdir(), "kubeplay-e2e-wlui-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: CHROMIUM_ARGS,
  });
  page = context.pages()[0] ?? (await context.newPage());
  await page.setViewportSize({ width: 1440, height: 1100 });
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

async function shot(name) {
  await mkdir(artifacts, { recursive: true });
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });
}

async function settled() {
  await page.waitForFunction(() => !["loading", "playing"].includes(document.body.dataset.state), null, { timeout: 60_000 });
  return page.evaluate(() => document.body.dataset.state);
}

async function seekTo(t) {
  await page.evaluate((v) => {
    const r = document.getElementById("scrubber");
    r.value = String(v);
    r.dispatchEvent(new Event("input", { bubbles: true }));
  }, t);
  await page.waitForFunction((v) => document.body.dataset.time === String(v), t, { timeout: 60_000 });
  await settled();
}

async function openScenario(name) {
  await page.goto(`${baseUrl}?scenario=${name}`);
  assert.equal(await settled(), "ready");
  assert.equal(await page.inputValue("#scenario-select"), name);
}

/** Opens a tab with the keyboard (focus + Enter), as a keyboard user would. */
async function openTab(name) {
  await page.focus(`#tab-${name}`);
  await page.keyboard.press("Enter");
  await page.waitForSelector(`#panel-${name}:not([hidden])`);
}

/** The StatefulSet view's rows: slots and the partition line, in DOM order. */
async function stsRows() {
  return page.$$eval("#sts-slots > li", (els) => els.map((e) => e.classList.contains("partition-line")
    ? { partition: e.textContent }
    : { name: e.dataset.name, ordinal: Number(e.dataset.ordinal), revisionKind: e.dataset.revisionKind, gate: e.querySelector(".gate")?.textContent ?? "", text: e.textContent }));
}

async function waitSts(pred, arg) {
  await page.waitForFunction(pred, arg, { timeout: 30_000 });
}

test("the StatefulSet view shows ordinals, claims and the OrderedReady gate", async () => {
  await openScenario("statefulset-ordered-failure");
  await openTab("statefulset");
  await seekTo(10);
  await waitSts(() => document.querySelectorAll("#sts-slots > li").length === 3);
  let rows = await stsRows();
  assert.deepEqual(rows.map((r) => r.name), ["web-0", "web-1", "web-2"]);
  assert.deepEqual(rows.map((r) => r.ordinal), [0, 1, 2]);
  assert.equal(rows[0].gate, "");
  assert.match(rows[1].gate, /web-1 waits for web-0 to be Running and Ready$/);
  assert.match(rows[2].gate, /web-2 waits for web-0 to be Running and Ready$/);
  assert.match(rows[1].text, /not created yet/);
  assert.match(await page.locator("#sts-summary").textContent(), /waits for web-0 to be Running and Ready/);
  assert.match(await page.locator("#sts-head").textContent(), /^OrderedReady · RollingUpdate · partition 0/);
  await shot("wlui-01-sts-gate");
  // The recreated web-0 holds web-2 back while web-1 is ready (45 s).
  await seekTo(45);
  await waitSts(() => /web-2 waits for web-0/.test(document.getElementById("sts-slots").textContent));
  rows = await stsRows();
  assert.match(rows[1].text, /Running and Ready/);
  assert.match(rows[2].gate, /web-2 waits for web-0 to be Running and Ready$/);
  // The claims of the web example, one per ordinal.
  await openScenario("statefulset-web");
  await openTab("statefulset");
  await seekTo(60);
  await waitSts(() => document.querySelectorAll("#sts-slots .claim").length === 3);
  const claims = await page.$$eval("#sts-slots .claim", (els) => els.map((e) => e.textContent));
  assert.deepEqual(claims, ["PVC www-web-0 (Bound)", "PVC www-web-1 (Bound)", "PVC www-web-2 (Bound)"]);
  assert.deepEqual(problems, []);
});

test("the StatefulSet view draws the partition line and each pod's revision", async () => {
  await openScenario("statefulset-canary");
  await openTab("statefulset");
  await seekTo(100);
  await waitSts(() => document.getElementById("sts-partition") !== null);
  const rows = await stsRows();
  assert.deepEqual(rows.map((r) => r.name ?? "partition"), ["web-0", "web-1", "partition", "web-2"]);
  assert.match(rows[2].partition, /partition 2: ordinals below 2 keep the current revision; 2 and above get the update revision/);
  assert.deepEqual([rows[0], rows[1], rows[3]].map((r) => r.revisionKind), ["current", "current", "update"]);
  assert.match(rows[0].text, /○ current revision \(web-/);
  assert.match(rows[3].text, /● update revision \(web-/);
  assert.match(rows[0].text, /below the partition \(2\)/);
  assert.match(await page.locator("#sts-summary").textContent(), /^Partition 2: the rolling update stops at ordinal 2; web-0, web-1 keep the current revision/);
  await shot("wlui-02-sts-partition");
  // Lowered to 0 at 3m: no line, every pod at the update revision.
  await seekTo(290);
  await waitSts(() => document.getElementById("sts-partition") === null && document.querySelectorAll("#sts-slots [data-revision-kind=update]").length === 3);
  assert.deepEqual(problems, []);
});

test("the forced-rollback trap shows the controller waiting for the broken pod", async () => {
  await openScenario("statefulset-forced-rollback");
  await openTab("statefulset");
  await seekTo(250);
  await waitSts(() => /web-2 to be Running and Ready/.test(document.getElementById("sts-summary").textContent));
  const rows = await stsRows();
  assert.equal(rows[2].revisionKind, "other");
  assert.match(rows[2].text, /◇ another revision/);
  assert.match(rows[2].text, /ImagePullBackOff|ErrImagePull/);
  await shot("wlui-03-sts-forced-rollback");
  assert.deepEqual(problems, []);
});

/** The DaemonSet view's rows. */
async function dsRows() {
  return page.$$eval("#ds-nodes > li", (els) => els.map((e) => ({
    node: e.dataset.node,
    shouldRun: e.dataset.shouldRun === "true",
    keep: e.dataset.shouldContinueRunning === "true",
    verdict: e.querySelector(".verdict").textContent,
    reason: e.querySelector(".reason").textContent,
    notes: [...e.querySelectorAll(".notes li")].map((x) => x.textContent),
    pods: e.querySelectorAll(".ds-pod").length,
  })));
}

test("the DaemonSet view gives every node's eligibility and its reason", async () => {
  await openScenario("daemonset-node-eligibility");
  await openTab("daemonset");
  await seekTo(30);
  await page.waitForFunction(() => document.querySelectorAll("#ds-nodes > li").length === 4);
  let rows = await dsRows();
  assert.deepEqual(rows.map((r) => [r.node, r.shouldRun, r.keep, r.pods]), [
    ["node-a", true, true, 1],
    ["node-b", false, false, 0],
    ["node-c", false, true, 0],
    ["node-d", true, true, 1],
  ]);
  assert.equal(rows[1].reason, "nodeSelector disk=ssd does not match the node's labels");
  assert.equal(rows[2].reason, "taint dedicated=batch:NoSchedule is not tolerated: no new pod, but a running one may stay");
  assert.match(rows[2].verdict, /◐ node-c: no new pod; a running one may stay/);
  assert.match(rows[3].notes[0], /^cordoned \(spec\.unschedulable\): ignored/);
  assert.match(rows[0].verdict, /✓ node-a: runs a daemon pod/);
  assert.match(rows[1].verdict, /✗ node-b: not eligible/);
  assert.match(await page.locator("#ds-head").textContent(), /^desired 2 · current 2/);
  await shot("wlui-04-ds-eligibility");
  // node-b labelled at 1m, node-a unlabelled at 2m.
  await seekTo(150);
  await page.waitForFunction(() => document.querySelector("#ds-nodes [data-node=node-b]")?.dataset.shouldRun === "true");
  rows = await dsRows();
  assert.deepEqual(rows.map((r) => [r.node, r.shouldRun, r.pods]), [["node-a", false, 0], ["node-b", true, 1], ["node-c", false, 0], ["node-d", true, 1]]);
  // fluentd: tainted NoExecute and unreachable nodes.
  await openScenario("daemonset-fluentd");
  await openTab("daemonset");
  await seekTo(280);
  await page.waitForFunction(() => document.querySelector("#ds-nodes [data-node=worker-2]")?.dataset.shouldRun === "false");
  rows = await dsRows();
  const w1 = rows.find((r) => r.node === "worker-1");
  assert.equal(w1.reason, "taint dedicated=logging-off:NoExecute is not tolerated: no pod is placed, and a running one is evicted");
  const w2 = rows.find((r) => r.node === "worker-2");
  assert.deepEqual([w2.shouldRun, w2.keep, w2.pods], [false, true, 1]);
  assert.match(w2.reason, /unreachable:NoSchedule is not tolerated/);
  assert.ok(w2.notes.some((n) => /unreachable:NoExecute is tolerated/.test(n)), w2.notes.join());
  const cp = rows.find((r) => r.node === "control-plane");
  assert.deepEqual(cp.notes, ["taint node-role.kubernetes.io/control-plane:NoSchedule is tolerated"]);
  await shot("wlui-05-ds-fluentd");
  assert.deepEqual(problems, []);
});

test("every StatefulSet and DaemonSet lesson turns green when played to the end", async () => {
  const ids = await page.evaluate(async () => (await import("./lessons/workloads.js")).WORKLOAD_LESSONS.map((l) => l.id));
  assert.deepEqual(ids, ["sts-ordered-ready", "sts-parallel", "sts-canary", "sts-forced-rollback", "ds-follows-nodes", "ds-eligibility"]);
  const unfinished = [];
  for (const id of ids) {
    await page.goto(`${baseUrl}?lesson=${id}`);
    assert.equal(await settled(), "ready", id);
    const tab = id.startsWith("sts") ? "statefulset" : "daemonset";
    assert.equal(await page.getAttribute(`#tab-${tab}`, "aria-selected"), "true", id);
    const before = await page.$$eval("#lesson-steps li.passed", (els) => els.length);
    assert.ok(before < (await page.$$eval("#lesson-steps li", (els) => els.length)), `${id}: not all green at the start`);
    await page.selectOption("#speed", "30");
    await page.click("#play");
    await page.waitForFunction(() => /End of the scenario/.test(document.getElementById("status").textContent), null, { timeout: 180_000 });
    const steps = await page.$$eval("#lesson-steps li", (els) => els.map((e) => [e.classList.contains("passed"), e.textContent]));
    for (const [ok, text] of steps) if (!ok) unfinished.push(`${id}: ${text}`);
    if (!(await page.isHidden("#lesson-done"))) await shot(`wlui-lesson-${id}`);
  }
  assert.deepEqual(unfinished, []);
  assert.deepEqual(problems, []);
});
