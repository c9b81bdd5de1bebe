import { expect } from "chai";
import { Registry } from "prom-client";
import { FakeMetricsSource } from "../../mocks/fake-metrics-source.js";
import type { PodWire } from "../../src/cluster/to-pod-view.js";
import { toPodView } from "../../src/cluster/index.js";
import { ExtenderMetrics } from "../../src/observability/extender-metrics.js";
import { silentLogger } from "../../src/observability/logger.js";
import { ShadowMetrics } from "../../src/observability/shadow-metrics.js";
import type { PlacementContext } from "../../src/placement/decide-node.js";
import { InFlightLedger, recordAnswer, withInFlight } from "../../src/placement/in-flight-ledger.js";
import type { ParsedExtenderArgs } from "../../src/protocol/parse-extender-args.js";
import { createExtenderHandlers } from "../../src/server/extender-handlers.js";
import { ShadowRecorder } from "../../src/server/shadow-recorder.js";
import { clusterViewOf, nodeView } from "../fixtures/cluster.js";
import { hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";

// One cool host (esx-c, node n-c) and one warm host: hvx scores n-c best.
const inventory = inventoryOf(
  [
    hostView({ id: "h-w", name: "esx-w", metrics: { cpuReadyPercent: 6 } }),
    hostView({ id: "h-c", name: "esx-c", metrics: { cpuReadyPercent: 1 } }),
  ],
  [
    vmView({ id: "vm-w", name: "n-w", hostId: "h-w", biosUuid: undefined }),
    vmView({ id: "vm-c", name: "n-c", hostId: "h-c", biosUuid: undefined }),
  ],
);
const view = clusterViewOf([nodeView({ name: "n-w" }), nodeView({ name: "n-c" })]);
const pod = (uid: string): PodWire =>
  ({
    metadata: { name: `web-${uid}`, namespace: "shop", uid, ownerReferences: [{ kind: "ReplicaSet", name: "web-1", controller: true }] },
    spec: { containers: [{ name: "c", resources: { requests: { cpu: "500m", memory: "512Mi" }, limits: { cpu: "1", memory: "1Gi" } } }] },
  }) as unknown as PodWire;
const body = (uid: string) => JSON.stringify({ Pod: pod(uid), Nodes: null, NodeNames: ["n-w", "n-c"] });

/** The extender as src/main.ts wires it: the informer's view plus the ledger. */
function rig(mode: "enforce" | "observe" = "enforce") {
  const ledger = new InFlightLedger();
  const now = { ms: NOW_MS };
  const seen: Array<Record<string, string[]>> = [];
  const registry = new Registry();
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
    enrich: (ctx: PlacementContext, req: ParsedExtenderArgs) => {
      const p = toPodView(req.args.Pod as PodWire, { cpuMilli: 100, memoryBytes: 200 * 2 ** 20 }, ctx.nowMs);
      const merged = withInFlight(view, ledger.current(ctx.nowMs), p.uid);
      seen.push(Object.fromEntries([...merged.podsByNode].map(([n, pods]) => [n, pods.map((x) => x.uid)])));
      return { ...ctx, cluster: { view: merged, pod: p } };
    },
    onPrioritized: (scores, ctx) => recordAnswer(ledger, scores, ctx),
  });
  return { handlers, ledger, now, seen };
}

describe("the in-flight ledger in the extender (src/main.ts wiring)", () => {
  it("a pod hvx prioritized counts on its best node in the next request, until its TTL", () => {
    const { handlers, now, seen } = rig();
    expect(JSON.parse(handlers.prioritize(body("a")).body)).to.satisfy(
      (s: Array<{ Host: string; Score: number }>) => s.find((x) => x.Host === "n-c")!.Score > s.find((x) => x.Host === "n-w")!.Score,
    );
    now.ms += 1000;
    handlers.filter(body("b"));
    expect(seen.at(-1)).to.deep.equal({ "n-c": ["a"] });
    now.ms += 30_000;
    handlers.filter(body("c"));
    expect(seen.at(-1)).to.deep.equal({});
  });

  it("the pod asked about again does not count against itself", () => {
    const { handlers, seen } = rig();
    handlers.prioritize(body("a"));
    handlers.filter(body("a"));
    expect(seen.at(-1)).to.deep.equal({});
  });

  it("in observe mode nothing is recorded (hvx's answer is not what kube-scheduler got)", () => {
    const { handlers, ledger } = rig("observe");
    handlers.prioritize(body("a"));
    expect(ledger.current(NOW_MS)).to.deep.equal([]);
  });
});
