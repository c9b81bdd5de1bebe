import type { Application, Request, Response } from "express";
import type { MockState } from "./mock-state.js";

type Handler = (req: Request, res: Response) => void;

/** Registers a route and counts its calls in `stats.requestsByRoute["METHOD /path"]`. */
export function counted(app: Application, state: MockState, method: "get" | "post" | "delete", path: string, handler: Handler): void {
  const key = `${method.toUpperCase()} ${path}`;
  app[method](path, (req: Request, res: Response) => {
    state.stats.requestsByRoute[key] = (state.stats.requestsByRoute[key] ?? 0) + 1;
    handler(req, res);
  });
}

/** A repeated query key (`?hosts=a&hosts=b`) as a list; undefined when absent. */
export function listParam(req: Request, name: string): string[] | undefined {
  const v = (req.query as Record<string, unknown>)[name];
  if (v === undefined) return undefined;
  const arr = Array.isArray(v) ? v : [v];
  return arr.filter((x): x is string => typeof x === "string");
}
