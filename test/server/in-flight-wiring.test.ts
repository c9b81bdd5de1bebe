import { expect } from "chai";
import { Registry } from "prom-client";
import { FakeMetricsSource } from "../../mocks/fake-metrics-source.js";
import { ClusterState } from "../../src/cluster/cluster-state.js";
import { toPodView, type PodWire } from "../../src/cluster/to-pod-view.js";
import { createInFlightMetrics } from "../../src/observability/in-flight-metrics.js";
import { ExtenderMetrics } from "../../src/observability/extender-metrics.js";
import { silentLogger } from "../../src/observability/logger.js";
import { ShadowMetrics } from "../../src/observability/shadow-metrics.js";
import { InFlightLedger } from "../../src/placement/in-flight-ledger.js";
import { createExtenderHandlers } from "../../src/server/extender-handlers.js";
import { inFlightEnrichment } from "../../src/server/in-flight-enrichment.js";
import { ShadowRecorder } from "../../src/server/shadow-recorder.js";
import { nodeView } from "../fixtures/cluster.js";
import { hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";

// Four hosts of two worker VMs each, from cool (h0) to warm (h3): hvx scores them apart.
const HOSTS = [1, 2, 4, 6];
const NODES = HOSTS.flatMap((_, h) => [`n-${h}a`, `n-${h}b`]);
const inventory = inventoryOf(
  HOSTS.map((ready, h) => hostView({ id: `h-${h}`, name: `esx-${h}`, metrics: { cpuReadyPercent: ready, cpuUsagePercent: 40 } })),
  NODES.map((name, i) => vmView({ id: `vm-${name}`, name, hostId: `h-${Math.floor(i / 2)}`, biosUuid: undefined })),
);
const DEFAULTS = { cpuMilli: 100, memoryBytes: 128 * 2 ** 20 };

const podWire = (uid: string, cpu = "500m", nodeName?: string): PodWire =>
  ({
    metadata: { name: `web-${uid}`, namespace: "shop", uid, ownerReferences: [{ kind: "ReplicaSet", name: "web-1", controller: true }] },
    spec: {
      ...(nodeName ? { nodeName } : {}),
      containers: [{ name: "c", resources: { requests: { cpu, memory: "512Mi" }, limits: { cpu, memory: "1Gi" } } }],
    },
    status: { phase: nodeName ? "Running" : "Pending" },
  }) as unknown as PodWire;
const body = (uid: string, cpu = "500m") => JSON.stringify({ Pod: podWire(uid, cpu), Nodes: null, NodeNames: NODES });

/** The extender as src/main.ts wires it: the informer's state (fed as its pod watch feeds it), the ledger and its metrics. */
function rig(mode: "enforce" | "observe" = "enforce") {
  const now = { ms: NOW_MS };
  const registry = new Registry();
  const ledger: InFlightLedger = new InFlightLedger({
    pendingPod: (uid) => state.pendingPod(uid),
    ...createInFlightMetrics(registry, () => ledger.size(now.ms)),
  });
  const state = new ClusterState((uid, how) => ledger.settled(uid, how));
  for (const name of NODES) state.setNode(name, nodeView({ name }));
  const log = silentLogger();
  const shadowMetrics = new ShadowMetrics(registry);
  const handlers = createExtenderHandlers({
    source: new FakeMetricsSource(inventory),
    policy: DEFAULT_POLICY,
    metrics: new ExtenderMetrics(registry),
    log,
    clock: () => now.ms,
    mode,
    shadow: new ShadowRecorder({ metrics: shadowMetrics, log, clock: () => now.ms }),
    shadowMetrics,
    ...inFlightEnrichment({ latest: () => state.snapshot({}) }, ledger, DEFAULTS),
  });
  /** The pod watch's event: the pod as the API server now has it (pending, or bound to `nodeName`), or deleted. */
  const podEvent = (uid: string, how: { cpu?: string; nodeName?: string; deleted?: boolean } = {}) =>
    state.setPod(`shop/web-${uid}`, how.deleted ? undefined : toPodView(podWire(uid, how.cpu, how.nodeName), DEFAULTS, now.ms));
  const onNodes = () => {
    const view = ledger.viewWith(state.snapshot({}), now.ms);
    const lists = NODES.map((n) => [n, (view.podsByNode.get(n) ?? []).map((p) => p.uid)] as const);
    return Object.fromEntries(lists.filter(([, uids]) => uids.length > 0));
  };
  const answers = (uid: string, cpu?: string) => ({
    filter: handlers.filter(body(uid, cpu)).body,
    prioritize: handlers.prioritize(body(uid, cpu)).body,
  });
  const best = (reply: string) =>
    (JSON.parse(reply) as Array<{ Host: string; Score: number }>).reduce((a, b) => (b.Score > a.Score ? b : a));
  return { handlers, ledger, state, now, registry, podEvent, onNodes, answers, best };
}

describe("the in-flight ledger in the extender (src/main.ts wiring)", () => {
  it("a pending pod hvx prioritized counts on its best node in the next request, until its TTL", () => {
    const { handlers, now, podEvent, onNodes, best } = rig();
    podEvent("a");
    const node = best(handlers.prioritize(body("a")).body).Host;
    expect(node).to.be.oneOf(["n-0a", "n-0b"]);
    now.ms += 1000;
    expect(onNodes()).to.deep.equal({ [node]: ["a"] });
    now.ms += 30_000;
    expect(onNodes()).to.deep.equal({});
  });

  it("given the pod then bound on another node, it counts there only, at once", () => {
    const { handlers, ledger, podEvent, onNodes } = rig();
    podEvent("a");
    handlers.prioritize(body("a"));
    podEvent("a", { nodeName: "n-3b" });
    expect(onNodes()).to.deep.equal({ "n-3b": ["a"] });
    expect(ledger.size(NOW_MS)).to.equal(0);
  });

  it("given the pod then deleted, it counts nowhere, at once", () => {
    const { handlers, ledger, podEvent, onNodes } = rig();
    podEvent("a");
    handlers.prioritize(body("a"));
    podEvent("a", { deleted: true });
    expect(onNodes()).to.deep.equal({});
    expect(ledger.size(NOW_MS)).to.equal(0);
  });

  it("the pod asked about again (a retry) does not count against itself", () => {
    const { podEvent, answers, ledger } = rig();
    podEvent("a", { cpu: "30" });
    const first = answers("a", "30");
    expect(ledger.size(NOW_MS), "recorded: 30 CPUs on its best host").to.equal(1);
    expect(answers("a", "30")).to.deep.equal(first);
  });

  it("in observe mode nothing is recorded (hvx's answer is not what kube-scheduler got)", () => {
    const { handlers, ledger, podEvent } = rig("observe");
    podEvent("a");
    handlers.prioritize(body("a"));
    expect(ledger.size(NOW_MS)).to.equal(0);
  });

  it("given 1000 forged prioritize calls (unknown uids, 1000 CPUs each), leaves a real pod's filter and scores byte-identical", async () => {
    const { handlers, ledger, podEvent, answers, registry } = rig();
    podEvent("real");
    const before = answers("real");
    const held = ledger.current(NOW_MS).map((e) => e.pod.uid);
    for (let i = 0; i < 1000; i++) handlers.prioritize(body(`forged-${i}`, "1000"));
    expect(answers("real")).to.deep.equal(before);
    expect(ledger.current(NOW_MS).map((e) => e.pod.uid)).to.deep.equal(held);
    expect(await registry.getSingleMetricAsString("hvx_inflight_refused_total")).to.match(/^hvx_inflight_refused_total 1000$/m);

    // The same calls for pods the informer does know as pending do move the answer: the test can fail.
    for (let i = 0; i < 20; i++) {
      podEvent(`burst-${i}`, { cpu: "30" });
      handlers.prioritize(body(`burst-${i}`, "30"));
    }
    expect(ledger.size(NOW_MS)).to.equal(held.length + 20);
    expect(answers("real")).to.not.deep.equal(before);
  });

  it("given a pod already bound, records nothing for it (a forged call naming a real uid)", () => {
    const { handlers, ledger, podEvent, onNodes } = rig();
    podEvent("a", { nodeName: "n-3a" });
    handlers.prioritize(body("a", "1000"));
    expect(ledger.size(NOW_MS)).to.equal(0);
    expect(onNodes()).to.deep.equal({ "n-3a": ["a"] });
  });

  it("exposes the entry count and the drops by reason", async () => {
    const { handlers, podEvent, registry } = rig();
    podEvent("a");
    podEvent("b");
    handlers.prioritize(body("a"));
    handlers.prioritize(body("b"));
    podEvent("a", { nodeName: "n-0a" });
    expect(await registry.getSingleMetricAsString("hvx_inflight_entries")).to.match(/^hvx_inflight_entries 1$/m);
    const dropped = await registry.getSingleMetricAsString("hvx_inflight_dropped_total");
    expect(dropped).to.match(/^hvx_inflight_dropped_total\{reason="bound"\} 1$/m);
    expect(dropped).to.match(/^hvx_inflight_dropped_total\{reason="node_limit"\} 0$/m);
  });
});
