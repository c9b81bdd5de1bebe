import type { NextFunction, Request, Response } from "express";

/**
 * For people with curl: `?pretty` or `Accept: text/plain` turns every `res.json` of this
 * request into indented JSON with a trailing newline (as `text/plain` when asked for it).
 * Without either, replies stay compact `application/json` for machines.
 */
export function prettyJsonWhenAsked() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const plain = (req.get("accept") ?? "").split(",").some((t) => t.trim().split(";")[0]?.trim().toLowerCase() === "text/plain");
    const pretty = plain || Object.prototype.hasOwnProperty.call(req.query ?? {}, "pretty");
    if (pretty) {
      res.json = (body?: unknown) =>
        res.type(plain ? "text/plain; charset=utf-8" : "application/json").send(`${JSON.stringify(body, null, 2)}\n`);
    }
    next();
  };
}
