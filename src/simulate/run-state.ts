import type { World } from "./build-world.js";
import { DEFAULT_MEMORY_REQUEST_MIB } from "./default-scores.js";

export const PHASE_FUTURE = 0;
export const PHASE_PENDING = 1;
export const PHASE_RUNNING = 2;
export const PHASE_DONE = 3;

/** kubelet's default maxPods. */
export const MAX_PODS_PER_NODE = 110;

/**
 * The mutable state of one strategy run: where pods are, what each node has been asked
 * for, where VMs sit, and the hosts' reclaimed memory. Flat typed arrays, no per-step
 * allocation.
 */
export class RunState {
  readonly vmHost: Int32Array;
  readonly hostInMaintenance: Uint8Array;
  readonly podPhase: Uint8Array;
  readonly podNode: Int32Array;
  readonly podStartStep: Int32Array;
  readonly podBoundStep: Int32Array;
  readonly podNextTry: Int32Array;
  readonly podQueueSeq: Int32Array;
  readonly podEvictions: Int32Array;
  readonly podEverPlaced: Uint8Array;
  readonly nodeReqCpuMilli: Float64Array;
  readonly nodeReqMemMiB: Float64Array;
  /** Non-zero requests (kube-scheduler scoring). */
  readonly nodeNzCpuMilli: Float64Array;
  readonly nodeNzMemMiB: Float64Array;
  readonly nodeLimCpuMilli: Float64Array;
  readonly nodeLimMemMiB: Float64Array;
  /** node.kubernetes.io/memory-pressure:NoSchedule is set until this step. */
  readonly nodePressureUntil: Int32Array;
  /** Pods of ReplicaSet r on node n at [r x nodes + n] (PodTopologySpread's matching pods). */
  readonly nodeReplicaSetPods: Int32Array;
  readonly nodePods: number[][];
  readonly balloonMiB: Float64Array;
  readonly swappedMiB: Float64Array;
  readonly pending: number[] = [];
  /** Bumped whenever a VM changes host. */
  placementVersion = 0;
  /** Bumped on every binding and unbinding. */
  bindVersion = 0;
  private readonly podSlot: Int32Array;
  private queueSeq = 0;

  constructor(private readonly world: World) {
    const { vms, nodes, pods, hosts } = world;
    this.vmHost = Int32Array.from(vms.initialHost);
    this.hostInMaintenance = new Uint8Array(hosts.count);
    this.podPhase = new Uint8Array(pods.count);
    this.podNode = new Int32Array(pods.count).fill(-1);
    this.podStartStep = new Int32Array(pods.count).fill(-1);
    this.podBoundStep = new Int32Array(pods.count).fill(-1);
    this.podNextTry = new Int32Array(pods.count);
    this.podQueueSeq = new Int32Array(pods.count);
    this.podEvictions = new Int32Array(pods.count);
    this.podEverPlaced = new Uint8Array(pods.count);
    this.podSlot = new Int32Array(pods.count).fill(-1);
    this.nodeReqCpuMilli = new Float64Array(nodes.count);
    this.nodeReqMemMiB = new Float64Array(nodes.count);
    this.nodeNzCpuMilli = new Float64Array(nodes.count);
    this.nodeNzMemMiB = new Float64Array(nodes.count);
    this.nodeLimCpuMilli = new Float64Array(nodes.count);
    this.nodeLimMemMiB = new Float64Array(nodes.count);
    this.nodePressureUntil = new Int32Array(nodes.count).fill(-1);
    this.nodeReplicaSetPods = new Int32Array(nodes.count * world.scenario.workloads.length);
    this.nodePods = Array.from({ length: nodes.count }, () => []);
    this.balloonMiB = new Float64Array(vms.count);
    this.swappedMiB = new Float64Array(vms.count);
  }

  /** vMotion: VM v now runs on host h. */
  moveVm(v: number, h: number): void {
    if (this.vmHost[v] === h) return;
    this.vmHost[v] = h;
    this.placementVersion++;
  }

  /** Puts a pod in the scheduling queue, to be tried from `step` on. */
  enqueue(pod: number, step: number): void {
    this.podPhase[pod] = PHASE_PENDING;
    this.podNode[pod] = -1;
    this.podNextTry[pod] = step;
    this.podQueueSeq[pod] = this.queueSeq++;
    this.pending.push(pod);
  }

  /** Kubernetes-layer feasibility (NodeResourcesFit filter, pod count, memory-pressure taint). */
  fits(pod: number, node: number, step: number): boolean {
    const { pods, nodes } = this.world;
    return (
      this.nodePressureUntil[node]! <= step &&
      this.nodePods[node]!.length < MAX_PODS_PER_NODE &&
      this.nodeReqCpuMilli[node]! + pods.reqCpuMilli[pod]! <= nodes.allocCpuMilli[node]! &&
      this.nodeReqMemMiB[node]! + pods.reqMemMiB[pod]! <= nodes.allocMemMiB[node]!
    );
  }

  /** Binds a pending pod (already removed from `pending` by the caller). */
  bind(pod: number, node: number, step: number): void {
    this.bindVersion++;
    this.podPhase[pod] = PHASE_RUNNING;
    this.podNode[pod] = node;
    this.podStartStep[pod] = step;
    this.podBoundStep[pod] = step;
    this.podEverPlaced[pod] = 1;
    this.addRequests(pod, node, 1);
    const list = this.nodePods[node]!;
    this.podSlot[pod] = list.length;
    list.push(pod);
  }

  /** Takes a running pod off its node (finished or evicted). */
  unbind(pod: number): void {
    const node = this.podNode[pod]!;
    if (node < 0) return;
    this.bindVersion++;
    this.addRequests(pod, node, -1);
    const list = this.nodePods[node]!;
    const slot = this.podSlot[pod]!;
    const last = list.pop()!;
    if (last !== pod) {
      list[slot] = last;
      this.podSlot[last] = slot;
    }
    this.podSlot[pod] = -1;
    this.podNode[pod] = -1;
  }

  private addRequests(pod: number, node: number, sign: 1 | -1): void {
    const { pods } = this.world;
    this.nodeReqCpuMilli[node] = this.nodeReqCpuMilli[node]! + sign * pods.reqCpuMilli[pod]!;
    this.nodeReqMemMiB[node] = this.nodeReqMemMiB[node]! + sign * pods.reqMemMiB[pod]!;
    this.nodeNzCpuMilli[node] = this.nodeNzCpuMilli[node]! + sign * (pods.reqCpuMilli[pod]! > 0 ? pods.reqCpuMilli[pod]! : 100);
    this.nodeNzMemMiB[node] =
      this.nodeNzMemMiB[node]! + sign * (pods.reqMemMiB[pod]! > 0 ? pods.reqMemMiB[pod]! : DEFAULT_MEMORY_REQUEST_MIB);
    this.nodeLimCpuMilli[node] = this.nodeLimCpuMilli[node]! + sign * pods.limCpuMilli[pod]!;
    this.nodeLimMemMiB[node] = this.nodeLimMemMiB[node]! + sign * pods.limMemMiB[pod]!;
    const rs = pods.replicaSet[pod]!;
    if (rs >= 0) {
      const k = rs * this.world.nodes.count + node;
      this.nodeReplicaSetPods[k] = this.nodeReplicaSetPods[k]! + sign;
    }
  }
}
