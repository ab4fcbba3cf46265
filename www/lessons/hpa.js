// Lessons on the HorizontalPodAutoscaler (spread into LESSONS in index.js). Steps read
// ctx.autoscalers: the AutoscalerView list of the current frame.

const hpa = (c, name) => (c.autoscalers ?? []).find((a) => a.name === name);
/** The frame and the states the worker sampled at each event since the previous frame. */
const states = (c) => [...(c.samples ?? []).map((x) => ({ time: x.t, autoscalers: x.autoscalers ?? [] })), { time: c.time, autoscalers: c.autoscalers ?? [] }];
/** Whether `pred` held at some sampled instant (playing fast skips over short states). */
const ever = (c, pred) => states(c).some(pred);

export const HPA_LESSONS = [
  {
    id: "hpa-frontend",
    title: "Autoscaling the frontend ReplicaSet",
    scenario: "hpa-frontend",
    text: "A HorizontalPodAutoscaler resizes its target every 15 s to keep the pods' average CPU near a target share of their requests: desired = ceil(current × utilization / target), ignoring changes within 10 %. Open the Autoscaling tab to watch the load, the utilization and the replicas.",
    observe: (c, m) => {
      for (const x of states(c)) {
        const a = hpa(x, "frontend");
        if (a?.targetReplicas) m.max = Math.max(m.max ?? 0, a.targetReplicas);
      }
    },
    steps: [
      {
        text: "At 1m `kubectl autoscale rs frontend --max=10 --min=3 --cpu=50%` creates the HPA. Its first sync, 15 s later, measures 40 % — below 50 %, but the minimum is 3.",
        check: (c) => ever(c, (x) => hpa(x, "frontend")?.metrics[0]?.currentUtilization === 40 && hpa(x, "frontend").targetReplicas === 3),
      },
      {
        text: "At 3m the load jumps to 2.4 cores (400 %). Without behavior rules an HPA at most doubles per step (or adds 4): 3 → 6, then 6 → 10, the maximum.",
        check: (c) => ever(c, (x) => hpa(x, "frontend")?.targetReplicas === 10),
      },
      {
        text: "At 12m the load falls back. The HPA wants 3 at once, but scale-downs are stabilized: it uses the highest recommendation of the last 5 minutes (the shaded window), so it stays at 10 until 17m.",
        check: (c, m) => m.max === 10 && ever(c, (x) => x.time >= 16 * 60 && x.time < 17 * 60 && hpa(x, "frontend")?.targetReplicas === 10),
      },
      {
        text: "At 17m the window has passed: the ReplicaSet is scaled back to 3 and deletes 7 pods.",
        check: (c, m) => m.max === 10 && hpa(c, "frontend")?.targetReplicas === 3 && c.time >= 17 * 60,
      },
    ],
  },
  {
    id: "hpa-behavior",
    title: "HPA behavior: scaling policies",
    scenario: "hpa-behavior-policies",
    text: "autoscaling/v2's behavior field limits how fast an HPA may move. Here scale-up may add 2 pods per 60 s, and scale-down may remove 50 % per 60 s after a 60 s stabilization window. Open the Autoscaling tab.",
    steps: [
      {
        text: "At 2m the load asks for 40 replicas; the Pods policy allows 2 → 4 (ScalingLimited: ScaleUpLimit).",
        check: (c) => ever(c, (x) => hpa(x, "web")?.targetReplicas === 4 && hpa(x, "web").conditions.some((k) => k.type === "ScalingLimited" && k.reason === "ScaleUpLimit")),
      },
      { text: "One step a minute, it climbs to the maximum of 20 at 10m.", check: (c) => ever(c, (x) => hpa(x, "web")?.targetReplicas === 20) },
      { text: "After the load drops at 12m, it halves once a minute: 20 → 10 → 5 → 2.", check: (c) => hpa(c, "web")?.targetReplicas === 2 && c.time > 12 * 60 },
    ],
  },
];
