import type { RequestHandler } from "express";
import { isLoopbackAddress } from "../config/plaintext-issues.js";
import type { DelegatedAccess } from "./delegated-access.js";
import { sendJsonError } from "./request-body.js";

/**
 * `server.debugAccess`: who may read `/debug/*` and `/ui` on the admin port (they name hosts,
 * VMs, BIOS UUIDs and the node map, and `/debug/explain?pod=` reads any pod through hvx's RBAC).
 * - `loopback`: only connections that arrived on a loopback address of this machine or pod
 *   (`kubectl port-forward` connects to localhost inside the pod; a person on the demo's machine);
 * - `delegated`: loopback, or a bearer token whose user the API server allows `get` (GET) or
 *   `create` (POST) on the non-resource URL of the request's path (delegated-access.ts);
 * - `open`: anyone who reaches the admin port (the NetworkPolicy then decides).
 */
export type DebugAccess = "loopback" | "delegated" | "open";

/** Issue 28: the gate in front of `/debug/*` and `/ui`; /metrics and health stay open. */
export function debugAccessGate(access: DebugAccess, delegated?: DelegatedAccess): RequestHandler {
  return (req, res, next) => {
    if (access === "open" || isLoopbackAddress(req.socket.localAddress)) return next();
    if (access !== "delegated" || delegated === undefined)
      return sendJsonError(
        res,
        403,
        "/debug and /ui answer on loopback only (server.debugAccess: loopback): use kubectl port-forward, or set server.debugAccess: open",
      );
    const header = req.headers.authorization ?? "";
    const token = header.startsWith("Bearer ") ? header.slice("Bearer ".length).trim() : undefined;
    const path = req.originalUrl.split("?")[0]!;
    const verb = req.method === "POST" ? "create" : "get";
    delegated.decide(token, path, verb).then(
      (decision) => {
        if (decision === "allowed") return next();
        if (decision === "unauthenticated")
          return sendJsonError(res, 401, "a bearer token the API server accepts is required (server.debugAccess: delegated)", {
            "WWW-Authenticate": 'Bearer realm="hvx"',
          });
        sendJsonError(res, 403, `the API server does not allow this user to ${verb} ${path} (server.debugAccess: delegated)`);
      },
      () => sendJsonError(res, 503, "cannot check access with the API server (TokenReview, SubjectAccessReview); retry later"),
    );
  };
}
