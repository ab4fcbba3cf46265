// Autoscaling chart (SVG): for one HorizontalPodAutoscaler, the synthetic load curve driving it,
// its current vs target utilization, and the target's replicas over time between min and max,
// with the scale-down stabilization window shaded behind the current time.
import { h, s, fmtTime } from "../dom.js";

const W = 960;
const PAD = { l: 52, r: 16, t: 14, b: 26 };
const PANEL_H = [110, 110, 150];

export class HpaView {
  constructor(root) {
    this.root = root;
    this.samples = []; // [{t, autoscalers}]
    this.loads = {}; // load index -> [[t, milli], ...]
    this.duration = 0;
    this.select = h("select", { id: "hpa-select", "aria-label": "HorizontalPodAutoscaler" });
    this.select.addEventListener("change", () => this.draw());
    this.chart = h("div", { class: "chart", id: "hpa-chart" });
    this.status = h("p", { class: "muted", id: "hpa-status" });
    this.conditions = h("ul", { class: "legend", id: "hpa-conditions" });
    root.replaceChildren(h("div", { class: "row" }, h("label", {}, "Autoscaler ", this.select)), this.status, this.chart, this.conditions);
  }

  truncate(t) {
    this.samples = this.samples.filter((x) => x.t <= t);
  }

  reset() {
    this.samples = [];
    this.loads = {};
  }

  sample(t, autoscalers) {
    if (!autoscalers) return;
    const last = this.samples.at(-1);
    if (last && t < last.t) this.truncate(t);
    if (this.samples.at(-1)?.t === t) this.samples.pop();
    this.samples.push({ t, autoscalers });
  }

  add(frame) {
    for (const x of frame.samples ?? []) this.sample(x.t, x.autoscalers);
    this.sample(frame.time, frame.autoscalers ?? []);
    if (this.samples.length > 4000) this.samples = this.samples.filter((_, i) => i % 2 === 0 || i === this.samples.length - 1);
    Object.assign(this.loads, frame.loads ?? {});
    this.duration = Math.max(frame.duration, frame.time);
    const names = (frame.autoscalers ?? []).map((a) => `${a.namespace}/${a.name}`);
    const current = [...this.select.options].map((o) => o.value);
    if (names.join() !== current.join()) {
      const keep = this.select.value;
      this.select.replaceChildren(...names.map((n) => h("option", { value: n }, n)));
      if (names.includes(keep)) this.select.value = keep;
    }
    if (!this.root.hidden) this.draw();
  }

