import { expect } from "chai";
import { parseConfig } from "../../src/config/index.js";
import { buildOversellLedger } from "../../src/placement/oversell-ledger.js";
import { renderOversellReport, table } from "../../src/protocol/render-oversell-report.js";
import { renderAdvice } from "../../src/protocol/render-advice.js";
import { amounts, clusterViewOf, nodeView, podView } from "../fixtures/cluster.js";
import { hostView, inventoryOf, vmView } from "../fixtures/inventory.js";

const POLICY = parseConfig(undefined);

describe("renderOversellReport", () => {
  // Two scaled pods in two namespaces: 4 -> 2 and 2 -> 1 cores; host-a limits 20 / alloc 8 = 2.5 x 2.0 = 5.0 > 4
  const hosts = [
    hostView({ id: "host-a", name: "esx-a", vcpuPerPcpu: 2 }),
    hostView({ id: "host-b", name: "esx-b", cpuCores: 0, vcpuPerPcpu: 0 }),
  ];
  const vms = [vmView({ id: "vm-1", name: "w1", hostId: "host-a" }), vmView({ id: "vm-2", name: "w2", hostId: "host-b" })];
  const nodes = [nodeView({ name: "w1", allocatable: amounts(8, 32) }), nodeView({ name: "w2", allocatable: amounts(8, 32) })];
  const pods = [
    podView({ namespace: "shop", nodeName: "w1", requests: amounts(2, 2), originalRequests: amounts(4, 4), limits: amounts(10, 4) }),
    podView({ namespace: "ml", nodeName: "w1", requests: amounts(1, 1), originalRequests: amounts(2, 1), limits: amounts(10, 4) }),
  ];
  const text = renderOversellReport(buildOversellLedger(clusterViewOf(nodes, pods), inventoryOf(hosts, vms), POLICY));

  it("given two scaled namespaces and one host above the cap, the total line says so", () => {
    expect(text.split("\n")[0]).to.equal(
      "requests scaled from 6.0 to 3.0 cores and from 5.0 to 3.0 GiB (2 pods) in 2 namespaces; 1 host above the stacked cap",
    );
  });
  it("marks the joint ratio above the cap with ! and prints n/a for an unknown layer", () => {
    const a = text.split("\n").find((l) => l.startsWith("esx-a"))!;
    expect(a).to.match(/5\.00 !/);
    const b = text.split("\n").find((l) => l.startsWith("esx-b"))!;
    expect(b).to.contain("n/a").and.not.contain("!");
  });
  it("lists each scaled namespace with its ratio", () => {
    const shop = text.split("\n").find((l) => l.startsWith("shop"))!;
    expect(shop.split(/\s{2,}/)).to.deep.equal(["shop", "1/1", "4.0", "2.0", "2.00", "4.0", "2.0", "2.00"]);
  });
});

describe("table", () => {
  it("given text and number columns, pads text left-aligned and numbers right-aligned", () => {
    expect(
      table(
        ["name", "n"],
        [
          ["a", "10"],
          ["bbb", "2"],
        ],
      ),
    ).to.equal("name   n\n----  --\na     10\nbbb    2");
  });
});

describe("renderAdvice", () => {
  it("given no findings, says there is nothing", () => {
    expect(renderAdvice([])).to.contain("no advice");
  });
  it("given findings, numbers them in the given order with evidence and fix", () => {
    const out = renderAdvice([
      { rule: "memory-reservation", risk: 90, subject: "node w1", evidence: "E1", fix: "F1" },
      { rule: "esxi-overcommit", risk: 50, subject: "host esx-a", evidence: "E2", fix: "F2" },
    ]);
    expect(out)
      .to.contain("2 findings")
      .and.contain("1. [risk 90] memory-reservation: node w1\n   evidence: E1\n   fix: F1")
      .and.contain("2. [risk 50] esxi-overcommit");
  });
});
