import type { NextFunction, Request, Response } from "express";
import type { MockState } from "./mock-state.js";
import { sendSoap, soapFault } from "./soap-wire.js";
import { sendJson, vapiError, viFault } from "./wire-errors.js";

/**
 * Express middleware applying the scenario's faults before any route: latency, a fixed
 * 5xx, random 5xx at `errorRate`, and marking responses malformed at `malformedRate`.
 * Error bodies follow the API of the path (vAPI error for /api, a fault for /sdk).
 */
export function faultInjection(state: MockState) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const f = state.faults;
    if (f.latencyMs > 0) await new Promise((r) => setTimeout(r, f.latencyMs));
    const status = f.fixedStatus ?? (f.errorRate > 0 && state.random() < f.errorRate ? f.errorStatus : undefined);
    if (status !== undefined) {
      // vim25 over SOAP answers a SystemError fault, in XML.
      if (req.path === "/sdk") sendSoap(res, status, soapFault(injectedErrorBody("/sdk/", status)));
      else sendJson(res, status, injectedErrorBody(req.path, status));
      return;
    }
    if (f.malformedRate > 0 && state.random() < f.malformedRate) res.locals["malformed"] = true;
    next();
  };
}

function injectedErrorBody(path: string, status: number): object {
  if (path.startsWith("/sdk/"))
    return viFault("SystemError", "A general system error occurred: injected fault", { reason: "injected fault" });
  return status === 503
    ? vapiError("SERVICE_UNAVAILABLE", "com.vmware.vapi.endpoint.service.unavailable", "Service unavailable.")
    : vapiError("ERROR", "com.vmware.vapi.endpoint.internal.error", "Internal server error.");
}
