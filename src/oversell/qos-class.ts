import { parseQuantity } from "../quantity/parse-quantity.js";
import type { Quantity } from "../quantity/quantity.js";
import { type ContainerShape, type PodShape, SCALED_RESOURCES } from "./pod-shape.js";

export type QosClass = "Guaranteed" | "Burstable" | "BestEffort";

/**
 * QoS class as the API server computes it (pkg/apis/core/helper/qos `GetPodQOS`): over
 * cpu and memory of all containers incl. init containers, zero quantities ignored.
 * No requests and no limits -> BestEffort; every container limits both and the summed
 * requests equal the summed limits -> Guaranteed; else Burstable. A missing request counts
 * as its limit, as API defaulting sets it (already done by the time a webhook runs).
 */
export function qosClass(pod: PodShape): QosClass {
  const requests = new Map<string, Quantity>();
  const limits = new Map<string, Quantity>();
  let guaranteed = true;
  const all: readonly ContainerShape[] = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  for (const c of all) {
    addPositive(requests, { ...c.resources?.limits, ...c.resources?.requests });
    const found = addPositive(limits, c.resources?.limits);
    if (!SCALED_RESOURCES.every((r) => found.has(r))) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return "BestEffort";
  if (guaranteed) {
    for (const [name, req] of requests) {
      const lim = limits.get(name);
      if (!lim || !sameValue(lim, req)) {
        guaranteed = false;
        break;
      }
    }
  }
  return guaranteed && requests.size === limits.size ? "Guaranteed" : "Burstable";
}

function addPositive(sums: Map<string, Quantity>, list: Readonly<Record<string, string>> | undefined): Set<string> {
  const found = new Set<string>();
  for (const r of SCALED_RESOURCES) {
    const text = list?.[r];
    if (text === undefined) continue;
    const q = parseQuantity(text);
    if (q.num <= 0n) continue;
    found.add(r);
    const prev = sums.get(r);
    sums.set(r, prev ? add(prev, q) : q);
  }
  return found;
}

function add(a: Quantity, b: Quantity): Quantity {
  return { num: a.num * b.den + b.num * a.den, den: a.den * b.den, format: a.format };
}

function sameValue(a: Quantity, b: Quantity): boolean {
  return a.num * b.den === b.num * a.den;
}
