import { expect } from "chai";
import {
  decodeMemState,
  deriveHostMetrics,
  deriveVmMetrics,
  fixedPointPercent,
  kbToMiB,
  METRICS_OF_RAW_HOST,
  METRICS_OF_RAW_VM,
  overcommitRatios,
  readyPercentPerVcpu,
  type HostVmInput,
  type MemStateScale,
} from "../../src/model/derive-metrics.js";

const close = (actual: number | undefined, want: number) => expect(actual).to.be.closeTo(want, 1e-9);

describe("readyPercentPerVcpu", () => {
  const cases: Array<{ name: string; readyMs: number; intervalS: number; vcpus: number; want: number }> = [
    // 2000 / (20*1000) / 1 * 100 = 10
    { name: "given 2000 ms in 20 s on 1 vCPU, returns 10", readyMs: 2000, intervalS: 20, vcpus: 1, want: 10 },
    // 8000 / 20000 / 4 * 100 = 10
    { name: "given 8000 ms in 20 s on 4 vCPUs, returns 10", readyMs: 8000, intervalS: 20, vcpus: 4, want: 10 },
    // 1530 / 20000 / 2 * 100 = 3.825
    { name: "given 1530 ms on 2 vCPUs, returns 3.825", readyMs: 1530, intervalS: 20, vcpus: 2, want: 3.825 },
    { name: "given 0 ms, returns 0", readyMs: 0, intervalS: 20, vcpus: 8, want: 0 },
    { name: "given 0 vCPUs, returns 0 (no division by zero)", readyMs: 500, intervalS: 20, vcpus: 0, want: 0 },
    // 300000 / 300000 / 1 * 100 = 100 (5-minute historical interval)
    { name: "given a 300 s interval, scales by it", readyMs: 30000, intervalS: 300, vcpus: 1, want: 10 },
  ];
  for (const c of cases) it(c.name, () => close(readyPercentPerVcpu(c.readyMs, c.intervalS, c.vcpus), c.want));
});

describe("fixedPointPercent and kbToMiB", () => {
  const cases: Array<{ name: string; got: number; want: number }> = [
    { name: "2067 -> 20.67 %", got: fixedPointPercent(2067), want: 20.67 },
    { name: "10000 -> 100 %", got: fixedPointPercent(10000), want: 100 },
    { name: "0 -> 0 %", got: fixedPointPercent(0), want: 0 },
    { name: "1048576 KB -> 1024 MiB", got: kbToMiB(1048576), want: 1024 },
    { name: "512 KB -> 0.5 MiB", got: kbToMiB(512), want: 0.5 },
  ];
  for (const c of cases) it(c.name, () => close(c.got, c.want));
});

describe("decodeMemState", () => {
  const cases: Array<{ raw: number; scale: MemStateScale; want: string | undefined }> = [
    { raw: 0, scale: "five", want: "high" },
    { raw: 1, scale: "five", want: "clear" },
    { raw: 2, scale: "five", want: "soft" },
    { raw: 3, scale: "five", want: "hard" },
    { raw: 4, scale: "five", want: "low" },
    { raw: 0, scale: "four", want: "high" },
    { raw: 1, scale: "four", want: "soft" },
    { raw: 2, scale: "four", want: "hard" },
    { raw: 3, scale: "four", want: "low" },
    { raw: 4, scale: "four", want: "low" },
    { raw: 5, scale: "five", want: undefined },
    { raw: -1, scale: "five", want: undefined },
    { raw: 1.5, scale: "five", want: undefined },
  ];
  for (const c of cases) {
    it(`given ${c.raw} on the ${c.scale}-state scale, returns ${c.want}`, () => expect(decodeMemState(c.raw, c.scale)).to.equal(c.want));
  }
});

