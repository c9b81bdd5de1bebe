import { expect } from "chai";
import type { PodView } from "../../src/model/cluster.js";
import type { HostView } from "../../src/model/inventory.js";
import { NO_PENDING, pendingDemand, projectHost, type PendingDemand } from "../../src/placement/burst-guard.js";
import { filterNodes, prioritizeNodes } from "../../src/placement/filter-nodes.js";
import { formatReasons } from "../../src/protocol/format-reason.js";
import { amounts, clusterViewOf, GiB, nodeView, podMetaOf, podView } from "../fixtures/cluster.js";
import { hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";
import { DEFAULT_POLICY, policyWith } from "../fixtures/policy.js";

const SETTLE_MS = 60_000;
/** The host sample every case below is judged against. */
const SAMPLE_MS = NOW_MS - 14_000;

const pod2cpu = (over: Partial<PodView>) => podView({ expectedDemand: amounts(2, 4), nodeName: "n-1", ...over });

describe("pendingDemand", () => {
  const cases: Array<{ name: string; pods: PodView[]; sampledAtMs: number | undefined; want: PendingDemand }> = [
    {
      name: "given a pod bound 5 s after the sample, counts it",
      pods: [pod2cpu({ boundAtMs: SAMPLE_MS + 5_000 })],
      sampledAtMs: SAMPLE_MS,
      want: { cpuMilli: 2000, memoryBytes: 4 * GiB, pods: 1 },
    },
    {
      // settle ends at boundAt + 60 s; a sample 1 ms short of that still cannot show the pod
      name: "given a sample stamped 1 ms before boundAt + settle, still counts the pod",
      pods: [pod2cpu({ boundAtMs: SAMPLE_MS - SETTLE_MS + 1 })],
      sampledAtMs: SAMPLE_MS,
      want: { cpuMilli: 2000, memoryBytes: 4 * GiB, pods: 1 },
    },
    {
      name: "given a sample stamped exactly boundAt + settle, stops counting the pod",
      pods: [pod2cpu({ boundAtMs: SAMPLE_MS - SETTLE_MS })],
      sampledAtMs: SAMPLE_MS,
      want: NO_PENDING,
    },
    {
      // bound 30 s before the sample: the sample was taken before the pod's load settled
      name: "given a pod bound 30 s before the sample, still counts it",
      pods: [pod2cpu({ boundAtMs: SAMPLE_MS - 30_000 })],
      sampledAtMs: SAMPLE_MS,
      want: { cpuMilli: 2000, memoryBytes: 4 * GiB, pods: 1 },
    },
    {
      name: "given a pod bound an hour before the sample, never counts it",
      pods: [pod2cpu({ boundAtMs: SAMPLE_MS - 3_600_000 })],
      sampledAtMs: SAMPLE_MS,
      want: NO_PENDING,
    },
    {
      name: "given a terminal pod bound after the sample, never counts it",
      pods: [pod2cpu({ boundAtMs: SAMPLE_MS + 5_000, terminal: true })],
      sampledAtMs: SAMPLE_MS,
      want: NO_PENDING,
    },
    {
      name: "given a pod without a binding time, does not count it",
      pods: [pod2cpu({ boundAtMs: undefined })],
      sampledAtMs: SAMPLE_MS,
      want: NO_PENDING,
    },
    {
      name: "given no sample at all, counts every bound live pod",
      pods: [pod2cpu({ boundAtMs: SAMPLE_MS - 3_600_000 }), pod2cpu({ boundAtMs: SAMPLE_MS, terminal: true })],
      sampledAtMs: undefined,
      want: { cpuMilli: 2000, memoryBytes: 4 * GiB, pods: 1 },
    },
    {
      // counted: 2000m + 500m, 4 GiB + 1 GiB; the old and the terminal pod are left out
      name: "given a mix, sums the expected demand of the counted pods only",
      pods: [
        pod2cpu({ boundAtMs: SAMPLE_MS + 1_000 }),
        pod2cpu({ boundAtMs: SAMPLE_MS + 2_000, expectedDemand: amounts(0.5, 1) }),
        pod2cpu({ boundAtMs: SAMPLE_MS - 3_600_000 }),
        pod2cpu({ boundAtMs: SAMPLE_MS + 3_000, terminal: true }),
      ],
      sampledAtMs: SAMPLE_MS,
      want: { cpuMilli: 2500, memoryBytes: 5 * GiB, pods: 2 },
    },
    {
      name: "given expected demand, not requests or limits, projects the expected demand",
      pods: [pod2cpu({ boundAtMs: SAMPLE_MS + 1_000, requests: amounts(0.1, 0.1), limits: amounts(8, 16), expectedDemand: amounts(3, 6) })],
      sampledAtMs: SAMPLE_MS,
      want: { cpuMilli: 3000, memoryBytes: 6 * GiB, pods: 1 },
    },
    { name: "given no pods, returns NO_PENDING", pods: [], sampledAtMs: SAMPLE_MS, want: NO_PENDING },
  ];
  for (const c of cases) it(c.name, () => expect(pendingDemand(c.pods, c.sampledAtMs, SETTLE_MS)).to.deep.equal(c.want));

  it("given the same pod list and then a sample taken after settling, stops counting (answers follow the sample)", () => {
    const pods = [pod2cpu({ boundAtMs: SAMPLE_MS + 5_000 })];
    expect(pendingDemand(pods, SAMPLE_MS, SETTLE_MS).pods).to.equal(1);
    expect(pendingDemand(pods, SAMPLE_MS + 65_000, SETTLE_MS).pods).to.equal(0);
    expect(pendingDemand(pods, SAMPLE_MS + 65_000, 120_000).pods).to.equal(1);
  });
});

describe("projectHost", () => {
  // hostView: 32 cores, 524288 MiB = 512 GiB, cpu usage 30 %, memory usage 40 %
  const cases: Array<{ name: string; host: HostView; pending: PendingDemand; cpu: number | undefined; mem: number | undefined }> = [
    {
      // cpu: 30 + 4000 / (32 x 1000) x 100 = 30 + 12.5 = 42.5; mem: 40 + 8 GiB / 512 GiB x 100 = 40 + 1.5625
      name: "given 4 CPUs / 8 GiB pending on a 32-core 512 GiB host, adds 12.5 % cpu and 1.5625 % memory",
      host: hostView(),
      pending: { cpuMilli: 4000, memoryBytes: 8 * GiB, pods: 2 },
      cpu: 42.5,
      mem: 41.5625,
    },
    {
      // cpu: 80 + 16000 / 16000 x 100 = 180 (projections are not clamped at 100)
      name: "given 16 CPUs pending on a 16-core host, adds 100 % cpu",
      host: hostView({ cpuCores: 16, metrics: { cpuUsagePercent: 80 } }),
      pending: { cpuMilli: 16_000, memoryBytes: 0, pods: 8 },
      cpu: 180,
      mem: 40,
    },
    {
      name: "given a host with no cpu usage sample, leaves cpu undefined and still projects memory",
      host: hostView({ metrics: { cpuUsagePercent: undefined } }),
      pending: { cpuMilli: 4000, memoryBytes: 8 * GiB, pods: 2 },
      cpu: undefined,
      mem: 41.5625,
    },
    {
      name: "given zero cores known, adds nothing to cpu rather than dividing by zero",
      host: hostView({ cpuCores: 0 }),
      pending: { cpuMilli: 4000, memoryBytes: 0, pods: 1 },
      cpu: 30,
      mem: 40,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const m = projectHost(c.host, c.pending).metrics!;
      if (c.cpu === undefined) expect(m.cpuUsagePercent).to.equal(undefined);
      else expect(m.cpuUsagePercent).to.be.closeTo(c.cpu, 1e-9);
      expect(m.memUsagePercent).to.be.closeTo(c.mem!, 1e-9);
      expect(m.cpuReadyPercent).to.equal(c.host.metrics!.cpuReadyPercent);
      expect(m.sampledAtMs).to.equal(c.host.metrics!.sampledAtMs);
    });
  }

  it("given nothing pending, or a host without metrics, returns the host unchanged", () => {
    const host = hostView();
    const bare = hostView({ metrics: null });
    expect(projectHost(host, NO_PENDING)).to.equal(host);
    expect(projectHost(bare, { cpuMilli: 1000, memoryBytes: 0, pods: 1 })).to.equal(bare);
  });

  it("does not mutate the host it projects", () => {
    const host = hostView();
    projectHost(host, { cpuMilli: 4000, memoryBytes: 0, pods: 1 });
    expect(host.metrics!.cpuUsagePercent).to.equal(30);
  });
});

