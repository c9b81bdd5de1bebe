import type { IncomingMessage, ServerResponse } from "node:http";
import { kubeStatus, notFound } from "./kube-status.js";
import type { KubeObject, ResourceStore } from "./resource-store.js";
import { send } from "./send-json.js";

/**
 * `POST /api/v1/namespaces/{ns}/pods/{name}/eviction` (policy/v1 Eviction), as the pod
 * registry's EvictionREST answers it: 404 for a missing pod; 400 when the Eviction names
 * another pod; 409 when `deleteOptions.preconditions.uid` is not the pod's; 500 when more than
 * one PodDisruptionBudget selects the pod; 429 `TooManyRequests` (cause `DisruptionBudget`)
 * when evicting would leave fewer healthy pods than the budget's `minAvailable`; otherwise the
 * pod is deleted (watchers see DELETED) and the answer is 201 with a Success Status.
 * Healthy, here: not terminal (the real budget counts Ready pods).
 */
export interface EvictionStores {
  readonly pods: ResourceStore;
  readonly budgets: ResourceStore;
}

export const EVICTION_PATH = /^\/api\/v1\/namespaces\/([a-z0-9]([-a-z0-9.]*[a-z0-9])?)\/pods\/([a-z0-9]([-a-z0-9.]*[a-z0-9])?)\/eviction$/;

export function serveEviction(
  stores: EvictionStores,
  namespace: string,
  name: string,
  body: KubeObject,
  res: ServerResponse,
  log: string[],
): void {
  const stored = stores.pods.get(namespace, name);
  if (!stored) return send(res, 404, notFound("pods", "", name));
  if (body.metadata?.name !== undefined && body.metadata.name !== name) {
    return send(res, 400, kubeStatus(400, "BadRequest", "name in URL does not match name in Eviction object"));
  }
  const pod = JSON.parse(stored.json) as KubeObject;
  const uid = body.deleteOptions?.preconditions?.uid;
  if (uid !== undefined && uid !== pod.metadata?.uid) {
    return send(
      res,
      409,
      kubeStatus(
        409,
        "Conflict",
        `Operation cannot be fulfilled on pods "${name}": Precondition failed: UID in precondition: ${uid}, UID in object meta: ${pod.metadata?.uid ?? ""}`,
        { name, kind: "pods" },
      ),
    );
  }
  const budgets = [...stores.budgets.all()]
    .map((o) => JSON.parse(o.json) as KubeObject)
    .filter((b) => b.metadata?.namespace === namespace && selects(b, pod));
  if (budgets.length > 1) {
    return send(
      res,
      500,
      kubeStatus(500, "InternalError", "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."),
    );
  }
  const budget = budgets[0];
  if (budget && !isTerminal(pod)) {
    const minAvailable = Number(budget.spec?.minAvailable ?? 0);
    const healthy = [...stores.pods.all()]
      .map((o) => JSON.parse(o.json) as KubeObject)
      .filter((p) => p.metadata?.namespace === namespace && selects(budget, p) && !isTerminal(p)).length;
    if (healthy - 1 < minAvailable) {
      log.push(`blocked ${namespace}/${name}`);
      const cause = {
        reason: "DisruptionBudget",
        message: `The disruption budget ${budget.metadata.name} needs ${minAvailable} healthy pods and has ${healthy} currently`,
        field: "",
      };
      const status = kubeStatus(429, "TooManyRequests", "Cannot evict pod as it would violate the pod's disruption budget.", {
        causes: [cause],
      });
      // The real Status carries no `field` in this cause.
      delete (status.details!.causes![0] as { field?: string }).field;
      return send(res, 429, status);
    }
  }
  stores.pods.delete(namespace, name);
  log.push(`evicted ${namespace}/${name}`);
  send(res, 201, { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", code: 201 });
}

function selects(budget: KubeObject, pod: KubeObject): boolean {
  const want = (budget.spec?.selector?.matchLabels ?? {}) as Record<string, string>;
  const labels = (pod.metadata?.labels ?? {}) as Record<string, string>;
  return Object.entries(want).every(([k, v]) => labels[k] === v);
}

function isTerminal(pod: KubeObject): boolean {
  const phase = pod.status?.phase;
  return phase === "Succeeded" || phase === "Failed";
}

export async function readEvictionBody(req: IncomingMessage): Promise<KubeObject> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as unknown;
  if (typeof body !== "object" || body === null) throw new SyntaxError("the request body must be a JSON object");
  return body as KubeObject;
}
