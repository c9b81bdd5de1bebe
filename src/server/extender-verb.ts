import type { ExtenderVerb } from "../observability/extender-metrics.js";
import type { PlacementContext } from "../placement/decide-node.js";
import { LatestPlacementIndex } from "../placement/placement-index.js";
import { ExtenderArgsError, type ParsedExtenderArgs } from "../protocol/parse-extender-args.js";
import type { ReceivedBody } from "../protocol/received-body.js";
import { filterErrorWire } from "../protocol/to-extender-wire.js";
import type { ExtenderDeps } from "./extender-deps.js";

/** A reply already rendered as JSON text (the filter's, built from per-snapshot fragments). */
export class JsonText {
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

/** The most a slice of work between requests holds the event loop (`VerbRunner.learnSoon`). */
const SLICE_MS = 1;

/** How one verb reads its request and decides, and what it answers when hvx fails. */
export interface VerbSteps<R> {
  readonly parse: (body: ReceivedBody) => R;
  readonly argsOf: (request: R) => ParsedExtenderArgs;
  readonly decide: (request: R, ctx: PlacementContext) => unknown;
  /** A bug must not take scheduling down: the answer as if hvx had no opinion. */
  readonly fallback: (request: R | undefined, err: unknown) => unknown;
}

/**
 * What every verb does around its decision: time it, build the request's placement context
 * (snapshots, enrichment, the latest snapshot index), answer 400 for a malformed request and
 * fail open on an internal error, counting each outcome.
 */
export class VerbRunner {
  /** What every request against the same snapshots shares; rebuilt when a poll or the cluster cache hands over new ones. */
  private readonly latestIndex = new LatestPlacementIndex(true);
  private learning = false;

  constructor(
    private readonly deps: ExtenderDeps,
    private readonly clock: () => number,
  ) {}

  run<R>(verb: ExtenderVerb, body: ReceivedBody, steps: VerbSteps<R>): HandlerReply {
    const { deps } = this;
    const started = process.hrtime.bigint();
    let request: R | undefined;
    const elapsed = () => Number(process.hrtime.bigint() - started) / 1e9;
    try {
      request = steps.parse(body);
      const base: PlacementContext = { inventory: deps.source.latest(), policy: deps.policy, nowMs: this.clock() };
      const enriched = deps.enrich ? deps.enrich(base, steps.argsOf(request)) : base;
      const ctx: PlacementContext = {
        ...enriched,
        index: this.latestIndex.indexFor(enriched.inventory, enriched.cluster?.view, enriched.policy),
      };
      const out = steps.decide(request, ctx);
      this.learnSoon();
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
      deps.metrics.observeRequest(verb, "internal_error", elapsed());
      deps.log.error({ verb, err }, "extender internal error; failing open");
      return { status: 200, body: JSON.stringify(steps.fallback(request, err)) };
    }
  }

  /** Learns the latest index's new correlated groups between requests, SLICE_MS at a time, after a request used the earlier ones. */
  private learnSoon(): void {
    if (this.learning || !this.latestIndex.groupsToLearn) return;
    this.learning = true;
    const runLater = this.deps.runLater ?? setImmediate;
    const slice = () => {
      try {
        if (!this.latestIndex.learnGroups(SLICE_MS)) return void runLater(slice);
      } catch (err) {
        this.deps.log.error({ err }, "learning the correlated groups failed; the earlier groups stand until the next poll's");
      }
      this.learning = false;
    };
    runLater(slice);
  }
}