describe("burst guard in filterNodes / prioritizeNodes", () => {
  // One 16-core host at 80 % cpu (below the warn level 0.9 x 90 = 81 %: cool). Each pending
  // 2-CPU pod adds 2000 / 16000 x 100 = 12.5 % cpu.
  const inventory = inventoryOf(
    [hostView({ id: "host-1", name: "esx-01", cpuCores: 16, metrics: { cpuUsagePercent: 80 } })],
    [vmView({ id: "vm-1", name: "n-1", hostId: "host-1", biosUuid: undefined })],
  );
  const incoming = podView({ uid: "incoming", expectedDemand: amounts(2, 4), limits: amounts(0, 0), boundAtMs: undefined });
  const ctxWith = (pods: PodView[], enabled = true) => ({
    inventory,
    policy: policyWith({ burstGuard: { ...DEFAULT_POLICY.burstGuard, enabled } }),
    nowMs: NOW_MS,
    cluster: { view: clusterViewOf([nodeView({ name: "n-1", allocatable: amounts(100, 1000) })], pods), pod: incoming },
  });
  const recent = [0, 1, 2].map((i) => pod2cpu({ boundAtMs: NOW_MS - 5_000 + i, limits: amounts(0, 0) }));

  it("given 3 pods bound since the sample pushing cpu over 90 %, rejects as unresolvable saying so", () => {
    // 80 + 3 x 12.5 = 117.5 % >= 90 %
    const out = filterNodes(podMetaOf(incoming), [{ name: "n-1" }], ctxWith(recent));
    expect(out.passed).to.deep.equal([]);
    const reasons = out.unresolvable.get("n-1")!;
    expect(reasons).to.have.length(1);
    expect(reasons[0]).to.include({ code: "host_metric", metric: "cpu usage", value: 117.5, threshold: 90, pendingPods: 3 });
    expect(formatReasons(reasons)).to.equal(
      "ESXi host esx-01 (host-1): cpu usage 117.5% >= 90% (sampled 14s ago, incl. 3 pods bound since)",
    );
  });

  it("given the same pods bound an hour before the sample, passes the cool host", () => {
    const old = recent.map((p) => ({ ...p, boundAtMs: NOW_MS - 3_600_000 }));
    const out = filterNodes(podMetaOf(incoming), [{ name: "n-1" }], ctxWith(old));
    expect(out.passed).to.deep.equal(["n-1"]);
  });

  it("given burstGuard.enabled false, ignores the pending pods", () => {
    const out = filterNodes(podMetaOf(incoming), [{ name: "n-1" }], ctxWith(recent, false));
    expect(out.passed).to.deep.equal(["n-1"]);
  });

  it("given pending pods that only make the host warm, lowers its score instead", () => {
    // one 1-CPU pod: 80 + 1000 / 16000 x 100 = 86.25 %: >= 81 (warm), < 90 (not hot)
    const one = [pod2cpu({ boundAtMs: NOW_MS - 5_000, expectedDemand: amounts(1, 1), limits: amounts(0, 0) })];
    const [cool] = prioritizeNodes(podMetaOf(incoming), [{ name: "n-1" }], ctxWith([]));
    const [warm] = prioritizeNodes(podMetaOf(incoming), [{ name: "n-1" }], ctxWith(one));
    expect(cool!.score).to.be.at.least(5);
    expect(warm!.score).to.be.within(1, 4);
  });
});
