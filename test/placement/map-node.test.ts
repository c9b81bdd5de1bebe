import { expect } from "chai";
import { byteSwapUuid, mapNodeToVm, vmIndexOf } from "../../src/placement/map-node.js";
import type { NodeMappingRule } from "../../src/placement/policy.js";
import { hostView, inventoryOf, vmView } from "../fixtures/inventory.js";

const inventory = inventoryOf(
  [hostView()],
  [
    vmView({ id: "vm-1", name: "worker-a", biosUuid: "422e4956-ad22-1139-8c4b-0a1b2c3d4e5f" }),
    vmView({ id: "vm-2", name: "worker-b", biosUuid: "42267e63-e4e0-c681-b5dd-f69dfa981039" }),
    vmView({ id: "vm-3", name: "worker-c", biosUuid: undefined }),
  ],
);
const ALL: NodeMappingRule[] = ["providerID", "systemUUID", "name"];

describe("mapNodeToVm", () => {
  const cases: Array<{ name: string; node: Parameters<typeof mapNodeToVm>[0]; rules?: NodeMappingRule[]; want: string | undefined }> = [
    {
      name: "given providerID vsphere://<bios uuid>, returns that VM",
      node: { name: "x", providerID: "vsphere://42267e63-e4e0-c681-b5dd-f69dfa981039" },
      want: "vm-2",
    },
    {
      name: "given an upper-case providerID, matches case-insensitively",
      node: { name: "x", providerID: "vsphere://42267E63-E4E0-C681-B5DD-F69DFA981039" },
      want: "vm-2",
    },
    {
      name: "given a systemUUID as is (upper case), returns the VM",
      node: { name: "x", systemUUID: "422E4956-AD22-1139-8C4B-0A1B2C3D4E5F" },
      want: "vm-1",
    },
    {
      name: "given a byte-swapped systemUUID, returns the VM",
      node: { name: "x", systemUUID: "56492e42-22ad-3911-8c4b-0a1b2c3d4e5f" },
      want: "vm-1",
    },
    { name: "given only a matching name, returns the VM by name", node: { name: "worker-c" }, want: "vm-3" },
    {
      name: "given providerID and name disagree, providerID wins (first rule)",
      node: { name: "worker-c", providerID: "vsphere://42267e63-e4e0-c681-b5dd-f69dfa981039" },
      want: "vm-2",
    },
    {
      name: "given rules [name] only, ignores providerID",
      node: { name: "worker-c", providerID: "vsphere://42267e63-e4e0-c681-b5dd-f69dfa981039" },
      rules: ["name"],
      want: "vm-3",
    },
    {
      name: "given a non-vsphere providerID and no other match, returns undefined",
      node: { name: "nope", providerID: "aws:///us-east-1a/i-123" },
      want: undefined,
    },
    { name: "given a garbage systemUUID, returns undefined", node: { name: "nope", systemUUID: "not-a-uuid" }, want: undefined },
  ];
  for (const c of cases) {
    it(c.name, () => expect(mapNodeToVm(c.node, vmIndexOf(inventory), c.rules ?? ALL)?.id).to.equal(c.want));
  }
});

describe("byteSwapUuid", () => {
  it("given the reference example, swaps the first three groups", () => {
    expect(byteSwapUuid("56492e42-22ad-3911-8c4b-0a1b2c3d4e5f")).to.equal("422e4956-ad22-1139-8c4b-0a1b2c3d4e5f");
  });
  it("is its own inverse", () => {
    const u = "42267e63-e4e0-c681-b5dd-f69dfa981039";
    expect(byteSwapUuid(byteSwapUuid(u)!)).to.equal(u);
  });
});

describe("mapNodeToVm with BIOS UUIDs found in two vCenters (issue 11 §2)", () => {
  // The combiner drops the ambiguous UUID from both VMs; the node still names it.
  const ambiguous = "42260de1-d027-400d-9143-0000195f6b1b";
  const several = {
    ...inventoryOf(
      [hostView()],
      [
        vmView({ id: "vc01/vm-113", name: "k8s-worker-13", biosUuid: undefined }),
        vmView({ id: "vc02/vm-113", name: "k8s-worker-13", biosUuid: undefined }),
        vmView({ id: "vc01/vm-1", name: "worker-a", biosUuid: "422e4956-ad22-1139-8c4b-0a1b2c3d4e5f" }),
      ],
    ),
    ambiguousBiosUuids: new Set([ambiguous]),
  };
  const cases: Array<{ name: string; node: Parameters<typeof mapNodeToVm>[0]; want: string | undefined }> = [
    {
      name: "given a providerID naming an ambiguous UUID, maps to none, not even by name",
      node: { name: "k8s-worker-13", providerID: `vsphere://${ambiguous.toUpperCase()}` },
      want: undefined,
    },
    {
      name: "given a byte-swapped systemUUID naming an ambiguous UUID, maps to none",
      node: { name: "k8s-worker-13", systemUUID: byteSwapUuid(ambiguous)! },
      want: undefined,
    },
    {
      name: "given another node's UUID, maps as usual",
      node: { name: "worker-a", providerID: "vsphere://422e4956-ad22-1139-8c4b-0a1b2c3d4e5f" },
      want: "vc01/vm-1",
    },
    { name: "given a node with no UUID, maps by name as usual", node: { name: "worker-a" }, want: "vc01/vm-1" },
  ];
  for (const c of cases) {
    it(c.name, () => expect(mapNodeToVm(c.node, vmIndexOf(several), ALL)?.id).to.equal(c.want));
  }
});
