import { prioritizeNodes, type NodeScore } from "../placement/filter-nodes.js";
import { ReceivedBody } from "../protocol/received-body.js";
import { prioritizeJson, toPrioritizeWire } from "../protocol/to-extender-wire.js";
import { JsonText, type HandlerReply, type VerbRunner } from "./extender-verb.js";
import { ReplyMemo } from "./reply-memo.js";
import { asIs, type VerbShared } from "./verb-shared.js";

/** POST /prioritize: hvx's score for every node sent; neutral scores in observe mode. */
export function prioritizeVerb(shared: VerbShared, runner: VerbRunner): (received: Buffer | string) => HandlerReply {
  const { deps, observe, unmapped, candidateNames } = shared;
  const replies = new ReplyMemo<JsonText, NodeScore>();
  const neutral = deps.policy.scoring.unknownScore;
  return (received) =>
    runner.run("prioritize", new ReceivedBody(received), {
      parse: shared.parseArgs,
      argsOf: asIs,
      decide: (req, ctx) => {
        const scores = prioritizeNodes(req.pod, req.nodes, ctx, replies.decisionsUnder(ctx.index!));
        deps.onNodes?.(req.nodes);
        if (!observe) deps.onPrioritized?.(scores, ctx);
        unmapped.note(req.nodes, scores);
        if (!observe) {
          const index = ctx.index!;
          return (
            replies.get(index, scores) ??
            replies.set(index, scores, new JsonText(prioritizeJson(scores, candidateNames.factsOf(req.nodes))))
          );
        }
        deps.shadow!.prioritize(scores, neutral);
        return toPrioritizeWire(scores.map((s) => ({ node: s.node, score: neutral })));
      },
      fallback: (req) => (req ? req.nodes.map((n) => ({ Host: n.name, Score: neutral })) : []),
    });
}
