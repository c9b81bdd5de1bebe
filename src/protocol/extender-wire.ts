/**
 * kube-scheduler extender wire types (k8s.io/kube-scheduler/extender/v1). The Go structs
 * have no json tags, so the top-level keys are Go field names (`Pod`, `Nodes`, `NodeNames`,
 * `FailedNodes`, ...). Inner Pod and Node objects use the normal camelCase API keys.
 */

/** The parts of a v1.Pod hvx reads. Everything else travels along untouched. */
export interface WirePod {
  readonly metadata?: {
    readonly name?: string;
    readonly generateName?: string;
    readonly namespace?: string;
    readonly uid?: string;
    readonly labels?: Record<string, string>;
    readonly annotations?: Record<string, string>;
    readonly ownerReferences?: ReadonlyArray<{ readonly kind?: string; readonly name?: string; readonly controller?: boolean }>;
  };
  readonly spec?: {
    readonly priorityClassName?: string;
    readonly priority?: number;
    readonly preemptionPolicy?: string;
    readonly activeDeadlineSeconds?: number;
    readonly [key: string]: unknown;
  };
  readonly [key: string]: unknown;
}

/** The parts of a v1.Node hvx reads. */
export interface WireNode {
  readonly metadata?: { readonly name?: string; readonly [key: string]: unknown };
  readonly spec?: { readonly providerID?: string; readonly [key: string]: unknown };
  readonly status?: {
    readonly nodeInfo?: { readonly systemUUID?: string; readonly [key: string]: unknown };
    readonly [key: string]: unknown;
  };
  readonly [key: string]: unknown;
}

export interface WireNodeList {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: Record<string, unknown>;
  readonly items: readonly WireNode[];
}

/** ExtenderArgs: sent to filter and prioritize. Exactly one of Nodes / NodeNames is non-null. */
export interface ExtenderArgs {
  readonly Pod: WirePod;
  readonly Nodes: WireNodeList | null;
  readonly NodeNames: readonly string[] | null;
}

/** ExtenderFilterResult. */
export interface ExtenderFilterResult {
  Nodes: WireNodeList | null;
  NodeNames: string[] | null;
  FailedNodes: Record<string, string>;
  FailedAndUnresolvableNodes: Record<string, string>;
  Error: string;
}

/** One element of the prioritize reply (HostPriorityList is a bare JSON array). */
export interface HostPriority {
  Host: string;
  /** Integer 0..10; a float or a string makes kube-scheduler drop the whole reply. */
  Score: number;
}
