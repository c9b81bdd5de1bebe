import type { InventoryView } from "../model/inventory.js";
import { assembleInventory, type PolledHost } from "../vsphere/assemble-inventory.js";
import { EntitySamples } from "./entity-samples.js";
import { TELEGRAF } from "./flavour-series.js";
import type { PromSample } from "./parse-query-response.js";
import type { SeriesByName } from "./query-series.js";

/** Telegraf's percentages are already divided by 100; vCenter's fixed point is percent x 100. */
const toFixedPoint = (percent: number) => percent * 100;

/**
 * The `telegraf` flavour (pure): the inventory read from vCenter's Automation API (hosts,
 * VMs, identity, host summary; its metrics absent) plus Telegraf's series, joined by `moid`
 * for hosts and by `uuid` (BIOS UUID), else `moid`, for VMs. Series of entities vCenter did
 * not list are ignored; a metric without a series stays unknown. The derivation is the
 * vCenter poller's own (assembleInventory), so both sources decide alike.
 */
export function buildTelegrafInventory(base: InventoryView, series: SeriesByName): InventoryView {
  const { hosts, biosUuids } = toPolledHosts(base);
  const vmIdByUuid = new Map([...biosUuids].map(([id, uuid]) => [uuid, id] as const));
  const vmId = (s: PromSample) => {
    const byUuid = s.labels.uuid !== undefined ? vmIdByUuid.get(s.labels.uuid.toLowerCase()) : undefined;
    if (byUuid !== undefined) return byUuid;
    const moid = s.labels.moid;
    return moid !== undefined && base.vms.has(moid) ? moid : undefined;
  };
  const hostId = (s: PromSample) => (s.labels.moid !== undefined && base.hosts.has(s.labels.moid) ? s.labels.moid : undefined);
  const samples = new EntitySamples();
  samples.add(series.get(TELEGRAF.vmReady), "cpu.ready.summation", vmId);
  samples.add(series.get(TELEGRAF.vmBalloon), "mem.vmmemctl.average", vmId);
  samples.add(series.get(TELEGRAF.vmSwapped), "mem.swapped.average", vmId);
  samples.add(series.get(TELEGRAF.hostCpuUsage), "cpu.usage.average", hostId, toFixedPoint);
  samples.add(series.get(TELEGRAF.hostMemUsage), "mem.usage.average", hostId, toFixedPoint);
  samples.add(series.get(TELEGRAF.hostBalloon), "mem.vmmemctl.average", hostId);
  samples.add(series.get(TELEGRAF.hostSwapIn), "mem.swapinRate.average", hostId);
  samples.add(series.get(TELEGRAF.hostMemState), "mem.state.latest", hostId);
  return assembleInventory({ hosts, samples: samples.toMap(), biosUuids, memStateScale: "five", polledAtMs: base.polledAtMs ?? 0 });
}

const BYTES_PER_MIB = 1024 * 1024;

/** The inventory back in the Automation/VI answers' shape, so assembleInventory can run again with samples. */
export function toPolledHosts(view: InventoryView): { hosts: PolledHost[]; biosUuids: Map<string, string> } {
  const biosUuids = new Map<string, string>();
  const hosts: PolledHost[] = [...view.hosts.values()].map((h) => ({
    host: { host: h.id, name: h.name, connection_state: h.connectionState },
    ...(h.clusterName !== undefined ? { clusterName: h.clusterName } : {}),
    summary: {
      hardware: { numCpuCores: h.cpuCores, cpuMhz: h.cpuMhzPerCore, memorySize: h.memoryMiB * BYTES_PER_MIB },
      runtime: { inMaintenanceMode: h.inMaintenance },
    },
    vms: h.vmIds.flatMap((id) => {
      const vm = view.vms.get(id);
      if (vm === undefined) return [];
      if (vm.biosUuid !== undefined) biosUuids.set(vm.id, vm.biosUuid);
      return [{ vm: vm.id, name: vm.name, power_state: vm.powerState, cpu_count: vm.vcpus, memory_size_MiB: vm.memoryMiB }];
    }),
  }));
  return { hosts, biosUuids };
}
