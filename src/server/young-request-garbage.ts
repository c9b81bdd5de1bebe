import { setFlagsFromString } from "node:v8";

/**
 * Turns V8's allocation-site pretenuring off for `hvx serve`. Measured (docs/performance.md,
 * "Fifth pass"): once a poll cycle has run, V8 starts allocating objects the request path makes
 * straight in the old generation, and everything young they point to (the request body, the
 * parsed request, the reply) then survives every scavenge. About 3 MB of each scavenge's 13 MB
 * was copied and promoted instead of 30 KB: 3-5 ms pauses, a full collection every second or so
 * under load, and a round-trip p99 three times the floor's. The same with a trivial handler, so
 * it is not hvx's decision code; gone with the flag. V8 reads the flag at every collection, so
 * setting it at start-up is enough.
 */
export function keepRequestGarbageYoung(): void {
  setFlagsFromString("--no-allocation-site-pretenuring");
}
