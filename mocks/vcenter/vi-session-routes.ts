import type { Application, Request, Response } from "express";
import type { MockState } from "./mock-state.js";
import { closeSession, openSession, touchSession, vcenterUserName } from "./session-store.js";
import { counted } from "./counted.js";
import { VI_FAULT_STATUS, invalidName, managedObjectNotFound, moRef, sendJson, viFault } from "./wire-errors.js";

/** VI/JSON base path; `{release}` must be one of the scenario's `viJsonReleases` (e.g. 8.0.1.0). */
export const VI_BASE = "/sdk/vim25/:release";
export const VI_SESSION_HEADER = "vmware-api-session-id";
export const SESSION_MANAGER_ID = "SessionManager";
export const PERF_MANAGER_ID = "PerfMgr";
export const SETTING_ID = "VpxSettings";

/** False (after a 404, as vCenter answers a release it does not serve) when `{release}` is not served. */
export function releaseOk(state: MockState, req: Request, res: Response): boolean {
  if (state.scenario.viJsonReleases.includes(String(req.params["release"]))) return true;
  res.status(404).end();
  return false;
}

/**
 * The VI/JSON session of the request, or undefined after answering NotAuthenticated
 * (status `faults.viNotAuthenticatedStatus`, 500 by default, body the fault).
 */
export function requireViSession(state: MockState, req: Request, res: Response, object: { type: string; value: string }) {
  const s = touchSession(state, req.get(VI_SESSION_HEADER), "viJson");
  if (s === undefined) {
    state.stats.unauthorizedServed += 1;
    sendJson(
      res,
      state.faults.viNotAuthenticatedStatus,
      viFault("NotAuthenticated", "The session is not authenticated.", {
        object: moRef(object.type, object.value),
        privilegeId: "System.View",
      }),
    );
  }
  return s;
}

/**
 * ServiceInstance content and CurrentTime (no login needed), SessionManager Login and
 * Logout, and the OptionManager's QueryOptions (vCenter advanced settings).
 */
export function mountViSessionRoutes(app: Application, state: MockState): void {
  counted(app, state, "get", `${VI_BASE}/ServiceInstance/ServiceInstance/content`, (req, res) => {
    if (!releaseOk(state, req, res)) return;
    sendJson(res, 200, serviceContent(state));
  });

  // A method without parameters: POST with no body; the answer is an xsd:dateTime as a JSON string.
  counted(app, state, "post", `${VI_BASE}/ServiceInstance/:moId/CurrentTime`, (req, res) => {
    if (!releaseOk(state, req, res)) return;
    if (req.params["moId"] !== "ServiceInstance") {
      sendJson(res, VI_FAULT_STATUS, managedObjectNotFound("ServiceInstance", String(req.params["moId"])));
      return;
    }
    sendJson(res, 200, new Date(state.clock()).toISOString());
  });

  counted(app, state, "post", `${VI_BASE}/OptionManager/:moId/QueryOptions`, (req, res) => {
    if (!releaseOk(state, req, res)) return;
    if (req.params["moId"] !== SETTING_ID) {
      sendJson(res, VI_FAULT_STATUS, managedObjectNotFound("OptionManager", String(req.params["moId"])));
      return;
    }
    if (requireViSession(state, req, res, { type: "OptionManager", value: SETTING_ID }) === undefined) return;
    const reply = queryOptionsReply(state, (req.body as { name?: unknown } | undefined)?.name);
    if ("fault" in reply) sendJson(res, VI_FAULT_STATUS, reply.fault);
    else sendJson(res, 200, reply.options);
  });

  counted(app, state, "post", `${VI_BASE}/SessionManager/:moId/Login`, (req, res) => {
    if (!releaseOk(state, req, res)) return;
    if (req.params["moId"] !== SESSION_MANAGER_ID) {
      sendJson(res, VI_FAULT_STATUS, managedObjectNotFound("SessionManager", String(req.params["moId"])));
      return;
    }
    const body = (req.body ?? {}) as { userName?: unknown; password?: unknown };
    const want = state.scenario.credentials;
    if (body.userName !== want.username || body.password !== want.password) {
      state.stats.unauthorizedServed += 1;
      sendJson(res, VI_FAULT_STATUS, viFault("InvalidLogin", "Cannot complete login due to an incorrect user name or password."));
      return;
    }
    const token = openSession(state, "viJson", want.username);
    const now = new Date(state.clock()).toISOString();
    res.setHeader(VI_SESSION_HEADER, token);
    sendJson(res, 200, {
      _typeName: "UserSession",
      key: `52${token.slice(2, 8)}-${token.slice(8, 12)}-${token.slice(12, 16)}-${token.slice(16, 20)}-${token.slice(20, 32)}`,
      userName: vcenterUserName(want.username),
      fullName: "Administrator vsphere.local",
      loginTime: now,
      lastActiveTime: now,
      locale: "en",
      messageLocale: "en",
      extensionSession: false,
      ipAddress: req.socket.remoteAddress ?? "127.0.0.1",
      userAgent: req.get("user-agent") ?? "",
      callCount: 0,
    });
  });

  counted(app, state, "post", `${VI_BASE}/SessionManager/:moId/Logout`, (req, res) => {
    if (!releaseOk(state, req, res)) return;
    if (requireViSession(state, req, res, { type: "SessionManager", value: SESSION_MANAGER_ID }) === undefined) return;
    closeSession(state, req.get(VI_SESSION_HEADER) ?? "");
    state.stats.logouts.viJson += 1;
    res.status(204).end();
  });
}

