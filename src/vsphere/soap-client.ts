import type { AutomationClientOptions } from "./automation-client.js";
import { SESSION_REJECTED, SessionKeeper } from "./session-keeper.js";
import {
  buildSoapRequest,
  child,
  moRefOf,
  parseSoapReply,
  SoapParseError,
  textOf,
  type SoapField,
  type SoapMoRef,
  type SoapReply,
  type XmlElement,
} from "./soap-envelope.js";
import { VcenterAuthError } from "./vcenter-auth-error.js";
import { VcenterHttpError } from "./vcenter-http-error.js";
import { describeRequest, type VcenterResponse } from "./vcenter-http.js";
import { VcenterResponseError } from "./vcenter-response-error.js";

/**
 * vim25 over SOAP (`POST /sdk`, every vCenter from 6.x on): `RetrieveServiceContent` (no
 * session), `SessionManager.Login` whose session is the cookie `vmware_soap_session`, and
 * method calls. Faults come with HTTP 500; a `NotAuthenticated` fault (an expired session)
 * means "log in again" (once, via SessionKeeper); `InvalidLogin` is a refused login.
 */
export const SOAP_PATH = "/sdk";
const SESSION_COOKIE = "vmware_soap_session";
const SERVICE_INSTANCE: SoapMoRef = { type: "ServiceInstance", value: "ServiceInstance" };

export interface SoapClientOptions extends AutomationClientOptions {
  /** The vim25 version asked for in `SOAPAction` (`urn:vim25/6.7`): the vCenter's own, from its release list. */
  readonly apiVersion: string;
}

/** The ServiceContent references hvx uses, and `about`. */
export interface ServiceContentRefs {
  readonly rootFolder: SoapMoRef;
  readonly propertyCollector: SoapMoRef;
  readonly viewManager: SoapMoRef;
  readonly sessionManager: SoapMoRef;
  readonly perfManager: SoapMoRef;
  /** vCenter's advanced settings (`VpxSettings`). */
  readonly setting?: SoapMoRef;
  /** `about.fullName`, e.g. `VMware vCenter Server 7.0.3 build-19234570`. */
  readonly fullName?: string;
  readonly apiVersion?: string;
}

export class SoapClient {
  private readonly session: SessionKeeper;
  private content: Promise<ServiceContentRefs> | undefined;

  constructor(private readonly options: SoapClientOptions) {
    this.session = new SessionKeeper("soap", () => this.login(), options.onRelogin, options.loginGate);
  }

  /** `RetrieveServiceContent`, read once (no session needed); a failure is retried at the next call. */
  serviceContent(): Promise<ServiceContentRefs> {
    if (!this.content) {
      this.content = this.exchange("RetrieveServiceContent", SERVICE_INSTANCE, [], undefined).then(({ reply, res }) => {
        const request = describeSoap("RetrieveServiceContent");
        if (!reply.ok) throw this.faultError(request, res.status, reply);
        return toServiceContent(request, reply.returnval[0]);
      });
      this.content.catch(() => {
        this.content = undefined;
      });
    }
    return this.content;
  }

  /**
   * One method call in the session (logging in first when there is none); the `returnval`
   * elements. `sessionRejected` tells a result that reports an expired session in its data
   * (the PropertyCollector puts NotAuthenticated in `missingSet`) from a good one.
   */
  call(
    method: string,
    self: SoapMoRef,
    fields: readonly SoapField[],
    sessionRejected?: (returnval: readonly XmlElement[]) => boolean,
  ): Promise<readonly XmlElement[]> {
    return this.session.call(async (cookie) => {
      const { reply, res } = await this.exchange(method, self, fields, cookie);
      if (reply.ok) return sessionRejected?.(reply.returnval) ? SESSION_REJECTED : reply.returnval;
      if (reply.fault.type === "NotAuthenticated") return SESSION_REJECTED;
      throw this.faultError(describeSoap(method), res.status, reply);
    });
  }

  /** `ServiceInstance.CurrentTime` (no session needed): vCenter's clock, epoch ms. */
  async currentTimeMs(): Promise<number> {
    const { reply, res } = await this.exchange("CurrentTime", SERVICE_INSTANCE, [], this.session.peek());
    const request = describeSoap("CurrentTime");
    if (!reply.ok) throw this.faultError(request, res.status, reply);
    const ms = Date.parse(reply.returnval[0]?.text ?? "");
    if (!Number.isFinite(ms)) throw new VcenterResponseError("soap", request, "CurrentTime is not a dateTime");
    return ms;
  }

