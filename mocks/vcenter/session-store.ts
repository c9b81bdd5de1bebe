import { randomBytes } from "node:crypto";
import type { MockSession, MockState } from "./mock-state.js";

/** Opens a session and returns its token (32 hex digits, as vCenter's look). */
export function openSession(state: MockState, api: MockSession["api"], userName: string): string {
  const token = randomBytes(16).toString("hex");
  const now = state.clock();
  state.sessions.set(token, { api, userName, createdMs: now, lastAccessMs: now });
  state.stats.logins[api] += 1;
  return token;
}

/**
 * The live session for a token of the given API, touched; undefined when the token is
 * missing, unknown, of the other API, idle longer than `sessionIdleSeconds` or older than
 * `sessionLifetimeSeconds`. Expired sessions are dropped.
 */
export function touchSession(state: MockState, token: string | undefined, api: MockSession["api"]): MockSession | undefined {
  if (token === undefined || token === "") return undefined;
  const s = state.sessions.get(token);
  if (s === undefined || s.api !== api) return undefined;
  const now = state.clock();
  const { sessionIdleSeconds, sessionLifetimeSeconds } = state.faults;
  const idle = now - s.lastAccessMs > sessionIdleSeconds * 1000;
  const old = sessionLifetimeSeconds !== null && now - s.createdMs > sessionLifetimeSeconds * 1000;
  if (idle || old) {
    state.sessions.delete(token);
    return undefined;
  }
  s.lastAccessMs = now;
  return s;
}

export function closeSession(state: MockState, token: string): void {
  state.sessions.delete(token);
}

/** `administrator@vsphere.local` -> `VSPHERE.LOCAL\Administrator`, as vCenter names SSO users. */
export function vcenterUserName(login: string): string {
  const at = login.indexOf("@");
  if (at < 0) return login;
  const user = login.slice(0, at);
  return `${login.slice(at + 1).toUpperCase()}\\${user.charAt(0).toUpperCase()}${user.slice(1)}`;
}
