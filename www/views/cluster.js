// Cluster view (SVG): nodes as boxes with their state in words and outline, pods as tiles keyed
// by uid (so a pod glides between states and nodes), coloured by owner and revision.
import { h, s, hue, reducedMotion } from "../dom.js";

const W = 960;
const GAP = 14;
const TILE = 26;
const TILE_GAP = 5;
const HEADER = 54;
/** Above this many pods the tiles are painted on a canvas over the SVG (one draw call per tile,
 * no DOM per pod) instead of being SVG groups: thousands of SVG groups cost many frames to style
 * and paint. Clicks on the canvas still open a pod; the pod table is its accessible equivalent. */
export const MANY = 500;

/** Colour of a pod: hue from its owner, lightness from its revision. */
export function podColour(p) {
  const owner = p.ownerUid || p.uid;
  const revs = [42, 56, 34, 64, 48];
  const l = p.revision ? revs[hue(p.revision) % revs.length] : 46;
  return `hsl(${hue(owner)} 58% ${l}%)`;
}

/** A pod's state as a word (what the tile's glyph and the table say). */
export function podState(p) {
  if (p.terminating) return "Terminating";
  if (p.reason) return p.reason;
  if (!p.node) return "Unscheduled";
  if (p.phase === "Running") return p.ready ? "Ready" : "Running (not ready)";
  return p.phase || "Pending";
}

function glyph(p) {
  if (p.terminating) return "✕";
  if (p.reason || p.phase === "Failed") return "!";
  if (!p.node || p.phase === "Pending" || !p.phase) return "…";
  if (p.phase === "Succeeded") return "◆";
  return p.ready ? "✓" : "◔";
}

/** Node state as words: Ready / NotReady / Unknown, plus cordoned and kubelet down. */
export function nodeState(n) {
  const words = [n.ready === "True" ? "Ready" : n.ready === "False" ? "NotReady" : "NotReady (Unknown)"];
  if (n.unschedulable) words.push("cordoned");
  if (n.down) words.push("kubelet down");
  return words.join(", ");
}

