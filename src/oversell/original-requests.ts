import { CONTAINER_LISTS, type PodShape, SCALED_RESOURCES } from "./pod-shape.js";

/** Original cpu/memory request texts, verbatim, keyed by list then container name. */
export type ContainerRequests = { cpu?: string; memory?: string };
export type OriginalRequests = {
  containers?: Record<string, ContainerRequests>;
  initContainers?: Record<string, ContainerRequests>;
};

/**
 * The pod's cpu/memory requests as written, for the `hvx.io/original-requests` annotation:
 * `{"containers":{"app":{"cpu":"2","memory":"4Gi"}},"initContainers":{"migrate":{"cpu":"500m"}}}`.
 * Containers without a cpu or memory request are left out, and so is an empty list.
 */
export function collectOriginalRequests(pod: PodShape): OriginalRequests {
  const out: OriginalRequests = {};
  for (const list of CONTAINER_LISTS) {
    const byName: Record<string, ContainerRequests> = {};
    let any = false;
    for (const c of pod.spec?.[list] ?? []) {
      const entry: ContainerRequests = {};
      for (const r of SCALED_RESOURCES) {
        const text = c.resources?.requests?.[r];
        if (text !== undefined) entry[r] = text;
      }
      if (entry.cpu !== undefined || entry.memory !== undefined) {
        byName[c.name] = entry;
        any = true;
      }
    }
    if (any) out[list] = byName;
  }
  return out;
}

/** Reads the annotation back; undefined when it is not valid JSON of that shape. */
export function parseOriginalRequests(text: string): OriginalRequests | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(value)) return undefined;
  const out: OriginalRequests = {};
  for (const [key, byName] of Object.entries(value)) {
    if (key !== "containers" && key !== "initContainers") return undefined;
    if (!isObject(byName)) return undefined;
    const list: Record<string, ContainerRequests> = {};
    for (const [name, entry] of Object.entries(byName)) {
      if (!isObject(entry)) return undefined;
      const requests: ContainerRequests = {};
      for (const [r, q] of Object.entries(entry)) {
        if ((r !== "cpu" && r !== "memory") || typeof q !== "string") return undefined;
        requests[r] = q;
      }
      list[name] = requests;
    }
    out[key] = list;
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
