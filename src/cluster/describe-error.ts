/**
 * One log-safe line for a client-node failure: `HTTP <code> <reason>: <Status message>` for API
 * errors (the `Status` body the API server sent), else the first line of the message. Never
 * includes request headers (client-node's ApiException only carries response headers, and
 * they are dropped here too). At most 200 characters.
 */
export function describeError(err: unknown): string {
  const e = err as { code?: unknown; statusCode?: unknown; message?: unknown; body?: unknown } | undefined;
  const status = typeof e?.statusCode === "number" ? e.statusCode : typeof e?.code === "number" ? e.code : undefined;
  const kubeStatus = statusBody(e?.body);
  const text = kubeStatus
    ? `${kubeStatus.reason ? `${kubeStatus.reason}: ` : ""}${kubeStatus.message ?? ""}`
    : (String(e?.message ?? err).split("\n")[0] ?? "");
  return (status !== undefined ? `HTTP ${status} ${text}` : text).slice(0, 200);
}

function statusBody(body: unknown): { reason?: string; message?: string } | undefined {
  let parsed = body;
  if (typeof body === "string") {
    try {
      parsed = JSON.parse(body);
    } catch {
      return undefined;
    }
  }
  if (typeof parsed !== "object" || parsed === null || (parsed as { kind?: unknown }).kind !== "Status") return undefined;
  const { reason, message } = parsed as { reason?: unknown; message?: unknown };
  const out: { reason?: string; message?: string } = {};
  if (typeof reason === "string") out.reason = reason;
  if (typeof message === "string") out.message = message;
  return out;
}
