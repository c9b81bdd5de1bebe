import express, { type Express, type NextFunction, type Request, type Response } from "express";
import type { Registry } from "prom-client";
import type { ExtenderHandlers, HandlerReply } from "./extender-handlers.js";

export interface ExtenderAppDeps {
  readonly handlers: ExtenderHandlers;
  readonly registry: Registry;
  readonly bodyLimitMB: number;
  /** JSON for `GET /debug/hosts`. */
  readonly debugHosts: () => unknown;
  /** Extra debug views by name, e.g. `cluster` -> `GET /debug/cluster`. */
  readonly debugViews?: Readonly<Record<string, () => unknown>>;
  /** False while shutting down, so /readyz stops traffic first. */
  readonly isReady?: () => boolean;
}

/**
 * The extender's HTTP face. Bodies are read raw and parsed by the handlers, so every
 * malformed body gets the same JSON error shape kube-scheduler can log.
 */
export function buildExtenderApp(deps: ExtenderAppDeps): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  const raw = express.text({ type: () => true, limit: `${deps.bodyLimitMB}mb` });
  const send = (res: Response, reply: HandlerReply) => res.status(reply.status).type("application/json").send(reply.body);

  app.post("/filter", raw, (req, res) => send(res, deps.handlers.filter(bodyText(req))));
  app.post("/prioritize", raw, (req, res) => send(res, deps.handlers.prioritize(bodyText(req))));
  app.post("/preempt", raw, (req, res) => send(res, deps.handlers.preempt(bodyText(req))));
  app.get("/healthz", (_req, res) => res.type("text/plain").send("ok"));
  app.get("/readyz", (_req, res) => {
    if (deps.isReady && !deps.isReady()) res.status(503).type("text/plain").send("shutting down");
    else res.type("text/plain").send("ok");
  });
  app.get("/metrics", async (_req, res, next) => {
    try {
      res.type(deps.registry.contentType).send(await deps.registry.metrics());
    } catch (err) {
      next(err);
    }
  });
  app.get("/debug/hosts", (_req, res) => res.json(deps.debugHosts()));
  for (const [name, view] of Object.entries(deps.debugViews ?? {})) app.get(`/debug/${name}`, (_req, res) => res.json(view()));
  app.use((_req, res) => res.status(404).json({ Error: "hvx: no such endpoint (POST /filter, POST /prioritize, GET /healthz, /readyz, /metrics, /debug/hosts)" }));
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const e = err as { status?: number; type?: string; message?: string };
    const status = typeof e.status === "number" && e.status >= 400 && e.status < 500 ? e.status : 500;
    const message = e.type === "entity.too.large" ? `request body larger than ${deps.bodyLimitMB} MB (server.bodyLimitMB)` : (e.message ?? "error");
    res.status(status).json({ Error: `hvx: ${message}` });
  });
  return app;
}

function bodyText(req: Request): string {
  return typeof req.body === "string" ? req.body : "";
}
