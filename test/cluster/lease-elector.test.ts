import { CoordinationV1Api } from "@kubernetes/client-node";
import { expect } from "chai";
import { startFakeKubeApiserver, type FakeKubeApiserver } from "../../mocks/kube-apiserver/index.js";
import { LeaseElector } from "../../src/cluster/lease-elector.js";
import { KubeRequestTimeoutError, makeTimedApiClient } from "../../src/cluster/timed-api-client.js";
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

  function elector(identity: string, api: CoordinationV1Api = fake.kubeConfig().makeApiClient(CoordinationV1Api)): LeaseElector {
    return new LeaseElector({ api, namespace: "hvx-system", identity, leaseDurationSeconds: 15, now: clock, log: silentLogger() });
  }

  /** APIs whose Lease reads wait for each other, round after round: every contender sees the same record before any writes. */
  function racingApis(n: number): CoordinationV1Api[] {
    let arrived = 0;
    let release!: () => void;
    let allRead = new Promise<void>((r) => (release = r));
    return Array.from({ length: n }, () => {
      const api = fake.kubeConfig().makeApiClient(CoordinationV1Api);
      const read = api.readNamespacedLease.bind(api);
      api.readNamespacedLease = (async (param: Parameters<typeof read>[0]) => {
        const lease = await read(param);
        const round = allRead;
        if (++arrived === n) {
          arrived = 0;
          release();
          allRead = new Promise<void>((r) => (release = r));
        }
        await round;
        return lease;
      }) as typeof api.readNamespacedLease;
      return api;
    });
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

  it("given a silent holder, a contender takes over exactly at observed + leaseDuration (expiry is >=, as in client-go), not a millisecond before", async () => {
    const a = elector("hvx-a");
    const b = elector("hvx-b");
    expect(await a.tryAcquireOrRenew()).to.equal(true);
    expect(await b.tryAcquireOrRenew()).to.equal(false);
    nowMs += 14_999;
    expect(await b.tryAcquireOrRenew()).to.equal(false, "1 ms before the deadline");
    nowMs += 1;
    expect(await b.tryAcquireOrRenew()).to.equal(true, "exactly at the deadline");
  });

  it("given a renew, sends the Lease's resourceVersion, so the renew lands and a stale writer is refused", async () => {
    const a = elector("hvx-a");
    await a.tryAcquireOrRenew();
    const before = fake.controls.getLease("hvx-system", "hvx-node-labeller")!;
    nowMs += 5_000;
    expect(await a.tryAcquireOrRenew()).to.equal(true);
    const after = fake.controls.getLease("hvx-system", "hvx-node-labeller")!;
    expect(Number(after.metadata.resourceVersion)).to.be.greaterThan(Number(before.metadata.resourceVersion));
    expect(after.spec.renewTime).to.equal("2026-11-29T10:00:05.123000Z");
    expect(fake.controls.stats().updates).to.equal(1);
  });

  for (const holder of ["", "hvx-gone"]) {
    it(`given two electors racing over an existing Lease (holder ${JSON.stringify(holder)}), exactly one wins; the other's write gets 409 Conflict`, async () => {
      const admin = fake.kubeConfig("admin").makeApiClient(CoordinationV1Api);
      await admin.createNamespacedLease({
        namespace: "hvx-system",
        body: { metadata: { name: "hvx-node-labeller" }, spec: { holderIdentity: holder, leaseDurationSeconds: 15, leaseTransitions: 3 } },
      });
      const [apiA, apiB] = racingApis(2);
      const a = elector("hvx-a", apiA);
      const b = elector("hvx-b", apiB);
      if (holder !== "") {
        // Both first observe the old holder, which then stays silent for a whole lease duration.
        expect(await Promise.all([a.tryAcquireOrRenew(), b.tryAcquireOrRenew()])).to.deep.equal([false, false]);
        nowMs += 15_000;
      }
      const updatesBefore = fake.controls.stats().updates;
      const [ra, rb] = await Promise.all([a.tryAcquireOrRenew(), b.tryAcquireOrRenew()]);
      expect([ra, rb].filter(Boolean)).to.have.length(1);
      expect(fake.controls.stats().updates - updatesBefore).to.equal(1, "one write landed, the other was refused");
      const lease = fake.controls.getLease("hvx-system", "hvx-node-labeller");
      expect(lease?.spec.holderIdentity).to.equal(ra ? "hvx-a" : "hvx-b");
      expect(lease?.spec.leaseTransitions).to.equal(holder === "" ? 3 : 4);
      expect(a.isLeader()).to.equal(ra);
      expect(b.isLeader()).to.equal(rb);
    });
  }

  it("given a renew that hangs, leadership ends once renewDeadline has passed since the last successful renew", async () => {
    const a = elector("hvx-a");
    expect(await a.tryAcquireOrRenew()).to.equal(true);
    fake.controls.setFault({ latencyMs: 60_000 });
    const hung = a.tryAcquireOrRenew();
    nowMs += 9_999;
    expect(a.isLeader()).to.equal(true, "inside the renew deadline (2/3 of 15 s)");
    nowMs += 1;
    expect(a.isLeader()).to.equal(false, "a hung renew ends leadership: two replicas never write at once");
    void hung;
  });

  it("given a Lease call that gets no answer, the timed client gives up after the request timeout", async () => {
    const api = makeTimedApiClient(fake.kubeConfig(), CoordinationV1Api, 200);
    fake.controls.setFault({ latencyMs: 5_000 });
    const started = Date.now();
    const err = await api.readNamespacedLease({ name: "hvx-node-labeller", namespace: "hvx-system" }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(KubeRequestTimeoutError);
    expect((err as Error).message).to.match(
      /readNamespacedLease: no answer from the Kubernetes API server within 0.2 s \(kubernetes.requestTimeoutSeconds\)/,
    );
    expect(Date.now() - started).to.be.below(2_000);
    const a = elector("hvx-a", api);
    expect(await a.tryAcquireOrRenew()).to.equal(false);
    fake.controls.setFault({});
    expect(await a.tryAcquireOrRenew()).to.equal(true);
  });

  it("given a timeout that is not a whole number of milliseconds (2/3 of a 2 s lease), still answers", async () => {
    const api = makeTimedApiClient(fake.kubeConfig(), CoordinationV1Api, 2000 * (2 / 3));
    const err = await api.readNamespacedLease({ name: "hvx-rebalancer", namespace: "hvx-system" }).catch((e: unknown) => e);
    expect((err as { code?: number }).code).to.equal(404);
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
