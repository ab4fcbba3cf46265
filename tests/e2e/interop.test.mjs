// "Load your cluster" in headless Chromium: `node --test tests/e2e/interop.test.mjs`.
//
// The harness is page.test.mjs's (scripts/serve.sh with PORT=0, playwright-core driving
// /usr/bin/chromium). Pastes tests/fixtures/cluster-dump.yaml into the page, sees the cluster's
// pods, asks a what-if (scale down) and checks that a bad dump is reported with its path.
import { after, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm, mkdir, readFile } from "node:fs/promises";
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


const DUMP_PODS = [
  "backup-29146290-p7v2c",
  "db-0",
  "db-1",
  "node-exporter-4mz7k",
  "node-exporter-9xq2l",
  "web-7b6f9d4c8-2xkqp",
  "web-7b6f9d4c8-8rjmz",
  "web-7b6f9d4c8-tw4nd",
];

async function importDump(p, text) {
  await p.click("#import-details summary");
  await p.fill("#import-text", text);
  await p.click("#import-run");
}

test("pasting a kubectl dump loads the cluster's own pods, frozen, and answers a what-if", async () => {
  const dump = await readFile(path.join(root, "tests/fixtures/cluster-dump.yaml"), "utf8");
  const p = await openPage(baseUrl);
  assert.equal(await settled(p), "ready");
  await importDump(p, dump);
  await p.waitForFunction(() => document.body.dataset.imported === "1", null, { timeout: 60_000 });
  assert.equal(await settled(p), "ready");
  const rows = await podRows(p);
  assert.deepEqual(rows.map((r) => r.name).sort(), DUMP_PODS);
  const web = rows.find((r) => r.name === "web-7b6f9d4c8-2xkqp");
  assert.equal(web.node, "kind-worker");
  assert.match(await p.inputValue("#scenario"), /Imported by `kubeplay import`/);
  assert.match(await p.textContent("#clock"), /t = 0s/);
  await shot(p, "interop-01-imported");

  // What if web had 2 replicas? Rules 4 and 5: the doubled-up pod without deletion cost goes.
  await p.click("#tab-console");
  await p.fill("#console-input", "scale deploy web --replicas=2");
  await p.press("#console-input", "Enter");
  await p.waitForFunction(() => /scaled/.test(document.getElementById("console-out").textContent), null, { timeout: 60_000 });
  await p.selectOption("#speed", "100");
  await p.click("#play");
  await p.waitForFunction(() => Number(document.body.dataset.time) >= 10, null, { timeout: 60_000 });
  await p.click("#play");
  await settled(p);
  const left = (await podRows(p)).map((r) => r.name).filter((n) => n.startsWith("web-"));
  assert.deepEqual(left.sort(), ["web-7b6f9d4c8-8rjmz", "web-7b6f9d4c8-tw4nd"]);
  await shot(p, "interop-02-scaled");
  await p.close();
  assert.deepEqual(problems, []);
});

test("a bad dump is reported with the item's path and nothing is loaded", async () => {
  const p = await openPage(baseUrl);
  assert.equal(await settled(p), "ready");
  const before = await p.inputValue("#scenario");
  await importDump(p, "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: x}\n  spec: {containers: [{name: c}]}\n");
  await p.waitForSelector("#import-error:not([hidden])");
  const msg = await p.textContent("#import-error");
  assert.match(msg, /^items\[0\] \(Pod x\): The Pod "x" is invalid: spec\.containers\[0\]\.image: Required value$/);
  assert.equal(await p.inputValue("#scenario"), before);
  await p.close();
  assert.deepEqual(problems, []);
});

test("the your-cluster lesson opens the import control and its first step turns green on import", async () => {
  const dump = await readFile(path.join(root, "tests/fixtures/cluster-dump.yaml"), "utf8");
  const p = await openPage(`${baseUrl}?lesson=your-cluster`);
  assert.equal(await settled(p), "ready");
  assert.equal(await p.evaluate(() => document.getElementById("import-details").open), true);
  await p.fill("#import-text", dump);
  await p.click("#import-run");
  await p.waitForSelector('#lesson-steps li[data-step="0"].passed', { timeout: 60_000 });
  await p.close();
  assert.deepEqual(problems, []);
});
