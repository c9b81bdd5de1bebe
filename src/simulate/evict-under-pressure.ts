import type { World } from "./build-world.js";
import { choosePodsToEvict, EVICTION_MONITORING_SECONDS, type EvictionCandidate } from "./kubelet-eviction.js";
import type { RunState } from "./run-state.js";
import type { StepPhysics } from "./step-physics.js";
import type { Strategy } from "./strategy.js";

/**
 * Every node's kubelet after the step: memory.available = configured - (guest OS + pods'
 * working sets + balloon). Below evictionHard it evicts in kubelet's order, one pod per
 * 10 s synchronisation (two per 20 s step), taints the node (memory-pressure, NoSchedule)
 * for `taintSteps`, and the evicted pods go back to the scheduling queue for the next step.
 * Returns the number of evictions.
 */
export function evictUnderPressure(
  world: World,
  state: RunState,
  physics: StepPhysics,
  strategy: Strategy,
  step: number,
  taintSteps: number,
): number {
  const { vms, pods, nodes } = world;
  const nv = world.scenario.nodeVms;
  const rounds = Math.max(1, Math.floor(world.stepSeconds / EVICTION_MONITORING_SECONDS));
  let evicted = 0;
  for (let n = 0; n < nodes.count; n++) {
    const available = vms.memoryMiB[n]! - nv.guestOsMiB - physics.vmPodMemMiB[n]! - state.balloonMiB[n]!;
    if (available >= nv.evictionHardMiB) continue;
    const candidates: EvictionCandidate[] = state.nodePods[n]!.map((p) => ({
      pod: p,
      usageMiB: physics.podMemMiB[p]!,
      requestMiB: pods.reqMemMiB[p]!,
      priority: pods.priority[p]!,
    }));
    for (const p of choosePodsToEvict(candidates, available, nv.evictionHardMiB, rounds)) {
      strategy.unbound?.(p, n);
      state.unbind(p);
      state.podEvictions[p] = state.podEvictions[p]! + 1;
      state.enqueue(p, step + 1);
      evicted++;
    }
    state.nodePressureUntil[n] = step + taintSteps;
  }
  return evicted;
}
