import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import { expect } from "chai";
import { Registry } from "prom-client";
import {
  startFakeKubeApiserver,
  sampleNamespace,
  sampleNode,
  samplePod,
  type FakeKubeApiserver,
} from "../../mocks/kube-apiserver/index.js";
import { ClusterInformer, ClusterSyncError } from "../../src/cluster/cluster-informer.js";
import { createClusterMetrics } from "../../src/cluster/cluster-metrics.js";
import { makeTimedApiClient } from "../../src/cluster/timed-api-client.js";
import { createLogger, silentLogger } from "../../src/observability/logger.js";
import { eventually } from "../fixtures/eventually.js";

const defaults = { cpuMilli: 100, memoryBytes: 128 * 1024 * 1024 };
const fastBackoff = { initialMs: 20, maxMs: 100 };

function podNames(informer: ClusterInformer, node: string): string[] {
  return (informer.latest().podsByNode.get(node) ?? []).map((p) => p.name).sort();
}

describe("ClusterInformer against the fake API server (real client-node)", function () {
  this.timeout(10_000);
  let fake: FakeKubeApiserver;
  let informer: ClusterInformer | undefined;

  beforeEach(async () => {
    fake = await startFakeKubeApiserver({ bookmarkIntervalMs: 100 });
    const c = fake.controls;
    c.upsertNamespace(sampleNamespace("team-a", { "hvx.io/oversell-cpu": "3" }));
    c.upsertNode(sampleNode({ name: "n1", biosUuid: "4205a1b2-c3d4-e5f6-a7b8-000000000001" }));
    c.upsertNode(sampleNode({ name: "n2" }));
    c.upsertPod(
      samplePod({
        namespace: "team-a",
        name: "bound",
        nodeName: "n1",
        cpu: "250m",
        memory: "1Gi",
        owner: { kind: "ReplicaSet", name: "web-1" },
      }),
    );
    c.upsertPod(samplePod({ namespace: "team-a", name: "pending", cpu: "250m" }));
    c.upsertPod(samplePod({ namespace: "team-a", name: "done", nodeName: "n1", phase: "Succeeded" }));
  });

  afterEach(async () => {
    await informer?.stop();
    informer = undefined;
    await fake.close();
  });

  function newInformer(registry?: Registry, pageSize = 1): ClusterInformer {
    const metrics = registry ? createClusterMetrics(registry) : undefined;
    informer = new ClusterInformer({
      kubeConfig: fake.kubeConfig(),
      listApi: makeTimedApiClient(fake.kubeConfig(), CoreV1Api),
      defaults,
      log: silentLogger(),
      backoff: fastBackoff,
      pageSize,
      syncTimeoutMs: 3000,
      ...(metrics ? { metrics } : {}),
    });
    return informer;
  }

  it("given an initial cluster, lists nodes, bound non-terminal pods (in pages) and namespace labels", async () => {
    const inf = newInformer();
    await inf.start();
    const view = inf.latest();
    expect([...view.nodes.keys()].sort()).to.deep.equal(["n1", "n2"]);
    expect(view.nodes.get("n1")?.providerID).to.equal("vsphere://4205a1b2-c3d4-e5f6-a7b8-000000000001");
    expect(podNames(inf, "n1")).to.deep.equal(["bound"]);
    const bound = view.podsByNode.get("n1")?.[0];
    expect(bound?.requests).to.deep.equal({ cpuMilli: 250, memoryBytes: 1024 ** 3 });
    expect(bound?.ownerKey).to.equal("ReplicaSet/team-a/web-1");
    expect(bound?.boundAtMs, "bound before hvx started: not a new binding").to.equal(undefined);
    expect(view.namespaces.get("team-a")?.["hvx.io/oversell-cpu"]).to.equal("3");
    expect(view.syncedAtMs).to.be.a("number");
    expect(inf.latest()).to.equal(view, "unchanged view is reused");
    expect(fake.controls.stats().lists).to.be.at.least(4, "nodes in two pages of 1, pods and namespaces");
  });

  it("given listed and watched objects, the library's cache keeps of each only its name, namespace and resourceVersion", async () => {
    const inf = newInformer();
    await inf.start();
    fake.controls.upsertPod(samplePod({ namespace: "team-a", name: "pending", nodeName: "n2", cpu: "250m" }));
    fake.controls.upsertNode(sampleNode({ name: "n3" }));
    await eventually(() => expect(podNames(inf, "n2")).to.deep.equal(["pending"]));
    await eventually(() => expect(inf.latest().nodes.has("n3")).to.equal(true));
    const caches = (inf as unknown as { informers: { informer: { list(): object[] } }[] }).informers.map((i) => i.informer.list());
    const kept = caches.flat();
    expect(kept.length, "2 + 1 nodes, 2 live pods, 1 namespace").to.equal(6);
    for (const obj of kept) {
      const defined = (o: object) => Object.entries(o).filter(([, v]) => v !== undefined);
      expect(defined(obj).map(([k]) => k)).to.deep.equal(["metadata"]);
      const metadata = (obj as { metadata: object }).metadata;
      expect(Object.keys(metadata).sort()).to.deep.equal(["name", "namespace", "resourceVersion"]);
      expect(
        Object.getOwnPropertySymbols(obj).every((k) => (obj as Record<symbol, unknown>)[k] === undefined),
        "no view left on it",
      ).to.equal(true);
    }
  });

  it("given watch ADDED, MODIFIED and DELETED events, reflects them in latest()", async () => {
    const inf = newInformer();
    await inf.start();
    const c = fake.controls;
    c.upsertPod(samplePod({ namespace: "team-a", name: "pending", nodeName: "n2", cpu: "250m" }));
    c.upsertPod(samplePod({ namespace: "team-a", name: "new", nodeName: "n2", cpu: "1" }));
    c.upsertNode(sampleNode({ name: "n3" }));
    c.deletePod("team-a", "bound");
    c.upsertNamespace(sampleNamespace("team-a", { "hvx.io/oversell-cpu": "1.5" }));
    await eventually(() => {
      expect(podNames(inf, "n2")).to.deep.equal(["new", "pending"]);
      expect(inf.latest().podsByNode.has("n1")).to.equal(false);
      expect(inf.latest().nodes.has("n3")).to.equal(true);
      expect(inf.latest().namespaces.get("team-a")?.["hvx.io/oversell-cpu"]).to.equal("1.5");
    });
    c.upsertPod(samplePod({ namespace: "team-a", name: "new", nodeName: "n2", phase: "Failed" }));
    c.deleteNode("n3");
    await eventually(() => {
      expect(podNames(inf, "n2")).to.deep.equal(["pending"]);
      expect(inf.latest().nodes.has("n3")).to.equal(false);
    });
  });

  it("given pending pods, holds them by uid apart from the view, and tells when one is bound (any node) or deleted", async () => {
    const told: string[] = [];
    informer = new ClusterInformer({
      kubeConfig: fake.kubeConfig(),
      listApi: makeTimedApiClient(fake.kubeConfig(), CoreV1Api),
      defaults,
      log: silentLogger(),
      backoff: fastBackoff,
      syncTimeoutMs: 3000,
      onPodSettled: (uid, how) => told.push(`${uid} ${how}`),
    });
    const inf = informer;
    await inf.start();
    const c = fake.controls;
    const uidOf = (name: string) => c.upsertPod(samplePod({ namespace: "team-a", name, cpu: "250m" })).metadata!.uid as string;
    const [pending, later] = [uidOf("pending"), uidOf("later")];
    await eventually(() => expect(inf.pendingPod(later)?.name).to.equal("later"));
    expect(inf.pendingPod(pending)?.requests.cpuMilli).to.equal(250);
    expect([...inf.latest().podsByNode.values()].flat().map((p) => p.name)).to.deep.equal(["bound"], "the view holds bound pods only");
    const boundUid = (inf.latest().podsByNode.get("n1") ?? [])[0]!.uid;
    expect(inf.pendingPod(boundUid)).to.equal(undefined);
    c.upsertPod(samplePod({ namespace: "team-a", name: "pending", nodeName: "n2", cpu: "250m" }));
    c.deletePod("team-a", "later");
    await eventually(() => expect(told).to.deep.equal([`${pending} bound`, `${later} deleted`]));
    expect(inf.pendingPod(pending)).to.equal(undefined);
    expect(podNames(inf, "n2")).to.deep.equal(["pending"]);
    expect(inf.latest().podsByNode.get("n2")![0]!.boundAtMs, "bound while watched: a new binding").to.be.a("number");
  });

  for (const mode of ["ERROR event", "HTTP 410"] as const) {
    it(`given a compacted resourceVersion (${mode}), relists and loses no state`, async () => {
      const registry = new Registry();
      const inf = newInformer(registry);
      await inf.start();
      const c = fake.controls;
      c.setExpiredAsHttp(mode === "HTTP 410");
      c.dropWatches();
      c.upsertPod(samplePod({ namespace: "team-a", name: "while-away", nodeName: "n2" }));
      c.deletePod("team-a", "bound");
      c.compact();
      await eventually(() => {
        expect(podNames(inf, "n2")).to.deep.equal(["while-away"]);
        expect(inf.latest().podsByNode.has("n1")).to.equal(false);
      });
      expect(inf.status().relists).to.be.greaterThan(0);
      expect(await registry.getSingleMetricAsString("hvx_cluster_relists_total")).to.match(/resource="pods"} [1-9]/);
    });
  }

  it("given 5xx and dropped watches, keeps the last view, counts errors and recovers", async () => {
    const registry = new Registry();
    const inf = newInformer(registry);
    await inf.start();
    const c = fake.controls;
    c.setFault({ status5xx: 503 });
    c.dropWatches();
    await eventually(() => expect(inf.status().errors).to.be.greaterThan(2));
    expect(podNames(inf, "n1")).to.deep.equal(["bound"], "last view kept");
    expect(inf.latest().nodes.size).to.equal(2);
    c.upsertPod(samplePod({ namespace: "team-a", name: "later", nodeName: "n1" }));
    c.setFault({});
    await eventually(() => expect(podNames(inf, "n1")).to.deep.equal(["bound", "later"]));
    expect(await registry.getSingleMetricAsString("hvx_cluster_errors_total")).to.match(/resource="pods"} [1-9]/);
    expect(await registry.getSingleMetricAsString("hvx_cluster_cache_age_seconds")).to.match(/hvx_cluster_cache_age_seconds \d/);
  });

  it("given the server ending watches at timeoutSeconds (resync), renews them from the last resourceVersion without relisting", async () => {
    informer = new ClusterInformer({
      kubeConfig: fake.kubeConfig(),
      listApi: makeTimedApiClient(fake.kubeConfig(), CoreV1Api),
      defaults,
      log: silentLogger(),
      backoff: fastBackoff,
      resyncSeconds: 1,
    });
    await informer.start();
    const inf = informer;
    await eventually(() => expect(inf.status().reconnects).to.be.at.least(3), 4000, "watch renewals");
    fake.controls.upsertPod(samplePod({ namespace: "team-a", name: "after-renewal", nodeName: "n2" }));
    await eventually(() => expect(podNames(inf, "n2")).to.deep.equal(["after-renewal"]));
    expect(inf.status().relists).to.equal(0);
    expect(inf.status().errors).to.equal(0);
  });

  it("given a pod with an unreadable quantity, counts it as absent and logs it once, not on every update", async () => {
    const lines: string[] = [];
    const log = createLogger("warn", { write: (line: string) => void lines.push(line) });
    informer = new ClusterInformer({
      kubeConfig: fake.kubeConfig(),
      listApi: makeTimedApiClient(fake.kubeConfig(), CoreV1Api),
      defaults,
      log,
      backoff: fastBackoff,
    });
    fake.controls.upsertPod(samplePod({ namespace: "team-a", name: "odd", nodeName: "n2", cpu: "2 cores", memory: "1Gi" }));
    await informer.start();
    fake.controls.upsertPod(
      samplePod({ namespace: "team-a", name: "odd", nodeName: "n2", cpu: "2 cores", memory: "1Gi", labels: { v: "2" } }),
    );
    fake.controls.upsertPod(samplePod({ namespace: "team-a", name: "marker", nodeName: "n2" }));
    await eventually(() => expect(podNames(informer as ClusterInformer, "n2")).to.deep.equal(["marker", "odd"]));
    const odd = informer
      .latest()
      .podsByNode.get("n2")
      ?.find((p) => p.name === "odd");
    expect(odd?.requests).to.deep.equal({ cpuMilli: 0, memoryBytes: 1024 ** 3 });
    const warnings = lines.filter((l) => l.includes("unreadable quantities"));
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.contain("team-a/odd").and.contain("2 cores");
  });

  it("given pods bound while it watches, stamps each with the local time its watch first showed it bound, whatever the API server's timestamps", async () => {
    let nowMs = 1_000_000;
    informer = new ClusterInformer({
      kubeConfig: fake.kubeConfig(),
      listApi: makeTimedApiClient(fake.kubeConfig(), CoreV1Api),
      defaults,
      log: silentLogger(),
      backoff: fastBackoff,
      now: () => nowMs,
    });
    const inf = informer;
    await inf.start();
    nowMs = 2_000_000;
    // The API server's clock is ten minutes ahead: its PodScheduled time must not matter.
    fake.controls.upsertPod(
      samplePod({ namespace: "team-a", name: "pending", nodeName: "n2", cpu: "250m", scheduledAt: "2026-11-29T09:10:00Z" }),
    );
    await eventually(() => expect(podNames(inf, "n2")).to.deep.equal(["pending"]));
    const boundAt = () =>
      inf
        .latest()
        .podsByNode.get("n2")
        ?.find((p) => p.name === "pending")?.boundAtMs;
    expect(boundAt()).to.equal(2_000_000);
    nowMs = 3_000_000;
    fake.controls.upsertPod(samplePod({ namespace: "team-a", name: "pending", nodeName: "n2", cpu: "500m" }));
    await eventually(() => expect(inf.latest().podsByNode.get("n2")?.[0]?.requests.cpuMilli).to.equal(500));
    expect(boundAt(), "an update keeps the first-seen time").to.equal(2_000_000);
    // A relist (compaction while the watches were away) keeps held pods' times; pods it finds are not new bindings.
    fake.controls.dropWatches();
    fake.controls.upsertPod(samplePod({ namespace: "team-a", name: "while-away", nodeName: "n2" }));
    fake.controls.compact();
    await eventually(() => expect(podNames(inf, "n2")).to.deep.equal(["pending", "while-away"]));
    await eventually(() => expect(inf.status().relists).to.be.greaterThan(0));
    expect(boundAt()).to.equal(2_000_000);
    expect(
      inf
        .latest()
        .podsByNode.get("n2")
        ?.find((p) => p.name === "while-away")?.boundAtMs,
    ).to.equal(undefined);
    expect(inf.latest().podsByNode.get("n1")?.[0]?.boundAtMs, "listed at start-up").to.equal(undefined);
  });

  it("given credentials that fail on the third watch of each resource (exec plugin, expired token), reports them through the informer, never as an unhandled rejection, keeps the view and recovers when they work again", async () => {
    class FlakyCredentials extends KubeConfig {
      watches = 0;
      failFromWatch = Number.POSITIVE_INFINITY;
      healed = false;
      get broken(): boolean {
        return this.watches >= this.failFromWatch && !this.healed;
      }
      override async applyToFetchOptions(opts: Parameters<KubeConfig["applyToFetchOptions"]>[0]) {
        this.watches++;
        if (this.broken) throw new Error("exec plugin aws-iam-authenticator: token expired");
        return super.applyToFetchOptions(opts);
      }
      override async applySecurityAuthentication(context: Parameters<KubeConfig["applySecurityAuthentication"]>[0]) {
        if (this.broken) throw new Error("exec plugin aws-iam-authenticator: token expired");
        return super.applySecurityAuthentication(context);
      }
    }
    const kc = new FlakyCredentials();
    kc.loadFromString(fake.kubeconfigYaml());
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => void rejections.push(reason);
    process.on("unhandledRejection", onRejection);
    try {
      informer = new ClusterInformer({
        kubeConfig: kc,
        listApi: makeTimedApiClient(kc, CoreV1Api),
        defaults,
        log: silentLogger(),
        backoff: fastBackoff,
      });
      const inf = informer;
      await inf.start();
      const allWatching = () => eventually(() => expect(fake.controls.stats().watchesOpen).to.equal(3), 4000, "three open watches");
      await allWatching();
      expect(kc.watches).to.equal(3, "one watch per resource");
      fake.controls.dropWatches();
      await allWatching();
      expect(kc.watches).to.equal(6, "second watches");
      kc.failFromWatch = 7;
      fake.controls.dropWatches();
      await eventually(() => expect(inf.status().errors).to.be.at.least(6), 4000, "failures reported and retried");
      await new Promise((r) => setTimeout(r, 50));
      expect(rejections, "no unhandled rejection").to.deep.equal([]);
      expect(inf.status().resources.map((r) => r.lastError)).to.deep.equal(
        Array(3).fill("exec plugin aws-iam-authenticator: token expired"),
      );
      expect(podNames(inf, "n1")).to.deep.equal(["bound"], "last view kept");
      kc.healed = true;
      fake.controls.upsertPod(samplePod({ namespace: "team-a", name: "after-heal", nodeName: "n1" }));
      await eventually(() => expect(podNames(inf, "n1")).to.deep.equal(["after-heal", "bound"]), 4000, "recovery");
    } finally {
      process.off("unhandledRejection", onRejection);
    }
  });

  it("given a watch gone silent and still open past its timeoutSeconds (a dead connection), restarts it from its last resourceVersion and counts it", async () => {
    const registry = new Registry();
    informer = new ClusterInformer({
      kubeConfig: fake.kubeConfig(),
      listApi: makeTimedApiClient(fake.kubeConfig(), CoreV1Api),
      defaults,
      log: silentLogger(),
      backoff: fastBackoff,
      watchIdleSeconds: 0.8,
      // each watch asks for 1 or 2 s: the fake ends it then, unless silenced (a dead connection never ends)
      resyncSeconds: 1,
      metrics: createClusterMetrics(registry),
    });
    const inf = informer;
    await inf.start();
    await eventually(() => expect(fake.controls.stats().watchesOpen).to.equal(3));
    await new Promise((r) => setTimeout(r, 2_000));
    expect(inf.status().idleRestarts, "bookmarks every 100 ms keep healthy watches alive").to.equal(0);
    // watches renew every 1 or 2 s: silence them at a moment all three are open (no I/O runs in between)
    await eventually(() => expect(fake.controls.stats().watchesOpen).to.equal(3));
    expect(fake.controls.silenceWatches()).to.equal(3);
    fake.controls.upsertPod(samplePod({ namespace: "team-a", name: "sent-into-the-void", nodeName: "n2" }));
    await eventually(() => expect(podNames(inf, "n2")).to.deep.equal(["sent-into-the-void"]), 6000, "the restarted watch to deliver");
    // each watch asked for 1 or 2 s: the others may be found dead a little later than the pods one
    await eventually(() => expect(inf.status().idleRestarts).to.be.at.least(3), 6000, "every dead watch restarted");
    expect(inf.status().relists, "watched again from the last resourceVersion").to.equal(0);
    expect(await registry.getSingleMetricAsString("hvx_cluster_watch_idle_restarts_total")).to.match(/resource="pods"} [1-9]/);
  });

  it("given a quiet cluster (no event, no bookmark), re-watches each watch the API server ends at its timeoutSeconds without a warning or an error", async () => {
    await fake.close();
    fake = await startFakeKubeApiserver({ bookmarkIntervalMs: 600_000 });
    fake.controls.upsertNode(sampleNode({ name: "n2" }));
    const registry = new Registry();
    const lines: string[] = [];
    informer = new ClusterInformer({
      kubeConfig: fake.kubeConfig(),
      listApi: makeTimedApiClient(fake.kubeConfig(), CoreV1Api),
      defaults,
      log: createLogger("debug", { write: (line: string) => void lines.push(line) }),
      backoff: fastBackoff,
      // silent past watchIdleSeconds long before the fake ends each watch (1 or 2 s)
      watchIdleSeconds: 0.3,
      resyncSeconds: 1,
      metrics: createClusterMetrics(registry),
    });
    const inf = informer;
    await inf.start();
    await eventually(() => expect(inf.status().resources.every((r) => r.reconnects >= 2)).to.equal(true), 8000, "two renewals each");
    const levels = lines.map((l) => JSON.parse(l) as { level: number; msg: string });
    expect(levels.filter((l) => l.level >= 40).map((l) => l.msg)).to.deep.equal([]);
    expect(
      levels.some((l) => l.msg.startsWith("watch ended; watching again")),
      "a clean end is logged at debug",
    ).to.equal(true);
    expect(inf.status().errors).to.equal(0);
    expect(inf.status().idleRestarts).to.equal(0);
    expect(inf.status().relists, "watched again from the last resourceVersion").to.equal(0);
    expect(await registry.getSingleMetricAsString("hvx_cluster_errors_total")).to.not.match(/} [1-9]/);
    fake.controls.upsertPod(samplePod({ namespace: "team-a", name: "after-renewals", nodeName: "n2" }));
    await eventually(() => expect(podNames(inf, "n2")).to.deep.equal(["after-renewals"]), 4000, "the renewed watch to deliver");
  });

  it("given a watch gone silent while the API server answers 503, the watchdog restarts it and counts it; it recovers when the server does", async () => {
    informer = new ClusterInformer({
      kubeConfig: fake.kubeConfig(),
      listApi: makeTimedApiClient(fake.kubeConfig(), CoreV1Api),
      defaults,
      log: silentLogger(),
      backoff: fastBackoff,
      watchIdleSeconds: 0.3,
    });
    const inf = informer;
    await inf.start();
    await eventually(() => expect(fake.controls.stats().watchesOpen).to.equal(3));
    fake.controls.silenceWatches();
    fake.controls.setFault({ status5xx: 503 });
    await eventually(() => expect(inf.status().idleRestarts).to.be.at.least(3), 4000, "stalled watches detected");
    expect(inf.status().errors).to.be.greaterThan(0);
    fake.controls.setFault({});
    fake.controls.upsertPod(samplePod({ namespace: "team-a", name: "back", nodeName: "n2" }));
    await eventually(() => expect(podNames(inf, "n2")).to.deep.equal(["back"]), 6000);
  });

  it("given a watch whose response never starts, the watchdog ends it too", async () => {
    informer = new ClusterInformer({
      kubeConfig: fake.kubeConfig(),
      // the probe of the silent watch gets no answer either and gives up after 300 ms
      listApi: makeTimedApiClient(fake.kubeConfig(), CoreV1Api, 300),
      defaults,
      log: silentLogger(),
      backoff: fastBackoff,
      watchIdleSeconds: 0.3,
    });
    const inf = informer;
    await inf.start();
    await eventually(() => expect(fake.controls.stats().watchesOpen).to.equal(3));
    fake.controls.setFault({ latencyMs: 60_000 });
    fake.controls.dropWatches();
    await eventually(() => expect(inf.status().idleRestarts).to.be.at.least(3), 4000, "hung watch requests ended");
    fake.controls.setFault({});
    fake.controls.upsertPod(samplePod({ namespace: "team-a", name: "later", nodeName: "n2" }));
    await eventually(() => expect(podNames(inf, "n2")).to.deep.equal(["later"]), 4000);
  });

  it("given a list that gets no answer, gives up after requestTimeoutSeconds and retries", async () => {
    fake.controls.setFault({ latencyMs: 60_000 });
    informer = new ClusterInformer({
      kubeConfig: fake.kubeConfig(),
      listApi: makeTimedApiClient(fake.kubeConfig(), CoreV1Api, 200),
      defaults,
      log: silentLogger(),
      backoff: fastBackoff,
      syncTimeoutMs: 5000,
    });
    const inf = informer;
    const started = inf.start();
    await eventually(() => expect(inf.status().errors).to.be.at.least(3), 3000, "list timeouts");
    expect(inf.status().resources[0]?.lastError).to.match(/no answer from the Kubernetes API server within 0.2 s/);
    fake.controls.setFault({});
    await started;
    expect(podNames(inf, "n1")).to.deep.equal(["bound"]);
  });

  it("given the API server gone, keeps the view; start() against it rejects clearly", async () => {
    const inf = newInformer();
    await inf.start();
    await fake.close();
    await eventually(() => expect(inf.status().errors).to.be.greaterThan(0));
    expect(podNames(inf, "n1")).to.deep.equal(["bound"]);
    await inf.stop();
    const dead = new ClusterInformer({
      kubeConfig: fake.kubeConfig(),
      listApi: makeTimedApiClient(fake.kubeConfig(), CoreV1Api),
      defaults,
      log: silentLogger(),
      backoff: fastBackoff,
      syncTimeoutMs: 300,
    });
    try {
      await dead.start();
      expect.fail("start() should reject");
    } catch (err) {
      expect(err).to.be.instanceOf(ClusterSyncError);
      expect((err as Error).message).to.match(/not synced after 300 ms: nodes/);
    } finally {
      await dead.stop();
    }
    fake = await startFakeKubeApiserver();
  });
});
