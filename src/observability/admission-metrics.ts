import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { EffectiveRatios } from "../oversell/effective-ratios.js";
import { boundedNamespaceLabel } from "./bounded-label.js";

/**
 * How a review ended: `patched` (requests lowered), `unchanged` (allowed as is: skipped,
 * not a pod CREATE, nothing to lower), `malformed` (HTTP 400), `error` (internal error,
 * allowed unchanged with a warning).
 */
export type ReviewOutcome = "patched" | "unchanged" | "malformed" | "error";

export interface AdmissionMetrics {
  countReview(outcome: ReviewOutcome): void;
  observeHandlingSeconds(seconds: number): void;
  /** Adds what a patch removed from requests: millicores and bytes, per namespace. */
  countRemoved(namespace: string, cpuMilli: number, memoryBytes: number): void;
  /** Current effective default ratios, labelled with the reason code that set them. */
  setEffectiveRatios(ratios: EffectiveRatios): void;
}

export interface AdmissionMetricsOptions {
  /**
   * Whether the informer cache knows a namespace; undefined while there is no synced cache.
   * The `namespace` label only takes known namespaces (else `other`); without a cache, at
   * most `maxNamespaces` (200) distinct values, then `other`.
   */
  readonly knownNamespace?: (namespace: string) => boolean | undefined;
  readonly maxNamespaces?: number;
}

/** Registers the admission metrics (prefix `hvx_admission_`) on `registry`. */
export function createAdmissionMetrics(registry: Registry, options: AdmissionMetricsOptions = {}): AdmissionMetrics {
  const namespaceLabel = boundedNamespaceLabel(options.knownNamespace, options.maxNamespaces);
  const reviews = new Counter({
    name: "hvx_admission_reviews_total",
    help: "AdmissionReviews handled, by outcome (patched, unchanged, malformed, error).",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  const seconds = new Histogram({
    name: "hvx_admission_review_duration_seconds",
    help: "Time to handle one AdmissionReview, from body received to reply built.",
    // Up to 5 s, the webhook's timeoutSeconds, so that a p99 near it is measurable (HvxAdmissionSlow).
    buckets: [0.0001, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.05, 0.25, 1, 2.5, 5],
    registers: [registry],
  });
  const cpuRemoved = new Counter({
    name: "hvx_admission_cpu_millicores_removed_total",
    help: "Millicores removed from pod CPU requests by oversell patches, per namespace (namespaces the cluster does not know: other).",
    labelNames: ["namespace"] as const,
    registers: [registry],
  });
  const memoryRemoved = new Counter({
    name: "hvx_admission_memory_bytes_removed_total",
    help: "Bytes removed from pod memory requests by oversell patches, per namespace (namespaces the cluster does not know: other).",
    labelNames: ["namespace"] as const,
    registers: [registry],
  });
  const ratio = new Gauge({
    name: "hvx_admission_effective_ratio",
    help: "Effective default oversell ratio per resource; reason: no_host_data, cap_not_binding, stacked_cap, hot_brake.",
    labelNames: ["resource", "reason"] as const,
    registers: [registry],
  });
  for (const outcome of ["patched", "unchanged", "malformed", "error"] as const) reviews.inc({ outcome }, 0);
  return {
    countReview: (outcome) => reviews.inc({ outcome }),
    observeHandlingSeconds: (s) => seconds.observe(s),
    countRemoved: (requested, cpuMilli, memoryBytes) => {
      const namespace = namespaceLabel(requested);
      if (cpuMilli > 0) cpuRemoved.inc({ namespace }, cpuMilli);
      if (memoryBytes > 0) memoryRemoved.inc({ namespace }, memoryBytes);
    },
    setEffectiveRatios: (r) => {
      // One series per resource: drop the previous reason's series before setting the new one.
      ratio.reset();
      ratio.set({ resource: "cpu", reason: r.cpu.limit.code }, r.cpu.ratio);
      ratio.set({ resource: "memory", reason: r.memory.limit.code }, r.memory.ratio);
    },
  };
}
