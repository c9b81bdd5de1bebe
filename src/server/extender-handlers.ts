import type { MetricsSource } from "../model/metrics-source.js";
import type { NodeIdentity } from "../model/node.js";
import type { ExtenderMetrics, ExtenderVerb, VerdictTally } from "../observability/extender-metrics.js";
import type { Logger } from "../observability/logger.js";
import { RateLimited } from "../observability/rate-limited.js";
import type { ShadowMetrics } from "../observability/shadow-metrics.js";
import { applyAllRejectedValve, type ValvedFilterOutcome, type WhenAllRejected } from "../placement/all-rejected-valve.js";
import { RequestMemo, type NodeDecision } from "../placement/decide-node.js";
import { filterNodes, prioritizeNodes, type FilterOutcome, type NodeScore } from "../placement/filter-nodes.js";
import type { PlacementContext } from "../placement/decide-node.js";
import { LatestPlacementIndex } from "../placement/placement-index.js";
import type { PlacementPolicy } from "../placement/policy.js";
import { ExtenderArgsError, parseExtenderArgs, type ParsedExtenderArgs } from "../protocol/parse-extender-args.js";
import { CandidateNames } from "../protocol/candidate-names.js";
import { nodeItemTexts } from "../protocol/node-item-texts.js";
import { decodeJson, ExtenderArgsDecoder } from "../protocol/extender-args-decoder.js";
import { ReceivedBody } from "../protocol/received-body.js";
import { filterErrorWire, filterResultJson, prioritizeJson, toFilterResultWire, toPrioritizeWire } from "../protocol/to-extender-wire.js";
import { judgePreemptionCandidates, type PreemptionOutcome } from "../placement/preemption-candidates.js";
import { formatReasons } from "../protocol/format-reason.js";
import { formatWireReasons } from "../protocol/format-wire-reason.js";
import { parsePreemptionArgs, type ParsedPreemptionArgs } from "../protocol/parse-preemption-args.js";
import { allCandidatesWire, toPreemptionResultWire } from "../protocol/to-preemption-wire.js";
import { ReplyMemo } from "./reply-memo.js";
import { UnmappedNodeLog } from "./unmapped-node-log.js";
import type { ShadowRecorder } from "./shadow-recorder.js";

export interface ExtenderDeps {
  readonly source: MetricsSource;
  readonly policy: PlacementPolicy;
  readonly metrics: ExtenderMetrics;
  readonly log: Logger;
  readonly clock?: () => number;
  /** Extends the context per request (cluster awareness); identity when absent. */
  readonly enrich?: (ctx: PlacementContext, request: ParsedExtenderArgs) => PlacementContext;
  /**
   * `observe`: answer as if hvx were not there (pass all, neutral scores, candidates unchanged)
   * and record what it would have done. Default enforce.
   */
  readonly mode?: "enforce" | "observe";
  /** Needed in observe mode: where would-be decisions go. */
  readonly shadow?: ShadowRecorder;
  /** `filter.whenAllRejected`; default `reject` (today's behaviour) when absent. */
  readonly whenAllRejected?: WhenAllRejected;
  /** Counts `hvx_filter_all_rejected_total`. */
  readonly shadowMetrics?: ShadowMetrics;
  /** Told the nodes of every filter and prioritize request (`/debug/nodes` without a cache). */
  readonly onNodes?: (nodes: readonly NodeIdentity[]) => void;
  /** Told each filter outcome in enforce mode (pods rejected for host heat, requeued when it cools: src/cluster/pod-requeuer.ts). */
  readonly onFiltered?: (request: ParsedExtenderArgs, outcome: ValvedFilterOutcome) => void;
  /** Told hvx's prioritize scores in enforce mode (the in-flight ledger, src/placement/in-flight-ledger.ts). */
  readonly onPrioritized?: (scores: readonly NodeScore[], ctx: PlacementContext) => void;
}

/** The all-rejected valve logs at most once per pod and this window. */
const VALVE_LOG_INTERVAL_MS = 10_000;

/** A reply already rendered as JSON text (the filter's, built from per-snapshot fragments). */
class JsonText {
  private encoded: Buffer | undefined;
  constructor(readonly text: string) {}

  /** The text as UTF-8, encoded once: a reply answered again (`ReplyMemo`) is written without encoding it again. */
  readonly bytes = (): Buffer => (this.encoded ??= Buffer.from(this.text, "utf8"));
}

