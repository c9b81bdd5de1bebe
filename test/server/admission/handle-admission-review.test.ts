import { expect } from "chai";
import { readFileSync } from "node:fs";
import { Registry } from "prom-client";
import { createAdmissionMetrics } from "../../../src/observability/admission-metrics.js";
import { silentLogger } from "../../../src/observability/logger.js";
import { fleetView } from "../../../src/oversell/fleet-view.js";
import {
  type AdmissionContext,
  handleAdmissionReview,
  INTERNAL_ERROR_WARNING,
} from "../../../src/server/admission/handle-admission-review.js";
import { LastKnownFleet } from "../../../src/server/admission/last-known-fleet.js";
import type { HostView } from "../../../src/model/inventory.js";
import { assessHostAlone } from "../../../src/placement/assess-host.js";
import { DEFAULT_POLICY, host } from "../../oversell/fixtures.js";
import { DEFAULT_POLICY as DEFAULT_PLACEMENT } from "../../fixtures/policy.js";

const DEFAULT_THRESHOLDS = DEFAULT_PLACEMENT.thresholds;

const EXAMPLES = new URL("../../../../test/oversell/examples/", import.meta.url);
const requestText = readFileSync(new URL("admissionreview-request-pod-create.json", EXAMPLES), "utf8");
const expectedPatch = JSON.parse(readFileSync(new URL("patch.json", EXAMPLES), "utf8"));
const expectedReply = JSON.parse(readFileSync(new URL("admissionreview-response-patch.json", EXAMPLES), "utf8"));

type Review = { apiVersion: string; kind: string; request: Record<string, unknown> & { object: { metadata: Record<string, unknown> } } };
const review = (): Review => JSON.parse(requestText);

function context(over: Partial<AdmissionContext> = {}): AdmissionContext & { registry: Registry } {
  const registry = new Registry();
  return {
    policy: DEFAULT_POLICY,
    ownNamespace: "hvx-system",
    fleet: () => fleetView([host({ id: "host-1", vcpuPerPcpu: 1.6, vramPerPram: 1.2 })], () => false),
    log: silentLogger(),
    metrics: createAdmissionMetrics(registry),
    clock: () => 0,
    registry,
    ...over,
  };
}

function reply(body: string) {
  return JSON.parse(body) as {
    apiVersion: string;
    kind: string;
    response: { uid: string; allowed: boolean; patch?: string; patchType?: string; warnings?: string[] };
  };
}

