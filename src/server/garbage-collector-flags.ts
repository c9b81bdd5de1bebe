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
 *
 * Both flags mean the same in V8 13.6 (Node.js 24) as in V8 11.3 (Node.js 20), where they were
 * measured; docs/performance.md "Node.js 24".
 */
export const GARBAGE_COLLECTOR_FLAGS = ["--no-allocation-site-pretenuring", "--incremental-marking-soft-trigger=80"] as const;

/**
 * A flag the running V8 does not know only makes it print "unrecognized flag" and carry on;
 * test/server/garbage-collector-flags.test.ts fails instead, on the Node.js that CI runs.
 */
export function setGarbageCollectorFlags(): void {
  for (const flag of GARBAGE_COLLECTOR_FLAGS) setFlagsFromString(flag);
}
