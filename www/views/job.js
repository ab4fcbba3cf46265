// Job view: one Job's completion progress, its pods per completion index (Indexed) or in
// creation order, the back-off delay before each replacement pod, the failure-policy and
// backoff decisions (conditions and Warning events, in the controller's own words), and the
// TTL-after-finished countdown. States are written as text and symbols as well as colours.
import { h, fmtTime } from "../dom.js";

/** Expands "0-2,5" (completedIndexes / failedIndexes) into a Set of numbers. */
export function parseIndexes(s) {
  const out = new Set();
  for (const part of (s || "").split(",")) {
    if (!part) continue;
    const [a, b] = part.split("-").map(Number);
    for (let i = a; i <= (Number.isFinite(b) ? b : a); i++) out.add(i);
  }
  return out;
}

const POD_MARK = { Succeeded: "✓", Failed: "✗", Running: "▶", Pending: "…" };

export class JobView {
  constructor(root) {
    this.root = root;
    this.select = h("select", { id: "job-select", "aria-label": "Job" });
    this.select.addEventListener("change", () => this.draw());
    this.summary = h("p", { id: "job-summary" });
    this.progress = h("div", { id: "job-progress", class: "progress" });
    this.indexes = h("ol", { id: "job-indexes", class: "index-grid", start: 0 });
    this.pods = h("tbody", { id: "job-pods" });
    this.decisions = h("ul", { id: "job-decisions" });
    this.ttl = h("p", { id: "job-ttl" });
    root.replaceChildren(
      h("div", { class: "row" }, h("label", {}, "Job ", this.select)),
      this.summary, this.progress, this.ttl,
      h("h3", {}, "Completion indexes"), this.indexes,
      h("h3", {}, "Pods"),
      h("table", { class: "pods-table" },
        h("thead", {}, h("tr", {}, ...["Pod", "Index", "Phase", "Exit code", "Created", "Finished", "Back-off before it"].map((c) => h("th", { scope: "col" }, c)))),
        this.pods),
      h("h3", {}, "Decisions (conditions and events)"), this.decisions);
  }

  update(frame, events) {
    if (!frame.batch) return;
    this.frame = frame;
    this.events = events;
    const names = frame.batch.jobs.map((j) => `${j.namespace}/${j.name}`);
    const current = [...this.select.options].map((o) => o.value);
    if (names.join() !== current.join()) {
      const keep = this.select.value;
      this.select.replaceChildren(...names.map((n) => h("option", { value: n }, n)));
      // Follow the newest Job unless the user picked one that still exists.
      this.select.value = names.includes(keep) && this.picked ? keep : names.at(-1) ?? "";
    }
    if (!this.bound) {
      this.select.addEventListener("change", () => (this.picked = true));
      this.bound = true;
    }
    if (!this.root.hidden) this.draw();
  }

