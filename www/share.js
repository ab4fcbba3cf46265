// Share links: `#v=1&s=` + base64url(deflate-raw(JSON {s: scenario text, t: time, j: journal})).
// Decoding never trusts the link: size caps before and while inflating, and a checked shape.

/** Largest inflated payload accepted (the scenario text and journal together). */
export const MAX_DECODED_BYTES = 256 * 1024;
/** Largest encoded `s=` value accepted (base64url characters). */
export const MAX_ENCODED_CHARS = 200 * 1024;

function toBase64Url(bytes) {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("the link's data is not base64url");
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function pipe(bytes, stream) {
  const writer = stream.writable.getWriter();
  writer.write(bytes).catch(() => {});
  writer.close().catch(() => {});
  return stream.readable.getReader();
}

/** The hash fragment (without `#`) for a state. */
export async function encodeShare({ scenario, time, journal }) {
  const json = JSON.stringify({ s: scenario, t: time, j: journal?.length ? journal : undefined });
  const reader = await pipe(new TextEncoder().encode(json), new CompressionStream("deflate-raw"));
  const chunks = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let o = 0;
  for (const c of chunks) {
    all.set(c, o);
    o += c.length;
  }
  return `v=1&s=${toBase64Url(all)}`;
}

/**
 * Decodes a hash fragment. Returns null when the fragment is no share link; throws an Error with
 * a message for the user when it is one but broken, oversized or malformed.
 */
export async function decodeShare(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  if (!params.has("s") && !params.has("v")) return null;
  if (params.get("v") !== "1") throw new Error(`unsupported share link version ${JSON.stringify(params.get("v"))}`);
  const data = params.get("s") ?? "";
  if (data.length > MAX_ENCODED_CHARS) throw new Error("the share link is too large");
  let reader;
  try {
    reader = await pipe(fromBase64Url(data), new DecompressionStream("deflate-raw"));
  } catch (e) {
    throw new Error(`the share link is damaged (${e.message})`);
  }
  const chunks = [];
  let total = 0;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > MAX_DECODED_BYTES) {
        reader.cancel().catch(() => {});
        throw new RangeError(`the share link's scenario is larger than ${MAX_DECODED_BYTES / 1024} KiB`);
      }
      chunks.push(value);
    }
  } catch (e) {
    if (e instanceof RangeError) throw new Error(e.message);
    throw new Error("the share link is damaged (it does not inflate)");
  }
  const bytes = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    bytes.set(c, o);
    o += c.length;
  }
  let v;
  try {
    v = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new Error("the share link is damaged (not JSON)");
  }
  if (typeof v !== "object" || v === null || typeof v.s !== "string") {
    throw new Error("the share link holds no scenario");
  }
  const t = Number(v.t ?? 0);
  if (!Number.isFinite(t) || t < 0 || t > 1e7) throw new Error("the share link's time is invalid");
  let journal = [];
  if (v.j !== undefined) {
    if (!Array.isArray(v.j) || v.j.length > 1000) throw new Error("the share link's commands are invalid");
    journal = v.j.map((e) => {
      const at = Number(e?.at);
      if (!Number.isFinite(at) || at < 0 || typeof e.cmd !== "string") {
        throw new Error("the share link's commands are invalid");
      }
      return typeof e.stdin === "string" ? { at, cmd: e.cmd, stdin: e.stdin } : { at, cmd: e.cmd };
    });
  }
  return { scenario: v.s, time: t, journal };
}
