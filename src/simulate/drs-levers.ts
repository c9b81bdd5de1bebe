import type { PlacementPolicy } from "../placement/index.js";
import type { World } from "./build-world.js";
import type { StrategyFigures } from "./figures.js";
import type { PhysicsName } from "./physics.js";
import { CPU_SHARES_PER_VCPU, type DrsSettings } from "./scenario.js";
import { simulateStrategy } from "./simulate-strategy.js";

/**
 * vSphere settings an operator can change without touching Kubernetes, each tried in the
 * twin on `hvx` with DRS on (docs/simulation.md section 11, "What would help with DRS on").
 * The twin has no DRS rules, so VM-VM and VM-Host rules are advised from figures, not tried.
 */
export const DRS_LEVER_NAMES = ["node-vm-shares-high", "node-vm-reservation", "migration-threshold-lower"] as const;
export type DrsLeverName = (typeof DRS_LEVER_NAMES)[number];

/** What each lever sets, as an operator would read it. */
export const DRS_LEVER_TITLES: Readonly<Record<DrsLeverName, string>> = {
  "node-vm-shares-high": "node VMs' CPU shares High (2000 per vCPU)",
  "node-vm-reservation": "node VMs' CPU reservation (allocatable CPU, within what admission control allows)",
  "migration-threshold-lower": "DRS migration threshold one level more conservative",
};

/** A world and DRS settings with one lever applied; undefined when the lever changes nothing (already set). */
export function applyDrsLever(world: World, drs: DrsSettings, lever: DrsLeverName): { world: World; drs: DrsSettings } | undefined {
  const N = world.nodes.count;
  const vms = world.vms;
  switch (lever) {
    case "node-vm-shares-high": {
      const shares = Float64Array.from(vms.cpuShares);
      for (let n = 0; n < N; n++) shares[n] = Math.max(shares[n]!, CPU_SHARES_PER_VCPU.high * vms.vcpus[n]!);
      return sameArray(shares, vms.cpuShares) ? undefined : { world: { ...world, vms: { ...vms, cpuShares: shares } }, drs };
    }
    case "node-vm-reservation": {
      const reservation = Float64Array.from(vms.cpuReservationMhz);
      const perNode = nodeVmReservationMhz(world);
      for (let n = 0; n < N; n++) reservation[n] = Math.max(reservation[n]!, perNode);
      return sameArray(reservation, vms.cpuReservationMhz)
        ? undefined
        : { world: { ...world, vms: { ...vms, cpuReservationMhz: reservation } }, drs };
    }
    case "migration-threshold-lower":
      // the vm-score model acts alike at levels 2-5 (section 11): only 2 -> 1 changes anything there
      if (drs.migrationThreshold <= 1 || (drs.model === "vm-score" && drs.migrationThreshold > 2)) return undefined;
      return { world, drs: { ...drs, migrationThreshold: drs.migrationThreshold - 1 } };
  }
}

/** VMware's advice: leave at least 10 % of a host unreserved, or DRS may be unable to migrate VMs. */
export const UNRESERVED_SHARE = 0.1;

/**
 * The CPU reservation (MHz) the lever gives each node VM: its allocatable CPU (what
 * kube-scheduler hands out as requests), capped so that the node VMs of one host, with the
 * largest reservation the other VMs of any host hold, fit in 90 % of a host's capacity
 * (admission control refuses a VM whose reservation does not fit; vSphere's "Resource
 * Allocation Settings Suggestions" ask to leave at least 10 % unreserved).
 */
export function nodeVmReservationMhz(world: World): number {
  const { hosts, vms, nodes } = world;
  const s = world.scenario.nodeVms;
  const mhz = hosts.mhzPerCore[0]!;
  const allocatableMhz = ((s.vcpus * 1000 - s.kubeReservedCpuMilli) / 1000) * mhz;
  const othersMhz = new Float64Array(hosts.count);
  for (let v = nodes.count; v < vms.count; v++) {
    const h = vms.initialHost[v]!;
    othersMhz[h] = othersMhz[h]! + vms.cpuReservationMhz[v]!;
  }
  const freeMhz = (1 - UNRESERVED_SHARE) * hosts.cores[0]! * mhz - Math.max(0, ...othersMhz);
  return Math.max(0, Math.min(allocatableMhz, freeMhz / s.perHost));
}

/** hvx with DRS on under each lever that changes something, on one seed and physics. */
export function simulateDrsLevers(
  world: World,
  seed: number,
  policy: PlacementPolicy,
  drs: DrsSettings,
  physics: PhysicsName,
): Partial<Record<DrsLeverName, StrategyFigures>> {
  const out: Partial<Record<DrsLeverName, StrategyFigures>> = {};
  for (const lever of DRS_LEVER_NAMES) {
    const applied = applyDrsLever(world, { ...drs, enabled: true }, lever);
    if (!applied) continue;
    out[lever] = simulateStrategy({ world: applied.world, strategy: "hvx", seed, policy, drs: applied.drs, physics }).figures;
  }
  return out;
}

function sameArray(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
