import { setFlagsFromString } from "node:v8";

/**
 * V8 flags `hvx serve` sets at start-up. V8 reads both as it runs, not only when it starts, so
 * setting them before the first request is enough. Measured in docs/performance.md.
 *
 * - No allocation-site pretenuring ("Fifth pass"): once a poll cycle has run, V8 starts
 *   allocating objects the request path makes straight in the old generation, and everything
 *   young they point to (the request body, the parsed request, the reply) then survives every
 *   scavenge: 3 MB copied per scavenge instead of 30 KB, 3-5 ms pauses, a full collection every
 *   second or so. The same with a trivial handler, so it is not hvx's decision code.
 * - Incremental marking started at 80 % of the old generation's headroom ("Eighth pass"). By
 *   default V8 starts it as soon as the headroom left is smaller than the young generation, and
 *   with hvx's small live heap (about 45 MB without the cluster cache) that is right after every
 *   mark-compact: under load, one mark-compact after another, 2-13 ms pauses several times a
 *   second. The limit is unchanged, so the heap grows no larger; a large heap (the cluster
 *   cache) starts marking a little earlier than by default.
 */
export function setGarbageCollectorFlags(): void {
  setFlagsFromString("--no-allocation-site-pretenuring");
  setFlagsFromString("--incremental-marking-soft-trigger=80");
}
