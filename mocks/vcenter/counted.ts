import type { Application, Request, Response } from "express";
import type { MockState } from "./mock-state.js";
import { VI_BAD_REQUEST_STATUS, invalidRequest, sendJson, vapiError } from "./wire-errors.js";

type Handler = (req: Request, res: Response) => void;

/**
 * Registers a route and counts its calls in `stats.requestsByRoute["METHOD /path"]`. A
 * query parameter the route does not take is refused with 400 before the handler runs
 * (`?filter.hosts=` must not silently list every VM): INVALID_ARGUMENT on `/api`, an
 * InvalidRequest fault on `/sdk` (VI/JSON takes no query parameters at all).
 */
export function counted(
  app: Application,
  state: MockState,
  method: "get" | "post" | "delete",
  path: string,
  handler: Handler,
  allowedQuery: readonly string[] = [],
): void {
  const key = `${method.toUpperCase()} ${path}`;
  app[method](path, (req: Request, res: Response) => {
    state.stats.requestsByRoute[key] = (state.stats.requestsByRoute[key] ?? 0) + 1;
    const unknown = Object.keys(req.query as Record<string, unknown>).find((k) => !allowedQuery.includes(k));
    if (unknown !== undefined) {
      refuseQueryParameter(req, res, unknown);
      return;
    }
    handler(req, res);
  });
}

function refuseQueryParameter(req: Request, res: Response, name: string): void {
  if (req.path.startsWith("/sdk/")) {
    sendJson(res, VI_BAD_REQUEST_STATUS, invalidRequest(`Unexpected query parameter '${name}'.`));
    return;
  }
  sendJson(
    res,
    400,
    vapiError("INVALID_ARGUMENT", "vapi.rest.request.query.parameter.unexpected", `Unexpected query parameter '${name}'.`, [name]),
  );
}

/** A repeated query key (`?hosts=a&hosts=b`) as a list; undefined when absent. */
export function listParam(req: Request, name: string): string[] | undefined {
  const v = (req.query as Record<string, unknown>)[name];
  if (v === undefined) return undefined;
  const arr = Array.isArray(v) ? v : [v];
  return arr.filter((x): x is string => typeof x === "string");
}
