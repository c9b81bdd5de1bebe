import express, { type Express } from "express";
import type { Registry } from "prom-client";
import { errorHandler, noEncodedBodies } from "./extender-app.js";
import { mountHealthRoutes } from "./health-routes.js";
import type { Readiness } from "./readiness.js";
import { sendJsonError } from "./request-body.js";

export interface AdminAppDeps {
  readonly registry: Registry;
  /** JSON for `GET /debug/hosts`. */
  readonly debugHosts: () => unknown;
  /** Extra debug views by name, e.g. `cluster` -> `GET /debug/cluster`. */
  readonly debugViews?: Readonly<Record<string, () => unknown>>;
  readonly readiness?: () => Readiness;
  /** HTML of `GET /ui` (self-contained: no external assets). */
  readonly uiPage?: () => string;
}

/**
 * The admin port (`server.adminPort`): Prometheus metrics, the debug views and health, for
 * operators and monitoring, so that the extender port can be opened to kube-scheduler alone.
 * GET only; no request body is ever read.
 */
export function buildAdminApp(deps: AdminAppDeps): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.use(noEncodedBodies());
  mountHealthRoutes(app, deps.readiness);
  app.get("/metrics", async (_req, res, next) => {
    try {
      res.type(deps.registry.contentType).send(await deps.registry.metrics());
    } catch (err) {
      next(err);
    }
  });
  const views: Record<string, () => unknown> = { hosts: deps.debugHosts, ...deps.debugViews };
  for (const [name, view] of Object.entries(views)) app.get(`/debug/${name}`, (_req, res) => res.json(view()));
  const uiPage = deps.uiPage;
  if (uiPage) {
    app.get("/ui", (_req, res) => {
      res.set("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src data:; form-action 'none'; base-uri 'none'");
      res.type("html").send(uiPage());
    });
  }
  const list = Object.keys(views).map((n) => `/debug/${n}`).join(", ");
  app.use((_req, res) => sendJsonError(res, 404, `no such endpoint on the admin port (GET /metrics, ${list}, /healthz, /readyz)`));
  app.use(errorHandler);
  return app;
}
