import type { VerdictTally } from "../observability/extender-metrics.js";
import { RateLimited } from "../observability/rate-limited.js";
import { applyAllRejectedValve, type ValvedFilterOutcome } from "../placement/all-rejected-valve.js";
import { RequestMemo, type NodeDecision } from "../placement/decide-node.js";
import { filterNodes, type FilterOutcome } from "../placement/filter-nodes.js";
import { formatWireReasons } from "../protocol/format-wire-reason.js";
import { nodeItemTexts } from "../protocol/node-item-texts.js";
import type { ParsedExtenderArgs } from "../protocol/parse-extender-args.js";
import { ReceivedBody } from "../protocol/received-body.js";
import { filterErrorWire, filterResultJson, toFilterResultWire } from "../protocol/to-extender-wire.js";
import { JsonText, type HandlerReply, type VerbRunner } from "./extender-verb.js";
import { ReplyMemo } from "./reply-memo.js";
import { asIs, podName, type VerbShared } from "./verb-shared.js";

/** The all-rejected valve logs at most once per pod and this window. */
const VALVE_LOG_INTERVAL_MS = 10_000;

/** POST /filter: the pod's decision on every node sent, the all-rejected valve, the reply in the request's mode. */
export function filterVerb(shared: VerbShared, runner: VerbRunner): (received: Buffer | string) => HandlerReply {
  const { deps, observe, unmapped, candidateNames } = shared;
  const valveLog = new RateLimited(VALVE_LOG_INTERVAL_MS, shared.clock);
  const replies = new ReplyMemo<{ outcome: ValvedFilterOutcome; tally: VerdictTally; unmapped: boolean; text: JsonText }, NodeDecision>();

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

  return (received) => {
    const body = new ReceivedBody(received);
    return runner.run("filter", body, {
      parse: shared.parseArgs,
      argsOf: asIs,
      decide: (req, ctx) => {
        // A filter answers verdicts: scores are prioritize's.
        const memo = new RequestMemo(req.nodes, false);
        const decided = filterNodes(req.pod, req.nodes, ctx, memo, replies.decisionsUnder(ctx.index!));
        const index = ctx.index!;
        // In NodeNames mode the reply holds nothing of the request but the names, which the decisions carry.
        const known = !observe && req.mode === "nodeNames" ? replies.get(index, decided.decisions) : undefined;
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
          if (req.mode === "nodeNames") replies.set(index, decided.decisions, reply);
        }
        deps.metrics.countTally(reply.tally);
        return reply.text;
      },
      fallback: (req) => (req ? toFilterResultWire(req, passAll(req)) : filterErrorWire("hvx: internal error")),
    });
  };
}

/** Observe mode's filter reply: every node sent passes, as without hvx. */
function passAll(req: ParsedExtenderArgs): FilterOutcome {
  return { passed: req.nodes.map((n) => n.name), failed: new Map(), unresolvable: new Map(), decisions: [] };
}

function isUnmapped(d: NodeDecision): boolean {
  return d.reasons.length > 0 && d.reasons[0]!.code === "node_unmapped";
}
