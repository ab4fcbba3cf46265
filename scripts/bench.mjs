// The page half of scripts/bench.sh: measures what needs a browser (playwright-core driving
// /usr/bin/chromium, never a downloaded browser) or node, folds in the native rows bench.sh
// collected, and prints ONE table: figure | target | measured | pass.
//
// Inputs (environment, set by bench.sh): BENCH_NATIVE_JSON (rows of `cargo bench --bench
// scale`, when that bench writes them), BENCH_NATIVE_TXT (its printed table otherwise),
// BENCH_WORKLOAD_JSON (examples/bench_workload.rs on benches/workloads/scale-cycle.yaml).
// Also writes the table as JSON to $BENCH_OUT (default target/bench.json).
import { spawn } from "node:child_process";
import { existsSync, readFileSync, readdirSync, writeFileSync, mkdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { encodeShare } from "../www/share.js";
import { LESSONS } from "../www/lessons/index.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// The same flags as tests/e2e/page.test.mjs.
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

const KiB = 1024;
/** Budget for the page's wasm + JS + CSS, gzipped (the Performance issue's target). */
export const BUNDLE_TARGET = 140 * KiB;
/** Base of a share link when counting its length (a typical hosted address). */
export const SHARE_BASE = "https://kubeplay.example.org/www/#";
export const SHARE_TARGET = 2000;

const rows = [];
function row(figure, target, measured, pass) {
  rows.push({ figure, target, measured, pass: pass === undefined ? "—" : pass ? "pass" : "FAIL" });
}

// ------------------------------------------------------------------ bundle

/** The files the page loads: wasm, wasm-bindgen glue, the page's modules and stylesheet. */
export function bundleFiles() {
  const www = path.join(root, "www");
  const js = (dir) =>
    readdirSync(path.join(www, dir))
      .filter((f) => f.endsWith(".js") && !f.startsWith("bench"))
      .map((f) => path.join(www, dir, f));
  return {
    wasm: [path.join(root, "pkg/kubeplay_bg.wasm")],
    js: [path.join(root, "pkg/kubeplay.js"), ...js("."), ...js("views"), ...js("lessons")],
    css: [path.join(www, "style.css")],
    html: [path.join(www, "index.html")],
  };
}

/** Gzipped size (level 9, each file on its own as a server would send it). */
export function gz(files) {
  return files.reduce((n, f) => n + gzipSync(readFileSync(f), { level: 9 }).length, 0);
}

const kib = (n) => `${(n / KiB).toFixed(1)} KiB`;

function bundleRows() {
  const f = bundleFiles();
  const wasm = gz(f.wasm);
  const jsCss = gz([...f.js, ...f.css]);
  const total = wasm + jsCss;
  row("bundle: wasm + JS + CSS, gzipped", `≤ ${kib(BUNDLE_TARGET)}`, kib(total), total <= BUNDLE_TARGET);
  row("  of which wasm (raw → gzipped)", "", `${kib(readFileSync(f.wasm[0]).length)} → ${kib(wasm)}`);
  row("  of which JS + CSS, gzipped", "", kib(jsCss));
  row("  index.html, gzipped (not counted)", "", kib(gz(f.html)));
}

// ------------------------------------------------------------------ share links

/** Share link of every lesson with a scenario (at a late time, no commands): [{id, length}]. */
export async function lessonShareLengths() {
  const out = [];
  for (const l of LESSONS) {
    if (!l.scenario) continue; // a lesson over whatever is loaded: nothing of its own to share
    const scenario = readFileSync(path.join(root, "scenarios", `${l.scenario}.yaml`), "utf8");
    const fragment = await encodeShare({ scenario, time: 3600, journal: [] });
    out.push({ id: l.id, length: SHARE_BASE.length + fragment.length });
  }
  return out;
}

async function shareRows() {
  const lens = await lessonShareLengths();
  const worst = lens.reduce((a, b) => (b.length > a.length ? b : a));
  row(`share links: longest of ${lens.length} lessons (${worst.id})`, `≤ ${SHARE_TARGET} chars`,
    `${worst.length} chars`, lens.every((l) => l.length <= SHARE_TARGET));
}

// ------------------------------------------------------------------ native rows

function nativeRows() {
  const j = process.env.BENCH_NATIVE_JSON;
  if (j && existsSync(j)) {
    const data = JSON.parse(readFileSync(j, "utf8"));
    const list = Array.isArray(data) ? data : data.rows ?? [];
    for (const r of list) {
      const pass = r.pass === undefined || r.pass === null || r.pass === "—" ? undefined
        : r.pass === true || r.pass === "pass" || r.pass === "ok";
      row(`native: ${r.figure ?? r.name}`, String(r.target ?? ""), String(r.measured ?? r.value ?? ""), pass);
    }
    return;
  }
  const t = process.env.BENCH_NATIVE_TXT;
  if (!t || !existsSync(t)) {
    row("native: cargo bench --bench scale", "", "not run");
    return;
  }
  for (const line of readFileSync(t, "utf8").split("\n")) {
    const cells = line.trim().replace(/^\||\|$/g, "").split("|").map((c) => c.trim());
    if (!line.trim().startsWith("|") || cells.length < 2 || /^-+$/.test(cells[0]) || cells[0] === "figure") continue;
    if (cells.length >= 4) {
      row(`native: ${cells[0]}`, cells[1], cells[2], /pass|ok|yes/i.test(cells[3]) ? true : /fail|no/i.test(cells[3]) ? false : undefined);
    } else row(`native: ${cells[0]}`, "", cells[cells.length - 1]);
  }
}

// ------------------------------------------------------------------ browser

function startServer() {
  return new Promise((resolve, reject) => {
    const server = spawn(path.join(root, "scripts/serve.sh"), [], {
      cwd: root,
      env: { ...process.env, PORT: "0" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let out = "";
    const timer = setTimeout(() => reject(new Error(`serve.sh printed no URL in time:\n${out}`)), 900_000);
    server.stdout.setEncoding("utf8").on("data", (c) => {
      out += c;
      const m = out.match(/kubeplay playground: (http:\/\/127\.0\.0\.1:\d+\/www\/)/);
      if (m) {
        clearTimeout(timer);
        resolve({ server, url: m[1] });
      }
    });
    server.stderr.setEncoding("utf8").on("data", (c) => (out += c));
    server.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve.sh exited with ${code}:\n${out}`));
    });
  });
}

const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];

async function wasmWorkloadRow(context, base) {
  const native = process.env.BENCH_WORKLOAD_JSON && existsSync(process.env.BENCH_WORKLOAD_JSON)
    ? JSON.parse(readFileSync(process.env.BENCH_WORKLOAD_JSON, "utf8")) : null;
  const p = await context.newPage();
  const file = process.env.BENCH_WORKLOAD_FILE ?? "benches/workloads/scale-cycle.yaml";
  await p.goto(`${base}bench.html?file=../${file}&seconds=600&runs=${process.env.BENCH_RUNS ?? 3}`);
  await p.waitForFunction(() => window.benchResult, null, { timeout: 900_000 });
  const r = await p.evaluate(() => window.benchResult);
  await p.close();
  if (r.error) throw new Error(`bench.html: ${r.error}`);
  const size = file.includes("small") ? "500 → 0 on 50" : "5,000 → 0 on 500";
  row(`wasm: RS 0 → ${size} nodes, 10 sim. min (median of ${process.env.BENCH_RUNS ?? 3})`, "", `${(r.wall_ms / 1000).toFixed(3)} s`);
  if (native) {
    row("native: the same workload (examples/bench_workload.rs)", "", `${(native.wall_ms / 1000).toFixed(3)} s`);
    const ratio = r.wall_ms / native.wall_ms;
    row("wasm / native wall time", "≤ 1.50x", `${ratio.toFixed(2)}x`, ratio <= 1.5);
  } else row("wasm / native wall time", "≤ 1.50x", "native not run", false);
}

// The CronJob timeline's "fast-forward a week" in the page's engine: the every-minute
// cronjob-hello (10,080 Jobs) run for 168 simulated hours in WebAssembly.
async function weekRow(context, base) {
  const p = await context.newPage();
  await p.goto(`${base}bench.html?file=../scenarios/cronjob-hello.yaml&seconds=604800&runs=1`);
  await p.waitForFunction(() => window.benchResult, null, { timeout: 900_000 });
  const r = await p.evaluate(() => window.benchResult);
  await p.close();
  if (r.error) throw new Error(`bench.html (week): ${r.error}`);
  row("wasm: CronJob fast-forward, every-minute cronjob-hello, 168 sim. h", "≤ 1 s",
    `${(r.wall_ms / 1000).toFixed(3)} s`, r.wall_ms <= 1000);
}

// The same week the way a user gets it: the CronJob tab's "» Fast-forward a week" button on the
// built-in cronjob-hello (the worker runs chunks and builds a frame after each; the page draws
// them), from the click until the view shows the week's end. Cold: right after the page loaded
// the scenario (the wasm module has run little, most of it still in V8's baseline tier); warm:
// the same page after ↺ Reset (a fresh simulation on a module that has run a week).
async function weekUiRow(context, base) {
  const p = await context.newPage();
  await p.goto(`${base}?scenario=cronjob-hello`);
  await p.waitForFunction(() => document.body.dataset.state === "ready", null, { timeout: 120_000 });
  await p.click("#tab-cronjob");
  const week = async () => {
    const from = Number(await p.evaluate(() => document.body.dataset.time));
    const t0 = Date.now();
    await p.click("#cronjob-ff");
    await p.waitForFunction((s) => Number(document.body.dataset.time) >= s + 7 * 86400 - 1e-3 &&
      /Fast-forward a week/.test(document.getElementById("cronjob-ff").textContent), from, { timeout: 900_000, polling: 20 });
    return Date.now() - t0;
  };
  const cold = await week();
  await p.click("#reset");
  await p.waitForFunction(() => Number(document.body.dataset.time) === 0, null, { timeout: 120_000 });
  const warm = await week();
  await p.close();
  row("page: CronJob tab » Fast-forward a week, cronjob-hello (cold / warm)", "≤ 1 s",
    `${(cold / 1000).toFixed(3)} s / ${(warm / 1000).toFixed(3)} s`, cold <= 1000);
}

async function firstRenderRow(context, base) {
  const times = [];
  for (let i = 0; i < 3; i++) {
    const p = await context.newPage();
    await p.setViewportSize({ width: 1440, height: 1000 });
    await p.addInitScript(() => {
      new MutationObserver((_, obs) => {
        const s = document.body?.dataset.state;
        if ((s === "ready" || s === "playing") && document.querySelector("#cluster .pod")) {
          window.firstRender = performance.now();
          obs.disconnect();
        }
      }).observe(document, { subtree: true, attributes: true, childList: true });
    });
    await p.goto(base);
    await p.waitForFunction(() => window.firstRender, null, { timeout: 60_000 });
    // Paint: the next two animation frames after the render.
    times.push(await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(window.firstRender))))));
    await p.close();
  }
  row("first render: default scenario, navigation → pods drawn (median of 3)", "≤ 500 ms",
    `${median(times).toFixed(0)} ms`, median(times) <= 500);
}

async function renderRows(context, base) {
  const p = await context.newPage();
  await p.setViewportSize({ width: 1440, height: 1000 });
  await p.goto(`${base}bench-render.html?pods=2000&nodes=20&ms=5000`);
  await p.waitForFunction(() => window.benchResult, null, { timeout: 120_000 });
  const r = await p.evaluate(() => window.benchResult);
  await p.close();
  if (r.error) throw new Error(`bench-render.html: ${r.error}`);
  row(`render: ${r.tiles} pods animating in the cluster view (rolling update, 5 s)`, "≥ 55 fps", `${r.fps.toFixed(1)} fps`, r.fps >= 55);
  row("  cluster view render per frame (mean)", "", `${r.renderMs.toFixed(1)} ms`);
  row("  longest frame while animating", "", `${r.worst.toFixed(0)} ms`);
}

async function browserRows() {
  const { server, url } = await startServer();
  const profile = await mkdtemp(path.join(tmpdir(), "kubeplay-bench-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    const only = process.env.BENCH_ONLY ?? "";
    if (!only || only.includes("wasm")) await wasmWorkloadRow(context, url);
    if (!only || only.includes("week")) await weekRow(context, url);
    if (!only || only.includes("week")) await weekUiRow(context, url);
    if (!only || only.includes("first")) await firstRenderRow(context, url);
    if (!only || only.includes("render")) await renderRows(context, url);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
    if (server.exitCode === null) process.kill(-server.pid, "SIGTERM");
  }
}

// ------------------------------------------------------------------ table

function print() {
  const head = ["figure", "target", "measured", "pass"];
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => [...String(Object.values(r)[i])].length)));
  const pad = (s, n) => s + " ".repeat(Math.max(0, n - [...s].length));
  const line = (cells) => `| ${cells.map((c, i) => pad(String(c), w[i])).join(" | ")} |`;
  console.log(line(head));
  console.log(`|${w.map((n) => "-".repeat(n + 2)).join("|")}|`);
  for (const r of rows) console.log(line([r.figure, r.target, r.measured, r.pass]));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  bundleRows();
  await shareRows();
  nativeRows();
  try {
    await browserRows();
  } catch (e) {
    row("browser measurements", "", `error: ${e.message.split("\n")[0]}`, false);
  }
  print();
  const out = process.env.BENCH_OUT ?? path.join(root, "target/bench.json");
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(rows, null, 2));
  process.exitCode = rows.some((r) => r.pass === "FAIL") ? 1 : 0;
}
