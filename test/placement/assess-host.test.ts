import { expect } from "chai";
import { assessHost, clockInputsOf, isTooOld } from "../../src/placement/assess-host.js";
import { formatReason } from "../../src/protocol/format-reason.js";
import { hostView, NOW_MS, vmView } from "../fixtures/inventory.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";

const t = DEFAULT_POLICY.thresholds;

describe("assessHost", () => {
  const cases: Array<{
    name: string;
    host: Parameters<typeof hostView>[0];
    vm?: Parameters<typeof vmView>[0];
    heat: string;
    reasons: string[];
  }> = [
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
    {
      name: "given cpu usage 90 %, returns hot",
      host: { metrics: { cpuUsagePercent: 90 } },
      heat: "hot",
      reasons: ["ESXi host esx-07 (host-21): cpu usage 90% >= 90% (sampled 14s ago)"],
    },
    {
      name: "given memory usage 96 %, returns hot",
      host: { metrics: { memUsagePercent: 96 } },
      heat: "hot",
      reasons: ["ESXi host esx-07 (host-21): memory usage 96% >= 95% (sampled 14s ago)"],
    },
    {
      name: "given balloon 2 % of host memory, returns hot",
      host: { metrics: { balloonPercent: 2 } },
      heat: "hot",
      reasons: ["ESXi host esx-07 (host-21): balloon 2% >= 1% (sampled 14s ago)"],
    },
    {
      name: "given swap-in 40 KB/s, returns hot",
      host: { metrics: { swapInKBps: 40 } },
      heat: "hot",
      reasons: ["ESXi host esx-07 (host-21): swap-in rate 40 KB/s >= 1 KB/s (sampled 14s ago)"],
    },
    {
      name: "given memory state hard, returns hot",
      host: { metrics: { memState: "hard" } },
      heat: "hot",
      reasons: ["ESXi host esx-07 (host-21): memory state hard in hard|low (sampled 14s ago)"],
    },
    {
      name: "given memory state low, returns hot",
      host: { metrics: { memState: "low" } },
      heat: "hot",
      reasons: ["ESXi host esx-07 (host-21): memory state low in hard|low (sampled 14s ago)"],
    },
    {
      name: "given memory state soft, returns warm",
      host: { metrics: { memState: "soft" } },
      heat: "warm",
      reasons: ["ESXi host esx-07 (host-21): memory state soft in soft (sampled 14s ago)"],
    },
    {
      name: "given maintenance mode, returns hot",
      host: { inMaintenance: true },
      heat: "hot",
      reasons: ["ESXi host esx-07 (host-21): in maintenance mode"],
    },
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

  it("given no host sample, still applies the node VM's own rules and keeps metrics_missing", () => {
    const host = hostView({ metrics: null });
    const hot = assessHost(host, vmView({ metrics: { cpuReadyPercent: 12, balloonMiB: 64 } }), t, NOW_MS);
    expect([hot.heat, hot.staleness?.code]).to.deep.equal(["hot", "metrics_missing"]);
    expect(hot.rejections.map(formatReason)).to.deep.equal([
      "ESXi host esx-07 (host-21): VM k8s-worker-01 (vm-31) cpu ready 12% >= 10% (sampled 14s ago)",
      "ESXi host esx-07 (host-21): VM k8s-worker-01 (vm-31) balloon 64 MiB > 0 MiB (sampled 14s ago)",
    ]);
    const quiet = assessHost(host, vmView({ metrics: { cpuReadyPercent: 1 } }), t, NOW_MS);
    expect([quiet.heat, quiet.staleness?.code]).to.deep.equal(["cool", "metrics_missing"]);
  });

  it("given a stale host sample or a stale inventory, ignores the node VM's metrics", () => {
    const vm = vmView({ metrics: { cpuReadyPercent: 40 } });
    const staleSample = hostView({ metrics: { sampledAtMs: NOW_MS - 121_000 } });
    const staleInventory = hostView({ polledAtMs: NOW_MS - 121_000 });
    expect(assessHost(staleSample, vm, t, NOW_MS)).to.include({ heat: "cool" });
    expect(assessHost(staleInventory, vm, t, NOW_MS)).to.include({ heat: "cool" });
  });

  it("given a stale VM sample on a fresh host, ignores the VM's metrics", () => {
    const vm = vmView({ metrics: { sampledAtMs: NOW_MS - 600_000, cpuReadyPercent: 40 } });
    expect(assessHost(hostView(), vm, t, NOW_MS).heat).to.equal("cool");
  });
});

describe("assessHost boundaries", () => {
  const heatOf = (host: Parameters<typeof hostView>[0], vm?: Parameters<typeof vmView>[0]) =>
    assessHost(hostView(host), vm ? vmView(vm) : undefined, t, NOW_MS).heat;

  it("given the node VM's ready exactly at cpuReadyPercent, returns hot (>=, not >)", () => {
    expect(heatOf({}, { metrics: { cpuReadyPercent: t.cpuReadyPercent } })).to.equal("hot");
    expect(heatOf({}, { metrics: { cpuReadyPercent: t.cpuReadyPercent - 0.01 } })).to.equal("warm");
  });

  it("given the node VM's ready exactly at cpuReadyWarnPercent, returns warm (>=, not >)", () => {
    expect(heatOf({}, { metrics: { cpuReadyPercent: t.cpuReadyWarnPercent } })).to.equal("warm");
    expect(heatOf({}, { metrics: { cpuReadyPercent: t.cpuReadyWarnPercent - 0.01 } })).to.equal("cool");
  });

  for (const mib of [1, 0.5, 0.001]) {
    it(`given ${mib} MiB of balloon on the node's VM, returns hot (any balloon: > 0)`, () => {
      expect(heatOf({}, { metrics: { balloonMiB: mib } })).to.equal("hot");
    });
  }

  it("given no balloon on the node's VM, returns cool", () => {
    expect(heatOf({}, { metrics: { balloonMiB: 0 } })).to.equal("cool");
  });

  it("given a host sample exactly maxMetricAgeSeconds old, still judges it; 1 s past, calls it stale (>, not >=)", () => {
    const host = { metrics: { cpuReadyPercent: 50 } };
    const at = hostView({ metrics: { ...host.metrics, sampledAtMs: NOW_MS - t.maxMetricAgeSeconds * 1000 } });
    expect(assessHost(at, undefined, t, NOW_MS).heat).to.equal("hot");
    const past = assessHost(at, undefined, t, NOW_MS + 1000);
    expect([past.heat, past.staleness?.code]).to.deep.equal(["cool", "metrics_stale"]);
  });

  it("given a VM sample exactly maxMetricAgeSeconds old, still judges it; 1 s past, ignores it", () => {
    const host = hostView({ metrics: { sampledAtMs: NOW_MS } });
    const vm = vmView({ metrics: { sampledAtMs: NOW_MS - t.maxMetricAgeSeconds * 1000, cpuReadyPercent: 40 } });
    expect(assessHost(host, vm, t, NOW_MS).heat).to.equal("hot");
    expect(assessHost(host, vm, t, NOW_MS + 1000).heat).to.equal("cool");
  });

  it("given an inventory read exactly maxMetricAgeSeconds ago, the state rules hold; 1 s past, no opinion", () => {
    const host = hostView({ inMaintenance: true, metrics: null });
    const polled = { ...host, polledAtMs: NOW_MS - t.maxMetricAgeSeconds * 1000 };
    expect(assessHost(polled, undefined, t, NOW_MS).heat).to.equal("hot");
    const past = assessHost(polled, undefined, t, NOW_MS + 1000);
    expect([past.rejections.length, past.staleness?.code]).to.deep.equal([0, "inventory_stale"]);
  });
});

describe("assessHost verdict caches follow the clock", () => {
  // The poller keeps handing out the same snapshot objects while vCenter is down: the
  // per-snapshot caches must not freeze the verdict or the age in its reasons.
  it("given the same host object and a later clock, the age in the reason grows, then the verdict turns stale", () => {
    const host = hostView({ metrics: { cpuReadyPercent: 12 } });
    const at = (nowMs: number) => assessHost(host, undefined, t, nowMs);
    expect(at(NOW_MS).rejections.map(formatReason)).to.deep.equal(["ESXi host esx-07 (host-21): cpu ready 12% >= 10% (sampled 14s ago)"]);
    expect(at(NOW_MS + 50_000).rejections.map(formatReason)).to.deep.equal([
      "ESXi host esx-07 (host-21): cpu ready 12% >= 10% (sampled 64s ago)",
    ]);
    const stale = at(NOW_MS + 107_000);
    expect(stale.heat).to.equal("cool");
    expect(stale.staleness && formatReason(stale.staleness)).to.equal(
      "ESXi host esx-07 (host-21): metrics sampled 121s ago, older than 120s",
    );
  });

  it("given the same VM object and a later clock, the VM reason's age grows, then the VM's metrics are ignored", () => {
    const host = hostView({ metrics: { sampledAtMs: NOW_MS + 100_000 } });
    const vm = vmView({ metrics: { cpuReadyPercent: 12 } });
    const at = (nowMs: number) => assessHost(host, vm, t, nowMs);
    expect(at(NOW_MS + 100_000).rejections.map(formatReason)).to.deep.equal([
      "ESXi host esx-07 (host-21): VM k8s-worker-01 (vm-31) cpu ready 12% >= 10% (sampled 114s ago)",
    ]);
    expect(at(NOW_MS + 106_000).rejections.map(formatReason)).to.deep.equal([
      "ESXi host esx-07 (host-21): VM k8s-worker-01 (vm-31) cpu ready 12% >= 10% (sampled 120s ago)",
    ]);
    expect(at(NOW_MS + 107_000).heat).to.equal("cool");
  });

  it("given the same host object in maintenance and a later clock, stops rejecting once its inventory is stale", () => {
    const host = { ...hostView({ inMaintenance: true }), polledAtMs: NOW_MS - 10_000 };
    expect(assessHost(host, undefined, t, NOW_MS).heat).to.equal("hot");
    expect(assessHost(host, undefined, t, NOW_MS + 111_000).staleness?.code).to.equal("inventory_stale");
    expect(assessHost(host, undefined, t, NOW_MS + 111_000).rejections).to.deep.equal([]);
  });
});

describe("isTooOld and clockInputsOf: the clock's only way into a verdict", () => {
  const hot = { cpuReadyPercent: t.cpuReadyPercent + 5 };
  const worlds: Array<{ name: string; host: Parameters<typeof hostView>[0]; vm?: Parameters<typeof vmView>[0] }> = [
    { name: "a hot host", host: { metrics: hot } },
    {
      name: "a host in maintenance, sampled long before its inventory entry",
      host: { inMaintenance: true, metrics: { sampledAtMs: NOW_MS - 90_000 } },
    },
    {
      name: "a host without a sample, its VM hot",
      host: { metrics: null },
      vm: { metrics: { cpuReadyPercent: 99, sampledAtMs: NOW_MS - 50_000 } },
    },
    {
      name: "a cool host, its VM hot and sampled earlier",
      host: {},
      vm: { metrics: { cpuReadyPercent: 99, sampledAtMs: NOW_MS - 70_000 } },
    },
  ];
  for (const w of worlds) {
    it(`given ${w.name}, gives one verdict (heat, staleness, rejections) per set of its times that are too old`, () => {
      const host = hostView(w.host);
      const vm = w.vm ? vmView(w.vm) : undefined;
      const verdicts = new Map<string, Set<string>>();
      for (let now = NOW_MS - 5_000; now <= NOW_MS + 200_000; now += 250) {
        const tooOld = clockInputsOf(host, vm)
          .map((time) => isTooOld(time, now, t))
          .join();
        const a = assessHost(host, vm, t, now);
        const verdict = `${a.heat} ${a.staleness?.code} ${a.rejections.length} ${a.warnings.length}`;
        verdicts.set(tooOld, (verdicts.get(tooOld) ?? new Set()).add(verdict));
      }
      for (const [tooOld, seen] of verdicts) expect([...seen], tooOld).to.have.length(1);
      expect(verdicts.size).to.be.above(1);
    });
  }
});
