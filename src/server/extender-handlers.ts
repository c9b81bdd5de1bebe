import type { MetricsSource } from "../model/metrics-source.js";
import type { ExtenderMetrics, ExtenderVerb } from "../observability/extender-metrics.js";
import type { Logger } from "../observability/logger.js";
import { filterNodes, prioritizeNodes } from "../placement/filter-nodes.js";
import type { PlacementContext } from "../placement/decide-node.js";
import type { PlacementPolicy } from "../placement/policy.js";
import { ExtenderArgsError, parseExtenderArgs, type ParsedExtenderArgs } from "../protocol/parse-extender-args.js";
import { filterErrorWire, toFilterResultWire, toPrioritizeWire } from "../protocol/to-extender-wire.js";
import { judgePreemptionCandidates, type PreemptionOutcome } from "../placement/preemption-candidates.js";
import { formatReasons } from "../protocol/format-reason.js";
import { parsePreemptionArgs, type ParsedPreemptionArgs } from "../protocol/parse-preemption-args.js";
import { allCandidatesWire, toPreemptionResultWire } from "../protocol/to-preemption-wire.js";

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

  function handle<R>(
    verb: ExtenderVerb,
    text: string,
    parse: (body: unknown) => R,
    argsOf: (request: R) => ParsedExtenderArgs,
    decide: (req: R, ctx: PlacementContext) => unknown,
    fallback: (req: R | undefined, err: unknown) => unknown,
  ): HandlerReply {
    const started = process.hrtime.bigint();
    let request: R | undefined;
    const elapsed = () => Number(process.hrtime.bigint() - started) / 1e9;
    try {
      request = parse(parseJson(text));
      const base: PlacementContext = { inventory: deps.source.latest(), policy: deps.policy, nowMs: clock() };
      const ctx = deps.enrich ? deps.enrich(base, argsOf(request)) : base;
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

  const asIs = (req: ParsedExtenderArgs) => req;

  return {
    filter(text: string): HandlerReply {
      return handle(
        "filter",
        text,
        parseExtenderArgs,
        asIs,
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
        parseExtenderArgs,
        asIs,
        (req, ctx) => toPrioritizeWire(prioritizeNodes(req.pod, req.nodes, ctx)),
        (req) => (req ? req.nodes.map((n) => ({ Host: n.name, Score: deps.policy.scoring.unknownScore })) : []),
      );
    },
    /**
     * POST /preempt: keeps the candidate nodes where hvx's filter would pass the pod once their
     * victims are gone, with the victims unchanged. On an internal error every candidate stays.
     */
    preempt(text: string): HandlerReply {
      return handle(
        "preempt",
        text,
        parsePreemptionArgs,
        (req) => req.asExtenderArgs,
        (req, ctx) => {
          const outcome = judgePreemptionCandidates(req.pod, req.candidates, ctx);
          logPreemption(deps.log, req, outcome);
          return toPreemptionResultWire(req, outcome.kept);
        },
        (req) => (req ? allCandidatesWire(req) : { NodeNameToMetaVictims: {} }),
      );
    },
  };
}

/** Which candidates hvx dropped and why, and victims its cluster view does not know (debug level). */
function logPreemption(log: Logger, req: ParsedPreemptionArgs, outcome: PreemptionOutcome): void {
  const dropped = outcome.verdicts.filter((v) => !v.keep);
  const unknownVictims = outcome.verdicts.reduce((n, v) => n + v.unknownVictims.length, 0);
  if (dropped.length === 0 && unknownVictims === 0) return;
  log.debug(
    {
      pod: `${req.pod.namespace}/${req.pod.name}`,
      candidates: req.candidates.length,
      kept: outcome.kept.length,
      dropped: Object.fromEntries(dropped.slice(0, 20).map((v) => [v.node, formatReasons(v.reasons)])),
      unknownVictims,
    },
    "preempt: candidates dropped by hvx",
  );
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
