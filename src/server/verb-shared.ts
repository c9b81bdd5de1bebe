import { CandidateNames } from "../protocol/candidate-names.js";
import { decodeJson } from "../protocol/decode-json.js";
import { parseExtenderArgs, type ParsedExtenderArgs } from "../protocol/parse-extender-args.js";
import type { ReceivedBody } from "../protocol/received-body.js";
import type { ExtenderDeps } from "./extender-deps.js";
import { UnmappedNodeLog } from "./unmapped-node-log.js";

/** What filter and prioritize share: the candidates' name facts, the unmapped-node log. */
export class VerbShared {
  readonly observe: boolean;
  readonly unmapped: UnmappedNodeLog;
  readonly candidateNames = new CandidateNames();

  constructor(
    readonly deps: ExtenderDeps,
    readonly clock: () => number,
  ) {
    this.observe = deps.mode === "observe";
    if (this.observe && !deps.shadow) throw new Error("mode observe needs a ShadowRecorder");
    this.unmapped = new UnmappedNodeLog(deps.log, deps.policy, clock);
  }

  readonly parseArgs = (body: ReceivedBody): ParsedExtenderArgs =>
    parseExtenderArgs(decodeJson(body.text()), (names) => this.candidateNames.identities(names));
}

export const asIs = (req: ParsedExtenderArgs): ParsedExtenderArgs => req;

export function podName(req: ParsedExtenderArgs): string {
  return `${req.pod.namespace}/${req.pod.name}`;
}
