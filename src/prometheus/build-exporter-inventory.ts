import type { InventoryView } from "../model/inventory.js";
import { assembleInventory, type PolledHost } from "../vsphere/assemble-inventory.js";
import type { VmSummary } from "../vsphere/automation-client.js";
import { EntitySamples } from "./entity-samples.js";
import { EXPORTER } from "./flavour-series.js";
import type { PromSample } from "./parse-query-response.js";
import type { SeriesByName } from "./query-series.js";

const BYTES_PER_MIB = 1024 * 1024;
const CONNECTION: Readonly<Record<string, string>> = {
  connected: "CONNECTED",
  disconnected: "DISCONNECTED",
  notResponding: "NOT_RESPONDING",
};

/**
 * The `vmware_exporter` flavour (pure): inventory and metrics from the exporter's series
 * alone. It has no moid and no UUID, so hosts and VMs are keyed by name (`host_name`,
 * `vm_name`) and nodes can map by name only. Host memory usage % is memory_usage /
 * memory_max (the exporter does not collect mem.usage.average); mem.state is never known.
 * A VM whose power state series is missing counts as not powered on.
 */
export function buildExporterInventory(series: SeriesByName, polledAtMs: number): InventoryView {
  const get = (name: string) => series.get(name) ?? [];
  const hostName = (s: PromSample) => nonEmpty(s.labels.host_name);
  const vmName = (s: PromSample) => nonEmpty(s.labels.vm_name);

  type HostDraft = {
    cluster?: string;
    cores?: number;
    cpuMaxMhz?: number;
    memMaxMB?: number;
    memUsedMB?: number;
    memAt: number[];
    connection?: string;
    maintenance?: boolean;
    vms: VmSummary[];
  };
  const hosts = new Map<string, HostDraft>();
  const host = (s: PromSample) => {
    const name = hostName(s);
    if (name === undefined) return undefined;
    const draft = hosts.get(name) ?? { memAt: [], vms: [] };
    const cluster = nonEmpty(s.labels.cluster_name);
    if (cluster !== undefined) draft.cluster = cluster;
    hosts.set(name, draft);
    return draft;
  };
  const onHost = (name: string, apply: (d: HostDraft, s: PromSample) => void) => {
    for (const s of get(name)) {
      const d = host(s);
      if (d !== undefined) apply(d, s);
    }
  };
  onHost(EXPORTER.hostNumCpu, (d, s) => (d.cores = s.value));
  onHost(EXPORTER.hostCpuMax, (d, s) => (d.cpuMaxMhz = s.value));
  onHost(EXPORTER.hostMemoryMax, (d, s) => ((d.memMaxMB = s.value), d.memAt.push(s.atMs)));
  onHost(EXPORTER.hostMemoryUsage, (d, s) => ((d.memUsedMB = s.value), d.memAt.push(s.atMs)));
  onHost(EXPORTER.hostMaintenance, (d, s) => (d.maintenance = s.value === 1));
  onHost(EXPORTER.hostConnection, (d, s) => {
    const state = s.labels.state !== undefined ? CONNECTION[s.labels.state] : undefined;
    if (s.value === 1 && state !== undefined) d.connection = state;
  });

  type VmDraft = { host?: string; vcpus?: number; memMB?: number; on?: boolean };
  const vms = new Map<string, VmDraft>();
  const vm = (s: PromSample) => {
    const name = vmName(s);
    if (name === undefined) return undefined;
    const draft = vms.get(name) ?? {};
    const h = hostName(s);
    if (h !== undefined) draft.host = h;
    vms.set(name, draft);
    return draft;
  };
  const onVm = (name: string, apply: (d: VmDraft, s: PromSample) => void) => {
    for (const s of get(name)) {
      const d = vm(s);
      if (d !== undefined) apply(d, s);
    }
  };
  onVm(EXPORTER.vmNumCpu, (d, s) => (d.vcpus = s.value));
  onVm(EXPORTER.vmMemoryMax, (d, s) => (d.memMB = s.value));
  onVm(EXPORTER.vmPowerState, (d, s) => (d.on = s.value === 1));
  for (const [name, d] of vms) {
    if (d.host === undefined) continue;
    const h = hosts.get(d.host) ?? { memAt: [], vms: [] };
    hosts.set(d.host, h);
    h.vms.push({
      vm: name,
      name,
      power_state: d.on ? "POWERED_ON" : "POWERED_OFF",
      ...(d.vcpus !== undefined ? { cpu_count: d.vcpus } : {}),
      ...(d.memMB !== undefined ? { memory_size_MiB: d.memMB } : {}),
    });
  }

  const samples = new EntitySamples();
  const knownVm = (s: PromSample) => {
    const name = vmName(s);
    return name !== undefined && vms.has(name) ? name : undefined;
  };
  samples.add(get(EXPORTER.vmReady), "cpu.ready.summation", knownVm);
  samples.add(get(EXPORTER.vmBalloon), "mem.vmmemctl.average", knownVm);
  samples.add(get(EXPORTER.vmSwapped), "mem.swapped.average", knownVm);
  samples.add(get(EXPORTER.hostCpuUsage), "cpu.usage.average", hostName);
  samples.add(get(EXPORTER.hostBalloon), "mem.vmmemctl.average", hostName);
  samples.add(get(EXPORTER.hostSwapIn), "mem.swapinRate.average", hostName);

  const polled: PolledHost[] = [];
  for (const [name, d] of hosts) {
    if (d.memMaxMB !== undefined && d.memUsedMB !== undefined && d.memMaxMB > 0 && d.memAt.length > 0) {
      samples.put(name, "mem.usage.average", (d.memUsedMB / d.memMaxMB) * 100 * 100, Math.min(...d.memAt));
    }
    const perCore = d.cores !== undefined && d.cores > 0 && d.cpuMaxMhz !== undefined ? d.cpuMaxMhz / d.cores : undefined;
    polled.push({
      host: { host: name, name, connection_state: d.connection ?? "" },
      ...(d.cluster !== undefined ? { clusterName: d.cluster } : {}),
      summary: {
        hardware: {
          ...(d.cores !== undefined ? { numCpuCores: d.cores } : {}),
          ...(perCore !== undefined ? { cpuMhz: perCore } : {}),
          ...(d.memMaxMB !== undefined ? { memorySize: d.memMaxMB * BYTES_PER_MIB } : {}),
        },
        runtime: { inMaintenanceMode: d.maintenance ?? false },
      },
      vms: d.vms,
    });
  }
  // Hosts with no inventory series at all (only perf series) are left out: nothing to decide on.
  const listed = polled.filter((p) => p.summary.hardware?.numCpuCores !== undefined || p.host.connection_state !== "" || p.vms.length > 0);
  return assembleInventory({ hosts: listed, samples: samples.toMap(), biosUuids: new Map(), memStateScale: "five", polledAtMs });
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v === "" ? undefined : v;
}
