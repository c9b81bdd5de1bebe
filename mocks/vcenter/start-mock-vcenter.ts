import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import express, { type NextFunction, type Request, type Response } from "express";
import { mountAutomationInventoryRoutes } from "./automation-inventory-routes.js";
import { mountAutomationSessionRoutes } from "./automation-session-routes.js";
import { faultInjection } from "./fault-injection.js";
import { createControls, type MockVcenterControls } from "./mock-controls.js";
import { createMockState } from "./mock-state.js";
import { validateScenario } from "./parse-scenario.js";
import type { Scenario } from "./scenario-schema.js";
import { mountViPerfRoutes } from "./vi-perf-routes.js";
import { VI_BASE } from "./vi-session-routes.js";
import { mountViVmSummaryRoute } from "./vi-vm-summary-route.js";
import { mountViSessionRoutes } from "./vi-session-routes.js";
import { mountReleaseListRoute } from "./release-list-route.js";
import { mountSoapRoutes } from "./soap-routes.js";
import { sendJson, vapiError, viFault } from "./wire-errors.js";

/**
 * A request that carries a body must say `Content-Type: application/json`, or it gets 415
 * (both APIs declare their request bodies as application/json only). A body-less POST
 * (`POST /api/session` with Basic auth, VI/JSON Logout and CurrentTime) needs no Content-Type.
 */
function requireJsonBody(req: Request, res: Response, next: NextFunction): void {
  const hasBody = Number(req.get("content-length") ?? "0") > 0 || req.get("transfer-encoding") !== undefined;
  // `POST /sdk` is vim25 over SOAP: its body is XML (soap-routes.ts).
  if (!hasBody || req.path === SOAP_PATH || req.is("application/json") === "application/json") {
    next();
    return;
  }
  const got = req.get("content-type") ?? "none";
  if (req.path.startsWith("/sdk/"))
    sendJson(res, 415, viFault("InvalidRequest", `Unsupported Content-Type '${got}': the request body must be application/json.`));
  else
    sendJson(
      res,
      415,
      vapiError(
        "INVALID_ARGUMENT",
        "vapi.rest.request.content_type.unsupported",
        `Unsupported Content-Type '${got}': the request body must be application/json.`,
        [got],
      ),
    );
}

export interface MockVcenterOptions {
  scenario: Scenario;
  /** 0 or absent: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** PEM cert and key: serve HTTPS. */
  tls?: { cert: string; key: string };
  /** Epoch ms; default Date.now. Sample timestamps and session expiry follow it. */
  clock?: () => number;
}

export interface MockVcenterHandle {
  /** e.g. http://127.0.0.1:PORT (no trailing slash). */
  url: string;
  close(): Promise<void>;
  controls: MockVcenterControls;
}

const SOAP_PATH = "/sdk";

/** Starts a mock vCenter (Automation API, VI/JSON and vim25 over SOAP) serving the scenario. */
export async function startMockVcenter(opts: MockVcenterOptions): Promise<MockVcenterHandle> {
  const scenario = validateScenario(opts.scenario);
  const state = createMockState(scenario, opts.clock ?? Date.now);
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");
  app.use((_req: Request, res: Response, next: NextFunction) => {
    // The Date header follows the mock's own clock (offset included), as a skewed vCenter's would.
    res.setHeader("Date", new Date(state.clock()).toUTCString());
    next();
  });
  app.use(faultInjection(state));
  app.use(requireJsonBody);
  app.use(express.json({ limit: "10mb" }));
  app.use(SOAP_PATH, express.text({ type: () => true, limit: "10mb" }));
  mountAutomationSessionRoutes(app, state);
  mountAutomationInventoryRoutes(app, state);
  mountViSessionRoutes(app, state);
  mountViPerfRoutes(app, state);
  mountViVmSummaryRoute(app, state, VI_BASE);
  mountReleaseListRoute(app, state);
  mountSoapRoutes(app, state);
  app.use((req: Request, res: Response) => {
    if (req.path.startsWith("/api/")) sendJson(res, 404, vapiError("NOT_FOUND", "com.vmware.vapi.rest.httpNotFound", "Not found."));
    else res.status(404).end();
  });
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    // body-parser errors carry a 4xx status; anything else is a bug in the mock
    const status = typeof (err as { status?: unknown }).status === "number" ? (err as { status: number }).status : 500;
    const sdk = req.path.startsWith("/sdk/");
    if (status >= 500)
      sendJson(
        res,
        500,
        sdk
          ? viFault("SystemError", "A general system error occurred.")
          : vapiError("ERROR", "com.vmware.vapi.endpoint.internal.error", "Internal server error."),
      );
    else if (sdk) sendJson(res, status, viFault("InvalidRequest", "The request body could not be parsed."));
    else sendJson(res, status, vapiError("INVALID_ARGUMENT", "vapi.json.parse.error", "The request body could not be parsed."));
  });

  const server: Server = opts.tls ? createHttpsServer({ cert: opts.tls.cert, key: opts.tls.key }, app) : createHttpServer(app);
  const host = opts.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `${opts.tls ? "https" : "http"}://${urlHost}:${port}`,
    controls: createControls(state),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
