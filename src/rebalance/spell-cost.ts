/**
 * The rebalancer's cost model (issue 26 §3): whether evicting a pod off a spell that has lasted
 * a while is worth its restart. Pure: plain numbers in and out.
 */

/** Ended spells remembered per kind (host, node VM): the latest this many, bounded in memory. */
export const SPELL_HISTORY_SIZE = 500;
/**
 * Fewer ended spells than this outlasted the current one's age: no estimate, so no opinion
 * (a fresh hvx, or a spell longer than almost all seen before, waits for the chronic rule).
 */
export const MIN_LONGER_SPELLS = 10;

/** Durations of ended spells, seconds, oldest first. */
export interface SpellHistory {
  readonly hostSeconds: readonly number[];
  readonly vmSeconds: readonly number[];
}

export const EMPTY_SPELL_HISTORY: SpellHistory = { hostSeconds: [], vmSeconds: [] };

/** How long each spell of `prev` that `next` no longer holds lasted, seconds (it ended by `nowMs`). */
export function endedSpellSeconds(
  prev: ReadonlyMap<string, { readonly sinceMs: number }>,
  next: ReadonlyMap<string, unknown>,
  nowMs: number,
): number[] {
  const out: number[] = [];
  for (const [key, spell] of prev) if (!next.has(key)) out.push((nowMs - spell.sinceMs) / 1000);
  return out;
}

/** `history` then `ended`, the oldest dropped beyond `SPELL_HISTORY_SIZE`. */
export function withEnded(history: readonly number[], ended: readonly number[]): readonly number[] {
  if (ended.length === 0) return history;
  return [...history, ...ended].slice(-SPELL_HISTORY_SIZE);
}

/**
 * Expected further seconds of a spell that has lasted `elapsedS`: the mean residual life
 * E[D - t | D > t] over the ended spells `historyS` that lasted longer than `elapsedS`.
 * Undefined with fewer than `MIN_LONGER_SPELLS` of them (not enough to say). Spells are short
 * and bursty here (most end within minutes, a few last hours): a fitted distribution would
 * assume a shape, the empirical mean assumes none and follows the cluster as it changes.
 */
export function expectedRemainingSeconds(historyS: readonly number[], elapsedS: number): number | undefined {
  let longer = 0;
  let sum = 0;
  for (const d of historyS) {
    if (d <= elapsedS) continue;
    longer++;
    sum += d - elapsedS;
  }
  return longer >= MIN_LONGER_SPELLS ? sum / longer : undefined;
}

/**
 * An eviction off the spell is worth it when the contended pod-seconds it removes exceed what
 * the restart costs the pod: the pod alone, away from the spell for its expected remainder
 * (`expectedRemainingS`), against `restartSeconds` without it running. Neighbours relieved
 * by its leaving are not counted: the model errs on the side of leaving pods alone.
 */
export function worthEvicting(expectedRemainingS: number | undefined, restartSeconds: number): boolean {
  return expectedRemainingS !== undefined && expectedRemainingS > restartSeconds;
}
