import { expect } from "chai";
import { parseConfig } from "../../src/config/index.js";
import type { PodView } from "../../src/model/cluster.js";
import { advise } from "../../src/placement/advise.js";
import { buildOversellLedger } from "../../src/placement/oversell-ledger.js";
import { PodListSummaries, summarizePods } from "../../src/placement/pod-list-summary.js";
import { checkStackedCpu } from "../../src/placement/stacked-overcommit.js";
import { amounts, clusterViewOf, GiB, nodeView, podView } from "../fixtures/cluster.js";
import { hostView, inventoryOf, vmView } from "../fixtures/inventory.js";

const POLICY = parseConfig(undefined);

describe("summarizePods", () => {
  const cases: Array<{
    name: string;
    pods: PodView[];
    want: {
      pods: number;
      cpuLimitsMilli: number;
      memoryLimitsBytes: number;
      bestEffort: string[];
      namespaces: Record<string, [number, number, number, number]>;
    };
  }> = [
    { name: "no pods", pods: [], want: { pods: 0, cpuLimitsMilli: 0, memoryLimitsBytes: 0, bestEffort: [], namespaces: {} } },
    {
      name: "a scaled pod, a plain one and a BestEffort one",
      pods: [
        podView({ name: "s", namespace: "shop", requests: amounts(0.5, 1), originalRequests: amounts(1, 2), limits: amounts(2, 4) }),
        podView({ name: "p", namespace: "shop", limits: amounts(1, 2) }),
        podView({ name: "b", namespace: "ci", requests: amounts(0, 0), limits: amounts(0, 0) }),
      ],
      // per namespace: pods, scaled pods, original cpu milli, scaled cpu milli
      want: {
        pods: 3,
        cpuLimitsMilli: 3000,
        memoryLimitsBytes: 6 * GiB,
        bestEffort: ["b"],
        namespaces: { shop: [2, 1, 1000, 500], ci: [1, 0, 0, 0] },
      },
    },
    {
      name: "a pod with requests but no limits counts with what its limits hold (requests), and is not BestEffort",
      pods: [podView({ name: "r", namespace: "web", requests: amounts(0.25, 0.5), limits: amounts(0.25, 0.5) })],
      want: { pods: 1, cpuLimitsMilli: 250, memoryLimitsBytes: 0.5 * GiB, bestEffort: [], namespaces: { web: [1, 0, 0, 0] } },
    },
  ];
  for (const c of cases) {
    it(`given ${c.name}, sums limits, scaled requests per namespace and lists BestEffort pods`, () => {
      const s = summarizePods(c.pods);
      expect({ pods: s.pods, cpuLimitsMilli: s.cpuLimitsMilli, memoryLimitsBytes: s.memoryLimitsBytes }).to.deep.equal({
        pods: c.want.pods,
        cpuLimitsMilli: c.want.cpuLimitsMilli,
        memoryLimitsBytes: c.want.memoryLimitsBytes,
      });
      expect(s.bestEffort.map((p) => p.name)).to.deep.equal(c.want.bestEffort);
      expect(
        Object.fromEntries([...s.byNamespace].map(([ns, n]) => [ns, [n.pods, n.podsScaled, n.originalCpuMilli, n.scaledCpuMilli]])),
      ).to.deep.equal(c.want.namespaces);
    });
  }

  it("PodListSummaries answers the same summary for the same list and reads a new list again", () => {
    const memo = new PodListSummaries();
    const list = [podView({ namespace: "shop" })];
    expect(memo.has(list)).to.equal(false);
    const first = memo.of(list);
    expect(memo.has(list)).to.equal(true);
    expect(memo.of(list)).to.equal(first);
    const grown = [...list, podView({ namespace: "shop" })];
    expect(memo.of(grown).pods).to.equal(2);
  });
});

