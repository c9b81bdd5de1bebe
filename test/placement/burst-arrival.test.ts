import { expect } from "chai";
import type { ClusterView, PodView } from "../../src/model/cluster.js";
import type { InventoryView } from "../../src/model/inventory.js";
import type { PlacementContext } from "../../src/placement/decide-node.js";
import { filterNodes, prioritizeNodes } from "../../src/placement/filter-nodes.js";
import type { PlacementPolicy } from "../../src/placement/policy.js";
import { amounts, clusterViewOf, nodeView, podMetaOf, podView, withBinding } from "../fixtures/cluster.js";
import { hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";
import { DEFAULT_POLICY, policyWith } from "../fixtures/policy.js";

/**
 * Issue 4 acceptance: 30 pods arrive within one poll interval, so every decision sees the
 * same host metrics. Two equally cool hosts and two warm ones, three node VMs per host.
 * Each pod goes through the real filter and prioritize; the highest score wins, ties go to
 * the first node in the candidate list (the worst case for piling); the binding is recorded
 * in a new ClusterView, as the pod informer would.
 *
 * Numbers (64-core, 512 GiB hosts; pod expected demand 2 CPUs / 4 GiB):
 *   one pod adds 2000 / (64 x 1000) x 100 = 3.125 % cpu and 4 / 512 x 100 = 0.78 % memory.
 *   Cool hosts: cpu 20 %, memory 30 %, ready 1 %. 15 pods each would make cpu 20 + 46.9 = 66.9 %
 *   (< 81 %, the warn level 0.9 x 90): both stay cool with room for all 30.
 *   Warm hosts: ready 6 % (>= 5 % warn): score <= 4, below any cool host (>= 5).
 *   Nodes: allocatable 15.8 CPUs; limits 2 CPUs per pod: 15 pods per node before 2.0 is exceeded.
 */
const HOSTS = [
  { id: "host-w1", name: "esx-warm-1", warm: true },
  { id: "host-c1", name: "esx-cool-1", warm: false },
  { id: "host-c2", name: "esx-cool-2", warm: false },
  { id: "host-w2", name: "esx-warm-2", warm: true },
] as const;
const NODES_PER_HOST = 3;
const POD_COUNT = 30;
const uuidOf = (h: number, n: number) => `4226${h}${n}63-e4e0-c681-b5dd-f69dfa981039`;

const inventory: InventoryView = inventoryOf(
  HOSTS.map((h) =>
    hostView({
      id: h.id,
      name: h.name,
      cpuCores: 64,
      memoryMiB: 524_288,
      metrics: { cpuUsagePercent: 20, memUsagePercent: 30, cpuReadyPercent: h.warm ? 6 : 1 },
    }),
  ),
  HOSTS.flatMap((h, hi) =>
    Array.from({ length: NODES_PER_HOST }, (_, n) =>
      vmView({ id: `vm-${hi}${n}`, name: `vm-${h.name}-${n}`, hostId: h.id, biosUuid: uuidOf(hi, n), vcpus: 16, memoryMiB: 65_536 }),
    ),
  ),
);
/** Node names differ from VM names: NodeNames mode, mapped through the view's providerID. */
const nodeNames = HOSTS.flatMap((h) => Array.from({ length: NODES_PER_HOST }, (_, n) => `${h.name}-node-${n}`));
const hostOfNode = new Map<string, string>(
  HOSTS.flatMap((h) => Array.from({ length: NODES_PER_HOST }, (_, n) => [`${h.name}-node-${n}`, h.id] as const)),
);
const emptyView: ClusterView = clusterViewOf(
  HOSTS.flatMap((h, hi) =>
    Array.from({ length: NODES_PER_HOST }, (_, n) =>
      nodeView({ name: `${h.name}-node-${n}`, providerID: `vsphere://${uuidOf(hi, n)}`, allocatable: amounts(15.8, 62) }),
    ),
  ),
);
const candidates = nodeNames.map((name) => ({ name }));

/** Each pod is its own Job, so host spread has nothing to say: only the burst guard can split them. */
const burstPod = (i: number): PodView =>
  podView({
    uid: `burst-${i}`,
    name: `job-${i}-x7k2p`,
    ownerKey: `Job/batch/job-${i}`,
    requests: amounts(2, 4),
    limits: amounts(2, 4),
    expectedDemand: amounts(2, 4),
    boundAtMs: undefined,
  });

/** Runs the burst; returns how many pods each host received. */
function runBurst(policy: PlacementPolicy): Map<string, number> {
  let view = emptyView;
  const perHost = new Map<string, number>(HOSTS.map((h) => [h.id, 0]));
  for (let i = 0; i < POD_COUNT; i++) {
    const pod = burstPod(i);
    const meta = podMetaOf(pod, { ownerKinds: ["Job"] });
    // all 30 within 15 s, long before any sample taken 60 s after them can arrive
    const nowMs = NOW_MS + i * 500;
    const ctx: PlacementContext = { inventory, policy, nowMs, cluster: { view, pod } };
    const passed = filterNodes(meta, candidates, ctx).passed;
    const scores = prioritizeNodes(
      meta,
      passed.map((name) => ({ name })),
      ctx,
    );
    let best = scores[0];
    for (const s of scores) if (s.score > best!.score) best = s;
    expect(best, `pod ${i} found no node`).to.not.equal(undefined);
    view = withBinding(view, pod, best!.node, nowMs);
    const hostId = hostOfNode.get(best!.node)!;
    perHost.set(hostId, perHost.get(hostId)! + 1);
  }
  return perHost;
}

describe("burst arrival (issue 4 acceptance)", () => {
  it("given 30 pods within one poll interval, splits them across the two cool hosts and sends none to the warm ones", () => {
    const perHost = runBurst(DEFAULT_POLICY);
    const c1 = perHost.get("host-c1")!;
    const c2 = perHost.get("host-c2")!;
    expect(perHost.get("host-w1"), "warm host 1").to.equal(0);
    expect(perHost.get("host-w2"), "warm host 2").to.equal(0);
    expect(c1 + c2).to.equal(POD_COUNT);
    // neither cool host gets more than 2/3 of the burst
    expect(Math.max(c1, c2), `split ${c1} / ${c2}`).to.be.at.most((2 * POD_COUNT) / 3);
  });

  it("given burstGuard.enabled false, piles all 30 onto the first cool host (the guard is what splits them)", () => {
    const perHost = runBurst(policyWith({ burstGuard: { ...DEFAULT_POLICY.burstGuard, enabled: false } }));
    expect(Object.fromEntries(perHost)).to.deep.equal({ "host-w1": 0, "host-c1": POD_COUNT, "host-c2": 0, "host-w2": 0 });
  });

  it("given the burst, leaves the earlier ClusterViews unchanged (each binding makes a new view)", () => {
    runBurst(DEFAULT_POLICY);
    expect(emptyView.podsByNode.size).to.equal(0);
  });
});
