import { expect } from "chai";
import { checkCorrelatedBurst, DEFAULT_CORRELATION_POLICY, type CorrelationPolicy } from "../../src/placement/correlated-burst-cap.js";
import type { HostBurstRoom } from "../../src/placement/host-burst-room.js";
import { formatReason } from "../../src/protocol/format-reason.js";
import { hostView } from "../fixtures/inventory.js";

// 32 cores x 2600 MHz = 83 200 MHz; a room of 52 000 MHz (31 200 MHz of non-Kubernetes load).
// penalty = round(4 x clamp((share - 0.25) / 0.75, 0, 1)); one core of the group = 2600 MHz.
const host = hostView();
const room: HostBurstRoom = { capacityMhz: 83_200, nonKubernetesMhz: 31_200, roomMhz: 52_000, burstByOwnerMilli: new Map() };
const OWNER = "ReplicaSet/shop/api";

describe("checkCorrelatedBurst", () => {
  const cases: Array<{ name: string; groupCores: number; policy?: CorrelationPolicy; room?: HostBurstRoom; share: number; penalty: number }> = [
    // 5 x 2600 = 13 000 / 52 000 = 0.25: at the soft share, no points yet
    { name: "given the group at the soft share, returns no penalty", groupCores: 5, share: 0.25, penalty: 0 },
    // 10 x 2600 = 26 000 / 52 000 = 0.5; 4 x 0.25 / 0.75 = 1.33 -> 1
    { name: "given half the room, returns 1 point", groupCores: 10, share: 0.5, penalty: 1 },
    // 15 x 2600 = 39 000 / 52 000 = 0.75; 4 x 0.5 / 0.75 = 2.67 -> 3
    { name: "given three quarters of the room, returns 3 points", groupCores: 15, share: 0.75, penalty: 3 },
    // 30 x 2600 = 78 000 / 52 000 = 1.5: capped at 4
    { name: "given more than the room, returns the cap of 4 points", groupCores: 30, share: 1.5, penalty: 4 },
    // 10 cores on a host without non-Kubernetes load: 26 000 / 83 200 = 0.3125; 4 x 0.0625 / 0.75 = 0.33 -> 0
    {
      name: "given the same group on a host without other VMs, returns no penalty",
      groupCores: 10,
      room: { ...room, nonKubernetesMhz: 0, roomMhz: 83_200 },
      share: 0.3125,
      penalty: 0,
    },
    {
      name: "given no room left at all, returns the cap",
      groupCores: 1,
      room: { ...room, nonKubernetesMhz: 83_200, roomMhz: 0 },
      share: Number.POSITIVE_INFINITY,
      penalty: 4,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const check = checkCorrelatedBurst(host, c.room ?? room, OWNER, c.groupCores * 1000, c.policy ?? DEFAULT_CORRELATION_POLICY);
      if (Number.isFinite(c.share)) expect(check.share).to.be.closeTo(c.share, 1e-9);
      else expect(check.share).to.equal(c.share);
      expect(check.penalty).to.equal(c.penalty);
      expect(check.reason).to.equal(undefined);
    });
  }

  it("given a hard share and a group above it, returns a rejection naming the group, both MHz figures and the shares", () => {
    // 15 cores: 0.75 > 0.6
    const check = checkCorrelatedBurst(host, room, OWNER, 15_000, { ...DEFAULT_CORRELATION_POLICY, hardShare: 0.6 });
    expect(check.penalty).to.equal(3);
    expect(formatReason(check.reason!)).to.equal(
      "ESXi host esx-07 (host-21): ReplicaSet/shop/api and the groups bursting with it expect 39.0 GHz / 52.0 GHz left by non-Kubernetes load (31.2 GHz) = 0.75 > 0.60 (correlated burst cap)",
    );
  });

  it("given a hard share and a group at it, passes with the penalty only", () => {
    // 12 cores: 31 200 / 52 000 = 0.6, not above
    const check = checkCorrelatedBurst(host, room, OWNER, 12_000, { ...DEFAULT_CORRELATION_POLICY, hardShare: 0.6 });
    expect(check.reason).to.equal(undefined);
  });
});
