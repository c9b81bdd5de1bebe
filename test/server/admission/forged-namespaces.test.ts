import { expect } from "chai";
import { Registry } from "prom-client";
import { createAdmissionMetrics } from "../../../src/observability/admission-metrics.js";
import { OTHER_LABEL } from "../../../src/observability/bounded-label.js";
import { silentLogger } from "../../../src/observability/logger.js";
import { fleetView } from "../../../src/oversell/fleet-view.js";
import { type AdmissionContext, handleAdmissionReview } from "../../../src/server/admission/handle-admission-review.js";
import { DEFAULT_POLICY, host } from "../../oversell/fixtures.js";

/** A small pod CREATE that the default policy patches (so the per-namespace counters move). */
function review(i: number, namespace: string): string {
  return JSON.stringify({
    apiVersion: "admission.k8s.io/v1",
    kind: "AdmissionReview",
    request: {
      uid: `uid-${i}`,
      kind: { group: "", version: "v1", kind: "Pod" },
      resource: { group: "", version: "v1", resource: "pods" },
      namespace,
      operation: "CREATE",
      object: {
        metadata: { name: `p-${i}` },
        spec: { containers: [{ name: "c", resources: { requests: { cpu: "500m", memory: "256Mi" } } }] },
      },
    },
  });
}

function context(registry: Registry, knownNamespace?: (ns: string) => boolean | undefined): AdmissionContext {
  return {
    policy: DEFAULT_POLICY,
    ownNamespace: "hvx-system",
    fleet: () => fleetView([host({ id: "host-1", vcpuPerPcpu: 1.6, vramPerPram: 1.2 })], () => false),
    log: silentLogger(),
    metrics: createAdmissionMetrics(registry, knownNamespace ? { knownNamespace } : {}),
    clock: () => 0,
  };
}

const series = (text: string) =>
  new Set([...text.matchAll(/hvx_admission_cpu_millicores_removed_total\{namespace="([^"]*)"\}/g)].map((m) => m[1]));

/**
 * Issue 8 section 1: label values from requests are bounded. Anyone who reaches the webhook
 * port can send reviews naming any namespace; each new label value would be a series kept
 * for the life of the process.
 */
describe("admission metrics under forged namespaces", function () {
  this.timeout(120_000);
  const REVIEWS = 100_000;

  it(`given ${REVIEWS} reviews with distinct forged namespaces and no informer cache, keeps at most 200 namespace values plus other, and /metrics under 1 MB`, async () => {
    const registry = new Registry();
    const ctx = context(registry);
    for (let i = 0; i < REVIEWS; i++) {
      const out = handleAdmissionReview(review(i, `forged-${i}`), ctx);
      if (i === 0) expect(JSON.parse(out.body).response.patch, "the review is patched").to.be.a("string");
    }
    const text = await registry.metrics();
    expect(Buffer.byteLength(text)).to.be.below(1024 * 1024);
    const values = series(text);
    expect(values.size).to.equal(201);
    expect(values.has(OTHER_LABEL)).to.equal(true);
    expect(values.has("forged-0") && values.has("forged-199")).to.equal(true);
    expect(values.has("forged-200")).to.equal(false);
    expect(text).to.include(`hvx_admission_cpu_millicores_removed_total{namespace="other"} ${(REVIEWS - 200) * 250}`);
  });

  it(`given ${REVIEWS} forged namespaces and an informer cache that knows two, labels only those two and other`, async () => {
    const registry = new Registry();
    const known = new Set(["team-a", "team-b"]);
    const ctx = context(registry, (ns) => known.has(ns));
    handleAdmissionReview(review(-1, "team-b"), ctx);
    // The metrics object directly (the handler path is the test above): same label code, 100x faster.
    for (let i = 0; i < REVIEWS; i++) ctx.metrics.countRemoved(i % 1000 === 0 ? "team-a" : `forged-${i}`, 250, 0);
    const text = await registry.metrics();
    expect(Buffer.byteLength(text)).to.be.below(1024 * 1024);
    expect([...series(text)].sort()).to.deep.equal(["other", "team-a", "team-b"]);
  });

  it("given a namespace that cannot be a Kubernetes name (too long, upper case, quotes), labels it other even without a cache", async () => {
    const registry = new Registry();
    const ctx = context(registry);
    for (const ns of ["x".repeat(100_000), "Team", 'a"b', "-a", "ok-ns"]) handleAdmissionReview(review(1, ns), ctx);
    expect([...series(await registry.metrics())].sort()).to.deep.equal(["ok-ns", "other"]);
  });

  it("given a cache not synced yet (undefined), falls back to the bounded set", async () => {
    const registry = new Registry();
    const ctx = context(registry, () => undefined);
    handleAdmissionReview(review(1, "early"), ctx);
    expect([...series(await registry.metrics())]).to.deep.equal(["early"]);
  });
});
