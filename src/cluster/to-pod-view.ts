import type { PodEvictionFacts, PodView, ResourceAmounts } from "../model/cluster.js";
import { daemonSetControllerUid, EXEMPT_ANNOTATION } from "../placement/exemption.js";
import { podDemand, type PodResourceSpec } from "../placement/pod-demand.js";
import { classifyWorkload, DEFAULT_WORKLOAD_CLASSIFICATION, type WorkloadClassification } from "../placement/workload-class.js";
import { SharedValues } from "./shared-values.js";

/**
 * The parts of a `v1.Pod` hvx looks at. Timestamps arrive as RFC 3339 text (watch events) or as
 * `Date` (lists deserialized by client-node); they are typed here but not read (see `toPodView`).
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
    readonly ownerReferences?: ReadonlyArray<{
      readonly apiVersion?: string;
      readonly kind?: string;
      readonly name?: string;
      readonly uid?: string;
      readonly controller?: boolean;
    }>;
  };
  readonly spec?: PodResourceSpec & {
    readonly nodeName?: string;
    readonly priority?: number;
    readonly priorityClassName?: string;
    readonly volumes?: ReadonlyArray<{ readonly emptyDir?: unknown; readonly hostPath?: unknown }> | null;
  };
  readonly status?: {
    readonly phase?: string;
    /** Set by the API server at creation (`Guaranteed`, `Burstable`, `BestEffort`). */
    readonly qosClass?: string;
    readonly conditions?: ReadonlyArray<{
      readonly type?: string;
      readonly status?: string;
      readonly message?: string;
      readonly lastTransitionTime?: Timestamp;
    }>;
  };
}

const REPLICA_OWNERS = new Set(["ReplicaSet", "StatefulSet", "Job"]);

/** Distinct values a pod view shares with other pods' (amounts, eviction facts, owner keys); bounded. */
const MAX_SHARED_VALUES = 4096;
const sharedAmounts = new SharedValues<ResourceAmounts>(MAX_SHARED_VALUES);
const sharedEvictionFacts = new SharedValues<PodEvictionFacts>(MAX_SHARED_VALUES);
const sharedOwnerKeys = new SharedValues<string>(MAX_SHARED_VALUES);

function amounts(a: ResourceAmounts): ResourceAmounts {
  return sharedAmounts.shared(`${a.cpuMilli}/${a.memoryBytes}`, a);
}
export const APP_NAME_LABEL = "app.kubernetes.io/name";
/** Set by the Deployment controller on its ReplicaSets' pods; the ReplicaSet is named `<deployment>-<hash>`. */
export const POD_TEMPLATE_HASH_LABEL = "pod-template-hash";

/**
 * Converts a Pod. `firstSeenBoundMs` is the binding time: the local time at which hvx's
 * informer first saw the pod bound, or undefined for a pod that was already bound when hvx
 * listed it (not a new binding). The API server's timestamps (PodScheduled, creation) are not
 * used: they are on another clock than the samples the burst guard compares them with, and a
 * skew would hold or release pending demand at the wrong time. Quantity problems go to
 * `problems`; nothing here throws. `classes` sorts the pod into a workload class (`workloadClasses.*`).
 */
export function toPodView(
  pod: PodWire,
  defaults: ResourceAmounts,
  firstSeenBoundMs: number | undefined,
  problems: string[] = [],
  classes: WorkloadClassification = DEFAULT_WORKLOAD_CLASSIFICATION,
): PodView {
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
    requests: amounts(demand.requests),
    limits: amounts(demand.limits),
    expectedDemand: amounts(demand.expectedDemand),
    terminal: phase === "Succeeded" || phase === "Failed",
  };
  if (demand.originalRequests) view.originalRequests = amounts(demand.originalRequests);
  const nodeName = pod.spec?.nodeName;
  if (nodeName) {
    view.nodeName = nodeName;
    if (firstSeenBoundMs !== undefined) view.boundAtMs = firstSeenBoundMs;
  } else {
    const unschedulable = pod.status?.conditions?.find((c) => c.type === "PodScheduled" && c.status === "False")?.message;
    if (unschedulable) view.unschedulableMessage = unschedulable;
  }
  const ownerKey = ownerKeyOf(pod);
  if (ownerKey) view.ownerKey = sharedOwnerKeys.shared(ownerKey, ownerKey);
  const facts = evictionFactsOf(pod);
  const eviction = (view.eviction = sharedEvictionFacts.shared(JSON.stringify(facts), facts));
  const workloadClass = classifyWorkload({ ...eviction, labels: meta.labels ?? {}, qosClass: pod.status?.qosClass }, classes);
  if (workloadClass !== undefined) view.workloadClass = workloadClass;
  return view;
}

/** What the rebalancer needs to judge whether it may evict the pod. */
export function evictionFactsOf(pod: PodWire): PodEvictionFacts {
  const meta = pod.metadata ?? {};
  const refs = meta.ownerReferences ?? [];
  const spec = pod.spec;
  const facts: { -readonly [K in keyof PodEvictionFacts]: PodEvictionFacts[K] } = {
    ownerKinds: refs.map((r) => r.kind ?? ""),
    // The descheduler's IsPodWithLocalStorage: emptyDir or hostPath (kubectl drain counts emptyDir only).
    localStorage: (spec?.volumes ?? []).some(
      (v) => (v.emptyDir !== undefined && v.emptyDir !== null) || (v.hostPath !== undefined && v.hostPath !== null),
    ),
  };
  const controller = refs.find((r) => r.controller === true)?.kind;
  if (controller) facts.controllerKind = controller;
  const daemonSetUid = daemonSetControllerUid(refs);
  if (daemonSetUid !== undefined) facts.daemonSetUid = daemonSetUid;
  if (typeof spec?.priority === "number") facts.priority = spec.priority;
  if (spec?.priorityClassName) facts.priorityClassName = spec.priorityClassName;
  const exempt = meta.annotations?.[EXEMPT_ANNOTATION];
  if (exempt !== undefined) facts.exemptAnnotation = exempt;
  return facts;
}

/**
 * The replica group: `Deployment/ns/name` for a ReplicaSet owner named `<name>-<pod-template-hash>`
 * whose pod carries that `pod-template-hash` label (all ReplicaSets of a Deployment are one group,
 * so a rolling update does not reset the spread), else `ReplicaSet/ns/name`, `StatefulSet/ns/name`,
 * `Job/ns/name` (controller owner), else `app/ns/<app.kubernetes.io/name>`.
 */
export function ownerKeyOf(pod: PodWire): string | undefined {
  const meta = pod.metadata ?? {};
  const ns = meta.namespace ?? "";
  const refs = meta.ownerReferences ?? [];
  const owner = refs.find((r) => r.controller === true) ?? refs[0];
  if (owner?.kind === "ReplicaSet" && owner.name) {
    const hash = meta.labels?.[POD_TEMPLATE_HASH_LABEL];
    const suffix = `-${hash}`;
    if (hash && owner.name.length > suffix.length && owner.name.endsWith(suffix))
      return `Deployment/${ns}/${owner.name.slice(0, -suffix.length)}`;
  }
  if (owner?.kind && owner.name && REPLICA_OWNERS.has(owner.kind)) return `${owner.kind}/${ns}/${owner.name}`;
  const app = meta.labels?.[APP_NAME_LABEL];
  return app ? `app/${ns}/${app}` : undefined;
}
