import { isTooOld } from "../placement/assess-host.js";
import type { ThresholdPolicy } from "../placement/policy.js";

/**
 * The times a set of verdicts tests with `isTooOld` (`clockInputsOf`), oldest first. The verdicts
 * depend on the clock only through which of them are too old, and an older time is too old
 * sooner: those are always a prefix, so how many are too old now (a binary search) says whether
 * verdicts judged at another reading of the clock still hold.
 */
export class TooOldTimes {
  private readonly times: Float64Array;

  constructor(times: Iterable<number>) {
    // Each time once (a poll samples most hosts and VMs at the same few times). A time that is not
    // finite is too old always or never: it cannot change a verdict.
    this.times = Float64Array.from([...new Set(times)].filter(Number.isFinite)).sort();
  }

  count(nowMs: number, t: ThresholdPolicy): number {
    let lo = 0;
    let hi = this.times.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (isTooOld(this.times[mid]!, nowMs, t)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
