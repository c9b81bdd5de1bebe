import { expect } from "chai";
import { FAKE_TOKENS, samplePod, startFakeKubeApiserver, type FakeKubeApiserver } from "../../../mocks/kube-apiserver/index.js";

describe("fake kube-apiserver: pods/binding", function () {
  this.timeout(10_000);
  let fake: FakeKubeApiserver;
  let uid: string;

  beforeEach(async () => {
    fake = await startFakeKubeApiserver({ rbac: false });
    uid = fake.controls.upsertPod(samplePod({ namespace: "shop", name: "web-1" })).metadata.uid;
    fake.controls.upsertPod(samplePod({ namespace: "shop", name: "web-2", nodeName: "n2" }));
  });
  afterEach(() => fake.close());

  async function bind(name: string, body: unknown, method = "POST"): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${fake.url}/api/v1/namespaces/shop/pods/${name}/binding`, {
      method,
      headers: { Authorization: `Bearer ${FAKE_TOKENS.admin}`, "Content-Type": "application/json" },
      ...(method === "POST" ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  // As kube-scheduler's DefaultBinder builds it.
  const binding = (name: string, over: Record<string, unknown> = {}) => ({
    apiVersion: "v1",
    kind: "Binding",
    metadata: { name, namespace: "shop" },
    target: { kind: "Node", name: "n1" },
    ...over,
  });

  const cases: Array<{ name: string; pod?: string; body?: (uid: string) => unknown; status: number; reason?: string; nodeName?: string }> =
    [
      { name: "given a pending pod, sets spec.nodeName and answers 201 Success", status: 201, nodeName: "n1" },
      {
        name: "given the pod's uid, binds it",
        body: (u) => binding("web-1", { metadata: { name: "web-1", namespace: "shop", uid: u } }),
        status: 201,
        nodeName: "n1",
      },
      {
        name: "given another uid, answers 409 Conflict",
        body: () => binding("web-1", { metadata: { name: "web-1", namespace: "shop", uid: "other" } }),
        status: 409,
        reason: "Conflict",
      },
      { name: "given a pod already on a node, answers 409 Conflict", pod: "web-2", status: 409, reason: "Conflict", nodeName: "n2" },
      { name: "given a missing pod, answers 404 NotFound", pod: "web-9", status: 404, reason: "NotFound" },
      { name: "given a Binding naming another pod, answers 400", body: () => binding("web-2"), status: 400, reason: "BadRequest" },
      {
        name: "given a target of kind Pod, answers 500 (field errors unwrapped)",
        body: () => binding("web-1", { target: { kind: "Pod", name: "n1" } }),
        status: 500,
      },
      { name: "given no target name, answers 500", body: () => binding("web-1", { target: { kind: "Node" } }), status: 500 },
    ];
  for (const c of cases) {
    it(c.name, async () => {
      const name = c.pod ?? "web-1";
      const got = await bind(name, c.body ? c.body(uid) : binding(name));
      expect(got.status).to.equal(c.status);
      expect(got.body).to.include({ kind: "Status", code: c.status });
      if (c.reason) expect(got.body.reason).to.equal(c.reason);
      if (c.status === 201) expect(got.body.status).to.equal("Success");
      const pod = fake.controls.getPod("shop", name);
      if (pod) expect(pod.spec.nodeName).to.equal(c.nodeName);
    });
  }

  it("words the conflict of a bound pod as the registry does", async () => {
    const got = await bind("web-2", binding("web-2"));
    expect(got.body.message).to.equal('Operation cannot be fulfilled on pods/binding "web-2": pod web-2 is already assigned to node "n2"');
    expect(got.body.details).to.deep.equal({ name: "web-2", kind: "pods/binding" });
  });

  it("given a binding, marks the pod PodScheduled, keeps its uid and counts the request", async () => {
    await bind("web-1", binding("web-1", { metadata: { name: "web-1", namespace: "shop", annotations: { "a/b": "c" } } }));
    const pod = fake.controls.getPod("shop", "web-1")!;
    expect(pod.metadata.uid).to.equal(uid);
    expect(pod.metadata.annotations).to.include({ "a/b": "c" });
    expect(pod.status.conditions.filter((k: { type: string }) => k.type === "PodScheduled")).to.have.length(1);
    expect(pod.status.conditions.find((k: { type: string }) => k.type === "PodScheduled").status).to.equal("True");
    expect(fake.controls.stats().bindings).to.equal(1);
  });

  it("given a binding, sends watchers a MODIFIED event with the node", async () => {
    const controller = new AbortController();
    const rv = fake.controls.stats().resourceVersion;
    const res = await fetch(`${fake.url}/api/v1/namespaces/shop/pods?watch=true&resourceVersion=${rv}`, {
      signal: controller.signal,
      headers: { Authorization: `Bearer ${FAKE_TOKENS.admin}` },
    });
    const reader = res.body!.getReader();
    await bind("web-1", binding("web-1"));
    let text = "";
    while (!text.includes("\n")) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const event = JSON.parse(text.slice(0, text.indexOf("\n")));
    expect(event.type).to.equal("MODIFIED");
    expect(event.object.spec.nodeName).to.equal("n1");
  });

  it("given a GET, answers 405", async () => {
    expect((await bind("web-1", undefined, "GET")).status).to.equal(405);
  });
});
