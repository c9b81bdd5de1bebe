import type { ClusterSummary, HostSummary, VmSummary } from "./automation-client.js";
import { describeSoap, type SoapClient } from "./soap-client.js";
import { asInteger, asNumber, moRefOf, type XmlElement } from "./soap-envelope.js";
import { retrieveFromContainer, retrieveObject, type ObjectProps } from "./soap-property-collector.js";
import { VcenterResponseError } from "./vcenter-response-error.js";
import type { HostSummaryInfo } from "./vijson-types.js";
import type { VmSummaryInfo } from "./vm-reservations.js";

/**
 * The inventory over SOAP, in the shapes the Automation API and VI/JSON paths give the poll
 * cycle (upper-case states, `memory_size_MiB`, `identity.bios_uuid` lower case), so that the
 * rest of hvx does not know which transport ran. One PropertyCollector read per cycle
 * (`beginCycle`) over a ContainerView of the root folder; the per-host calls answer from it.
 */
export const INVENTORY_PATHS = {
  ClusterComputeResource: ["name"],
  HostSystem: [
    "name",
    "parent",
    "runtime.powerState",
    "summary.hardware.numCpuCores",
    "summary.hardware.cpuMhz",
    "summary.hardware.memorySize",
    "summary.quickStats.overallCpuUsage",
    "summary.quickStats.overallMemoryUsage",
    "summary.runtime.connectionState",
    "summary.runtime.inMaintenanceMode",
  ],
  VirtualMachine: [
    "name",
    "config.uuid",
    "config.instanceUuid",
    "config.hardware.numCPU",
    "config.hardware.memoryMB",
    "runtime.powerState",
    "runtime.host",
  ],
} as const;

/** One VM as read over SOAP. */
export interface SoapVm extends VmSummary {
  readonly hostId?: string;
  /** `config.uuid` (the BIOS UUID), lower case. */
  readonly biosUuid?: string;
  /** `config.instanceUuid` (vCenter's own id of the VM), lower case. */
  readonly instanceUuid?: string;
}

interface SoapHost {
  readonly host: HostSummary;
  readonly clusterId?: string;
  readonly summary: HostSummaryInfo;
}

/** One cycle's inventory. */
export interface SoapSnapshot {
  readonly clusters: readonly ClusterSummary[];
  readonly hosts: ReadonlyMap<string, SoapHost>;
  readonly vms: ReadonlyMap<string, SoapVm>;
}

const CONNECTION: Readonly<Record<string, string>> = {
  connected: "CONNECTED",
  disconnected: "DISCONNECTED",
  notResponding: "NOT_RESPONDING",
};
const VM_POWER: Readonly<Record<string, string>> = { poweredOn: "POWERED_ON", poweredOff: "POWERED_OFF", suspended: "SUSPENDED" };
const HOST_POWER: Readonly<Record<string, string>> = { poweredOn: "POWERED_ON", poweredOff: "POWERED_OFF", standBy: "STANDBY" };

export class SoapInventory {
  private snapshot: Promise<SoapSnapshot> | undefined;

  constructor(private readonly client: SoapClient) {}

  /** Reads the whole inventory; the calls below answer from it until the next `beginCycle`. */
  async beginCycle(): Promise<void> {
    const next = this.read();
    this.snapshot = next;
    await next;
  }

  async listClusters(): Promise<ClusterSummary[]> {
    return [...(await this.current()).clusters];
  }

  /** Every host, or those whose parent is one of `clusterIds`. */
  async listHosts(clusterIds?: readonly string[]): Promise<HostSummary[]> {
    const hosts = [...(await this.current()).hosts.values()];
    const wanted =
      clusterIds && clusterIds.length > 0 ? hosts.filter((h) => h.clusterId !== undefined && clusterIds.includes(h.clusterId)) : hosts;
    return wanted.map((h) => h.host);
  }

  async listVmsOnHost(hostId: string): Promise<VmSummary[]> {
    // The Automation API's VmSummary fields only: what the VI/JSON path gets from `GET /api/vcenter/vm`.
    return [...(await this.current()).vms.values()]
      .filter((vm) => vm.hostId === hostId)
      .map(({ hostId: _host, biosUuid: _bios, instanceUuid: _instance, ...summary }) => summary);
  }

  async getVmBiosUuid(vmId: string): Promise<string | undefined> {
    return (await this.current()).vms.get(vmId)?.biosUuid;
  }

  /** The VM as read this cycle (with its instance UUID), if it exists. */
  async vm(vmId: string): Promise<SoapVm | undefined> {
    return (await this.current()).vms.get(vmId);
  }

