// Smoke test of the served page in headless Chromium: `node --test tests/e2e/` (scripts/test.sh).
//
// Starts the README's serve command (scripts/serve.sh with PORT=0, so a free port), opens
// /www/ with playwright-core driving Debian's /usr/bin/chromium, and checks that the page loads
// the wasm module, runs its scenario and shows the snapshot, and that errors are shown as text.
import { after, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm, mkdir } from "node:fs/promises";
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

async function waitForRun() {
  await page.waitForFunction(() => document.body.dataset.state !== "loading" && document.body.dataset.state !== "running");
  return page.evaluate(() => document.body.dataset.state);
}

async function items(id) {
  return page.locator(`#${id} li`).allTextContents();
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

test("the page loads the wasm module, runs the scenario and shows the snapshot", async () => {
  const wasm = page.waitForResponse((r) => r.url().endsWith(".wasm"));
  await page.goto(baseUrl);
  const response = await wasm;
  assert.equal(response.status(), 200);
  assert.equal(response.headers()["content-type"], "application/wasm");

  const state = await waitForRun();
  assert.equal(state, "ready", await page.locator("#error").textContent());
  const nodes = await items("nodes");
  assert.deepEqual(
    nodes.map((n) => n.split(/\s+/)[0]),
    ["node-1", "node-2", "node-3"],
  );
  assert.ok(nodes.every((n) => n.includes("Ready=True")), nodes.join("\n"));
  const pods = await items("pods");
  assert.ok(pods.some((p) => p.startsWith("default/standalone ")), pods.join("\n"));
  const status = await page.locator("#status").textContent();
  assert.match(status, /^t = 60s \(2025-01-01T00:01:00Z\): 3 nodes, \d+ pods, 1 workloads, \d+ events$/);
  assert.equal(await page.locator("#error").isHidden(), true);

  if (process.env.E2E_SCREENSHOT) {
    await mkdir(path.dirname(process.env.E2E_SCREENSHOT), { recursive: true });
    await page.screenshot({ path: process.env.E2E_SCREENSHOT, fullPage: true });
  }
  assert.deepEqual(problems, []);
});

test("Run re-runs the edited scenario", async () => {
  await page.locator("#seconds").fill("90");
  await page.locator("#scenario").fill(
    "apiVersion: v1\nkind: Pod\nmetadata:\n  name: solo\nspec:\n  containers:\n  - name: c\n    image: busybox\n",
  );
  await page.evaluate(() => (document.body.dataset.state = "running"));
  await page.locator("#run").click();
  assert.equal(await waitForRun(), "ready");
  assert.deepEqual(
    (await items("pods")).map((p) => p.split(/\s+/)[0]),
    ["default/solo"],
  );
  assert.match(await page.locator("#status").textContent(), /^t = 90s .*: 3 nodes, 1 pods, 0 workloads/);
  assert.deepEqual(problems, []);
});

test("a bad scenario shows the simulator's error as text", async () => {
  const hostile = 'kind: Scenario\n"<img src=x onerror=window.pwned=1>": 1\n';
  await page.locator("#scenario").fill(hostile);
  await page.evaluate(() => (document.body.dataset.state = "running"));
  await page.locator("#run").click();
  assert.equal(await waitForRun(), "error");
  const error = await page.locator("#error").textContent();
  assert.match(error, /unknown field `<img src=x onerror=window\.pwned=1>`/);
  assert.equal(await page.locator("#error img").count(), 0, "error text was parsed as HTML");
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.deepEqual(await items("nodes"), []);
  assert.deepEqual(await items("pods"), []);
  assert.deepEqual(problems, []);
});
