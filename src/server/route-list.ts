import type { Express } from "express";

interface Layer {
  readonly route?: { readonly path: unknown; readonly methods?: Readonly<Record<string, boolean>> };
}

/**
 * Every route an express app serves, as `GET /metrics, GET /debug/hosts, POST /debug/explain, ...`,
 * read from its router, so that the 404 message and the start-up log cannot forget one.
 */
export function routeList(app: Express): string {
  const stack = (app as unknown as { router?: { stack?: readonly Layer[] } }).router?.stack ?? [];
  const seen = new Set<string>();
  for (const layer of stack) {
    const path = layer.route?.path;
    if (typeof path !== "string") continue;
    const methods = Object.keys(layer.route?.methods ?? {})
      .filter((m) => m !== "_all" && m !== "head")
      .map((m) => m.toUpperCase());
    seen.add(`${methods.join("|") || "ANY"} ${path}`);
  }
  return [...seen].join(", ");
}
