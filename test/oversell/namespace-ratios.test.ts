import { expect } from "chai";
import { resolveNamespaceRatios } from "../../src/oversell/namespace-ratios.js";
import { policy } from "./fixtures.js";

describe("resolveNamespaceRatios", () => {
  const p = policy({ namespaces: { team: { cpuRatio: 3 }, both: { cpuRatio: 1.5, memoryRatio: 1.2 } } });
  const cases: Array<{
    name: string;
    ns: string;
    labels?: Record<string, string>;
    cpu: [number, string];
    memory: [number, string];
    warnings: number;
  }> = [
    { name: "no override", ns: "x", cpu: [2, "default"], memory: [1, "default"], warnings: 0 },
    { name: "config override of cpu only", ns: "team", cpu: [3, "namespace_config"], memory: [1, "default"], warnings: 0 },
    {
      name: "labels at or under the configured ratios",
      ns: "x",
      labels: { "hvx.io/oversell-cpu": "1.5", "hvx.io/oversell-memory": "1" },
      cpu: [1.5, "namespace_label"],
      memory: [1, "namespace_label"],
      warnings: 0,
    },
    // the security review: memoryRatio 1.0, label 100: an 8Gi request became 710Mi
    {
      name: "a memory label of 100 while memoryRatio is 1.0",
      ns: "x",
      labels: { "hvx.io/oversell-memory": "100" },
      cpu: [2, "default"],
      memory: [1, "namespace_label"],
      warnings: 1,
    },
    {
      name: "a cpu label above cpuRatio 2",
      ns: "x",
      labels: { "hvx.io/oversell-cpu": "4" },
      cpu: [2, "namespace_label"],
      memory: [1, "default"],
      warnings: 1,
    },
    {
      name: "config beats label, label fills the gap (capped)",
      ns: "team",
      labels: { "hvx.io/oversell-cpu": "9", "hvx.io/oversell-memory": "1.3" },
      cpu: [3, "namespace_config"],
      memory: [1, "namespace_label"],
      warnings: 1,
    },
    {
      name: "label below 1 ignored",
      ns: "x",
      labels: { "hvx.io/oversell-cpu": "0.5" },
      cpu: [2, "default"],
      memory: [1, "default"],
      warnings: 1,
    },
    {
      name: "label not a number ignored",
      ns: "x",
      labels: { "hvx.io/oversell-cpu": "2x", "hvx.io/oversell-memory": "" },
      cpu: [2, "default"],
      memory: [1, "default"],
      warnings: 2,
    },
    {
      name: "label above 100 ignored",
      ns: "x",
      labels: { "hvx.io/oversell-cpu": "1000" },
      cpu: [2, "default"],
      memory: [1, "default"],
      warnings: 1,
    },
    { name: "inherited object key is not a namespace entry", ns: "constructor", cpu: [2, "default"], memory: [1, "default"], warnings: 0 },
  ];
  for (const c of cases) {
    it(`given ${c.name}, returns cpu ${c.cpu.join(" ")} / memory ${c.memory.join(" ")}`, () => {
      const r = resolveNamespaceRatios(p, c.ns, c.labels);
      expect([r.cpu.ratio, r.cpu.source]).to.deep.equal(c.cpu);
      expect([r.memory.ratio, r.memory.source]).to.deep.equal(c.memory);
      expect(r.warnings).to.have.length(c.warnings);
    });
  }

  it("given admission.maxLabelRatio, caps labels there instead of at the configured ratio", () => {
    const r = resolveNamespaceRatios(policy({ maxLabelRatio: { memory: 1.5 } }), "x", {
      "hvx.io/oversell-cpu": "3",
      "hvx.io/oversell-memory": "1.4",
    });
    expect([r.cpu.ratio, r.memory.ratio]).to.deep.equal([2, 1.4]);
    expect(r.warnings).to.deep.equal(['hvx: namespace label hvx.io/oversell-cpu="3" capped at 2 (admission.maxLabelRatio.cpu)']);
  });
});
