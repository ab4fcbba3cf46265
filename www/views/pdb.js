// PodDisruptionBudget view: status, pods, each drain eviction and why it was refused.
import { h, fmtTime } from "../dom.js";

const n = (k, w) => `${k} ${w}${k === 1 ? "" : "s"}`;
const drain = (e) => /^kubectl drain\b/.test(e.action);
const key = (o) => `${o.metadata.namespace}/${o.metadata.name}`;

// A drain's evictions; a pod asked for again starts the next round, 5 s later.
export function drainAttempts(e) {
  const out = [];
  let [time, round, seen] = [e.time, 0, new Set()];
  for (const line of e.output.split("\n")) {
    const m = /^evicting pod ([^/\s]+)\/(\S+)$/.exec(line);
    const a = out.at(-1);
    if (m) {
      if (seen.has(line)) [time, round, seen] = [time + 5, round + 1, new Set()];
      seen.add(line);
      out.push({ time, ns: m[1], pod: m[2], round, ok: true });
    } else if (a?.ok && line.includes(`pods/"${a.pod}" -n "${a.ns}"`)) {
      Object.assign(a, { ok: false, blocked: line.includes("will retry"), message: line.replace(/^.*?\): /, "") });
    }
  }
  return out;
}

// The status `a` was decided on: the last write before the approval of `a` or a later one.
function statusAt(rows, a, list) {
  const i = list.indexOf(a);
  const same = list.filter((x) => x.round === a.round && x.ok);
  const later = same.filter((x) => list.indexOf(x) >= i).map((x) => x.pod);
  const last = same.filter((x) => list.indexOf(x) < i).at(-1)?.pod;
  let s = null;
  for (const r of rows) {
    if (r.t > a.time) break;
    const got = r.t === a.time ? r.pods.filter((p) => !s?.pods.includes(p)) : [];
    if (got.some((p) => later.includes(p))) break;
    s = r;
    if (got.includes(last)) break;
  }
  return s;
}

function why(s) {
  if (!s) return "unknown";
  if ((s.observedGeneration ?? 0) < s.gen) return `the controller had not observed generation ${s.gen} yet`;
  if (!s.expectedPods) return "no pods expected → 0 disruptions allowed";
  const base = Math.max(0, s.currentHealthy - s.desiredHealthy);
  return `${s.currentHealthy} healthy, ${s.desiredHealthy} desired → ${n(base, "disruption")} allowed` +
    (base > s.disruptionsAllowed ? `, already taken by the eviction of ${s.pods.join(", ")} → ${s.disruptionsAllowed} left` : "");
}

export class PdbView {
  constructor(root) {
    this.root = root;
    this.data = { items: [], history: [] };
    this.clear();
  }

  update(f) {
    this.data = f.pdbs;
    this.snap = f.snapshot;
    this.time = f.time;
    if (f.logReset) this.log = [];
    this.log.push(...f.log.filter(drain));
    if (!this.root.hidden) this.draw();
  }

  command(e) {
    this.mine = this.mine.filter((x) => x.time <= e.time);
    if (drain(e)) this.mine.push(e);
  }

  clear() {
    this.log = [];
    this.mine = [];
  }

  attempts() {
    const rows = (k) => this.data.history.filter((r) => `${r[1]}/${r[2]}` === k)
      .map(([t, , , gen, st]) => ({ ...st, t, gen, pods: Object.keys(st.disruptedPods ?? {}) }));
    return [...this.log, ...this.mine.filter((x) => x.time <= this.time)].flatMap((e) => {
      const list = drainAttempts(e);
      return list.map((a) => {
        const own = this.data.items.filter(([o]) => o.metadata.namespace === a.ns);
        const [o] = own.find(([, , pods]) => pods.some((p) => p[0] === a.pod)) ?? own.find(([o]) => rows(key(o)).some((r) => r.pods.includes(a.pod))) ?? own[0] ?? [];
        return { ...a, pdb: o && key(o), status: o && statusAt(rows(key(o)), a, list) };
      });
    });
  }

  draw() {
    const all = this.attempts();
    this.root.replaceChildren(...this.data.items.map(([o, selector, pods]) => {
      const { spec, status: s } = o;
      const min = spec.minAvailable ?? null;
      const bound = min !== null ? `minAvailable ${min}` : `maxUnavailable ${spec.maxUnavailable ?? "unset"}`;
      const c = s.conditions?.find((x) => x.type === "DisruptionAllowed");
      const ev = all.filter((a) => a.pdb === key(o)).map((a) => h("li", { class: `pdb-item ${a.ok ? "ok" : "bad"}`, dataset: { pod: a.pod, blocked: !!a.blocked } },
        `${fmtTime(a.time)} ${a.ok ? "✓ evicted" : "✗ refused"} `, h("strong", {}, a.pod), a.ok ? ` (${n(a.status?.disruptionsAllowed ?? 0, "disruption")} allowed)` : `: ${a.message}`,
        a.blocked && h("div", { class: "why" }, `Why: ${why(a.status)}.`)));
      return h("section", {},
        h("h3", {}, `PodDisruptionBudget ${key(o)}`),
        h("p", { class: "pdb-head" }, `selector ${selector} · ${bound}`),
        h("p", { class: "pdb-status" }, `currentHealthy ${s.currentHealthy} · desiredHealthy ${s.desiredHealthy} (${min !== null ? bound : `${s.expectedPods} expected − ${bound}`}) · ` +
          `disruptionsAllowed ${s.disruptionsAllowed} · expectedPods ${s.expectedPods}`),
        h("p", { class: "pdb-cond" }, c && `${c.status === "True" ? "✓" : "✗"} DisruptionAllowed ${c.status} (${c.reason})${c.message ? `: ${c.message}` : ""}`),
        h("h3", {}, "Pods it covers"),
        h("ul", { class: "pdb-list pdb-pods" }, pods.map(([name, ok]) => {
          const p = this.snap.pods.find((x) => x.name === name && x.namespace === o.metadata.namespace) ?? {};
          return h("li", { class: `pdb-item ${ok ? "ok" : "bad"}`, dataset: { pod: name, healthy: !!ok } }, `${ok ? "✓ healthy" : "✗ not healthy"}: `, h("strong", {}, name),
            ` on ${p.node || "no node"} (${p.terminating ? "Terminating" : p.phase || "Pending"}, ${p.ready ? "ready" : "not ready"}${s.disruptedPods?.[name] ? ", eviction approved" : ""})`);
        })),
        h("h3", {}, "Evictions (kubectl drain)"),
        h("ul", { class: "pdb-list pdb-evictions" }, ev.length ? ev : h("li", { class: "muted" }, "No eviction yet.")));
    }));
  }
}
