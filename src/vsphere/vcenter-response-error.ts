import type { VcenterApi } from "./vcenter-api.js";

/** vCenter answered 2xx but the body is not what the API documents (garbage, wrong shape). */
export class VcenterResponseError extends Error {
  override name = "VcenterResponseError";
  readonly kind = "response";
  constructor(
    readonly api: VcenterApi,
    readonly request: string,
    readonly problem: string,
    options?: { cause?: unknown },
  ) {
    super(`vCenter ${api} ${request} returned an unexpected body: ${problem}`, options);
  }
}
