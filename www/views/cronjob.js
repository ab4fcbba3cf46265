// CronJob timeline: a CronJob's schedule ticks (past and future) on the virtual clock, the Jobs
// it created with their durations, ticks that never got a Job (missed, or skipped by Forbid),
// Jobs replaced (Replace) or deleted by the history limits, and the startingDeadlineSeconds
// window. Every state is written as text as well as drawn.
import { h, s, fmtTime } from "../dom.js";

const W = 960;
const H = 170;
const PAD = { l: 16, r: 16, t: 22, b: 26 };
const WINDOWS = [["600", "10 minutes"], ["3600", "1 hour"], ["21600", "6 hours"], ["86400", "1 day"], ["604800", "1 week"]];

/** Seconds since the scenario start of a Job name's scheduled time (`<cronjob>-<minutes>`). */
export function scheduledFromName(jobName, cjName, startUnix) {
  const m = jobName.slice(cjName.length + 1);
  if (!jobName.startsWith(`${cjName}-`) || !/^\d+$/.test(m)) return null;
  return Number(m) * 60 - startUnix;
}

export class CronJobView {
  /** `onFastForward(seconds)`: a promise of the frame after running `seconds` more (null when
   * it failed); `onFrame(frame)`: shows a frame that promise gave. */
  constructor(root, { onFastForward, onFrame, preview } = {}) {
    this.root = root;
    this.onFastForward = onFastForward;
    this.onFrame = onFrame;
    this.preview = preview;
    this.jobs = new Map(); // name -> {job, gone: t|null, last: t}
    this.lastTime = -1;
    this.select = h("select", { id: "cronjob-select", "aria-label": "CronJob" });
    this.window = h("select", { id: "cronjob-window", "aria-label": "Time window" },
      ...WINDOWS.map(([v, l]) => h("option", { value: v }, l)));
    this.window.value = "3600";
    this.select.addEventListener("change", () => this.draw());
    this.window.addEventListener("change", () => this.draw());
    this.ff = h("button", { type: "button", id: "cronjob-ff", title: "Run one week of virtual time" }, "» Fast-forward a week");
    this.ff.addEventListener("click", () => this.fastForwardWeek());
    this.summary = h("p", { id: "cronjob-summary" });
    this.chart = h("div", { class: "chart" });
    this.legend = h("ul", { class: "legend" },
      h("li", {}, "│ tick with a Job (solid) · ✗ missed or skipped tick (red, cross) · ┆ future tick (dashed) · ▬ Job run (bar, ✓ complete / ✗ failed / ▶ running / ↺ replaced) · shaded: startingDeadlineSeconds window"),
      h("li", { class: "legend-deadline" }, "◇ tick outside startingDeadlineSeconds (orange, diamond): when the controller looked, the tick was older than the deadline, so it was never considered"));
    this.runs = h("ol", { id: "cronjob-runs", class: "runs", reversed: true });
    this.next = h("ol", { id: "cronjob-next", class: "runs" });
    this.tryInput = h("input", { id: "cron-try", type: "text", value: "0 0 13 * 5", "aria-label": "Schedule to preview", spellcheck: "false" });
    this.tryZone = h("input", { id: "cron-try-zone", type: "text", value: "", placeholder: "time zone (UTC)", "aria-label": "Time zone" });
    this.tryOut = h("div", { id: "cron-try-out", "aria-live": "polite" });
    const run = () => this.tryPreview();
    this.tryInput.addEventListener("change", run);
    this.tryZone.addEventListener("change", run);
    const tryBtn = h("button", { type: "button", id: "cron-try-run" }, "Preview");
    tryBtn.addEventListener("click", run);
    root.replaceChildren(
      h("div", { class: "row" }, h("label", {}, "CronJob ", this.select), " ", h("label", {}, "Window ", this.window), " ", this.ff),
      this.summary, this.chart, this.legend,
      h("div", { class: "cols" },
        h("section", {}, h("h3", {}, "Runs (newest first)"), this.runs),
        h("section", {}, h("h3", {}, "Next runs"), this.next),
        h("section", {}, h("h3", {}, "Try a schedule"), h("div", { class: "row" }, this.tryInput, this.tryZone, tryBtn), this.tryOut)));
  }

