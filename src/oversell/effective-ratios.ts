import type { FleetView } from "./fleet-view.js";
import type { ConfiguredRatio, NamespaceRatios, RatioSource } from "./namespace-ratios.js";
import type { OversellPolicy } from "./oversell-policy.js";
import type { ScaledResource } from "./pod-shape.js";

/**
 * Why the effective ratio is what it is. Reasons are data; `describe-ratios.ts` makes text.
 * `lastKnown`: decided on the last known host data (the current data is missing or stale).
 */
export type RatioLimit =
  | { readonly code: "no_host_data" }
  | {
      readonly code: "cap_not_binding";
      readonly maxStacked: number;
      readonly fleetRatio: number;
      readonly capRatio: number;
      readonly lastKnown?: true;
    }
  | {
      readonly code: "stacked_cap";
      readonly maxStacked: number;
      readonly fleetRatio: number;
      readonly capRatio: number;
      readonly lastKnown?: true;
    }
  | { readonly code: "hot_brake"; readonly hotPercent: number; readonly brakePercent: number; readonly lastKnown?: true };

export interface RatioDecision {
  readonly resource: ScaledResource;
  /** Applied ratio, >= 1, at most 3 decimals. */
  readonly ratio: number;
  readonly configured: number;
  readonly source: RatioSource;
  readonly limit: RatioLimit;
}

export interface EffectiveRatios {
  readonly cpu: RatioDecision;
  readonly memory: RatioDecision;
}

/**
 * Stacked overcommit cap: effective = max(1, min(configured, maxStacked / fleetRatio)),
 * with fleetRatio = vCPU:pCPU for cpu and vRAM:pRAM for memory, so that
 * effective x fleetRatio <= maxStacked whenever that is reachable with a ratio >= 1.
 * The CPU ratio is 1.0 when more than `hotHostBrakePercent` of the hosts are hot.
 * Without host data (no fleet, no hosts, or a ratio of 0) there is no cap to keep, so there
 * is no oversell: the ratio is 1.0. The edge passes the last known fleet (`lastKnown`) while
 * the current data is missing or stale, so this happens only before any host data.
 */
export function decideEffectiveRatios(configured: NamespaceRatios, fleet: FleetView | undefined, policy: OversellPolicy): EffectiveRatios {
  const cpu = capped("cpu", configured.cpu, fleet?.vcpuPerPcpu, policy.maxStackedCpuOvercommit, fleet);
  const braked =
    fleet !== undefined && fleet.hostCount > 0 && fleet.hotPercent > policy.hotHostBrakePercent
      ? {
          ...cpu,
          ratio: 1,
          limit: {
            code: "hot_brake",
            hotPercent: fleet.hotPercent,
            brakePercent: policy.hotHostBrakePercent,
            ...lastKnown(fleet),
          } as const,
        }
      : cpu;
  return { cpu: braked, memory: capped("memory", configured.memory, fleet?.vramPerPram, policy.maxStackedMemoryOvercommit, fleet) };
}

function capped(
  resource: ScaledResource,
  configured: ConfiguredRatio,
  fleetRatio: number | undefined,
  maxStacked: number,
  fleet: FleetView | undefined,
): RatioDecision {
  const base = { resource, configured: configured.ratio, source: configured.source };
  if (!fleet || fleet.hostCount === 0 || fleetRatio === undefined || !(fleetRatio > 0)) {
    // No cap can be computed: no oversell rather than the uncapped ratio.
    return { ...base, ratio: 1, limit: { code: "no_host_data" } };
  }
  const capRatio = maxStacked / fleetRatio;
  // Binding only when the cap actually lowers the ratio (a configured 1.0 cannot go lower).
  const binding = Math.max(1, capRatio) < configured.ratio;
  return {
    ...base,
    ratio: roundRatioDown(Math.max(1, Math.min(configured.ratio, capRatio))),
    limit: { code: binding ? "stacked_cap" : "cap_not_binding", maxStacked, fleetRatio, capRatio, ...lastKnown(fleet) },
  };
}

function lastKnown(fleet: FleetView): { lastKnown?: true } {
  return fleet.lastKnown ? { lastKnown: true } : {};
}

/** Down to 3 decimals (less oversell, never more); the epsilon absorbs 1.6 = 1.5999999999999999. */
export function roundRatioDown(ratio: number): number {
  return Math.max(1, Math.floor(ratio * 1000 + 1e-6) / 1000);
}
