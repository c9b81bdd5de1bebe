import { expect } from "chai";
import type { PodView } from "../../src/model/cluster.js";
import { checkStackedCpu } from "../../src/placement/stacked-overcommit.js";
import { formatReason } from "../../src/protocol/format-reason.js";
import { amounts, podView } from "../fixtures/cluster.js";
import { hostView } from "../fixtures/inventory.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";

// Production default maxStackedCpuOvercommit 4.0 on a 32-core host: at most 128 CPUs of pod
// limits; the score penalty starts above 0.75 x 128 = 96 CPUs.
// penalty = ceil(4 x (ratio / 4.0 - 0.75) / 0.25), clamped to 0..4.
const LIMITS = DEFAULT_POLICY.limits;
const host = hostView({ id: "host-21", name: "esx-07", cpuCores: 32 });
/** `cpus` of limits spread over pods of 8 CPUs (the last one smaller), on any node VM of the host. */
const podsWith = (cpus: number): PodView[] => {
  const out: PodView[] = [];
  for (let left = cpus, i = 0; left > 0; left -= 8, i++)
    out.push(podView({ nodeName: `n-${i % 3}`, limits: amounts(Math.min(8, left), 1) }));
  return out;
};
const incoming = podView({ uid: "incoming", limits: amounts(4, 1), boundAtMs: undefined });

describe("checkStackedCpu", () => {
  const cases: Array<{ name: string; onHost: number; ratio: number; penalty: number; reason?: string }> = [
    // (60 + 4) / 32 = 2.0; 2.0 / 4.0 = 0.5 <= 0.75
    { name: "given 64 CPUs of limits on 32 cores, ratio 2.0, no penalty", onHost: 60, ratio: 2.0, penalty: 0 },
    // (92 + 4) / 32 = 3.0 = 0.75 x 4.0: the penalty starts only above this
    { name: "given exactly 75 % of the maximum, no penalty yet", onHost: 92, ratio: 3.0, penalty: 0 },
    // (96 + 4) / 32 = 3.125; 4 x (0.78125 - 0.75) / 0.25 = 0.5 -> 1
    { name: "given 100 CPUs (ratio 3.125), penalty 1", onHost: 96, ratio: 3.125, penalty: 1 },
    // (108 + 4) / 32 = 3.5; 4 x (0.875 - 0.75) / 0.25 = 2
    { name: "given 112 CPUs (ratio 3.5), penalty 2", onHost: 108, ratio: 3.5, penalty: 2 },
    // (116 + 4) / 32 = 3.75; 4 x (0.9375 - 0.75) / 0.25 = 3
    { name: "given 120 CPUs (ratio 3.75), penalty 3", onHost: 116, ratio: 3.75, penalty: 3 },
    // (124 + 4) / 32 = 4.0: at the maximum, not above: passes with the full penalty
    { name: "given exactly the maximum (ratio 4.0), passes with penalty 4", onHost: 124, ratio: 4.0, penalty: 4 },
    // (125 + 4) / 32 = 4.03 > 4.0
    {
      name: "given 129 CPUs (ratio 4.03), rejects with the ratio",
      onHost: 125,
      ratio: 4.03125,
      penalty: 4,
      reason: "ESXi host esx-07 (host-21): pod cpu limits 129.0 / 32 physical cores = 4.03 > 4.0 (stacked overcommit)",
    },
    // (200 + 4) / 32 = 6.375
    {
      name: "given far above the maximum, rejects and caps the penalty at 4",
      onHost: 200,
      ratio: 6.375,
      penalty: 4,
      reason: "ESXi host esx-07 (host-21): pod cpu limits 204.0 / 32 physical cores = 6.38 > 4.0 (stacked overcommit)",
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const out = checkStackedCpu(host, podsWith(c.onHost), incoming, LIMITS);
      expect(out.ratio).to.be.closeTo(c.ratio, 1e-9);
      expect(out.penalty).to.equal(c.penalty);
      expect(out.reason ? formatReason(out.reason) : undefined).to.equal(c.reason);
    });
  }

  it("given the penalty over a rising ratio, never decreases", () => {
    let last = 0;
    for (let cpus = 0; cpus <= 140; cpus++) {
      const p = checkStackedCpu(host, podsWith(cpus), incoming, LIMITS).penalty;
      expect(p).to.be.at.least(last);
      last = p;
    }
    expect(last).to.equal(4);
  });

  it("given the incoming pod already listed on the host, counts it once", () => {
    // 92 + 4 = 96 -> 3.0; counting the listed copy too would give 100 -> 3.125
    const out = checkStackedCpu(host, [...podsWith(92), { ...incoming, nodeName: "n-0" }], incoming, LIMITS);
    expect(out.ratio).to.equal(3.0);
  });

  it("given a host with zero cores known, has no opinion", () => {
    expect(checkStackedCpu(hostView({ cpuCores: 0 }), podsWith(500), incoming, LIMITS)).to.deep.equal({ ratio: 0, penalty: 0 });
  });

  it("given a custom maximum of 2.0, rejects 96 CPUs on 32 cores (3.0 > 2.0)", () => {
    expect(checkStackedCpu(host, podsWith(92), incoming, { ...LIMITS, maxStackedCpuOvercommit: 2.0 }).reason).to.deep.include({
      code: "stacked_overcommit",
      cpuLimitsMilli: 96_000,
      cores: 32,
      max: 2.0,
    });
  });
});
