import { CoordinationV1Api } from "@kubernetes/client-node";
import { expect } from "chai";
import { startFakeKubeApiserver, type FakeKubeApiserver } from "../../mocks/kube-apiserver/index.js";
import { LeaseElector } from "../../src/cluster/lease-elector.js";
import { silentLogger } from "../../src/observability/logger.js";

const MICRO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

describe("LeaseElector against the fake API server", () => {
  let fake: FakeKubeApiserver;
  let nowMs: number;
  const clock = (): number => nowMs;

  beforeEach(async () => {
    fake = await startFakeKubeApiserver();
    nowMs = Date.parse("2026-11-29T10:00:00.123Z");
  });
  afterEach(() => fake.close());

  function elector(identity: string): LeaseElector {
    const api = fake.kubeConfig().makeApiClient(CoordinationV1Api);
    return new LeaseElector({ api, namespace: "hvx-system", identity, leaseDurationSeconds: 15, now: clock, log: silentLogger() });
  }

  it("given two electors, exactly one leads and the Lease carries MicroTimes", async () => {
    const a = elector("hvx-a");
    const b = elector("hvx-b");
    const [ra, rb] = await Promise.all([a.tryAcquireOrRenew(), b.tryAcquireOrRenew()]);
    expect([ra, rb].filter(Boolean)).to.have.length(1);
    expect(a.isLeader()).to.equal(ra);
    const lease = fake.controls.getLease("hvx-system", "hvx-node-labeller");
    expect(lease?.spec.holderIdentity).to.equal(ra ? "hvx-a" : "hvx-b");
    expect(lease?.spec.leaseDurationSeconds).to.equal(15);
    expect(lease?.spec.renewTime).to.equal("2026-11-29T10:00:00.123000Z");
    expect(lease?.spec.acquireTime).to.match(MICRO_TIME);
    expect(lease?.spec.leaseTransitions).to.equal(0);
  });

  it("given a live leader renewing, the other never takes over; after the leader stops renewing, takes over once expired", async () => {
    const a = elector("hvx-a");
    const b = elector("hvx-b");
    expect(await a.tryAcquireOrRenew()).to.equal(true);
    expect(await b.tryAcquireOrRenew()).to.equal(false);
    for (let i = 0; i < 5; i++) {
      nowMs += 5_000;
      expect(await a.tryAcquireOrRenew()).to.equal(true);
      expect(await b.tryAcquireOrRenew()).to.equal(false);
    }
    const renewed = fake.controls.getLease("hvx-system", "hvx-node-labeller");
    expect(renewed?.spec.renewTime).to.match(MICRO_TIME);
    // a goes silent: b must wait a full lease duration after it last saw the record change
    nowMs += 10_000;
    expect(await b.tryAcquireOrRenew()).to.equal(false);
    nowMs += 5_001;
    expect(await b.tryAcquireOrRenew()).to.equal(true);
    const taken = fake.controls.getLease("hvx-system", "hvx-node-labeller");
    expect(taken?.spec.holderIdentity).to.equal("hvx-b");
    expect(taken?.spec.leaseTransitions).to.equal(1);
    expect(taken?.spec.acquireTime).to.equal(taken?.spec.renewTime);
    // the old leader notices on its next round (conflict-free read shows another holder)
    expect(await a.tryAcquireOrRenew()).to.equal(false);
    expect(a.isLeader()).to.equal(false);
  });

  it("given the leader stops, it releases the Lease and another takes over at once", async () => {
    const a = elector("hvx-a");
    const b = elector("hvx-b");
    await a.tryAcquireOrRenew();
    await b.tryAcquireOrRenew();
    await a.stop();
    expect(a.isLeader()).to.equal(false);
    expect(await b.tryAcquireOrRenew()).to.equal(true);
  });

  it("given stop() during a round, the round does not make it leader again", async () => {
    const a = elector("hvx-a");
    const round = a.tryAcquireOrRenew();
    await a.stop();
    expect(await round).to.equal(false);
    expect(a.isLeader()).to.equal(false);
  });

  it("given the API server failing, a leader steps down once its renew deadline passes", async () => {
    const a = elector("hvx-a");
    await a.tryAcquireOrRenew();
    fake.controls.setFault({ status5xx: 500 });
    nowMs += 5_000;
    expect(await a.tryAcquireOrRenew()).to.equal(true, "still inside 2/3 of the lease");
    nowMs += 6_000;
    expect(await a.tryAcquireOrRenew()).to.equal(false);
  });
});
