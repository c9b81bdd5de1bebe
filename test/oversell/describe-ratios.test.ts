import { expect } from "chai";
import { formatRatio, oversellAnnotationValue, ratioWarning } from "../../src/oversell/describe-ratios.js";
import type { RatioDecision } from "../../src/oversell/effective-ratios.js";

const cpu = (over: Partial<RatioDecision>): RatioDecision => ({
  resource: "cpu",
  ratio: 2,
  configured: 2,
  source: "default",
  limit: { code: "no_host_data" },
  ...over,
});
const memory = (over: Partial<RatioDecision>): RatioDecision => ({ ...cpu({}), resource: "memory", ratio: 1, configured: 1, ...over });

describe("ratioWarning", () => {
  const cases: Array<{ name: string; d: RatioDecision; changed: boolean; want: string | undefined }> = [
    {
      // fleet 0.60413 shows as 0.604; 4.0 / 0.604 = 6.6225 -> 6.623 (the real cap 4 / 0.60413 = 6.621 would not add up)
      name: "cap not binding on a fleet ratio below 1 (both sides rounded alike)",
      d: cpu({ limit: { code: "cap_not_binding", maxStacked: 4, fleetRatio: 0.60413, capRatio: 4 / 0.60413 } }),
      changed: true,
      want: "hvx: cpu requests scaled by 1/2 (configured ratio; stacked cap 4.0 / vCPU:pCPU 0.604 = 6.623 not binding)",
    },
    {
      // 4.0 / 2.47 = 1.619: the applied ratio and the fleet ratio shown with the same three decimals
      name: "stacked cap on a fleet ratio with two decimals",
      d: cpu({ ratio: 4 / 2.47, limit: { code: "stacked_cap", maxStacked: 4, fleetRatio: 2.47, capRatio: 4 / 2.47 } }),
      changed: true,
      want: "hvx: cpu requests scaled by 1/1.619 (stacked cap 4.0 / vCPU:pCPU 2.47)",
    },
    {
      name: "stacked cap",
      d: cpu({ ratio: 1.6, limit: { code: "stacked_cap", maxStacked: 4, fleetRatio: 2.5, capRatio: 1.6 } }),
      changed: true,
      want: "hvx: cpu requests scaled by 1/1.6 (stacked cap 4.0 / vCPU:pCPU 2.5)",
    },
    {
      name: "cap not binding",
      d: cpu({ limit: { code: "cap_not_binding", maxStacked: 4, fleetRatio: 1.6, capRatio: 2.5 } }),
      changed: true,
      want: "hvx: cpu requests scaled by 1/2 (configured ratio; stacked cap 4.0 / vCPU:pCPU 1.6 = 2.5 not binding)",
    },
    {
      name: "no host data",
      d: cpu({ ratio: 1, source: "namespace_label" }),
      changed: false,
      want: "hvx: cpu requests not scaled (no vCenter host data since hvx started, so no oversell)",
    },
    {
      name: "last known stacked cap",
      d: cpu({ ratio: 1.6, limit: { code: "stacked_cap", maxStacked: 4, fleetRatio: 2.5, capRatio: 1.6, lastKnown: true } }),
      changed: true,
      want: "hvx: cpu requests scaled by 1/1.6 (stacked cap 4.0 / vCPU:pCPU 2.5, last known host data)",
    },
    {
      name: "last known hot brake",
      d: cpu({ ratio: 1, limit: { code: "hot_brake", hotPercent: 40, brakePercent: 25, lastKnown: true } }),
      changed: false,
      want: "hvx: cpu requests not scaled (hot-host brake: 40% of hosts hot > 25%, last known host data)",
    },
    { name: "nothing changed", d: cpu({}), changed: false, want: undefined },
    { name: "ratio 1 as configured", d: memory({}), changed: false, want: undefined },
    {
      name: "hot brake",
      d: cpu({ ratio: 1, limit: { code: "hot_brake", hotPercent: 40, brakePercent: 25 } }),
      changed: false,
      want: "hvx: cpu requests not scaled (hot-host brake: 40% of hosts hot > 25%)",
    },
    {
      name: "memory capped to 1",
      d: memory({ configured: 2, limit: { code: "stacked_cap", maxStacked: 1.5, fleetRatio: 2, capRatio: 0.75 } }),
      changed: false,
      want: "hvx: memory requests not scaled (stacked cap 1.5 / vRAM:pRAM 2.0)",
    },
  ];
  for (const c of cases)
    it(`given ${c.name}, returns ${JSON.stringify(c.want)}`, () => expect(ratioWarning(c.d, c.changed)).to.equal(c.want));
});

describe("oversellAnnotationValue", () => {
  it("given both not binding, returns the reference text", () => {
    const nb = { code: "cap_not_binding", maxStacked: 4, fleetRatio: 1.6, capRatio: 2.5 } as const;
    expect(oversellAnnotationValue({ cpu: cpu({ limit: nb }), memory: memory({ limit: nb }) })).to.equal(
      "cpu=2,memory=1 (configured; stacked cap not binding)",
    );
  });
  it("given different reasons, names each resource", () => {
    const v = oversellAnnotationValue({
      cpu: cpu({ ratio: 1.6, source: "namespace_config", limit: { code: "stacked_cap", maxStacked: 4, fleetRatio: 2.5, capRatio: 1.6 } }),
      memory: memory({}),
    });
    expect(v).to.equal(
      "cpu=1.6,memory=1 (cpu namespace config, memory configured; cpu stacked cap 4.0 / vCPU:pCPU 2.5, memory no vCenter host data since hvx started, so no oversell)",
    );
  });
});

describe("formatRatio", () => {
  for (const [x, want] of [
    [2, "2"],
    [1.6, "1.6"],
    [1.2346, "1.235"],
    [1.0, "1"],
  ] as const)
    it(`given ${x}, returns ${want}`, () => expect(formatRatio(x)).to.equal(want));
});
