import express, { type Express } from "express";
import type { Registry } from "prom-client";
import { errorHandler, noEncodedBodies } from "./extender-app.js";
import { mountHealthRoutes } from "./health-routes.js";
import { prettyJsonWhenAsked } from "./pretty-json.js";
import type { Readiness } from "./readiness.js";
import { sendJsonError } from "./request-body.js";
import { routeList } from "./route-list.js";

export interface AdminAppDeps {
  readonly registry: Registry;
  /** JSON for `GET /debug/hosts`. */
  readonly debugHosts: () => unknown;
  /** Extra debug views by name, e.g. `cluster` -> `GET /debug/cluster`. */
  readonly debugViews?: Readonly<Record<string, () => unknown>>;
  readonly readiness?: () => Readiness;
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
  app.use(prettyJsonWhenAsked());
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
  const every = routeList(app);
  app.use((_req, res) => sendJsonError(res, 404, `no such endpoint on the admin port (${every})`));
  app.use(errorHandler);
  return app;
}
