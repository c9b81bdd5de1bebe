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
      name: "labels",
      ns: "x",
      labels: { "hvx.io/oversell-cpu": "1.5", "hvx.io/oversell-memory": "1.1" },
      cpu: [1.5, "namespace_label"],
      memory: [1.1, "namespace_label"],
      warnings: 0,
    },
    {
      name: "config beats label, label fills the gap",
      ns: "team",
      labels: { "hvx.io/oversell-cpu": "9", "hvx.io/oversell-memory": "1.3" },
      cpu: [3, "namespace_config"],
      memory: [1.3, "namespace_label"],
      warnings: 0,
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
});