  draw() {
    const key = this.select.value;
    const series = this.samples
      .map(({ t, autoscalers }) => ({ t, a: autoscalers.find((a) => `${a.namespace}/${a.name}` === key) }))
      .filter((x) => x.a);
    this.select.parentElement.hidden = !this.select.options.length;
    if (!series.length) {
      this.chart.replaceChildren(h("p", { class: "empty" }, "No HorizontalPodAutoscaler in this scenario. Try the hpa-frontend scenario, or run kubectl autoscale."));
      this.status.textContent = "";
      this.conditions.replaceChildren();
      return;
    }
    const now = series.at(-1);
    const a = now.a;
    const m = a.metrics[0];
    const cur = m?.currentUtilization ?? null;
    const target = m?.targetUtilization ?? null;
    this.status.textContent = `${a.name} → ${a.targetKind}/${a.targetName}: ${a.targetReplicas ?? "?"} replicas (min ${a.minReplicas}, max ${a.maxReplicas}, desired ${a.desiredReplicas})` +
      (m ? ` · ${m.name} ${cur === null ? "<unknown>" : cur + "%"}/${target === null ? "?" : target + "%"}` : "") +
      (a.loadCpuMilli !== null ? ` · load ${(a.loadCpuMilli / 1000).toFixed(2)} cores` : "") +
      ` · scale-down window ${fmtTime(a.scaleDownWindowSeconds)}`;
    this.conditions.replaceChildren(...a.conditions.map((c) => h("li", { title: c.message, dataset: { type: c.type, status: c.status } }, `${c.type}: ${c.status} (${c.reason})`)));

    const tMax = Math.max(this.duration, now.t, 1);
    const H = PANEL_H.reduce((x, y) => x + y, 0);
    const x = (t) => PAD.l + (t / tMax) * (W - PAD.l - PAD.r);
    const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "rollout-svg hpa-svg", role: "img", "aria-label": `autoscaling of ${key}` });
    let top = 0;
    const panel = (height, yMax, label, fmt) => {
      const y0 = top + PAD.t;
      const y1 = top + height - PAD.b;
      const y = (v) => y1 - (Math.min(v, yMax) / yMax) * (y1 - y0);
      svg.append(s("line", { x1: PAD.l, x2: W - PAD.r, y1, y2: y1, stroke: "currentColor", "stroke-opacity": 0.3 }));
      svg.append(s("text", { x: PAD.l + 6, y: y0 + 10, "font-size": 11, fill: "currentColor", "fill-opacity": 0.8 }, label));
      for (const v of [0, yMax / 2, yMax]) svg.append(s("text", { x: PAD.l - 4, y: y(v) + 4, "font-size": 10, "text-anchor": "end", fill: "currentColor", "fill-opacity": 0.7 }, fmt(v)));
      top += height;
      return y;
    };
    const step = (pts, y) => {
      if (!pts.length) return "";
      let d = `M${x(pts[0][0])},${y(pts[0][1])}`;
      for (let i = 1; i < pts.length; i++) d += `H${x(pts[i][0])}V${y(pts[i][1])}`;
      return d;
    };
    const line = (pts, y) => pts.map(([t, v], i) => `${i ? "L" : "M"}${x(t)},${y(v)}`).join("");

    // 1. Load: the total CPU demand curve over the whole run.
    const load = a.loadIndex !== null ? this.loads[a.loadIndex] ?? [] : [];
    const loadMax = Math.max(1000, ...load.map(([, v]) => v)) * 1.1;
    const yl = panel(PANEL_H[0], loadMax, "load (cores)", (v) => (v / 1000).toFixed(1));
    if (load.length) svg.append(s("path", { d: line(load, yl), fill: "none", stroke: "#d97706", "stroke-width": 2, class: "hpa-load" }));
    else svg.append(s("text", { x: W / 2, y: yl(loadMax / 2), "text-anchor": "middle", "font-size": 12, fill: "currentColor" }, "no synthetic load covers this target (metrics are <unknown>)"));

    // 2. Utilization: current (sampled) vs target.
    const utils = series.filter((p) => p.a.metrics[0]?.currentUtilization !== null && p.a.metrics[0]?.currentUtilization !== undefined).map((p) => [p.t, p.a.metrics[0].currentUtilization]);
    const uMax = Math.max(100, (target ?? 0) * 2, ...utils.map(([, v]) => v)) * 1.1;
    const yu = panel(PANEL_H[1], uMax, "utilization %", (v) => `${Math.round(v)}`);
    if (target !== null) svg.append(s("line", { x1: PAD.l, x2: W - PAD.r, y1: yu(target), y2: yu(target), stroke: "#16a34a", "stroke-dasharray": "6 4", class: "hpa-target" }));
    if (utils.length) svg.append(s("path", { d: step(utils, yu), fill: "none", stroke: "#2563eb", "stroke-width": 2, class: "hpa-util" }));

    // 3. Replicas, min/max, and the stabilization window behind the current time.
    const reps = series.filter((p) => p.a.targetReplicas !== null).map((p) => [p.t, p.a.targetReplicas]);
    const rMax = Math.max(a.maxReplicas, ...reps.map(([, v]) => v)) + 1;
    const panelTop = top;
    const yr = panel(PANEL_H[2], rMax, "replicas", (v) => `${Math.round(v)}`);
    const w0 = Math.max(0, now.t - a.scaleDownWindowSeconds);
    svg.append(s("rect", { x: x(w0), y: panelTop + PAD.t, width: Math.max(0, x(now.t) - x(w0)), height: PANEL_H[2] - PAD.t - PAD.b, fill: "#a855f7", "fill-opacity": 0.12, class: "hpa-window" }, s("title", {}, `scale-down stabilization window: ${fmtTime(a.scaleDownWindowSeconds)}`)));
    for (const [v, name] of [[a.minReplicas, "min"], [a.maxReplicas, "max"]]) {
      svg.append(s("line", { x1: PAD.l, x2: W - PAD.r, y1: yr(v), y2: yr(v), stroke: "currentColor", "stroke-opacity": 0.4, "stroke-dasharray": "2 3" }));
      svg.append(s("text", { x: W - PAD.r - 2, y: yr(v) - 3, "font-size": 10, "text-anchor": "end", fill: "currentColor" }, `${name} ${v}`));
    }
    if (reps.length) svg.append(s("path", { d: step(reps, yr), fill: "none", stroke: "#0891b2", "stroke-width": 2.5, class: "hpa-replicas" }));

    // Now.
    svg.append(s("line", { x1: x(now.t), x2: x(now.t), y1: 0, y2: H - PAD.b, stroke: "currentColor", "stroke-opacity": 0.5 }));
    svg.append(s("text", { x: x(now.t) + 3, y: H - 8, "font-size": 10, fill: "currentColor" }, fmtTime(now.t)));
    this.chart.replaceChildren(svg);
  }
}
