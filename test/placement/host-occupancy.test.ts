import { expect } from "chai";
import { advanced, buildHostOccupancy, hostOccupancyOf, hostsBackingNodes } from "../../src/placement/host-occupancy.js";
import { vmIndexOf } from "../../src/placement/map-node.js";
import type { NodeMappingRule } from "../../src/placement/policy.js";
import { clusterViewOf, nodeView, podView } from "../fixtures/cluster.js";
import { hostView, inventoryOf, vmView } from "../fixtures/inventory.js";

const ALL: NodeMappingRule[] = ["providerID", "systemUUID", "name"];
const UUID_A = "422e4956-ad22-1139-8c4b-0a1b2c3d4e5f";
const UUID_C = "42267e63-e4e0-c681-b5dd-f69dfa981039";

const vms = [
  vmView({ id: "vm-a", name: "vm-a", hostId: "host-1", biosUuid: UUID_A }),
  vmView({ id: "vm-b", name: "worker-b", hostId: "host-1", biosUuid: undefined }),
  vmView({ id: "vm-c", name: "vm-c", hostId: "host-2", biosUuid: UUID_C }),
];
const inventory = inventoryOf([hostView({ id: "host-1" }), hostView({ id: "host-2" }), hostView({ id: "host-3" })], vms);

// node-a by providerID, worker-b by name, node-c by byte-swapped systemUUID, node-x by nothing
const nodes = [
  nodeView({ name: "node-a", providerID: `vsphere://${UUID_A}` }),
  nodeView({ name: "worker-b" }),
  nodeView({ name: "node-c", systemUUID: "637e2642-e0e4-81c6-b5dd-f69dfa981039" }),
  nodeView({ name: "node-x" }),
];
const pods = [
  podView({ uid: "a1", nodeName: "node-a" }),
  podView({ uid: "a2", nodeName: "node-a" }),
  podView({ uid: "b1", nodeName: "worker-b" }),
  podView({ uid: "b2", nodeName: "worker-b", terminal: true }),
  podView({ uid: "c1", nodeName: "node-c" }),
  podView({ uid: "x1", nodeName: "node-x" }),
];
const view = clusterViewOf(nodes, pods);
const uids = (list: readonly { uid: string }[]) => list.map((p) => p.uid).sort();

describe("hostOccupancyOf", () => {
  const occ = hostOccupancyOf(view, inventory, ALL);

  it("given nodes mapped by providerID, name and systemUUID, finds each one's host", () => {
    expect(Object.fromEntries(occ.hostOfNode)).to.deep.equal({ "node-a": "host-1", "worker-b": "host-1", "node-c": "host-2" });
  });

  it("given two node VMs on one host, lists both for it", () => {
    expect(occ.nodesOnHost.get("host-1")).to.have.members(["node-a", "worker-b"]);
    expect(occ.nodesOnHost.get("host-2")).to.deep.equal(["node-c"]);
  });

  const cases: Array<{ name: string; host: string; want: string[] }> = [
    { name: "given a host with two node VMs, returns the live pods of both", host: "host-1", want: ["a1", "a2", "b1"] },
    { name: "given a host with one node VM, returns its pods", host: "host-2", want: ["c1"] },
    { name: "given a host without node VMs, returns none", host: "host-3", want: [] },
    { name: "given an unknown host id, returns none", host: "host-99", want: [] },
  ];
  for (const c of cases) it(c.name, () => expect(uids(occ.podsOnHost(c.host))).to.deep.equal(c.want));

  it("given an unmapped node, attributes its pods to no host", () => {
    const all = ["host-1", "host-2", "host-3"].flatMap((h) => uids(occ.podsOnHost(h)));
    expect(all).to.not.include("x1");
  });

  it("given mapping rules [name] only, leaves nodes unmatched by name out (same snapshots, other rules)", () => {
    const byName = hostOccupancyOf(view, inventory, ["name"]);
    expect(Object.fromEntries(byName.hostOfNode)).to.deep.equal({ "worker-b": "host-1" });
    expect(hostOccupancyOf(view, inventory, ALL)).to.equal(occ);
  });

  it("given the same pair of snapshots, returns the same cached tables and pod lists", () => {
    const again = hostOccupancyOf(view, inventory, ALL);
    expect(again).to.equal(occ);
    expect(again.podsOnHost("host-1")).to.equal(occ.podsOnHost("host-1"));
  });

  it("given a new cluster view with one more pod, sees it", () => {
    const next = clusterViewOf(nodes, [...pods, podView({ uid: "c2", nodeName: "node-c" })]);
    expect(uids(hostOccupancyOf(next, inventory, ALL).podsOnHost("host-2"))).to.deep.equal(["c1", "c2"]);
    expect(uids(occ.podsOnHost("host-2"))).to.deep.equal(["c1"]);
  });

  it("given a new inventory after vMotion of worker-b to host-2, moves its pods with it", () => {
    const moved = inventoryOf(
      [...inventory.hosts.values()],
      vms.map((v) => (v.id === "vm-b" ? { ...v, hostId: "host-2" } : v)),
    );
    const after = hostOccupancyOf(view, moved, ALL);
    expect(uids(after.podsOnHost("host-1"))).to.deep.equal(["a1", "a2"]);
    expect(uids(after.podsOnHost("host-2"))).to.deep.equal(["b1", "c1"]);
  });
});

describe("advanced", () => {
  it("given a binding on host-2, takes the other hosts' pod lists over and lists host-2's anew; the old tables still answer their view", () => {
    const before = buildHostOccupancy(view, vmIndexOf(inventory), ALL);
    const host1 = before.podsOnHost("host-1");
    before.podsOnHost("host-2");
    const bound = {
      ...view,
      nodes: view.nodes,
      podsByNode: new Map([
        ...view.podsByNode,
        ["node-c", [...view.podsByNode.get("node-c")!, podView({ uid: "c2", nodeName: "node-c" })]],
      ]),
    };
    const after = advanced(before, bound, ["host-2"]);
    expect(after.podsOnHost("host-1")).to.equal(host1);
    expect(uids(after.podsOnHost("host-2"))).to.deep.equal(["c1", "c2"]);
    expect(uids(before.podsOnHost("host-2"))).to.deep.equal(["c1"]);
    expect(uids(before.podsOnHost("host-1"))).to.deep.equal(["a1", "a2", "b1"]);
  });
});

describe("hostsBackingNodes", () => {
  const ids = (hosts: ReadonlyArray<{ id: string }>) => hosts.map((h) => h.id);

  it("given a cluster view, returns only the hosts under its nodes (host-3 carries no node)", () => {
    expect(ids(hostsBackingNodes(inventory, clusterViewOf(nodes, []), ALL))).to.deep.equal(["host-1", "host-2"]);
  });
  it("given no cluster view yet, returns every polled host", () => {
    expect(ids(hostsBackingNodes(inventory, undefined, ALL))).to.deep.equal(["host-1", "host-2", "host-3"]);
  });
  it("given nodes that map to no polled host, returns every polled host rather than none", () => {
    expect(ids(hostsBackingNodes(inventory, clusterViewOf([nodeView({ name: "stranger" })], []), ALL))).to.deep.equal([
      "host-1",
      "host-2",
      "host-3",
    ]);
  });
});
