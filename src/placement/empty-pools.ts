import type { InventoryView } from "../model/inventory.js";
import type { WorkloadClass } from "../model/cluster.js";
import { inHostPool } from "./host-pool.js";
import type { WorkloadClassPolicy } from "./policy.js";

/**
 * The classes whose hard pool matches none of the inventory's hosts: their pods are rejected on
 * every node and stay pending. None while the inventory has no host (nothing polled yet).
 */
export function emptyPools(inventory: InventoryView, classes: WorkloadClassPolicy | undefined): WorkloadClass[] {
  if (!classes || inventory.hosts.size === 0) return [];
  const empty: WorkloadClass[] = [];
  for (const workloadClass of ["online", "batch"] as const) {
    const pool = classes.pools[workloadClass];
    if (!pool) continue;
    let matched = false;
    for (const host of inventory.hosts.values()) if ((matched = inHostPool(host, pool))) break;
    if (!matched) empty.push(workloadClass);
  }
  return empty;
}