  draw() {
    const f = this.frame;
    const j = f?.batch.jobs.find((x) => `${x.namespace}/${x.name}` === this.select.value);
    this.select.parentElement.hidden = !this.select.options.length;
    if (!j) {
      this.summary.textContent = "No Job in this scenario (a finished Job may have been deleted by its TTL or its CronJob's history limit). Pick one of the job-* scenarios.";
      for (const el of [this.progress, this.indexes, this.pods, this.decisions]) el.replaceChildren();
      this.ttl.textContent = "";
      return;
    }
    const now = f.time;
    const indexed = j.completionMode === "Indexed";
    const target = j.completions ?? (j.succeeded > 0 ? j.succeeded : 1);
    const stateMark = { Complete: "✓", Failed: "✗", Suspended: "⏸", Running: "▶" }[j.state] ?? "";
    this.summary.replaceChildren(
      h("strong", { class: `job-state job-${j.state.toLowerCase()}` }, `${stateMark} ${j.state}`), " · ",
      `${j.completionMode}, completions ${j.completions ?? "unset (work queue)"}, parallelism ${j.parallelism}, `,
      j.backoffLimitPerIndex !== null ? `backoffLimitPerIndex ${j.backoffLimitPerIndex}` : `backoffLimit ${j.backoffLimit}`,
      j.activeDeadlineSeconds !== null ? `, activeDeadlineSeconds ${j.activeDeadlineSeconds}` : "",
      ` · active ${j.active} (ready ${j.ready}), succeeded ${j.succeeded}, failed ${j.failed}`,
      j.terminating ? `, terminating ${j.terminating}` : "",
      j.ownerKind ? ` · created by ${j.ownerKind} ${j.ownerName}` : "");
    const pct = Math.min(100, Math.round((j.succeeded / Math.max(1, target)) * 100));
    this.progress.replaceChildren(
      h("progress", { max: String(target), value: String(Math.min(j.succeeded, target)), "aria-label": "completions" }),
      ` ${j.succeeded}/${target} succeeded (${pct}%)`,
      j.failed ? ` · ${j.failed} failed (backoff limit ${j.backoffLimitPerIndex ?? j.backoffLimit}${j.backoffLimitPerIndex !== null ? " per index" : ""})` : "");

    if (j.ttlSecondsAfterFinished === null) this.ttl.textContent = "No ttlSecondsAfterFinished: the Job stays after it finishes.";
    else if (j.ttlExpires === null) this.ttl.textContent = `⏲ ttlSecondsAfterFinished ${j.ttlSecondsAfterFinished}: the countdown starts when the Job finishes.`;
    else {
      const left = j.ttlExpires - now;
      this.ttl.textContent = left > 0
        ? `⏲ TTL: deleted by the ttl-after-finished controller in ${fmtTime(left)} (finished at ${fmtTime(j.finished)} + ${j.ttlSecondsAfterFinished}s).`
        : `⏲ TTL expired ${fmtTime(-left)} ago: the Job is being deleted.`;
    }

    // Completion indexes (Indexed), else one cell per completion.
    const done = parseIndexes(j.completedIndexes);
    const failedIdx = parseIndexes(j.failedIndexes);
    if (indexed && j.completions !== null) {
      const cells = [];
      for (let i = 0; i < Math.min(j.completions, 500); i++) {
        const pods = j.pods.filter((p) => p.index === i);
        const live = pods.find((p) => !p.terminating && (p.phase === "Running" || p.phase === "Pending"));
        const st = done.has(i) ? ["✓", "done", "succeeded"] : failedIdx.has(i) ? ["✗", "failed", "failed (index backoff exhausted)"] : live ? ["▶", "running", live.phase.toLowerCase()] : ["·", "pending", "not running"];
        const fails = pods.filter((p) => p.phase === "Failed").length;
        cells.push(h("li", { class: `index-cell index-${st[1]}`, dataset: { index: i, state: st[1] }, title: `index ${i}: ${st[2]}` },
          `${st[0]} ${i}`, h("span", { class: "visually-hidden" }, ` ${st[2]}`), fails ? h("small", {}, ` ${fails}✗`) : ""));
      }
      this.indexes.replaceChildren(...cells);
    } else {
      this.indexes.replaceChildren(h("li", { class: "muted" }, indexed ? "" : `${j.completionMode} Job: pods have no index; ${j.succeeded} of ${target} completions done.`));
    }

    // Pods, with the back-off before each pod: the time since the previous failure (same index).
    const lastFail = new Map();
    const rows = [];
    const byCreation = [...j.pods].sort((a, b) => (a.created ?? 0) - (b.created ?? 0) || a.name.localeCompare(b.name));
    for (const p of byCreation) {
      const key = indexed ? p.index : "all";
      const prev = lastFail.get(key);
      const backoff = prev !== undefined && p.created !== null ? `${fmtTime(Math.max(0, p.created - prev))} after the previous failure` : "—";
      if (p.phase === "Failed") lastFail.set(key, p.finished ?? p.created ?? 0);
      rows.push({ p, backoff });
    }
    rows.sort((a, b) => (indexed ? a.p.index - b.p.index : 0) || (a.p.created ?? 0) - (b.p.created ?? 0) || a.p.name.localeCompare(b.p.name));
    this.pods.replaceChildren(...rows.map(({ p, backoff }) => h("tr", { dataset: { pod: p.name, index: p.index } },
      h("td", {}, p.name), h("td", {}, p.index >= 0 ? String(p.index) : "—"),
      h("td", {}, `${POD_MARK[p.phase] ?? ""} ${p.phase}${p.terminating ? " (terminating)" : ""}${p.reason ? ` · ${p.reason}` : ""}${p.disrupted ? " · DisruptionTarget" : ""}${p.restarts ? ` · ${p.restarts} restarts` : ""}`),
      h("td", {}, p.exitCode === null ? "—" : String(p.exitCode)),
      h("td", {}, p.created === null ? "—" : fmtTime(p.created)),
      h("td", {}, p.finished === null ? "—" : fmtTime(p.finished)),
      h("td", {}, backoff))));
    if (!rows.length) this.pods.replaceChildren(h("tr", {}, h("td", { colspan: "7", class: "muted" }, j.suspend ? "Suspended: no pods run." : "No pods.")));

    // Decisions: podFailurePolicy rules, the Job's conditions and its Warning/Normal events.
    const items = [];
    for (const r of j.podFailurePolicy) items.push(h("li", { class: "rule" }, `podFailurePolicy rule: ${r}`));
    for (const c of j.conditions) {
      items.push(h("li", { class: `cond cond-${c.type}`, dataset: { condition: c.type, reason: c.reason } },
        `${c.time === null ? "" : `${fmtTime(c.time)} `}condition ${c.type}=${c.status} (${c.reason || "no reason"})${c.message ? `: ${c.message}` : ""}`));
    }
    for (const e of (this.events ?? []).filter((e) => e.kind === "Job" && e.name === j.name && e.namespace === j.namespace).slice(-30)) {
      items.push(h("li", { class: `ev ev-${e.type}`, dataset: { reason: e.reason } }, `${fmtTime(e.time)} ${e.type === "Warning" ? "⚠ " : ""}${e.reason}: ${e.message}`));
    }
    this.decisions.replaceChildren(...items);
    if (!items.length) this.decisions.replaceChildren(h("li", { class: "muted" }, "No decision yet."));
  }
}
