// StatefulSet view: one row per ordinal with its pod and claims, the OrderedReady gate (which pod
// waits for which), the partition line and each pod's revision (current or update). Everything
// comes from the simulator's `statefulSets()` (src/controllers/statefulset/explain.rs), which
// walks the pods as the controller's own sync does.
import { h } from "../dom.js";

/** Revision kinds by shape and word, not only colour. */
const REVISION = {
  update: { mark: "●", text: "update revision" },
  current: { mark: "○", text: "current revision" },
  other: { mark: "◇", text: "another revision" },
  "": { mark: "·", text: "no pod" },
};

export class StatefulSetView {
  constructor(root, { client }) {
    this.root = root;
    this.client = client;
    this.select = h("select", { id: "sts-select", "aria-label": "StatefulSet" });
    this.select.addEventListener("change", () => this.draw());
    this.head = h("p", { id: "sts-head", class: "muted" });
    this.summary = h("p", { id: "sts-summary", class: "sts-summary", role: "status" });
    this.list = h("ol", { id: "sts-slots", class: "sts-slots" });
    root.replaceChildren(h("div", { class: "row" }, h("label", {}, "StatefulSet ", this.select)), this.head, this.summary, this.list);
    this.sets = [];
    this.seq = 0;
  }

  /** Fetches and draws, when the panel is shown. */
  async refresh() {
    if (this.root.hidden) return;
    const seq = ++this.seq;
    let sets;
    try {
      sets = await this.client.statefulSets();
    } catch (e) {
      if (seq === this.seq) this.summary.textContent = e.message;
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
    const set = this.sets.find((s) => `${s.namespace}/${s.name}` === this.select.value);
    this.select.parentElement.hidden = !this.sets.length;
    if (!set) {
      this.head.textContent = "";
      this.summary.textContent = "No StatefulSet in this scenario. This view shows a StatefulSet's pods in ordinal order, what each waits for, and the partition.";
      this.list.replaceChildren();
      return;
    }
    const rev = (r) => r || "(none yet)";
    this.head.textContent = `${set.podManagementPolicy} · ${set.updateStrategy}` +
      `${set.updateStrategy === "RollingUpdate" ? ` · partition ${set.partition}` : ""}` +
      ` · replicas ${set.replicas} (ready ${set.readyReplicas}, current ${set.currentReplicas}, updated ${set.updatedReplicas})` +
      ` · currentRevision ${rev(set.currentRevision)} · updateRevision ${rev(set.updateRevision)}`;
    this.summary.textContent = set.summary;
    const items = [];
    set.slots.forEach((slot, i) => {
      if (set.updateStrategy === "RollingUpdate" && set.partition > 0 && i === set.partition && !slot.condemned) {
        items.push(this.partitionLine(set.partition));
      }
      items.push(this.slotItem(slot, set.currentRevision === set.updateRevision));
    });
    // A partition at or above the replica count: every ordinal is below it.
    if (set.updateStrategy === "RollingUpdate" && set.partition > 0 && set.partition >= set.replicas) {
      const at = items.findIndex((li) => li.dataset.condemned === "true");
      items.splice(at < 0 ? items.length : at, 0, this.partitionLine(set.partition));
    }
    this.list.replaceChildren(...items);
  }

  partitionLine(p) {
    return h("li", { class: "partition-line", role: "presentation", id: "sts-partition", dataset: { partition: p } },
      `── partition ${p}: ordinals below ${p} keep the current revision; ${p} and above get the update revision ──`);
  }

  slotItem(slot, settled) {
    let r = REVISION[slot.revisionKind] ?? REVISION.other;
    if (settled && slot.revisionKind === "update") r = { ...r, text: "current = update revision" };
    const cls = ["sts-slot", slot.ready ? "ready" : "not-ready", slot.condemned ? "condemned" : "", slot.gate ? "waiting" : "", `rev-${slot.revisionKind || "none"}`]
      .filter(Boolean).join(" ");
    const claims = slot.claims.map((c) => h("span", { class: c.exists ? "claim" : "claim missing", dataset: { claim: c.name } },
      `PVC ${c.name} ${c.exists ? `(${c.phase || "Pending"})` : "(not created)"}`));
    return h("li", {
      class: cls,
      dataset: { name: slot.name, ordinal: slot.ordinal, revisionKind: slot.revisionKind, condemned: String(slot.condemned), belowPartition: String(slot.belowPartition) },
    },
    h("span", { class: "ordinal", "aria-label": `ordinal ${slot.ordinal}` }, `#${slot.ordinal}`), " ",
    h("strong", { class: "pod-name" }, slot.name), " ",
    h("span", { class: "badge state" }, slot.ready ? "✓ " : slot.exists ? "… " : "○ ", slot.state), " ",
    h("span", { class: "revision", title: slot.revision || "" },
      h("span", { "aria-hidden": "true" }, r.mark), ` ${r.text}${slot.revision ? ` (${slot.revision})` : ""}`),
    claims.length ? h("span", { class: "claims" }, " · ", claims.flatMap((c, i) => (i ? [", ", c] : [c]))) : null,
    slot.condemned ? h("span", { class: "badge" }, " scale down") : null,
    slot.gate ? h("div", { class: "gate", dataset: { waitsFor: slot.waitsFor } }, h("span", { "aria-hidden": "true" }, "⏳ "), slot.gate) : null);
  }
}
