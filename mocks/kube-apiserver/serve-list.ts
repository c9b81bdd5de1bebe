import type { ServerResponse } from "node:http";
import type { FakeState } from "./handle-request.js";
import { send } from "./send-json.js";
import { expired, kubeStatus } from "./kube-status.js";
import type { ResourceStore } from "./resource-store.js";
import type { Matcher } from "./selector.js";

/**
 * A list answer: `{"kind":"<Kind>List","apiVersion",...,"metadata":{"resourceVersion","continue"?,
 * "remainingItemCount"?},"items":[...]}`, built from the stored JSON texts without re-parsing.
 * `limit`/`continue` page in key order; the token carries the first page's resourceVersion, and
 * one older than the compaction mark is a 410 Expired, like the real server.
 */
export function serveList(state: FakeState, store: ResourceStore, matches: Matcher, params: URLSearchParams, res: ServerResponse): void {
  state.stats.lists++;
  const limitParam = Number(params.get("limit") ?? "0");
  const limit = Number.isSafeInteger(limitParam) && limitParam > 0 ? limitParam : Number.MAX_SAFE_INTEGER;
  let listRv = state.clock.rv;
  let afterKey: string | undefined;
  const token = params.get("continue");
  if (token) {
    const decoded = decodeContinue(token);
    if (!decoded) return send(res, 400, kubeStatus(400, "BadRequest", "continue key is not valid: illegal base64 data"));
    if (decoded.rv < state.clock.compactedRv) {
      return send(
        res,
        410,
        expired(
          "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.",
        ),
      );
    }
    listRv = decoded.rv;
    afterKey = decoded.start;
  }
  const page = store.page(matches, limit, afterKey);
  const meta: Record<string, unknown> = { resourceVersion: String(listRv) };
  if (page.lastKey !== undefined) {
    meta.continue = Buffer.from(JSON.stringify({ v: "meta.k8s.io/v1", rv: listRv, start: page.lastKey })).toString("base64url");
    meta.remainingItemCount = page.remaining;
  }
  const head = `{"kind":"${store.type.kind}List","apiVersion":"${store.type.apiVersion}","metadata":${JSON.stringify(meta)},"items":[`;
  send(res, 200, `${head}${page.items.map((i) => i.json).join(",")}]}`);
}

function decodeContinue(token: string): { rv: number; start: string } | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as { rv?: unknown; start?: unknown };
    return typeof parsed.rv === "number" && typeof parsed.start === "string" ? { rv: parsed.rv, start: parsed.start } : undefined;
  } catch {
    return undefined;
  }
}
