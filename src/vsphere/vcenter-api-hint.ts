import type { VcenterTransport } from "./vcenter-transport.js";
import { VcenterHttpError } from "./vcenter-http-error.js";

/** A JSON API the vCenter does not serve (404): what to set instead. Keeps `kind` http for the metrics. */
export class VcenterApiUnavailableError extends Error {
  override name = "VcenterApiUnavailableError";
  readonly kind = "http";
}

/**
 * A 404 from the Automation API or VI/JSON means this vCenter does not serve that API (VI/JSON
 * needs 8.0U1, `/api` 7.0U2): the error then names the vCenter's release and `vcenter.api`.
 * Any other error comes back as it was.
 */
export function withApiHint(
  err: unknown,
  transport: Pick<VcenterTransport, "api" | "releases"> | undefined,
  viJsonRelease: string,
): unknown {
  if (!(err instanceof VcenterHttpError) || err.status !== 404 || transport?.api !== "vijson") return err;
  if (err.api !== "vijson" && err.api !== "automation") return err;
  const releases = transport.releases;
  const version = releases
    ? `this vCenter serves vim25 ${releases.current} (its release list /sdk/vimServiceVersions.xml)`
    : "this vCenter's release list (/sdk/vimServiceVersions.xml) could not be read";
  const needs =
    err.api === "vijson"
      ? `VI/JSON ${viJsonRelease} needs vCenter 8.0U1 or later`
      : "the Automation API (/api) needs vCenter 7.0U2 or later";
  return new VcenterApiUnavailableError(
    `${err.message}: ${version}; ${needs}. Set vcenter.api: soap (or auto, which picks SOAP when VI/JSON is not offered)`,
    { cause: err },
  );
}
