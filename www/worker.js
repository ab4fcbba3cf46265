// The simulation's Web Worker: owns the wasm `Simulation` and answers the page's requests.
// Protocol: page -> {id, op, args}; worker -> {id, ok: true, value} | {id, ok: false, error}.
// A trap in the wasm module (a Rust panic) makes the instance unusable: the worker then posts
// {fatal: message} and the page starts a fresh worker (sim-client.js).
import init, { Simulation, builtinScenarios, importCluster } from "../pkg/kubeplay.js";

let sim = null;
let eventCursor = 0;
let logCursor = 0;
let lastTime = 0;

/** Runs forward to `t`, event by event, sampling the rollouts on the way (for the chart). */
function runTo(t, samples) {
  sim.runUntil(sim.time());
  for (let guard = 0; guard < 5000; guard++) {
    const n = sim.peekNextEvent();
    if (n === undefined || n > t || n <= sim.time()) break;
    sim.runUntil(n);
    samples.push({ t: sim.time(), rollouts: sim.rollouts(), autoscalers: sim.autoscalers() });
  }
  sim.runUntil(t);
}

/** Caps per frame: a hostile scenario must not flood the page with one message. */
const MAX_EVENTS_PER_FRAME = 5000;
const MAX_SAMPLES_PER_FRAME = 1000;

function frame(samples = []) {
  if (samples.length > MAX_SAMPLES_PER_FRAME) {
    const step = Math.ceil(samples.length / MAX_SAMPLES_PER_FRAME);
    samples = samples.filter((_, i) => i % step === 0 || i === samples.length - 1);
  }
  const time = sim.time();
  const rewound = time < lastTime;
  lastTime = time;
  if (rewound) logCursor = 0;
  // As JSON text, capped in the module (only the newest MAX_EVENTS_PER_FRAME are written, with
  // `reset` set when some were left out): cheaper than `eventsSince`'s object per event.
  const ev = JSON.parse(sim.eventsSinceJson(eventCursor, MAX_EVENTS_PER_FRAME));
  eventCursor = ev.next;
  const log = sim.timelineLog(logCursor);
  logCursor += log.length;
  return {
    time,
    duration: duration(),
    snapshot: sim.snapshot(),
    events: ev.events,
    eventsReset: ev.reset || rewound,
    log,
    logReset: rewound,
    rollouts: sim.rollouts(),
    ...hpaFrame(),
    samples,
    batch: sim.batch(8 * 86400),
    pdbs: JSON.parse(sim.pdbs()),
  };
}

/** The scenario's default duration: `Simulation.duration` parses the scenario text, which never
 * changes for one simulation (`seek` rebuilds from the same text), so once per simulation. */
let durationOf = null;
let durationValue = 0;
function duration() {
  if (durationOf !== sim) {
    durationValue = sim.duration();
    durationOf = sim;
  }
  return durationValue;
}

/** The autoscalers now, and the load curves they are driven by (once per load entry). */
let sentLoads = new Set();
function hpaFrame() {
  const autoscalers = sim.autoscalers();
  const loads = {};
  for (const a of autoscalers) {
    if (a.loadIndex !== null && !sentLoads.has(a.loadIndex)) {
      loads[a.loadIndex] = sim.loadSeries(a.loadIndex);
      sentLoads.add(a.loadIndex);
    }
  }
  return { autoscalers, loads };
}

function need() {
  if (!sim) throw new Error("no scenario is loaded");
  return sim;
}

const ops = {
  builtins: () => builtinScenarios(),
  importCluster: ({ text }) => importCluster(text),
  load({ source, time = 0, journal = [] }) {
    const next = new Simulation(source);
    sim?.free();
    sim = next;
    eventCursor = 0;
    logCursor = 0;
    lastTime = 0;
    sentLoads = new Set();
    if (journal.length) sim.setJournal(journal);
    const samples = [];
    runTo(time, samples);
    const f = frame(samples);
    f.eventsReset = true;
    f.logReset = true;
    return f;
  },
  advanceTo({ t }) {
    const samples = [];
    if (t > need().time()) runTo(t, samples);
    return frame(samples);
  },
  next() {
    need().nextEvent();
    return frame();
  },
  seek({ t }) {
    const samples = [];
    if (t < need().time()) sim.seek(0);
    runTo(t, samples);
    return frame(samples);
  },
  kubectl({ cmd, stdin }) {
    let output;
    let ok = true;
    try {
      output = need().kubectl(cmd, stdin ?? undefined);
    } catch (e) {
      if (e instanceof WebAssembly.RuntimeError) throw e;
      output = e instanceof Error ? e.message : String(e);
      ok = false;
    }
    return { output, ok, frame: frame() };
  },
  apply({ yaml }) {
    const output = need().apply(yaml);
    return { output, frame: frame() };
  },
  explain: ({ kind, namespace, name, replicas }) => need().explainScaleDown(kind, namespace, name, replicas),
  rolloutHistory: ({ name }) => need().rolloutHistory(name),
  journal: () => need().journal(),
  statefulSets: () => need().statefulSets(),
  daemonSets: () => need().daemonSets(),
  schedulePreview: ({ schedule, timeZone }) => need().schedulePreview(schedule, timeZone ?? "", 5),
  fastForward({ seconds }) {
    need().runFor(seconds);
    return frame();
  },
  getYaml({ kind, namespace, name }) {
    const ns = namespace ? ` -n ${namespace}` : "";
    return need().kubectl(`get ${kind} ${name}${ns} -o yaml`);
  },
};

let ready = init().then(() => "ready");
let dead = false;

self.onmessage = async (msg) => {
  const { id, op, args } = msg.data ?? {};
  try {
    await ready;
    if (dead) throw new Error("the simulator stopped");
    const fn = ops[op];
    if (!fn) throw new Error(`unknown operation ${op}`);
    self.postMessage({ id, ok: true, value: fn(args ?? {}) });
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e);
    if (e instanceof WebAssembly.RuntimeError || e?.name === "RuntimeError") {
      dead = true;
      self.postMessage({ id, ok: false, error, fatal: true });
      self.postMessage({ fatal: `The simulator crashed: ${error}` });
      return;
    }
    self.postMessage({ id, ok: false, error });
  }
};
ready.catch((e) => {
  dead = true;
  self.postMessage({ fatal: `Could not load the simulator: ${e instanceof Error ? e.message : String(e)}` });
});
