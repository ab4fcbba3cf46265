// The page's only door to the simulator: a Web Worker (worker.js) spoken to with promises.
// The page keeps the scenario text itself; when the worker dies (a panic in the wasm module)
// `onFatal` is called and `restart()` brings up a fresh worker.

export class SimClient {
  constructor({ onFatal } = {}) {
    this.onFatal = onFatal ?? (() => {});
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
    this.pending.delete(msg.id);
    if (msg.ok) p.resolve(msg.value);
    else p.reject(Object.assign(new Error(msg.error), { fatal: !!msg.fatal }));
  }

  fail(message) {
    for (const p of this.pending.values()) p.reject(Object.assign(new Error(message), { fatal: true }));
    this.pending.clear();
    this.onFatal(message);
  }

  /** Stops the current worker (whatever it is doing) and starts a fresh one. */
  restart() {
    this.worker.terminate();
    for (const p of this.pending.values()) p.reject(Object.assign(new Error("restarted"), { fatal: true }));
    this.pending.clear();
    this.start();
  }

  call(op, args) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
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
  getYaml(kind, namespace, name) { return this.call("getYaml", { kind, namespace, name }); }
}
