import type { VcenterApi } from "./vcenter-api.js";

/** Login was refused, or a fresh session was refused again. Never carries the credentials. */
export class VcenterAuthError extends Error {
  override name = "VcenterAuthError";
  readonly kind = "auth";
  constructor(
    readonly api: VcenterApi,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`vCenter ${api} authentication failed: ${detail}`, options);
  }
}
