import { expect } from "chai";
import { COUNTERS, counterFullName, type MockVcenterHandle } from "../../../mocks/vcenter/index.js";
import { T0_MS, VI, manualClock, postWith, smallScenario, startSmall, viLogin } from "./mock-vcenter-client.js";

const OFFSET = 300;
const key = (name: string) => {
  const c = COUNTERS.find((x) => counterFullName(x) === name);
  if (c === undefined) throw new Error(name);
  return OFFSET + c.slot;
};
const ref = (type: string, value: string) => ({ _typeName: "ManagedObjectReference", type, value });
const spec = (type: string, value: string, counters: string[], extra: object = {}) => ({
  entity: ref(type, value),
  metricId: counters.map((n) => ({ counterId: key(n), instance: "" })),
  intervalId: 20,
  maxSample: 1,
  ...extra,
});

describe("mock vCenter: QueryPerf and QueryPerfComposite", () => {
  let vc: MockVcenterHandle;
  let token: string;
  let clock: ReturnType<typeof manualClock>;
  const queryPerf = (querySpec: unknown) => postWith(`${vc.url}${VI}/PerformanceManager/PerfMgr/QueryPerf`, token, { querySpec });
  const composite = (querySpec: unknown) => postWith(`${vc.url}${VI}/PerformanceManager/PerfMgr/QueryPerfComposite`, token, { querySpec });
  const one = async (type: string, id: string, counter: string): Promise<number> => {
    const r = await queryPerf([spec(type, id, [counter])]);
    expect(r.status, JSON.stringify(r.json)).to.equal(200);
    return r.json[0].value[0].value[0];
  };

  beforeEach(async () => {
    clock = manualClock(T0_MS + 5_000); // 10:00:05 -> newest sample ends 10:00:00
    vc = await startSmall({ clock: clock.now, scenario: smallScenario({ counterKeyOffset: OFFSET }) });
    token = await viLogin(vc.url);
  });
  afterEach(() => vc.close());

  const conversions: Array<{ name: string; type: string; id: string; counter: string; want: number }> = [
    // 10 % x 20000 ms x 4 vCPUs = 8000 ms
    { name: "VM ready 10 % on 4 vCPUs", type: "VirtualMachine", id: "vm-1", counter: "cpu.ready.summation", want: 8000 },
    // 2.5 % x 20000 x 2 = 1000
    { name: "VM ready 2.5 % on 2 vCPUs", type: "VirtualMachine", id: "vm-2", counter: "cpu.ready.summation", want: 1000 },
    // host ready = sum over its powered-on VMs: 8000 + 1000
    { name: "host ready sums its VMs", type: "HostSystem", id: "host-1", counter: "cpu.ready.summation", want: 9000 },
    { name: "host cpu usage 20.67 % fixed point", type: "HostSystem", id: "host-1", counter: "cpu.usage.average", want: 2067 },
    { name: "host mem usage 55.5 % fixed point", type: "HostSystem", id: "host-1", counter: "mem.usage.average", want: 5550 },
    { name: "VM balloon 100 MiB in KB", type: "VirtualMachine", id: "vm-1", counter: "mem.vmmemctl.average", want: 102400 },
    { name: "VM swapped 3 MiB in KB", type: "VirtualMachine", id: "vm-1", counter: "mem.swapped.average", want: 3072 },
    // (100 + 50) MiB x 1024
    { name: "host balloon sums its VMs", type: "HostSystem", id: "host-1", counter: "mem.vmmemctl.average", want: 153600 },
    { name: "host swapped sums its VMs", type: "HostSystem", id: "host-1", counter: "mem.swapped.average", want: 3072 },
    { name: "host swap-in 12 KB/s", type: "HostSystem", id: "host-1", counter: "mem.swapinRate.average", want: 12 },
    // high 0, clear 1, soft 2, hard 3, low 4
    { name: "host memState hard = 3", type: "HostSystem", id: "host-1", counter: "mem.state.latest", want: 3 },
  ];
  for (const c of conversions) {
    it(`given ${c.name}, returns ${c.want}`, async () => {
      expect(await one(c.type, c.id, c.counter)).to.equal(c.want);
    });
  }

  it("given memStateEncoding four, hard is served as 2 (0 high, 1 soft, 2 hard, 3 low)", async () => {
    await vc.close();
    vc = await startSmall({ clock: clock.now, scenario: smallScenario({ counterKeyOffset: OFFSET, memStateEncoding: "four" }) });
    token = await viLogin(vc.url);
    expect(await one("HostSystem", "host-1", "mem.state.latest")).to.equal(2);
  });

  it("given a host balloon total in the scenario, uses it instead of the VM sum", async () => {
    vc.controls.setHostMetric("host-1", "balloonMiB", 2);
    expect(await one("HostSystem", "host-1", "mem.vmmemctl.average")).to.equal(2048);
  });

  it("given hostCountersMissing omitted, returns the host's entity with its sample times and no series; its VMs as usual", async () => {
    vc.controls.setFaults({ hostCountersMissing: { "host-1": "omitted" } });
    const r = await queryPerf([
      spec("HostSystem", "host-1", ["cpu.usage.average", "mem.state.latest"]),
      spec("VirtualMachine", "vm-1", ["cpu.ready.summation"]),
    ]);
    expect(r.json[0].sampleInfo).to.have.length(1);
    expect(r.json[0].value).to.deep.equal([]);
    expect(r.json[1].value[0].value).to.deep.equal([8000]);
  });

  it("given hostCountersMissing minus_one, serves every host series as -1 (vCenter's no data); its VMs as usual", async () => {
    vc.controls.setFaults({ hostCountersMissing: { "host-1": "minus_one" } });
    expect(await one("HostSystem", "host-1", "cpu.usage.average")).to.equal(-1);
    expect(await one("HostSystem", "host-1", "mem.vmmemctl.average")).to.equal(-1);
    expect(await one("VirtualMachine", "vm-1", "mem.vmmemctl.average")).to.equal(102400);
  });

  it("returns PerfEntityMetric with sampleInfo on 20 s boundaries, interval 20, newest last", async () => {
    const r = await queryPerf([spec("VirtualMachine", "vm-1", ["cpu.ready.summation"], { maxSample: 3 })]);
    const m = r.json[0];
    expect(m._typeName).to.equal("PerfEntityMetric");
    expect(m.entity).to.deep.equal(ref("VirtualMachine", "vm-1"));
    expect(m.sampleInfo).to.deep.equal([
      { _typeName: "PerfSampleInfo", timestamp: "2026-11-29T09:59:20Z", interval: 20 },
      { _typeName: "PerfSampleInfo", timestamp: "2026-11-29T09:59:40Z", interval: 20 },
      { _typeName: "PerfSampleInfo", timestamp: "2026-11-29T10:00:00Z", interval: 20 },
    ]);
    expect(m.value).to.deep.equal([
      {
        _typeName: "PerfMetricIntSeries",
        id: { _typeName: "PerfMetricId", counterId: key("cpu.ready.summation"), instance: "" },
        value: [8000, 8000, 8000],
      },
    ]);
  });

  it("given instance '*', adds one cpu.ready series per vCPU (2000 ms each at 10 %)", async () => {
    const r = await queryPerf([
      { ...spec("VirtualMachine", "vm-1", []), metricId: [{ counterId: key("cpu.ready.summation"), instance: "*" }] },
    ]);
    const series = r.json[0].value as Array<{ id: { instance: string }; value: number[] }>;
    expect(series.map((s) => [s.id.instance, s.value[0]])).to.deep.equal([
      ["", 8000],
      ["0", 2000],
      ["1", 2000],
      ["2", 2000],
      ["3", 2000],
    ]);
  });

  it("given a VM's costopPercent, serves cpu.costop.summation like ready: ms per 20 s over its vCPUs", async () => {
    vc.controls.setVmMetric("vm-1", "costopPercent", 3);
    // 3 % x 20000 ms x 4 vCPUs = 2400
    expect(await one("VirtualMachine", "vm-1", "cpu.costop.summation")).to.equal(2400);
  });

  it("given no costopPercent, serves co-stop as 5 % of the ready time (8000 ms x 0.05 = 400)", async () => {
    expect(await one("VirtualMachine", "vm-1", "cpu.costop.summation")).to.equal(400);
  });

  it("given a powered-off VM, returns no entity for it", async () => {
    const r = await queryPerf([
      spec("VirtualMachine", "vm-3", ["cpu.ready.summation"]),
      spec("VirtualMachine", "vm-2", ["cpu.ready.summation"]),
    ]);
    expect(r.json.map((m: { entity: { value: string } }) => m.entity.value)).to.deep.equal(["vm-2"]);
  });

  it("given a counter key from a real vCenter's table (12), returns no series for it", async () => {
    const r = await queryPerf([{ ...spec("VirtualMachine", "vm-1", []), metricId: [{ counterId: 12, instance: "" }] }]);
    expect(r.json[0].value).to.deep.equal([]);
  });

  const faults: Array<{ name: string; querySpec: unknown; type: string; prop?: string }> = [
    { name: "an unknown VM", querySpec: [spec("VirtualMachine", "vm-404", ["cpu.ready.summation"])], type: "ManagedObjectNotFound" },
    {
      name: "intervalId 60 (no such interval)",
      querySpec: [spec("VirtualMachine", "vm-1", ["cpu.ready.summation"], { intervalId: 60 })],
      type: "InvalidArgument",
      prop: "querySpec.interval",
    },
    {
      name: "maxSample 0",
      querySpec: [spec("VirtualMachine", "vm-1", ["cpu.ready.summation"], { maxSample: 0 })],
      type: "InvalidArgument",
      prop: "querySpec.maxSample",
    },
    {
      name: "format csv",
      querySpec: [spec("VirtualMachine", "vm-1", ["cpu.ready.summation"], { format: "csv" })],
      type: "InvalidArgument",
      prop: "querySpec.format",
    },
    { name: "no querySpec array", querySpec: { entity: ref("VirtualMachine", "vm-1") }, type: "InvalidArgument", prop: "querySpec" },
  ];
  for (const c of faults) {
    it(`given ${c.name}, answers a ${c.type} fault`, async () => {
      const r = await queryPerf(c.querySpec);
      expect(r.status).to.equal(500);
      expect(r.json._typeName).to.equal(c.type);
      if (c.prop) expect(r.json.invalidProperty).to.equal(c.prop);
    });
  }

  const limits = [
    // 128 entities x 2 metricIds = 256: allowed
    { name: "exactly 256 metrics", entities: 128, status: 200 },
    // 129 x 2 = 258 > 256: vpxd.stats.maxQueryMetrics -> RestrictedByAdministrator
    { name: "258 metrics", entities: 129, status: 500 },
  ];
  for (const c of limits) {
    it(`given ${c.name} in one QueryPerf, answers ${c.status}`, async () => {
      const specs = Array.from({ length: c.entities }, () =>
        spec("VirtualMachine", "vm-1", ["cpu.ready.summation", "mem.vmmemctl.average"]),
      );
      const r = await queryPerf(specs);
      expect(r.status).to.equal(c.status);
      if (c.status === 500) expect(r.json).to.include({ _typeName: "RestrictedByAdministrator", details: "vpxd.stats.maxQueryMetrics" });
      expect(vc.controls.stats().maxMetricsInOneQuery).to.equal(c.entities * 2);
      expect(vc.controls.stats().queryPerfCalls).to.equal(1);
    });
  }

  it("QueryPerfComposite on a host returns the host as entity and its powered-on VMs as childEntity", async () => {
    const r = await composite(spec("HostSystem", "host-1", ["cpu.ready.summation", "mem.vmmemctl.average"]));
    expect(r.status).to.equal(200);
    expect(r.json._typeName).to.equal("PerfCompositeMetric");
    expect(r.json.entity.entity).to.deep.equal(ref("HostSystem", "host-1"));
    const children = r.json.childEntity as Array<{ entity: { value: string }; value: Array<{ value: number[] }> }>;
    expect(children.map((c) => [c.entity.value, c.value[0]?.value[0]])).to.deep.equal([
      ["vm-1", 8000],
      ["vm-2", 1000],
    ]);
    expect(vc.controls.stats().queryPerfCompositeCalls).to.equal(1);
  });

  it("QueryPerfComposite on a VM answers InvalidArgument", async () => {
    const r = await composite(spec("VirtualMachine", "vm-1", ["cpu.ready.summation"]));
    expect(r.json._typeName).to.equal("InvalidArgument");
  });

  it("given a disconnected host, QueryPerf returns nothing for it or its VMs", async () => {
    vc.controls.setHostState("host-1", { connectionState: "DISCONNECTED" });
    const r = await queryPerf([
      spec("HostSystem", "host-1", ["cpu.usage.average"]),
      spec("VirtualMachine", "vm-1", ["cpu.ready.summation"]),
    ]);
    expect(r.json).to.deep.equal([]);
  });
});

