// DaemonSet view: one slot per node with the controller's verdict (nodeShouldRunDaemonPod: should
// run, should continue running) and why, plus the daemon pods on it. The reasons come from the
// simulator's `daemonSets()` (src/controllers/daemon/explain.rs), not from JavaScript.
import { h } from "../dom.js";

function verdict(n) {
  if (n.shouldRun) return { mark: "✓", text: "runs a daemon pod", cls: "eligible" };
  if (n.shouldContinueRunning) return { mark: "◐", text: "no new pod; a running one may stay", cls: "keep-only" };
  return { mark: "✗", text: "not eligible", cls: "ineligible" };
}

export class DaemonSetView {
  constructor(root, { client }) {
    this.root = root;
    this.client = client;
    this.select = h("select", { id: "ds-select", "aria-label": "DaemonSet" });
    this.select.addEventListener("change", () => this.draw());
    this.head = h("p", { id: "ds-head", class: "muted", role: "status" });
    this.list = h("ul", { id: "ds-nodes", class: "ds-nodes" });
    root.replaceChildren(h("div", { class: "row" }, h("label", {}, "DaemonSet ", this.select)), this.head, this.list);
    this.sets = [];
    this.seq = 0;
  }

  async refresh() {
    if (this.root.hidden) return;
    const seq = ++this.seq;
    let sets;
    try {
      sets = await this.client.daemonSets();
    } catch (e) {
      if (seq === this.seq) this.head.textContent = e.message;
      return;
    }
    if (seq !== this.seq) return;
    this.sets = sets;
    const keys = sets.map((s) => `${s.namespace}/${s.name}`);
    if (keys.join() !== [...this.select.options].map((o) => o.value).join()) {
      const keep = this.select.value;
      this.select.replaceChildren(...keys.map((k) => h("option", { value: k }, k)));
      if (keys.includes(keep)) this.select.value = keep;
    }
    this.draw();
  }

  draw() {
    const ds = this.sets.find((s) => `${s.namespace}/${s.name}` === this.select.value);
    this.select.parentElement.hidden = !this.sets.length;
    if (!ds) {
      this.head.textContent = "No DaemonSet in this scenario. This view shows, for every node, whether a DaemonSet runs there and why.";
      this.list.replaceChildren();
      return;
    }
    this.head.textContent = `desired ${ds.desired} · current ${ds.current} · ready ${ds.ready} · up-to-date ${ds.updated} · available ${ds.available}` +
      `${ds.misscheduled ? ` · misscheduled ${ds.misscheduled}` : ""}`;
    this.list.replaceChildren(...ds.nodes.map((n) => {
      const v = verdict(n);
      const pods = n.pods.length
        ? n.pods.map((p) => h("span", { class: p.ready ? "ds-pod ready" : "ds-pod", dataset: { pod: p.name } },
          `${p.name} (${p.terminating ? "Terminating" : p.phase || "Pending"}${p.ready ? ", ready" : ""})`))
        : [h("span", { class: "muted" }, "no daemon pod")];
      return h("li", { class: `ds-node ${v.cls}`, dataset: { node: n.node, shouldRun: String(n.shouldRun), shouldContinueRunning: String(n.shouldContinueRunning) } },
        h("span", { class: "verdict" }, h("span", { "aria-hidden": "true" }, `${v.mark} `), h("strong", {}, n.node), `: ${v.text}`),
        h("div", { class: "reason" }, n.reason),
        n.notes.length ? h("ul", { class: "notes muted" }, n.notes.map((x) => h("li", {}, x))) : null,
        h("div", { class: "ds-pods" }, "Pods: ", pods.flatMap((p, i) => (i ? [", ", p] : [p]))));
    }));
  }
}
