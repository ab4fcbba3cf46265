// Deterministic size checks of the page (no timing here: speed figures live in scripts/bench.sh).
//
// - every built-in lesson's share link stays within 2,000 URL characters (links pasted into chat
//   and issue trackers; some tools cut longer URLs);
// - the gzipped page (wasm + JS + CSS, as scripts/bench.mjs counts it) stays within a ratchet
//   budget, so size regressions show up in review. The budget is today's size (1,021 KiB with
//   every controller, HPA, the batch views, kubectl patch and events, the strict-decoding
//   schema, and the scheduler's NodePorts, PodTopologySpread and InterPodAffinity plugins with
//   their validation: +48 KiB on 2026-11-25; 1,053 KiB with upstream's pod volume, mount, env
//   and probe validation and semantic template equality: +20 KiB on 2026-11-26; 1,079 KiB with
//   upstream's remaining pod spec rules — dnsConfig, security contexts, seccomp, AppArmor,
//   sysctls, ephemeral containers, pod-level resources — and Service rules, the scheduler's
//   ephemeral-storage/overhead accounting and kubectl --subresource: +16 KiB later that day;
//   the page's size-class allocator and memcmp cost nothing measurable; 1,100 KiB with the
//   kubelet status ports, events correlator and the ported upstream tables' fixes, the work
//   queues' token bucket, `get -f` and kubectl's jsonpath execution errors: 2026-11-26, last
//   session; API warnings, kubectl -f directories and pod-level resource checks added about
//   +23 KiB on 2026-11-26, tenth session: 1,123.1 KiB measured) plus a little, not the 140 KiB target
//   (docs/performance.md has the plan to get there); lower it as the bundle shrinks. Skipped
//   when pkg/ has not been built (scripts/test.sh builds it first).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundleFiles, gz, lessonShareLengths, SHARE_TARGET } from "../../scripts/bench.mjs";
import { LESSONS } from "../../www/lessons/index.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Ratchet budget for wasm + JS + CSS gzipped, in bytes (see docs/performance.md). */
const BUNDLE_BUDGET = 1100 * 1024;

test("every lesson's share link is at most 2,000 characters", async () => {
  const lens = await lessonShareLengths();
  assert.equal(lens.length, LESSONS.filter((l) => l.scenario).length);
  assert.ok(lens.length > 0);
  for (const { id, length } of lens) {
    assert.ok(length <= SHARE_TARGET, `lesson ${id}: share link is ${length} characters (> ${SHARE_TARGET})`);
  }
});

test("the gzipped page stays within its budget", { skip: !existsSync(path.join(root, "pkg/kubeplay_bg.wasm")) && "pkg/ not built" }, () => {
  const f = bundleFiles();
  const total = gz([...f.wasm, ...f.js, ...f.css]);
  assert.ok(total <= BUNDLE_BUDGET, `wasm + JS + CSS gzipped: ${total} bytes > budget ${BUNDLE_BUDGET}`);
});
