import type { RequestListener } from "node:http";
import express, { type Express, type NextFunction, type Request, type Response } from "express";
import type { Refusal } from "../observability/refusal-metrics.js";
import type { HandlerReply } from "./extender-handlers.js";
import { mountHealthRoutes } from "./health-routes.js";
import type { Liveness } from "./liveness.js";
import type { Readiness } from "./readiness.js";
import { BodyBudget, MIB, readBody, readBodyBytes, refuseEncodedBody, sendJsonError } from "./request-body.js";

/** Each extender verb as a function from request body (bytes or text) to reply (`createExtenderHandlers`). */
export type VerbHandlers = { readonly [verb: string]: (body: Buffer | string) => HandlerReply };

export interface ExtenderAppDeps {
  /** Every verb is served as `POST /<verb>` (filter, prioritize, ...). */
  readonly handlers: VerbHandlers;
  readonly bodyLimitMB: number;
  /** For /readyz; ready when absent. */
  readonly readiness?: () => Readiness;
  /** For /healthz; alive when absent. */
  readonly liveness?: () => Liveness;
  /** Bytes of bodies in memory at once across requests; default 4 x the body limit. */
  readonly bodyBudget?: BodyBudget;
  /** Counts requests refused before handling (413, 415, 503). */
  readonly onRefuse?: (reason: Refusal) => void;
}

/**
 * The extender port: kube-scheduler's verbs and health, nothing else (metrics and debug views
 * are on the admin port). Bodies are read here with the limit enforced while streaming, and
 * parsed by the handlers, so every malformed body gets the same JSON error shape
 * kube-scheduler can log. A compressed body is refused, never inflated.
 *
 * `POST /<verb>` (the path exactly, what kube-scheduler sends) is served straight from
 * node:http: the verbs are the hot path, called twice per pod, and express's router,
 * middleware chain and `res.send` cost a measurable share of a request there (docs/performance.md).
 * Everything else (health, 404s, the verbs under any other spelling express accepts) goes
 * through the express app, which serves the verbs the same way.
 */
export function buildExtenderApp(deps: ExtenderAppDeps): RequestListener {
  const limitBytes = deps.bodyLimitMB * MIB;
  const budget = deps.bodyBudget ?? new BodyBudget(4 * limitBytes);
  const app = buildExpressApp(deps, budget);
  const rules = { limitBytes, limitKey: "server.bodyLimitMB", budget, ...(deps.onRefuse ? { onRefuse: deps.onRefuse } : {}) };
  const verbs = new Map(Object.entries(deps.handlers).map(([verb, handle]) => [`/${verb}`, handle]));
  return (req, res) => {
    const handle = req.method === "POST" ? verbs.get(req.url ?? "") : undefined;
    if (!handle) return void app(req, res);
    if (refuseEncodedBody(req, res, deps.onRefuse)) return;
    readBodyBytes(req, res, rules).then(
      (body) => {
        if (body === undefined) return;
        const reply = handle(body);
        const bytes = reply.bytes ? reply.bytes() : Buffer.from(reply.body, "utf8");
        res.writeHead(reply.status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": bytes.length });
        res.end(bytes);
      },
      (err: unknown) => sendJsonError(res, errorStatus(err), (err as { message?: string }).message ?? "error"),
    );
  };
}

function buildExpressApp(deps: ExtenderAppDeps, budget: BodyBudget): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.use(noEncodedBodies(deps.onRefuse));
  const limitBytes = deps.bodyLimitMB * MIB;
  const body = (req: Request, res: Response, next: NextFunction) => {
    readBody(req, res, { limitBytes, limitKey: "server.bodyLimitMB", budget, ...(deps.onRefuse ? { onRefuse: deps.onRefuse } : {}) }).then(
      (text) => {
        if (text === undefined) return;
        req.body = text;
        next();
      },
      next,
    );
  };
  const verbs = Object.keys(deps.handlers);
  for (const verb of verbs) {
    const handle = deps.handlers[verb]!;
    app.post(`/${verb}`, body, (req, res) => {
      const reply = handle(typeof req.body === "string" ? req.body : "");
      res.status(reply.status).type("application/json").send(reply.body);
    });
  }
  mountHealthRoutes(app, deps.readiness, deps.liveness);
  const list = verbs.map((v) => `POST /${v}`).join(", ");
  app.use((req, res) => {
    const admin =
      req.path === "/metrics" || req.path.startsWith("/debug") ? "; /metrics and /debug/* are on the admin port (server.adminPort)" : "";
    sendJsonError(res, 404, `no such endpoint on the extender port (${list}, GET /healthz, /readyz)${admin}`);
  });
  app.use(errorHandler);
  return app;
}

/** Express middleware form of `refuseEncodedBody`. */
export function noEncodedBodies(onRefuse?: (reason: Refusal) => void) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!refuseEncodedBody(req, res, onRefuse)) next();
  };
}

/** Last resort: a JSON `Error` with a 4xx status when the error carries one, else 500. */
export function errorHandler(err: unknown, _req: Request, res: Response, _next: NextFunction): void {
  sendJsonError(res, errorStatus(err), (err as { message?: string }).message ?? "error");
}

function errorStatus(err: unknown): number {
  const status = (err as { status?: number }).status;
  return typeof status === "number" && status >= 400 && status < 500 ? status : 500;
}