describe("deriveVmMetrics", () => {
  it("given raw units, returns ready per vCPU and MiB", () => {
    // 8000/20000/4*100 = 10 ; 2048 KB = 2 MiB ; 1024 KB = 1 MiB
    const m = deriveVmMetrics({ sampledAtMs: 5, intervalS: 20, readyMs: 8000, balloonKB: 2048, swappedKB: 1024 }, 4);
    expect(m).to.deep.equal({ sampledAtMs: 5, cpuReadyPercent: 10, balloonMiB: 2, swappedMiB: 1 });
  });
  it("given no counters, returns only the sample time", () => {
    expect(deriveVmMetrics({ sampledAtMs: 5, intervalS: 20 }, 2)).to.deep.equal({ sampledAtMs: 5 });
  });
  it("given no sampling interval, leaves ready unknown instead of 0 %", () => {
    expect(deriveVmMetrics({ sampledAtMs: 5, intervalS: 0, readyMs: 8000 }, 4)).to.deep.equal({ sampledAtMs: 5 });
  });
});

describe("deriveHostMetrics", () => {
  const vm = (vcpus: number, ready: number | undefined, extra: Partial<HostVmInput> = {}): HostVmInput => ({
    vcpus,
    memoryMiB: 1024,
    poweredOn: true,
    metrics: { sampledAtMs: 100, ...(ready !== undefined ? { cpuReadyPercent: ready } : {}) },
    ...extra,
  });
  const cases: Array<{ name: string; vms: HostVmInput[]; want: number | undefined }> = [
    // (2*4 + 20*1) / (4+1) = 28/5 = 5.6
    { name: "given 4 vCPUs at 2 % and 1 vCPU at 20 %, weights to 5.6 %", vms: [vm(4, 2), vm(1, 20)], want: 5.6 },
    // powered-off VM ignored: (10*2)/2 = 10
    {
      name: "given a powered-off VM, ignores it",
      vms: [vm(2, 10), vm(8, 50, { poweredOn: false })],
      want: 10,
    },
    // VM without a ready sample ignored: 6*2/2 = 6
    { name: "given a VM without a ready sample, ignores it", vms: [vm(2, 6), vm(4, undefined)], want: 6 },
    { name: "given no powered-on VM with ready, leaves ready unknown", vms: [vm(2, undefined)], want: undefined },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const m = deriveHostMetrics({ raw: { sampledAtMs: 200, cpuUsageFixed: 1000 }, memoryMiB: 65536, vms: c.vms });
      if (c.want === undefined) expect(m?.cpuReadyPercent).to.equal(undefined);
      else close(m?.cpuReadyPercent, c.want);
    });
  }

  it("given a host sample, decodes fixed point, KB and the memory state", () => {
    const m = deriveHostMetrics({
      raw: { sampledAtMs: 200, cpuUsageFixed: 2067, memUsageFixed: 9550, balloonKB: 1048576, swapInKBps: 3, memState: 3 },
      memoryMiB: 65536,
      vms: [vm(1, 0, { metrics: { sampledAtMs: 100, swappedMiB: 5 } }), vm(1, 0, { metrics: { sampledAtMs: 150, swappedMiB: 7 } })],
      memStateScale: "five",
    });
    // balloon 1048576 KB = 1024 MiB = 1024/65536*100 = 1.5625 % ; swapped 5+7 = 12 MiB
    expect(m).to.deep.include({
      sampledAtMs: 200,
      cpuUsagePercent: 20.67,
      memUsagePercent: 95.5,
      balloonMiB: 1024,
      swapInKBps: 3,
      swappedMiB: 12,
      memState: "hard",
    });
    close(m?.balloonPercent, 1.5625);
  });

  it("given a host sample without the balloon counter, sums the VMs' balloons when every powered-on VM reported one", () => {
    const m = deriveHostMetrics({
      raw: { sampledAtMs: 400, cpuUsageFixed: 1000 },
      memoryMiB: 1000,
      vms: [vm(1, 1, { metrics: { sampledAtMs: 300, balloonMiB: 5 } }), vm(1, 1, { metrics: { sampledAtMs: 100, balloonMiB: 5 } })],
    });
    // 10 MiB of 1000 MiB = 1 %; the sample time is the host's own
    expect(m).to.deep.include({ sampledAtMs: 400, balloonMiB: 10, balloonPercent: 1 });
  });

  it("given no host-level sample, returns undefined: the host's sample time never falls back to its VMs'", () => {
    const m = deriveHostMetrics({
      memoryMiB: 1000,
      vms: [vm(1, 1, { metrics: { sampledAtMs: 300, balloonMiB: 5 } }), vm(1, 1, { metrics: { sampledAtMs: 100, balloonMiB: 5 } })],
    });
    expect(m).to.equal(undefined);
  });

  it("given a powered-on VM without a balloon value, leaves the host balloon unknown rather than a partial sum", () => {
    const m = deriveHostMetrics({
      raw: { sampledAtMs: 400, cpuUsageFixed: 1000 },
      memoryMiB: 1000,
      vms: [vm(1, 1, { metrics: { sampledAtMs: 300, balloonMiB: 5 } }), vm(1, 1, { metrics: { sampledAtMs: 300 } })],
    });
    expect(m?.balloonMiB).to.equal(undefined);
    expect(m?.balloonPercent).to.equal(undefined);
  });

  it("given a powered-on VM without any sample, leaves the host swapped MiB unknown rather than a partial sum", () => {
    const m = deriveHostMetrics({
      raw: { sampledAtMs: 400, cpuUsageFixed: 1000 },
      memoryMiB: 1000,
      vms: [vm(1, 1, { metrics: { sampledAtMs: 300, swappedMiB: 5 } }), { vcpus: 1, memoryMiB: 1, poweredOn: true }],
    });
    expect(m?.swappedMiB).to.equal(undefined);
  });

  it("given a host sample with no counter at all (vCenter's -1 dropped), returns undefined: no host sample, every metric unknown", () => {
    expect(deriveHostMetrics({ raw: { sampledAtMs: 400 }, memoryMiB: 1000, vms: [] })).to.equal(undefined);
  });

  it("given a host sample with none of its own counters, returns undefined even though its VMs report ready and balloon", () => {
    const m = deriveHostMetrics({
      raw: { sampledAtMs: 400 },
      memoryMiB: 1000,
      vms: [vm(2, 1, { metrics: { sampledAtMs: 400, cpuReadyPercent: 1, balloonMiB: 0, swappedMiB: 0 } })],
    });
    expect(m).to.equal(undefined);
  });

  const own: Array<{ name: string; raw: Record<string, number>; field: string }> = [
    { name: "cpu usage", raw: { cpuUsageFixed: 0 }, field: "cpuUsagePercent" },
    { name: "memory usage", raw: { memUsageFixed: 0 }, field: "memUsagePercent" },
    { name: "balloon", raw: { balloonKB: 0 }, field: "balloonMiB" },
    { name: "swapped", raw: { swappedKB: 0 }, field: "swappedMiB" },
    { name: "swap-in rate", raw: { swapInKBps: 0 }, field: "swapInKBps" },
    { name: "memory state", raw: { memState: 0 }, field: "memState" },
  ];
  for (const c of own) {
    it(`given only the host's own ${c.name} counter, returns a host sample with it and the ready % of its VMs`, () => {
      const m = deriveHostMetrics({ raw: { sampledAtMs: 400, ...c.raw }, memoryMiB: 1000, vms: [vm(2, 3)] });
      expect(m).to.have.property(c.field);
      expect(m).to.include({ sampledAtMs: 400, cpuReadyPercent: 3 });
    });
  }

  it("given no sample at all, returns undefined", () => {
    expect(deriveHostMetrics({ memoryMiB: 1000, vms: [{ vcpus: 2, memoryMiB: 1, poweredOn: true }] })).to.equal(undefined);
  });
});

