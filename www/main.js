// The playground: wires the simulator (in a worker, via sim-client.js) to the views, the
// controls, lessons and share links. Every user- or simulation-provided string reaches the DOM
// as text (see dom.js); nothing is ever parsed as HTML.
import { SimClient } from "./sim-client.js";
import { $, h, fmtTime, reducedMotion } from "./dom.js";
import { encodeShare, decodeShare } from "./share.js";
import { ClusterView } from "./views/cluster.js";
import { RolloutView } from "./views/rollout.js";
import { HpaView } from "./views/hpa.js";
import { DeletionView } from "./views/deletion.js";
import { EventsView } from "./views/events.js";
import { ConsoleView } from "./views/console.js";
import { EditorView } from "./views/editor.js";
import { autosave, loadDraft, saveDraft } from "./autosave.js";
import { DetailView } from "./views/detail.js";
import { ImportView } from "./views/import.js";
import { StatefulSetView } from "./views/statefulset.js";
import { DaemonSetView } from "./views/daemonset.js";
import { CronJobView } from "./views/cronjob.js";
import { JobView } from "./views/job.js";
import { PdbView } from "./views/pdb.js";
import { LESSONS, LessonRun } from "./lessons/index.js";

const DEFAULT_SCENARIO = "nginx-deployment";
const params = new URLSearchParams(location.search);
if (params.get("embed") === "1") document.body.classList.add("embed");

const state = {
  source: "",
  frame: null,
  playing: false,
  busy: false,
  owed: 0, // virtual seconds of play not yet run
  lastTick: 0,
  endAt: Infinity,
  events: [],
  journal: [],
  lesson: null,
};

// ---------------------------------------------------------------- simulator and banner

const client = new SimClient({
  watchdogMs: Number(params.get("watchdog")) || undefined,
  onFatal(message) {
    saveDraft(editor.value);
    pause();
    banner(`${message}. Your scenario text is safe in the editor.`, { restart: true });
    setState("crashed");
  },
});

function setState(s) {
  document.body.dataset.state = s;
}

function banner(text, { restart = false, kind = "error" } = {}) {
  $("banner-text").textContent = text;
  $("banner-restart").hidden = !restart;
  $("banner").dataset.kind = kind;
  $("banner").hidden = false;
}

function hideBanner() {
  $("banner").hidden = true;
}

$("banner-close").addEventListener("click", hideBanner);
$("banner-restart").addEventListener("click", async () => {
  hideBanner();
  client.restart();
  // The editor's text, not the last loaded one: edits made since are never dropped.
  await load(editor.value || state.source, { time: state.frame?.time ?? 0, journal: state.journal });
});

function status(text) {
  $("status").textContent = text;
}

// ---------------------------------------------------------------- views

const detail = new DetailView($("detail"), { client });
const cluster = new ClusterView($("cluster"), { onSelect: (t) => detail.select(t) });
const rollout = new RolloutView($("panel-rollout"));
const hpa = new HpaView($("panel-hpa"));
const deletion = new DeletionView($("panel-deletion"), {
  client,
  onScale: (kind, ns, name, n) => runKubectl(`scale ${kind} ${name} -n ${ns} --replicas=${n}`),
  onCost: (ns, pod, cost) =>
    runKubectl(`annotate pod ${pod} -n ${ns} controller.kubernetes.io/pod-deletion-cost=${cost} --overwrite`),
});
const events = new EventsView($("panel-events"));
const workloadViews = [new StatefulSetView($("panel-statefulset"), { client }), new DaemonSetView($("panel-daemonset"), { client })];
const cronjob = new CronJobView($("panel-cronjob"), { onFastForward: fastForward, onFrame: show, preview: (sch, tz) => client.schedulePreview(sch, tz) });
const job = new JobView($("panel-job"));
const pdb = new PdbView($("panel-pdb"));
const konsole = new ConsoleView($("panel-console"), { run: (cmd) => runKubectl(cmd) });
const editor = new EditorView($("editor"), {
  onRun: () => load(editor.value, { name: editor.pick.value || null }),
  onApply: applyEditor,
  onPick: (name) => pickScenario(name),
});
autosave(editor);

