import { expect } from "chai";
import { checkCorrelatedBurst, DEFAULT_CORRELATION_POLICY, type CorrelationPolicy } from "../../src/placement/correlated-burst-cap.js";
import type { HostBurstRoom } from "../../src/placement/host-burst-room.js";
import { formatReason } from "../../src/protocol/format-reason.js";
import { hostView } from "../fixtures/inventory.js";

// 32 cores x 2600 MHz = 83 200 MHz; a room of 52 000 MHz (31 200 MHz of non-Kubernetes load).
// Defaults: penalty = round(6 x clamp((share - 0.75) / 0.25, 0, 1)); one core of the group = 2600 MHz.
const host = hostView();
const room: HostBurstRoom = { capacityMhz: 83_200, nonKubernetesMhz: 31_200, roomMhz: 52_000, burstByOwnerMilli: new Map() };
const OWNER = "ReplicaSet/shop/api";

describe("checkCorrelatedBurst", () => {
  const cases: Array<{ name: string; groupCores: number; room?: HostBurstRoom; share: number; penalty: number }> = [
    // 15 x 2600 = 39 000 / 52 000 = 0.75: at the soft share, no points yet
    { name: "given the group at the soft share, returns no penalty", groupCores: 15, share: 0.75, penalty: 0 },
    // 16 x 2600 = 41 600 / 52 000 = 0.8; 6 x 0.05 / 0.25 = 1.2 -> 1
    { name: "given 0.8 of the room, returns 1 point", groupCores: 16, share: 0.8, penalty: 1 },
    // 17.5 x 2600 = 45 500 / 52 000 = 0.875; 6 x 0.125 / 0.25 = 3
    { name: "given 0.875 of the room, returns 3 points", groupCores: 17.5, share: 0.875, penalty: 3 },
    // 20 x 2600 = 52 000: the group alone fills the room
    { name: "given the whole room, returns the cap of 6 points", groupCores: 20, share: 1, penalty: 6 },
    // 30 x 2600 = 78 000 / 52 000 = 1.5: still the cap
    { name: "given more than the room, returns the cap of 6 points", groupCores: 30, share: 1.5, penalty: 6 },
    // 20 cores on a host without non-Kubernetes load: 52 000 / 83 200 = 0.625
    {
      name: "given the same group on a host without other VMs, returns no penalty",
      groupCores: 20,
      room: { ...room, nonKubernetesMhz: 0, roomMhz: 83_200 },
      share: 0.625,
      penalty: 0,
    },
    {
      name: "given no room left at all, returns the cap",
      groupCores: 1,
      room: { ...room, nonKubernetesMhz: 83_200, roomMhz: 0 },
      share: Number.POSITIVE_INFINITY,
      penalty: 6,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const check = checkCorrelatedBurst(host, c.room ?? room, OWNER, c.groupCores * 1000, DEFAULT_CORRELATION_POLICY);
      if (Number.isFinite(c.share)) expect(check.share).to.be.closeTo(c.share, 1e-9);
      else expect(check.share).to.equal(c.share);
      expect(check.penalty).to.equal(c.penalty);
      expect(check.reason).to.equal(undefined);
    });
  }

  it("given a soft share of 0.25 and 4 points, returns the points rising from 0.25 instead", () => {
    // 10 cores: 26 000 / 52 000 = 0.5; 4 x 0.25 / 0.75 = 1.33 -> 1
    const policy: CorrelationPolicy = { ...DEFAULT_CORRELATION_POLICY, softShare: 0.25, maxPenalty: 4 };
    expect(checkCorrelatedBurst(host, room, OWNER, 10_000, policy).penalty).to.equal(1);
  });

  it("given a hard share and a group above it, returns a rejection naming the group, both GHz figures and the shares", () => {
    // 17.5 cores: 0.875 > 0.8
    const check = checkCorrelatedBurst(host, room, OWNER, 17_500, { ...DEFAULT_CORRELATION_POLICY, hardShare: 0.8 });
    expect(check.penalty).to.equal(3);
    expect(formatReason(check.reason!)).to.equal(
      "ESXi host esx-07 (host-21): ReplicaSet/shop/api and the groups bursting with it expect 45.5 GHz / 52.0 GHz left by non-Kubernetes load (31.2 GHz) = 0.88 > 0.80 (correlated burst cap)",
    );
  });

  it("given a hard share and a group at it, passes with the penalty only", () => {
    // 16 cores: 41 600 / 52 000 = 0.8, not above
    const check = checkCorrelatedBurst(host, room, OWNER, 16_000, { ...DEFAULT_CORRELATION_POLICY, hardShare: 0.8 });
    expect(check.reason).to.equal(undefined);
    expect(check.penalty).to.equal(1);
  });
});
