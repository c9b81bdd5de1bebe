import { shareHostCpu, type HostCpuSharer } from "./host-sharing.js";
import { shareHostCpuNuma } from "./numa-queue-sharing.js";

/**
 * The CPU models of the twin (docs/simulation.md section 4): `overflow`, the normal
 * approximation of runnable vCPUs beyond the host's cores (the model before issue 26), and
 * `queueing`, a finite-source M/M/c//N queue per NUMA node. `hvx simulate --physics`.
 */
export const PHYSICS_NAMES = ["overflow", "queueing"] as const;
export type PhysicsName = (typeof PHYSICS_NAMES)[number];

export const HOST_CPU_SHARERS: Readonly<Record<PhysicsName, HostCpuSharer>> = {
  overflow: shareHostCpu,
  queueing: shareHostCpuNuma,
};
