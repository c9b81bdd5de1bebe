import type { World } from "./build-world.js";
import type { RunState } from "./run-state.js";

/**
 * Maintenance windows: at the start of a window the host enters maintenance and every
 * VM on it moves (vMotion, DRS-like) to the in-service host with the most unassigned
 * memory (physical memory - configured memory of its VMs; lowest index on a tie),
 * one VM at a time in VM order. At the end the host returns empty; VMs do not move back.
 */
export function applyMaintenance(world: World, state: RunState, step: number): void {
  const stepMin = world.stepSeconds / 60;
  for (const m of world.scenario.maintenance) {
    const start = Math.floor(m.startMinute / stepMin);
    const end = Math.floor((m.startMinute + m.durationMinutes) / stepMin);
    if (step === start) {
      state.hostInMaintenance[m.host] = 1;
      evacuate(world, state, m.host);
    } else if (step === end) {
      state.hostInMaintenance[m.host] = 0;
    }
  }
}

function evacuate(world: World, state: RunState, host: number): void {
  const { vms, hosts } = world;
  const assigned = new Float64Array(hosts.count);
  for (let v = 0; v < vms.count; v++) assigned[state.vmHost[v]!] = assigned[state.vmHost[v]!]! + vms.memoryMiB[v]!;
  for (let v = 0; v < vms.count; v++) {
    if (state.vmHost[v] !== host) continue;
    let best = -1;
    let bestFree = -Infinity;
    for (let h = 0; h < hosts.count; h++) {
      if (h === host || state.hostInMaintenance[h]) continue;
      const free = hosts.memoryMiB[h]! - assigned[h]!;
      if (free > bestFree) {
        bestFree = free;
        best = h;
      }
    }
    if (best < 0) return; // nowhere to go: the VMs stay (and keep running) on the host
    assigned[host] = assigned[host]! - vms.memoryMiB[v]!;
    assigned[best] = assigned[best]! + vms.memoryMiB[v]!;
    state.moveVm(v, best);
  }
}