describe("ledger and advice with a memo shared across snapshots", () => {
  const hosts = [
    hostView({ id: "host-a", name: "esx-a", vcpuPerPcpu: 4, metrics: { cpuReadyPercent: 30 } }),
    hostView({ id: "host-b", name: "esx-b" }),
  ];
  const vms = [vmView({ id: "vm-1", name: "w1", hostId: "host-a" }), vmView({ id: "vm-2", name: "w2", hostId: "host-b" })];
  const nodes = [nodeView({ name: "w1", allocatable: amounts(8, 30) }), nodeView({ name: "w2", allocatable: amounts(8, 30) })];
  const inventory = inventoryOf(hosts, vms);
  const before = clusterViewOf(nodes, [
    podView({
      name: "a",
      namespace: "shop",
      nodeName: "w1",
      requests: amounts(1, 1),
      originalRequests: amounts(2, 2),
      limits: amounts(12, 40),
    }),
    podView({ name: "b", namespace: "ci", nodeName: "w1", requests: amounts(0, 0), limits: amounts(0, 0) }),
    podView({ name: "c", namespace: "shop", nodeName: "w2" }),
  ]);
  // a new snapshot: w1's list replaced (pod b gone, pod d bound), w2's list shared
  const after = {
    ...before,
    podsByNode: new Map([
      [
        "w1",
        [
          before.podsByNode.get("w1")![0]!,
          podView({ name: "d", namespace: "web", nodeName: "w1", requests: amounts(0.5, 1), originalRequests: amounts(1, 2) }),
        ],
      ],
      ["w2", before.podsByNode.get("w2")!],
    ]),
  };

  it("given the memo of the previous snapshot, the ledger equals one built from scratch", () => {
    const memo = new PodListSummaries();
    buildOversellLedger(before, inventory, POLICY, memo);
    const ledger = buildOversellLedger(after, inventory, POLICY, memo);
    expect(ledger).to.deep.equal(buildOversellLedger(after, inventory, POLICY));
    expect(ledger.totals.podsScaled).to.equal(2);
  });

  it("given snapshots where a node leaves and comes back, the namespace sums follow each one", () => {
    const memo = new PodListSummaries();
    const withoutW2 = { ...after, podsByNode: new Map([["w1", after.podsByNode.get("w1")!]]) };
    for (const view of [before, after, withoutW2, before, withoutW2]) {
      expect(buildOversellLedger(view, inventory, POLICY, memo).namespaces).to.deep.equal(
        buildOversellLedger(view, inventory, POLICY).namespaces,
      );
    }
    // ci's only pod left with w1's old list: no row, rather than a row of zeros
    expect(
      buildOversellLedger(withoutW2, inventory, POLICY, memo)
        .namespaces.map((n) => n.namespace)
        .sort(),
    ).to.deep.equal(["shop", "web"]);
  });

  it("given the memo of the previous snapshot, the advice equals advice from scratch", () => {
    const memo = new PodListSummaries();
    const input = (cluster: typeof before) => ({
      cluster,
      inventory,
      heat: new Map([["host-a", "hot" as const]]),
      reservations: new Map(),
      memoryPainHosts: new Set<string>(),
      recentlyHotHosts: new Set(["host-a"]),
      oversoldNamespaces: new Set(["shop", "web"]),
    });
    const old = advise(input(before), POLICY, memo);
    expect(old.some((f) => f.rule === "besteffort-on-warm-host")).to.equal(true);
    const now = advise(input(after), POLICY, memo);
    expect(now).to.deep.equal(advise(input(after), POLICY));
    expect(now.some((f) => f.rule === "besteffort-on-warm-host")).to.equal(false);
  });

  it("cpuLimitsPerCore is what the extender's stacked rule computes for the host's pods", () => {
    const ledger = buildOversellLedger(before, inventory, POLICY);
    const hostA = ledger.hosts.find((h) => h.id === "host-a")!;
    const none = podView({ uid: "", limits: amounts(0, 0), requests: amounts(0, 0) });
    expect(hostA.cpuLimitsPerCore).to.equal(checkStackedCpu(hosts[0]!, before.podsByNode.get("w1")!, none, POLICY.limits).ratio);
    expect(hostA.cpuLimitsPerCore).to.equal(12 / 32);
  });
});
