import { expect } from "chai";
import type { NodeView, PodView } from "../../src/model/cluster.js";
import { limitOvercommitReasons, overcommitsLimits } from "../../src/placement/limit-overcommit.js";
import { formatReason } from "../../src/protocol/format-reason.js";
import { amounts, GiB, nodeView, podView } from "../fixtures/cluster.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";

// Production defaults: maxCpuOvercommit 2.0, maxMemoryOvercommit 1.2.
const LIMITS = DEFAULT_POLICY.limits;
// Allocatable 7800m / 30 GiB: the cpu maximum is 2.0 x 7.8 = 15.6 CPUs, memory 1.2 x 30 = 36 GiB.
const node = nodeView({ name: "n-1", allocatable: amounts(7.8, 30) });
const on = (cpu: number, memGiB: number, over: Partial<PodView> = {}) =>
  podView({ nodeName: "n-1", limits: amounts(cpu, memGiB), ...over });
const incoming = (cpu: number, memGiB: number) => podView({ uid: "incoming", limits: amounts(cpu, memGiB), boundAtMs: undefined });

describe("limitOvercommitReasons", () => {
  const cases: Array<{ name: string; node?: NodeView; pods: PodView[]; incoming: PodView; want: string[] }> = [
    {
      // (8 + 7) + 10 = 25 CPUs; 25 / 7.8 = 3.205 > 2.0
      name: "given 25 CPUs of limits incl. the incoming pod on 7.8 allocatable, fails cpu with the ratio",
      pods: [on(8, 2), on(7, 2)],
      incoming: incoming(10, 2),
      want: ["cpu limits 25.0 / allocatable 7.8 = 3.21 > 2.0 (limit overcommit)"],
    },
    {
      // 10 + 5.6 = 15.6; 15.6 / 7.8 = 2.0, not above the maximum
      name: "given cpu limits exactly at 2.0 x allocatable, passes",
      pods: [on(10, 1)],
      incoming: incoming(5.6, 1),
      want: [],
    },
    {
      // 15601m / 7800m = 2.00013 > 2.0
      name: "given cpu limits 1 millicore above the maximum, fails",
      pods: [on(10, 1)],
      incoming: podView({ uid: "incoming", limits: { cpuMilli: 5601, memoryBytes: GiB } }),
      want: ["cpu limits 15.6 / allocatable 7.8 = 2.0001 > 2.0 (limit overcommit)"],
    },
    {
      // 30 + 6 = 36 GiB; 36 / 30 = 1.2, not above the maximum
      name: "given memory limits exactly at 1.2 x allocatable, passes",
      pods: [on(1, 30)],
      incoming: incoming(1, 6),
      want: [],
    },
    {
      // 30 + 7 = 37 GiB; 37 / 30 = 1.233 > 1.2
      name: "given 37 GiB of memory limits on 30 GiB allocatable, fails memory",
      pods: [on(1, 30)],
      incoming: incoming(1, 7),
      want: ["memory limits 37.0Gi / allocatable 30.0Gi = 1.23 > 1.2 (limit overcommit)"],
    },
    {
      // cpu 16 + 4 = 20 / 7.8 = 2.56; memory 36 + 4 = 40 / 30 = 1.33
      name: "given both resources over, lists cpu then memory",
      pods: [on(16, 36)],
      incoming: incoming(4, 4),
      want: [
        "cpu limits 20.0 / allocatable 7.8 = 2.56 > 2.0 (limit overcommit)",
        "memory limits 40.0Gi / allocatable 30.0Gi = 1.33 > 1.2 (limit overcommit)",
      ],
    },
    {
      // the node alone is at 15 / 7.8 = 1.92; the incoming 1 CPU makes 16 / 7.8 = 2.05
      name: "given a node just under the maximum, counts the incoming pod and fails",
      pods: [on(15, 1)],
      incoming: incoming(1, 1),
      want: ["cpu limits 16.0 / allocatable 7.8 = 2.05 > 2.0 (limit overcommit)"],
    },
    {
      // the incoming pod is already listed on the node (a retried request): 10 + 5 = 15, not 20
      name: "given the incoming pod already on the node, counts it once",
      pods: [on(10, 1), on(5, 1, { uid: "incoming" })],
      incoming: incoming(5, 1),
      want: [],
    },
    {
      name: "given a node with zero allocatable, has no opinion on limits",
      node: nodeView({ name: "n-1", allocatable: { cpuMilli: 0, memoryBytes: 0 } }),
      pods: [on(100, 100)],
      incoming: incoming(1, 1),
      want: [],
    },
    {
      // pods without limits (counted with requests by pod-demand, zero here) add nothing
      name: "given pods with zero limits, passes",
      pods: [on(0, 0), on(0, 0)],
      incoming: incoming(0, 0),
      want: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const reasons = limitOvercommitReasons(c.node ?? node, c.pods, c.incoming, LIMITS);
      expect(reasons.map(formatReason)).to.deep.equal(c.want);
      // The placement index's shortcut agrees: no reason, no key built.
      const pods = c.pods.some((p) => p.uid === c.incoming.uid) ? c.pods : [...c.pods, c.incoming];
      const sum = (pick: (p: PodView) => number) => pods.reduce((a, p) => a + pick(p), 0);
      const over = overcommitsLimits(
        c.node ?? node,
        sum((p) => p.limits.cpuMilli),
        sum((p) => p.limits.memoryBytes),
        LIMITS,
      );
      expect(over).to.equal(c.want.length > 0);
    });
  }

  it("given a custom maximum, fails 25 / 7.8 = 3.21 at 3.0 and passes it at 3.5", () => {
    const pods = [on(8, 2), on(7, 2)];
    expect(limitOvercommitReasons(node, pods, incoming(10, 2), { ...LIMITS, maxCpuOvercommit: 3.5 })).to.deep.equal([]);
    expect(limitOvercommitReasons(node, pods, incoming(10, 2), { ...LIMITS, maxCpuOvercommit: 3.0 })[0]).to.deep.include({
      code: "limit_overcommit",
      resource: "cpu",
      limits: 25_000,
      allocatable: 7_800,
      max: 3.0,
    });
  });
});
