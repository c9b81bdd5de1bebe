import { expect } from "chai";
import fc from "fast-check";
import { pendingDemand } from "../../src/placement/burst-guard.js";
import { hostOccupancyOf } from "../../src/placement/host-occupancy.js";
import { podTotals } from "../../src/placement/pod-totals.js";
import { occupancyWithout, withoutVictims } from "../../src/placement/without-victims.js";
import { clusterViewOf, nodeView, podView } from "../fixtures/cluster.js";
import { hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";

const view = clusterViewOf(
  [nodeView({ name: "a" }), nodeView({ name: "b" }), nodeView({ name: "c" })],
  [podView({ uid: "a1", nodeName: "a" }), podView({ uid: "a2", nodeName: "a" }), podView({ uid: "b1", nodeName: "b" })],
);

describe("withoutVictims", () => {
  it("given victims on the node, derives a view without them and leaves the snapshot as it was", () => {
    const before = view.podsByNode.get("a");
    const r = withoutVictims(view, "a", ["a1"]);
    expect(r.removed.map((p) => p.uid)).to.deep.equal(["a1"]);
    expect(r.unknownUids).to.deep.equal([]);
    expect(r.view.podsByNode.get("a")!.map((p) => p.uid)).to.deep.equal(["a2"]);
    expect(view.podsByNode.get("a")).to.equal(before);
    expect(before!.map((p) => p.uid)).to.deep.equal(["a1", "a2"]);
    expect(r.view.nodes).to.equal(view.nodes);
  });

  it("serves every other node's list from the snapshot itself, as a full read-only map", () => {
    const m = withoutVictims(view, "a", ["a1", "a2"]).view.podsByNode;
    expect(m.get("b")).to.equal(view.podsByNode.get("b"));
    expect(m.get("a")).to.deep.equal([]);
    expect(m.has("a") && m.has("b") && !m.has("c")).to.equal(true);
    expect(m.size).to.equal(2);
    expect([...m.keys()]).to.deep.equal(["a", "b"]);
    expect([...m.values()].map((l) => l.length)).to.deep.equal([0, 1]);
    expect([...m].map(([k]) => k)).to.deep.equal(["a", "b"]);
    const seen: string[] = [];
    m.forEach((_v, k) => seen.push(k));
    expect(seen).to.deep.equal(["a", "b"]);
  });

  it("given UIDs the view does not hold on that node, reports them and returns the very same view", () => {
    const r = withoutVictims(view, "a", ["b1", "gone"]);
    expect(r.view).to.equal(view);
    expect(r.removed).to.deep.equal([]);
    expect(r.unknownUids).to.deep.equal(["b1", "gone"]);
  });

  it("given a node the view has no pods for, returns the very same view", () => {
    expect(withoutVictims(view, "c", ["x"]).view).to.equal(view);
  });
});

describe("occupancyWithout", () => {
  const uuid = (n: number) => `4226${n}e63-e4e0-c681-b5dd-f69dfa98103${n}`;
  const inventory = inventoryOf(
    [hostView({ id: "host-1" }), hostView({ id: "host-2" })],
    [
      vmView({ id: "vm-1", name: "a", hostId: "host-1", biosUuid: uuid(1) }),
      vmView({ id: "vm-2", name: "b", hostId: "host-1", biosUuid: uuid(2) }),
      vmView({ id: "vm-3", name: "c", hostId: "host-2", biosUuid: uuid(3) }),
    ],
  );

  it("takes the removed pods off one host's list and shares every other table", () => {
    const base = hostOccupancyOf(view, inventory, ["name"]);
    const r = withoutVictims(view, "a", ["a2"]);
    const occ = occupancyWithout(base, "host-1", r);
    expect(occ.podsOnHost("host-1").map((p) => p.uid)).to.deep.equal(["a1", "b1"]);
    expect(occ.podsOnHost("host-1")).to.equal(occ.podsOnHost("host-1"));
    expect(base.podsOnHost("host-1").map((p) => p.uid)).to.deep.equal(["a1", "a2", "b1"]);
    expect(occ.podsOnHost("host-2")).to.equal(base.podsOnHost("host-2"));
    expect(occ.vmOfNode).to.equal(base.vmOfNode);
    expect(occupancyWithout(base, undefined, r)).to.equal(base);
    expect(occupancyWithout(base, "host-1", withoutVictims(view, "a", []))).to.equal(base);
  });

  it("knows the reduced list's totals and pending demand by subtraction, equal to reading every pod", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            node: fc.constantFrom("a", "b"),
            cpu: fc.integer({ min: 0, max: 8000 }),
            mem: fc.integer({ min: 0, max: 2 ** 34 }),
            owner: fc.constantFrom(undefined, "o1", "o2"),
            workloadClass: fc.constantFrom(undefined, "online" as const, "batch" as const),
            boundAgoS: fc.integer({ min: 0, max: 300 }),
          }),
          { maxLength: 30 },
        ),
        fc.array(fc.nat(), { maxLength: 10 }),
        fc.integer({ min: -60, max: 60 }),
        (specs, picks, sampleAgoS) => {
          const pods = specs.map((s, i) =>
            podView({
              uid: `p${i}`,
              nodeName: s.node,
              limits: { cpuMilli: s.cpu, memoryBytes: s.mem },
              expectedDemand: { cpuMilli: s.cpu, memoryBytes: s.mem },
              ownerKey: s.owner,
              workloadClass: s.workloadClass,
              boundAtMs: NOW_MS - s.boundAgoS * 1000,
            }),
          );
          const v = clusterViewOf([nodeView({ name: "a" }), nodeView({ name: "b" })], pods);
          const onA = v.podsByNode.get("a") ?? [];
          const victims = picks.map((i) => onA[i % Math.max(1, onA.length)]?.uid).filter((u): u is string => u !== undefined);
          const r = withoutVictims(v, "a", victims);
          const args = { sampledAtMs: NOW_MS - sampleAgoS * 1000, settleMs: 60_000 };
          const reduced = occupancyWithout(hostOccupancyOf(v, inventory, ["name"]), "host-1", r, args).podsOnHost("host-1");
          const fresh = [...reduced];
          const seeded = podTotals(reduced);
          const read = podTotals(fresh);
          expect(seeded.cpuLimitsMilli).to.equal(read.cpuLimitsMilli);
          expect(seeded.memoryLimitsBytes).to.equal(read.memoryLimitsBytes);
          expect(new Map(seeded.replicasByOwner)).to.deep.equal(new Map(read.replicasByOwner));
          expect(seeded.cpuDemandMilli).to.equal(read.cpuDemandMilli);
          expect(seeded.cpuDemandMilliByClass).to.deep.equal(read.cpuDemandMilliByClass);
          expect([...seeded.uids].sort()).to.deep.equal([...read.uids].sort());
          expect(seeded.uids.size).to.equal(read.uids.size);
          for (const p of pods) expect(seeded.uids.has(p.uid)).to.equal(read.uids.has(p.uid));
          expect(pendingDemand(reduced, args.sampledAtMs, args.settleMs)).to.deep.equal(
            pendingDemand(fresh, args.sampledAtMs, args.settleMs),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});
