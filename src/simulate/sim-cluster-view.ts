import type { ClusterView, NodeView, PodView } from "../model/cluster.js";
import type { World } from "./build-world.js";

const BYTES_PER_MIB = 1024 * 1024;

/**
 * The Kubernetes view hvx's informers would hold during a run: the nodes with their
 * allocatable, and the pods bound to each with requests, limits, the burst guard's
 * expected demand (the original requests, kept by the admission webhook) and binding
 * time. Snapshots are immutable, as the placement code expects; a binding or an unbinding
 * makes the next `current()` a new snapshot that shares every unchanged node's pod list.
 */
export class SimClusterView {
  private readonly nodes: ReadonlyMap<string, NodeView>;
  private readonly podsByNode = new Map<string, readonly PodView[]>();
  private snapshot: ClusterView | undefined;

  constructor(
    private readonly world: World,
    private readonly startMs: number,
  ) {
    const nodes = new Map<string, NodeView>();
    world.nodes.names.forEach((name, n) => {
      nodes.set(name, {
        name,
        providerID: `vsphere://${world.vms.biosUuids[n]!}`,
        allocatable: { cpuMilli: world.nodes.allocCpuMilli[n]!, memoryBytes: world.nodes.allocMemMiB[n]! * BYTES_PER_MIB },
        labels: {},
        annotations: {},
      });
    });
    this.nodes = nodes;
  }

  /** The pod as the scheduler sees it (bound when `node` and `step` are given). */
  podView(pod: number, node?: number, step?: number): PodView {
    const { pods } = this.world;
    return {
      namespace: "default",
      name: pods.names[pod]!,
      uid: `pod-${pod}`,
      ...(node !== undefined ? { nodeName: this.world.nodes.names[node]! } : {}),
      ownerKey: pods.owners[pod]!,
      requests: { cpuMilli: pods.reqCpuMilli[pod]!, memoryBytes: pods.reqMemMiB[pod]! * BYTES_PER_MIB },
      limits: { cpuMilli: pods.limCpuMilli[pod]!, memoryBytes: pods.limMemMiB[pod]! * BYTES_PER_MIB },
      expectedDemand: { cpuMilli: pods.origCpuMilli[pod]!, memoryBytes: pods.origMemMiB[pod]! * BYTES_PER_MIB },
      ...(step !== undefined ? { boundAtMs: this.startMs + step * this.world.stepSeconds * 1000 } : {}),
      terminal: false,
      eviction: { controllerKind: "ReplicaSet", ownerKinds: ["ReplicaSet"], priority: pods.priority[pod]!, localStorage: false },
    };
  }

  bind(pod: number, node: number, step: number): void {
    const name = this.world.nodes.names[node]!;
    this.podsByNode.set(name, [...(this.podsByNode.get(name) ?? []), this.podView(pod, node, step)]);
    this.snapshot = undefined;
  }

  unbind(pod: number, node: number): void {
    const name = this.world.nodes.names[node]!;
    const uid = `pod-${pod}`;
    this.podsByNode.set(name, (this.podsByNode.get(name) ?? []).filter((p) => p.uid !== uid));
    this.snapshot = undefined;
  }

  current(): ClusterView {
    this.snapshot ??= { nodes: this.nodes, podsByNode: new Map(this.podsByNode), namespaces: new Map([["default", {}]]), syncedAtMs: this.startMs };
    return this.snapshot;
  }
}