describe("overcommitRatios", () => {
  const vms: HostVmInput[] = [
    { vcpus: 8, memoryMiB: 32768, poweredOn: true },
    { vcpus: 8, memoryMiB: 32768, poweredOn: true },
    { vcpus: 64, memoryMiB: 1 << 20, poweredOn: false },
  ];
  const cases: Array<{ name: string; cores: number; memMiB: number; want: { vcpuPerPcpu: number; vramPerPram: number } }> = [
    // 16 vCPU / 8 cores = 2 ; 65536 / 131072 = 0.5 ; powered-off VM ignored
    { name: "given powered-on VMs, returns 2 and 0.5", cores: 8, memMiB: 131072, want: { vcpuPerPcpu: 2, vramPerPram: 0.5 } },
    { name: "given unknown cores and memory, returns 0", cores: 0, memMiB: 0, want: { vcpuPerPcpu: 0, vramPerPram: 0 } },
  ];
  for (const c of cases) it(c.name, () => expect(overcommitRatios(c.cores, c.memMiB, vms)).to.deep.equal(c.want));
});

describe("co-stop (cpu.costop.summation)", () => {
  it("given co-stop ms, converts them per vCPU like ready", () => {
    // 1600 / 20000 / 4 x 100 = 2
    expect(deriveVmMetrics({ sampledAtMs: 5, intervalS: 20, costopMs: 1600 }, 4)).to.deep.equal({ sampledAtMs: 5, cpuCostopPercent: 2 });
  });
  it("given no sampling interval or no vCPUs, leaves co-stop unknown", () => {
    expect(deriveVmMetrics({ sampledAtMs: 5, intervalS: 0, costopMs: 1600 }, 4)).to.deep.equal({ sampledAtMs: 5 });
    expect(deriveVmMetrics({ sampledAtMs: 5, intervalS: 20, costopMs: 1600 }, 0)).to.deep.equal({ sampledAtMs: 5 });
  });

  const vm = (vcpus: number, costop: number | undefined, poweredOn = true): HostVmInput => ({
    vcpus,
    memoryMiB: 1024,
    poweredOn,
    metrics: { sampledAtMs: 100, ...(costop !== undefined ? { cpuCostopPercent: costop } : {}) },
  });
  const cases: Array<{ name: string; vms: HostVmInput[]; want: number | undefined }> = [
    // (4 x 2 + 1 x 20) / 5 = 5.6
    { name: "given 4 vCPUs at 2 % and 1 vCPU at 20 %, weights the host to 5.6 %", vms: [vm(4, 2), vm(1, 20)], want: 5.6 },
    // the powered-off VM and the VM without the counter do not count: 3 x 2 / 2 = 3
    { name: "given a powered-off VM and one without co-stop, ignores them", vms: [vm(2, 3), vm(8, 50, false), vm(4, undefined)], want: 3 },
    { name: "given no VM with co-stop, leaves the host's unknown", vms: [vm(2, undefined)], want: undefined },
  ];
  for (const c of cases) {
    it(c.name, () => {
      // One counter of the host's own, or the host has no sample at all (issue 29 §6).
      const m = deriveHostMetrics({ raw: { sampledAtMs: 200, cpuUsageFixed: 1000 }, memoryMiB: 65536, vms: c.vms });
      expect(m).to.not.equal(undefined);
      if (c.want === undefined) expect(m).to.not.have.property("cpuCostopPercent");
      else close(m?.cpuCostopPercent, c.want);
    });
  }
});

