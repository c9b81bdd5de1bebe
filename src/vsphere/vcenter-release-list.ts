import { child, children, parseXml, SoapParseError } from "./soap-envelope.js";
import { VcenterHttpError } from "./vcenter-http-error.js";
import { describeRequest, type VcenterRequest, type VcenterSend } from "./vcenter-http.js";
import { VcenterResponseError } from "./vcenter-response-error.js";

/** `GET /sdk/vimServiceVersions.xml` (no login): the vim25 releases a vCenter serves, newest first. */
export const RELEASE_LIST_PATH = "/sdk/vimServiceVersions.xml";

export interface Vim25Releases {
  /** The vCenter's own vim25 release, e.g. `8.0.1.0`, `7.0.3.0`, `6.5`. */
  readonly current: string;
  /** Older releases it also serves. */
  readonly prior: readonly string[];
}

/**
 * Reads the release list; undefined when the vCenter has none (404). Any other status or no
 * answer throws: the list decides the transport, so a transient failure must not decide it.
 */
export async function readReleaseList(send: VcenterSend): Promise<Vim25Releases | undefined> {
  const request: VcenterRequest = { method: "GET", path: RELEASE_LIST_PATH, headers: { Accept: "text/xml" } };
  const res = await send("soap", request);
  if (res.status === 404) return undefined;
  if (res.status < 200 || res.status >= 300) throw new VcenterHttpError("soap", describeRequest(request), res.status);
  try {
    return parseReleaseList(res.bodyText);
  } catch (err) {
    throw new VcenterResponseError("soap", describeRequest(request), (err as Error).message);
  }
}

/** `<namespaces><namespace><name>urn:vim25</name><version>..</version><priorVersions><version>..` (pure). */
export function parseReleaseList(xml: string): Vim25Releases {
  const root = parseXml(xml);
  const vim25 = children(root, "namespace").find((n) => child(n, "name")?.text === "urn:vim25");
  const current = vim25 ? child(vim25, "version")?.text : undefined;
  if (!vim25 || !current) throw new SoapParseError("no urn:vim25 namespace with a version");
  const priorList = child(vim25, "priorVersions");
  const prior = priorList ? children(priorList, "version").map((v) => v.text) : [];
  return { current, prior };
}

/** Whether the list offers `release` (the VI/JSON path's `{release}`). */
export function offersRelease(list: Vim25Releases, release: string): boolean {
  return list.current === release || list.prior.includes(release);
}
