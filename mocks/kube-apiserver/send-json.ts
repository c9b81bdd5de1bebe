import type { ServerResponse } from "node:http";

/** Writes a JSON answer (an object, or JSON text as is) unless headers went out already. */
export function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  res.writeHead(status, { "Content-Type": "application/json" }).end(typeof body === "string" ? body : JSON.stringify(body));
}