describe("handleAdmissionReview", () => {
  it("given the reference pod CREATE, returns the reference patch reply (uid, patchType, base64 patch, warning)", () => {
    const out = handleAdmissionReview(requestText, context());
    expect(out.status).to.equal(200);
    const r = reply(out.body);
    expect(JSON.parse(Buffer.from(r.response.patch ?? "", "base64").toString())).to.deep.equal(expectedPatch);
    expect(r).to.deep.equal(expectedReply);
  });

  const unchanged: Array<{ name: string; edit: (r: Review) => void }> = [
    { name: "an UPDATE", edit: (r) => void (r.request.operation = "UPDATE") },
    { name: "a subresource (pods/ephemeralcontainers)", edit: (r) => void (r.request.subResource = "ephemeralcontainers") },
    {
      name: "another resource (deployments)",
      edit: (r) =>
        void Object.assign(r.request, {
          resource: { group: "apps", version: "v1", resource: "deployments" },
          kind: { group: "apps", version: "v1", kind: "Deployment" },
        }),
    },
    { name: "an excluded namespace", edit: (r) => void (r.request.namespace = "kube-system") },
    { name: "hvx's own namespace", edit: (r) => void (r.request.namespace = "hvx-system") },
    {
      name: "an opted-out pod",
      edit: (r) => void ((r.request.object.metadata.annotations as Record<string, string>)["hvx.io/oversell"] = "false"),
    },
  ];
  for (const c of unchanged) {
    it(`given ${c.name}, allows it unchanged and echoes the uid`, () => {
      const body = review();
      c.edit(body);
      const r = reply(handleAdmissionReview(JSON.stringify(body), context()).body);
      expect(r.response).to.deep.equal({ uid: "9b2f4c1e-6a3d-4f0b-8e2a-1c7d5e9f3a41", allowed: true });
      expect([r.apiVersion, r.kind]).to.deep.equal(["admission.k8s.io/v1", "AdmissionReview"]);
    });
  }

  it("given a dry run, returns the same patch but does not count removed resources", async () => {
    const body = review();
    body.request.dryRun = true;
    const ctx = context();
    const r = reply(handleAdmissionReview(JSON.stringify(body), ctx).body);
    expect(r.response.patchType).to.equal("JSONPatch");
    const text = await ctx.registry.metrics();
    expect(text).not.to.include('hvx_admission_cpu_millicores_removed_total{namespace="payments"}');
    expect(text).to.include('hvx_admission_reviews_total{outcome="patched"} 1');
  });

  it("given a real CREATE, counts the millicores removed for the namespace", async () => {
    const ctx = context();
    handleAdmissionReview(requestText, ctx);
    // (250 - 125) + (500 - 250) + (50 - 25) = 400
    expect(await ctx.registry.metrics()).to.include('hvx_admission_cpu_millicores_removed_total{namespace="payments"} 400');
  });

  const malformed = [
    "",
    "{",
    "[]",
    '{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"}',
    '{"apiVersion":"v1","kind":"AdmissionReview","request":{}}',
  ];
  for (const body of malformed) {
    it(`given malformed body ${JSON.stringify(body)}, returns 400 with a clear message`, async () => {
      const ctx = context();
      const out = handleAdmissionReview(body, ctx);
      expect(out.status).to.equal(400);
      expect(out.body).to.match(/^malformed AdmissionReview: /);
      expect(await ctx.registry.metrics()).to.include('hvx_admission_reviews_total{outcome="malformed"} 1');
    });
  }

  it("given an internal error (host source throws), allows the pod unchanged with a warning and counts an error", async () => {
    const ctx = context({
      fleet: () => {
        throw new Error("boom");
      },
    });
    const out = handleAdmissionReview(requestText, ctx);
    expect(out.status).to.equal(200);
    expect(reply(out.body).response).to.deep.equal({
      uid: "9b2f4c1e-6a3d-4f0b-8e2a-1c7d5e9f3a41",
      allowed: true,
      warnings: [INTERNAL_ERROR_WARNING],
    });
    expect(await ctx.registry.metrics()).to.include('hvx_admission_reviews_total{outcome="error"} 1');
  });

  it("given an invalid quantity in the pod, allows it unchanged with a warning (never 500, never a denial)", () => {
    const body = review();
    (
      (body.request.object as unknown as { spec: { containers: Array<{ resources: { requests: Record<string, string> } }> } }).spec
        .containers[0] as { resources: { requests: Record<string, string> } }
    ).resources.requests.cpu = "lots";
    const out = handleAdmissionReview(JSON.stringify(body), context());
    expect(out.status).to.equal(200);
    expect(reply(out.body).response.allowed).to.equal(true);
    expect(reply(out.body).response.patch).to.equal(undefined);
    expect(reply(out.body).response.warnings).to.deep.equal([INTERNAL_ERROR_WARNING]);
  });

  it("given a pod whose containers are not an array, allows it unchanged and says why", () => {
    const body = review();
    (body.request.object as unknown as { spec: unknown }).spec = { containers: "x" };
    const r = reply(handleAdmissionReview(JSON.stringify(body), context()).body);
    expect(r.response.warnings).to.deep.equal(["hvx: oversell skipped (spec.containers is not an array)"]);
  });

  it("given no host data since start, does not oversell (ratios capped at 1.0) and says why", () => {
    const r = reply(handleAdmissionReview(requestText, context({ fleet: () => undefined })).body);
    expect(r.response.patch).to.equal(undefined);
    expect(r.response.warnings).to.deep.equal(["hvx: cpu requests not scaled (no vCenter host data since hvx started, so no oversell)"]);
  });

  it("given namespace labels from the lookup, uses them", () => {
    const r = reply(
      handleAdmissionReview(
        requestText,
        context({ namespaceLabels: (ns) => (ns === "payments" ? { "hvx.io/oversell-cpu": "1.25" } : undefined) }),
      ).body,
    );
    const patch = JSON.parse(Buffer.from(r.response.patch ?? "", "base64").toString()) as Array<{ path: string; value: string }>;
    expect(patch[0]).to.deep.equal({ op: "replace", path: "/spec/containers/0/resources/requests/cpu", value: "200m" }); // 250m / 1.25
  });

  it("given an earlier reply's patch applied (reinvocation), returns no patch", () => {
    const body = review();
    (body.request.object.metadata.annotations as Record<string, string>)["hvx.io/original-requests"] = "{}";
    expect(reply(handleAdmissionReview(JSON.stringify(body), context()).body).response.patch).to.equal(undefined);
  });
});

