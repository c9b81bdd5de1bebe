import { z } from "zod";
import { parseBody, tryParseJson } from "./parse-body.js";
import type { VcenterCredentials } from "./automation-client.js";
import { SESSION_REJECTED, SessionKeeper, type LoginGate } from "./session-keeper.js";
import { VcenterAuthError } from "./vcenter-auth-error.js";
import { VcenterHttpError } from "./vcenter-http-error.js";
import { describeRequest, type VcenterRequest, type VcenterSend } from "./vcenter-http.js";
import { VcenterResponseError } from "./vcenter-response-error.js";
import {
  hostSummarySchema,
  optionValueSchema,
  perfCounterInfoSchema,
  perfEntityMetricSchema,
  serviceContentSchema,
  type HostSummaryInfo,
  type OptionValue,
  type PerfCounterInfo,
  type PerfEntityMetric,
  type PerfQuerySpec,
} from "./vijson-types.js";
import { vmSummarySchema, type VmSummaryInfo } from "./vm-reservations.js";

/**
 * VI/JSON API (`/sdk/vim25/{release}`, vCenter 8.0U1+): its own Login, the counter
 * catalogue, QueryPerf and host summaries. A session is rejected with 401 or a
 * `NotAuthenticated` fault body (whatever the status): both mean "log in again".
 */
const SESSION_HEADER = "vmware-api-session-id";

export interface VijsonClientOptions {
  readonly send: VcenterSend;
  /** e.g. `8.0.1.0`. */
  readonly release: string;
  readonly username: string;
  readonly password: string;
  /** Read at each login instead of username/password (credential files may change). */
  readonly credentials?: () => VcenterCredentials;
  readonly onRelogin?: () => void;
  readonly loginGate?: LoginGate;
}

interface ManagerIds {
  readonly sessionManager: string;
  readonly perfManager: string;
  /** vCenter's advanced settings (`VpxSettings`). */
  readonly setting: string;
}

export class VijsonClient {
  private readonly session: SessionKeeper;
  private readonly base: string;
  private managers: Promise<ManagerIds> | undefined;

  constructor(private readonly options: VijsonClientOptions) {
    this.base = `/sdk/vim25/${encodeURIComponent(options.release)}`;
    this.session = new SessionKeeper("vijson", () => this.login(), options.onRelogin, options.loginGate);
  }

  /** `PerformanceManager/{moId}/perfCounter`: the whole counter catalogue. */
  async perfCounters(): Promise<PerfCounterInfo[]> {
    const { perfManager } = await this.managerIds();
    return this.call({ method: "GET", path: `${this.base}/PerformanceManager/${perfManager}/perfCounter` }, z.array(perfCounterInfoSchema));
  }

  /** `PerformanceManager/{moId}/QueryPerf`; the caller keeps each call within 256 metrics. */
  async queryPerf(querySpec: readonly PerfQuerySpec[]): Promise<PerfEntityMetric[]> {
    const { perfManager } = await this.managerIds();
    const request: VcenterRequest = {
      method: "POST",
      path: `${this.base}/PerformanceManager/${perfManager}/QueryPerf`,
      body: { querySpec },
    };
    return this.call(request, z.array(perfEntityMetricSchema), []);
  }

  /**
   * `OptionManager/{setting}/QueryOptions` `{"name": ...}`: the advanced settings under that
   * name. vCenter answers a name it does not have with an `InvalidName` fault.
   */
  async queryOptions(name: string): Promise<OptionValue[]> {
    const { setting } = await this.managerIds();
    const request: VcenterRequest = {
      method: "POST",
      path: `${this.base}/OptionManager/${encodeURIComponent(setting)}/QueryOptions`,
      body: { name },
    };
    return this.call(request, z.array(optionValueSchema), []);
  }

  /** `ServiceInstance/ServiceInstance/CurrentTime` (no parameters): vCenter's clock, epoch ms. */
  async currentTimeMs(): Promise<number> {
    const request: VcenterRequest = { method: "POST", path: `${this.base}/ServiceInstance/ServiceInstance/CurrentTime` };
    const text = await this.call(request, z.string().min(1));
    const ms = Date.parse(text);
    if (!Number.isFinite(ms)) throw new VcenterResponseError("vijson", describeRequest(request), "CurrentTime is not a dateTime");
    return ms;
  }

  /** `SessionManager/{moId}/Logout`, best effort; true when vCenter confirmed it. */
  async logout(): Promise<boolean> {
    const token = this.session.peek();
    if (token === undefined) return false;
    this.session.forget();
    const { sessionManager } = await this.managerIds();
    const res = await this.options.send("vijson", {
      method: "POST",
      path: `${this.base}/SessionManager/${encodeURIComponent(sessionManager)}/Logout`,
      headers: { [SESSION_HEADER]: token },
    });
    return res.status >= 200 && res.status < 300;
  }