export class ClusterView {
  constructor(root, { onSelect }) {
    this.root = root;
    this.onSelect = onSelect;
    this.tiles = new Map(); // uid -> <g>
    this.nodeEls = new Map(); // node name -> its box's elements
    this.svg = s("svg", { class: "cluster-svg", viewBox: `0 0 ${W} 200`, role: "img", "aria-labelledby": "cluster-title" },
      s("title", { id: "cluster-title" }, "Nodes and pods"),
      s("defs", {},
        s("pattern", { id: "hatch", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
          s("rect", { width: 8, height: 8, class: "hatch-bg" }),
          s("line", { x1: 0, y1: 0, x2: 0, y2: 8, class: "hatch-line" }))),
    );
    this.nodeLayer = s("g", { class: "nodes" });
    this.podLayer = s("g", { class: "pods" });
    this.svg.append(this.nodeLayer, this.podLayer);
    this.table = h("table", { class: "pod-table", id: "pod-table" });
    this.summary = h("p", { class: "cluster-summary", id: "cluster-summary" });
    this.canvas = h("canvas", { class: "cluster-canvas", hidden: true, role: "img",
      "aria-label": "Pods (too many to list here: see the table of pods below)" });
    this.details = h("details", { class: "pod-details" }, h("summary", {}, "Pods as a table"), this.table);
    this.details.addEventListener("toggle", () => this.details.open && this.lastPods && this.renderTable(this.lastPods));
    this.painted = [];
    const wrap = h("div", { class: "cluster-wrap" }, this.svg, this.canvas);
    // The canvas lets clicks through to the node boxes; a click on a painted tile opens its pod.
    wrap.addEventListener("click", (e) => {
      if (this.canvas.hidden) return;
      const r = this.svg.getBoundingClientRect(); // (the canvas covers only a band of it)
      const k = W / r.width;
      const [x, y] = [(e.clientX - r.left) * k, (e.clientY - r.top) * k];
      const p = this.painted.find(([, px, py]) => x >= px && x < px + TILE && y >= py && y < py + TILE);
      if (!p) return;
      e.stopPropagation();
      this.onSelect({ kind: "pod", namespace: p[0].namespace, name: p[0].name });
    }, true);
    new ResizeObserver(([entry]) => (this.cssWidth = entry.contentRect.width)).observe(wrap);
    // The canvas covers only the band of the cluster around the window (see paintPods): a scroll
    // or a resize that leaves the band paints it again, also while the simulation is paused.
    const onScroll = () => {
      if (this.canvas.hidden || this.repaintQueued || !this.lastPaint) return;
      this.repaintQueued = true;
      requestAnimationFrame(() => {
        this.repaintQueued = false;
        if (this.canvas.hidden) return;
        const [pods, pos, height] = this.lastPaint;
        const vis = this.visible(height);
        if (!this.bandHolds(vis, height)) this.paintPods(pods, pos, height, vis);
      });
    };
    document.addEventListener("scroll", onScroll, { capture: true, passive: true });
    window.addEventListener("resize", onScroll);
    root.replaceChildren(this.summary, wrap, this.details);
  }

  render(snap) {
    const nodes = snap.nodes;
    // Where the cluster is in the window, read before this render writes to the DOM (reading it
    // after would force a layout in the middle of the frame).
    const vis = snap.pods.length > MANY ? this.visible(Infinity) : null;
    const cols = Math.max(1, Math.min(3, nodes.length));
    const boxW = (W - GAP * (cols + 1)) / cols;
    const perRow = Math.max(1, Math.floor((boxW - 16 + TILE_GAP) / (TILE + TILE_GAP)));
    const byNode = new Map(nodes.map((n) => [n.name, []]));
    const unscheduled = [];
    for (const p of snap.pods) (byNode.get(p.node) ?? unscheduled).push(p);
    const pos = new Map();
    // The node layer is kept from frame to frame: each node's elements are made once (keyed by
    // name) and only the attributes and texts that changed are written; at 2,000 pods every
    // node's counts change every frame, and rebuilding the boxes cost a style, layout and paint
    // of the whole SVG each time. `boxes` is the layer's children in order.
    const boxes = [];
    const names = new Set();
    let y = GAP;
    for (let r = 0; r < nodes.length; r += cols) {
      const row = nodes.slice(r, r + cols);
      const rowsOfTiles = Math.max(1, ...row.map((n) => Math.ceil(byNode.get(n.name).length / perRow)));
      const boxH = HEADER + rowsOfTiles * (TILE + TILE_GAP) + 10;
      row.forEach((n, i) => {
        const x = GAP + i * (boxW + GAP);
        names.add(n.name);
        boxes.push(this.nodeBox(n, x, y, boxW, boxH, byNode.get(n.name).length));
        byNode.get(n.name).forEach((p, k) => {
          pos.set(p.uid, [x + 8 + (k % perRow) * (TILE + TILE_GAP), y + HEADER + Math.floor(k / perRow) * (TILE + TILE_GAP)]);
        });
      });
      y += boxH + GAP;
    }
    if (unscheduled.length) {
      const allPerRow = Math.floor((W - 2 * GAP - 16) / (TILE + TILE_GAP));
      const boxH = 34 + Math.ceil(unscheduled.length / allPerRow) * (TILE + TILE_GAP) + 6;
      boxes.push(this.laneBox(y, boxH, unscheduled.length));
      unscheduled.forEach((p, k) => {
        pos.set(p.uid, [GAP + 8 + (k % allPerRow) * (TILE + TILE_GAP), y + 30 + Math.floor(k / allPerRow) * (TILE + TILE_GAP)]);
      });
      y += boxH + GAP;
    }
    if (!nodes.length && !unscheduled.length) {
      boxes.push(this.empty ??= s("text", { x: W / 2, y: 60, class: "empty", "text-anchor": "middle" }, "No nodes"));
      y = 100;
    }
    for (const name of this.nodeEls.keys()) if (!names.has(name)) this.nodeEls.delete(name);
    const kids = this.nodeLayer.children;
    if (kids.length !== boxes.length || boxes.some((b, i) => kids[i] !== b)) this.nodeLayer.replaceChildren(...boxes);
    const viewBox = `0 0 ${W} ${Math.max(y, 100)}`;
    if (this.svg.getAttribute("viewBox") !== viewBox) this.svg.setAttribute("viewBox", viewBox);
    if (snap.pods.length > MANY) {
      this.renderPods([], pos);
      this.paintPods(snap.pods, pos, Math.max(y, 100), vis);
    } else {
      if (!this.canvas.hidden) {
        this.canvas.hidden = true;
        this.painted = [];
        this.cells = null; // what the canvas shows is unknown from here on
      }
      this.renderPods(snap.pods, pos);
    }
    // Large clusters: the table (inside a closed <details>) is brought up to date when opened.
    this.lastPods = snap.pods;
    if (snap.pods.length <= MANY || this.details.open) this.renderTable(snap.pods);
    const ready = snap.pods.filter((p) => p.ready && !p.terminating).length;
    setText(this.summary,
      `${nodes.length} nodes (${nodes.filter((n) => n.ready === "True").length} Ready) · ` +
      `${snap.pods.length} pods (${ready} ready) · ${snap.workloads.length} workloads`);
  }

  /** A node's box, made on first sight and brought up to date in place (only what changed is
   * written). Same elements, classes and order as ever: title, box, hatch (not-ready nodes
   * only), name, state, then two bars (background, fill, label). */
  nodeBox(n, x, y, w, hgt, podCount) {
    let el = this.nodeEls.get(n.name);
    if (!el) {
      const bar = () => ({ bg: s("rect", { height: 6, rx: 3, class: "bar-bg" }), fill: s("rect", { height: 6, rx: 3 }),
        label: s("text", { class: "bar-label", "text-anchor": "end" }) });
      el = { title: s("title"), box: s("rect", { rx: 10, class: "node-box" }),
        hatch: s("rect", { rx: 10, class: "node-hatch", fill: "url(#hatch)" }),
        name: s("text", { class: "node-name" }, n.name), state: s("text", { class: "node-state", "text-anchor": "end" }),
        bars: [bar(), bar()] };
      el.g = s("g", { dataset: { node: n.name }, tabindex: 0, role: "button" }, el.title, el.box, el.name, el.state,
        el.bars.map((b) => [b.bg, b.fill, b.label]));
      el.g.addEventListener("click", () => this.onSelect({ kind: "node", namespace: "", name: n.name }));
      el.g.addEventListener("keydown", (e) => e.key === "Enter" && this.onSelect({ kind: "node", namespace: "", name: n.name }));
      this.nodeEls.set(n.name, el);
    }
    const ok = n.ready === "True" && !n.down;
    const state = nodeState(n);
    setAttrs(el.g, { class: ["node", ok ? "node-ready" : "node-notready", n.unschedulable ? "node-cordoned" : ""].join(" "),
      "aria-label": `node ${n.name}: ${state}` });
    setText(el.title, `${n.name}: ${state}${n.taints.length ? `\ntaints: ${n.taints.join(", ")}` : ""}`);
    setAttrs(el.box, { x, y, width: w, height: hgt });
    if (ok) el.hatch.remove();
    else {
      setAttrs(el.hatch, { x, y, width: w, height: hgt });
      if (!el.hatch.isConnected) el.box.after(el.hatch);
    }
    setAttrs(el.name, { x: x + 10, y: y + 19 });
    setAttrs(el.state, { x: x + w - 10, y: y + 19 });
    setText(el.state, state);
    const cpu = n.cpuMilli ? n.cpuRequestedMilli / n.cpuMilli : 0;
    const pods = n.podsCapacity ? podCount / n.podsCapacity : 0;
    const barW = (w - 20) / 2 - 6;
    const bar = ({ bg, fill, label }, bx, frac, text) => {
      setAttrs(bg, { x: bx, y: y + 34, width: barW });
      setAttrs(fill, { x: bx, y: y + 34, width: Math.max(0, Math.min(1, frac)) * barW, class: frac > 0.9 ? "bar bar-hot" : "bar" });
      setAttrs(label, { x: bx + barW, y: y + 29 });
      setText(label, text);
    };
    bar(el.bars[0], x + 10, cpu, `cpu ${n.cpuRequestedMilli}m/${n.cpuMilli}m`);
    bar(el.bars[1], x + 10 + barW + 12, pods, `pods ${podCount}/${n.podsCapacity}`);
    return el.g;
  }

  /** The "Unscheduled" lane under the nodes, kept and updated in place like the node boxes. */
  laneBox(y, hgt, count) {
    if (!this.lane) {
      const box = s("rect", { x: GAP, width: W - 2 * GAP, rx: 8, class: "lane-box" });
      const text = s("text", { x: GAP + 10, class: "node-name" });
      this.lane = { g: s("g", { class: "lane" }, box, text), box, text };
    }
    setAttrs(this.lane.box, { y, height: hgt });
    setAttrs(this.lane.text, { y: y + 20 });
    setText(this.lane.text, `Unscheduled (${count})`);
    return this.lane.g;
  }

  renderPods(pods, pos) {
    const still = reducedMotion();
    const seen = new Set();
    for (const p of pods) {
      seen.add(p.uid);
      let g = this.tiles.get(p.uid);
      const [x, y] = pos.get(p.uid);
      const fresh = !g;
      if (fresh) {
        g = s("g", { class: "pod entering", tabindex: 0, role: "button" },
          s("title", {}), s("rect", { width: TILE, height: TILE, rx: 5 }),
          s("text", { x: TILE / 2, y: TILE / 2 + 5, "text-anchor": "middle", class: "glyph" }));
        g.addEventListener("click", () => this.onSelect({ kind: "pod", namespace: g.dataset.ns, name: g.dataset.name }));
        g.addEventListener("keydown", (e) => e.key === "Enter" && this.onSelect({ kind: "pod", namespace: g.dataset.ns, name: g.dataset.name }));
        g.last = {}; // what was last written, so an unchanged pod costs no DOM write
        this.tiles.set(p.uid, g);
        this.podLayer.append(g);
      }
      const last = g.last;
      const state = podState(p);
      const put = (k, v, write) => {
        if (last[k] !== v) {
          last[k] = v;
          write(v);
        }
      };
      put("uid", p.uid, (v) => (g.dataset.uid = v));
      put("ns", p.namespace, (v) => (g.dataset.ns = v));
      put("name", p.name, (v) => (g.dataset.name = v));
      put("state", state, (v) => (g.dataset.state = v));
      put("label", `pod ${p.name}: ${state}`, (v) => g.setAttribute("aria-label", v));
      put("class", ["pod", p.terminating ? "pod-terminating" : "", !p.node ? "pod-pending" : "",
        p.ready ? "pod-ready" : "", p.reason || p.phase === "Failed" ? "pod-bad" : "", fresh && !still ? "entering" : ""].join(" ").trim(),
      (v) => g.setAttribute("class", v));
      put("transform", `translate(${x}px, ${y}px)`, (v) => (g.style.transform = v));
      const [title, rect, text] = g.children;
      put("title", `${p.namespace}/${p.name}\n${state}${p.restarts ? ` · ${p.restarts} restarts` : ""}\n` +
        `${p.ownerKind ? `${p.ownerKind}/${p.ownerName}` : "no owner"}${p.revision ? ` · revision ${p.revision}` : ""}` +
        `${p.node ? `\non ${p.node}` : ""}${p.deletionCost ? `\ndeletion cost ${p.deletionCost}` : ""}`, (v) => (title.textContent = v));
      put("fill", podColour(p), (v) => rect.setAttribute("fill", v));
      put("glyph", glyph(p), (v) => (text.textContent = v));
      if (fresh && !still) {
        requestAnimationFrame(() => requestAnimationFrame(() => {
          g.classList.remove("entering");
          last.class = g.getAttribute("class");
        }));
      }
    }
    for (const [uid, g] of this.tiles) {
      if (seen.has(uid)) continue;
      this.tiles.delete(uid);
      if (still) g.remove();
      else {
        g.classList.add("leaving");
        setTimeout(() => g.remove(), 450);
      }
    }
  }

  /** The rows of the cluster in the window: [from, to] in SVG units (to ≤ from: none). */
  visible(height) {
    const r = this.svg.getBoundingClientRect();
    if (!r.width) return [0, 0];
    const k = W / r.width;
    return [Math.max(0, -r.top * k), Math.min(height, (window.innerHeight - r.top) * k)];
  }

  /** The band's height in SVG units: the window's height and a quarter of it above and below. */
  bandHeight() {
    return (1.5 * Math.max(100, window.innerHeight) * W) / (this.cssWidth || W);
  }

  /** Whether the canvas, as last painted, has the size it should and covers the visible rows
   * `vis` (when none are visible, any band will do). */
  bandHolds([from, to], height) {
    const scale = ((this.cssWidth || W) / W) * Math.min(2, window.devicePixelRatio || 1);
    if (this.bandTop === undefined || this.canvas.width !== Math.round(W * scale) ||
      this.canvas.height !== Math.ceil(this.bandHeight() * scale)) return false;
    [from, to] = [Math.min(from, height), Math.min(to, height)];
    return to <= from || (from >= this.bandTop && to <= this.bandTop + this.bandHeight());
  }

  /** Large clusters: the tiles painted on the canvas (same colours and glyphs as the SVG). The
   * canvas covers only a band of the cluster around the window (its bitmap is copied to the
   * compositor whole every frame: a canvas the cluster's height cost more than the painting)
   * and keeps the previous frame: only the cells whose look changed are cleared and painted
   * again (a pod leaving a node shifts the tiles after it, but neighbours mostly look alike). */
  paintPods(pods, pos, height, vis) {
    this.lastPaint = [pods, pos, height];
    const c = this.canvas;
    c.hidden = false;
    const ratio = Math.min(2, window.devicePixelRatio || 1);
    this.cssWidth ||= this.svg.clientWidth;
    const scale = ((this.cssWidth || W) / W) * ratio;
    const bandH = this.bandHeight();
    const [cw, ch] = [Math.round(W * scale), Math.ceil(bandH * scale)];
    if (c.width !== cw || c.height !== ch) {
      [c.width, c.height] = [cw, ch]; // (clears the canvas)
      this.cells = null;
    }
    // The band moves (a full repaint) only when the visible rows leave it: then it starts a
    // quarter of the window above them. Its top is a whole device pixel, so that cells keep
    // their pixels; the wrap clips what reaches below the cluster.
    if (!this.bandHolds(vis, height)) {
      const [from, to] = [Math.min(vis[0], height), Math.min(vis[1], height)];
      const top = to <= from ? 0 : Math.max(0, from - bandH / 6);
      this.bandTop = Math.round(top * scale) / scale;
      c.style.top = `${Math.round(top * scale) / ratio}px`;
      this.cells = null;
    }
    const T = Math.round(this.bandTop * scale);
    const g = c.getContext("2d");
    if (!this.colours) {
      const css = getComputedStyle(c);
      this.colours = { bad: css.getPropertyValue("--bad").trim() || "#c62828", ink: css.getPropertyValue("--ink").trim() || "#1b2333" };
      this.sprites = null;
      if (!this.schemeWatched) window.matchMedia?.("(prefers-color-scheme: dark)").addEventListener?.("change", () => (this.colours = null));
      this.schemeWatched = true;
    }
    const { bad, ink } = this.colours;
    // One sprite per distinct look (owner colour × state), drawn with drawImage at whole device
    // pixels and its own size (a plain copy): far cheaper than a path and a fillText per tile.
    if (this.sprites?.ratio !== scale) {
      this.sprites = Object.assign(new Map(), { ratio: scale });
      this.cells = null;
    }
    const M = 2; // room for the 3px outline of a failing pod
    const half = TILE_GAP / 2;
    // A tile's cell reaches half-way to its neighbours, its edges rounded to device pixels, so
    // cells share no pixel and (from one device pixel per unit up) each holds all of its tile's
    // paint. Below that, neighbours may share pixels: everything is painted again every frame.
    const full = !this.cells || scale < 1;
    const prev = full ? new Map() : this.cells; // cell key -> [look, left, top, width, height] in canvas pixels
    const next = new Map();
    const dirty = [];
    this.painted = [];
    for (const p of pods) {
      const [x, y] = pos.get(p.uid);
      this.painted.push([p, x, y]);
      const cy = Math.round((y - half) * scale) - T;
      if (cy >= ch || cy + (TILE + TILE_GAP) * scale <= 0) continue; // outside the band
      const cx = Math.round((x - half) * scale);
      const fill = podColour(p);
      const look = `${fill}|${glyph(p)}|${!p.node}|${!!p.terminating}|${!!(p.reason || p.phase === "Failed")}`;
      const key = cy * 65536 + cx;
      const was = prev.get(key);
      prev.delete(key);
      if (was?.[0] === look) {
        next.set(key, was);
        continue;
      }
      const cell = [look, cx, cy, Math.round((x + TILE + half) * scale) - cx, Math.round((y + TILE + half) * scale) - T - cy];
      next.set(key, cell);
      dirty.push([p, fill, look, x, y, cell]);
    }
    this.cells = next;
    g.setTransform(1, 0, 0, 1, 0, 0);
    if (full) g.clearRect(0, 0, c.width, c.height);
    // Clear every cell that changed or emptied before painting any (after a change of layout an
    // emptied cell may overlap a new one).
    else for (const cells of [prev.values(), dirty.map((d) => d[5])]) for (const [, cx, cy, w, hh] of cells) g.clearRect(cx, cy, w, hh);
    for (const [p, fill, look, x, y] of dirty) {
      let sprite = this.sprites.get(look);
      if (!sprite) {
        sprite = document.createElement("canvas");
        sprite.width = sprite.height = Math.ceil((TILE + 2 * M) * scale);
        const sg = sprite.getContext("2d");
        sg.setTransform(scale, 0, 0, scale, M * scale, M * scale);
        drawTile(sg, p, fill, bad, ink);
        this.sprites.set(look, sprite);
      }
      g.drawImage(sprite, Math.round((x - M) * scale), Math.round((y - M) * scale) - T);
    }
  }

  renderTable(pods) {
    if (!this.tbody) {
      this.tbody = h("tbody", {});
      this.rows = new Map(); // uid -> <tr>
      this.table.replaceChildren(
        h("thead", {}, h("tr", {}, ["Namespace", "Name", "Node", "State", "Owner", "Revision", "Restarts"].map((c) => h("th", {}, c)))),
        this.tbody);
    }
    const order = [];
    const seen = new Set();
    for (const p of pods) {
      seen.add(p.uid);
      let tr = this.rows.get(p.uid);
      if (!tr) {
        tr = h("tr", { dataset: { uid: p.uid } }, h("td"), h("td"), h("td"), h("td"), h("td"), h("td"), h("td"));
        this.rows.set(p.uid, tr);
      }
      const cells = [p.namespace, p.name, p.node || "<none>", podState(p),
        p.ownerKind ? `${p.ownerKind}/${p.ownerName}` : "", p.revision ?? "", String(p.restarts)];
      for (let i = 0; i < cells.length; i++) setText(tr.children[i], String(cells[i]));
      order.push(tr);
    }
    for (const uid of this.rows.keys()) if (!seen.has(uid)) this.rows.delete(uid);
    const current = this.tbody.children;
    if (current.length !== order.length || order.some((tr, i) => current[i] !== tr)) this.tbody.replaceChildren(...order);
  }
}

/** One tile on a canvas context at (0, 0): the canvas twin of the SVG tile and its CSS. */
function drawTile(g, p, fill, bad, ink) {
  const pending = !p.node;
  const failing = p.reason || p.phase === "Failed";
  const alpha = p.terminating ? 0.45 : 1;
  g.beginPath();
  g.roundRect(0, 0, TILE, TILE, 5);
  g.fillStyle = fill;
  g.globalAlpha = pending ? alpha * 0.25 : alpha;
  g.fill();
  g.globalAlpha = alpha;
  g.setLineDash(pending ? [3, 2] : p.terminating ? [2, 2] : []);
  g.lineWidth = failing ? 3 : 1;
  g.strokeStyle = failing ? bad : "rgb(0 0 0 / 25%)";
  g.stroke();
  g.font = "700 13px system-ui, sans-serif";
  g.textAlign = "center";
  g.fillStyle = pending ? ink : "#fff";
  g.fillText(glyph(p), TILE / 2, TILE / 2 + 5);
}

/** Sets the attributes whose value differs from what this function last set on the element
 * (remembered on it): a write invalidates style and paint even when the value is the same. */
function setAttrs(el, attrs) {
  const last = (el.written ??= {});
  for (const k in attrs) {
    const v = String(attrs[k]);
    if (last[k] !== v) {
      last[k] = v;
      el.setAttribute(k, v);
    }
  }
}

/** Sets an element's text only when it differs (a write invalidates layout even when equal). */
function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}
