// Rollout chart (SVG): for one Deployment, each ReplicaSet's pods and the available pods over
// time, between the bounds the strategy allows (desired + maxSurge pods at most, desired −
// maxUnavailable available at least).
import { h, s, hue, fmtTime } from "../dom.js";

const W = 960;
const H = 260;
const PAD = { l: 44, r: 16, t: 16, b: 30 };

export class RolloutView {
  constructor(root) {
    this.root = root;
    this.samples = []; // [{t, rollouts}]
    this.select = h("select", { id: "rollout-select", "aria-label": "Deployment" });
    this.select.addEventListener("change", () => this.draw());
    this.chart = h("div", { class: "chart" });
    this.legend = h("ul", { class: "legend", id: "rollout-legend" });
    this.status = h("p", { class: "muted", id: "rollout-status" });
    root.replaceChildren(h("div", { class: "row" }, h("label", {}, "Deployment ", this.select)), this.status, this.chart, this.legend);
    this.duration = 0;
  }

  /** Drops samples after `t` (after a rewind). */
  truncate(t) {
    this.samples = this.samples.filter((x) => x.t <= t);
  }

  reset() {
    this.samples = [];
  }

  sample(t, rollouts) {
    const last = this.samples.at(-1);
    if (last && t < last.t) this.truncate(t);
    if (this.samples.at(-1)?.t === t) this.samples.pop();
    this.samples.push({ t, rollouts });
  }

  add(frame) {
    if (frame.samples?.length && frame.samples[0].t < (this.samples.at(-1)?.t ?? 0)) this.truncate(frame.samples[0].t);
    for (const x of frame.samples ?? []) this.sample(x.t, x.rollouts);
    this.sample(frame.time, frame.rollouts);
    if (this.samples.length > 4000) this.samples = this.samples.filter((_, i) => i % 2 === 0 || i === this.samples.length - 1);
    this.duration = Math.max(frame.duration, frame.time);
    const names = frame.rollouts.map((d) => `${d.namespace}/${d.name}`);
    const current = [...this.select.options].map((o) => o.value);
    if (names.join() !== current.join()) {
      const keep = this.select.value;
      this.select.replaceChildren(...names.map((n) => h("option", { value: n }, n)));
      if (names.includes(keep)) this.select.value = keep;
    }
    this.draw();
  }

  draw() {
    const key = this.select.value;
    const series = this.samples
      .map(({ t, rollouts }) => ({ t, d: rollouts.find((d) => `${d.namespace}/${d.name}` === key) }))
      .filter((x) => x.d);
    this.select.parentElement.hidden = !this.select.options.length;
    if (!series.length) {
      this.chart.replaceChildren(h("p", { class: "empty" }, "No Deployment in this scenario. The chart follows a Deployment's ReplicaSets during a rollout."));
      this.legend.replaceChildren();
      this.status.textContent = "";
      return;
    }
    const rsNames = new Map(); // name -> {revision, hash}
    for (const { d } of series) for (const rs of d.replicaSets) rsNames.set(rs.name, rs);
    const now = series.at(-1).d;
    const yMax = Math.max(1, ...series.map(({ d }) => Math.max(d.desired + d.maxSurge, ...d.replicaSets.map((r) => Math.max(r.replicas, r.desired))))) + 1;
    const tMax = Math.max(this.duration, series.at(-1).t, 1);
    const x = (t) => PAD.l + (t / tMax) * (W - PAD.l - PAD.r);
    const y = (v) => H - PAD.b - (v / yMax) * (H - PAD.t - PAD.b);
    const step = (pts) => {
      if (!pts.length) return "";
      let d = `M${x(pts[0][0])},${y(pts[0][1])}`;
      for (let i = 1; i < pts.length; i++) d += `H${x(pts[i][0])}V${y(pts[i][1])}`;
      return d;
    };
    const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "rollout-svg", role: "img", "aria-label": `rollout of ${key}` });
    for (let v = 0; v <= yMax; v += Math.max(1, Math.ceil(yMax / 6))) {
      svg.append(s("line", { x1: PAD.l, x2: W - PAD.r, y1: y(v), y2: y(v), class: "grid" }),
        s("text", { x: PAD.l - 6, y: y(v) + 4, "text-anchor": "end", class: "axis" }, String(v)));
    }
    for (let i = 0; i <= 6; i++) {
      const t = (tMax * i) / 6;
      svg.append(s("text", { x: x(t), y: H - 8, "text-anchor": "middle", class: "axis" }, fmtTime(t)));
    }
    const maxPods = series.map(({ t, d }) => [t, d.desired + d.maxSurge]);
    const minAvail = series.map(({ t, d }) => [t, Math.max(0, d.desired - d.maxUnavailable)]);
    svg.append(s("path", { d: step(maxPods), class: "bound bound-max" }), s("path", { d: step(minAvail), class: "bound bound-min" }));
    const legend = [
      h("li", { class: "lg-bound-max" }, `max pods (desired + maxSurge): ${now.desired + now.maxSurge}`),
      h("li", { class: "lg-bound-min" }, `min available (desired − maxUnavailable): ${Math.max(0, now.desired - now.maxUnavailable)}`),
    ];
    for (const [name, info] of rsNames) {
      const pts = series.map(({ t, d }) => [t, d.replicaSets.find((r) => r.name === name)?.replicas ?? 0]);
      const colour = `hsl(${hue(info.hash || name)} 60% 45%)`;
      svg.append(s("path", { d: step(pts), class: "rs-line", stroke: colour }));
      const cur = now.replicaSets.find((r) => r.name === name);
      legend.push(h("li", { dataset: { rs: name } },
        s("svg", { width: 14, height: 10, class: "swatch" }, s("rect", { width: 14, height: 10, fill: colour })),
        ` ${name} (revision ${info.revision}${cur?.isNew ? ", new" : ", old"}): ${cur ? `${cur.replicas} pods, ${cur.available} available` : "deleted"}`));
    }
    const avail = series.map(({ t, d }) => [t, d.replicaSets.reduce((n, r) => n + r.available, 0)]);
    svg.append(s("path", { d: step(avail), class: "avail-line" }));
    legend.push(h("li", { class: "lg-avail" }, `available pods: ${avail.at(-1)[1]}`));
    svg.append(s("line", { x1: x(series.at(-1).t), x2: x(series.at(-1).t), y1: PAD.t, y2: H - PAD.b, class: "now-line" }));
    this.chart.replaceChildren(svg);
    this.legend.replaceChildren(...legend);
    this.status.textContent = `${now.strategy}${now.paused ? " (paused)" : ""} · desired ${now.desired} · maxSurge ${now.maxSurge} · maxUnavailable ${now.maxUnavailable}`;
  }
}
