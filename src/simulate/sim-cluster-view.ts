import type { ClusterView, NodeView, PodView, WorkloadClass } from "../model/cluster.js";
import { OverlayMap } from "../model/overlay-map.js";
import type { World } from "./build-world.js";
import { controllerKindOf } from "./sim-pod-facts.js";

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
  /** The last snapshot's lists, and the lists changed since (shared, never copied whole). */
  private podsByNode: ReadonlyMap<string, readonly PodView[]> = new Map();
  private changed = new Map<string, readonly PodView[]>();
  private snapshot: ClusterView | undefined;
  /** Pods the informer shows bound. */
  private readonly shown = new Set<number>();
  /** Bound pods hvx's informer has not seen yet, in binding order. */
  private inFlight: Array<{ pod: number; node: number; visibleAtMs: number }> = [];
  private readonly latencyMs: number;

  constructor(
    private readonly world: World,
    private readonly startMs: number,
    /** Told the uid of each pod the informer now shows bound, or that left its node (the in-flight ledger's feed). */
    private readonly onSettled?: (uid: string, how: "bound" | "deleted") => void,
    /** Each pod's workload class (`podClassesOf`); absent: none has one. */
    private readonly classes: ReadonlyArray<WorkloadClass | undefined> = [],
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
    this.latencyMs = (world.scenario.bindLatencySeconds ?? 0) * 1000;
  }

  /** The pod as the scheduler sees it (bound when `node` and `boundAtMs` are given). */
  podView(pod: number, node?: number, boundAtMs?: number): PodView {
    const { pods } = this.world;
    const kind = controllerKindOf(this.world, pod);
    return {
      namespace: "default",
      name: pods.names[pod]!,
      uid: `pod-${pod}`,
      ...(node !== undefined ? { nodeName: this.world.nodes.names[node]! } : {}),
      ownerKey: pods.owners[pod]!,
      requests: { cpuMilli: pods.reqCpuMilli[pod]!, memoryBytes: pods.reqMemMiB[pod]! * BYTES_PER_MIB },
      limits: { cpuMilli: pods.limCpuMilli[pod]!, memoryBytes: pods.limMemMiB[pod]! * BYTES_PER_MIB },
      expectedDemand: { cpuMilli: pods.origCpuMilli[pod]!, memoryBytes: pods.origMemMiB[pod]! * BYTES_PER_MIB },
      ...(boundAtMs !== undefined ? { boundAtMs } : {}),
      terminal: false,
      ...(this.classes[pod] !== undefined ? { workloadClass: this.classes[pod] } : {}),
      eviction: { controllerKind: kind, ownerKinds: [kind], priority: pods.priority[pod]!, localStorage: false },
    };
  }

  /**
   * The pod with that uid as the informer holds it while pending: every pod of the world it
   * does not show bound (the simulator asks hvx only about pods waiting for a node).
   */
  pendingPod(uid: string): PodView | undefined {
    const match = /^pod-(\d+)$/.exec(uid);
    const pod = match ? Number(match[1]) : -1;
    return pod >= 0 && pod < this.world.pods.names.length && !this.shown.has(pod) ? this.podView(pod) : undefined;
  }

  /**
   * The scheduler bound `pod` at `atMs`; the informer sees it `bindLatencySeconds` later,
   * and that is its binding time for the burst guard (DESIGN: the time hvx first saw it bound).
   */
  bind(pod: number, node: number, atMs: number): void {
    const visibleAtMs = atMs + this.latencyMs;
    if (this.latencyMs > 0) this.inFlight.push({ pod, node, visibleAtMs });
    else this.show(pod, node, visibleAtMs);
  }

  private show(pod: number, node: number, boundAtMs: number): void {
    this.onSettled?.(`pod-${pod}`, "bound");
    this.shown.add(pod);
    const name = this.world.nodes.names[node]!;
    this.changed.set(name, [...this.podsOn(name), this.podView(pod, node, boundAtMs)]);
    this.snapshot = undefined;
  }

  unbind(pod: number, node: number): void {
    this.onSettled?.(`pod-${pod}`, "deleted");
    this.shown.delete(pod);
    const pending = this.inFlight.findIndex((f) => f.pod === pod);
    if (pending >= 0) {
      this.inFlight.splice(pending, 1);
      return;
    }
    const name = this.world.nodes.names[node]!;
    const uid = `pod-${pod}`;
    this.changed.set(
      name,
      this.podsOn(name).filter((p) => p.uid !== uid),
    );
    this.snapshot = undefined;
  }

  private podsOn(name: string): readonly PodView[] {
    return this.changed.get(name) ?? this.podsByNode.get(name) ?? [];
  }

  /** What the informers hold at `nowMs` (pods bound less than the latency ago are missing). */
  current(nowMs = Infinity): ClusterView {
    if (this.inFlight.length > 0 && this.inFlight[0]!.visibleAtMs <= nowMs) {
      const still: typeof this.inFlight = [];
      for (const f of this.inFlight) {
        if (f.visibleAtMs <= nowMs) this.show(f.pod, f.node, f.visibleAtMs);
        else still.push(f);
      }
      this.inFlight = still;
    }
    if (this.changed.size > 0) {
      this.podsByNode = OverlayMap.patched(this.podsByNode, this.changed, Math.max(16, Math.ceil(2 * Math.sqrt(this.nodes.size))));
      this.changed = new Map();
    }
    this.snapshot ??= {
      nodes: this.nodes,
      podsByNode: this.podsByNode,
      namespaces: new Map([["default", {}]]),
      syncedAtMs: this.startMs,
    };
    return this.snapshot;
  }
}
