import type { Response } from "express";

/**
 * Error bodies as the two vCenter APIs send them. Automation API (`/api`): the standard
 * `{"error_type","messages":[{args,default_message,id}]}`, not wrapped. VI/JSON (`/sdk`):
 * the MethodFault itself, discriminated by `_typeName`, with `faultMessage` as
 * LocalizableMessage[] (`faultCause` is left out, as vCenter does when there is none).
 */
export function vapiError(errorType: string, id: string, defaultMessage: string, args: string[] = []): object {
  return { error_type: errorType, messages: [{ args, default_message: defaultMessage, id }] };
}

export const UNAUTHENTICATED_BODY = vapiError(
  "UNAUTHENTICATED",
  "com.vmware.vapi.endpoint.method.authentication.required",
  "Authentication required.",
);

export function viFault(typeName: string, message: string, extra: Record<string, unknown> = {}): object {
  return {
    _typeName: typeName,
    faultMessage: [{ _typeName: "LocalizableMessage", key: `vim.fault.${typeName}`, message }],
    ...extra,
  };
}

export function moRef(type: string, value: string): { _typeName: "ManagedObjectReference"; type: string; value: string } {
  return { _typeName: "ManagedObjectReference", type, value };
}

/** InvalidArgument as vCenter raises it, e.g. `querySpec.interval` for an interval the entity does not have. */
export function invalidArgument(property: string): object {
  return viFault("InvalidArgument", `A specified parameter was not correct: ${property}`, { invalidProperty: property });
}

/** The fault vCenter answers a QueryPerf larger than `vpxd.stats.maxQueryMetrics` with. */
export function restrictedByAdministrator(details: string): object {
  return viFault("RestrictedByAdministrator", `Operation is restricted by the administrator - '${details}'.`, { details });
}

/** OptionManager.QueryOptions for a name that is not set. */
export function invalidName(name: string): object {
  return viFault("InvalidName", `The name '${name}' is invalid.`, { name });
}

/**
 * A request the VI/JSON endpoint cannot deserialize (bad JSON, a required property missing,
 * a wrong `_typeName`), answered with HTTP 400. The message follows vmomi's deserializer.
 */
export function invalidRequest(message: string): object {
  return viFault("InvalidRequest", message);
}

/** HTTP status of a VI/JSON request that cannot be deserialized. */
export const VI_BAD_REQUEST_STATUS = 400;

export function managedObjectNotFound(type: string, value: string): object {
  return viFault("ManagedObjectNotFound", `The object '${type}:${value}' has already been deleted or has not been completely created`, {
    obj: moRef(type, value),
  });
}

/** HTTP status of a VI/JSON method fault: vCenter answers faults with 500 and the fault as body. */
export const VI_FAULT_STATUS = 500;

/**
 * Sends JSON. When the fault dice marked this response malformed (`res.locals.malformed`),
 * a successful body is cut in half so it is no longer valid JSON.
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  let text = JSON.stringify(body);
  if (res.locals["malformed"] === true && status < 300 && text.length > 1) text = text.slice(0, Math.ceil(text.length / 2));
  res.status(status).type("application/json").send(text);
}