/**
 * QueryOptions on the advanced settings: no name, all of them; a name ending in "." (a node of
 * the tree), the settings under it; any other name that is not set, the fault InvalidName.
 */
export function queryOptionsReply(state: MockState, name: unknown): { options: object[] } | { fault: object } {
  const settings = Object.entries(state.scenario.advancedSettings);
  const hits =
    typeof name !== "string" || name === ""
      ? settings
      : settings.filter(([key]) => (name.endsWith(".") ? key.startsWith(name) : key === name));
  if (typeof name === "string" && name !== "" && hits.length === 0) return { fault: invalidName(name) };
  return {
    options: hits.map(([key, value]) => ({
      _typeName: "OptionValue",
      key,
      value: typeof value === "number" ? { _typeName: "int", _value: value } : { _typeName: "string", _value: value },
    })),
  };
}

/** The vCenter's own release: the newest VI/JSON release the scenario serves (e.g. `7.0.3.0` for a 7.0.3). */
export function vcenterRelease(state: MockState): string {
  const byNumber = (a: string, b: string) => {
    const [x, y] = [a.split(".").map(Number), b.split(".").map(Number)];
    for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
    return 0;
  };
  return [...state.scenario.viJsonReleases].sort(byNumber).pop()!;
}

/** `ServiceContent`, its `about` naming the vCenter's release. */
export function serviceContent(state: MockState): object {
  const release = vcenterRelease(state);
  const version = release.split(".").slice(0, 3).join(".");
  return {
    _typeName: "ServiceContent",
    rootFolder: moRef("Folder", "group-d1"),
    propertyCollector: moRef("PropertyCollector", "propertyCollector"),
    viewManager: moRef("ViewManager", "ViewManager"),
    about: {
      _typeName: "AboutInfo",
      name: "VMware vCenter Server",
      fullName: `VMware vCenter Server ${version} build-21560480`,
      vendor: "VMware, Inc.",
      version,
      build: "21560480",
      localeVersion: "INTL",
      localeBuild: "000",
      osType: "linux-x64",
      productLineId: "vpx",
      apiType: "VirtualCenter",
      apiVersion: release,
      instanceUuid: "3c1f4a26-6f0c-4a8b-9d2e-8d1e6a4f0b21",
      licenseProductName: "VMware VirtualCenter Server",
      licenseProductVersion: "8.0",
    },
    setting: moRef("OptionManager", SETTING_ID),
    userDirectory: moRef("UserDirectory", "UserDirectory"),
    sessionManager: moRef("SessionManager", SESSION_MANAGER_ID),
    authorizationManager: moRef("AuthorizationManager", "AuthorizationManager"),
    perfManager: moRef("PerformanceManager", PERF_MANAGER_ID),
    eventManager: moRef("EventManager", "EventManager"),
    taskManager: moRef("TaskManager", "TaskManager"),
    searchIndex: moRef("SearchIndex", "SearchIndex"),
  };
}