export interface HandlerReply {
  readonly status: number;
  /** JSON text. */
  readonly body: string;
  /** `body` as UTF-8, when the handler keeps it encoded. */
  readonly bytes?: () => Buffer;
}

/**
 * The extender verbs as functions from request text to reply text, so the HTTP route,
 * the benchmark and the simulator's HTTP check run the very same code.
 */
export function createExtenderHandlers(deps: ExtenderDeps) {
  const clock = deps.clock ?? Date.now;
  const observe = deps.mode === "observe";
  if (observe && !deps.shadow) throw new Error("mode observe needs a ShadowRecorder");
  const unmapped = new UnmappedNodeLog(deps.log, deps.policy, clock);
  // What every request against the same snapshots shares; rebuilt when a poll or the cluster cache hands over new ones.
  const latestIndex = new LatestPlacementIndex();
  const valveLog = new RateLimited(VALVE_LOG_INTERVAL_MS, clock);
  const candidateNames = new CandidateNames();
  const filterReplies = new ReplyMemo<
    { outcome: ValvedFilterOutcome; tally: VerdictTally; unmapped: boolean; text: JsonText },
    NodeDecision
  >();
  const prioritizeReplies = new ReplyMemo<JsonText, NodeScore>();

  function afterValve(pod: string, outcome: ValvedFilterOutcome): void {
    const valve = outcome.valve;
    if (!valve || observe) return;
    deps.shadowMetrics?.countAllRejected(valve.action === "passed-coolest" ? "passed_coolest" : "rejected");
    if (valveLog.allow(pod) === undefined) return;
    deps.log.warn(
      { pod, action: valve.action, coolest: valve.passed.slice(0, 20), tier: valve.tier, candidates: outcome.decisions.length },
      valve.action === "passed-coolest"
        ? "host heat rejected every candidate node: passing the coolest tier (filter.whenAllRejected: pass-coolest)"
        : valve.heldForPreemption
          ? "host heat rejected every candidate node: pod stays pending, it may preempt on nodes kube-scheduler did not send"
          : "host heat rejected every candidate node: pod stays pending (filter.whenAllRejected: reject)",
    );
  }

  function handle<R>(
    verb: ExtenderVerb,
    body: ReceivedBody,
    parse: (body: ReceivedBody) => R,
    argsOf: (request: R) => ParsedExtenderArgs,
    decide: (req: R, ctx: PlacementContext) => unknown,
    fallback: (req: R | undefined, err: unknown) => unknown,
  ): HandlerReply {
    const started = process.hrtime.bigint();
    let request: R | undefined;
    const elapsed = () => Number(process.hrtime.bigint() - started) / 1e9;
    try {
      request = parse(body);
      const base: PlacementContext = { inventory: deps.source.latest(), policy: deps.policy, nowMs: clock() };
      const enriched = deps.enrich ? deps.enrich(base, argsOf(request)) : base;
      const ctx: PlacementContext = {
        ...enriched,
        index: latestIndex.indexFor(enriched.inventory, enriched.cluster?.view, enriched.policy),
      };
      const out = decide(request, ctx);
      deps.metrics.observeRequest(verb, "ok", elapsed());
      return out instanceof JsonText ? { status: 200, body: out.text, bytes: out.bytes } : { status: 200, body: JSON.stringify(out) };
    } catch (err) {
      if (err instanceof ExtenderArgsError) {
        deps.metrics.observeRequest(verb, "bad_request", elapsed());
        deps.log.warn({ verb, error: err.message }, "rejected malformed extender request");
        return {
          status: 400,
          body: JSON.stringify(verb === "filter" ? filterErrorWire(`hvx: ${err.message}`) : { Error: `hvx: ${err.message}` }),
        };
      }
      // A bug must not take scheduling down: answer as if hvx had no opinion.
      deps.metrics.observeRequest(verb, "internal_error", elapsed());
      deps.log.error({ verb, err }, "extender internal error; failing open");
      return { status: 200, body: JSON.stringify(fallback(request, err)) };
    }
  }

  const asIs = (req: ParsedExtenderArgs) => req;
  const decoder = new ExtenderArgsDecoder();
  const parseArgs = (body: ReceivedBody) => parseExtenderArgs(decoder.decode(body), (names) => candidateNames.identities(names));

  return {
    filter(received: Buffer | string): HandlerReply {
      const body = new ReceivedBody(received);
      return handle(
        "filter",
        body,
        parseArgs,
        asIs,
        (req, ctx) => {
          const memo = new RequestMemo(req.nodes);
          const decided = filterNodes(req.pod, req.nodes, ctx, memo, filterReplies.decisionsUnder(ctx.index!));
          const index = ctx.index!;
          // In NodeNames mode the reply holds nothing of the request but the names, which the decisions carry.
          const known = !observe && req.mode === "nodeNames" ? filterReplies.get(index, decided.decisions) : undefined;
          const outcome = known?.outcome ?? applyAllRejectedValve(decided, req.pod, req.nodes, ctx, deps.whenAllRejected ?? "reject", memo);
          deps.onNodes?.(req.nodes);
          if (known?.unmapped !== false) unmapped.note(req.nodes, outcome.decisions);
          const pod = podName(req);
          afterValve(pod, outcome);
          if (!observe) deps.onFiltered?.(req, outcome);
          const itemTexts = () => nodeItemTexts(body.text());
          if (observe) {
            deps.shadow!.filter(pod, outcome);
            const facts = candidateNames.factsOf(req.nodes);
            return new JsonText(
              filterResultJson(req, passAll(req), formatWireReasons, (r) => JSON.stringify(formatWireReasons(r)), facts, itemTexts),
            );
          }
          let reply = known;
          if (!reply) {
            reply = {
              outcome,
              tally: deps.metrics.tallyVerdicts(outcome.decisions),
              unmapped: outcome.decisions.some(isUnmapped),
              text: new JsonText(
                filterResultJson(
                  req,
                  outcome,
                  (reasons) => index.textOf(reasons, formatWireReasons),
                  (reasons) => index.jsonTextOf(reasons, formatWireReasons),
                  candidateNames.factsOf(req.nodes),
                  itemTexts,
                ),
              ),
            };
            // Only a NodeNames reply is remembered: a Nodes-mode reply holds the request's Node objects.
            if (req.mode === "nodeNames") filterReplies.set(index, decided.decisions, reply);
          }
          deps.metrics.countTally(reply.tally);
          return reply.text;
        },
        (req) => (req ? toFilterResultWire(req, passAll(req)) : filterErrorWire("hvx: internal error")),
      );
    },
    prioritize(received: Buffer | string): HandlerReply {
      return handle(
        "prioritize",
        new ReceivedBody(received),
        parseArgs,
        asIs,
        (req, ctx) => {
          const scores = prioritizeNodes(req.pod, req.nodes, ctx, prioritizeReplies.decisionsUnder(ctx.index!));
          deps.onNodes?.(req.nodes);
          if (!observe) deps.onPrioritized?.(scores, ctx);
          unmapped.note(req.nodes, scores);
          if (!observe) {
            const index = ctx.index!;
            return (
              prioritizeReplies.get(index, scores) ??
              prioritizeReplies.set(index, scores, new JsonText(prioritizeJson(scores, candidateNames.factsOf(req.nodes))))
            );
          }
          const neutral = deps.policy.scoring.unknownScore;
          deps.shadow!.prioritize(scores, neutral);
          return toPrioritizeWire(scores.map((s) => ({ node: s.node, score: neutral })));
        },
        (req) => (req ? req.nodes.map((n) => ({ Host: n.name, Score: deps.policy.scoring.unknownScore })) : []),
      );
    },
    /**
     * POST /preempt: keeps the candidate nodes where hvx's filter would pass the pod once their
     * victims are gone, with the victims unchanged. On an internal error every candidate stays.
     */
    preempt(received: Buffer | string): HandlerReply {
      return handle(
        "preempt",
        new ReceivedBody(received),
        (body) => parsePreemptionArgs(decodeJson(body.text())),
        (req) => req.asExtenderArgs,
        (req, ctx) => {
          const outcome = judgePreemptionCandidates(req.pod, req.candidates, ctx);
          if (observe) {
            deps.shadow!.preempt(`${req.pod.namespace}/${req.pod.name}`, outcome);
            return allCandidatesWire(req);
          }
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

function isUnmapped(d: NodeDecision): boolean {
  return d.reasons.length > 0 && d.reasons[0]!.code === "node_unmapped";
}

function podName(req: ParsedExtenderArgs): string {
  return `${req.pod.namespace}/${req.pod.name}`;
}

/** Observe mode's filter reply: every node sent passes, as without hvx. */
function passAll(req: ParsedExtenderArgs): FilterOutcome {
  return { passed: req.nodes.map((n) => n.name), failed: new Map(), unresolvable: new Map(), decisions: [] };
}

export type ExtenderHandlers = ReturnType<typeof createExtenderHandlers>;
