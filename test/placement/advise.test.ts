import { expect } from "chai";
import { parseConfig } from "../../src/config/index.js";
import type { PodView } from "../../src/model/cluster.js";
import type { Heat } from "../../src/placement/assess-host.js";
import { advise, type AdviceInput, type AdviceRule, type VmReservation } from "../../src/placement/advise.js";
import { amounts, clusterViewOf, nodeView, podView } from "../fixtures/cluster.js";
import { hostView, inventoryOf, vmView } from "../fixtures/inventory.js";

// Defaults: advice.maxVcpuPerPcpu 3.0, maxVramPerPram 1.0; limits.maxCpuOvercommit 2.0, maxMemoryOvercommit 1.2.
const POLICY = parseConfig(undefined);
const hosts = [
  hostView({ id: "host-a", name: "esx-a", vcpuPerPcpu: 2, vramPerPram: 0.9 }),
  hostView({ id: "host-b", name: "esx-b", vcpuPerPcpu: 2, vramPerPram: 0.9 }),
];
const vms = [vmView({ id: "vm-1", name: "w1", hostId: "host-a", memoryMiB: 32768 }), vmView({ id: "vm-2", name: "w2", hostId: "host-b" })];
const nodes = [nodeView({ name: "w1", allocatable: amounts(8, 30) }), nodeView({ name: "w2", allocatable: amounts(8, 30) })];
const NO_RES: VmReservation = { memoryReservationMiB: 0, cpuReservationMhz: 0 };

function input(over: Partial<AdviceInput> & { pods?: PodView[] } = {}): AdviceInput {
  const { pods = [], ...rest } = over;
  return {
    cluster: clusterViewOf(nodes, pods),
    inventory: inventoryOf(hosts, vms),
    heat: new Map<string, Heat>([
      ["host-a", "cool"],
      ["host-b", "cool"],
    ]),
    reservations: new Map(),
    memoryPainHosts: new Set(),
    recentlyHotHosts: new Set(),
    oversoldNamespaces: new Set(),
    ...rest,
  };
}
const bestEffort = (name: string, node: string) =>
  podView({ name, nodeName: node, namespace: "ci", requests: amounts(0, 0), limits: amounts(0, 0) });

