import type { World } from "./build-world.js";
import { isTracedCpu } from "./scenario.js";
import type { RunState } from "./run-state.js";

/**
 * Replicas of a workload whose replicas burst together (`burst.correlated`) that share an
 * ESXi host with another replica of it on another node VM. Only DRS rules can keep node VMs
 * apart; kube-scheduler's spread sees nodes, not hosts. Scratch arrays are allocated once.
 */
export class CoHostedReplicas {
  /** Per (host, workload): the first node VM seen carrying a replica, -1 for none, -2 for two or more. */
  private readonly firstNode: Int32Array;
  private readonly touched: number[] = [];

  private constructor(
    private readonly world: World,
    private readonly correlated: Uint8Array,
  ) {
    this.firstNode = new Int32Array(world.hosts.count * correlated.length).fill(-1);
  }

  /** undefined when no workload of the scenario bursts in a correlated way. */
  static of(world: World): CoHostedReplicas | undefined {
    const flags = Uint8Array.from(world.scenario.workloads, (w) => (!isTracedCpu(w.cpu) && w.cpu.burst?.correlated ? 1 : 0));
    return flags.includes(1) ? new CoHostedReplicas(world, flags) : undefined;
  }

  /**
   * This step's pod-seconds of correlated replicas on node VMs whose own ready reaches
   * `minReadyPercent` and whose host carries another replica on another node VM.
   */
  contendedPodSeconds(state: RunState, vmReadyPercent: ArrayLike<number>, minReadyPercent: number, stepS: number): number {
    const { nodes, pods } = this.world;
    const W = this.correlated.length;
    for (let n = 0; n < nodes.count; n++) {
      for (const p of state.nodePods[n]!) {
        const w = pods.workload[p]!;
        if (!this.correlated[w]) continue;
        const k = state.vmHost[n]! * W + w;
        const first = this.firstNode[k]!;
        if (first === -1) {
          this.firstNode[k] = n;
          this.touched.push(k);
        } else if (first !== n) this.firstNode[k] = -2;
      }
    }
    let podSeconds = 0;
    for (let n = 0; n < nodes.count; n++) {
      if (vmReadyPercent[n]! < minReadyPercent) continue;
      for (const p of state.nodePods[n]!) {
        const w = pods.workload[p]!;
        if (this.correlated[w] && this.firstNode[state.vmHost[n]! * W + w] === -2) podSeconds += stepS;
      }
    }
    for (const k of this.touched) this.firstNode[k] = -1;
    this.touched.length = 0;
    return podSeconds;
  }
}
