import type { Application, Request, Response } from "express";
import type { MockState } from "./mock-state.js";
import { closeSession, openSession, touchSession, vcenterUserName } from "./session-store.js";
import { UNAUTHENTICATED_BODY, sendJson } from "./wire-errors.js";
import { counted } from "./counted.js";

export const SESSION_HEADER = "vmware-api-session-id";

/** Answers 401 UNAUTHENTICATED and counts it. */
export function sendUnauthenticated(state: MockState, res: Response): void {
  state.stats.unauthorizedServed += 1;
  sendJson(res, 401, UNAUTHENTICATED_BODY);
}

/** The Automation API session of the request, or undefined after answering 401. */
export function requireAutomationSession(state: MockState, req: Request, res: Response) {
  const s = touchSession(state, req.get(SESSION_HEADER), "automation");
  if (s === undefined) sendUnauthenticated(state, res);
  return s;
}

/** `POST/GET/DELETE /api/session` (vSphere Automation API, cis session). */
export function mountAutomationSessionRoutes(app: Application, state: MockState): void {
  counted(app, state, "post", "/api/session", (req, res) => {
    const creds = parseBasicAuth(req.get("authorization"));
    const want = state.scenario.credentials;
    if (creds === undefined || creds.user !== want.username || creds.password !== want.password) {
      sendUnauthenticated(state, res);
      return;
    }
    sendJson(res, 201, openSession(state, "automation", creds.user));
  });
  counted(app, state, "get", "/api/session", (req, res) => {
    const s = requireAutomationSession(state, req, res);
    if (s === undefined) return;
    sendJson(res, 200, {
      user: vcenterUserName(s.userName),
      created_time: new Date(s.createdMs).toISOString(),
      last_accessed_time: new Date(s.lastAccessMs).toISOString(),
    });
  });
  counted(app, state, "delete", "/api/session", (req, res) => {
    if (requireAutomationSession(state, req, res) === undefined) return;
    closeSession(state, req.get(SESSION_HEADER) ?? "");
    state.stats.logouts.automation += 1;
    res.status(204).end();
  });
}

function parseBasicAuth(header: string | undefined): { user: string; password: string } | undefined {
  const m = /^basic\s+(\S+)$/i.exec(header ?? "");
  if (m?.[1] === undefined) return undefined;
  const decoded = Buffer.from(m[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon < 0 ? undefined : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
