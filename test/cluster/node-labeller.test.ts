import { CoreV1Api } from "@kubernetes/client-node";
import { expect } from "chai";
import { startFakeKubeApiserver, sampleNode, type FakeKubeApiserver } from "../../mocks/kube-apiserver/index.js";
import { ClusterInformer } from "../../src/cluster/cluster-informer.js";
import { makeTimedApiClient } from "../../src/cluster/timed-api-client.js";
import { NodeLabeller, type DesiredNodeMarks } from "../../src/cluster/node-labeller.js";
import { silentLogger } from "../../src/observability/logger.js";
import type { HeatReading } from "../../src/placement/heat-mark.js";
import { eventually } from "../fixtures/eventually.js";

const HOT: HeatReading = { heat: "hot", rules: ["vm-cpu-ready"], clear: false, sampleMs: 1 };
const COOL: HeatReading = { heat: "cool", rules: [], clear: true, sampleMs: 1 };

describe("NodeLabeller against the fake API server", function () {
  this.timeout(10_000);
  let fake: FakeKubeApiserver;
  let informer: ClusterInformer;
  let leader: boolean;
  let desired: Map<string, DesiredNodeMarks>;

  beforeEach(async () => {
    fake = await startFakeKubeApiserver({ bookmarkIntervalMs: 100 });
    fake.controls.upsertNode(sampleNode({ name: "n1" }));
    fake.controls.upsertNode(
      sampleNode({ name: "n2", labels: { "hvx.io/esxi-host": "esx-02" }, annotations: { "hvx.io/host-heat": "cool" } }),
    );
    informer = new ClusterInformer({
      kubeConfig: fake.kubeConfig(),
      listApi: makeTimedApiClient(fake.kubeConfig(), CoreV1Api),
      defaults: { cpuMilli: 1, memoryBytes: 1 },
      log: silentLogger(),
      backoff: { initialMs: 20, maxMs: 100 },
    });
    await informer.start();
    leader = true;
    desired = new Map<string, DesiredNodeMarks>([
      ["n1", { hostLabel: "esx 01/rack", heat: HOT }],
      ["n2", { hostLabel: "esx-02", heat: COOL }],
      ["ghost", { hostLabel: "esx-09", heat: COOL }],
    ]);
  });
  afterEach(async () => {
    await informer.stop();
    await fake.close();
  });

  function labeller(over: Partial<ConstructorParameters<typeof NodeLabeller>[0]> = {}): NodeLabeller {
    const api = fake.kubeConfig().makeApiClient(CoreV1Api);
    return new NodeLabeller({
      api,
      elector: { isLeader: () => leader },
      cluster: informer,
      desired: () => desired,
      log: silentLogger(),
      hysteresis: { hysteresisPercent: 10, minHeatChangeSeconds: 0 },
      ...over,
    });
  }

  it("given one node out of date, patches only that node with a merge patch of the label and annotation", async () => {
    const l = labeller();
    const rvBefore = fake.controls.getNode("n2")?.metadata.resourceVersion;
    const round = await l.reconcileOnce();
    expect(round).to.deep.equal({ patched: ["n1"], failed: [] });
    const n1 = fake.controls.getNode("n1");
    expect(n1?.metadata.labels["hvx.io/esxi-host"]).to.equal("esx-01-rack");
    expect(n1?.metadata.labels["kubernetes.io/hostname"]).to.equal("n1", "other labels kept");
    expect(n1?.metadata.annotations["hvx.io/host-heat"]).to.equal("hot: vm-cpu-ready");
    expect(fake.controls.getNode("n2")?.metadata.resourceVersion).to.equal(rvBefore);
    expect(fake.controls.stats().patchContentTypes).to.deep.equal({ "application/merge-patch+json": 1 });
  });

  it("given nothing changed since the last round, patches nothing; a change of heat patches again", async () => {
    const l = labeller();
    await l.reconcileOnce();
    await eventually(() => expect(informer.latest().nodes.get("n1")?.labels["hvx.io/esxi-host"]).to.equal("esx-01-rack"));
    expect((await l.reconcileOnce()).patched).to.deep.equal([]);
    desired.set("n1", { hostLabel: "esx 01/rack", heat: { ...COOL, sampleMs: 2 } });
    expect((await l.reconcileOnce()).patched).to.deep.equal([], "a hot node needs two clear polls");
    desired.set("n1", { hostLabel: "esx 01/rack", heat: { ...COOL, sampleMs: 3 } });
    expect((await l.reconcileOnce()).patched).to.deep.equal(["n1"]);
    expect(fake.controls.getNode("n1")?.metadata.annotations["hvx.io/host-heat"]).to.equal("cool");
    expect(fake.controls.stats().patches).to.equal(2);
  });

  it("given a patch in flight not yet seen by the informer, does not send it twice", async () => {
    const l = labeller();
    await l.reconcileOnce();
    const second = await l.reconcileOnce();
    expect(second.patched).to.deep.equal([]);
  });

  it("given someone reverts a patched node, patches it again within two rounds", async () => {
    const l = labeller();
    await l.reconcileOnce();
    await eventually(() => expect(informer.latest().nodes.get("n1")?.labels["hvx.io/esxi-host"]).to.equal("esx-01-rack"));
    fake.controls.upsertNode(sampleNode({ name: "n1" }));
    await eventually(() => expect(informer.latest().nodes.get("n1")?.labels).to.not.have.property("hvx.io/esxi-host"));
    const patched = [...(await l.reconcileOnce()).patched, ...(await l.reconcileOnce()).patched];
    expect(patched).to.deep.equal(["n1"]);
    expect(fake.controls.getNode("n1")?.metadata.labels["hvx.io/esxi-host"]).to.equal("esx-01-rack");
  });

  it("given not the leader, writes nothing", async () => {
    leader = false;
    expect(await labeller().reconcileOnce()).to.deep.equal({ patched: [], failed: [] });
    expect(fake.controls.stats().patches).to.equal(0);
  });

  it("given leadership lost in the middle of a round, sends no further patch", async () => {
    let checks = 0;
    desired.set("n2", { hostLabel: "esx-03", heat: HOT });
    const l = labeller({ elector: { isLeader: () => ++checks <= 2 } });
    const round = await l.reconcileOnce();
    expect(round.patched).to.deep.equal(["n1"], "n1 patched while leader; n2 not, leadership had ended");
    expect(fake.controls.getNode("n2")?.metadata.labels["hvx.io/esxi-host"]).to.equal("esx-02");
  });

  it("given a hot annotation written by an earlier leader, keeps the node hot until two clear polls", async () => {
    fake.controls.upsertNode(
      sampleNode({ name: "n2", labels: { "hvx.io/esxi-host": "esx-02" }, annotations: { "hvx.io/host-heat": "hot: cpu-ready" } }),
    );
    await eventually(() => expect(informer.latest().nodes.get("n2")?.annotations["hvx.io/host-heat"]).to.equal("hot: cpu-ready"));
    desired.delete("n1");
    const l = labeller();
    desired.set("n2", { hostLabel: "esx-02", heat: { ...COOL, sampleMs: 10 } });
    expect((await l.reconcileOnce()).patched).to.deep.equal([]);
    desired.set("n2", { hostLabel: "esx-02", heat: { ...COOL, sampleMs: 11 } });
    expect((await l.reconcileOnce()).patched).to.deep.equal(["n2"]);
    expect(fake.controls.getNode("n2")?.metadata.annotations["hvx.io/host-heat"]).to.equal("cool");
  });

  it("given the API server failing, reports the node as failed and succeeds on a later round", async () => {
    const l = labeller();
    fake.controls.setFault({ status5xx: 500 });
    expect((await l.reconcileOnce()).failed).to.deep.equal(["n1"]);
    fake.controls.setFault({});
    expect((await l.reconcileOnce()).patched).to.deep.equal(["n1"]);
  });
});
