import type { Logger } from "../observability/logger.js";
import { judgePreemptionCandidates, type PreemptionOutcome } from "../placement/preemption-candidates.js";
import { decodeJson } from "../protocol/decode-json.js";
import { formatReasons } from "../protocol/format-reason.js";
import { parsePreemptionArgs, type ParsedPreemptionArgs } from "../protocol/parse-preemption-args.js";
import { ReceivedBody } from "../protocol/received-body.js";
import { allCandidatesWire, toPreemptionResultWire } from "../protocol/to-preemption-wire.js";
import type { HandlerReply, VerbRunner } from "./extender-verb.js";
import type { VerbShared } from "./verb-shared.js";

/**
 * POST /preempt: keeps the candidate nodes where hvx's filter would pass the pod once their
 * victims are gone, with the victims unchanged. On an internal error every candidate stays.
 */
export function preemptVerb(shared: VerbShared, runner: VerbRunner): (received: Buffer | string) => HandlerReply {
  const { deps, observe } = shared;
  return (received) =>
    runner.run("preempt", new ReceivedBody(received), {
      parse: (body) => parsePreemptionArgs(decodeJson(body.text())),
      argsOf: (req) => req.asExtenderArgs,
      decide: (req, ctx) => {
        const outcome = judgePreemptionCandidates(req.pod, req.candidates, ctx);
        if (observe) {
          deps.shadow!.preempt(`${req.pod.namespace}/${req.pod.name}`, outcome);
          return allCandidatesWire(req);
        }
        logPreemption(deps.log, req, outcome);
        return toPreemptionResultWire(req, outcome.kept);
      },
      fallback: (req) => (req ? allCandidatesWire(req) : { NodeNameToMetaVictims: {} }),
    });
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