  /** `HostSystem/{id}/summary`: hardware, quickStats, runtime. */
  hostSummary(hostId: string): Promise<HostSummaryInfo> {
    return this.call({ method: "GET", path: `${this.base}/HostSystem/${encodeURIComponent(hostId)}/summary` }, hostSummarySchema);
  }

  /** `VirtualMachine/{id}/summary`: the VM's config summary (reservations) among others. */
  vmSummary(vmId: string): Promise<VmSummaryInfo> {
    return this.call({ method: "GET", path: `${this.base}/VirtualMachine/${encodeURIComponent(vmId)}/summary` }, vmSummarySchema);
  }

  /** `ServiceInstance/ServiceInstance/content`, read once (no session needed). */
  private managerIds(): Promise<ManagerIds> {
    if (!this.managers) {
      const request: VcenterRequest = { method: "GET", path: `${this.base}/ServiceInstance/ServiceInstance/content` };
      this.managers = this.options.send("vijson", request).then((res) => {
        if (res.status < 200 || res.status >= 300) {
          throw new VcenterHttpError("vijson", describeRequest(request), res.status, faultType(res.bodyText), faultOptions(res.bodyText));
        }
        const content = parseBody("vijson", describeRequest(request), res.bodyText, serviceContentSchema);
        if (!content.sessionManager || !content.perfManager) {
          throw new VcenterResponseError("vijson", describeRequest(request), "no sessionManager or perfManager");
        }
        return {
          sessionManager: content.sessionManager.value,
          perfManager: content.perfManager.value,
          setting: content.setting?.value ?? "VpxSettings",
        };
      });
      this.managers.catch(() => {
        this.managers = undefined;
      });
    }
    return this.managers;
  }

  private call<S extends z.ZodTypeAny>(request: VcenterRequest, schema: S, emptyValue?: z.infer<S>): Promise<z.infer<S>> {
    return this.session.call(async (token) => {
      const res = await this.options.send("vijson", { ...request, headers: { [SESSION_HEADER]: token } });
      if (res.status < 200 || res.status >= 300) {
        // Faults come with a non-2xx status (500 as a rule); only then is the body a fault.
        const fault = faultType(res.bodyText);
        if (res.status === 401 || fault === "NotAuthenticated") return SESSION_REJECTED;
        throw new VcenterHttpError("vijson", describeRequest(request), res.status, fault, faultOptions(res.bodyText));
      }
      if (emptyValue !== undefined && res.bodyText.trim() === "") return emptyValue;
      return parseBody("vijson", describeRequest(request), res.bodyText, schema);
    });
  }

  /** `SessionManager/{moId}/Login`; the token is the response header, not the body. */
  private async login(): Promise<string> {
    const { sessionManager } = await this.managerIds();
    const request: VcenterRequest = {
      method: "POST",
      path: `${this.base}/SessionManager/${sessionManager}/Login`,
      body: loginBody(this.options.credentials?.() ?? this.options),
    };
    const res = await this.options.send("vijson", request);
    const fault = faultType(res.bodyText);
    if (res.status < 200 || res.status >= 300) {
      if (res.status === 401 || fault === "InvalidLogin" || fault === "NotAuthenticated") {
        throw new VcenterAuthError("vijson", `login refused (${res.status}${fault ? ` ${fault}` : ""})`);
      }
      throw new VcenterHttpError("vijson", describeRequest(request), res.status, fault);
    }
    const token = res.header(SESSION_HEADER);
    if (!token) throw new VcenterResponseError("vijson", describeRequest(request), `no ${SESSION_HEADER} header`);
    return token;
  }
}

function loginBody(c: VcenterCredentials): { userName: string; password: string } {
  return { userName: c.username, password: c.password };
}

/**
 * The fault's `details` (RestrictedByAdministrator) or `invalidProperty` (InvalidArgument):
 * a setting or property name. Kept only when it looks like one (no free text, no values).
 */
export function faultDetail(bodyText: string): string | undefined {
  const body = tryParseJson(bodyText) as { details?: unknown; invalidProperty?: unknown } | undefined;
  if (!body || typeof body !== "object" || Array.isArray(body)) return undefined;
  const d = typeof body.details === "string" ? body.details : body.invalidProperty;
  return typeof d === "string" && /^[A-Za-z0-9_.]{1,100}$/.test(d) ? d : undefined;
}

function faultOptions(bodyText: string): { faultDetail?: string } {
  const detail = faultDetail(bodyText);
  return detail === undefined ? {} : { faultDetail: detail };
}

/** The `_typeName` of a VI/JSON fault body (`{"_typeName":"NotAuthenticated",...}`), if any. */
export function faultType(bodyText: string): string | undefined {
  const body = tryParseJson(bodyText) as { _typeName?: unknown } | undefined;
  const t = body && typeof body === "object" && !Array.isArray(body) ? body._typeName : undefined;
  return typeof t === "string" && /^[A-Za-z0-9_.]+$/.test(t) ? t : undefined;
}
