/**
 * Delay before the next attempt after `failures` consecutive failed poll cycles, ms.
 * Exponential (`baseMs * 2^(failures-1)`, capped at `maxMs`) with "equal jitter": the
 * result lies in [cap/2, cap], so it grows with failures yet retries do not synchronise.
 * `random` returns [0, 1). With 0 failures the delay is `baseMs` (the normal interval).
 */
export function backoffDelayMs(failures: number, baseMs: number, maxMs: number, random: () => number): number {
  if (failures <= 0) return baseMs;
  const capMs = Math.min(maxMs, baseMs * 2 ** Math.min(failures - 1, 30));
  const r = Math.min(1, Math.max(0, random()));
  return Math.round(capMs / 2 + (capMs / 2) * r);
}
