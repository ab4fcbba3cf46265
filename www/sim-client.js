// The page's only door to the simulator: a Web Worker (worker.js) spoken to with promises.
// The page keeps the scenario text itself; when the worker dies (a panic in the wasm module)
// `onFatal` is called and `restart()` brings up a fresh worker. A watchdog does the same when
// one request takes longer than `watchdogMs` (a hostile scenario must not hang the page).

/** How long one request may take before the worker is terminated. */
export const WATCHDOG_MS = 20000;

export class SimClient {
  constructor({ onFatal, watchdogMs = WATCHDOG_MS } = {}) {
    this.onFatal = onFatal ?? (() => {});
    this.watchdogMs = watchdogMs;
    this.pending = new Map();
    this.nextId = 1;
    this.start();
  }

  start() {
    this.worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
    this.worker.onmessage = (m) => this.receive(m.data);
    this.worker.onerror = (e) => {
      e.preventDefault?.();
      this.fail(`The simulator's worker failed: ${e.message || "unknown error"}`);
    };
  }

  receive(msg) {
    if (msg?.fatal && msg.id === undefined) {
      this.fail(msg.fatal);
      return;
    }
    const p = this.pending.get(msg.id);
    if (!p) return;
    clearTimeout(p.timer);
    this.pending.delete(msg.id);
    if (msg.ok) p.resolve(msg.value);
    else p.reject(Object.assign(new Error(msg.error), { fatal: !!msg.fatal }));
  }

  fail(message) {
    for (const p of this.pending.values()) clearTimeout(p.timer);
    for (const p of this.pending.values()) p.reject(Object.assign(new Error(message), { fatal: true }));
    this.pending.clear();
    this.onFatal(message);
  }

  /** Stops the current worker (whatever it is doing) and starts a fresh one. */
  restart() {
    this.worker.terminate();
    for (const p of this.pending.values()) clearTimeout(p.timer);
    for (const p of this.pending.values()) p.reject(Object.assign(new Error("restarted"), { fatal: true }));
    this.pending.clear();
    this.start();
  }

  /** The watchdog fired: stop the stuck worker, start a fresh one, report it. */
  hung(op) {
    this.worker.terminate();
    this.start();
    this.fail(`The simulator stopped answering (${op} took longer than ${Math.round(this.watchdogMs / 100) / 10} s) and was restarted`);
  }

  call(op, args) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.hung(op), this.watchdogMs);
      this.pending.set(id, { resolve, reject, timer });
      this.worker.postMessage({ id, op, args });
    });
  }

  builtins() { return this.call("builtins"); }
  importCluster(text) { return this.call("importCluster", { text }); }
  load(source, time = 0, journal = []) { return this.call("load", { source, time, journal }); }
  advanceTo(t) { return this.call("advanceTo", { t }); }
  next() { return this.call("next"); }
  seek(t) { return this.call("seek", { t }); }
  kubectl(cmd, stdin) { return this.call("kubectl", { cmd, stdin }); }
  apply(yaml) { return this.call("apply", { yaml }); }
  explain(kind, namespace, name, replicas) { return this.call("explain", { kind, namespace, name, replicas }); }
  rolloutHistory(name) { return this.call("rolloutHistory", { name }); }
  journal() { return this.call("journal"); }
  statefulSets() { return this.call("statefulSets"); }
  daemonSets() { return this.call("daemonSets"); }
  schedulePreview(schedule, timeZone) { return this.call("schedulePreview", { schedule, timeZone }); }
  fastForward(seconds) { return this.call("fastForward", { seconds }); }
  getYaml(kind, namespace, name) { return this.call("getYaml", { kind, namespace, name }); }
}
