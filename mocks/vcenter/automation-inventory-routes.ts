import type { Application, Request, Response } from "express";
import type { MockState } from "./mock-state.js";
import { CONNECTION_STATES, VM_POWER_STATES, type HostSpec, type VmSpec } from "./scenario-schema.js";
import { requireAutomationSession } from "./automation-session-routes.js";
import { counted, listParam } from "./counted.js";
import { sendJson, vapiError } from "./wire-errors.js";

/** List caps of the Automation API: more matches -> UNABLE_TO_ALLOCATE_RESOURCE (HTTP 500, per the spec). */
export const MAX_HOSTS = 2500;
export const MAX_VMS = 4000;
export const MAX_CLUSTERS = 1000;

/**
 * The query parameters each list takes in the vSphere Automation API reference (8.0):
 * any other parameter (a typo, the old `/rest` style `filter.hosts`) is refused with 400.
 * `folders`, `datacenters` and `resource_pools` are real filters the mock does not model:
 * it refuses them too (400) rather than ignore them and list everything.
 */
export const HOST_LIST_PARAMS = ["hosts", "names", "folders", "datacenters", "standalone", "clusters", "connection_states"] as const;
export const VM_LIST_PARAMS = ["vms", "names", "folders", "datacenters", "hosts", "clusters", "resource_pools", "power_states"] as const;
export const CLUSTER_LIST_PARAMS = ["clusters", "names", "folders", "datacenters"] as const;
const NOT_MODELLED = ["folders", "datacenters", "resource_pools"];

/**
 * `GET /api/vcenter/host`, `/api/vcenter/vm`, `/api/vcenter/vm/{vm}`, `/api/vcenter/cluster`.
 * Filters are repeated query keys (`?hosts=host-1&hosts=host-2`); an unknown enum value
 * is INVALID_ARGUMENT (400), and so is an unknown query parameter.
 */
export function mountAutomationInventoryRoutes(app: Application, state: MockState): void {
  counted(
    app,
    state,
    "get",
    "/api/vcenter/host",
    (req, res) => {
      if (requireAutomationSession(state, req, res) === undefined) return;
      const f = filters(req, res, ["hosts", "names", "clusters", "connection_states", "standalone"], {
        connection_states: CONNECTION_STATES,
      });
      if (f === undefined) return;
      const hosts = [...state.hosts.values()].filter(
        (h) =>
          match(f["hosts"], h.id) &&
          match(f["names"], h.name) &&
          match(f["clusters"], h.cluster) &&
          match(f["connection_states"], h.connectionState) &&
          match(f["standalone"], String(h.cluster === undefined)),
      );
      if (tooMany(res, hosts.length, MAX_HOSTS, "host")) return;
      sendJson(res, 200, hosts.map(toHostSummaryWire));
    },
    HOST_LIST_PARAMS,
  );

  counted(
    app,
    state,
    "get",
    "/api/vcenter/vm",
    (req, res) => {
      if (requireAutomationSession(state, req, res) === undefined) return;
      const f = filters(req, res, ["vms", "names", "hosts", "clusters", "power_states"], { power_states: VM_POWER_STATES });
      if (f === undefined) return;
      if ([...(f["hosts"] ?? [])].some((h) => state.faults.hostFaults[h] === "vm_list")) {
        sendJson(res, 500, vapiError("ERROR", "com.vmware.vapi.endpoint.internal.error", "Internal server error."));
        return;
      }
      const vms = [...state.vms.values()].filter(
        (v) =>
          match(f["vms"], v.id) &&
          match(f["names"], v.name) &&
          match(f["hosts"], v.host) &&
          match(f["clusters"], state.hosts.get(v.host)?.cluster) &&
          match(f["power_states"], v.powerState),
      );
      if (tooMany(res, vms.length, MAX_VMS, "vm")) return;
      sendJson(
        res,
        200,
        vms.map((v) => ({ vm: v.id, name: v.name, power_state: v.powerState, cpu_count: v.vcpus, memory_size_MiB: v.memoryMiB })),
      );
    },
    VM_LIST_PARAMS,
  );

  counted(app, state, "get", "/api/vcenter/vm/:vm", (req, res) => {
    if (requireAutomationSession(state, req, res) === undefined) return;
    const id = String(req.params["vm"]);
    state.stats.vmDetailFetches[id] = (state.stats.vmDetailFetches[id] ?? 0) + 1;
    const vm = state.vms.get(id);
    if (vm === undefined) {
      sendJson(
        res,
        404,
        vapiError("NOT_FOUND", "com.vmware.api.vcenter.vm.not_found", `Virtual machine with identifier '${id}' does not exist.`, [id]),
      );
      return;
    }
    sendJson(res, 200, toVmInfoWire(vm));
  });

  counted(
    app,
    state,
    "get",
    "/api/vcenter/cluster",
    (req, res) => {
      if (requireAutomationSession(state, req, res) === undefined) return;
      const f = filters(req, res, ["clusters", "names"], {});
      if (f === undefined) return;
      const clusters = state.scenario.clusters.filter((c) => match(f["clusters"], c.id) && match(f["names"], c.name));
      if (tooMany(res, clusters.length, MAX_CLUSTERS, "cluster")) return;
      sendJson(
        res,
        200,
        clusters.map((c) => ({ cluster: c.id, name: c.name, ha_enabled: c.haEnabled, drs_enabled: c.drsEnabled })),
      );
    },
    CLUSTER_LIST_PARAMS,
  );
}

