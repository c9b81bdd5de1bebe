import type { VcenterApi } from "./vcenter-api.js";

/**
 * vCenter answered with an error status. `errorType` is the Automation API's `error_type`
 * (e.g. `SERVICE_UNAVAILABLE`) or the VI/JSON fault's `_typeName` (e.g. `InvalidArgument`).
 * The message names the request, never its headers or body.
 */
export class VcenterHttpError extends Error {
  override name = "VcenterHttpError";
  readonly kind = "http";
  constructor(
    readonly api: VcenterApi,
    readonly request: string,
    readonly status: number,
    readonly errorType?: string,
    options?: { cause?: unknown },
  ) {
    super(`vCenter ${api} ${request} answered ${status}${errorType ? ` (${errorType})` : ""}`, options);
  }
}