const importer = new ImportView($("import"), { client, onImported: (yaml) => load(yaml) });

for (const tab of document.querySelectorAll("[role=tab]")) {
  tab.addEventListener("click", () => showTab(tab.id.replace("tab-", "")));
}

function showTab(name) {
  for (const tab of document.querySelectorAll("[role=tab]")) {
    const on = tab.id === `tab-${name}`;
    tab.setAttribute("aria-selected", String(on));
    $(tab.getAttribute("aria-controls")).hidden = !on;
  }
  if (name === "deletion" && state.frame) deletion.update(state.frame.snapshot);
  if (state.frame) for (const v of workloadViews) v.refresh();
  if (name === "hpa") hpa.draw();
  if (name === "console") $("console-input").focus();
  if (name === "pdb") pdb.draw();
  if (state.frame && (name === "cronjob" || name === "job")) (name === "cronjob" ? cronjob : job).update(state.frame, state.events);
}

// ---------------------------------------------------------------- frames

function show(frame) {
  const rewound = state.frame && frame.time < state.frame.time;
  state.frame = frame;
  const end = Math.max(frame.duration, frame.time);
  $("scrubber").max = String(Math.ceil(end));
  $("scrubber").value = String(frame.time);
  $("clock").textContent = `t = ${fmtTime(frame.time)} / ${fmtTime(end)}`;
  document.body.dataset.time = String(frame.time);
  cluster.render(frame.snapshot);
  if (rewound) rollout.truncate(frame.time);
  rollout.add(frame);
  if (rewound) hpa.truncate(frame.time);
  hpa.add(frame);
  if (frame.eventsReset) state.events = [];
  state.events.push(...frame.events);
  if (state.events.length > 20000) state.events.splice(0, state.events.length - 20000);
  events.add(frame.events, frame.eventsReset);
  konsole.timeline(frame.log, frame.logReset);
  if (!$("panel-deletion").hidden) deletion.update(frame.snapshot);
  for (const v of workloadViews) v.refresh();
  cronjob.update(frame, state.events);
  job.update(frame, state.events);
  pdb.update(frame);
  $("tab-pdb").hidden = !frame.pdbs.items.length;
  if ($("tab-pdb").hidden && !$("panel-pdb").hidden) showTab("events");
  detail.refresh();
  updateLesson();
  status(`${frame.snapshot.now} · ${frame.snapshot.eventCount} events`);
  setState(state.playing ? "playing" : "ready");
}

async function guarded(promise) {
  try {
    const v = await promise;
    return v;
  } catch (e) {
    if (!e.fatal) banner(e.message);
    return null;
  }
}

async function load(source, { time = 0, journal = [], name = null } = {}) {
  pause();
  state.source = source;
  editor.value = source;
  editor.choose(name);
  editor.clearError();
  state.journal = journal;
  state.frame = null;
  rollout.reset();
  hpa.reset();
  cronjob.reset();
  konsole.clear();
  pdb.clear();
  setState("loading");
  try {
    const frame = await client.load(source, time, journal);
    hideBanner();
    show(frame);
    return true;
  } catch (e) {
    if (e.fatal) return false;
    editor.showError(e.message);
    cluster.render({ nodes: [], pods: [], workloads: [] });
    status("The scenario has an error");
    setState("error");
    return false;
  }
}

async function pickScenario(name) {
  const sc = editor.scenarios.find((x) => x.name === name);
  if (sc) await load(sc.yaml, { name });
}

async function runKubectl(cmd, stdin) {
  if (!state.frame) return;
  pause();
  const r = await guarded(client.kubectl(cmd, stdin));
  if (!r) return;
  pdb.command({ time: state.frame.time, action: `kubectl ${cmd}`, output: r.output });
  konsole.print({ time: r.frame.time, cmd: `kubectl ${cmd}`, output: r.output, ok: r.ok, source: "you" });
  state.journal = (await guarded(client.journal())) ?? state.journal;
  show(r.frame);
}

