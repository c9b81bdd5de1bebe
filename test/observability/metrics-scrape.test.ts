import { expect } from "chai";
import { tmpdir } from "node:os";
import { Registry } from "prom-client";
import type { ClusterView } from "../../src/model/cluster.js";
import type { InventoryView, VmView } from "../../src/model/inventory.js";
import { registerHostGauges } from "../../src/observability/host-gauges.js";
import { registerNodeHeatGauge } from "../../src/observability/node-heat-gauge.js";
import { registerNodeInfoGauge } from "../../src/observability/node-info-gauge.js";
import { TextFamilyRegistry } from "../../src/observability/text-family-registry.js";
import { clusterViewOf, nodeView } from "../fixtures/cluster.js";
import { samplesOf } from "../fixtures/exposition.js";
import { hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";
import { registerOldHostGauges, registerOldNodeFamilies } from "../fixtures/prom-client-inventory-gauges.js";
import { requirePromtool, runPromtool } from "../monitoring/promtool.js";

const VCENTER = 'vc "01"\\lab';

/** Every line but blank ones, sorted: the same series, HELP and TYPE lines whatever the families' order. */
const linesOf = (text: string) =>
  text
    .split("\n")
    .filter((line) => line !== "")
    .sort();

// Names with what the text format must escape: double quote, backslash, newline.
const rack = hostView({ id: "host-1", name: 'esx "01"\\rack\nA', clusterName: 'prod\\"a"' });
const plain = hostView({ id: "host-2", name: "esx-02", metrics: { cpuReadyPercent: DEFAULT_POLICY.thresholds.cpuReadyPercent + 5 } });
// Sampled 100 s before NOW_MS: too old from NOW_MS + 20.5 s (maxMetricAgeSeconds 120).
const aging = hostView({ id: "host-3", name: "esx-03", clusterName: "lab", metrics: { sampledAtMs: NOW_MS - 100_000 } });
const node = { quoted: 'worker "a"', backslash: "worker\\b", newline: "worker\nc", plain: "worker-d" };
const vmOf = (name: string, hostId: string): VmView => vmView({ id: `vm-${name}`, name, hostId, biosUuid: undefined });

describe("the /metrics text of the inventory families (per host and per node)", () => {
  let inventory: InventoryView;
  let cluster: ClusterView;
  let now: number;
  let registry: TextFamilyRegistry;
  /** The same families as prom-client gauges, as they were before they became text. */
  let reference: Registry;

  beforeEach(() => {
    inventory = inventoryOf(
      [rack, plain, aging],
      [vmOf(node.quoted, "host-1"), vmOf(node.backslash, "host-1"), vmOf(node.newline, "host-2"), vmOf(node.plain, "host-3")],
    );
    cluster = clusterViewOf(Object.values(node).map((name) => nodeView({ name })));
    now = NOW_MS;
    registry = new TextFamilyRegistry();
    const deps = { inventory: () => inventory, cluster: () => cluster, policy: DEFAULT_POLICY, clock: () => now };
    registerHostGauges(registry, deps);
    registerNodeHeatGauge(registry, deps);
    registerNodeInfoGauge(registry, { ...deps, nodeMapping: DEFAULT_POLICY.nodeMapping, vcenter: VCENTER });
    reference = new Registry();
    registerOldHostGauges(reference, deps);
    registerOldNodeFamilies(reference, { ...deps, vcenter: VCENTER });
  });

  const steps: Array<{ name: string; change: () => void; check: (text: string) => void }> = [
    {
      name: "every node, its names escaped",
      change: () => undefined,
      check: (text) => {
        expect(text).to.include(
          'hvx_node_info{node="worker \\"a\\"",vm="worker \\"a\\"",host="esx \\"01\\"\\\\rack\\nA",cluster="prod\\\\\\"a\\"",',
        );
        expect(text).to.include('hvx_node_heat{node="worker\\nc",heat="hot"} 1\n');
      },
    },
    {
      name: "a node leaving",
      change: () => (cluster = clusterViewOf([node.quoted, node.newline, node.plain].map((name) => nodeView({ name })))),
      check: (text) => expect(samplesOf(text).filter((s) => s.labels.node === node.backslash)).to.deep.equal([]),
    },
    {
      name: "a VM moving host",
      change: () =>
        (inventory = inventoryOf(
          [rack, plain, aging],
          [...inventory.vms.values()].map((vm) => (vm.name === node.quoted ? { ...vm, hostId: "host-2" } : vm)),
        )),
      check: (text) =>
        expect(
          samplesOf(text)
            .filter((s) => s.labels.node === node.quoted)
            .map((s) => s.labels.host ?? s.labels.heat),
        ).to.have.members(["esx-02", "hot"]),
    },
    {
      name: "a host going stale",
      change: () => (now = NOW_MS + 20_500),
      check: (text) => {
        expect(samplesOf(text).filter((s) => s.name === "hvx_node_heat" && s.labels.node === node.plain)[0]?.labels.heat).to.equal(
          "unknown",
        );
        expect(samplesOf(text).filter((s) => s.name === "hvx_host_heat" && s.labels.host === "esx-03")[0]?.labels.heat).to.equal("unknown");
      },
    },
  ];

  it("has the HELP, TYPE and series prom-client's gauges had, through a node leaving, a VM moving host and a host going stale", async () => {
    for (const step of steps) {
      step.change();
      const text = await registry.metrics();
      expect(linesOf(text), step.name).to.deep.equal(linesOf(await reference.metrics()));
      step.check(text);
    }
  });

  it("is one HELP and one TYPE per family, and every sample line reads back", async () => {
    for (const step of steps) {
      step.change();
      const text = await registry.metrics();
      const comments = text.split("\n").filter((l) => l.startsWith("# "));
      expect(new Set(comments).size, step.name).to.equal(comments.length);
      expect(() => samplesOf(text), step.name).to.not.throw();
      for (const name of ["hvx_node_info", "hvx_node_heat", "hvx_host_heat"]) expect(comments, name).to.include(`# TYPE ${name} gauge`);
    }
  });

  it("passes `promtool check metrics` at every step", async function () {
    const promtool = requirePromtool(this);
    for (const step of steps) {
      step.change();
      const r = runPromtool(promtool, ["check", "metrics"], tmpdir(), await registry.metrics());
      expect(r.status, `${step.name}: ${r.output}`).to.equal(0);
    }
  });

  it("`promtool check metrics` rejects an unescaped quote (the check can fail)", function () {
    const promtool = requirePromtool(this);
    const r = runPromtool(
      promtool,
      ["check", "metrics"],
      tmpdir(),
      '# HELP hvx_node_info x\n# TYPE hvx_node_info gauge\nhvx_node_info{node="a"b"} 1\n',
    );
    expect(r.status).to.equal(1);
  });
});
