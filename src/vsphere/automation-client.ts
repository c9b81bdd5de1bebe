import { z } from "zod";
import { parseBody, tryParseJson } from "./parse-body.js";
import { SESSION_REJECTED, SessionKeeper, type LoginGate } from "./session-keeper.js";
import { VcenterAuthError } from "./vcenter-auth-error.js";
import { VcenterHttpError } from "./vcenter-http-error.js";
import { describeRequest, type VcenterRequest, type VcenterResponse, type VcenterSend } from "./vcenter-http.js";

/**
 * vSphere Automation API (`/api`, 7.0U2+): session, clusters, hosts, VMs. Errors are keyed
 * on the body's `error_type`, not the HTTP status (UNABLE_TO_ALLOCATE_RESOURCE comes as
 * 500 or 400 depending on the build).
 */
const SESSION_HEADER = "vmware-api-session-id";

const clusterSchema = z.object({ cluster: z.string(), name: z.string() });
const hostSchema = z.object({
  host: z.string(),
  name: z.string(),
  connection_state: z.string(),
  power_state: z.string().optional(),
});
const vmSchema = z.object({
  vm: z.string(),
  name: z.string(),
  power_state: z.string(),
  cpu_count: z.number().optional(),
  memory_size_MiB: z.number().optional(),
});
const vmInfoSchema = z.object({
  identity: z.object({ bios_uuid: z.string().optional() }).passthrough().optional(),
});

export type ClusterSummary = z.infer<typeof clusterSchema>;
export type HostSummary = z.infer<typeof hostSchema>;
export type VmSummary = z.infer<typeof vmSchema>;

export interface VcenterCredentials {
  readonly username: string;
  readonly password: string;
}

export interface AutomationClientOptions {
  readonly send: VcenterSend;
  readonly username: string;
  readonly password: string;
  /** Read at each login instead of username/password (credential files may change). */
  readonly credentials?: () => VcenterCredentials;
  readonly onRelogin?: () => void;
  readonly loginGate?: LoginGate;
}

export class AutomationClient {
  private readonly session: SessionKeeper;

  constructor(private readonly options: AutomationClientOptions) {
    this.session = new SessionKeeper("automation", () => this.login(), options.onRelogin, options.loginGate);
  }

  /** `GET /api/vcenter/cluster` (at most 1000 items). */
  listClusters(): Promise<ClusterSummary[]> {
    return this.get({ method: "GET", path: "/api/vcenter/cluster" }, z.array(clusterSchema));
  }

  /** `GET /api/vcenter/host`, optionally `?clusters=<id>` (repeated). */
  listHosts(clusterIds?: readonly string[]): Promise<HostSummary[]> {
    const query = clusterIds && clusterIds.length > 0 ? { clusters: clusterIds } : undefined;
    return this.get({ method: "GET", path: "/api/vcenter/host", ...(query ? { query } : {}) }, z.array(hostSchema));
  }

  /** `GET /api/vcenter/vm?hosts=<id>`: the VMs on one host now (summaries carry no host field). */
  listVmsOnHost(hostId: string): Promise<VmSummary[]> {
    return this.get({ method: "GET", path: "/api/vcenter/vm", query: { hosts: [hostId] } }, z.array(vmSchema));
  }

  /** `identity.bios_uuid` of `GET /api/vcenter/vm/{vm}`, lower case; undefined if the VM is gone or has none. */
  async getVmBiosUuid(vmId: string): Promise<string | undefined> {
    const request: VcenterRequest = { method: "GET", path: `/api/vcenter/vm/${encodeURIComponent(vmId)}` };
    try {
      const info = await this.get(request, vmInfoSchema);
      return info.identity?.bios_uuid?.toLowerCase();
    } catch (err) {
      if (err instanceof VcenterHttpError && err.errorType === "NOT_FOUND") return undefined;
      throw err;
    }
  }

  /** `DELETE /api/session`, best effort; true when vCenter confirmed it (204). */
  async logout(): Promise<boolean> {
    const token = this.session.peek();
    if (token === undefined) return false;
    this.session.forget();
    const res = await this.options.send("automation", {
      method: "DELETE",
      path: "/api/session",
      headers: { [SESSION_HEADER]: token },
    });
    return isSuccess(res);
  }

  private get<S extends z.ZodTypeAny>(request: VcenterRequest, schema: S): Promise<z.infer<S>> {
    return this.session.call(async (token) => {
      const res = await this.options.send("automation", {
        ...request,
        headers: { ...request.headers, [SESSION_HEADER]: token },
      });
      if (isSuccess(res)) return parseBody("automation", describeRequest(request), res.bodyText, schema);
      const errorType = automationErrorType(res);
      if (errorType === "UNAUTHENTICATED" || (res.status === 401 && errorType === undefined)) return SESSION_REJECTED;
      throw new VcenterHttpError("automation", describeRequest(request), res.status, errorType);
    });
  }

  /** `POST /api/session` with Basic auth; 201 and the token as a JSON string. */
  private async login(): Promise<string> {
    const request: VcenterRequest = { method: "POST", path: "/api/session" };
    const { username, password } = this.options.credentials?.() ?? this.options;
    const basic = Buffer.from(`${username}:${password}`, "utf8").toString("base64");
    const res = await this.options.send("automation", { ...request, headers: { Authorization: `Basic ${basic}` } });
    if (!isSuccess(res)) {
      const errorType = automationErrorType(res);
      if (res.status === 401 || errorType === "UNAUTHENTICATED" || errorType === "UNAUTHORIZED") {
        throw new VcenterAuthError("automation", `login refused (${res.status}${errorType ? ` ${errorType}` : ""})`);
      }
      throw new VcenterHttpError("automation", describeRequest(request), res.status, errorType);
    }
    return parseBody("automation", describeRequest(request), res.bodyText, z.string().min(1));
  }
}

function isSuccess(res: VcenterResponse): boolean {
  return res.status >= 200 && res.status < 300;
}

/** `error_type` of a standard error body (`{"error_type":"NOT_FOUND","messages":[...]}`). */
export function automationErrorType(res: Pick<VcenterResponse, "bodyText">): string | undefined {
  const body = tryParseJson(res.bodyText) as { error_type?: unknown } | undefined;
  const t = body && typeof body === "object" ? body.error_type : undefined;
  return typeof t === "string" && /^[A-Z_]+$/.test(t) ? t : undefined;
}
