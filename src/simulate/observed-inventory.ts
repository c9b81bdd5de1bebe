import type { HostView, InventoryView, VmView } from "../model/inventory.js";
import type { NodeIdentity } from "../model/node.js";
import { deriveHostMetrics, deriveVmMetrics, overcommitRatios, type HostVmInput } from "../model/derive-metrics.js";
import type { World } from "./build-world.js";
import type { Observation } from "./observation-ring.js";

/**
 * Builds the InventoryView the poller would hold after polling `obs`: the same
 * derivation functions as production (src/model/derive-metrics.ts) turn the raw
 * vCenter units into HostMetrics and VmMetrics. Without a sample yet (start of a run)
 * hosts and VMs carry no metrics, so hvx has no opinion, as in production.
 */
export function observedInventory(
  world: World,
  obs: Observation | undefined,
  vmHostNow: Int32Array,
  maintNow: Uint8Array,
  polledAtMs: number,
): InventoryView {
  const { vms, hosts } = world;
  const intervalS = world.stepSeconds;
  const vmViews = new Map<string, VmView>();
  const byHost: VmView[][] = Array.from({ length: hosts.count }, () => []);
  for (let v = 0; v < vms.count; v++) {
    const h = obs ? obs.vmHost[v]! : vmHostNow[v]!;
    const view: VmView = {
      id: vms.ids[v]!,
      name: vms.names[v]!,
      hostId: hosts.ids[h]!,
      biosUuid: vms.biosUuids[v]!,
      powerState: "POWERED_ON",
      vcpus: vms.vcpus[v]!,
      memoryMiB: vms.memoryMiB[v]!,
      ...(obs
        ? {
            metrics: deriveVmMetrics(
              {
                sampledAtMs: obs.sampledAtMs,
                intervalS,
                readyMs: obs.vmReadyMs[v]!,
                balloonKB: obs.vmBalloonKB[v]!,
                swappedKB: obs.vmSwappedKB[v]!,
              },
              vms.vcpus[v]!,
            ),
          }
        : {}),
    };
    vmViews.set(view.id, view);
    byHost[h]!.push(view);
  }
  const hostViews = new Map<string, HostView>();
  for (let h = 0; h < hosts.count; h++) {
    const onHost = byHost[h]!;
    const inputs: HostVmInput[] = onHost.map((vm) => ({
      vcpus: vm.vcpus,
      memoryMiB: vm.memoryMiB,
      poweredOn: true,
      ...(vm.metrics ? { metrics: vm.metrics } : {}),
    }));
    const metrics = obs
      ? deriveHostMetrics({
          raw: {
            sampledAtMs: obs.sampledAtMs,
            cpuUsageFixed: obs.hostCpuUsageFixed[h]!,
            memUsageFixed: obs.hostMemUsageFixed[h]!,
            balloonKB: obs.hostBalloonKB[h]!,
            swapInKBps: obs.hostSwapInKBps[h]!,
            memState: obs.hostMemState[h]!,
          },
          memoryMiB: hosts.memoryMiB[h]!,
          vms: inputs,
          memStateScale: "five",
        })
      : undefined;
    hostViews.set(hosts.ids[h]!, {
      id: hosts.ids[h]!,
      name: hosts.names[h]!,
      polledAtMs,
      connectionState: "CONNECTED",
      inMaintenance: (obs ? obs.hostInMaintenance[h]! : maintNow[h]!) === 1,
      cpuCores: hosts.cores[h]!,
      cpuMhzPerCore: hosts.mhzPerCore[h]!,
      memoryMiB: hosts.memoryMiB[h]!,
      vmIds: onHost.map((vm) => vm.id),
      ...overcommitRatios(hosts.cores[h]!, hosts.memoryMiB[h]!, inputs),
      ...(metrics ? { metrics } : {}),
    });
  }
  return { hosts: hostViews, vms: vmViews, polledAtMs };
}

/** The Kubernetes Node identities of the node VMs (providerID = vsphere://<bios uuid>). */
export function nodeIdentities(world: World): NodeIdentity[] {
  return world.nodes.names.map((name, n) => ({ name, providerID: `vsphere://${world.vms.biosUuids[n]!}` }));
}
