import type { NodeIdentity } from "./node.js";

/**
 * Core snapshot of the Kubernetes side, as the informers last saw it (cluster-awareness).
 * Quantities are plain numbers: CPU in millicores, memory in bytes.
 */
export interface ResourceAmounts {
  readonly cpuMilli: number;
  readonly memoryBytes: number;
}

export interface NodeView extends NodeIdentity {
  readonly allocatable: ResourceAmounts;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
}

/**
 * Latency-sensitive (`online`) or throughput (`batch`) work: hvx keeps the two on different ESXi
 * hosts where it can (src/placement/workload-class.ts decides which a pod is).
 */
export type WorkloadClass = "online" | "batch";

export interface PodView {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  /** `spec.nodeName`; undefined while pending. */
  readonly nodeName?: string;
  /** Replica group key: `ReplicaSet/ns/name`, `StatefulSet/ns/name`, `Job/ns/name`, or `app/ns/<app.kubernetes.io/name>`. */
  readonly ownerKey?: string;
  /** Effective pod requests (kube-scheduler's formula, incl. sidecars and overhead). */
  readonly requests: ResourceAmounts;
  /** Sum of limits; a container without a limit counts with its request (DESIGN conventions). */
  readonly limits: ResourceAmounts;
  /** Demand the burst guard projects: original requests, else requests, else limits, else defaults. */
  readonly expectedDemand: ResourceAmounts;
  /** Requests before the oversell webhook scaled them (`hvx.io/original-requests`); undefined when not scaled. */
  readonly originalRequests?: ResourceAmounts;
  /**
   * Binding time on hvx's own clock: when its informer's watch first showed the pod bound.
   * Undefined for a pod already bound when listed (at start-up or a relist): not a new binding.
   * The API server's timestamps are not used (another clock).
   */
  readonly boundAtMs?: number;
  /** Terminal pods (Succeeded/Failed) hold no resources. */
  readonly terminal: boolean;
  /** While pending: the message of its `PodScheduled: False` condition (kube-scheduler's last "0/N nodes are available: ..."). */
  readonly unschedulableMessage?: string;
  /** The pod's workload class, decided when the view is built (`classifyWorkload`); undefined: none, no opinion. */
  readonly workloadClass?: WorkloadClass;
  /** What decides whether hvx may evict the pod (rebalancing); undefined: unknown, never evicted. */
  readonly eviction?: PodEvictionFacts;
}

/** The parts of a pod that decide whether the rebalancer may evict it. */
export interface PodEvictionFacts {
  /** Kind of the owner reference with `controller: true` (`ReplicaSet`, `StatefulSet`, `Node` for a mirror pod...); undefined: none. */
  readonly controllerKind?: string;
  readonly ownerKinds: readonly string[];
  /** Uid of the controller reference when it is an `apps/v1` DaemonSet. */
  readonly daemonSetUid?: string;
  readonly priorityClassName?: string;
  /** `spec.priority` (set by the priority admission plugin). */
  readonly priority?: number;
  /** The `hvx.io/exempt` annotation, when set. */
  readonly exemptAnnotation?: string;
  /** An `emptyDir` or `hostPath` volume: the descheduler's `IsPodWithLocalStorage`. */
  readonly localStorage: boolean;
}

export interface ClusterView {
  readonly nodes: ReadonlyMap<string, NodeView>;
  /** Non-terminal pods bound to each node. */
  readonly podsByNode: ReadonlyMap<string, readonly PodView[]>;
  /** Namespace name -> labels. */
  readonly namespaces: ReadonlyMap<string, Readonly<Record<string, string>>>;
  /**
   * `namespace/uid` of each DaemonSet that is the apps/v1 controller of at least one bound pod
   * the informer holds; undefined: the producer does not say (exemption then needs only the
   * controller reference). Not a DaemonSet watch: see docs/security.md for what it proves.
   */
  readonly daemonSets?: ReadonlySet<string>;
  /**
   * Lowest `spec.priority` (absent: 0) of the pods in `podsByNode`, null when there is none;
   * undefined: the producer does not keep it (it is then computed from `podsByNode`).
   */
  readonly lowestRunningPriority?: number | null;
  /** When every informer had synced, epoch ms; undefined before. */
  readonly syncedAtMs?: number;
  /** Last event or relist received from the API server, epoch ms. */
  readonly lastEventMs?: number;
}

/** Read port for the Kubernetes view. `latest()` never awaits the network. */
export interface ClusterSource {
  latest(): ClusterView;
}
