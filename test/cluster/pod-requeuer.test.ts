import { CoreV1Api } from "@kubernetes/client-node";
import { expect } from "chai";
import { Registry } from "prom-client";
import { FakeMetricsSource } from "../../mocks/fake-metrics-source.js";
import { startFakeKubeApiserver, samplePod, type FakeKubeApiserver } from "../../mocks/kube-apiserver/index.js";
import { PodRequeuer, REQUEUED_AT_ANNOTATION, type PodRequeuerOptions } from "../../src/cluster/pod-requeuer.js";
import { makeTimedApiClient } from "../../src/cluster/timed-api-client.js";
import type { HostMetrics } from "../../src/model/inventory.js";
import { ExtenderMetrics } from "../../src/observability/extender-metrics.js";
import { silentLogger } from "../../src/observability/logger.js";
import { heatRejectingHosts, requeueDue, type HeldPod } from "../../src/placement/requeue-due.js";
import { createExtenderHandlers } from "../../src/server/extender-handlers.js";
import { hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";

/** Host h1 with one node VM n1 (mapped by name). */
function inventoryWith(metrics: Partial<HostMetrics>) {
  return inventoryOf(
    [hostView({ id: "h1", name: "esx-1", metrics })],
    [vmView({ id: "vm-1", name: "n1", hostId: "h1", biosUuid: undefined })],
  );
}

const ref = (name: string) => ({ uid: `uid-${name}`, namespace: "team-a", name });

describe("PodRequeuer against the fake API server (real client-node, the shipped RBAC)", function () {
  this.timeout(10_000);
  let fake: FakeKubeApiserver;
  const source = new FakeMetricsSource(inventoryWith({ cpuReadyPercent: 14 }));

  beforeEach(async () => {
    fake = await startFakeKubeApiserver();
    source.set(inventoryWith({ cpuReadyPercent: 14 }));
  });
  afterEach(async () => fake.close());

  function newRequeuer(over: Partial<PodRequeuerOptions> = {}): PodRequeuer {
    return new PodRequeuer({
      api: makeTimedApiClient(fake.kubeConfig(), CoreV1Api),
      due: (held, nowMs) => requeueDue(held, source.latest(), DEFAULT_POLICY.thresholds, nowMs),
      isBound: () => false,
      maxPodsPerSecond: 5,
      intervalMs: 1000,
      minIntervalMs: 60_000,
      maxPods: 100,
      now: () => NOW_MS,
      log: silentLogger(),
      ...over,
    });
  }

  it("given a pod the filter rejected for a hot host, touches it once the host cools (merge patch of hvx.io/requeued-at), not before", async () => {
    fake.controls.upsertPod(samplePod({ namespace: "team-a", name: "web-1" }));
    const requeuer = newRequeuer();
    const handlers = createExtenderHandlers({
      source,
      policy: DEFAULT_POLICY,
      metrics: new ExtenderMetrics(new Registry()),
      log: silentLogger(),
      clock: () => NOW_MS,
      onFiltered: (req, outcome) => requeuer.remember({ uid: req.args.Pod.metadata?.uid ?? "", ...req.pod }, heatRejectingHosts(outcome)),
    });
    const pod = { metadata: { name: "web-1", namespace: "team-a", uid: "uid-web-1" } };
    const reply = JSON.parse(handlers.filter(JSON.stringify({ Pod: pod, Nodes: null, NodeNames: ["n1"] })).body) as { NodeNames: string[] };
    expect(reply.NodeNames).to.deep.equal([]);
    expect(requeuer.size()).to.equal(1);

    expect((await requeuer.requeueOnce()).requeued, "host still hot (ready 14 %)").to.deep.equal([]);
    expect(fake.controls.getPod("team-a", "web-1")?.metadata.annotations?.[REQUEUED_AT_ANNOTATION]).to.equal(undefined);

    source.set(inventoryWith({ cpuReadyPercent: 3 }));
    expect((await requeuer.requeueOnce()).requeued).to.deep.equal(["team-a/web-1"]);
    expect(fake.controls.getPod("team-a", "web-1")?.metadata.annotations?.[REQUEUED_AT_ANNOTATION]).to.equal("2026-11-29T10:00:00.000Z");
    expect(fake.controls.stats().patchContentTypes).to.deep.equal({ "application/merge-patch+json": 1 });
    expect(fake.controls.stats().forbidden, "the shipped ClusterRole allows pods patch").to.deep.equal([]);
    expect(requeuer.size(), "touched once, then forgotten").to.equal(0);
    expect((await requeuer.requeueOnce()).requeued).to.deep.equal([]);
  });

  it("given a pod that later passes the filter, forgets it", () => {
    const requeuer = newRequeuer();
    requeuer.remember(ref("web-1"), ["h1"]);
    requeuer.remember(ref("web-1"), []);
    expect(requeuer.size()).to.equal(0);
  });

  it("given 10 due pods and 2 per second over a 1 s interval, touches 2 per round", async () => {
    source.set(inventoryWith({ cpuReadyPercent: 3 }));
    const requeuer = newRequeuer({ maxPodsPerSecond: 2 });
    for (let i = 0; i < 10; i++) {
      fake.controls.upsertPod(samplePod({ namespace: "team-a", name: `web-${i}` }));
      requeuer.remember(ref(`web-${i}`), ["h1"]);
    }
    expect((await requeuer.requeueOnce()).requeued).to.deep.equal(["team-a/web-0", "team-a/web-1"]);
    expect((await requeuer.requeueOnce()).requeued).to.deep.equal(["team-a/web-2", "team-a/web-3"]);
    expect(fake.controls.stats().patches).to.equal(4);
  });

  it("given pods an earlier process rejected for host heat, takes them over once both views are in and touches each once", async () => {
    for (const name of ["web-1", "web-2"]) fake.controls.upsertPod(samplePod({ namespace: "team-a", name }));
    let ready = false;
    let asked = 0;
    const requeuer = newRequeuer({
      heldBeforeStart: () => {
        asked++;
        return ready ? [ref("web-1"), ref("web-2")] : undefined;
      },
    });
    // Not ready (informers not synced or no poll yet): nothing taken over, asked again next round.
    expect((await requeuer.requeueOnce()).requeued).to.deep.equal([]);
    ready = true;
    // Its host h1 is still hot: the pods are touched all the same (an earlier process's rejection, hosts unknown).
    expect((await requeuer.requeueOnce()).requeued).to.deep.equal(["team-a/web-1", "team-a/web-2"]);
    expect((await requeuer.requeueOnce()).requeued).to.deep.equal([]);
    expect(asked).to.equal(2);
    expect(fake.controls.stats().patches).to.equal(2);
  });

  it("given a pod touched and rejected again, does not touch it again within minIntervalMs", async () => {
    source.set(inventoryWith({ cpuReadyPercent: 3 }));
    fake.controls.upsertPod(samplePod({ namespace: "team-a", name: "web-1" }));
    let nowMs = NOW_MS;
    const requeuer = newRequeuer({ now: () => nowMs });
    requeuer.remember(ref("web-1"), ["h1"]);
    expect((await requeuer.requeueOnce()).requeued).to.have.length(1);
    requeuer.remember(ref("web-1"), ["h1"]);
    nowMs += 59_999;
    expect((await requeuer.requeueOnce()).requeued).to.deep.equal([]);
    nowMs += 1;
    expect((await requeuer.requeueOnce()).requeued).to.deep.equal(["team-a/web-1"]);
  });

  it("given a pod bound meanwhile or deleted (404), forgets it; a refused patch (403) is kept for the next round", async () => {
    source.set(inventoryWith({ cpuReadyPercent: 3 }));
    const bound = new Set(["uid-bound"]);
    const requeuer = newRequeuer({ isBound: (p: HeldPod) => bound.has(p.uid) });
    requeuer.remember(ref("bound"), ["h1"]);
    requeuer.remember(ref("deleted"), ["h1"]);
    expect(await requeuer.requeueOnce()).to.deep.equal({ requeued: [], failed: [] });
    expect(requeuer.size()).to.equal(0);
    expect(fake.controls.stats().patches).to.equal(0);

    await fake.close();
    fake = await startFakeKubeApiserver({ rbac: "" });
    fake.controls.upsertPod(samplePod({ namespace: "team-a", name: "web-1" }));
    const refused = newRequeuer();
    refused.remember(ref("web-1"), ["h1"]);
    expect((await refused.requeueOnce()).failed).to.deep.equal(["team-a/web-1"]);
    expect(fake.controls.stats().forbidden).to.deep.equal(["patch /pods team-a/web-1"]);
    expect(refused.size()).to.equal(1);
  });

  it("given more rejected pods than maxPods, forgets the oldest", () => {
    const requeuer = newRequeuer({ maxPods: 2 });
    for (const name of ["a", "b", "c"]) requeuer.remember(ref(name), ["h1"]);
    expect(requeuer.size()).to.equal(2);
  });
});
