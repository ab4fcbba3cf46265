// Shared harness of the browser tests (`node --test tests/e2e/`, scripts/test.sh): starts the
// README's serve command (scripts/serve.sh with PORT=0, so a free port), drives Debian's
// /usr/bin/chromium through playwright-core in a fresh profile, and offers the helpers every
// suite uses. `page`, `baseUrl` and `context` are live bindings, set once `setup()`'s hook ran.
// Screenshots go to test-artifacts/ (gitignored).
import { after, before, beforeEach } from "node:test";
import { spawn } from "node:child_process";
import { mkdtemp, rm, mkdir } from "node:fs/promises";
import { deflateRawSync } from "node:zlib";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const CHROMIUM_ARGS = [
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
export let baseUrl;
let profile;
export let context;
export let page;
export const problems = []; // console errors and uncaught page errors, checked after each test

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

/** Registers the suite's hooks: the server and a Chromium profile before, `problems` cleared
 * before each test, everything stopped after. Call once at the top of a test file. */
export function setup() {
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
}

export const artifacts = path.join(root, "test-artifacts");

export async function shot(p, name) {
  await mkdir(artifacts, { recursive: true });
  await p.waitForTimeout(600); // let pod tiles finish gliding
  await p.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });
}

/** Waits until the page has settled (not loading, not playing) and returns its state. */
export async function settled(p = page) {
  await p.waitForFunction(() => !["loading", "playing"].includes(document.body.dataset.state), null, { timeout: 60_000 });
  return p.evaluate(() => document.body.dataset.state);
}

export async function openPage(url) {
  const p = await context.newPage();
  await p.setViewportSize({ width: 1440, height: 1000 });
  p.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  p.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  await p.goto(url);
  return p;
}

export async function seekTo(p, t) {
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
export async function podRows(p) {
  return p.$$eval("#pod-table tbody tr", (rows) =>
    rows.map((r) => {
      const c = [...r.children].map((td) => td.textContent);
      return { name: c[1], node: c[2], state: c[3] };
    }));
}

export function shareFragment(obj) {
  return `v=1&s=${deflateRawSync(Buffer.from(JSON.stringify(obj))).toString("base64url")}`;
}