  /** Runs a week of virtual time in chunks (the view redraws after each); clicking again stops.
   * Chunks start at an hour and grow while the worker takes under ~150 ms of wall time for one
   * (a sparse schedule runs the week in a few steps), shrinking when one takes longer, so the
   * page stays responsive either way. The next chunk is asked for as soon as a frame arrives,
   * before that frame is drawn: the worker runs while the page draws (one chunk in flight).
   * The simulation's result does not depend on the chunking. */
  async fastForwardWeek() {
    if (this.ffing) {
      this.ffing = false;
      return;
    }
    this.ffing = true;
    this.ff.textContent = "⏹ Stop fast-forward";
    this.ff.setAttribute("aria-pressed", "true");
    const end = this.lastTime + 7 * 86400;
    let asked = this.lastTime;
    let chunk = 3600;
    const ask = () => {
      const seconds = Math.min(chunk, end - asked);
      asked += seconds;
      return { t0: performance.now(), frame: this.onFastForward?.(seconds) };
    };
    let next = this.ffing && asked < end - 1e-6 ? ask() : null;
    while (next) {
      const frame = await next.frame;
      const ms = performance.now() - next.t0;
      if (ms < 150) chunk = Math.min(chunk * 2, 2 * 86400);
      else if (ms > 400) chunk = Math.max(chunk / 2, 600);
      next = frame && this.ffing && asked < end - 1e-6 ? ask() : null;
      if (frame) this.onFrame?.(frame);
    }
    this.ffing = false;
    this.ff.textContent = "» Fast-forward a week";
    this.ff.setAttribute("aria-pressed", "false");
  }

  reset() {
    this.ffing = false;
    this.jobs.clear();
    this.lastTime = -1;
  }

  async tryPreview() {
    if (!this.preview) return;
    try {
      const p = await this.preview(this.tryInput.value, this.tryZone.value);
      this.tryOut.replaceChildren(p.error
        ? h("p", { class: "error" }, `✗ ${p.error}`)
        : h("div", {}, h("p", { class: "desc" }, p.description), h("ol", {}, ...p.next.map((t) => h("li", {}, t)))));
    } catch (e) {
      this.tryOut.replaceChildren(h("p", { class: "error" }, `✗ ${e.message}`));
    }
  }

  /** Takes a frame (with `batch`) and the events seen so far. */
  update(frame, events) {
    if (!frame.batch) return;
    if (frame.time < this.lastTime) this.reset();
    this.lastTime = frame.time;
    this.frame = frame;
    this.events = events;
    this.startUnix = Date.parse(frame.snapshot.now) / 1000 - frame.time;
    const present = new Set();
    for (const j of frame.batch.jobs) {
      present.add(j.name);
      const seen = this.jobs.get(j.name);
      this.jobs.set(j.name, { job: j, gone: null, lastState: j.state, first: seen?.first ?? frame.time });
    }
    for (const [name, r] of this.jobs) if (!present.has(name) && r.gone === null) r.gone = frame.time;
    const names = frame.batch.cronJobs.map((c) => `${c.namespace}/${c.name}`);
    const current = [...this.select.options].map((o) => o.value);
    if (names.join() !== current.join()) {
      const keep = this.select.value;
      this.select.replaceChildren(...names.map((n) => h("option", { value: n }, n)));
      if (names.includes(keep)) this.select.value = keep;
    }
    if (!this.root.hidden) this.draw();
  }

  /** Every Job of a CronJob: live, remembered, or known only from events. */
  jobsOf(cj) {
    const out = new Map();
    for (const [name, r] of this.jobs) {
      if (r.job.ownerKind === "CronJob" && r.job.ownerName === cj.name && r.job.namespace === cj.namespace) out.set(name, { ...r.job, gone: r.gone });
    }
    for (const e of this.events ?? []) {
      if (e.kind !== "CronJob" || e.name !== cj.name) continue;
      const m = /^Created job (\S+)$/.exec(e.message);
      if (m && !out.has(m[1])) {
        const scheduled = scheduledFromName(m[1], cj.name, this.startUnix);
        out.set(m[1], { name: m[1], scheduled, created: e.time, state: "unknown", gone: null, finished: null });
      }
      const d = /^Deleted job (\S+)$/.exec(e.message);
      if (d && out.has(d[1])) {
        const j = out.get(d[1]);
        j.gone ??= e.time;
        j.deletedBy = e.reason;
      }
    }
    return [...out.values()].sort((a, b) => (a.scheduled ?? a.created ?? 0) - (b.scheduled ?? b.created ?? 0) || a.name.localeCompare(b.name));
  }

