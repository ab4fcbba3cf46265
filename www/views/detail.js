// Object detail panel: `kubectl get <kind> <name> -o yaml` of the selected object, refreshed
// as time moves.
import { h } from "../dom.js";

export class DetailView {
  constructor(root, { client }) {
    this.client = client;
    this.root = root;
    this.title = h("h3", { id: "detail-title" }, "Nothing selected");
    this.pre = h("pre", { id: "detail-yaml", class: "scroll yaml" }, "Click a node or a pod.");
    root.replaceChildren(this.title, this.pre);
    this.target = null;
    this.seq = 0;
  }

  select(target) {
    this.target = target;
    this.refresh();
  }

  async refresh() {
    const t = this.target;
    if (!t) return;
    const seq = ++this.seq;
    this.title.textContent = `${t.kind} ${t.namespace ? `${t.namespace}/` : ""}${t.name}`;
    let text;
    try {
      text = await this.client.getYaml(t.kind, t.namespace, t.name);
    } catch (e) {
      text = e.message;
    }
    if (seq === this.seq) this.pre.textContent = text;
  }
}
