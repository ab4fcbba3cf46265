// DOM helpers. Every string reaches the DOM as text (textContent / attributes), never as HTML.
export const SVG_NS = "http://www.w3.org/2000/svg";

/** `h("div", {class: "x", onclick: f}, "text", child)`: an element with attributes and children. */
export function h(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** Like `h` in the SVG namespace. */
export function s(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

function build(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export const $ = (id) => document.getElementById(id);

/** Seconds as kubectl prints ages: 45s, 2m5s, 1h3m. */
export function fmtTime(t) {
  const sec = Math.round(t * 10) / 10;
  if (sec < 60) return `${sec}s`;
  const m = Math.floor(sec / 60);
  const r = Math.round(sec - m * 60);
  if (m < 60) return r ? `${m}m${r}s` : `${m}m`;
  const hh = Math.floor(m / 60);
  return `${hh}h${m % 60}m`;
}

/** A stable hue (0-359) for a string. */
export function hue(str) {
  let x = 2166136261;
  for (let i = 0; i < str.length; i++) x = Math.imul(x ^ str.charCodeAt(i), 16777619);
  return (x >>> 0) % 360;
}

export function reducedMotion() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}
