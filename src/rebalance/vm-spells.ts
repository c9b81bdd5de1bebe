import type { InventoryView } from "../model/inventory.js";
import { ageSeconds } from "../placement/assess-host.js";
import { CLEAR_POLLS_TO_COOL } from "../placement/heat-mark.js";
import type { HotSpell } from "./hot-spells.js";

/**
 * A node VM's own CPU ready spell. Its host may be cool on the whole (a host's ready is the
 * mean over all its VMs, weighted by vCPUs) while this VM, the one whose pods wait, queues.
 */
export interface VmSpell extends HotSpell {
  readonly vmId: string;
  readonly vmName: string;
}

/**
 * The node VMs' spells after one look at the inventory: a VM in `nodeVmIds` whose own CPU
 * ready per vCPU is at or above `readyPercent` keeps its spell's start (or starts one now);
 * the spell follows the VM to its current host. It ends, like a host's (hot-spells.ts), after
 * `CLEAR_POLLS_TO_COOL` distinct samples in a row under `readyPercent` lowered by
 * `hysteresisPercent`; a VM gone, or without a fresh ready value (older than
 * `maxMetricAgeSeconds`), ends it at once. Only node VMs count: the other VMs' spells say
 * nothing about what evicting a pod does. Pure: time comes in as `nowMs`.
 */
export function nextVmSpells(
  prev: ReadonlyMap<string, VmSpell>,
  inventory: InventoryView,
  nodeVmIds: Iterable<string>,
  readyPercent: number,
  maxMetricAgeSeconds: number,
  nowMs: number,
  hysteresisPercent = 10,
): Map<string, VmSpell> {
  const out = new Map<string, VmSpell>();
  for (const id of nodeVmIds) {
    const vm = inventory.vms.get(id);
    const host = vm && inventory.hosts.get(vm.hostId);
    const m = vm?.metrics;
    const ready = m?.cpuReadyPercent;
    if (!vm || !host || !m || ready === undefined || ageSeconds(m.sampledAtMs, nowMs) > maxMetricAgeSeconds) continue;
    const before = prev.get(id);
    const lastSampleMs = m.sampledAtMs;
    if (ready >= readyPercent) {
      out.set(id, {
        vmId: id,
        vmName: vm.name,
        hostId: host.id,
        hostName: host.name,
        sinceMs: before?.sinceMs ?? nowMs,
        metric: "cpu ready",
        value: ready,
        threshold: readyPercent,
        clearPolls: 0,
        lastSampleMs,
      });
      continue;
    }
    if (!before) continue;
    const clear = ready < readyPercent * (1 - hysteresisPercent / 100);
    const clearPolls = !clear ? 0 : lastSampleMs !== before.lastSampleMs ? before.clearPolls + 1 : before.clearPolls;
    if (clearPolls >= CLEAR_POLLS_TO_COOL) continue;
    out.set(id, { ...before, hostId: host.id, hostName: host.name, clearPolls, lastSampleMs });
  }
  return out;
}
