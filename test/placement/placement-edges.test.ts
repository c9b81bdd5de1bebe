import { expect } from "chai";
import { projectHost } from "../../src/placement/burst-guard.js";
import { decideNode, type PlacementContext } from "../../src/placement/decide-node.js";
import { exemptionOf } from "../../src/placement/exemption.js";
import { HOST_SPREAD_ANNOTATION, HOST_SPREAD_MAX_SKEW_ANNOTATION, replicasOn, spreadRuleOf } from "../../src/placement/host-spread.js";
import { podDemand, type ContainerResourceSpec } from "../../src/placement/pod-demand.js";
import { byteSwapUuid, mapNodeToVm, vmIndexOf } from "../../src/placement/map-node.js";
import { listed, podTotals } from "../../src/placement/pod-totals.js";
import { amounts, clusterViewOf, nodeView, podMetaOf, podView } from "../fixtures/cluster.js";
import { hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";

// Edges and messages found by mutation testing (docs/testing.md): each case fails on a
// change to src/placement that the other tests let through.

const Mi = 1024 * 1024;
const defaults = { cpuMilli: 100, memoryBytes: 128 * Mi };
const ORIGINALS = "hvx.io/original-requests";

describe("podDemand problems", () => {
  const app = (resources: ContainerResourceSpec["resources"], name = "app"): ContainerResourceSpec => ({ name, resources });

  it("names the container, the field and the resource of a bad quantity, once", () => {
    const d = podDemand({ containers: [app({ requests: { cpu: "lots" }, limits: { cpu: "1" } })] }, undefined, defaults);
    expect(d.problems).to.deep.equal(['containers[app].resources.requests.cpu: invalid quantity "lots", counted as absent']);
    expect(d.requests.cpuMilli).to.equal(1000); // the limit stands in for the bad request
  });

  it("names an unnamed container by its index, init containers and the overhead", () => {
    const d = podDemand(
      {
        containers: [{ resources: { requests: { memory: "-1Gi" } } }],
        initContainers: [app({ limits: { cpu: "x" } }, "init")],
        overhead: { cpu: "?" },
      },
      undefined,
      defaults,
    );
    expect(d.problems).to.deep.equal([
      'overhead.cpu: invalid quantity "?", counted as absent',
      'initContainers[init].resources.limits.cpu: invalid quantity "x", counted as absent',
      'containers[0].resources.requests.memory: invalid quantity "-1Gi", counted as absent',
    ]);
  });

  it("treats a null quantity as absent, without a problem; zero is a valid quantity", () => {
    const d = podDemand({ containers: [app({ requests: { cpu: null as unknown as string, memory: "0" } })] }, undefined, defaults);
    expect(d.problems).to.deep.equal([]);
    expect(d.requests).to.deep.equal({ cpuMilli: 0, memoryBytes: 0 });
  });

  it("adds the overhead to the originals of a scaled pod", () => {
    const d = podDemand(
      { containers: [app({ requests: { cpu: "250m" } })], overhead: { cpu: "100m" } },
      { [ORIGINALS]: JSON.stringify({ containers: { app: { cpu: "500m" } } }) },
      defaults,
    );
    expect(d.requests.cpuMilli).to.equal(350);
    expect(d.expectedDemand.cpuMilli).to.equal(600);
  });

  it("says why an original-requests annotation is ignored, and falls back to the requests", () => {
    const cases: Array<[string, string]> = [
      ["{", "not valid JSON"],
      ["[]", "not a JSON object"],
      ['{"containers":[]}', "containers is not an object"],
      ['{"initContainers":{"init":[]}}', "initContainers.init is not an object"],
      ['{"containers":{"app":{"cpu":true}}}', "containers.app.cpu is not a quantity"],
    ];
    for (const [text, why] of cases) {
      const d = podDemand({ containers: [app({ requests: { cpu: "250m" } })] }, { [ORIGINALS]: text }, defaults);
      expect(d.problems, text).to.deep.equal([`annotation ${ORIGINALS}: ${why}, ignored`]);
      expect(d.expectedDemand.cpuMilli, text).to.equal(250);
    }
    const bad = podDemand(
      { containers: [app({ requests: { cpu: "250m" } })] },
      { [ORIGINALS]: '{"containers":{"app":{"cpu":"lots","memory":"1Gi"}}}' },
      defaults,
    );
    expect(bad.problems).to.deep.equal([`annotation ${ORIGINALS} containers.app.cpu: invalid quantity "lots", counted as absent`]);
    expect(bad.expectedDemand.cpuMilli).to.equal(250);
    expect(bad.expectedDemand.memoryBytes).to.equal(defaults.memoryBytes);
  });

  it("accepts numbers in the annotation", () => {
    const d = podDemand(
      { containers: [app({ requests: { cpu: "250m" } })] },
      { [ORIGINALS]: '{"containers":{"app":{"cpu":2}}}' },
      defaults,
    );
    expect(d.problems).to.deep.equal([]);
    expect(d.expectedDemand.cpuMilli).to.equal(2000);
  });
});

describe("pod totals and replica counts with empty uids", () => {
  it("never lists a pod without a uid, even when the list has one", () => {
    const noUid = podView({ uid: "", ownerKey: "ReplicaSet/shop/web" });
    const totals = podTotals([noUid]);
    expect([...totals.uids]).to.deep.equal([]);
    expect(listed(totals, podView({ uid: "" }))).to.equal(false);
    const withUid = podView({ uid: "u-1" });
    expect(listed(podTotals([withUid]), withUid)).to.equal(true);
    expect(listed(podTotals([withUid]), podView({ uid: "u-2" }))).to.equal(false);
  });

  it("counts the incoming pod out of its own host only when it is listed there under the same owner", () => {
    const owner = "ReplicaSet/shop/web";
    const a = podView({ uid: "u-a", ownerKey: owner });
    const b = podView({ uid: "u-b", ownerKey: owner });
    const other = podView({ uid: "u-o", ownerKey: "ReplicaSet/shop/api" });
    expect(replicasOn([a, b, other], owner, "")).to.equal(2);
    expect(replicasOn([a, b, other], owner, "u-x")).to.equal(2);
    expect(replicasOn([a, b, other], owner, "u-a")).to.equal(1);
    expect(replicasOn([a, b, other], owner, "u-o")).to.equal(2);
    expect(replicasOn([podView({ uid: "", ownerKey: owner })], owner, "")).to.equal(1);
  });

  it("reads the spread annotations by their names; max skew defaults to 1 and must be a whole number >= 1", () => {
    const pod = podView({ ownerKey: "ReplicaSet/shop/web" });
    expect(spreadRuleOf(pod, { "hvx.io/host-spread": "required", "hvx.io/host-spread-max-skew": "2" })).to.deep.include({
      required: true,
      maxSkew: 2,
    });
    expect([HOST_SPREAD_ANNOTATION, HOST_SPREAD_MAX_SKEW_ANNOTATION]).to.deep.equal(["hvx.io/host-spread", "hvx.io/host-spread-max-skew"]);
    expect(spreadRuleOf(pod, {})).to.deep.include({ required: false, maxSkew: 1 });
    expect(spreadRuleOf(pod, { "hvx.io/host-spread-max-skew": "1" })!.maxSkew).to.equal(1);
    expect(spreadRuleOf(pod, { "hvx.io/host-spread-max-skew": "0" })!.maxSkew).to.equal(1);
    expect(spreadRuleOf(pod, { "hvx.io/host-spread-max-skew": "1.5" })!.maxSkew).to.equal(1);
    expect(spreadRuleOf(pod, { "hvx.io/host-spread-max-skew": "" })!.maxSkew).to.equal(1);
  });
});

// Built inside each test: projectHost, vmIndexOf and podTotals memoise by object identity,
// so fixtures shared across runs (as Stryker's mocha runner reuses them) would hide a change.
describe("projectHost and vmIndexOf with fresh snapshots", () => {
  it("projects pending memory as a share of the host's memory, and none on a host without memory", () => {
    const pending = () => ({ cpuMilli: 0, memoryBytes: 8 * 1024 * Mi, pods: 1 });
    expect(projectHost(hostView(), pending()).metrics!.memUsagePercent).to.be.closeTo(41.5625, 1e-9);
    expect(projectHost(hostView({ memoryMiB: 0 }), pending()).metrics!.memUsagePercent).to.equal(40);
    expect(projectHost(hostView({ cpuCores: 0, memoryMiB: 0 }), { cpuMilli: 1000, memoryBytes: Mi, pods: 1 }).metrics).to.deep.include({
      cpuUsagePercent: 30,
      memUsagePercent: 40,
    });
  });

  it("maps a name shared by two VMs to the powered-on one, whatever their order", () => {
    const on = (id: string) =>
      vmView({ id, name: "w1", biosUuid: `4226000${id.slice(-1)}-0000-0000-0000-000000000000`, powerState: "POWERED_ON" });
    const off = (id: string) =>
      vmView({ id, name: "w1", biosUuid: `4226000${id.slice(-1)}-0000-0000-0000-000000000000`, powerState: "POWERED_OFF" });
    const byName = (vms: ReturnType<typeof vmView>[]) =>
      mapNodeToVm({ name: "w1" }, vmIndexOf(inventoryOf([hostView()], vms)), ["name"])?.id;
    expect(byName([off("vm-1"), on("vm-2")])).to.equal("vm-2");
    expect(byName([on("vm-1"), off("vm-2")])).to.equal("vm-1");
    expect(byName([off("vm-1"), off("vm-2")])).to.equal("vm-1");
    expect(byName([on("vm-1"), on("vm-2")])).to.equal("vm-1");
  });

  it("maps a providerID with extra slashes, and byte-swaps only whole UUIDs", () => {
    const uuid = "42267e63-e4e0-c681-b5dd-f69dfa981039";
    const index = vmIndexOf(inventoryOf([hostView()], [vmView({ id: "vm-1", biosUuid: uuid })]));
    expect(mapNodeToVm({ name: "x", providerID: `vsphere:///${uuid}` }, index, ["providerID"])?.id).to.equal("vm-1");
    expect(mapNodeToVm({ name: "x", providerID: `vsphere:////${uuid}` }, index, ["providerID"])?.id).to.equal("vm-1");
    expect(byteSwapUuid(uuid)).to.equal("637e2642-e0e4-81c6-b5dd-f69dfa981039");
    expect(byteSwapUuid(`x${uuid}`)).to.equal(undefined);
    expect(byteSwapUuid(`${uuid}0`)).to.equal(undefined);
  });
});

describe("exemptionOf priority boundary", () => {
  const pod = (priority: number | undefined) => ({
    namespace: "shop",
    name: "p",
    ownerKinds: [],
    annotations: {},
    ...(priority !== undefined ? { priority } : {}),
  });
  const policy = { namespaces: [], priorityClassNames: [] };
  it("exempts from kube-scheduler's system-critical priority (2000000000) up, not below", () => {
    expect(exemptionOf(pod(2_000_000_000), policy)).to.deep.equal({ by: "system-critical priority 2000000000", scope: "all" });
    expect(exemptionOf(pod(1_999_999_999), policy)).to.equal(undefined);
    expect(exemptionOf(pod(undefined), policy)).to.equal(undefined);
  });
});

describe("decideNode for a node hvx cannot map", () => {
  it("rejects it (resolvable) when it is over its limits, rather than having no opinion", () => {
    const inventory = inventoryOf([hostView({ id: "host-1" })], [vmView({ id: "vm-1", hostId: "host-1" })]);
    const node = nodeView({ name: "node-x", providerID: "vsphere://42269999-0000-0000-0000-000000000000" });
    const incoming = podView({ uid: "incoming", limits: amounts(2, 2), boundAtMs: undefined });
    const pods = [podView({ nodeName: "node-x", limits: amounts(16, 1) })];
    const ctx: PlacementContext = {
      inventory,
      policy: DEFAULT_POLICY,
      nowMs: NOW_MS,
      cluster: { view: clusterViewOf([node], pods), pod: incoming },
    };
    const d = decideNode({ name: "node-x", providerID: node.providerID! }, podMetaOf(incoming), ctx);
    expect([d.verdict, d.unresolvable, d.noOpinion]).to.deep.equal(["reject", false, false]);
    expect(d.reasons.map((r) => r.code)).to.deep.equal(["limit_overcommit"]);
    const fits = decideNode({ name: "node-x", providerID: node.providerID! }, podMetaOf(incoming), {
      ...ctx,
      cluster: { view: clusterViewOf([node]), pod: incoming },
    });
    expect([fits.verdict, fits.noOpinion, fits.reasons[0]?.code]).to.deep.equal(["pass", true, "node_unmapped"]);
  });
});