  /** `SessionManager.Logout`, best effort; true when vCenter confirmed it. */
  async logout(): Promise<boolean> {
    const cookie = this.session.peek();
    if (cookie === undefined) return false;
    this.session.forget();
    const { sessionManager } = await this.serviceContent();
    const done = await this.exchange("Logout", sessionManager, [], cookie).catch(() => undefined);
    return done?.reply.ok === true;
  }

  /** `SessionManager.Login`; the session is the `vmware_soap_session` cookie of the answer. */
  private async login(): Promise<string> {
    const { sessionManager } = await this.serviceContent();
    const c = this.options.credentials?.() ?? this.options;
    const fields: SoapField[] = [
      ["userName", c.username],
      ["password", c.password],
    ];
    const { reply, res } = await this.exchange("Login", sessionManager, fields, undefined);
    if (!reply.ok) {
      if (reply.fault.type === "InvalidLogin" || reply.fault.type === "NotAuthenticated") {
        throw new VcenterAuthError("soap", `login refused (${res.status} ${reply.fault.type})`);
      }
      throw this.faultError(describeSoap("Login"), res.status, reply);
    }
    const cookie = sessionCookie(res.header("set-cookie"));
    if (cookie === undefined) throw new VcenterResponseError("soap", describeSoap("Login"), `no ${SESSION_COOKIE} cookie`);
    return cookie;
  }

  private async exchange(
    method: string,
    self: SoapMoRef,
    fields: readonly SoapField[],
    cookie: string | undefined,
  ): Promise<{ reply: SoapReply; res: VcenterResponse }> {
    const request = describeSoap(method);
    const res = await this.options.send("soap", {
      method: "POST",
      path: SOAP_PATH,
      headers: {
        Accept: "text/xml",
        SOAPAction: `"urn:vim25/${this.options.apiVersion}"`,
        ...(cookie !== undefined ? { Cookie: `${SESSION_COOKIE}=${cookie}` } : {}),
      },
      text: { contentType: "text/xml; charset=utf-8", body: buildSoapRequest(method, self, fields) },
    });
    const is2xx = res.status >= 200 && res.status < 300;
    // Faults come as 500 with a SOAP body; any other status without one (404, a proxy's 503) is an HTTP error.
    let reply: SoapReply;
    try {
      reply = parseSoapReply(res.bodyText);
    } catch (err) {
      if (!is2xx) throw new VcenterHttpError("soap", request, res.status);
      throw new VcenterResponseError("soap", request, (err as SoapParseError).message);
    }
    if (reply.ok && !is2xx) throw new VcenterHttpError("soap", request, res.status);
    return { reply, res };
  }

  private faultError(request: string, status: number, reply: Extract<SoapReply, { ok: false }>): VcenterHttpError {
    const { type, detail } = reply.fault;
    return new VcenterHttpError("soap", request, status, type, detail !== undefined ? { faultDetail: detail } : undefined);
  }
}

/** `POST /sdk QueryPerf`: names the request in errors and logs, never its body. */
export function describeSoap(method: string): string {
  return `${describeRequest({ method: "POST", path: SOAP_PATH })} ${method}`;
}

/** The `vmware_soap_session` value among Set-Cookie lines, quotes kept (vCenter wants it back as sent). */
export function sessionCookie(setCookie: string | undefined): string | undefined {
  const m = setCookie === undefined ? null : new RegExp(`(?:^|[\\s,;])${SESSION_COOKIE}=("[^"]*"|[^;,\\s]+)`).exec(setCookie);
  return m?.[1];
}

function toServiceContent(request: string, content: XmlElement | undefined): ServiceContentRefs {
  const ref = (name: string) => (content ? moRefOf(child(content, name)) : undefined);
  const rootFolder = ref("rootFolder");
  const propertyCollector = ref("propertyCollector");
  const viewManager = ref("viewManager");
  const sessionManager = ref("sessionManager");
  const perfManager = ref("perfManager");
  if (!rootFolder || !propertyCollector || !viewManager || !sessionManager || !perfManager) {
    throw new VcenterResponseError(
      "soap",
      request,
      "ServiceContent lacks rootFolder, propertyCollector, viewManager, sessionManager or perfManager",
    );
  }
  const about = content ? child(content, "about") : undefined;
  const setting = ref("setting");
  const fullName = about ? textOf(about, "fullName") : undefined;
  const apiVersion = about ? textOf(about, "apiVersion") : undefined;
  return {
    rootFolder,
    propertyCollector,
    viewManager,
    sessionManager,
    perfManager,
    ...(setting ? { setting } : {}),
    ...(fullName ? { fullName } : {}),
    ...(apiVersion ? { apiVersion } : {}),
  };
}
