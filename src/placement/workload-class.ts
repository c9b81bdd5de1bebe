import type { WorkloadClass } from "../model/cluster.js";

export type { WorkloadClass };

/** The label that names a pod's class outright: `online`, `batch` or `none` (no class); it wins over every other signal. */
export const WORKLOAD_CLASS_LABEL = "hvx.io/workload-class";

/**
 * The Kubernetes "high-priority" example's value (kubernetes.io, Pod Priority and Preemption):
 * pods at or above it are online by default. Below 1e9, so system-critical classes (which hvx
 * exempts anyway) are not what makes the default.
 */
export const DEFAULT_ONLINE_MIN_PRIORITY = 1_000_000;

/** What of a pod its class is decided from (all from the Pod object; absent: the pod does not say). */
export interface WorkloadFacts {
  readonly labels: Readonly<Record<string, string>>;
  readonly priorityClassName?: string | undefined;
  /** `spec.priority`, as the priority admission plugin set it. */
  readonly priority?: number | undefined;
  /** Kind of the owner reference with `controller: true` (a CronJob's pods are owned by its Jobs). */
  readonly controllerKind?: string | undefined;
  /** `status.qosClass` as the API server set it. */
  readonly qosClass?: string | undefined;
}

/** How pods are sorted into classes (`workloadClasses.*` in the configuration, README "Cluster awareness"). */
export interface WorkloadClassification {
  /** Label key of the outright class; "" ignores labels. */
  readonly label: string;
  readonly online: {
    readonly priorityClassNames: readonly string[];
    /** Pods with `spec.priority` at or above this are online; null: priority never makes a pod online. */
    readonly minPriority: number | null;
  };
  readonly batch: {
    readonly priorityClassNames: readonly string[];
    /** Pods with `spec.priority` at or below this are batch; null: priority never makes a pod batch. */
    readonly maxPriority: number | null;
    /** Pods a Job controls (a CronJob's too) are batch. */
    readonly jobs: boolean;
    /** BestEffort pods (no requests, no limits) are batch. */
    readonly bestEffort: boolean;
  };
}

export const DEFAULT_WORKLOAD_CLASSIFICATION: WorkloadClassification = {
  label: WORKLOAD_CLASS_LABEL,
  online: { priorityClassNames: [], minPriority: DEFAULT_ONLINE_MIN_PRIORITY },
  batch: { priorityClassNames: [], maxPriority: -1, jobs: true, bestEffort: true },
};

/**
 * The pod's class, first signal that says one: the label (`online`, `batch`; `none` or any other
 * value: no class), the priority class name lists, the priority value (online at or above
 * `online.minPriority`, batch at or below `batch.maxPriority`), a Job controller, the BestEffort
 * QoS class. Undefined: no class, and the workload-class rule has no opinion on the pod.
 */
export function classifyWorkload(facts: WorkloadFacts, c: WorkloadClassification): WorkloadClass | undefined {
  const labelled = c.label === "" ? undefined : facts.labels[c.label];
  if (labelled !== undefined) return labelled === "online" || labelled === "batch" ? labelled : undefined;
  const className = facts.priorityClassName;
  if (className !== undefined) {
    if (c.online.priorityClassNames.includes(className)) return "online";
    if (c.batch.priorityClassNames.includes(className)) return "batch";
  }
  const priority = facts.priority;
  if (priority !== undefined) {
    if (c.online.minPriority !== null && priority >= c.online.minPriority) return "online";
    if (c.batch.maxPriority !== null && priority <= c.batch.maxPriority) return "batch";
  }
  if (c.batch.jobs && facts.controllerKind === "Job") return "batch";
  if (c.batch.bestEffort && facts.qosClass === "BestEffort") return "batch";
  return undefined;
}