  /** Why a past tick has no Job: the Rust view model's reason (`pastTickInfo`), else a guess
   * from the CronJob's events near it. */
  whyMissed(cj, tick, jobs) {
    const info = this.tickInfo?.get(tick);
    if (info && info.kind !== "run" && info.kind !== "due") return info.reason;
    const skippedEv = (this.events ?? []).find((e) => e.kind === "CronJob" && e.name === cj.name && e.reason === "JobAlreadyActive" && e.time >= tick && e.time < tick + 60);
    const active = jobs.find((j) => (j.startTime ?? j.created ?? Infinity) <= tick && (j.finished ?? j.gone ?? Infinity) > tick);
    if (cj.concurrencyPolicy === "Forbid" && (skippedEv || active)) return "skipped: concurrencyPolicy Forbid, a Job was still active";
    if (cj.suspend) return "not started: the CronJob is suspended";
    return "missed: no Job was started for this time";
  }

  draw() {
    const f = this.frame;
    const cj = f?.batch.cronJobs.find((c) => `${c.namespace}/${c.name}` === this.select.value) ?? f?.batch.cronJobs[0];
    this.select.parentElement.hidden = !this.select.options.length;
    if (!cj) {
      this.summary.textContent = "No CronJob in this scenario. Pick one of the cronjob-* scenarios.";
      this.chart.replaceChildren();
      this.runs.replaceChildren();
      this.next.replaceChildren();
      return;
    }
    const now = f.time;
    const win = Number(this.window.value);
    const t0 = now - win;
    const t1 = now + win / 4;
    const x = (t) => PAD.l + ((t - t0) / (t1 - t0)) * (W - PAD.l - PAD.r);
    const jobs = this.jobsOf(cj);
    const byTick = new Map(jobs.filter((j) => j.scheduled !== null && j.scheduled !== undefined).map((j) => [j.scheduled, j]));
    const created = cj.created ?? 0;
    const pastTicks = cj.pastTicks.filter((t) => t >= created);
    const deadline = cj.startingDeadlineSeconds;
    this.tickInfo = new Map((cj.pastTickInfo ?? []).map((i) => [i.time, i]));
    this.summary.replaceChildren(
      h("strong", {}, cj.schedule), ` — ${cj.description}${cj.timeZone ? ` (${cj.timeZone})` : ""}. `,
      `concurrencyPolicy ${cj.concurrencyPolicy}; `,
      cj.suspend ? "⏸ suspended; " : "",
      deadline !== null ? `startingDeadlineSeconds ${deadline}; ` : "no startingDeadlineSeconds; ",
      `keeps ${cj.successfulJobsHistoryLimit} successful and ${cj.failedJobsHistoryLimit} failed Jobs; `,
      `last scheduled ${cj.lastScheduleTime === null ? "never" : `at ${fmtTime(cj.lastScheduleTime)}`}; `,
      `active: ${cj.active.length ? cj.active.join(", ") : "none"}.`);

    const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "cron-svg", role: "img", "aria-label": `schedule ticks and Jobs of ${cj.name}` });
    if (deadline !== null && deadline !== undefined) {
      svg.append(s("rect", { x: x(Math.max(t0, now - deadline)), y: PAD.t, width: Math.max(1, x(now) - x(Math.max(t0, now - deadline))), height: H - PAD.t - PAD.b, class: "deadline-window" },
        s("title", {}, `startingDeadlineSeconds: a tick older than ${deadline}s is not started`)));
    }
    for (let i = 0; i <= 6; i++) {
      const t = t0 + ((t1 - t0) * i) / 6;
      svg.append(s("text", { x: x(t), y: H - 8, "text-anchor": "middle", class: "axis" }, fmtTime(Math.max(0, t))));
    }
    const shown = pastTicks.filter((t) => t >= t0);
    const dense = shown.length > 300;
    for (const t of shown) {
      const job = byTick.get(t);
      if (!job && now - t < 1) continue;
      const late = !job && this.tickInfo.get(t)?.kind === "deadline";
      svg.append(s("line", { x1: x(t), x2: x(t), y1: PAD.t, y2: PAD.t + 30, class: job ? "tick tick-run" : late ? "tick tick-deadline" : "tick tick-missed" },
        s("title", {}, job ? `${this.clock(t)}: ${job.name}` : `${this.clock(t)}: ${this.whyMissed(cj, t, jobs)}`)));
      if (!job && !dense) svg.append(s("text", { x: x(t), y: PAD.t - 4, "text-anchor": "middle", class: late ? "tick-x tick-x-deadline" : "tick-x" }, late ? "◇" : "✗"));
    }
    for (const t of cj.nextTicks.filter((t) => t <= t1)) svg.append(s("line", { x1: x(t), x2: x(t), y1: PAD.t, y2: PAD.t + 30, class: "tick tick-future" }));
    const lanes = [];
    for (const j of jobs) {
      const a = j.startTime ?? j.created ?? j.scheduled;
      if (a === null || a === undefined) continue;
      const b = j.finished ?? j.gone ?? now;
      if (b < t0) continue;
      let lane = lanes.findIndex((end) => end <= a);
      if (lane < 0) lane = lanes.push(0) - 1;
      lanes[lane] = b + 1e-6;
      const y = PAD.t + 40 + (lane % 6) * 14;
      const mark = this.runMark(j, cj);
      svg.append(s("rect", { x: x(Math.max(a, t0)), y, width: Math.max(2, x(b) - x(Math.max(a, t0))), height: 10, class: `job-bar job-${mark.cls}` },
        s("title", {}, `${j.name}: ${mark.text}`)));
    }
    svg.append(s("line", { x1: x(now), x2: x(now), y1: PAD.t - 10, y2: H - PAD.b, class: "now-line" }));
    this.chart.replaceChildren(svg);

    // Runs, newest first: every past tick in the window (capped) with what happened.
    const rows = [];
    const tickRows = pastTicks.slice(-40);
    const listed = new Set();
    for (const t of tickRows) {
      const j = byTick.get(t);
      if (j) {
        listed.add(j.name);
        const mark = this.runMark(j, cj);
        rows.push({ t, el: h("li", { class: `run run-${mark.cls}`, dataset: { tick: t, job: j.name } }, `${this.clock(t)} ${mark.sym} ${j.name} — ${mark.text}`) });
      } else if (now - t < 1) {
        rows.push({ t, el: h("li", { class: "run run-due", dataset: { tick: t } }, `${this.clock(t)} ⏳ due now: the controller has not acted on it yet`) });
      } else {
        const late = this.tickInfo.get(t)?.kind === "deadline";
        rows.push({ t, el: h("li", { class: late ? "run run-missed run-deadline" : "run run-missed", dataset: { tick: t } }, `${this.clock(t)} ${late ? "◇" : "✗"} ${this.whyMissed(cj, t, jobs)}`) });
      }
    }
    // Jobs created late (Forbid, after downtime) are listed under their scheduled tick above;
    // manual Jobs (create job --from) have no tick.
    for (const j of jobs.filter((j) => !listed.has(j.name) && (j.scheduled === null || j.scheduled === undefined))) {
      const mark = this.runMark(j, cj);
      rows.push({ t: j.created ?? 0, el: h("li", { class: `run run-${mark.cls}`, dataset: { job: j.name } }, `${this.clock(j.created ?? 0)} ${mark.sym} ${j.name} (manual) — ${mark.text}`) });
    }
    rows.sort((a, b) => b.t - a.t);
    this.runs.replaceChildren(...rows.map((r) => r.el));
    if (!rows.length) this.runs.replaceChildren(h("li", { class: "muted" }, "No tick yet."));
    this.next.replaceChildren(...cj.nextRfc3339.map((iso, i) => h("li", { dataset: { tick: cj.nextTicks[i] } }, `${iso} (in ${fmtTime(cj.nextTicks[i] - now)})`)));
  }

  clock(t) {
    const d = new Date((this.startUnix + t) * 1000);
    return d.toISOString().replace("T", " ").replace(/\.\d+Z$/, "Z");
  }

  /** What happened to one Job, as a symbol, a class and words. */
  runMark(j, cj) {
    const dur = j.finished !== null && j.finished !== undefined && j.startTime !== null && j.startTime !== undefined ? ` in ${fmtTime(j.finished - j.startTime)}` : "";
    const late = j.scheduled !== null && j.scheduled !== undefined && j.created !== null && j.created !== undefined && j.created - j.scheduled >= 1 ? `, started ${fmtTime(j.created - j.scheduled)} late` : "";
    if (j.gone !== null && j.gone !== undefined) {
      if ((j.finished === null || j.finished === undefined) && cj.concurrencyPolicy === "Replace") return { sym: "↺", cls: "replaced", text: `replaced by a newer Job (concurrencyPolicy Replace) at ${fmtTime(j.gone)}${late}` };
      if (j.state === "Complete" || j.state === "Failed") return { sym: "🗑", cls: "deleted", text: `${j.state}${dur}${late}; deleted at ${fmtTime(j.gone)} (history limit)` };
      return { sym: "🗑", cls: "deleted", text: `deleted at ${fmtTime(j.gone)}${late}` };
    }
    if (j.state === "Complete") return { sym: "✓", cls: "complete", text: `Complete${dur}${late}` };
    if (j.state === "Failed") return { sym: "✗", cls: "failed", text: `Failed${dur}${late}` };
    if (j.state === "unknown") return { sym: "?", cls: "deleted", text: "created (deleted before it was seen)" };
    return { sym: "▶", cls: "running", text: `running${late}` };
  }
}