  /** The host's summary fields hvx reads, as VI/JSON's `HostSystem/{id}/summary` gives them. */
  async hostSummary(hostId: string): Promise<HostSummaryInfo> {
    const host = (await this.current()).hosts.get(hostId);
    if (!host)
      throw new VcenterResponseError("soap", describeSoap("RetrievePropertiesEx"), `host ${hostId} is not in this cycle's inventory`);
    return host.summary;
  }

  /** `summary.config` reservations of one VM (VI/JSON's `VirtualMachine/{id}/summary`), read on demand. */
  async vmSummary(vmId: string): Promise<VmSummaryInfo> {
    const found = await retrieveObject(this.client, { type: "VirtualMachine", value: vmId }, [
      "summary.config.memoryReservation",
      "summary.config.cpuReservation",
    ]);
    const memoryReservation = asInteger(found?.props.get("summary.config.memoryReservation"));
    const cpuReservation = asInteger(found?.props.get("summary.config.cpuReservation"));
    if (memoryReservation === undefined && cpuReservation === undefined) return {};
    return {
      config: {
        ...(memoryReservation !== undefined ? { memoryReservation } : {}),
        ...(cpuReservation !== undefined ? { cpuReservation } : {}),
      },
    };
  }

  private current(): Promise<SoapSnapshot> {
    if (!this.snapshot) this.snapshot = this.read();
    return this.snapshot;
  }

  private async read(): Promise<SoapSnapshot> {
    const { rootFolder } = await this.client.serviceContent();
    return toSnapshot(await retrieveFromContainer(this.client, rootFolder, INVENTORY_PATHS));
  }
}

/** PropertyCollector objects into the snapshot (pure). */
export function toSnapshot(objects: readonly ObjectProps[]): SoapSnapshot {
  const clusters: ClusterSummary[] = [];
  const hosts = new Map<string, SoapHost>();
  const vms = new Map<string, SoapVm>();
  for (const { obj, props } of objects) {
    const text = (path: string) => props.get(path)?.text;
    const name = text("name") ?? obj.value;
    if (obj.type === "ClusterComputeResource") clusters.push({ cluster: obj.value, name });
    if (obj.type === "HostSystem") hosts.set(obj.value, toHost(obj.value, name, props));
    if (obj.type === "VirtualMachine") {
      const powerState = VM_POWER[text("runtime.powerState") ?? ""];
      if (powerState === undefined) continue; // no runtime yet: a VM being created
      const hostRef = moRefOf(props.get("runtime.host"));
      const biosUuid = text("config.uuid")?.toLowerCase();
      const instanceUuid = text("config.instanceUuid")?.toLowerCase();
      const cpus = asInteger(props.get("config.hardware.numCPU"));
      const memMiB = asInteger(props.get("config.hardware.memoryMB"));
      vms.set(obj.value, {
        vm: obj.value,
        name,
        power_state: powerState,
        ...(cpus !== undefined ? { cpu_count: cpus } : {}),
        ...(memMiB !== undefined ? { memory_size_MiB: memMiB } : {}),
        ...(hostRef ? { hostId: hostRef.value } : {}),
        ...(biosUuid ? { biosUuid } : {}),
        ...(instanceUuid ? { instanceUuid } : {}),
      });
    }
  }
  return { clusters, hosts, vms };
}

function toHost(id: string, name: string, props: ReadonlyMap<string, XmlElement>): SoapHost {
  const text = (path: string) => props.get(path)?.text;
  const num = (path: string) => asNumber(props.get(path));
  const parent = moRefOf(props.get("parent"));
  const connection = text("summary.runtime.connectionState");
  const power = HOST_POWER[text("runtime.powerState") ?? ""];
  const maintenance = text("summary.runtime.inMaintenanceMode");
  const defined = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
  return {
    host: { host: id, name, connection_state: CONNECTION[connection ?? ""] ?? "NOT_RESPONDING", ...(power ? { power_state: power } : {}) },
    ...(parent?.type === "ClusterComputeResource" ? { clusterId: parent.value } : {}),
    summary: {
      hardware: defined({
        numCpuCores: num("summary.hardware.numCpuCores"),
        cpuMhz: num("summary.hardware.cpuMhz"),
        memorySize: num("summary.hardware.memorySize"),
      }),
      quickStats: defined({
        overallCpuUsage: num("summary.quickStats.overallCpuUsage"),
        overallMemoryUsage: num("summary.quickStats.overallMemoryUsage"),
      }),
      runtime: defined({
        ...(connection !== undefined ? { connectionState: connection } : {}),
        inMaintenanceMode: maintenance === undefined ? undefined : maintenance === "true",
      }),
    },
  };
}
