import { quantityMilli } from "../quantity/cpu-milli.js";
import { quantityBytes } from "../quantity/memory-bytes.js";
import { parseQuantity } from "../quantity/parse-quantity.js";
import { type ContainerShape, type PodShape, type ResourceList, SCALED_RESOURCES, type ScaledResource } from "./pod-shape.js";

export type QosClass = "Guaranteed" | "Burstable" | "BestEffort";

/** Sums of positive quantities: millicores for cpu, bytes for memory; absent when no container sets one. */
export type ResourceTotals = Partial<Record<ScaledResource, bigint>>;

export interface PodResourceTotals {
  readonly requests: ResourceTotals;
  readonly limits: ResourceTotals;
  /** Every container (init containers too) limits both cpu and memory. */
  readonly everyContainerLimitsBoth: boolean;
}

/**
 * QoS class as the API server computes it (pkg/apis/core/helper/qos `GetPodQOS`): over
 * cpu and memory of all containers incl. init containers, zero quantities ignored.
 * No requests and no limits -> BestEffort; every container limits both and the summed
 * requests equal the summed limits -> Guaranteed; else Burstable. A missing request counts
 * as its limit, as API defaulting sets it (already done by the time a webhook runs).
 */
export function qosClass(pod: PodShape): QosClass {
  const { requests, limits, everyContainerLimitsBoth } = podResourceTotals(pod);
  if (Object.keys(requests).length === 0 && Object.keys(limits).length === 0) return "BestEffort";
  const same = SCALED_RESOURCES.every((r) => requests[r] === limits[r]);
  return everyContainerLimitsBoth && same ? "Guaranteed" : "Burstable";
}

/**
 * Per-resource sums over containers and init containers, in integer millicores and bytes
 * (each quantity rounded up like Go's `MilliValue()` / `Value()`, as the scheduler counts):
 * a sum of exact fractions grows its denominator with every term (20 000 containers: 1.5 s).
 * A sub-millicore difference is lost: such a Burstable pod reads as Guaranteed and is left
 * unscaled (the safe side); a Guaranteed pod never reads as Burstable (request <= limit per container).
 */
export function podResourceTotals(pod: PodShape): PodResourceTotals {
  const requests: ResourceTotals = {};
  const limits: ResourceTotals = {};
  let everyContainerLimitsBoth = true;
  // Containers of one pod mostly repeat a few quantity texts: each is parsed once.
  const parsed = new Map<string, bigint>();
  const amount = (r: ScaledResource, text: string): bigint => {
    const key = `${r}:${text}`;
    let value = parsed.get(key);
    if (value === undefined) {
      const q = parseQuantity(text);
      value = q.num <= 0n ? 0n : r === "cpu" ? quantityMilli(q) : quantityBytes(q);
      parsed.set(key, value);
    }
    return value;
  };
  /** Adds the positive cpu/memory quantities of `list` to `sums`; returns how many it added. */
  const addPositive = (sums: ResourceTotals, list: ResourceList | undefined): number => {
    let added = 0;
    for (const r of SCALED_RESOURCES) {
      const text = list?.[r];
      const value = text === undefined ? 0n : amount(r, text);
      if (value <= 0n) continue;
      added++;
      sums[r] = (sums[r] ?? 0n) + value;
    }
    return added;
  };
  const all: readonly ContainerShape[] = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  for (const c of all) {
    addPositive(requests, { ...c.resources?.limits, ...c.resources?.requests });
    if (addPositive(limits, c.resources?.limits) < SCALED_RESOURCES.length) everyContainerLimitsBoth = false;
  }
  return { requests, limits, everyContainerLimitsBoth };
}
