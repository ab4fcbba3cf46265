// kubectl console: a command line with history (↑/↓), the scenario's own timeline commands and
// the user's, with their output as text.
import { h, fmtTime } from "../dom.js";

export class ConsoleView {
  constructor(root, { run }) {
    this.run = run;
    this.history = [];
    this.pos = 0;
    this.out = h("div", { class: "console-out scroll", id: "console-out", "aria-live": "polite" });
    this.input = h("input", { id: "console-input", type: "text", spellcheck: "false", autocomplete: "off",
      placeholder: "get pods -o wide", "aria-label": "kubectl command" });
    const form = h("form", { class: "console-form" }, h("span", { class: "prompt" }, "$ kubectl"), this.input,
      h("button", { type: "submit" }, "Run"));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.submit();
    });
    this.input.addEventListener("keydown", (e) => {
      if (e.key === "ArrowUp" && this.pos > 0) {
        this.pos--;
        this.input.value = this.history[this.pos];
        e.preventDefault();
      } else if (e.key === "ArrowDown" && this.pos < this.history.length) {
        this.pos++;
        this.input.value = this.history[this.pos] ?? "";
        e.preventDefault();
      }
    });
    root.replaceChildren(this.out, form);
  }

  async submit() {
    const cmd = this.input.value.trim().replace(/^kubectl\s+/, "");
    if (!cmd) return;
    if (this.history.at(-1) !== cmd) this.history.push(cmd);
    this.pos = this.history.length;
    this.input.value = "";
    await this.run(cmd);
  }

  /** One entry: `source` is "you" or "timeline". */
  print({ time, cmd, output, ok, source }) {
    this.out.append(h("div", { class: `entry ${ok ? "ok" : "err"} from-${source}` },
      h("div", { class: "cmd" }, h("span", { class: "muted" }, `${fmtTime(time)} ${source === "timeline" ? "scenario" : "you"} `), `$ ${cmd}`),
      output ? h("pre", {}, output) : null));
    while (this.out.childElementCount > 300) this.out.firstElementChild.remove();
    this.out.scrollTop = this.out.scrollHeight;
  }

  /** Timeline log entries (reset: clear the scenario's entries first). */
  timeline(log, reset) {
    if (reset) for (const el of [...this.out.querySelectorAll(".from-timeline")]) el.remove();
    for (const e of log) {
      this.print({ time: e.time, cmd: e.action.replace(/^kubectl /, "kubectl "), output: e.output, ok: e.ok, source: "timeline" });
    }
  }

  clear() {
    this.out.replaceChildren();
  }
}
