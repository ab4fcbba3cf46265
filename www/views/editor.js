// YAML editor: a textarea with line numbers and the line of the last error marked inline.
import { h } from "../dom.js";

export class EditorView {
  constructor(root, { onRun, onApply, scenarios, onPick }) {
    this.area = h("textarea", { id: "scenario", spellcheck: "false", wrap: "off", "aria-label": "Scenario YAML", autocapitalize: "off" });
    this.gutter = h("div", { class: "gutter", "aria-hidden": "true" });
    this.error = h("div", { class: "editor-error", id: "editor-error", role: "alert", hidden: true });
    this.pick = h("select", { id: "scenario-select", "aria-label": "Built-in scenario" });
    this.pick.addEventListener("change", () => onPick(this.pick.value));
    this.description = h("p", { class: "muted", id: "scenario-description" });
    this.area.addEventListener("input", () => this.numbers());
    this.area.addEventListener("scroll", () => {
      this.gutter.scrollTop = this.area.scrollTop;
    });
    this.area.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        onRun();
      } else if (e.key === "Tab" && !e.shiftKey && !e.altKey) {
        // Two spaces, as YAML wants (Esc then Tab leaves the editor).
        if (this.escaped) return;
        e.preventDefault();
        this.area.setRangeText("  ", this.area.selectionStart, this.area.selectionEnd, "end");
        this.numbers();
      }
      this.escaped = e.key === "Escape";
    });
    root.replaceChildren(
      h("div", { class: "row" }, h("label", {}, "Scenario ", this.pick),
        h("button", { type: "button", id: "run-scenario", onclick: onRun, title: "Ctrl+Enter" }, "Load scenario"),
        h("button", { type: "button", id: "apply-yaml", onclick: onApply, title: "kubectl apply -f - at the current time" }, "kubectl apply")),
      this.description,
      h("div", { class: "editor" }, this.gutter, this.area),
      this.error);
    this.setScenarios(scenarios ?? []);
  }

  setScenarios(list) {
    this.scenarios = list;
    this.pick.replaceChildren(h("option", { value: "" }, "(your own)"), ...list.map((sc) => h("option", { value: sc.name }, sc.name)));
  }

  choose(name) {
    this.pick.value = name ?? "";
    const sc = this.scenarios.find((x) => x.name === name);
    this.description.textContent = sc?.description ?? "";
  }

  get value() {
    return this.area.value;
  }

  set value(text) {
    this.area.value = text;
    this.numbers();
  }

  numbers() {
    const n = this.area.value.split("\n").length;
    if (n !== this.lines) {
      this.lines = n;
      const frag = document.createDocumentFragment();
      for (let i = 1; i <= n; i++) frag.append(h("div", { class: i === this.errorLine ? "ln ln-error" : "ln" }, String(i)));
      this.gutter.replaceChildren(frag);
    }
  }

  /** Shows `message`; marks its line when it names one (`line 3, column 5: ...`). */
  showError(message) {
    const m = /\bline (\d+)/.exec(message);
    this.errorLine = m ? Number(m[1]) : this.itemLine(message);
    this.lines = -1;
    this.numbers();
    this.error.replaceChildren(this.errorLine ? h("strong", {}, `Line ${this.errorLine}: `) : "", message);
    this.error.hidden = false;
    if (this.errorLine) {
      const lh = parseFloat(getComputedStyle(this.area).lineHeight) || 18;
      this.area.scrollTop = Math.max(0, (this.errorLine - 3) * lh);
    }
  }

  /** The line of `objects[N]` (or `timeline[N]`, `nodes[N]`) named at the start of a message. */
  itemLine(message) {
    const m = /^(objects|timeline|nodes)\[(\d+)\]/.exec(message);
    if (!m) return null;
    const lines = this.area.value.split("\n");
    const top = lines.findIndex((l) => l.startsWith(`${m[1]}:`));
    if (top < 0) return null;
    let indent = null;
    let n = -1;
    for (let i = top + 1; i < lines.length; i++) {
      const l = lines[i];
      if (/^[^\s#-]/.test(l)) break;
      const item = /^(\s*)- /.exec(l);
      if (!item) continue;
      indent ??= item[1].length;
      if (item[1].length === indent && ++n === Number(m[2])) return i + 1;
    }
    return null;
  }

  clearError() {
    if (this.error.hidden && !this.errorLine) return;
    this.errorLine = null;
    this.lines = -1;
    this.numbers();
    this.error.hidden = true;
    this.error.replaceChildren();
  }
}