function toHostSummaryWire(h: HostSpec): object {
  return h.connectionState === "CONNECTED"
    ? { host: h.id, name: h.name, connection_state: h.connectionState, power_state: "POWERED_ON" }
    : { host: h.id, name: h.name, connection_state: h.connectionState };
}

function toVmInfoWire(v: VmSpec): object {
  return {
    name: v.name,
    guest_OS: v.guestOS,
    power_state: v.powerState,
    identity: {
      name: v.name,
      bios_uuid: v.biosUuid.toLowerCase(),
      instance_uuid: (v.instanceUuid ?? instanceUuidFor(v.biosUuid)).toLowerCase(),
    },
    hardware: { version: "VMX_19", upgrade_policy: "NEVER", upgrade_status: "NONE" },
    cpu: { count: v.vcpus, cores_per_socket: 1, hot_add_enabled: false, hot_remove_enabled: false },
    memory: { size_MiB: v.memoryMiB, hot_add_enabled: false },
    boot: { type: "EFI", efi_legacy_boot: false, delay: 0, retry: false, retry_delay: 10000, enter_setup_mode: false },
    disks: {},
    nics: {},
    cdroms: {},
    floppies: {},
    parallel_ports: {},
    serial_ports: {},
    sata_adapters: {},
    scsi_adapters: {},
    nvme_adapters: {},
    instant_clone_frozen: false,
  };
}

/** vCenter instance UUIDs start with 50; derived from the BIOS UUID when the scenario gives none. */
export function instanceUuidFor(biosUuid: string): string {
  return `50${biosUuid.slice(2, 8)}${biosUuid.slice(8)}`;
}

type Filters = Record<string, Set<string> | undefined>;

function filters(req: Request, res: Response, names: string[], enums: Record<string, readonly string[]>): Filters | undefined {
  const unmodelled = NOT_MODELLED.find((n) => listParam(req, n) !== undefined);
  if (unmodelled !== undefined) {
    sendJson(
      res,
      400,
      vapiError("INVALID_ARGUMENT", "mock.vcenter.filter.not_modelled", `The mock vCenter does not model the filter ${unmodelled}.`, [
        unmodelled,
      ]),
    );
    return undefined;
  }
  const out: Filters = {};
  for (const n of names) {
    const values = listParam(req, n);
    const allowed = enums[n] ?? (n === "standalone" ? ["true", "false"] : undefined);
    const bad = values?.find((v) => allowed !== undefined && !allowed.includes(v));
    if (bad !== undefined) {
      sendJson(
        res,
        400,
        vapiError("INVALID_ARGUMENT", "vapi.bindings.typeconverter.enum.invalid", `Invalid value '${bad}' for filter ${n}.`, [bad, n]),
      );
      return undefined;
    }
    out[n] = values === undefined ? undefined : new Set(values);
  }
  return out;
}

const match = (set: Set<string> | undefined, v: string | undefined) => set === undefined || (v !== undefined && set.has(v));

function tooMany(res: Response, count: number, max: number, kind: string): boolean {
  if (count <= max) return false;
  sendJson(
    res,
    500,
    vapiError(
      "UNABLE_TO_ALLOCATE_RESOURCE",
      `com.vmware.api.vcenter.${kind}.max_limit_exceeded`,
      `Too many matches (${count}); at most ${max} ${kind}s can be listed. Add filters.`,
      [String(max)],
    ),
  );
  return true;
}
