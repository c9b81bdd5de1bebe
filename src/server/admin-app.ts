import express, { type Express, type Request, type Response } from "express";
import { explainTableOf } from "../explain-table.js";
import type { ExplainReply } from "../protocol/explain-wire.js";
import type { Registry } from "prom-client";
import { debugAccessGate, type DebugAccess } from "./debug-access.js";
import type { DelegatedAccess } from "./delegated-access.js";
import { errorHandler, noEncodedBodies } from "./extender-app.js";
import { mountHealthRoutes } from "./health-routes.js";
import { prettyJsonWhenAsked } from "./pretty-json.js";
import type { Liveness } from "./liveness.js";
import type { Readiness } from "./readiness.js";
import { sendJsonError } from "./request-body.js";
import { routeList } from "./route-list.js";
import type { ExplainHandler } from "./explain-handler.js";
import type { HandlerReply } from "./extender-handlers.js";
import { BodyBudget, MIB, readBody } from "./request-body.js";

export interface AdminAppDeps {
  readonly registry: Registry;
  /** JSON for `GET /debug/hosts`. */
  readonly debugHosts: () => unknown;
  /** Extra debug views by name, e.g. `cluster` -> `GET /debug/cluster`; a view may answer with a promise. */
  readonly debugViews?: Readonly<Record<string, () => unknown>>;
  readonly readiness?: () => Readiness;
  /** For /healthz; alive when absent. */
  readonly liveness?: () => Liveness;
  /** HTML of `GET /ui` (self-contained: no external assets). */
  readonly uiPage?: () => string;
  /** `POST /debug/explain` (ExtenderArgs, read up to `bodyLimitMB`) and `GET /debug/explain?pod=NAMESPACE/NAME`. */
  readonly explain?: { readonly handler: ExplainHandler; readonly bodyLimitMB: number };
  /** Who may read /debug/* and /ui (`server.debugAccess`); default loopback. */
  readonly debugAccess?: DebugAccess;
  /** With `debugAccess: delegated`: the TokenReview / SubjectAccessReview check. */
  readonly delegated?: DelegatedAccess;
}

/**
 * The admin port (`server.adminPort`): Prometheus metrics, the debug views and health, for
 * operators and monitoring, so that the extender port can be opened to kube-scheduler alone.
 * GET only; no request body is ever read. /debug/* and /ui answer loopback connections only
 * unless `debugAccess` is `open` (debug-access.ts).
 * One exception: `POST /debug/explain` reads ExtenderArgs (`server.bodyLimitMB`), like /filter.
 */
export function buildAdminApp(deps: AdminAppDeps): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.use(noEncodedBodies());
  app.use(prettyJsonWhenAsked());
  mountHealthRoutes(app, deps.readiness, deps.liveness);
  app.get("/metrics", async (_req, res, next) => {
    try {
      res.type(deps.registry.contentType).send(await deps.registry.metrics());
    } catch (err) {
      next(err);
    }
  });
  app.use(["/debug", "/ui"], debugAccessGate(deps.debugAccess ?? "loopback", deps.delegated));
  if (deps.explain) mountExplain(app, deps.explain);
  const views: Record<string, () => unknown> = { hosts: deps.debugHosts, ...deps.debugViews };
  for (const [name, view] of Object.entries(views)) {
    app.get(`/debug/${name}`, (_req, res, next) => {
      Promise.resolve()
        .then(view)
        .then((body) => res.json(body), next);
    });
  }
  const uiPage = deps.uiPage;
  if (uiPage) {
    app.get("/ui", (_req, res) => {
      res.set(
        "Content-Security-Policy",
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src data:; form-action 'none'; base-uri 'none'",
      );
      res.type("html").send(uiPage());
    });
  }
  const every = routeList(app);
  app.use((_req, res) => sendJsonError(res, 404, `no such endpoint on the admin port (${every})`));
  app.use(errorHandler);
  return app;
}

function mountExplain(app: Express, explain: NonNullable<AdminAppDeps["explain"]>): void {
  const limitBytes = explain.bodyLimitMB * MIB;
  const budget = new BodyBudget(2 * limitBytes);
  // `?table`: the rows `hvx explain` prints (what /ui shows), instead of the whole answer.
  const send = (req: Request, res: Response, reply: HandlerReply) => {
    const table = reply.status === 200 && Object.prototype.hasOwnProperty.call(req.query, "table");
    const body = table ? `${JSON.stringify(explainTableOf(JSON.parse(reply.body) as ExplainReply))}\n` : reply.body;
    res.status(reply.status).type("application/json").send(body);
  };
  app.post("/debug/explain", (req, res, next) => {
    readBody(req, res, { limitBytes, limitKey: "server.bodyLimitMB", budget }).then((text) => {
      if (text !== undefined) send(req, res, explain.handler.explainArgs(text));
    }, next);
  });
  app.get("/debug/explain", (req, res, next) => {
    explain.handler.explainPod(req.query.pod).then((reply) => send(req, res, reply), next);
  });
}
