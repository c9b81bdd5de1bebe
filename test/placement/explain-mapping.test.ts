import { expect } from "chai";
import type { NodeIdentity } from "../../src/model/node.js";
import { explainNodeMapping } from "../../src/placement/explain-mapping.js";
import type { NodeMappingRule } from "../../src/placement/policy.js";
import { hostView, inventoryOf, vmView } from "../fixtures/inventory.js";

const BIOS = "42267e63-e4e0-c681-b5dd-f69dfa981039";
// The same UUID as a guest may report it in systemUUID: first three groups byte-swapped.
const SWAPPED = "637e2642-e0e4-81c6-b5dd-f69dfa981039";
const inventory = inventoryOf(
  [hostView({ id: "host-1", name: "esx-01" })],
  [
    vmView({ id: "vm-1", name: "k8s-worker-01", hostId: "host-1", biosUuid: BIOS }),
    vmView({ id: "vm-2", name: "orphan-vm", hostId: "host-99", biosUuid: undefined }),
  ],
);
const ALL: NodeMappingRule[] = ["providerID", "systemUUID", "name"];

describe("explainNodeMapping", () => {
  const cases: Array<{ name: string; node: NodeIdentity; rules?: NodeMappingRule[]; want: Record<string, unknown> }> = [
    {
      name: "a providerID vsphere://<bios uuid>",
      node: { name: "n1", providerID: `vsphere://${BIOS}` },
      want: { mapped: true, rule: "providerID", vm: { id: "vm-1", name: "k8s-worker-01" }, host: { id: "host-1", name: "esx-01" } },
    },
    { name: "a byte-swapped systemUUID", node: { name: "n1", systemUUID: SWAPPED }, want: { mapped: true, rule: "systemUUID" } },
    { name: "a node named like its VM", node: { name: "k8s-worker-01" }, want: { mapped: true, rule: "name" } },
    {
      name: "the name rule left out of nodeMapping",
      node: { name: "k8s-worker-01" },
      rules: ["providerID", "systemUUID"],
      want: { mapped: false, why: "no VM matches by providerID, systemUUID" },
    },
    {
      name: "a VM on a host hvx does not poll",
      node: { name: "orphan-vm" },
      want: {
        mapped: true,
        rule: "name",
        host: null,
        why: "VM orphan-vm (vm-2) is on host host-99, which hvx does not poll (vcenter.clusters?): no opinion",
      },
    },
  ];
  for (const c of cases)
    it(`given ${c.name}, returns ${JSON.stringify(c.want)}`, () =>
      expect(explainNodeMapping(c.node, inventory, c.rules ?? ALL)).to.deep.include(c.want));

  it("given no rule matching, says what each rule looked for", () => {
    const out = explainNodeMapping({ name: "ghost", providerID: "aws:///eu-west-1a/i-0abc" }, inventory, ALL);
    expect(out).to.deep.equal({
      node: "ghost",
      mapped: false,
      why: "no VM matches by providerID, systemUUID, name",
      tried: {
        providerID: "spec.providerID aws:///eu-west-1a/i-0abc is not vsphere://<bios uuid>",
        systemUUID: "node has no status.nodeInfo.systemUUID (or it was not sent)",
        name: "no VM is named ghost",
      },
    });
  });

  it("given an empty inventory, says there is no VM inventory yet", () => {
    expect(explainNodeMapping({ name: "n" }, inventoryOf([], []), ALL)).to.deep.include({
      mapped: false,
      why: "no VM inventory yet (first vCenter poll not done, or it failed: see /debug/hosts)",
    });
  });
});
