import { quantityMilli } from "../quantity/cpu-milli.js";
import { quantityBytes } from "../quantity/memory-bytes.js";
import { parseQuantity } from "../quantity/parse-quantity.js";
import { ratioWarning } from "./describe-ratios.js";
import { decideEffectiveRatios, type EffectiveRatios } from "./effective-ratios.js";
import type { FleetView } from "./fleet-view.js";
import { resolveNamespaceRatios } from "./namespace-ratios.js";
import { collectOriginalRequests, type OriginalRequests } from "./original-requests.js";
import type { OversellPolicy } from "./oversell-policy.js";
import {
  CONTAINER_LISTS,
  type ContainerList,
  ORIGINAL_REQUESTS_ANNOTATION,
  OVERSELL_ANNOTATION,
  type PodShape,
  type ScaledResource,
} from "./pod-shape.js";
import { qosClass } from "./qos-class.js";
import { scaleCpuRequest, scaleMemoryRequest } from "./scale-request.js";

export interface OversellInput {
  readonly pod: PodShape;
  /** The review's namespace (a pod being created may not carry it in metadata yet). */
  readonly namespace: string;
  readonly policy: OversellPolicy;
  /** hvx's own namespace: always excluded. */
  readonly ownNamespace: string;
  readonly namespaceLabels?: Readonly<Record<string, string>>;
  /** Undefined before any host data since start: nothing is oversold then. The edge passes the last known fleet while data is stale. */
  readonly fleet?: FleetView;
}

export type SkipReason =
  | { readonly code: "excluded_namespace"; readonly namespace: string }
  | { readonly code: "opted_out" }
  | { readonly code: "already_scaled" }
  | { readonly code: "best_effort" }
  | { readonly code: "guaranteed" }
  | { readonly code: "duplicate_container_name"; readonly name: string }
  | { readonly code: "too_many_containers"; readonly containers: number; readonly max: number }
  | { readonly code: "nothing_to_lower" };

/** One lowered request; `removed` is millicores for cpu, bytes for memory. */
export interface RequestChange {
  readonly list: ContainerList;
  readonly index: number;
  readonly container: string;
  readonly resource: ScaledResource;
  readonly from: string;
  readonly to: string;
  readonly removed: bigint;
}

export type OversellDecision =
  | { readonly kind: "skip"; readonly reason: SkipReason; readonly ratios?: EffectiveRatios; readonly warnings: readonly string[] }
  | {
      readonly kind: "scale";
      readonly changes: readonly RequestChange[];
      readonly originals: OriginalRequests;
      readonly ratios: EffectiveRatios;
      readonly warnings: readonly string[];
      readonly removedCpuMilli: bigint;
      readonly removedMemoryBytes: bigint;
    };

/**
 * Decides how a pod being created is oversold. Pure: same input, same decision.
 * Order: excluded namespace, opt-out annotation, already scaled (idempotence under
 * reinvocation), more than `maxContainers` containers, QoS (BestEffort has nothing to scale; Guaranteed kept when preserved),
 * then every existing cpu/memory request of containers and initContainers (sidecars
 * included) is divided by the effective ratio, floored at minCpu/minMemory, never raised.
 * Limits are never read for scaling and never written. Throws QuantityError on a bad quantity.
 */
export function decideOversell(input: OversellInput): OversellDecision {
  const { pod, policy, namespace } = input;
  const annotations = pod.metadata?.annotations ?? {};
  if (namespace === input.ownNamespace || policy.excludeNamespaces.includes(namespace)) {
    return skip({ code: "excluded_namespace", namespace });
  }
  if (annotations[OVERSELL_ANNOTATION] === "false") return skip({ code: "opted_out" });
  if (annotations[ORIGINAL_REQUESTS_ANNOTATION] !== undefined) return skip({ code: "already_scaled" });
  // Bounds the work one review costs on the event loop the extender shares.
  const containers = (pod.spec?.containers?.length ?? 0) + (pod.spec?.initContainers?.length ?? 0);
  if (containers > policy.maxContainers) {
    const warning = `hvx: oversell skipped: ${containers} containers > admission.maxContainers ${policy.maxContainers}`;
    return { kind: "skip", reason: { code: "too_many_containers", containers, max: policy.maxContainers }, warnings: [warning] };
  }
  const duplicate = duplicateName(pod);
  if (duplicate !== undefined) return skip({ code: "duplicate_container_name", name: duplicate });
  const qos = qosClass(pod);
  if (qos === "BestEffort") return skip({ code: "best_effort" });
  if (qos === "Guaranteed" && policy.preserveGuaranteed) return skip({ code: "guaranteed" });

  const configured = resolveNamespaceRatios(policy, namespace, input.namespaceLabels);
  const ratios = decideEffectiveRatios(configured, input.fleet, policy);
  const minMilli = quantityMilli(parseQuantity(policy.minCpu));
  const minBytes = quantityBytes(parseQuantity(policy.minMemory));
  const changes: RequestChange[] = [];
  for (const list of CONTAINER_LISTS) {
    for (const [index, c] of (pod.spec?.[list] ?? []).entries()) {
      const requests = c.resources?.requests;
      const cpu = requests?.cpu;
      const memory = requests?.memory;
      if (cpu !== undefined && ratios.cpu.ratio > 1) {
        const s = scaleCpuRequest(cpu, ratios.cpu.ratio, minMilli);
        if (s) changes.push({ list, index, container: c.name, resource: "cpu", from: cpu, to: s.text, removed: s.removed });
      }
      if (memory !== undefined && ratios.memory.ratio > 1) {
        const s = scaleMemoryRequest(memory, ratios.memory.ratio, minBytes);
        if (s) changes.push({ list, index, container: c.name, resource: "memory", from: memory, to: s.text, removed: s.removed });
      }
    }
  }
  const warnings = [...configured.warnings];
  for (const d of [ratios.cpu, ratios.memory]) {
    const w = ratioWarning(
      d,
      changes.some((c) => c.resource === d.resource),
    );
    if (w !== undefined) warnings.push(w);
  }
  if (changes.length === 0) return { kind: "skip", reason: { code: "nothing_to_lower" }, ratios, warnings };
  const sum = (r: ScaledResource): bigint => changes.filter((c) => c.resource === r).reduce((a, c) => a + c.removed, 0n);
  return {
    kind: "scale",
    changes,
    originals: collectOriginalRequests(pod),
    ratios,
    warnings,
    removedCpuMilli: sum("cpu"),
    removedMemoryBytes: sum("memory"),
  };
}

function skip(reason: SkipReason): OversellDecision {
  return { kind: "skip", reason, warnings: [] };
}

/** The annotation is keyed by name, so a (not yet validated) pod with a repeated name is left alone. */
function duplicateName(pod: PodShape): string | undefined {
  for (const list of CONTAINER_LISTS) {
    const seen = new Set<string>();
    for (const c of pod.spec?.[list] ?? []) {
      if (seen.has(c.name)) return c.name;
      seen.add(c.name);
    }
  }
  return undefined;
}