describe("mock vCenter: time-varying values with an injected clock", () => {
  it("follows steps and ramps as the clock moves, and setVmMetric overrides", async () => {
    const clock = manualClock(T0_MS);
    const vc = await startSmall({
      clock: clock.now,
      scenario: smallScenario({
        counterKeyOffset: OFFSET,
        vms: [
          {
            id: "vm-1",
            name: "a",
            biosUuid: "4226aaaa-0000-4000-8000-000000000001",
            vcpus: 1,
            memoryMiB: 1024,
            host: "host-1",
            metrics: {
              readyPercent: [
                { atSeconds: 0, value: 3 },
                { atSeconds: 60, value: 14 },
              ],
              balloonMiB: {
                ramp: [
                  { atSeconds: 0, value: 0 },
                  { atSeconds: 100, value: 100 },
                ],
              },
            },
          },
        ],
      }),
    });
    try {
      const token = await viLogin(vc.url);
      const sample = async () => {
        const r = await postWith(`${vc.url}${VI}/PerformanceManager/PerfMgr/QueryPerf`, token, {
          querySpec: [spec("VirtualMachine", "vm-1", ["cpu.ready.summation", "mem.vmmemctl.average"])],
        });
        return [r.json[0].value[0].value[0], r.json[0].value[1].value[0]];
      };
      // t=0: 3 % x 20000 = 600 ms; balloon 0
      expect(await sample()).to.deep.equal([600, 0]);
      clock.advanceS(40); // t=40: still 3 %; ramp 40 MiB = 40960 KB
      expect(await sample()).to.deep.equal([600, 40960]);
      clock.advanceS(20); // t=60: 14 % -> 2800 ms; ramp 60 MiB
      expect(await sample()).to.deep.equal([2800, 61440]);
      clock.advanceS(100); // t=160: held at the last points
      expect(await sample()).to.deep.equal([2800, 102400]);
      vc.controls.setVmMetric("vm-1", "readyPercent", 5);
      expect(await sample()).to.deep.equal([1000, 102400]);
    } finally {
      await vc.close();
    }
  });
});
