// "Load your cluster" in headless Chromium: `node --test tests/e2e/interop.test.mjs`.
//
// The harness is harness.mjs (scripts/serve.sh with PORT=0, playwright-core driving
// /usr/bin/chromium). Pastes tests/fixtures/cluster-dump.yaml into the page, sees the cluster's
// pods, asks a what-if (scale down) and checks that a bad dump is reported with its path.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { root, baseUrl, problems, shot, settled, openPage, podRows, setup } from "./harness.mjs";

setup();

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
