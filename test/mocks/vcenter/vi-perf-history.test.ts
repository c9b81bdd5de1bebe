import { expect } from "chai";
import { COUNTERS, counterFullName, type MockVcenterHandle } from "../../../mocks/vcenter/index.js";
import type { ScenarioInput } from "../../../mocks/vcenter/scenario-schema.js";
import { T0_MS, VI, getWith, manualClock, postWith, smallScenario, startSmall, viLogin } from "./mock-vcenter-client.js";

const OFFSET = 300;
const DAY_MS = 86_400_000;
const key = (name: string) => OFFSET + COUNTERS.find((x) => counterFullName(x) === name)!.slot;
const iso = (ms: number) => new Date(ms).toISOString();
const spec = (type: string, value: string, counters: string[], extra: object) => ({
  _typeName: "PerfQuerySpec",
  entity: { _typeName: "ManagedObjectReference", type, value },
  metricId: counters.map((n) => ({ _typeName: "PerfMetricId", counterId: key(n), instance: "" })),
  ...extra,
});

describe("mock vCenter: historical statistics (historicalInterval, QueryPerf with intervalId 300/1800 and a time range)", () => {
  let vc: MockVcenterHandle;
  let token: string;
  const start = async (patch: Partial<ScenarioInput> = {}) => {
    vc = await startSmall({ clock: manualClock(T0_MS + 5_000).now, scenario: smallScenario({ counterKeyOffset: OFFSET, ...patch }) });
    token = await viLogin(vc.url);
  };
  const queryPerf = (querySpec: unknown) => postWith(`${vc.url}${VI}/PerformanceManager/PerfMgr/QueryPerf`, token, { querySpec });
  afterEach(() => vc.close());

  it("serves PerformanceManager.historicalInterval: vCenter's four default PerfInterval objects", async () => {
    await start();
    const r = await getWith(`${vc.url}${VI}/PerformanceManager/PerfMgr/historicalInterval`, token);
    expect(r.status).to.equal(200);
    expect(r.json).to.deep.equal([
      { _typeName: "PerfInterval", key: 1, samplingPeriod: 300, name: "Past day", length: 86400, level: 1, enabled: true },
      { _typeName: "PerfInterval", key: 2, samplingPeriod: 1800, name: "Past week", length: 604800, level: 1, enabled: true },
      { _typeName: "PerfInterval", key: 3, samplingPeriod: 7200, name: "Past month", length: 2592000, level: 1, enabled: true },
      { _typeName: "PerfInterval", key: 4, samplingPeriod: 86400, name: "Past year", length: 31536000, level: 1, enabled: true },
    ]);
  });

  it("given intervalId 1800 and the week before yesterday, returns 6 x 48 samples on 30-minute boundaries, ready summed over 1800 s", async () => {
    await start();
    const r = await queryPerf([
      spec("VirtualMachine", "vm-1", ["cpu.ready.summation"], {
        intervalId: 1800,
        startTime: iso(T0_MS - 7 * DAY_MS),
        endTime: iso(T0_MS - DAY_MS),
      }),
    ]);
    expect(r.status, JSON.stringify(r.json)).to.equal(200);
    const info = r.json[0].sampleInfo as Array<{ timestamp: string; interval: number }>;
    expect(info.length).to.equal(6 * 48);
    expect(info.every((s) => s.interval === 1800 && Date.parse(s.timestamp) % 1_800_000 === 0)).to.equal(true);
    // the first sample ends 30 min after startTime (startTime itself is excluded), the last at endTime
    expect(info[0]!.timestamp).to.equal("2026-11-22T10:30:00Z");
    expect(info[info.length - 1]!.timestamp).to.equal("2026-11-28T10:00:00Z");
    // 10 % x 4 vCPUs x 1800 s x 1000 = 720 000 ms
    expect(new Set(r.json[0].value[0].value)).to.deep.equal(new Set([720_000]));
  });

  it("given intervalId 300 and the past day, returns 288 samples of 300 s", async () => {
    await start();
    const r = await queryPerf([
      spec("HostSystem", "host-1", ["cpu.usage.average"], { intervalId: 300, startTime: iso(T0_MS - DAY_MS), endTime: iso(T0_MS) }),
    ]);
    expect(r.json[0].sampleInfo.length).to.equal(288);
    expect(r.json[0].value[0].value[0]).to.equal(2067);
  });

  it("given the past day of a host with a powered-off VM, sums its powered-on VMs' ready and balloon in every sample", async () => {
    // vm-3 moved onto host-1, powered off: it must not count.
    const vms = smallScenario().vms!.map((vm) =>
      vm.id === "vm-3" ? { ...vm, host: "host-1", metrics: { readyPercent: 50, balloonMiB: 999 } } : vm,
    );
    await start({ vms });
    const r = await queryPerf([
      spec("HostSystem", "host-1", ["cpu.ready.summation", "mem.vmmemctl.average"], {
        intervalId: 300,
        startTime: iso(T0_MS - DAY_MS),
        endTime: iso(T0_MS),
      }),
    ]);
    expect(r.status, JSON.stringify(r.json)).to.equal(200);
    const [ready, balloon] = r.json[0].value as Array<{ value: number[] }>;
    // (10 % x 4 vCPUs + 2.5 % x 2 vCPUs) x 20 000 ms = 9000 per 20 s, x 15 per 300 s = 135 000
    expect(new Set(ready!.value)).to.deep.equal(new Set([135_000]));
    // (100 + 50) MiB x 1024
    expect(new Set(balloon!.value)).to.deep.equal(new Set([153_600]));
    expect(ready!.value.length).to.equal(288);
  });

  it("given a counter above the interval's statistics level (mem.state.latest is level 2), returns no series for it", async () => {
    await start();
    const r = await queryPerf([
      spec("HostSystem", "host-1", ["mem.state.latest", "cpu.usage.average"], {
        intervalId: 1800,
        startTime: iso(T0_MS - DAY_MS),
        endTime: iso(T0_MS),
      }),
    ]);
    expect(r.json[0].value.map((s: { id: { counterId: number } }) => s.id.counterId)).to.deep.equal([key("cpu.usage.average")]);
  });

  it("given a disabled interval, answers with no samples", async () => {
    await start({ historicalIntervals: [{ key: 1, samplingPeriod: 300, name: "Past day", length: 86400, level: 1, enabled: false }] });
    const r = await queryPerf([spec("HostSystem", "host-1", ["cpu.usage.average"], { intervalId: 300, startTime: iso(T0_MS - DAY_MS) })]);
    expect(r.status).to.equal(200);
    expect(r.json).to.deep.equal([]);
  });

  it("given a vCenter without historical intervals, refuses intervalId 1800 with InvalidArgument querySpec.interval and still serves 20", async () => {
    await start({ historicalIntervals: [] });
    const r = await queryPerf([spec("HostSystem", "host-1", ["cpu.usage.average"], { intervalId: 1800, startTime: iso(T0_MS - DAY_MS) })]);
    expect(r.status).to.equal(500);
    expect(r.json).to.include({ _typeName: "InvalidArgument", invalidProperty: "querySpec.interval" });
    expect((await queryPerf([spec("HostSystem", "host-1", ["cpu.usage.average"], { intervalId: 20, maxSample: 1 })])).status).to.equal(200);
  });

  it("given a startTime older than the interval keeps, returns only what it keeps (the past day at 300 s)", async () => {
    await start();
    const r = await queryPerf([
      spec("HostSystem", "host-1", ["cpu.usage.average"], { intervalId: 300, startTime: iso(T0_MS - 3 * DAY_MS) }),
    ]);
    expect(r.json[0].sampleInfo.length).to.equal(288);
  });
});
