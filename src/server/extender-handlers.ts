import type { ExtenderDeps } from "./extender-deps.js";
import { VerbRunner, type HandlerReply } from "./extender-verb.js";
import { filterVerb } from "./filter-verb.js";
import { preemptVerb } from "./preempt-verb.js";
import { prioritizeVerb } from "./prioritize-verb.js";
import { VerbShared } from "./verb-shared.js";

export type { ExtenderDeps } from "./extender-deps.js";
export type { HandlerReply } from "./extender-verb.js";

/** Each verb: request body (bytes or text) -> reply. */
export type ExtenderHandlers = Readonly<Record<"filter" | "prioritize" | "preempt", (received: Buffer | string) => HandlerReply>>;

/**
 * The extender verbs as functions from request body to reply text, so the HTTP route, the
 * benchmark and the simulator's HTTP check run the very same code. One file per verb.
 */
export function createExtenderHandlers(deps: ExtenderDeps): ExtenderHandlers {
  const clock = deps.clock ?? Date.now;
  const shared = new VerbShared(deps, clock);
  const runner = new VerbRunner(deps, clock);
  return { filter: filterVerb(shared, runner), prioritize: prioritizeVerb(shared, runner), preempt: preemptVerb(shared, runner) };
}
