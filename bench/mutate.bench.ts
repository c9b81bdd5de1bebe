import { readFileSync } from "node:fs";
import { Registry } from "prom-client";
import type { HostView } from "../src/model/inventory.js";
import { parseConfig } from "../src/config/index.js";
import { createAdmissionMetrics } from "../src/observability/admission-metrics.js";
import { fleetView } from "../src/oversell/fleet-view.js";
import { qosClass } from "../src/oversell/qos-class.js";
import { silentLogger } from "../src/observability/logger.js";
import { handleAdmissionReview } from "../src/server/admission/handle-admission-review.js";
import { mean, percentile, sampleMs, type BenchFigure } from "./figure.js";

const HOSTS = 250;

/** The reference pod CREATE with five app containers (mixed quantity forms) and its two init containers. */
function fiveContainerReview(): string {
  const file = new URL("../../test/oversell/examples/admissionreview-request-pod-create.json", import.meta.url);
  const review = JSON.parse(readFileSync(file, "utf8"));
  const base = review.request.object.spec.containers[0];
  const forms: Array<[string, string, string, string]> = [
    ["250m", "512Mi", "2", "1Gi"],
    ["0.5", "1G", "1", "2G"],
    ["1500m", "1.5Gi", "3", "3Gi"],
    ["100m", "129e6", "500m", "256e6"],
    [".2", "300Mi", "1", "600Mi"],
  ];
  review.request.object.spec.containers = forms.map(([cpu, memory, cpuLimit, memoryLimit], i) => ({
    ...base,
    name: `c-${i}`,
    resources: { requests: { cpu, memory }, limits: { cpu: cpuLimit, memory: memoryLimit } },
  }));
  return JSON.stringify(review);
}

function hosts(): HostView[] {
  return Array.from({ length: HOSTS }, (_, h) => ({
    id: `host-${h}`,
    name: `esx-${h}`,
    connectionState: "CONNECTED" as const,
    inMaintenance: false,
    cpuCores: 32,
    cpuMhzPerCore: 2600,
    memoryMiB: 524288,
    vmIds: [],
    vcpuPerPcpu: 1 + (h % 20) / 10,
    vramPerPram: 0.8 + (h % 5) / 10,
    polledAtMs: Date.now(),
  }));
}

/** `/mutate` for a 5-container pod, in-process through the same handler the route calls. */
export async function run(): Promise<BenchFigure[]> {
  const config = parseConfig(undefined);
  const fleet = hosts();
  const ctx = {
    policy: { ...config.admission, memoryRatio: 1.25 },
    ownNamespace: "hvx-system",
    // The fleet view is computed per review, as the production wiring does.
    fleet: () => fleetView(fleet, (h: HostView) => h.id.endsWith("7")),
    log: silentLogger(),
    metrics: createAdmissionMetrics(new Registry()),
    clock: () => performance.now(),
  };
  const body = fiveContainerReview();
  const probe = handleAdmissionReview(body, ctx);
  if (probe.status !== 200 || !JSON.parse(probe.body).response.patch) throw new Error("mutate bench: the review did not produce a patch");
  const mutate = sampleMs(() => handleAdmissionReview(body, ctx), 1500, 200, 200);
  const baseline = sampleMs(() => JSON.stringify(JSON.parse(body)), 500, 200, 200);
  // Issue 28: summed as exact fractions, 20 000 containers took 1.5 s; integers take milliseconds.
  const large = {
    spec: {
      containers: Array.from({ length: 20_000 }, (_, i) => ({
        name: `c${i}`,
        resources: { requests: { cpu: "0.1", memory: "0.5Gi" }, limits: { cpu: "100m", memory: "512Mi" } },
      })),
    },
  };
  const qos20k = sampleMs(() => qosClass(large), 300, 5, 2);
  const p99 = percentile(mutate, 99);
  const perSecond = 1000 / mean(mutate);
  return [
    {
      name: "mutate.qosClass.containers20000.p50Ms",
      value: percentile(qos20k, 50),
      unit: "ms",
      target: "<= 50",
      ok: percentile(qos20k, 50) <= 50,
    },
    { name: "mutate.pod5.payloadKB", value: Buffer.byteLength(body) / 1024, unit: "KiB" },
    { name: "mutate.pod5.p50Ms", value: percentile(mutate, 50), unit: "ms" },
    { name: "mutate.pod5.p99Ms", value: p99, unit: "ms", target: "<= 2", ok: p99 <= 2 },
    { name: "mutate.pod5.reviewsPerSecond", value: perSecond, unit: "reviews/s", target: ">= 2000", ok: perSecond >= 2000 },
    { name: "mutate.pod5.parseStringifyBaseline.p50Ms", value: percentile(baseline, 50), unit: "ms" },
    { name: "mutate.pod5.parseStringifyBaseline.p99Ms", value: percentile(baseline, 99), unit: "ms" },
    { name: "mutate.pod5.mutateVsBaseline.p50Ratio", value: percentile(mutate, 50) / percentile(baseline, 50), unit: "x" },
  ];
}
