import { expect } from "chai";
import { FAKE_TOKENS, samplePod, startFakeKubeApiserver, type FakeKubeApiserver } from "../../../mocks/kube-apiserver/index.js";

describe("fake kube-apiserver: pods/eviction", function () {
  this.timeout(10_000);
  let fake: FakeKubeApiserver;
  let uid: string;

  beforeEach(async () => {
    fake = await startFakeKubeApiserver();
    uid = fake.controls.upsertPod(samplePod({ namespace: "shop", name: "web-1", nodeName: "n1", labels: { app: "web" } })).metadata.uid;
  });
  afterEach(() => fake.close());

  async function evict(
    name: string,
    body: unknown,
    token: string = FAKE_TOKENS.hvx,
    method = "POST",
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${fake.url}/api/v1/namespaces/shop/pods/${name}/eviction`, {
      method,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      ...(method === "POST" ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  const eviction = (name: string, over: Record<string, unknown> = {}) => ({
    apiVersion: "policy/v1",
    kind: "Eviction",
    metadata: { name, namespace: "shop" },
    ...over,
  });

  const cases: Array<{
    name: string;
    pdbMinAvailable?: number;
    pod?: string;
    body?: (uid: string) => unknown;
    status: number;
    reason?: string;
    podLeft: boolean;
  }> = [
    { name: "given no budget, deletes the pod and answers 201 Success", status: 201, podLeft: false },
    { name: "given a budget with room (minAvailable 0), deletes the pod", pdbMinAvailable: 0, status: 201, podLeft: false },
    {
      name: "given a budget at its minimum (1 healthy, minAvailable 1), answers 429 TooManyRequests",
      pdbMinAvailable: 1,
      status: 429,
      reason: "TooManyRequests",
      podLeft: true,
    },
    { name: "given a missing pod, answers 404 NotFound", pod: "web-9", status: 404, reason: "NotFound", podLeft: true },
    {
      name: "given the pod's uid as precondition, deletes it",
      body: (u) => eviction("web-1", { deleteOptions: { preconditions: { uid: u } } }),
      status: 201,
      podLeft: false,
    },
    {
      name: "given another uid as precondition, answers 409 Conflict",
      body: () => eviction("web-1", { deleteOptions: { preconditions: { uid: "other" } } }),
      status: 409,
      reason: "Conflict",
      podLeft: true,
    },
    {
      name: "given an Eviction naming another pod, answers 400",
      body: () => eviction("web-2"),
      status: 400,
      reason: "BadRequest",
      podLeft: true,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      if (c.pdbMinAvailable !== undefined)
        fake.controls.upsertPodDisruptionBudget({
          metadata: { name: "web-pdb", namespace: "shop" },
          spec: { minAvailable: c.pdbMinAvailable, selector: { matchLabels: { app: "web" } } },
        });
      const name = c.pod ?? "web-1";
      const got = await evict(name, c.body ? c.body(uid) : eviction(name));
      expect(got.status).to.equal(c.status);
      expect(got.body.kind).to.equal("Status");
      expect(got.body.code).to.equal(c.status);
      if (c.reason) expect(got.body.reason).to.equal(c.reason);
      else expect(got.body.status).to.equal("Success");
      expect(fake.controls.getPod("shop", "web-1") !== undefined).to.equal(c.podLeft);
    });
  }

  it("words the 429 as the real API server: message and a DisruptionBudget cause naming the budget", async () => {
    fake.controls.upsertPodDisruptionBudget({
      metadata: { name: "web-pdb", namespace: "shop" },
      spec: { minAvailable: 1, selector: { matchLabels: { app: "web" } } },
    });
    const got = await evict("web-1", eviction("web-1"));
    expect(got.body).to.deep.include({
      status: "Failure",
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      reason: "TooManyRequests",
      code: 429,
    });
    expect(got.body.details).to.deep.equal({
      causes: [{ reason: "DisruptionBudget", message: "The disruption budget web-pdb needs 1 healthy pods and has 1 currently" }],
    });
  });

  it("given two budgets selecting the pod, answers 500 as the real registry does", async () => {
    for (const n of ["a", "b"])
      fake.controls.upsertPodDisruptionBudget({
        metadata: { name: n, namespace: "shop" },
        spec: { minAvailable: 0, selector: { matchLabels: { app: "web" } } },
      });
    const got = await evict("web-1", eviction("web-1"));
    expect(got.status).to.equal(500);
  });

  it("given a GET by an admin, answers 405 (hvx's own RBAC answers 403 first)", async () => {
    expect((await evict("web-1", undefined, FAKE_TOKENS.admin, "GET")).status).to.equal(405);
    expect((await evict("web-1", undefined, FAKE_TOKENS.hvx, "GET")).status).to.equal(403);
  });

  it("given a user whose RBAC lacks pods/eviction create, answers 403 before anything else", async () => {
    const limited = await startFakeKubeApiserver({
      rbac: "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: r}\nrules: []\n",
    });
    try {
      const res = await fetch(`${limited.url}/api/v1/namespaces/shop/pods/web-1/eviction`, {
        method: "POST",
        headers: { Authorization: `Bearer ${FAKE_TOKENS.hvx}` },
        body: "{}",
      });
      expect(res.status).to.equal(403);
      expect(((await res.json()) as { message: string }).message).to.contain('cannot create resource "pods/eviction"');
    } finally {
      await limited.close();
    }
  });
});

describe("fake kube-apiserver: core/v1 Events", function () {
  this.timeout(10_000);
  let fake: FakeKubeApiserver;
  beforeEach(async () => {
    fake = await startFakeKubeApiserver();
  });
  afterEach(() => fake.close());

  const base = {
    apiVersion: "v1",
    kind: "Event",
    metadata: { name: "web-1.abc", namespace: "shop" },
    involvedObject: { kind: "Pod", name: "web-1", namespace: "shop" },
    reason: "R",
    message: "m",
  };
  const cases: Array<{ name: string; body: Record<string, unknown>; status: number }> = [
    { name: "given a legacy Event (no eventTime), stores it", body: base, status: 201 },
    {
      name: "given eventTime with reportingComponent, reportingInstance and action, stores it",
      body: {
        ...base,
        eventTime: "2026-11-29T10:00:00.000000Z",
        reportingComponent: "hvx.io/rebalancer",
        reportingInstance: "hvx-0",
        action: "Evict",
      },
      status: 201,
    },
    {
      name: "given eventTime without action, answers 422 as the real validation",
      body: { ...base, eventTime: "2026-11-29T10:00:00.000000Z", reportingComponent: "hvx.io/rebalancer", reportingInstance: "hvx-0" },
      status: 422,
    },
    { name: "given a note over 1 kB, answers 422", body: { ...base, message: "x".repeat(1025) }, status: 422 },
    {
      name: "given an involved object in another namespace, answers 422",
      body: { ...base, involvedObject: { kind: "Pod", name: "web-1", namespace: "other" } },
      status: 422,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const res = await fetch(`${fake.url}/api/v1/namespaces/shop/events`, {
        method: "POST",
        headers: { Authorization: `Bearer ${FAKE_TOKENS.hvx}`, "Content-Type": "application/json" },
        body: JSON.stringify(c.body),
      });
      expect(res.status).to.equal(c.status);
      expect(fake.controls.events("shop")).to.have.length(c.status === 201 ? 1 : 0);
    });
  }
});