describe("handleAdmissionReview: the safety cap never disappears", () => {
  const T = DEFAULT_THRESHOLDS;
  const NOW = Date.parse("2026-11-29T10:00:00Z");
  const fresh = (id: string, over: Partial<HostView> = {}): HostView =>
    host({ id, vcpuPerPcpu: 2.5, polledAtMs: NOW, metrics: { sampledAtMs: NOW, cpuReadyPercent: 1 }, ...over } as Partial<HostView> & {
      id: string;
    });
  /** The production wiring (src/main.ts): the hosts, judged on a clock the test moves, through LastKnownFleet. */
  function wiring(hostsNow: () => readonly HostView[], nowMs: () => number): Partial<AdmissionContext> {
    const fleet = new LastKnownFleet({
      hosts: hostsNow,
      assess: (h, now) => assessHostAlone(h, T, now),
      clock: nowMs,
      log: silentLogger(),
    });
    return { fleet: () => fleet.current() };
  }
  const cpuPatch = (body: string) => {
    const r = reply(body);
    const patch = r.response.patch
      ? (JSON.parse(Buffer.from(r.response.patch, "base64").toString()) as Array<{ path: string; value: unknown }>)
      : [];
    return { cpu: patch.find((p) => p.path === "/spec/containers/0/resources/requests/cpu")?.value, warnings: r.response.warnings ?? [] };
  };

  it("given host data that later goes away, keeps the last known stacked cap (1.6) instead of the full ratio (2)", () => {
    let hosts: readonly HostView[] = [fresh("host-1")];
    const ctx = context(
      wiring(
        () => hosts,
        () => NOW,
      ),
    );
    expect(cpuPatch(handleAdmissionReview(requestText, ctx).body).cpu).to.equal("156m"); // 250m / 1.6
    hosts = [];
    const after = cpuPatch(handleAdmissionReview(requestText, ctx).body);
    expect(after.cpu).to.equal("156m");
    expect(after.warnings[0]).to.equal("hvx: cpu requests scaled by 1/1.6 (stacked cap 4.0 / vCPU:pCPU 2.5, last known host data)");
  });

  it("given hot hosts whose data then goes stale, keeps the hot-host brake on", () => {
    let now = NOW;
    const hosts = [
      fresh("host-1", { vcpuPerPcpu: 1 }),
      fresh("host-2", { vcpuPerPcpu: 1, metrics: { sampledAtMs: NOW, cpuReadyPercent: 14 } }),
    ];
    const ctx = context(
      wiring(
        () => hosts,
        () => now,
      ),
    );
    expect(cpuPatch(handleAdmissionReview(requestText, ctx).body).cpu).to.equal(undefined); // 50 % hot > 25 %: braked
    now = NOW + 600_000;
    expect(cpuPatch(handleAdmissionReview(requestText, ctx).body).cpu).to.equal(undefined);
  });

  it("given cool hosts whose data then goes stale, keeps the brake off and the last known cap", () => {
    let now = NOW;
    const hosts = [fresh("host-1"), fresh("host-2")];
    const ctx = context(
      wiring(
        () => hosts,
        () => now,
      ),
    );
    expect(cpuPatch(handleAdmissionReview(requestText, ctx).body).cpu).to.equal("156m");
    now = NOW + 600_000;
    expect(cpuPatch(handleAdmissionReview(requestText, ctx).body).cpu).to.equal("156m");
  });
});

describe("handleAdmissionReview in admission.mode: observe", () => {
  it("given the reference pod CREATE, admits it unchanged and warns with each operation enforce would have applied", () => {
    const counted: string[] = [];
    const ctx = context({
      mode: "observe",
      shadow: { countShadow: (verb, verdict, reason) => counted.push(`${verb}/${verdict}/${reason}`) },
    });
    const r = reply(handleAdmissionReview(requestText, ctx).body);
    expect(r.response.allowed).to.equal(true);
    expect(r.response.patch).to.equal(undefined);
    expect(r.response.patchType).to.equal(undefined);
    const warnings = r.response.warnings ?? [];
    expect(warnings).to.include(
      `hvx: admission.mode is observe: pod admitted unchanged; enforce would have applied ${expectedPatch.length} JSON Patch operation(s):`,
    );
    for (const op of expectedPatch as Array<{ op: string; path: string; value: unknown }>) {
      const text = `hvx: would ${op.op} ${op.path} = ${JSON.stringify(op.value)}`;
      expect(
        warnings.some((w) => w === text || (text.length > 256 && w === `${text.slice(0, 255)}\u2026`)),
        text,
      ).to.equal(true);
    }
    for (const w of warnings) expect(w.length).to.be.at.most(256);
    expect(counted).to.deep.equal(["mutate/patch/oversell"]);
  });

  it("given a review enforce would not patch (an UPDATE), answers as enforce does and counts it unchanged", () => {
    const counted: string[] = [];
    const r0 = review();
    r0.request.operation = "UPDATE";
    const text = JSON.stringify(r0);
    const enforce = reply(handleAdmissionReview(text, context()).body);
    const observe = reply(
      handleAdmissionReview(text, context({ mode: "observe", shadow: { countShadow: (v, d, why) => counted.push(`${v}/${d}/${why}`) } }))
        .body,
    );
    expect(observe).to.deep.equal(enforce);
    expect(counted).to.deep.equal(["mutate/unchanged/none"]);
  });
});
