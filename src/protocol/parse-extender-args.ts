import type { NodeIdentity } from "../model/node.js";
import { daemonSetControllerUid, type PodMeta } from "../placement/exemption.js";
import type { ExtenderArgs, WireNode, WirePod } from "./extender-wire.js";

/** A request body that is not valid ExtenderArgs; the message is safe to send back. */
export class ExtenderArgsError extends Error {
  override name = "ExtenderArgsError";
}

export interface ParsedExtenderArgs {
  readonly args: ExtenderArgs;
  readonly pod: PodMeta;
  /** Candidates in the order sent; names only in NodeNames mode. */
  readonly nodes: readonly NodeIdentity[];
  readonly mode: "nodeNames" | "nodes";
}

/**
 * Validates a decoded ExtenderArgs body. Throws ExtenderArgsError naming the first problem
 * (missing `Pod`, neither `Nodes` nor `NodeNames`, wrong types). `identitiesOf`: the
 * identities of a `NodeNames` list (a caller may hand back ones it keeps for the same names).
 */
export function parseExtenderArgs(
  body: unknown,
  identitiesOf: (names: readonly string[]) => readonly NodeIdentity[] = (names) => names.map((name) => ({ name })),
): ParsedExtenderArgs {
  if (!isObject(body)) throw new ExtenderArgsError("request body must be a JSON object (ExtenderArgs)");
  const pod = body.Pod;
  if (!isObject(pod)) throw new ExtenderArgsError("missing or invalid `Pod`: expected a v1.Pod object");
  const podMeta = toPodMeta(pod as WirePod);
  const names = body.NodeNames;
  const list = body.Nodes;
  if (names !== undefined && names !== null) {
    if (!Array.isArray(names) || !names.every((n) => typeof n === "string")) {
      throw new ExtenderArgsError("`NodeNames` must be an array of strings or null");
    }
    return {
      args: { Pod: pod as WirePod, Nodes: null, NodeNames: names },
      pod: podMeta,
      nodes: identitiesOf(names),
      mode: "nodeNames",
    };
  }
  if (list !== undefined && list !== null) {
    if (!isObject(list) || !Array.isArray(list.items))
      throw new ExtenderArgsError("`Nodes` must be a NodeList with an `items` array, or null");
    const nodes = list.items.map((item: unknown, i: number) => toNodeIdentity(item, i));
    return { args: { Pod: pod as WirePod, Nodes: list as never, NodeNames: null }, pod: podMeta, nodes, mode: "nodes" };
  }
  throw new ExtenderArgsError("neither `Nodes` nor `NodeNames` is set: nothing to filter");
}

function toNodeIdentity(item: unknown, index: number): NodeIdentity {
  if (!isObject(item)) throw new ExtenderArgsError(`Nodes.items[${index}] must be a v1.Node object`);
  const node = item as WireNode;
  const name = node.metadata?.name;
  if (typeof name !== "string" || name === "")
    throw new ExtenderArgsError(`Nodes.items[${index}].metadata.name must be a non-empty string`);
  const providerID = node.spec?.providerID;
  const systemUUID = node.status?.nodeInfo?.systemUUID;
  return {
    name,
    ...(typeof providerID === "string" ? { providerID } : {}),
    ...(typeof systemUUID === "string" ? { systemUUID } : {}),
  };
}

/** The pod fields placement reads; tolerant of absent optional fields, strict on types. */
export function toPodMeta(pod: WirePod): PodMeta {
  const meta = pod.metadata ?? {};
  if (!isObject(meta)) throw new ExtenderArgsError("`Pod.metadata` must be an object");
  const annotations = meta.annotations ?? {};
  if (!isObject(annotations)) throw new ExtenderArgsError("`Pod.metadata.annotations` must be an object");
  const owners = meta.ownerReferences ?? [];
  if (!Array.isArray(owners)) throw new ExtenderArgsError("`Pod.metadata.ownerReferences` must be an array");
  const spec = pod.spec ?? {};
  if (!isObject(spec)) throw new ExtenderArgsError("`Pod.spec` must be an object");
  const priority = spec.priority;
  const daemonSetUid = daemonSetControllerUid(owners);
  return {
    namespace: typeof meta.namespace === "string" && meta.namespace !== "" ? meta.namespace : "default",
    name: typeof meta.name === "string" ? meta.name : (meta.generateName ?? ""),
    ownerKinds: owners.map((o) => (isObject(o) && typeof o.kind === "string" ? o.kind : "")),
    ...(daemonSetUid !== undefined ? { daemonSetUid } : {}),
    ...(typeof spec.priorityClassName === "string" ? { priorityClassName: spec.priorityClassName } : {}),
    ...(typeof priority === "number" ? { priority } : {}),
    ...(typeof spec.preemptionPolicy === "string" ? { preemptionPolicy: spec.preemptionPolicy } : {}),
    ...(typeof spec.activeDeadlineSeconds === "number" && spec.activeDeadlineSeconds > 0
      ? { activeDeadlineSeconds: spec.activeDeadlineSeconds }
      : {}),
    annotations: annotations as Record<string, string>,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
