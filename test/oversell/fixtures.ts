import { readFileSync } from "node:fs";
import type { HostView } from "../../src/model/inventory.js";
import { fleetView, type FleetView } from "../../src/oversell/fleet-view.js";
import type { OversellPolicy } from "../../src/oversell/oversell-policy.js";
import type { ContainerShape, PodShape } from "../../src/oversell/pod-shape.js";

/** The production defaults of `admission.*` (src/config/schema.ts). */
export const DEFAULT_POLICY: OversellPolicy = {
  cpuRatio: 2,
  memoryRatio: 1,
  namespaces: {},
  excludeNamespaces: ["kube-system"],
  preserveGuaranteed: true,
  minCpu: "10m",
  minMemory: "16Mi",
  maxStackedCpuOvercommit: 4,
  maxStackedMemoryOvercommit: 1.5,
  hotHostBrakePercent: 25,
  maxLabelRatio: {},
  maxContainers: 200,
};

export function policy(over: Partial<OversellPolicy> = {}): OversellPolicy {
  return { ...DEFAULT_POLICY, ...over };
}

export function host(over: Partial<HostView> & { id: string }): HostView {
  return {
    name: over.id,
    connectionState: "CONNECTED",
    inMaintenance: false,
    cpuCores: 32,
    cpuMhzPerCore: 2600,
    memoryMiB: 524288,
    vmIds: [],
    vcpuPerPcpu: 1.6,
    vramPerPram: 1.2,
    polledAtMs: 0,
    ...over,
  };
}

/** A fleet whose stacked caps bind for none of these tests (vCPU:pCPU 1, vRAM:pRAM 0.1), nothing hot. */
export function roomyFleet(): FleetView {
  return fleetView([host({ id: "roomy", vcpuPerPcpu: 1, vramPerPram: 0.1 })], () => false);
}

export function container(
  name: string,
  requests?: Record<string, string>,
  limits?: Record<string, string>,
  extra: Partial<ContainerShape> = {},
): ContainerShape {
  const resources = { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) };
  return { name, resources, ...extra };
}

export function pod(containers: ContainerShape[], initContainers: ContainerShape[] = [], annotations?: Record<string, string>): PodShape {
  return {
    metadata: { generateName: "p-", ...(annotations ? { annotations } : {}) },
    spec: { containers, ...(initContainers.length > 0 ? { initContainers } : {}) },
  };
}

/** Copies of the reference wire examples, read from the source tree (tsc does not copy JSON). */
const EXAMPLES = new URL("../../../test/oversell/examples/", import.meta.url);

/** A file from test/oversell/examples (copied from the shared reference examples), parsed. */
export function example<T = unknown>(name: string): T {
  return JSON.parse(readFileSync(new URL(name, EXAMPLES), "utf8")) as T;
}
