// Deletion order: for a ReplicaSet (or ReplicationController) and a hypothetical replica count,
// the pods ranked as the controller would delete them and the rule that decided each adjacent
// pair (explainScaleDown). Each pod's controller.kubernetes.io/pod-deletion-cost can be edited in
// place: the change goes through `kubectl annotate` (so it is in the journal and share links)
// and the ranking is recomputed.
import { h } from "../dom.js";

export class DeletionView {
  constructor(root, { client, onScale, onCost, onError }) {
    this.client = client;
    this.onScale = onScale;
    this.onCost = onCost;
    this.onError = onError;
    this.owner = h("select", { id: "deletion-owner", "aria-label": "ReplicaSet" });
    this.replicas = h("input", { id: "deletion-replicas", type: "number", min: 0, max: 500, value: 1, "aria-label": "replicas" });
    this.scaleBtn = h("button", { type: "button", id: "deletion-scale" }, "Scale to this count");
    this.summary = h("p", { id: "deletion-summary", class: "muted" });
    this.list = h("ol", { id: "deletion-order", class: "deletion-order" });
    this.owner.addEventListener("change", () => {
      this.userReplicas = false;
      this.refresh();
    });
    this.replicas.addEventListener("input", () => {
      this.userReplicas = true;
      this.refresh();
    });
    this.scaleBtn.addEventListener("click", () => {
      const [kind, ns, name] = this.owner.value.split("/");
      if (name) this.onScale(kind === "ReplicationController" ? "rc" : "rs", ns, name, Number(this.replicas.value));
    });
    root.replaceChildren(
      h("div", { class: "row" }, h("label", {}, "Owner ", this.owner), h("label", {}, "scaled to ", this.replicas, " replicas"), this.scaleBtn),
      this.summary, this.list);
    this.seq = 0;
  }

  update(snap) {
    const owners = snap.workloads
      .filter((w) => w.kind === "ReplicaSet" || w.kind === "ReplicationController")
      .map((w) => ({ key: `${w.kind}/${w.namespace}/${w.name}`, w }));
    const keys = owners.map((o) => o.key);
    if (keys.join() !== [...this.owner.options].map((o) => o.value).join()) {
      const keep = this.owner.value;
      this.owner.replaceChildren(...owners.map((o) => h("option", { value: o.key }, `${o.w.kind} ${o.w.namespace}/${o.w.name}`)));
      if (keys.includes(keep)) this.owner.value = keep;
      else {
        const busiest = owners.slice().sort((a, b) => b.w.current - a.w.current)[0];
        if (busiest) this.owner.value = busiest.key;
        this.userReplicas = false;
      }
    }
    const sel = owners.find((o) => o.key === this.owner.value);
    if (sel && !this.userReplicas) this.replicas.value = String(Math.max(0, sel.w.desired - 1));
    this.refresh();
  }

  async refresh() {
    const [kind, ns, name] = this.owner.value.split("/");
    const seq = ++this.seq;
    if (!name) {
      this.summary.textContent = "No ReplicaSet or ReplicationController in this scenario.";
      this.list.replaceChildren();
      return;
    }
    const replicas = Math.max(0, Math.min(500, Math.trunc(Number(this.replicas.value) || 0)));
    let e;
    try {
      e = await this.client.explain(kind === "ReplicationController" ? "rc" : "rs", ns, name, replicas);
    } catch (err) {
      if (seq === this.seq) {
        this.summary.textContent = err.message;
        this.list.replaceChildren();
      }
      return;
    }
    if (seq !== this.seq) return;
    this.render(e, ns);
  }

  render(e, namespace) {
    this.summary.textContent = `${e.activePods} active pods → ${e.replicas}: ${e.deleteCount} deleted` +
      `${e.sorted ? "" : " (every pod goes, so no ranking)"}${e.burstLimited ? " (burstReplicas limits one sync)" : ""}.`;
    const items = [];
    e.pods.forEach((p, i) => {
      const facts = [p.node || "unscheduled", p.phase || "Pending", p.ready ? "ready" : "not ready",
        `cost ${p.deletionCost}`, `rank ${p.rank}`, `${p.restarts} restarts`];
      items.push(h("li", { class: p.delete ? "del-pod delete" : "del-pod keep", dataset: { name: p.name } },
        h("span", { class: "badge" }, p.delete ? "delete" : "keep"), " ",
        h("strong", { class: "pod-name" }, p.name), " ", h("span", { class: "muted" }, facts.join(" · ")), " ",
        this.costEditor(namespace, p)));
      const c = e.comparisons[i];
      if (c) {
        items.push(h("li", { class: c.consistent ? "del-rule" : "del-rule inconsistent", role: "presentation", dataset: { rule: c.rule } },
          `↑ before ↓ — ${c.rule ? c.text : "no rule tells them apart: input order kept"}`));
      }
    });
    this.list.replaceChildren(...items);
  }

  /** A small form setting the pod's deletion cost (an int32, as the API server validates). */
  costEditor(namespace, p) {
    const input = h("input", {
      type: "number", class: "cost-input", step: 1, value: String(p.deletionCost ?? 0),
      "aria-label": `pod-deletion-cost of ${p.name}`, dataset: { pod: p.name },
    });
    const form = h("form", { class: "cost-form" }, h("label", {}, "cost ", input),
      h("button", { type: "submit", class: "cost-set" }, "Set"));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      // The value is passed on verbatim: the API server's validation (not this page) decides
      // whether it is a valid int32, and its error is shown in the console.
      const v = input.value.trim();
      if (v !== "" && this.onCost) this.onCost(namespace, p.name, v);
    });
    return form;
  }
}
