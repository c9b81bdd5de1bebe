import type { MetricsSource } from "../model/metrics-source.js";
import type { ExtenderMetrics, ExtenderVerb } from "../observability/extender-metrics.js";
import type { Logger } from "../observability/logger.js";
import { filterNodes, prioritizeNodes } from "../placement/filter-nodes.js";
import type { PlacementContext } from "../placement/decide-node.js";
import type { PlacementPolicy } from "../placement/policy.js";
import { ExtenderArgsError, parseExtenderArgs, type ParsedExtenderArgs } from "../protocol/parse-extender-args.js";
import { filterErrorWire, toFilterResultWire, toPrioritizeWire } from "../protocol/to-extender-wire.js";

export interface ExtenderDeps {
  readonly source: MetricsSource;
  readonly policy: PlacementPolicy;
  readonly metrics: ExtenderMetrics;
  readonly log: Logger;
  readonly clock?: () => number;
  /** Extends the context per request (cluster awareness); identity when absent. */
  readonly enrich?: (ctx: PlacementContext, request: ParsedExtenderArgs) => PlacementContext;
}

export interface HandlerReply {
  readonly status: number;
  /** JSON text. */
  readonly body: string;
}

/**
 * The extender verbs as functions from request text to reply text, so the HTTP route,
 * the benchmark and the simulator's HTTP check run the very same code.
 */
export function createExtenderHandlers(deps: ExtenderDeps) {
  const clock = deps.clock ?? Date.now;

  function handle(verb: ExtenderVerb, text: string, decide: (req: ParsedExtenderArgs, ctx: PlacementContext) => unknown, fallback: (req: ParsedExtenderArgs | undefined, err: unknown) => unknown): HandlerReply {
    const started = process.hrtime.bigint();
    let request: ParsedExtenderArgs | undefined;
    const elapsed = () => Number(process.hrtime.bigint() - started) / 1e9;
    try {
      request = parseExtenderArgs(parseJson(text));
      const base: PlacementContext = { inventory: deps.source.latest(), policy: deps.policy, nowMs: clock() };
      const ctx = deps.enrich ? deps.enrich(base, request) : base;
      const body = JSON.stringify(decide(request, ctx));
      deps.metrics.observeRequest(verb, "ok", elapsed());
      return { status: 200, body };
    } catch (err) {
      if (err instanceof ExtenderArgsError) {
        deps.metrics.observeRequest(verb, "bad_request", elapsed());
        deps.log.warn({ verb, error: err.message }, "rejected malformed extender request");
        return { status: 400, body: JSON.stringify(verb === "filter" ? filterErrorWire(`hvx: ${err.message}`) : { Error: `hvx: ${err.message}` }) };
      }
      // A bug must not take scheduling down: answer as if hvx had no opinion.
      deps.metrics.observeRequest(verb, "internal_error", elapsed());
      deps.log.error({ verb, err }, "extender internal error; failing open");
      return { status: 200, body: JSON.stringify(fallback(request, err)) };
    }
  }

  return {
    filter(text: string): HandlerReply {
      return handle(
        "filter",
        text,
        (req, ctx) => {
          const outcome = filterNodes(req.pod, req.nodes, ctx);
          deps.metrics.countVerdicts(outcome.decisions);
          return toFilterResultWire(req, outcome);
        },
        (req) =>
          req
            ? toFilterResultWire(req, { passed: req.nodes.map((n) => n.name), failed: new Map(), unresolvable: new Map(), decisions: [] })
            : filterErrorWire("hvx: internal error"),
      );
    },
    prioritize(text: string): HandlerReply {
      return handle(
        "prioritize",
        text,
        (req, ctx) => toPrioritizeWire(prioritizeNodes(req.pod, req.nodes, ctx)),
        (req) => (req ? req.nodes.map((n) => ({ Host: n.name, Score: deps.policy.scoring.unknownScore })) : []),
      );
    },
  };
}

export type ExtenderHandlers = ReturnType<typeof createExtenderHandlers>;

function parseJson(text: string): unknown {
  if (text.trim() === "") throw new ExtenderArgsError("empty request body: expected ExtenderArgs JSON");
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ExtenderArgsError(`malformed JSON: ${(err as Error).message}`);
  }
}
