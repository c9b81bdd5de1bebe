import type { Express } from "express";
import type { Readiness } from "./readiness.js";

/** `GET /healthz` (alive) and `GET /readyz` (503 while starting or shutting down), on every port that has them. */
export function mountHealthRoutes(app: Express, readiness: (() => Readiness) | undefined): void {
  app.get("/healthz", (_req, res) => {
    res.type("text/plain").send("ok");
  });
  app.get("/readyz", (_req, res) => {
    const r = readiness?.() ?? { ready: true, reason: "ok" };
    res
      .status(r.ready ? 200 : 503)
      .type("text/plain")
      .send(r.reason);
  });
}
