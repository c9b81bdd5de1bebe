import type { Application, Request, Response } from "express";
import type { MockState } from "./mock-state.js";
import { closeSession, openSession, touchSession, vcenterUserName } from "./session-store.js";
import { counted } from "./counted.js";
import { VI_FAULT_STATUS, managedObjectNotFound, moRef, sendJson, viFault } from "./wire-errors.js";

/** VI/JSON base path; `{release}` is any dotted version, e.g. 8.0.1.0. */
export const VI_BASE = "/sdk/vim25/:release";
export const VI_SESSION_HEADER = "vmware-api-session-id";
export const SESSION_MANAGER_ID = "SessionManager";
export const PERF_MANAGER_ID = "PerfMgr";

/** False (after a 404) when `{release}` is not a dotted version number. */
export function releaseOk(req: Request, res: Response): boolean {
  if (/^\d+(\.\d+)*$/.test(String(req.params["release"]))) return true;
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
    sendJson(res, state.faults.viNotAuthenticatedStatus, viFault("NotAuthenticated", "The session is not authenticated.", {
      object: moRef(object.type, object.value),
      privilegeId: "System.View",
    }));
  }
  return s;
}

/** ServiceInstance content (no login needed), SessionManager Login and Logout. */
export function mountViSessionRoutes(app: Application, state: MockState): void {
  counted(app, state, "get", `${VI_BASE}/ServiceInstance/ServiceInstance/content`, (req, res) => {
    if (!releaseOk(req, res)) return;
    sendJson(res, 200, serviceContent());
  });

  counted(app, state, "post", `${VI_BASE}/SessionManager/:moId/Login`, (req, res) => {
    if (!releaseOk(req, res)) return;
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
    if (!releaseOk(req, res)) return;
    if (requireViSession(state, req, res, { type: "SessionManager", value: SESSION_MANAGER_ID }) === undefined) return;
    closeSession(state, req.get(VI_SESSION_HEADER) ?? "");
    res.status(204).end();
  });
}

function serviceContent(): object {
  return {
    _typeName: "ServiceContent",
    rootFolder: moRef("Folder", "group-d1"),
    propertyCollector: moRef("PropertyCollector", "propertyCollector"),
    viewManager: moRef("ViewManager", "ViewManager"),
    about: {
      _typeName: "AboutInfo",
      name: "VMware vCenter Server",
      fullName: "VMware vCenter Server 8.0.1 build-21560480",
      vendor: "VMware, Inc.",
      version: "8.0.1",
      build: "21560480",
      localeVersion: "INTL",
      localeBuild: "000",
      osType: "linux-x64",
      productLineId: "vpx",
      apiType: "VirtualCenter",
      apiVersion: "8.0.1.0",
      instanceUuid: "3c1f4a26-6f0c-4a8b-9d2e-8d1e6a4f0b21",
      licenseProductName: "VMware VirtualCenter Server",
      licenseProductVersion: "8.0",
    },
    setting: moRef("OptionManager", "VpxSettings"),
    userDirectory: moRef("UserDirectory", "UserDirectory"),
    sessionManager: moRef("SessionManager", SESSION_MANAGER_ID),
    authorizationManager: moRef("AuthorizationManager", "AuthorizationManager"),
    perfManager: moRef("PerformanceManager", PERF_MANAGER_ID),
    eventManager: moRef("EventManager", "EventManager"),
    taskManager: moRef("TaskManager", "TaskManager"),
    searchIndex: moRef("SearchIndex", "SearchIndex"),
  };
}
