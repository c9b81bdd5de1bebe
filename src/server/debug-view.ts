import type { InventoryView } from "../model/inventory.js";
import type { SourceStatus } from "../model/metrics-source.js";
import { assessHost, type HostAssessment } from "../placement/assess-host.js";
import type { DebugHeat, DebugHostsReply, DebugHostWire, DebugVmWire } from "../protocol/debug-wire.js";
import { describeSourceDown } from "./source-down.js";
import type { PlacementPolicy } from "../placement/policy.js";
import { formatReason } from "../protocol/format-reason.js";
import { debugPrediction } from "./debug-prediction.js";

/** `GET /debug/hosts`: every host and VM with its metrics, age and verdict. */
export function buildDebugHosts(inventory: InventoryView, policy: PlacementPolicy, nowMs: number, source?: SourceStatus): DebugHostsReply {
  const hosts = [...inventory.hosts.values()].map((host): DebugHostWire => {
    const verdict = assessHost(host, undefined, policy.thresholds, nowMs);
    const vms = host.vmIds.flatMap((id): DebugVmWire[] => {
      const vm = inventory.vms.get(id);
      if (!vm) return [];
      const own = assessHost(host, vm, policy.thresholds, nowMs);
      return [
        {
          id: vm.id,
          name: vm.name,
          biosUuid: vm.biosUuid ?? null,
          powerState: vm.powerState,
          vcpus: vm.vcpus,
          memoryMiB: vm.memoryMiB,
          metrics: vm.metrics ?? null,
          ageSeconds: ageS(vm.metrics?.sampledAtMs, nowMs),
          heat: heatWord(own),
          reasons: [...own.rejections, ...own.warnings].map(formatReason),
        },
      ];
    });
    return {
      id: host.id,
      name: host.name,
      cluster: host.clusterName ?? null,
      connectionState: host.connectionState,
      inMaintenance: host.inMaintenance,
      cpuCores: host.cpuCores,
      cpuMhzPerCore: host.cpuMhzPerCore,
      memoryMiB: host.memoryMiB,
      vcpuPerPcpu: round2(host.vcpuPerPcpu),
      vramPerPram: round2(host.vramPerPram),
      metrics: host.metrics ?? null,
      ageSeconds: ageS(host.metrics?.sampledAtMs, nowMs),
      heat: heatWord(verdict),
      stale: verdict.staleness ? formatReason(verdict.staleness) : null,
      rejections: verdict.rejections.map(formatReason),
      warnings: verdict.warnings.map(formatReason),
      lastError: source?.hostErrors?.[host.id] ?? null,
      prediction: debugPrediction(inventory, host, verdict, policy),
      vms,
    };
  });
  return {
    now: new Date(nowMs).toISOString(),
    polledAt: inventory.polledAtMs !== undefined ? new Date(inventory.polledAtMs).toISOString() : null,
    source: source ?? null,
    sourceDown: describeSourceDown(inventory, source) ?? null,
    thresholds: policy.thresholds,
    hosts,
  };
}

/** `unknown` when hvx has no opinion (missing or stale data) and no rule rejects: never "cool" by default. */
function heatWord(a: HostAssessment): DebugHeat {
  return a.staleness && a.rejections.length === 0 ? "unknown" : a.heat;
}

function ageS(sampledAtMs: number | undefined, nowMs: number): number | null {
  return sampledAtMs === undefined ? null : Math.max(0, Math.round((nowMs - sampledAtMs) / 1000));
}

function round2(v: number): number {
  return Math.round(v * 100) / 100;
}
