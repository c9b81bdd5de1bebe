import type { VcenterApi } from "./vcenter-api.js";

/**
 * vCenter answered with an error status. `errorType` is the Automation API's `error_type`
 * (e.g. `SERVICE_UNAVAILABLE`) or the VI/JSON fault's `_typeName` (e.g. `InvalidArgument`).
 * `faultDetail` is the fault's `details` or `invalidProperty` when it has one (e.g.
 * `vpxd.stats.maxQueryMetrics`, `querySpec.size`): a setting or property name, never a value.
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
    options?: { cause?: unknown; faultDetail?: string },
  ) {
    super(
      `vCenter ${api} ${request} answered ${status}${errorType ? ` (${errorType}${options?.faultDetail ? `: ${options.faultDetail}` : ""})` : ""}`,
      options?.cause !== undefined ? { cause: options.cause } : undefined,
    );
    if (options?.faultDetail !== undefined) this.faultDetail = options.faultDetail;
  }

  readonly faultDetail?: string;
}