describe("METRICS_OF_RAW_VM and METRICS_OF_RAW_HOST (what each counter is read for)", () => {
  const keysOf = (m: object | undefined) => Object.keys(m ?? {}).filter((k) => k !== "sampledAtMs" && k !== "memState");
  for (const [field, declared] of Object.entries(METRICS_OF_RAW_VM)) {
    it(`given a VM sample of ${field} alone, derives exactly ${declared.join(", ")} (the VM's and its host's)`, () => {
      const vm = deriveVmMetrics({ sampledAtMs: 0, intervalS: 20, [field]: 1024 }, 2);
      // memState only makes the host's own sample a host sample; it is left out of the comparison.
      const host = deriveHostMetrics({
        raw: { sampledAtMs: 0, memState: 1 },
        memoryMiB: 4096,
        vms: [{ vcpus: 2, memoryMiB: 1024, poweredOn: true, metrics: vm }],
      });
      expect([...new Set([...keysOf(vm), ...keysOf(host)])].sort()).to.deep.equal([...declared].sort());
    });
  }
  for (const [field, declared] of Object.entries(METRICS_OF_RAW_HOST)) {
    it(`given a host sample of ${field} alone, derives exactly ${declared.join(", ")}`, () => {
      const host = deriveHostMetrics({ raw: { sampledAtMs: 0, [field]: 1 }, memoryMiB: 4096, vms: [] });
      expect(
        Object.keys(host ?? {})
          .filter((k) => k !== "sampledAtMs")
          .sort(),
      ).to.deep.equal([...declared].sort());
    });
  }
});
