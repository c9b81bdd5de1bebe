import { expect } from "chai";
import { Registry } from "prom-client";
import { createAdmissionMetrics } from "../../src/observability/admission-metrics.js";

describe("createAdmissionMetrics", () => {
  it("counts reviews, removed resources per namespace and exposes one ratio series per resource", async () => {
    const registry = new Registry();
    const m = createAdmissionMetrics(registry);
    m.countReview("patched");
    m.countRemoved("team", 500, 1024);
    m.observeHandlingSeconds(0.001);
    const limit = { code: "no_host_data" } as const;
    m.setEffectiveRatios({
      cpu: { resource: "cpu", ratio: 2, configured: 2, source: "default", limit },
      memory: { resource: "memory", ratio: 1, configured: 1, source: "default", limit },
    });
    m.setEffectiveRatios({
      cpu: { resource: "cpu", ratio: 1, configured: 2, source: "default", limit: { code: "hot_brake", hotPercent: 50, brakePercent: 25 } },
      memory: { resource: "memory", ratio: 1, configured: 1, source: "default", limit },
    });
    const text = await registry.metrics();
    expect(text).to.include('hvx_admission_reviews_total{outcome="patched"} 1');
    expect(text).to.include('hvx_admission_reviews_total{outcome="error"} 0');
    expect(text).to.include('hvx_admission_cpu_millicores_removed_total{namespace="team"} 500');
    expect(text).to.include('hvx_admission_memory_bytes_removed_total{namespace="team"} 1024');
    expect(text).to.include('hvx_admission_effective_ratio{resource="cpu",reason="hot_brake"} 1');
    expect(text).not.to.include('reason="no_host_data"} 2');
    expect(text).to.include("hvx_admission_review_duration_seconds_count 1");
  });
});