async function applyEditor() {
  if (!state.frame) return load(editor.value);
  pause();
  try {
    const r = await client.apply(editor.value);
    editor.clearError();
    konsole.print({ time: r.frame.time, cmd: "kubectl apply -f -", output: r.output, ok: true, source: "you" });
    state.journal = (await guarded(client.journal())) ?? state.journal;
    show(r.frame);
  } catch (e) {
    if (!e.fatal) editor.showError(e.message);
  }
}

// ---------------------------------------------------------------- playback

function play() {
  if (!state.frame || state.playing) return;
  state.playing = true;
  const end = Math.max(state.frame.duration, 0);
  state.endAt = state.frame.time < end ? end : Infinity;
  state.lastTick = performance.now();
  state.owed = 0;
  $("play").textContent = "⏸ Pause";
  $("play").setAttribute("aria-pressed", "true");
  setState("playing");
  requestAnimationFrame(tick);
}

function pause() {
  if (!state.playing) return;
  state.playing = false;
  $("play").textContent = "▶ Play";
  $("play").setAttribute("aria-pressed", "false");
  if (document.body.dataset.state === "playing") setState("ready");
}

function tick(now) {
  if (!state.playing) return;
  const dt = Math.min(0.25, (now - state.lastTick) / 1000);
  state.lastTick = now;
  // At most 30 virtual seconds per frame: fast playback slips rather than skipping states.
  state.owed = Math.min(30, state.owed + dt * Number($("speed").value));
  if (!state.busy && state.owed >= 0.05) {
    const target = Math.min(state.frame.time + state.owed, state.endAt);
    state.owed = 0;
    state.busy = true;
    client.advanceTo(Math.round(target * 1000) / 1000)
      .then((f) => {
        show(f);
        if (f.time >= state.endAt) {
          pause();
          status(`End of the scenario (${fmtTime(f.time)}). Play again to go on.`);
        }
      })
      .catch((e) => {
        pause();
        if (!e.fatal) banner(e.message);
      })
      .finally(() => {
        state.busy = false;
      });
  }
  requestAnimationFrame(tick);
}

/** The frame after `seconds` more (the CronJob view shows it, see `CronJobView.fastForwardWeek`). */
async function fastForward(seconds) {
  if (!state.frame) return null;
  pause();
  return guarded(client.fastForward(seconds));
}

async function step() {
  if (!state.frame) return;
  pause();
  const f = await guarded(client.next());
  if (f) show(f);
}

async function seek(t) {
  if (!state.frame) return;
  pause();
  const f = await guarded(client.seek(Math.max(0, t)));
  if (f) show(f);
}

let seeking = null;
$("scrubber").addEventListener("input", () => {
  const t = Number($("scrubber").value);
  $("clock").textContent = `t = ${fmtTime(t)}`;
  clearTimeout(seeking);
  seeking = setTimeout(() => seek(t), 60);
});
$("play").addEventListener("click", () => (state.playing ? pause() : play()));
$("step").addEventListener("click", step);
$("reset").addEventListener("click", () => seek(0));

function bumpSpeed(dir) {
  const sel = $("speed");
  sel.selectedIndex = Math.max(0, Math.min(sel.options.length - 1, sel.selectedIndex + dir));
}

document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const tag = e.target?.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || e.target?.isContentEditable) return;
  const keys = {
    " ": () => (state.playing ? pause() : play()),
    n: step,
    ArrowRight: step,
    ArrowLeft: () => seek((state.frame?.time ?? 0) - 10),
    r: () => seek(0),
    "+": () => bumpSpeed(1),
    "=": () => bumpSpeed(1),
    "-": () => bumpSpeed(-1),
    "/": () => showTab("console"),
    s: share,
  };
  const fn = keys[e.key];
  if (fn) {
    e.preventDefault();
    fn();
  }
});

// ---------------------------------------------------------------- share links

async function share() {
  if (!state.frame) return;
  const fragment = await encodeShare({ scenario: state.source, time: state.frame.time, journal: state.journal });
  history.replaceState(null, "", `#${fragment}`);
  const url = location.href;
  document.body.dataset.shareLink = url;
  try {
    await navigator.clipboard.writeText(url);
    banner("Link copied: it reopens this scenario at this time.", { kind: "info" });
  } catch {
    banner("The address bar now holds the link to this scenario at this time.", { kind: "info" });
  }
}
$("share").addEventListener("click", share);

