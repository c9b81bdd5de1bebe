import { expect } from "chai";
import { decideEffectiveRatios, roundRatioDown } from "../../src/oversell/effective-ratios.js";
import type { FleetView } from "../../src/oversell/fleet-view.js";
import type { NamespaceRatios } from "../../src/oversell/namespace-ratios.js";
import { policy } from "./fixtures.js";

const configured = (cpu: number, memory: number): NamespaceRatios => ({
  cpu: { ratio: cpu, source: "default" },
  memory: { ratio: memory, source: "default" },
  warnings: [],
});
const fleet = (vcpuPerPcpu: number, vramPerPram: number, hotPercent = 0, hostCount = 4): FleetView => ({
  hostCount,
  vcpuPerPcpu,
  vramPerPram,
  hotHostCount: Math.round((hotPercent / 100) * hostCount),
  hotPercent,
});

describe("decideEffectiveRatios", () => {
  const cases: Array<{
    name: string;
    cpu: number;
    memory: number;
    fleet?: FleetView;
    want: { cpu: [number, string]; memory: [number, string] };
  }> = [
    // before any host data since start: no oversell at all (capped at 1.0), never the full ratio
    { name: "no host data", cpu: 2, memory: 1.5, want: { cpu: [1, "no_host_data"], memory: [1, "no_host_data"] } },
    { name: "no hosts", cpu: 2, memory: 1.5, fleet: fleet(0, 0, 0, 0), want: { cpu: [1, "no_host_data"], memory: [1, "no_host_data"] } },
    {
      name: "hosts without known cores or memory",
      cpu: 2,
      memory: 1.5,
      fleet: fleet(0, 0),
      want: { cpu: [1, "no_host_data"], memory: [1, "no_host_data"] },
    },
    // cap 4.0/1.6 = 2.5 >= 2; memory 1.5/1.2 = 1.25 >= 1
    {
      name: "cap not binding",
      cpu: 2,
      memory: 1,
      fleet: fleet(1.6, 1.2),
      want: { cpu: [2, "cap_not_binding"], memory: [1, "cap_not_binding"] },
    },
    // cap 4.0/2.5 = 1.6 < 2; memory 1.5/1.2 = 1.25 < 2
    {
      name: "cap binding both",
      cpu: 2,
      memory: 2,
      fleet: fleet(2.5, 1.2),
      want: { cpu: [1.6, "stacked_cap"], memory: [1.25, "stacked_cap"] },
    },
    // cap 4.0/5 = 0.8 -> never below 1.0
    {
      name: "cap below 1 clamps to 1",
      cpu: 2,
      memory: 1,
      fleet: fleet(5, 2),
      want: { cpu: [1, "stacked_cap"], memory: [1, "cap_not_binding"] },
    },
    // 4/3 = 1.3333 -> 1.333 (rounded down)
    {
      name: "cap rounds down to 3 decimals",
      cpu: 2,
      memory: 1,
      fleet: fleet(3, 1),
      want: { cpu: [1.333, "stacked_cap"], memory: [1, "cap_not_binding"] },
    },
    // 50 % hot > 25 %
    { name: "hot brake", cpu: 2, memory: 1, fleet: fleet(1, 1, 50), want: { cpu: [1, "hot_brake"], memory: [1, "cap_not_binding"] } },
    // exactly 25 % is not more than 25 %
    {
      name: "hot share at the brake is not braked",
      cpu: 2,
      memory: 1,
      fleet: fleet(1, 1, 25),
      want: { cpu: [2, "cap_not_binding"], memory: [1, "cap_not_binding"] },
    },
  ];
  for (const c of cases) {
    it(`given ${c.name}, returns cpu ${c.want.cpu.join(" ")} and memory ${c.want.memory.join(" ")}`, () => {
      const r = decideEffectiveRatios(configured(c.cpu, c.memory), c.fleet, policy());
      expect([r.cpu.ratio, r.cpu.limit.code]).to.deep.equal(c.want.cpu);
      expect([r.memory.ratio, r.memory.limit.code]).to.deep.equal(c.want.memory);
    });
  }
  it("keeps ratio x fleet ratio within the stacked cap whenever the cap binds above 1", () => {
    for (const v of [1.1, 1.7, 2.2, 2.9, 3.3, 3.9]) {
      const r = decideEffectiveRatios(configured(8, 1), fleet(v, 1), policy());
      expect(r.cpu.ratio * v).to.be.at.most(4 + 1e-9);
    }
  });
});

describe("roundRatioDown", () => {
  for (const [x, want] of [
    [1.6, 1.6],
    [4 / 2.5, 1.6],
    [1.23456, 1.234],
    [0.5, 1],
  ] as const) {
    it(`given ${x}, returns ${want}`, () => expect(roundRatioDown(x)).to.equal(want));
  }
});
