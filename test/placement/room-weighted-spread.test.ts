import { expect } from "chai";
import type { HostBurstRoom } from "../../src/placement/host-burst-room.js";
import { MIN_ROOM_WEIGHT, replicaDensity, replicasAboveEven, roomWeight } from "../../src/placement/room-weighted-spread.js";

const room = (capacityMhz: number, nonKubernetesMhz: number): HostBurstRoom => ({
  capacityMhz,
  nonKubernetesMhz,
  roomMhz: capacityMhz - nonKubernetesMhz,
  burstByOwnerMilli: new Map(),
});

describe("roomWeight", () => {
  const cases: Array<{ name: string; room: HostBurstRoom | undefined; want: number }> = [
    { name: "given an unknown room, returns 1 (the plain count)", room: undefined, want: 1 },
    { name: "given a host without other load, returns 1", room: room(83_200, 0), want: 1 },
    { name: "given other VMs taking half the host, returns 0.5", room: room(83_200, 41_600), want: 0.5 },
    { name: "given a bigger host without other load, returns 1 (counts are evened, not capacity)", room: room(166_400, 0), want: 1 },
    { name: "given other VMs taking the whole host, returns the floor", room: room(83_200, 83_200), want: MIN_ROOM_WEIGHT },
    { name: "given no capacity, returns 1 (unknown)", room: room(0, 0), want: 1 },
  ];
  for (const c of cases) it(c.name, () => expect(roomWeight(c.room)).to.equal(c.want));
});

describe("replicaDensity", () => {
  const cases: Array<{ name: string; onHost: number; weight: number; want: number }> = [
    { name: "given no replicas on a full-weight host, returns 1 (the pod alone)", onHost: 0, weight: 1, want: 1 },
    { name: "given 3 replicas on a full-weight host, returns 4", onHost: 3, weight: 1, want: 4 },
    { name: "given 3 replicas on a half-room host, returns 8", onHost: 3, weight: 0.5, want: 8 },
  ];
  for (const c of cases) it(c.name, () => expect(replicaDensity(c.onHost, c.weight)).to.equal(c.want));
});

describe("replicasAboveEven", () => {
  const cases: Array<{ name: string; onHost: number; weight: number; leastDensity: number; want: number }> = [
    { name: "given equal weights, returns the plain count above the fewest (5 vs 3)", onHost: 5, weight: 1, leastDensity: 4, want: 2 },
    { name: "given the leanest host itself, returns 0", onHost: 3, weight: 1, leastDensity: 4, want: 0 },
    {
      name: "given 3 replicas on a half-room host against 6 on a full one, returns 0.5",
      onHost: 3,
      weight: 0.5,
      leastDensity: 7,
      want: 0.5,
    },
    {
      name: "given 6 replicas on a full host against 3 on a half-room one, returns 0 (it is not above even)",
      onHost: 6,
      weight: 1,
      leastDensity: 7,
      want: 0,
    },
    { name: "given fewer than even, returns 0 (never a bonus)", onHost: 1, weight: 1, leastDensity: 4, want: 0 },
  ];
  for (const c of cases) it(c.name, () => expect(replicasAboveEven(c.onHost, c.weight, c.leastDensity)).to.equal(c.want));
});