describe("advise", () => {
  const cases: Array<{ name: string; input: AdviceInput; want: Array<[AdviceRule, string]> }> = [
    { name: "given a quiet cluster, no finding", input: input(), want: [] },
    {
      name: "given a host that ballooned and its node VM without a memory reservation, advises a reservation",
      input: input({
        memoryPainHosts: new Set(["host-a"]),
        reservations: new Map([
          ["vm-1", NO_RES],
          ["vm-2", NO_RES],
        ]),
      }),
      want: [["memory-reservation", "node w1"]],
    },
    {
      name: "given the VM has a memory reservation, no reservation finding",
      input: input({
        memoryPainHosts: new Set(["host-a"]),
        reservations: new Map([["vm-1", { memoryReservationMiB: 32768, cpuReservationMhz: 0 }]]),
      }),
      want: [],
    },
    {
      name: "given the VM's reservation was not read yet, no opinion",
      input: input({ memoryPainHosts: new Set(["host-a"]) }),
      want: [],
    },
    {
      // vCPU:pCPU 3.5 > 3.0; vRAM:pRAM 1.2 > 1.0
      name: "given a host above both ESXi ratios, two findings",
      input: input({ inventory: inventoryOf([hostView({ id: "host-a", name: "esx-a", vcpuPerPcpu: 3.5, vramPerPram: 1.2 })], vms) }),
      want: [
        ["esxi-overcommit", "host esx-a"],
        ["esxi-overcommit", "host esx-a"],
      ],
    },
    {
      // 4 pods x 5 CPU limits = 20 / 8 = 2.5 > 2.0 on a warm host
      name: "given limit overcommit on a node of a warm host, a finding",
      input: input({
        heat: new Map([["host-a", "warm"]]),
        pods: [1, 2, 3, 4].map(() => podView({ nodeName: "w1", limits: amounts(5, 1) })),
      }),
      want: [["limit-overcommit-on-warm-host", "node w1"]],
    },
    {
      name: "given the same limit overcommit on a cool host, no finding",
      input: input({ pods: [1, 2, 3, 4].map(() => podView({ nodeName: "w1", limits: amounts(5, 1) })) }),
      want: [],
    },
    {
      name: "given BestEffort pods on a hot host's node, a finding per node; none on the cool host",
      input: input({
        heat: new Map([
          ["host-a", "hot"],
          ["host-b", "cool"],
        ]),
        pods: [bestEffort("a", "w1"), bestEffort("b", "w1"), bestEffort("c", "w2")],
      }),
      want: [["besteffort-on-warm-host", "node w1"]],
    },
    {
      name: "given BestEffort pods on a host of unknown heat, no opinion",
      input: input({ heat: new Map(), pods: [bestEffort("a", "w1")] }),
      want: [],
    },
    {
      // pods on host-a and host-b; host-a hot in the last hour: 1 / 2 = 50 % > 25 %
      name: "given an oversold namespace with half its hosts hot in the last hour, a finding",
      input: input({
        oversoldNamespaces: new Set(["shop"]),
        recentlyHotHosts: new Set(["host-a"]),
        pods: [podView({ namespace: "shop", nodeName: "w1" }), podView({ namespace: "shop", nodeName: "w2" })],
      }),
      want: [["oversell-on-hot-hosts", "namespace shop"]],
    },
    {
      // cpu ready 12 % >= 10 % (thresholds.cpuReadyPercent), host hot, sample 4 s older than the host's poll
      name: "given a hot host with CPU ready over the threshold, a cpu-ready finding",
      input: input({
        heat: new Map([["host-a", "hot"]]),
        inventory: inventoryOf([hostView({ id: "host-a", name: "esx-a", metrics: { cpuReadyPercent: 12 } }), hosts[1]!], vms),
      }),
      want: [["cpu-ready-on-hot-host", "host esx-a"]],
    },
    {
      // hot for another rule (balloon): cpu ready 4 % < 10 %
      name: "given a host hot for balloon with CPU ready under the threshold, no cpu-ready finding",
      input: input({
        heat: new Map([["host-a", "hot"]]),
        inventory: inventoryOf([hostView({ id: "host-a", name: "esx-a", metrics: { cpuReadyPercent: 4, balloonPercent: 3 } })], vms),
      }),
      want: [],
    },
    {
      // the sample is 200 s older than the host's poll: over maxMetricAgeSeconds (120)
      name: "given CPU ready over the threshold on a stale sample, no opinion",
      input: input({
        heat: new Map([["host-a", "hot"]]),
        inventory: inventoryOf(
          [hostView({ id: "host-a", name: "esx-a", polledAtMs: 1_000_000, metrics: { cpuReadyPercent: 12, sampledAtMs: 800_000 } })],
          vms,
        ),
      }),
      want: [],
    },
    {
      name: "given the same namespace without oversell, no finding",
      input: input({
        recentlyHotHosts: new Set(["host-a"]),
        pods: [podView({ namespace: "shop", nodeName: "w1" }), podView({ namespace: "shop", nodeName: "w2" })],
      }),
      want: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = advise(c.input, POLICY).map((f) => [f.rule, f.subject]);
      expect(got).to.deep.equal(c.want);
    });
  }

  it("orders findings by risk, the missing reservation (90) before the hot-host oversell (75) and the ESXi ratio", () => {
    const got = advise(
      input({
        inventory: inventoryOf([hostView({ id: "host-a", name: "esx-a", vcpuPerPcpu: 3.2 }), hosts[1]!], vms),
        memoryPainHosts: new Set(["host-a"]),
        reservations: new Map([["vm-1", NO_RES]]),
        oversoldNamespaces: new Set(["shop"]),
        recentlyHotHosts: new Set(["host-a", "host-b"]),
        pods: [podView({ namespace: "shop", nodeName: "w1" })],
      }),
      POLICY,
    );
    expect(got.map((f) => f.rule)).to.deep.equal(["memory-reservation", "oversell-on-hot-hosts", "esxi-overcommit"]);
    expect(got[0]!.evidence).to.contain("0 of 32768 MiB").and.contain("esx-a (host-a)");
    expect(got[0]!.fix).to.contain("Reservation");
  });

  it("given a hot host on CPU ready, the finding names the value, the threshold, the ratio and the nodes, risk 80 + points over", () => {
    // 13.5 % - 10 % = 3.5 points over: 80 + 3 = 83
    const [f] = advise(
      input({
        heat: new Map([["host-a", "hot"]]),
        inventory: inventoryOf([hostView({ id: "host-a", name: "esx-a", vcpuPerPcpu: 2.5, metrics: { cpuReadyPercent: 13.5 } })], vms),
      }),
      POLICY,
    );
    expect(f!.risk).to.equal(83);
    expect(f!.evidence).to.equal(
      "CPU ready 13.5% >= 10% per vCPU on ESXi host esx-a (host-a): its VMs' vCPUs wait for physical cores (vCPU:pCPU 2.50 on 32 cores, under nodes w1)",
    );
    expect(f!.fix).to.match(/^give the host fewer runnable vCPUs/);
  });

  it("given a missing memory reservation, the fix names its trade-offs: HA admission control and consolidation", () => {
    const [f] = advise(input({ memoryPainHosts: new Set(["host-a"]), reservations: new Map([["vm-1", NO_RES]]) }), POLICY);
    expect(f!.rule).to.equal("memory-reservation");
    expect(f!.fix)
      .to.match(/HA admission control/)
      .and.match(/fewer VMs fit: less consolidation/);
  });
});
