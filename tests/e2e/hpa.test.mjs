// The autoscaling view and lessons in headless Chromium (helpers as in page.test.mjs).
//
// Starts the README's serve command (scripts/serve.sh with PORT=0, so a free port), opens
// /www/ with playwright-core driving Debian's /usr/bin/chromium, and checks the page as a user
// meets it: loading, a lesson played step by step, the deletion order against explainScaleDown,
// share links reopening the same state, and hostile links that must neither run nor break it.
// Screenshots go to test-artifacts/ (gitignored).
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
  await page.fill("#console-input", "autoscale rs frontend --max=5 --cpu-percent=50");
  await page.press("#console-input", "Enter");
  await page.waitForFunction(() => /horizontalpodautoscaler.autoscaling\/frontend autoscaled/.test(document.getElementById("panel-console").textContent));
  await page.click("#tab-hpa");
  await page.waitForFunction(() => /frontend → ReplicaSet\/frontend/.test(document.getElementById("hpa-status").textContent));
  assert.match(await page.locator("#hpa-status").textContent(), /cpu <unknown>\/50%/);
  assert.match(await page.locator("#hpa-chart").textContent(), /no synthetic load covers this target/);
  assert.deepEqual(problems, []);
});
