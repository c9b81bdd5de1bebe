import { expect } from "chai";
import { assessHost } from "../../src/placement/assess-host.js";
import { formatReason } from "../../src/protocol/format-reason.js";
import { hostView, NOW_MS, vmView } from "../fixtures/inventory.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";

const t = DEFAULT_POLICY.thresholds;

describe("assessHost", () => {
  const cases: Array<{ name: string; host: Parameters<typeof hostView>[0]; vm?: Parameters<typeof vmView>[0]; heat: string; reasons: string[] }> = [
    { name: "given a quiet host, returns cool with no reasons", host: {}, heat: "cool", reasons: [] },
    {
      name: "given ready 12.4 % (>= 10), returns hot naming host, value, threshold and age",
      host: { metrics: { cpuReadyPercent: 12.44 } },
      heat: "hot",
      reasons: ["ESXi host esx-07 (host-21): cpu ready 12.4% >= 10% (sampled 14s ago)"],
    },
    {
      name: "given ready exactly at the threshold, returns hot (>=)",
      host: { metrics: { cpuReadyPercent: 10 } },
      heat: "hot",
      reasons: ["ESXi host esx-07 (host-21): cpu ready 10% >= 10% (sampled 14s ago)"],
    },
    {
      name: "given ready 6 % (warn 5), returns warm",
      host: { metrics: { cpuReadyPercent: 6 } },
      heat: "warm",
      reasons: ["ESXi host esx-07 (host-21): cpu ready 6% >= 5% (sampled 14s ago)"],
    },
    {
      name: "given cpu usage 85 % (within 10 % of 90), returns warm at 81",
      host: { metrics: { cpuUsagePercent: 85 } },
      heat: "warm",
      reasons: ["ESXi host esx-07 (host-21): cpu usage 85% >= 81% (sampled 14s ago)"],
    },
    { name: "given cpu usage 90 %, returns hot", host: { metrics: { cpuUsagePercent: 90 } }, heat: "hot", reasons: ["ESXi host esx-07 (host-21): cpu usage 90% >= 90% (sampled 14s ago)"] },
    { name: "given memory usage 96 %, returns hot", host: { metrics: { memUsagePercent: 96 } }, heat: "hot", reasons: ["ESXi host esx-07 (host-21): memory usage 96% >= 95% (sampled 14s ago)"] },
    { name: "given balloon 2 % of host memory, returns hot", host: { metrics: { balloonPercent: 2 } }, heat: "hot", reasons: ["ESXi host esx-07 (host-21): balloon 2% >= 1% (sampled 14s ago)"] },
    { name: "given swap-in 40 KB/s, returns hot", host: { metrics: { swapInKBps: 40 } }, heat: "hot", reasons: ["ESXi host esx-07 (host-21): swap-in rate 40 KB/s >= 1 KB/s (sampled 14s ago)"] },
    { name: "given memory state hard, returns hot", host: { metrics: { memState: "hard" } }, heat: "hot", reasons: ["ESXi host esx-07 (host-21): memory state hard in hard|low (sampled 14s ago)"] },
    { name: "given memory state low, returns hot", host: { metrics: { memState: "low" } }, heat: "hot", reasons: ["ESXi host esx-07 (host-21): memory state low in hard|low (sampled 14s ago)"] },
    { name: "given memory state soft, returns warm", host: { metrics: { memState: "soft" } }, heat: "warm", reasons: ["ESXi host esx-07 (host-21): memory state soft in soft (sampled 14s ago)"] },
    { name: "given maintenance mode, returns hot", host: { inMaintenance: true }, heat: "hot", reasons: ["ESXi host esx-07 (host-21): in maintenance mode"] },
    {
      name: "given NOT_RESPONDING, returns hot even without metrics",
      host: { connectionState: "NOT_RESPONDING", metrics: null },
      heat: "hot",
      reasons: ["ESXi host esx-07 (host-21): connection state NOT_RESPONDING, not CONNECTED"],
    },
    {
      name: "given the node's VM has 12 % ready on a cool host, returns hot naming the VM",
      host: {},
      vm: { metrics: { cpuReadyPercent: 12 } },
      heat: "hot",
      reasons: ["ESXi host esx-07 (host-21): VM k8s-worker-01 (vm-31) cpu ready 12% >= 10% (sampled 14s ago)"],
    },
    {
      name: "given any balloon on the node's VM, returns hot",
      host: {},
      vm: { metrics: { balloonMiB: 256 } },
      heat: "hot",
      reasons: ["ESXi host esx-07 (host-21): VM k8s-worker-01 (vm-31) balloon 256 MiB > 0 MiB (sampled 14s ago)"],
    },
    {
      name: "given two crossed thresholds, returns both reasons",
      host: { metrics: { cpuReadyPercent: 15, swapInKBps: 3 } },
      heat: "hot",
      reasons: [
        "ESXi host esx-07 (host-21): cpu ready 15% >= 10% (sampled 14s ago)",
        "ESXi host esx-07 (host-21): swap-in rate 3 KB/s >= 1 KB/s (sampled 14s ago)",
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const a = assessHost(hostView(c.host), c.vm ? vmView(c.vm) : undefined, t, NOW_MS);
      expect(a.heat).to.equal(c.heat);
      expect([...a.rejections, ...a.warnings].map(formatReason)).to.deep.equal(c.reasons);
    });
  }

  it("given a sample older than maxMetricAgeSeconds, returns staleness and ignores its metric values", () => {
    const host = hostView({ metrics: { sampledAtMs: NOW_MS - 121_000, cpuReadyPercent: 50 } });
    const a = assessHost(host, undefined, t, NOW_MS);
    expect(a.heat).to.equal("cool");
    expect(a.staleness && formatReason(a.staleness)).to.equal("ESXi host esx-07 (host-21): metrics sampled 121s ago, older than 120s");
  });

  it("given no sample at all, returns metrics_missing", () => {
    const a = assessHost(hostView({ metrics: null }), undefined, t, NOW_MS);
    expect(a.staleness?.code).to.equal("metrics_missing");
  });

  it("given a stale VM sample on a fresh host, ignores the VM's metrics", () => {
    const vm = vmView({ metrics: { sampledAtMs: NOW_MS - 600_000, cpuReadyPercent: 40 } });
    expect(assessHost(hostView(), vm, t, NOW_MS).heat).to.equal("cool");
  });
});