async function loadFromHash() {
  let shared;
  try {
    shared = await decodeShare(location.hash);
  } catch (e) {
    history.replaceState(null, "", location.pathname + location.search);
    await loadDefault();
    banner(`Could not open the shared link: ${e.message}. The default scenario is loaded instead.`);
    return;
  }
  if (!shared) return loadDefault();
  const ok = await load(shared.scenario, { time: shared.time, journal: shared.journal });
  if (!ok && document.body.dataset.state === "error") {
    banner("The shared scenario has an error (shown under the editor). Fix it, or pick a built-in scenario.");
  }
}

async function loadDefault() {
  const lessonId = params.get("lesson");
  if (lessonId && LESSONS.some((l) => l.id === lessonId)) return startLesson(lessonId);
  const draft = loadDraft();
  if (draft && !params.has("scenario")) return load(draft); // the user's own text survives a reload
  const name = editor.scenarios.some((x) => x.name === params.get("scenario")) ? params.get("scenario") : DEFAULT_SCENARIO;
  await pickScenario(name);
}

window.addEventListener("hashchange", () => {
  if (location.hash.length > 1) loadFromHash();
});

// ---------------------------------------------------------------- lessons

$("lesson-select").replaceChildren(h("option", { value: "" }, "— free play —"),
  ...LESSONS.map((l) => h("option", { value: l.id }, l.title)));
$("lesson-select").addEventListener("change", () => startLesson($("lesson-select").value));

async function startLesson(id) {
  const lesson = LESSONS.find((l) => l.id === id);
  $("lesson-select").value = lesson ? id : "";
  state.lesson = lesson ? new LessonRun(lesson) : null;
  $("lesson").hidden = !lesson;
  if (!lesson) return;
  $("lesson-title").textContent = lesson.title;
  $("lesson-text").textContent = lesson.text;
  renderLesson();
  if (lesson.scenario) await pickScenario(lesson.scenario);
  if (lesson.import && !state.frame) await pickScenario(DEFAULT_SCENARIO);
  if (lesson.import) importer.open();
  if (lesson.tab) showTab(lesson.tab);
  else if (/Deletion order/.test(lesson.text)) showTab("deletion");
  else if (/Autoscaling tab/.test(lesson.text)) showTab("hpa");
  else if (state.frame?.rollouts.length) showTab("rollout");
  else showTab("events");
}

function updateLesson() {
  const run = state.lesson;
  if (!run || !state.frame) return;
  const f = state.frame;
  if (run.update({ time: f.time, snap: f.snapshot, rollouts: f.rollouts, autoscalers: f.autoscalers ?? [], samples: f.samples ?? [], events: state.events, batch: f.batch, pdbs: f.pdbs, evictions: pdb.attempts() })) renderLesson();
}

function renderLesson() {
  const run = state.lesson;
  if (!run) return;
  $("lesson-steps").replaceChildren(...run.lesson.steps.map((s, i) => {
    const t = run.passed[i];
    return h("li", { class: t === null ? "step" : "step passed", dataset: { step: i } },
      h("span", { class: "mark", "aria-hidden": "true" }, t === null ? "○" : "✓"), " ", s.text,
      t === null ? h("span", { class: "visually-hidden" }, " (not yet)") : h("span", { class: "when" }, ` done at ${fmtTime(t)}`));
  }));
  $("lesson-done").hidden = !run.done;
}

// ---------------------------------------------------------------- start

if (reducedMotion()) document.body.classList.add("still");
window.matchMedia?.("(prefers-reduced-motion: reduce)").addEventListener?.("change", (e) => {
  document.body.classList.toggle("still", e.matches);
});

try {
  editor.setScenarios(await client.builtins());
  await loadFromHash();
  if (params.get("autoplay") === "1") play();
} catch (e) {
  banner(`Could not start the simulator: ${e.message}`, { restart: true });
  setState("crashed");
}
