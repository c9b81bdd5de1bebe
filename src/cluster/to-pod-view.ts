import type { PodView, ResourceAmounts } from "../model/cluster.js";
import { podDemand, type PodResourceSpec } from "../placement/pod-demand.js";

/**
 * The parts of a `v1.Pod` hvx reads. Timestamps arrive as RFC 3339 text (watch events) or as
 * `Date` (lists deserialized by client-node): both are accepted.
 */
type Timestamp = string | Date | null | undefined;
export interface PodWire {
  readonly metadata?: {
    readonly name?: string;
    readonly namespace?: string;
    readonly uid?: string;
    readonly labels?: Record<string, string>;
    readonly annotations?: Record<string, string>;
    readonly creationTimestamp?: Timestamp;
    readonly ownerReferences?: ReadonlyArray<{ readonly kind?: string; readonly name?: string; readonly controller?: boolean }>;
  };
  readonly spec?: PodResourceSpec & { readonly nodeName?: string };
  readonly status?: {
    readonly phase?: string;
    readonly conditions?: ReadonlyArray<{ readonly type?: string; readonly status?: string; readonly lastTransitionTime?: Timestamp }>;
  };
}

const REPLICA_OWNERS = new Set(["ReplicaSet", "StatefulSet", "Job"]);
export const APP_NAME_LABEL = "app.kubernetes.io/name";

/**
 * Converts a Pod. `firstSeenBoundMs` is when hvx first saw it bound: the last resort for the
 * binding time, after the PodScheduled condition's lastTransitionTime and the creation time
 * (DESIGN "Burst guard"). Quantity problems go to `problems`; nothing here throws.
 */
export function toPodView(pod: PodWire, defaults: ResourceAmounts, firstSeenBoundMs: number, problems: string[] = []): PodView {
  const meta = pod.metadata ?? {};
  const namespace = meta.namespace ?? "";
  const name = meta.name ?? "";
  const demand = podDemand(pod.spec, meta.annotations, defaults);
  for (const p of demand.problems) problems.push(`pod ${namespace}/${name}: ${p}`);
  const phase = pod.status?.phase;
  const view: { -readonly [K in keyof PodView]: PodView[K] } = {
    namespace,
    name,
    uid: meta.uid ?? "",
    requests: demand.requests,
    limits: demand.limits,
    expectedDemand: demand.expectedDemand,
    terminal: phase === "Succeeded" || phase === "Failed",
  };
  if (demand.originalRequests) view.originalRequests = demand.originalRequests;
  const nodeName = pod.spec?.nodeName;
  if (nodeName) {
    view.nodeName = nodeName;
    view.boundAtMs = bindingTimeMs(pod) ?? firstSeenBoundMs;
  }
  const ownerKey = ownerKeyOf(pod);
  if (ownerKey) view.ownerKey = ownerKey;
  return view;
}

/** `ReplicaSet/ns/name`, `StatefulSet/ns/name`, `Job/ns/name` (controller owner), else `app/ns/<app.kubernetes.io/name>`. */
export function ownerKeyOf(pod: PodWire): string | undefined {
  const meta = pod.metadata ?? {};
  const ns = meta.namespace ?? "";
  const refs = meta.ownerReferences ?? [];
  const owner = refs.find((r) => r.controller === true) ?? refs[0];
  if (owner?.kind && owner.name && REPLICA_OWNERS.has(owner.kind)) return `${owner.kind}/${ns}/${owner.name}`;
  const app = meta.labels?.[APP_NAME_LABEL];
  return app ? `app/${ns}/${app}` : undefined;
}

function bindingTimeMs(pod: PodWire): number | undefined {
  const scheduled = pod.status?.conditions?.find((c) => c.type === "PodScheduled" && c.status === "True");
  return toMs(scheduled?.lastTransitionTime) ?? toMs(pod.metadata?.creationTimestamp);
}

function toMs(t: Timestamp): number | undefined {
  if (t === undefined || t === null) return undefined;
  const ms = t instanceof Date ? t.getTime() : Date.parse(t);
  return Number.isFinite(ms) ? ms : undefined;
}
