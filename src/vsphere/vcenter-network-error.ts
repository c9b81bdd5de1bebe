import type { VcenterApi } from "./vcenter-api.js";

/** The request never got an answer: refused, reset, DNS, TLS or timeout. `code` is e.g. `ECONNREFUSED`. */
export class VcenterNetworkError extends Error {
  override name = "VcenterNetworkError";
  readonly kind = "network";
  constructor(
    readonly api: VcenterApi,
    readonly request: string,
    readonly code: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`vCenter ${api} ${request} failed: ${code}${detail ? ` (${detail})` : ""}`, options);
  }
}
