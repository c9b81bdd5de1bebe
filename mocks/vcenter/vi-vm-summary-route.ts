import type { Application } from "express";
import { counted } from "./counted.js";
import type { MockState } from "./mock-state.js";
import { releaseOk, requireViSession } from "./vi-session-routes.js";
import { VI_FAULT_STATUS, managedObjectNotFound, sendJson } from "./wire-errors.js";

/**
 * `GET /sdk/vim25/{release}/VirtualMachine/{id}/summary`: a VirtualMachineSummary with the
 * parts hvx reads (`config`: VirtualMachineConfigSummary, reservations in MB and MHz).
 */
export function mountViVmSummaryRoute(app: Application, state: MockState, viBase: string): void {
  counted(app, state, "get", `${viBase}/VirtualMachine/:id/summary`, (req, res) => {
    const id = String(req.params["id"]);
    if (!releaseOk(state, req, res) || requireViSession(state, req, res, { type: "VirtualMachine", value: id }) === undefined) return;
    const vm = state.vms.get(id);
    if (vm === undefined) {
      sendJson(res, VI_FAULT_STATUS, managedObjectNotFound("VirtualMachine", id));
      return;
    }
    sendJson(res, 200, {
      _typeName: "VirtualMachineSummary",
      vm: { _typeName: "ManagedObjectReference", type: "VirtualMachine", value: vm.id },
      runtime: {
        _typeName: "VirtualMachineRuntimeInfo",
        host: { _typeName: "ManagedObjectReference", type: "HostSystem", value: vm.host },
        powerState: vm.powerState === "POWERED_ON" ? "poweredOn" : vm.powerState === "SUSPENDED" ? "suspended" : "poweredOff",
      },
      config: {
        _typeName: "VirtualMachineConfigSummary",
        name: vm.name,
        guestId: vm.guestOS.toLowerCase(),
        memorySizeMB: vm.memoryMiB,
        numCpu: vm.vcpus,
        uuid: vm.biosUuid,
        memoryReservation: vm.memoryReservationMiB,
        cpuReservation: vm.cpuReservationMhz,
      },
    });
  });
}
