import { CoordinationV1Api, CoreV1Api, PatchStrategy, setHeaderOptions } from "@kubernetes/client-node";
import { expect } from "chai";
import { FAKE_TOKENS, startFakeKubeApiserver, sampleNode, samplePod, type FakeKubeApiserver } from "../../../mocks/kube-apiserver/index.js";

const ADMIN = { Authorization: `Bearer ${FAKE_TOKENS.admin}` };
const HVX = { Authorization: `Bearer ${FAKE_TOKENS.hvx}` };

async function get(url: string, headers: Record<string, string> = ADMIN): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { headers });
  return { status: res.status, body: await res.json() };
}

async function call(
  method: string,
  url: string,
  body: unknown,
  headers: Record<string, string> = ADMIN,
): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { method, headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

/** Reads a watch stream until `lines` lines or the server ends it. */
async function watchLines(url: string, lines: number): Promise<{ status: number; events: any[] }> {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal, headers: ADMIN });
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
    expect(events[3].object).to.deep.equal({
      kind: "Pod",
      apiVersion: "v1",
      metadata: { resourceVersion: String(fake.controls.resourceVersion()) },
    });
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
    await api.patchNode(
      { name: "n1", body: { metadata: { annotations: { "hvx.io/host-heat": "cool" } } } },
      setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
    );
    await api.patchNode(
      { name: "n1", body: { metadata: { labels: { "kubernetes.io/os": null } } } },
      setHeaderOptions("Content-Type", PatchStrategy.StrategicMergePatch),
    );
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
      headers: { "Content-Type": "application/json-patch+json", ...ADMIN },
      body: JSON.stringify([{ op: "replace", path: "/metadata/labels/missing", value: "x" }]),
    });
    expect(failing.status).to.equal(422);
    const yaml = await fetch(`${fake.url}/api/v1/nodes/n1`, {
      method: "PATCH",
      headers: { "Content-Type": "application/apply-patch+yaml", ...ADMIN },
      body: "{}",
    });
    expect(yaml.status).to.equal(415);
  });

  it("given Lease writes, enforces create-once and resourceVersion conflicts (409) and 404 for a missing Lease", async () => {
    const api = fake.kubeConfig("admin").makeApiClient(CoordinationV1Api);
    const missing = await get(`${fake.url}/apis/coordination.k8s.io/v1/namespaces/hvx/leases/l1`);
    expect(missing.status).to.equal(404);
    expect(missing.body).to.include({ reason: "NotFound", message: 'leases.coordination.k8s.io "l1" not found' });
    const created = await api.createNamespacedLease({
      namespace: "hvx",
      body: { metadata: { name: "l1" }, spec: { holderIdentity: "a" } },
    });
    const again = await api.createNamespacedLease({ namespace: "hvx", body: { metadata: { name: "l1" } } }).catch((e) => e);
    expect(again.code).to.equal(409);
    const stale = { ...created, spec: { holderIdentity: "b" } };
    await api.replaceNamespacedLease({ name: "l1", namespace: "hvx", body: { ...created, spec: { holderIdentity: "a2" } } });
    const conflict = await api.replaceNamespacedLease({ name: "l1", namespace: "hvx", body: stale }).catch((e) => e);
    expect(conflict.code).to.equal(409);
    expect(fake.controls.getLease("hvx", "l1")?.spec.holderIdentity).to.equal("a2");
  });

  it("given a Lease update without metadata.resourceVersion, refuses it with 422 Invalid as the real registry does; a Node update without one is allowed", async () => {
    const api = fake.kubeConfig().makeApiClient(CoordinationV1Api);
    const created = await api.createNamespacedLease({
      namespace: "hvx-system",
      body: { metadata: { name: "hvx-rebalancer" }, spec: { holderIdentity: "a" } },
    });
    const leaseUrl = `${fake.url}/apis/coordination.k8s.io/v1/namespaces/hvx-system/leases/hvx-rebalancer`;
    const bare = await call(
      "PUT",
      leaseUrl,
      {
        apiVersion: "coordination.k8s.io/v1",
        kind: "Lease",
        metadata: { name: "hvx-rebalancer", namespace: "hvx-system" },
        spec: { holderIdentity: "b" },
      },
      HVX,
    );
    expect(bare.status).to.equal(422);
    expect(bare.body).to.deep.equal({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message:
        'leases.coordination.k8s.io "hvx-rebalancer" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
      reason: "Invalid",
      details: {
        name: "hvx-rebalancer",
        group: "coordination.k8s.io",
        kind: "leases",
        causes: [
          {
            reason: "FieldValueInvalid",
            message: "Invalid value: 0x0: must be specified for an update",
            field: "metadata.resourceVersion",
          },
        ],
      },
      code: 422,
    });
    const empty = await call("PUT", leaseUrl, { metadata: { name: "hvx-rebalancer", resourceVersion: "" }, spec: {} }, HVX);
    expect(empty.status).to.equal(422);
    const stale = await call("PUT", leaseUrl, { metadata: { name: "hvx-rebalancer", resourceVersion: "1" }, spec: {} }, HVX);
    expect(stale.status).to.equal(409);
    expect(stale.body).to.include({ kind: "Status", reason: "Conflict", code: 409 });
    expect(stale.body.message).to.equal(
      'Operation cannot be fulfilled on leases.coordination.k8s.io "hvx-rebalancer": the object has been modified; please apply your changes to the latest version and try again',
    );
    expect(fake.controls.getLease("hvx-system", "hvx-rebalancer")?.spec.holderIdentity).to.equal("a");
    const ok = await call("PUT", leaseUrl, { ...created, spec: { holderIdentity: "c" } }, HVX);
    expect(ok.status).to.equal(200);
    const node = fake.controls.getNode("n1")!;
    delete node.metadata.resourceVersion;
    const nodeUpdate = await call("PUT", `${fake.url}/api/v1/nodes/n1`, node);
    expect(nodeUpdate.status, "Nodes allow unconditional update").to.equal(200);
  });

  it("given no bearer token or an unknown one, answers 401 with a Status", async () => {
    for (const headers of [{}, { Authorization: "Bearer nope" }, { Authorization: "Basic YTpi" }] as Record<string, string>[]) {
      const res = await get(`${fake.url}/api/v1/nodes`, headers);
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal({
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        message: "Unauthorized",
        reason: "Unauthorized",
        code: 401,
      });
    }
    expect(fake.controls.stats().unauthorized).to.equal(3);
  });

  it("given hvx's service account, allows exactly what manifests/base/rbac.yaml grants and answers anything else 403 with a real Status", async () => {
    const allowed = [
      await get(`${fake.url}/api/v1/nodes`, HVX),
      await get(`${fake.url}/api/v1/nodes/n1`, HVX),
      await get(`${fake.url}/api/v1/pods?fieldSelector=spec.nodeName%21%3D`, HVX),
      await get(`${fake.url}/api/v1/namespaces`, HVX),
      await call(
        "PATCH",
        `${fake.url}/api/v1/nodes/n1`,
        { metadata: { labels: { x: "y" } } },
        { ...HVX, "Content-Type": "application/merge-patch+json" },
      ),
      await get(`${fake.url}/apis/coordination.k8s.io/v1/namespaces/hvx-system/leases/hvx-rebalancer`, HVX),
    ];
    expect(allowed.map((r) => r.status)).to.deep.equal([200, 200, 200, 200, 200, 404]);
    // Issue 28: get/update only on hvx's own Leases (resourceNames).
    expect((await get(`${fake.url}/apis/coordination.k8s.io/v1/namespaces/hvx-system/leases/kube-scheduler`, HVX)).status).to.equal(403);
    expect((await get(`${fake.url}/version`, HVX)).status, "discovery paths: any authenticated user (not served here)").to.equal(404);
    const nonResource = await get(`${fake.url}/metrics`, HVX);
    expect(nonResource.status).to.equal(403);
    expect(nonResource.body.message).to.equal('forbidden: User "system:serviceaccount:hvx-system:hvx" cannot get path "/metrics"');

    const listSecrets = await get(`${fake.url}/api/v1/secrets`, HVX);
    expect(listSecrets.status, "authorised before routed: 403, not 404").to.equal(403);
    expect(listSecrets.body).to.deep.equal({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message:
        'secrets is forbidden: User "system:serviceaccount:hvx-system:hvx" cannot list resource "secrets" in API group "" at the cluster scope',
      reason: "Forbidden",
      details: { kind: "secrets" },
      code: 403,
    });
    expect((await get(`${fake.url}/api/v1/namespaces/a/pods/p1`, HVX)).status, "pods: get (hvx explain) allowed").to.equal(200);
    const podInA = await call("DELETE", `${fake.url}/api/v1/namespaces/a/pods/p1`, undefined, HVX);
    expect(podInA.status, "pods: get/list/watch only").to.equal(403);
    expect(podInA.body.message).to.equal(
      'pods "p1" is forbidden: User "system:serviceaccount:hvx-system:hvx" cannot delete resource "pods" in API group "" in the namespace "a"',
    );
    expect(podInA.body.details).to.deep.equal({ name: "p1", kind: "pods" });
    const elsewhere = await call(
      "POST",
      `${fake.url}/apis/coordination.k8s.io/v1/namespaces/kube-system/leases`,
      { metadata: { name: "kube-scheduler" } },
      HVX,
    );
    expect(elsewhere.status, "Leases only in hvx-system").to.equal(403);
    expect(elsewhere.body.message).to.equal(
      'leases.coordination.k8s.io is forbidden: User "system:serviceaccount:hvx-system:hvx" cannot create resource "leases" in API group "coordination.k8s.io" in the namespace "kube-system"',
    );
    expect(elsewhere.body.details).to.deep.equal({ group: "coordination.k8s.io", kind: "leases" });
    const deleteNode = await fetch(`${fake.url}/api/v1/nodes/n1`, { method: "DELETE", headers: HVX });
    expect(deleteNode.status).to.equal(403);
    const updatePod = await call("PUT", `${fake.url}/api/v1/namespaces/a/pods/p1`, fake.controls.getPod("a", "p1"), HVX);
    expect(updatePod.status).to.equal(403);
    expect(fake.controls.getNode("n1")).to.not.equal(undefined);
    expect(fake.controls.stats().forbidden).to.deep.equal([
      "get coordination.k8s.io/leases hvx-system/kube-scheduler",
      "get /metrics",
      "list /secrets",
      "delete /pods a/p1",
      "create coordination.k8s.io/leases kube-system/",
      "delete /nodes n1",
      "update /pods a/p1",
    ]);
  });

  it("given RBAC text of its own, enforces that instead (a missing verb fails the informer's list)", async () => {
    const narrow = await startFakeKubeApiserver({
      rbac: [
        "apiVersion: rbac.authorization.k8s.io/v1",
        "kind: ClusterRole",
        "metadata: { name: only-nodes }",
        "rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }]",
        "---",
        "apiVersion: rbac.authorization.k8s.io/v1",
        "kind: ClusterRoleBinding",
        "metadata: { name: only-nodes }",
        "roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: only-nodes }",
        "subjects: [{ kind: ServiceAccount, name: hvx, namespace: hvx-system }]",
      ].join("\n"),
    });
    try {
      const api = narrow.kubeConfig().makeApiClient(CoreV1Api);
      expect((await api.listNode()).items).to.deep.equal([]);
      const err = await api.listPodForAllNamespaces().catch((e) => e);
      expect(err.code).to.equal(403);
      const watch = await get(`${narrow.url}/api/v1/nodes?watch=true`, HVX);
      expect(watch.status).to.equal(403);
      expect(watch.body.message).to.contain('cannot watch resource "nodes"');
    } finally {
      await narrow.close();
    }
    const open = await startFakeKubeApiserver({ rbac: false });
    try {
      expect((await get(`${open.url}/api/v1/secrets`, HVX)).status, "no authorisation: routed, then 404").to.equal(404);
    } finally {
      await open.close();
    }
  });

  it("given silenceWatches(), open watches stay connected but deliver nothing; a new watch works", async () => {
    const controller = new AbortController();
    const res = await fetch(
      `${fake.url}/api/v1/nodes?watch=true&resourceVersion=${fake.controls.resourceVersion()}&allowWatchBookmarks=true`,
      { headers: ADMIN, signal: controller.signal },
    );
    const reader = res.body!.getReader();
    const firstBookmark = new TextDecoder().decode((await reader.read()).value);
    expect(firstBookmark).to.contain("BOOKMARK");
    expect(fake.controls.silenceWatches()).to.equal(1);
    fake.controls.upsertNode(sampleNode({ name: "n9" }));
    const next = await Promise.race([reader.read().then(() => "data"), new Promise((r) => setTimeout(() => r("nothing"), 300))]);
    expect(next).to.equal("nothing");
    expect(fake.controls.stats().watchesOpen).to.equal(1);
    controller.abort();
    const { events } = await watchLines(`${fake.url}/api/v1/nodes?watch=true`, 3);
    expect(events.map((e) => e.object.metadata.name)).to.deep.equal(["n1", "n2", "n9"]);
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
