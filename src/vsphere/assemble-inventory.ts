import type { ConnectionState, HostView, InventoryView, VmView } from "../model/inventory.js";
import type { HostSummary, VmSummary } from "./automation-client.js";
import { deriveHostMetrics, deriveVmMetrics, overcommitRatios, type HostVmInput, type MemStateScale } from "../model/derive-metrics.js";
import { toRawHostSample, toRawVmSample, type EntitySample } from "./perf-samples.js";
import type { HostSummaryInfo } from "./vijson-types.js";

/** Everything one poll cycle gathered, as the APIs returned it. */
export interface PolledHost {
  readonly host: HostSummary;
  readonly clusterName?: string;
  readonly summary: HostSummaryInfo;
  readonly vms: readonly VmSummary[];
}

export interface AssembleInput {
  readonly hosts: readonly PolledHost[];
  readonly samples: ReadonlyMap<string, EntitySample>;
  readonly biosUuids: ReadonlyMap<string, string>;
  readonly memStateScale: MemStateScale;
  readonly polledAtMs: number;
}

const BYTES_PER_MIB = 1024 * 1024;

/**
 * Builds the immutable InventoryView from one cycle's raw answers (pure). A VM listed
 * under two hosts (mid-vMotion) is kept on the last host listed.
 */
export function assembleInventory(input: AssembleInput): InventoryView {
  const vms = new Map<string, VmView>();
  for (const polled of input.hosts) {
    for (const vm of polled.vms) {
      const vcpus = vm.cpu_count ?? 0;
      const sample = input.samples.get(vm.vm);
      const biosUuid = input.biosUuids.get(vm.vm);
      vms.set(vm.vm, {
        id: vm.vm,
        name: vm.name,
        hostId: polled.host.host,
        ...(biosUuid ? { biosUuid } : {}),
        powerState: vm.power_state,
        vcpus,
        memoryMiB: vm.memory_size_MiB ?? 0,
        ...(sample ? { metrics: deriveVmMetrics(toRawVmSample(sample), vcpus) } : {}),
      });
    }
  }
  const hosts = new Map<string, HostView>();
  for (const polled of input.hosts) {
    const id = polled.host.host;
    const hw = polled.summary.hardware;
    const memoryMiB = hw?.memorySize !== undefined ? hw.memorySize / BYTES_PER_MIB : 0;
    const cpuCores = hw?.numCpuCores ?? 0;
    const onHost: VmView[] = polled.vms.map((v) => vms.get(v.vm)).filter((v): v is VmView => v?.hostId === id);
    const inputs: HostVmInput[] = onHost.map((v) => ({
      vcpus: v.vcpus,
      memoryMiB: v.memoryMiB,
      poweredOn: v.powerState === "POWERED_ON",
      ...(v.metrics ? { metrics: v.metrics } : {}),
    }));
    // Without a host-level sample the host has no metrics (its VMs' sample times do not stand in).
    const sample = input.samples.get(id);
    const metrics = deriveHostMetrics({
      ...(sample ? { raw: toRawHostSample(sample) } : {}),
      memoryMiB,
      vms: inputs,
      memStateScale: input.memStateScale,
    });
    hosts.set(id, {
      id,
      name: polled.host.name,
      ...(polled.clusterName !== undefined ? { clusterName: polled.clusterName } : {}),
      polledAtMs: input.polledAtMs,
      connectionState: toConnectionState(polled.host.connection_state, polled.summary.runtime?.connectionState),
      inMaintenance: polled.summary.runtime?.inMaintenanceMode ?? false,
      cpuCores,
      cpuMhzPerCore: hw?.cpuMhz ?? 0,
      memoryMiB,
      vmIds: onHost.map((v) => v.id),
      ...overcommitRatios(cpuCores, memoryMiB, inputs),
      ...(metrics ? { metrics } : {}),
    });
  }
  return { hosts, vms, polledAtMs: input.polledAtMs };
}

const VI_CONNECTION: Readonly<Record<string, ConnectionState>> = {
  connected: "CONNECTED",
  disconnected: "DISCONNECTED",
  notResponding: "NOT_RESPONDING",
};

/** Automation API state (upper case) first, else the VI/JSON one (lower camel case); unknown counts as NOT_RESPONDING. */
export function toConnectionState(automation: string, vi: string | undefined): ConnectionState {
  if (automation === "CONNECTED" || automation === "DISCONNECTED" || automation === "NOT_RESPONDING") return automation;
  return (vi !== undefined ? VI_CONNECTION[vi] : undefined) ?? "NOT_RESPONDING";
}
