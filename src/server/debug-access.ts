import type { RequestHandler } from "express";
import { isLoopbackAddress } from "../config/plaintext-issues.js";
import { sendJsonError } from "./request-body.js";

/**
 * `server.debugAccess`: who may read `/debug/*` and `/ui` on the admin port (they name hosts,
 * VMs, BIOS UUIDs and the node map, and `/debug/explain?pod=` reads any pod through hvx's RBAC).
 * - `loopback`: only connections that arrived on a loopback address of this machine or pod
 *   (`kubectl port-forward` connects to localhost inside the pod; a person on the demo's machine);
 * - `open`: anyone who reaches the admin port (the NetworkPolicy then decides).
 */
export type DebugAccess = "loopback" | "open";

/** Issue 28: the gate in front of `/debug/*` and `/ui`; /metrics and health stay open. */
export function debugAccessGate(access: DebugAccess): RequestHandler {
  return (req, res, next) => {
    if (access === "open" || isLoopbackAddress(req.socket.localAddress)) return next();
    sendJsonError(
      res,
      403,
      "/debug and /ui answer on loopback only (server.debugAccess: loopback): use kubectl port-forward, or set server.debugAccess: open",
    );
  };
}
