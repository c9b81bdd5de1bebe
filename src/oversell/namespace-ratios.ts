import type { OversellPolicy } from "./oversell-policy.js";
import { NAMESPACE_CPU_LABEL, NAMESPACE_MEMORY_LABEL, type ScaledResource } from "./pod-shape.js";

/** Where a configured ratio came from, strongest first: config namespace entry, namespace label, global default. */
export type RatioSource = "namespace_config" | "namespace_label" | "default";

export interface ConfiguredRatio {
  readonly ratio: number;
  readonly source: RatioSource;
}

export interface NamespaceRatios {
  readonly cpu: ConfiguredRatio;
  readonly memory: ConfiguredRatio;
  /** One line per ignored label, ready for the AdmissionReview `warnings`. */
  readonly warnings: readonly string[];
}

/** Label values above this are refused as typos (`20` meant as `2.0`?); ratios are small numbers. */
const MAX_LABEL_RATIO = 100;

/**
 * Ratios for a namespace. Precedence: `admission.namespaces.<ns>` in the config, then the
 * namespace labels `hvx.io/oversell-cpu` / `hvx.io/oversell-memory`, then the global
 * `cpuRatio` / `memoryRatio`. A label that is not a number in 1..100 is ignored with a warning;
 * one above `maxLabelRatio` (default: the global ratio) is lowered to it with a warning: whoever
 * may label a namespace must not oversell past what the operator configured.
 */
export function resolveNamespaceRatios(
  policy: OversellPolicy,
  namespace: string,
  labels: Readonly<Record<string, string>> | undefined,
): NamespaceRatios {
  const warnings: string[] = [];
  const entry = Object.hasOwn(policy.namespaces, namespace) ? policy.namespaces[namespace] : undefined;
  const pick = (resource: ScaledResource): ConfiguredRatio => {
    const fromConfig = resource === "cpu" ? entry?.cpuRatio : entry?.memoryRatio;
    if (fromConfig !== undefined) return { ratio: fromConfig, source: "namespace_config" };
    const label = resource === "cpu" ? NAMESPACE_CPU_LABEL : NAMESPACE_MEMORY_LABEL;
    const text = labels?.[label];
    if (text !== undefined) {
      const value = parseLabelRatio(text);
      const cap = labelRatioCap(policy, resource);
      if (value !== undefined && value > cap) {
        warnings.push(`hvx: namespace label ${label}=${JSON.stringify(text)} capped at ${cap} (admission.maxLabelRatio.${resource})`);
        return { ratio: cap, source: "namespace_label" };
      }
      if (value !== undefined) return { ratio: value, source: "namespace_label" };
      warnings.push(`hvx: namespace label ${label}=${JSON.stringify(text)} ignored (must be a number from 1 to ${MAX_LABEL_RATIO})`);
    }
    return { ratio: resource === "cpu" ? policy.cpuRatio : policy.memoryRatio, source: "default" };
  };
  return { cpu: pick("cpu"), memory: pick("memory"), warnings };
}

/** Highest ratio a namespace label may set: `maxLabelRatio.<resource>`, else the global ratio. */
export function labelRatioCap(policy: OversellPolicy, resource: ScaledResource): number {
  return policy.maxLabelRatio[resource] ?? (resource === "cpu" ? policy.cpuRatio : policy.memoryRatio);
}

function parseLabelRatio(text: string): number | undefined {
  if (!/^\d+(\.\d+)?$/.test(text)) return undefined;
  const value = Number(text);
  return value >= 1 && value <= MAX_LABEL_RATIO ? value : undefined;
}
