import { CoordinationV1Api, CoreV1Api, PatchStrategy, setHeaderOptions } from "@kubernetes/client-node";
import { expect } from "chai";
import { startFakeKubeApiserver, sampleNode, samplePod, type FakeKubeApiserver } from "../../../mocks/kube-apiserver/index.js";

async function get(url: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.json() };
}

/** Reads a watch stream until `lines` lines or the server ends it. */
async function watchLines(url: string, lines: number): Promise<{ status: number; events: any[] }> {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal });
  const events: any[] = [];
  let buffer = "";
  const decoder = new TextDecoder();
  const reader = res.body!.getReader();
  while (events.length < lines) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let nl: number;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      events.push(JSON.parse(buffer.slice(0, nl)));
      buffer = buffer.slice(nl + 1);
    }
  }
  controller.abort();
  return { status: res.status, events };
}

describe("fake kube-apiserver wire behaviour", () => {
  let fake: FakeKubeApiserver;
  beforeEach(async () => {
    fake = await startFakeKubeApiserver({ bookmarkIntervalMs: 50 });
    fake.controls.upsertNode(sampleNode({ name: "n1" }));
    fake.controls.upsertNode(sampleNode({ name: "n2" }));
    fake.controls.upsertPod(samplePod({ namespace: "a", name: "p1", nodeName: "n1" }));
    fake.controls.upsertPod(samplePod({ namespace: "b", name: "p2" }));
  });
  afterEach(() => fake.close());

  it("given a list, answers a typed List with metadata.resourceVersion and pages with limit/continue", async () => {
    const first = await get(`${fake.url}/api/v1/nodes?limit=1`);
    expect(first.body.kind).to.equal("NodeList");
    expect(first.body.apiVersion).to.equal("v1");
    expect(first.body.items.map((n: any) => n.metadata.name)).to.deep.equal(["n1"]);
    expect(first.body.metadata.remainingItemCount).to.equal(1);
    const second = await get(`${fake.url}/api/v1/nodes?limit=1&continue=${first.body.metadata.continue}`);
    expect(second.body.items.map((n: any) => n.metadata.name)).to.deep.equal(["n2"]);
    expect(second.body.metadata.resourceVersion).to.equal(first.body.metadata.resourceVersion);
    expect(second.body.metadata).to.not.have.property("continue");
  });

  it("given field and label selectors, filters; an unsupported field is a 400 Status", async () => {
    const bound = await get(`${fake.url}/api/v1/pods?fieldSelector=spec.nodeName%21%3D`);
    expect(bound.body.items.map((p: any) => p.metadata.name)).to.deep.equal(["p1"]);
    const inB = await get(`${fake.url}/api/v1/namespaces/b/pods`);
    expect(inB.body.items.map((p: any) => p.metadata.name)).to.deep.equal(["p2"]);
    const byLabel = await get(`${fake.url}/api/v1/nodes?labelSelector=kubernetes.io%2Fhostname%3Dn2`);
    expect(byLabel.body.items.map((n: any) => n.metadata.name)).to.deep.equal(["n2"]);
    const bad = await get(`${fake.url}/api/v1/pods?fieldSelector=spec.bogus%3Dx`);
    expect(bad.status).to.equal(400);
    expect(bad.body).to.include({ kind: "Status", status: "Failure", reason: "BadRequest", code: 400 });
  });

  it("given a watch from a resourceVersion, streams later changes as JSON lines, then bookmarks", async () => {
    const rv = fake.controls.resourceVersion();
    fake.controls.upsertPod(samplePod({ namespace: "a", name: "p3", nodeName: "n2" }));
    fake.controls.upsertPod(samplePod({ namespace: "a", name: "p3", nodeName: "n2", phase: "Succeeded" }));
    fake.controls.deletePod("a", "p3");
    const { status, events } = await watchLines(`${fake.url}/api/v1/pods?watch=true&resourceVersion=${rv}&allowWatchBookmarks=true`, 4);
    expect(status).to.equal(200);
    expect(events.map((e) => e.type)).to.deep.equal(["ADDED", "MODIFIED", "DELETED", "BOOKMARK"]);
    expect(events[0].object.metadata.name).to.equal("p3");
    expect(Number(events[2].object.metadata.resourceVersion)).to.equal(fake.controls.resourceVersion());
    expect(events[3].object).to.deep.equal({ kind: "Pod", apiVersion: "v1", metadata: { resourceVersion: String(fake.controls.resourceVersion()) } });
  });

  it("given a compacted resourceVersion, sends an ERROR event with a 410 Expired Status (or HTTP 410 when asked)", async () => {
    const rv = fake.controls.resourceVersion();
    fake.controls.upsertNode(sampleNode({ name: "n3" }));
    fake.controls.compact();
    const { status, events } = await watchLines(`${fake.url}/api/v1/nodes?watch=true&resourceVersion=${rv}`, 2);
    expect(status).to.equal(200);
    expect(events).to.have.length(1);
    expect(events[0].type).to.equal("ERROR");
    expect(events[0].object).to.include({ kind: "Status", apiVersion: "v1", status: "Failure", reason: "Expired", code: 410 });
    expect(events[0].object.message).to.match(/^too old resource version: \d+ \(\d+\)$/);
    fake.controls.setExpiredAsHttp(true);
    const http = await get(`${fake.url}/api/v1/nodes?watch=true&resourceVersion=${rv}`);
    expect(http.status).to.equal(410);
    expect(http.body.reason).to.equal("Expired");
  });

  it("given the three patch types from client-node, applies each to the node", async () => {
    const api = fake.kubeConfig().makeApiClient(CoreV1Api);
    await api.patchNode({ name: "n1", body: [{ op: "add", path: "/metadata/labels/hvx.io~1esxi-host", value: "esx-1" }] });
    await api.patchNode({ name: "n1", body: { metadata: { annotations: { "hvx.io/host-heat": "cool" } } } }, setHeaderOptions("Content-Type", PatchStrategy.MergePatch));
    await api.patchNode({ name: "n1", body: { metadata: { labels: { "kubernetes.io/os": null } } } }, setHeaderOptions("Content-Type", PatchStrategy.StrategicMergePatch));
    const node = fake.controls.getNode("n1");
    expect(node?.metadata.labels["hvx.io/esxi-host"]).to.equal("esx-1");
    expect(node?.metadata.labels).to.not.have.property("kubernetes.io/os");
    expect(node?.metadata.annotations["hvx.io/host-heat"]).to.equal("cool");
    expect(fake.controls.stats().patchContentTypes).to.deep.equal({
      "application/json-patch+json": 1,
      "application/merge-patch+json": 1,
      "application/strategic-merge-patch+json": 1,
    });
    const failing = await fetch(`${fake.url}/api/v1/nodes/n1`, {
      method: "PATCH",
      headers: { "Content-Type": "application/json-patch+json" },
      body: JSON.stringify([{ op: "replace", path: "/metadata/labels/missing", value: "x" }]),
    });
    expect(failing.status).to.equal(422);
    const yaml = await fetch(`${fake.url}/api/v1/nodes/n1`, { method: "PATCH", headers: { "Content-Type": "application/apply-patch+yaml" }, body: "{}" });
    expect(yaml.status).to.equal(415);
  });

  it("given Lease writes, enforces create-once and resourceVersion conflicts (409) and 404 for a missing Lease", async () => {
    const api = fake.kubeConfig().makeApiClient(CoordinationV1Api);
    const missing = await get(`${fake.url}/apis/coordination.k8s.io/v1/namespaces/hvx/leases/l1`);
    expect(missing.status).to.equal(404);
    expect(missing.body).to.include({ reason: "NotFound", message: 'leases.coordination.k8s.io "l1" not found' });
    const created = await api.createNamespacedLease({ namespace: "hvx", body: { metadata: { name: "l1" }, spec: { holderIdentity: "a" } } });
    const again = await api.createNamespacedLease({ namespace: "hvx", body: { metadata: { name: "l1" } } }).catch((e) => e);
    expect(again.code).to.equal(409);
    const stale = { ...created, spec: { holderIdentity: "b" } };
    await api.replaceNamespacedLease({ name: "l1", namespace: "hvx", body: { ...created, spec: { holderIdentity: "a2" } } });
    const conflict = await api.replaceNamespacedLease({ name: "l1", namespace: "hvx", body: stale }).catch((e) => e);
    expect(conflict.code).to.equal(409);
    expect(fake.controls.getLease("hvx", "l1")?.spec.holderIdentity).to.equal("a2");
  });

  it("given an injected fault, answers every request with it; unknown paths get a 404 Status", async () => {
    const unknown = await get(`${fake.url}/api/v1/secrets`);
    expect(unknown.status).to.equal(404);
    expect(unknown.body.kind).to.equal("Status");
    fake.controls.setFault({ status5xx: 503 });
    const failed = await get(`${fake.url}/api/v1/nodes`);
    expect(failed.status).to.equal(503);
    expect(failed.body.reason).to.equal("ServiceUnavailable");
  });
});
