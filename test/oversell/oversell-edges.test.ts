import { expect } from "chai";
import { decideEffectiveRatios } from "../../src/oversell/effective-ratios.js";
import { fleetView } from "../../src/oversell/fleet-view.js";
import { resolveNamespaceRatios } from "../../src/oversell/namespace-ratios.js";
import { qosClass } from "../../src/oversell/qos-class.js";
import { scaleCpuRequest, scaleMemoryRequest } from "../../src/oversell/scale-request.js";
import { host, policy } from "./fixtures.js";

// Edges found by mutation testing (docs/testing.md): each case fails on a change to
// src/oversell that the other tests let through.

describe("oversell edges", () => {
  describe("namespace label ratios", () => {
    // maxLabelRatio 100: the parse alone, not the cap
    const cpuFrom = (text: string) =>
      resolveNamespaceRatios(policy({ maxLabelRatio: { cpu: 100 } }), "team", { "hvx.io/oversell-cpu": text }).cpu;
    it("accepts whole and decimal numbers from 1 to 100 inclusive", () => {
      for (const [text, want] of [
        ["1", 1],
        ["100", 100],
        ["1.5", 1.5],
        ["12", 12],
        ["2.25", 2.25],
      ] as const) {
        expect(cpuFrom(text), text).to.deep.equal({ ratio: want, source: "namespace_label" });
      }
    });
    it("refuses anything else, with a warning, and falls back to the configured ratio", () => {
      for (const text of ["0.99", "100.5", "x2", "2x", "2.", ".5", "-2", "1e1", " 2", ""]) {
        const r = resolveNamespaceRatios(policy(), "team", { "hvx.io/oversell-cpu": text });
        expect(r.cpu, text).to.deep.equal({ ratio: 2, source: "default" });
        expect(r.warnings, text).to.deep.equal([
          `hvx: namespace label hvx.io/oversell-cpu=${JSON.stringify(text)} ignored (must be a number from 1 to 100)`,
        ]);
      }
    });
  });

  describe("fleet view", () => {
    it("leaves out of the ratios a host without cores or memory, or with a ratio that is not a number", () => {
      const fleet = fleetView(
        [
          host({ id: "a", cpuCores: 32, memoryMiB: 1024, vcpuPerPcpu: 2, vramPerPram: 1 }),
          host({ id: "b", cpuCores: 0, memoryMiB: 0, vcpuPerPcpu: 10, vramPerPram: 10 }),
          host({ id: "c", cpuCores: 32, memoryMiB: 1024, vcpuPerPcpu: Number.NaN, vramPerPram: Number.POSITIVE_INFINITY }),
        ],
        () => false,
      );
      expect(fleet).to.deep.equal({ hostCount: 3, vcpuPerPcpu: 2, vramPerPram: 1, hotHostCount: 0, hotPercent: 0 });
    });
  });

  describe("effective ratios", () => {
    const configured = resolveNamespaceRatios(policy(), "team", undefined);
    it("without hosts, oversells nothing (ratio 1: the safety cap never falls away) and never brakes", () => {
      const empty = { hostCount: 0, vcpuPerPcpu: 0, vramPerPram: 0, hotHostCount: 0, hotPercent: 100 };
      const r = decideEffectiveRatios(configured, empty, policy());
      expect([r.cpu.ratio, r.cpu.limit.code, r.memory.limit.code]).to.deep.equal([1, "no_host_data", "no_host_data"]);
    });
    it("with hosts reporting no ratio, oversells nothing, as without host data", () => {
      const fleet = { hostCount: 2, vcpuPerPcpu: 0, vramPerPram: 0, hotHostCount: 0, hotPercent: 0 };
      expect(decideEffectiveRatios(configured, fleet, policy()).cpu).to.deep.include({ ratio: 1, limit: { code: "no_host_data" } });
    });
  });

  describe("QoS class over several containers", () => {
    it("compares the summed requests with the summed limits", () => {
      const c = (name: string, req: string, lim: string) => ({
        name,
        resources: { requests: { cpu: req, memory: "1Gi" }, limits: { cpu: lim, memory: "1Gi" } },
      });
      expect(qosClass({ spec: { containers: [c("a", "1", "2"), c("b", "2", "3")] } })).to.equal("Burstable");
      expect(qosClass({ spec: { containers: [c("a", "1", "1"), c("b", "2", "2")] } })).to.equal("Guaranteed");
    });
  });

  describe("scaled requests at the floors", () => {
    it("a CPU target exactly at the floor stays at the floor", () => {
      expect(scaleCpuRequest("20m", 2, 10n)).to.deep.equal({ text: "10m", removed: 10n });
    });
    it("a memory target exactly at the floor stays at the floor, and nothing is scaled when the floor is the original", () => {
      expect(scaleMemoryRequest("32Mi", 2, 16n * 1024n * 1024n)?.text).to.equal("16Mi");
      expect(scaleMemoryRequest("16Mi", 2, 16n * 1024n * 1024n)).to.equal(undefined);
    });
    it("removes whole bytes, counting a fractional original up", () => {
      expect(scaleMemoryRequest("1.5", 1.5, 0n)).to.deep.equal({ text: "1", removed: 1n });
    });
  });
});
