import type { ServerResponse } from "node:http";
import { kubeStatus, notFound } from "./kube-status.js";
import type { KubeObject, ResourceStore } from "./resource-store.js";
import { send } from "./send-json.js";

export const BINDING_PATH = /^\/api\/v1\/namespaces\/([a-z0-9]([-a-z0-9.]*[a-z0-9])?)\/pods\/([a-z0-9]([-a-z0-9.]*[a-z0-9])?)\/binding$/;

/**
 * `POST /api/v1/namespaces/{ns}/pods/{name}/binding` (a v1 Binding, as kube-scheduler's
 * DefaultBinder sends it: `metadata {namespace, name, uid}`, `target {kind: Node, name}`),
 * answered as the pod registry's BindingREST: 400 when the Binding names another pod or
 * namespace; 500 with the field errors when `target.kind` is neither `Node` nor empty or
 * `target.name` is empty (ValidatePodBinding's errors go back unwrapped, which the API server
 * turns into an InternalError-coded Status with an empty reason); 404 for a missing pod;
 * 409 when `metadata.uid` is not the pod's or the pod already has a node; otherwise
 * `spec.nodeName` is set, the Binding's annotations are merged, `PodScheduled` turns True
 * (watchers see MODIFIED) and the answer is 201 with a Success Status.
 */
export function serveBinding(pods: ResourceStore, namespace: string, name: string, body: KubeObject, res: ServerResponse): void {
  if ((body.metadata?.name ?? "") !== name)
    return send(res, 400, kubeStatus(400, "BadRequest", "name in URL does not match name in Binding object"));
  if ((body.metadata?.namespace ?? namespace) !== namespace)
    return send(
      res,
      400,
      kubeStatus(400, "BadRequest", "the namespace of the provided object does not match the namespace sent on the request"),
    );
  const target = (body.target ?? {}) as { kind?: unknown; name?: unknown };
  const invalid: string[] = [];
  if (target.kind !== undefined && target.kind !== "" && target.kind !== "Node")
    invalid.push(`target.kind: Unsupported value: ${JSON.stringify(target.kind)}: supported values: "Node", "<empty>"`);
  if (typeof target.name !== "string" || target.name === "") invalid.push("target.name: Required value");
  if (invalid.length > 0) return send(res, 500, kubeStatus(500, "", invalid.length === 1 ? invalid[0]! : `[${invalid.join(", ")}]`));
  const stored = pods.get(namespace, name);
  if (!stored) return send(res, 404, notFound("pods", "", name));
  const pod = JSON.parse(stored.json) as KubeObject;
  const uid = body.metadata?.uid;
  if (typeof uid === "string" && uid !== "" && uid !== stored.uid)
    return send(
      res,
      409,
      kubeStatus(
        409,
        "Conflict",
        `Operation cannot be fulfilled on pods "${name}": Precondition failed: UID in precondition: ${uid}, UID in object meta: ${stored.uid}`,
        {
          name,
          kind: "pods",
        },
      ),
    );
  const already = pod.spec?.nodeName;
  if (typeof already === "string" && already !== "")
    return send(
      res,
      409,
      kubeStatus(
        409,
        "Conflict",
        `Operation cannot be fulfilled on pods/binding "${name}": pod ${name} is already assigned to node "${already}"`,
        {
          name,
          kind: "pods/binding",
        },
      ),
    );
  pods.put(bound(pod, target.name as string, body.metadata?.annotations));
  send(res, 201, { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", code: 201 });
}

function bound(pod: KubeObject, nodeName: string, annotations: unknown): KubeObject {
  const scheduled = {
    type: "PodScheduled",
    status: "True",
    lastProbeTime: null,
    lastTransitionTime: new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
  };
  const conditions = ((pod.status?.conditions ?? []) as Array<{ type?: string }>).filter((c) => c.type !== "PodScheduled");
  const extra = typeof annotations === "object" && annotations !== null ? (annotations as Record<string, string>) : {};
  return {
    ...pod,
    metadata: { ...pod.metadata, annotations: { ...pod.metadata?.annotations, ...extra } },
    spec: { ...pod.spec, nodeName },
    status: { ...pod.status, conditions: [...conditions, scheduled] },
  };
}
