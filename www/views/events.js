// Events panel: the cluster's events, newest at the bottom, Warnings marked in words.
import { h, fmtTime } from "../dom.js";

const MAX_ROWS = 1500;

export class EventsView {
  constructor(root) {
    this.warnOnly = h("input", { type: "checkbox", id: "events-warnings" });
    this.warnOnly.addEventListener("change", () => this.root.classList.toggle("warnings-only", this.warnOnly.checked));
    this.body = h("tbody", { id: "events-body" });
    this.scroller = h("div", { class: "scroll events-scroll" },
      h("table", { class: "events" },
        h("thead", {}, h("tr", {}, ["Time", "Type", "Reason", "Object", "Message"].map((c) => h("th", {}, c)))), this.body));
    this.root = root;
    root.replaceChildren(h("label", { class: "row" }, this.warnOnly, " Warnings only"), this.scroller);
  }

  /** Appends `events` (or replaces every row when `reset`). */
  add(events, reset) {
    const stick = this.scroller.scrollTop + this.scroller.clientHeight >= this.scroller.scrollHeight - 8;
    // Only the newest MAX_ROWS rows are kept: rows that would be dropped at once are never built
    // (a fast-forward frame brings thousands of events), and the count of rows to drop is taken
    // once (Blink counts `childElementCount` by walking the children: a loop testing it per
    // removal was quadratic, seconds per week of fast-forward).
    if (reset || events.length >= MAX_ROWS) this.body.replaceChildren();
    const rows = (events.length > MAX_ROWS ? events.slice(-MAX_ROWS) : events).map((e) =>
      h("tr", { class: e.type === "Warning" ? "ev-warning" : "ev-normal" },
        h("td", {}, fmtTime(e.time)), h("td", {}, e.type), h("td", {}, e.reason),
        h("td", {}, `${e.kind}/${e.name}`), h("td", {}, e.message)));
    this.body.append(...rows);
    for (let extra = this.body.childElementCount - MAX_ROWS; extra > 0; extra--) this.body.firstElementChild.remove();
    if (stick || reset) this.scroller.scrollTop = this.scroller.scrollHeight;
  }
}
