import type { MetricsSource, SourceStatus } from "../model/metrics-source.js";
import type { PlacementContext } from "../placement/decide-node.js";
import { explainNodes } from "../placement/explain-node.js";
import type { PlacementPolicy } from "../placement/policy.js";
import { toExplainWire } from "../protocol/explain-wire.js";
import { ExtenderArgsError, parseExtenderArgs, type ParsedExtenderArgs } from "../protocol/parse-extender-args.js";
import type { HandlerReply } from "./extender-handlers.js";
import { describeSourceDown } from "./source-down.js";

export interface ExplainDeps {
  readonly source: MetricsSource;
  /** The source's health: without any data, the answer says the source is down instead of blaming each node's mapping. */
  readonly sourceStatus?: () => SourceStatus;
  readonly policy: PlacementPolicy;
  readonly clock?: () => number;
  /** The same per-request enrichment as the extender verbs (cluster awareness). */
  readonly enrich?: (ctx: PlacementContext, request: ParsedExtenderArgs) => PlacementContext;
  /** Pending-pod lookups for `GET /debug/explain?pod=`; absent without Kubernetes access. */
  readonly cluster?: {
    /** The pod as the API server has it (v1.Pod JSON), or undefined when it does not exist. */
    readonly readPod: (namespace: string, name: string) => Promise<unknown>;
    /** Every node name in the cluster cache. */
    readonly nodeNames: () => readonly string[];
  };
}

const json = (status: number, value: unknown): HandlerReply => ({ status, body: `${JSON.stringify(value, null, 2)}\n` });
const error = (status: number, message: string): HandlerReply => json(status, { Error: `hvx: ${message}` });

/**
 * `/debug/explain`: why each node passes or fails and scores what it does, computed by the
 * extender's own decisions. POST takes ExtenderArgs (the /filter body and its 400 rules);
 * GET takes `pod=NAMESPACE/NAME` and judges that pod against every node in the cluster cache.
 */
export function createExplainHandler(deps: ExplainDeps) {
  const clock = deps.clock ?? Date.now;

  function explainParsed(request: ParsedExtenderArgs): HandlerReply {
    const base: PlacementContext = { inventory: deps.source.latest(), policy: deps.policy, nowMs: clock() };
    const ctx = deps.enrich ? deps.enrich(base, request) : base;
    const reply = toExplainWire(`${request.pod.namespace}/${request.pod.name}`, explainNodes(request.pod, request.nodes, ctx));
    const down = describeSourceDown(base.inventory, deps.sourceStatus?.());
    if (down === undefined) return json(200, reply);
    // No VM can be mapped without data: the reason is the source, not each node's mapping.
    const nodes = reply.nodes.map((n) => (n.mapping.vm ? n : { ...n, reasons: [down], ...(n.why !== undefined ? { why: down } : {}) }));
    return json(200, { ...reply, sourceDown: down, nodes });
  }

  return {
    /** POST: the body is ExtenderArgs (NodeNames or Nodes). */
    explainArgs(text: string): HandlerReply {
      let request: ParsedExtenderArgs;
      try {
        if (text.trim() === "") throw new ExtenderArgsError("empty request body: expected ExtenderArgs JSON");
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch (err) {
          throw new ExtenderArgsError(`malformed JSON: ${(err as Error).message}`);
        }
        request = parseExtenderArgs(body);
      } catch (err) {
        if (err instanceof ExtenderArgsError) return error(400, err.message);
        throw err;
      }
      return explainParsed(request);
    },
    /** GET ?pod=NAMESPACE/NAME: the pod read from the API server, against every cached node. */
    async explainPod(ref: unknown): Promise<HandlerReply> {
      if (typeof ref !== "string" || !/^[^/\s]+\/[^/\s]+$/.test(ref)) return error(400, "pod must be given as ?pod=NAMESPACE/NAME");
      if (!deps.cluster)
        return error(
          400,
          "no Kubernetes cluster cache (kubernetes.enabled is off or no kubeconfig): POST ExtenderArgs to /debug/explain instead",
        );
      const [namespace, name] = ref.split("/") as [string, string];
      const pod = await deps.cluster.readPod(namespace, name);
      if (pod === undefined) return error(400, `pod ${ref} not found`);
      const nodeNames = deps.cluster.nodeNames();
      if (nodeNames.length === 0) return error(400, "the cluster cache holds no nodes yet (not synced?)");
      return explainParsed(parseExtenderArgs({ Pod: pod, NodeNames: nodeNames }));
    },
  };
}

export type ExplainHandler = ReturnType<typeof createExplainHandler>;
