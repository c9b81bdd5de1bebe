import { expect } from "chai";
import { registerHostGauges } from "../../../src/observability/host-gauges.js";
import { TextFamilyRegistry } from "../../../src/observability/text-family-registry.js";
import { assessHost } from "../../../src/placement/assess-host.js";
import { explainNodes } from "../../../src/placement/explain-node.js";
import { formatReason } from "../../../src/protocol/format-reason.js";
import { seriesOf } from "../../fixtures/exposition.js";
import { hostView, inventoryOf, NOW_MS, vmView } from "../../fixtures/inventory.js";
import { DEFAULT_POLICY, policyWith } from "../../fixtures/policy.js";

const ON = { ...DEFAULT_POLICY.thresholds, cpuCostopPercent: 3 };

describe("the co-stop rule (thresholds.cpuCostopPercent)", () => {
  const cases: Array<{ name: string; costop: number; heat: string; reasons: string[] }> = [
    {
      name: "given co-stop exactly at 3 %, returns hot (>=)",
      costop: 3,
      heat: "hot",
      reasons: ["ESXi host esx-07 (host-21): cpu co-stop 3% >= 3% (sampled 14s ago)"],
    },
    // warm at 0.9 x 3 = 2.7
    {
      name: "given co-stop 2.7 % (0.9 x 3), returns warm",
      costop: 2.7,
      heat: "warm",
      reasons: ["ESXi host esx-07 (host-21): cpu co-stop 2.7% >= 2.7% (sampled 14s ago)"],
    },
    { name: "given co-stop 2.6 %, returns cool", costop: 2.6, heat: "cool", reasons: [] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const a = assessHost(hostView({ metrics: { cpuCostopPercent: c.costop } }), undefined, ON, NOW_MS);
      expect(a.heat).to.equal(c.heat);
      expect([...a.rejections, ...a.warnings].map(formatReason)).to.deep.equal(c.reasons);
    });
  }

  it("given the default thresholds (unset), judges nothing: co-stop 80 % is cool with no reason", () => {
    expect(DEFAULT_POLICY.thresholds).to.not.have.property("cpuCostopPercent");
    const a = assessHost(hostView({ metrics: { cpuCostopPercent: 80 } }), undefined, DEFAULT_POLICY.thresholds, NOW_MS);
    expect(a).to.deep.include({ heat: "cool", rejections: [], warnings: [] });
  });

  it("given it unset, explain lists no co-stop check; set, it lists the check with its warn level", () => {
    const host = hostView({ metrics: { cpuCostopPercent: 4 } });
    const vm = vmView({ name: "node-a" }); // mapped by name (the default nodeMapping ends with `name`)
    const ctx = (policy = DEFAULT_POLICY) => ({ inventory: inventoryOf([host], [vm]), policy, nowMs: NOW_MS });
    const node = [{ name: "node-a" }];
    const pod = { name: "p", namespace: "default", ownerKinds: [], annotations: {} };
    const checkOf = (policy = DEFAULT_POLICY) => explainNodes(pod, node, ctx(policy))[0]!.rules.find((r) => r.metric === "cpu co-stop");
    expect(checkOf()).to.equal(undefined);
    expect(checkOf(policyWith({ thresholds: ON }))).to.deep.include({ value: 4, threshold: 3, warnAt: 2.7, status: "reject" });
  });

  it("given it unset, exports no gauge series; set, one per host that has the value", async () => {
    const inventory = inventoryOf([hostView({ metrics: { cpuCostopPercent: 4 } })], []);
    const series = async (policy = DEFAULT_POLICY) => {
      const registry = new TextFamilyRegistry();
      registerHostGauges(registry, { inventory: () => inventory, policy, clock: () => NOW_MS });
      const text = await registry.metrics();
      expect(text).to.include("# TYPE hvx_host_cpu_costop_percent gauge\n");
      return seriesOf(text, "hvx_host_cpu_costop_percent").map((s) => s.value);
    };
    expect(await series()).to.deep.equal([]);
    expect(await series(policyWith({ thresholds: ON }))).to.deep.equal([4]);
  });
});
