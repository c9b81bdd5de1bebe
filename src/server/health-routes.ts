import type { Express } from "express";
import type { Liveness } from "./liveness.js";
import type { Readiness } from "./readiness.js";

/**
 * `GET /healthz` (alive; 503 while the event loop is blocked most of the time, see
 * `decideLiveness`) and `GET /readyz` (503 while starting or shutting down), on every port
 * that has them.
 */
export function mountHealthRoutes(app: Express, readiness: (() => Readiness) | undefined, liveness?: () => Liveness): void {
  app.get("/healthz", (_req, res) => {
    const l = liveness?.() ?? { alive: true, reason: "ok" };
    res
      .status(l.alive ? 200 : 503)
      .type("text/plain")
      .send(l.reason);
  });
  app.get("/readyz", (_req, res) => {
    const r = readiness?.() ?? { ready: true, reason: "ok" };
    res
      .status(r.ready ? 200 : 503)
      .type("text/plain")
      .send(r.reason);
  });
}
